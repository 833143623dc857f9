/// A tap on an application that did not answer the brief question before it (a stopped or
/// hung process, or one held up on a busy machine): it is held, not refused, while the
/// application is asked again in the background, and carried out once it answers, unless the
/// user pressed a switch since (a tap acting after the user moved on would act unseen) or
/// `answerBound` passed (then it is said not done).
public struct HeldTap: Sendable {
    /// Longest a tap is held for its application's answer, in seconds: an application held
    /// up by a loaded machine answers within a few seconds (a call's own timeout is 1.5 s);
    /// one silent for longer is taken as stopped, and the user is told so rather than left
    /// waiting for a tap that may never happen.
    public static let answerBound = 5.0

    /// What the background question to the application has come to.
    public enum Answer: Hashable, Sendable {
        /// Nothing yet.
        case waiting
        /// The application answered.
        case answered
        /// The question timed out, or could not be sent.
        case unanswered
        /// The application left the bus.
        case left
    }

    /// What to do about the held tap now.
    public enum Next: Hashable, Sendable {
        /// Keep holding it; look again at `until` at the latest.
        case wait(until: Double)
        /// The application answered: carry out the tap.
        case carryOut
        /// Ask the application again (the last question went unanswered, time is left).
        case askAgain
        /// The bound passed, or the application left: the tap is not done.
        case giveUp
    }

    /// When the tap was held (the clock's seconds).
    public let since: Double

    public init(since: Double) {
        self.since = since
    }

    /// When the bound passes.
    public var end: Double { since + Self.answerBound }

    /// What to do at `now`, given what the question to the application has come to.
    public func next(_ answer: Answer, at now: Double) -> Next {
        switch answer {
        case .answered: return .carryOut
        case .left: return .giveUp
        case .waiting, .unanswered:
            if now >= end { return .giveUp }
            return answer == .unanswered ? .askAgain : .wait(until: end)
        }
    }
}
