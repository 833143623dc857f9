import AccessibilityModel
import Atspi
import LiveTree
import Platform
import Scanning

/// A command on an element whose application did not answer at once, held (`HeldTap`).
struct HeldTapRequest {
    var command: ElementCommand
    var element: Element
    var busName: String
    var decision: HeldTap
    /// What the background question has come to, as last taken.
    var answer: HeldTap.Answer = .waiting
}

extension LiveApplication {
    /// Holds `command` on `element` while its application (`busName`), which did not answer the
    /// brief question, is asked again in the background; said pending at once. A tap held
    /// before is dropped (the user's press moved on from it).
    func holdTap(_ command: ElementCommand, on element: Element, busName: String) -> ContentUpdate {
        cancelHeldTap()
        heldTap = HeldTapRequest(command: command, element: element, busName: busName, decision: HeldTap(since: MonotonicClock.now()))
        ApplicationSilence.shared.awaitAnswer(busName, milliseconds: Self.milliseconds(HeldTap.answerBound))
        Self.say("held: \(command) on \(element.id)")
        let name = applicationNames[busName] ?? applicationName
        return ContentUpdate(notifications: [AccessibilityNotification(kind: .announcement, text: "pending: \(name) is slow to answer")]
            + silenceNotes(except: busName))
    }

    /// The user pressed a switch: a held tap is dropped, unsaid (it would act after the user
    /// moved on, on what may no longer be in view).
    /// An application that has still not answered by then is taken as not answering, unsaid:
    /// otherwise the app switcher's search for windows asks it again and waits the brief
    /// question out, and switching away from a stopped application takes longer than half a
    /// second.
    public func switchPressed() {
        guard let held = heldTap else { return }
        let answer = ApplicationSilence.shared.awaitedAnswer(held.busName)
        cancelHeldTap()
        if answer == .waiting || answer == .unanswered { ApplicationSilence.shared.markSilentQuietly(held.busName) }
    }

    func cancelHeldTap() {
        guard let held = heldTap else { return }
        Self.say("held: \(held.command) on \(held.element.id) dropped")
        ApplicationSilence.shared.stopAwaiting(held.busName)
        heldTap = nil
    }

    /// When the held tap is to be looked at again (nil: none is held); at once when its
    /// application has answered, left, or the bound has passed.
    func heldTapDue(at now: Double) -> Double? {
        guard var held = heldTap else { return nil }
        if held.answer == .waiting {
            held.answer = ApplicationSilence.shared.awaitedAnswer(held.busName)
            heldTap = held
        }
        if case .wait(let until) = held.decision.next(held.answer, at: now) { return until }
        return Self.dueAtOnce
    }

    /// The held tap's outcome, once there is one: carried out as a tap is (its update said as any
    /// of the application's changes), or said not done once the bound passed (the application
    /// silent from then on, as one whose call timed out).
    func takeHeldTap(at now: Double) -> [RuntimeInput] {
        guard var held = heldTap else { return [] }
        let silence = ApplicationSilence.shared
        if held.answer == .waiting { held.answer = silence.awaitedAnswer(held.busName) }
        switch held.decision.next(held.answer, at: now) {
        case .wait:
            heldTap = held
            return []
        case .askAgain:
            held.answer = .waiting
            heldTap = held
            silence.awaitAnswer(held.busName, milliseconds: Self.milliseconds(held.decision.end - now))
            return []
        case .carryOut:
            heldTap = nil
            Self.say("held: \(held.command) on \(held.element.id) carried out")
            return perform(held.command, on: held.element, mayHold: false).map { [.content($0)] } ?? []
        case .giveUp:
            heldTap = nil
            Self.say("held: \(held.command) on \(held.element.id) not done (\(held.answer))")
            silence.stopAwaiting(held.busName)
            let name = applicationNames[held.busName] ?? applicationName
            let left = held.answer == .left
            if !left { silence.markSilent(held.busName) }
            let text = "not done: \(name) " + (left ? "has closed" : "is not answering")
            return [.content(ContentUpdate(notifications: [AccessibilityNotification(kind: .announcement, text: text)]
                + silenceNotes(except: held.busName)))]
        }
    }

    /// `seconds` as a D-Bus timeout (at least 1 ms; the bound keeps it small).
    static func milliseconds(_ seconds: Double) -> Int32 {
        Int32(min(max(seconds, 0.001), HeldTap.answerBound) * 1000)
    }
}
