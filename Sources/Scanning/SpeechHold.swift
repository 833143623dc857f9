/// Auditory scanning's rule, as "nothing acts unseen" is braille's: with speech on, an auto
/// scanning step (or a single-switch dwell) lasts at least until the speech of what it shows has
/// finished, and a press never acts on an item whose speech has not begun.
///
/// Each line the scanner shows for the user to act on (a highlight, a menu entry, the highlight
/// again after a message) is one utterance, numbered: the speech output says it with that
/// number and tells back when it began and ended, so that news of a line already left (the end
/// of a message the next highlight cancelled) changes nothing.
public struct SpeechHold: Hashable, Sendable {
    public enum Progress: Hashable, Sendable {
        /// Said to the speech output; not yet heard.
        case notBegun
        case speaking
        /// Spoken to its end (or cancelled by something other than the scanner's next line).
        case finished
    }

    /// Whether the rule applies: speech is on and speech-dispatcher answers (when it does not, the
    /// scan goes on without waiting for speech that will never come).
    public internal(set) var isOn = false
    /// The number of the line now shown; the speech output says it with this number.
    public internal(set) var utterance = 0
    public internal(set) var progress: Progress = .finished
    /// The step (or dwell) that came due while the line was still being spoken: it is taken when
    /// the speech ends.
    public internal(set) var waitingTimer: ScanTimer?

    public init() {}

    /// A new line is shown: its speech is still to come.
    mutating func lineShown() {
        utterance &+= 1
        progress = .notBegun
        waitingTimer = nil
    }

    /// A step or dwell must wait for the speech.
    var holdsStep: Bool { isOn && progress != .finished }
    /// A press must be ignored: the item has not been heard at all.
    var holdsPress: Bool { isOn && progress == .notBegun }
}
