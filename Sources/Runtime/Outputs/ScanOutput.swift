import BrailleFormatting
import Scanning

/// What every output is: the braille display, speech, the terminal view, the highlight on the
/// screen and the trace. Each turn of the run hands all of them the same typed stream, the
/// session's outputs in order (`SessionOutput`: the highlight, the menu and its entry's position,
/// the line and its language, announcements, commands performed, scanning started or stopped)
/// with the run's own statuses among them, and what that leaves shown (`ShownState`). An output
/// that keeps the run's record (the trace) is also handed, as the run writes it down, every
/// record: the same session outputs dated as the loop handled them, and what the other outputs
/// did (`RunRecord`). An output that has something to tell the run (the reader panned away from
/// the line's first window, speech begun or ended, a status) reports it (`takeReports`); the run
/// treats every output alike.
public protocol ScanOutput: AnyObject {
    /// What its statuses are said as coming from (`speech`, `trace`).
    var name: String { get }
    /// A turn: `outputs` since the last turn, in order, then the state they leave.
    func present(_ outputs: [SessionOutput], shown: ShownState, at now: Double)
    /// Shows a forecast's line (what the next edge will show) ahead of the session handling
    /// that edge: the session's own `present` follows with the same line.
    func showAhead(_ line: BrailleLine, language: String?, at now: Double)
    /// Makes `line` ready to be shown soon (a highlight the scanner may reach next), while the
    /// run is idle; shows nothing.
    func prepare(_ line: BrailleLine, language: String?)
    /// Whether the output shows the braille line at all: lines are made ahead only for such
    /// outputs, and the run leaves the CPU to the display for a moment after writing one.
    var showsLines: Bool { get }
    /// Whether a line it shows reaches a reader now (a display connected): edges are forecast
    /// only then.
    var isShowingLines: Bool { get }
    /// What happened at the output since the run last asked, for the run to act on.
    func takeReports() -> [OutputReport]
    /// Calls `observer` as each write to the device returns, for the trace.
    func observeWrites(_ observer: @escaping (OutputWrite) -> Void)
    /// What it shows was overwritten (the terminal taken back after `fg`, a resize): the next
    /// turn shows it whole.
    func shownWasLost()

    /// Whether it keeps the run's record: the run dates what it records (a clock reading per
    /// record) only when some output does.
    var keepsRecords: Bool { get }
    /// The records since the last call, in order: written at once, together (the run hands them
    /// over at idle moments, never on the way to a braille write).
    func record(_ records: [RunRecord])
    /// When records it could not write yet should be offered again (`retryRecords`), on the
    /// monotonic clock; nil when none wait.
    var recordRetryDue: Double? { get }
    func retryRecords()
}

extension ScanOutput {
    public var name: String { "output" }
    public func showAhead(_ line: BrailleLine, language: String?, at now: Double) {}
    public func prepare(_ line: BrailleLine, language: String?) {}
    public var showsLines: Bool { false }
    public var isShowingLines: Bool { false }
    public func takeReports() -> [OutputReport] { [] }
    public func observeWrites(_ observer: @escaping (OutputWrite) -> Void) {}
    public func shownWasLost() {}
    public var keepsRecords: Bool { false }
    public func record(_ records: [RunRecord]) {}
    public var recordRetryDue: Double? { nil }
    public func retryRecords() {}
}

/// What the run writes down (the trace's lines), in the order it happened.
public enum RunRecord {
    /// A session output (or the run's own status), with when the loop handled it (seconds
    /// since the start) and, for a switch edge, its source's timestamp and when the loop began
    /// reading that source (CLOCK_MONOTONIC seconds).
    case output(SessionOutput, handled: Double, timestamp: Double?, read: Double?)
    /// An output's write to its device returned.
    case written(OutputWrite)
    /// Speech's progress on a line.
    case spoken(SpeechProgress)
}

/// Where speech is with a line: `said` (handed to speech-dispatcher), `began`, `ended` or
/// `cancelled`, at `time` (CLOCK_MONOTONIC seconds), with the line's number
/// (`ScanSession.speechUtterance`), text and language.
public struct SpeechProgress: Hashable, Sendable {
    public var time: Double
    public var event: String
    public var utterance: Int
    public var text: String
    public var language: String?
}

/// A write an output made to its device (a BrlAPI write): when it started and returned
/// (CLOCK_MONOTONIC seconds), and what it wrote.
public struct OutputWrite: Sendable {
    public var started: Double
    public var returned: Double
    public var text: String
}

/// What the outputs show once a turn's outputs are handled.
public struct ShownState {
    /// The line the session shows, and its language (the braille table's, a voice's).
    public var line: BrailleLine
    public var language: String?
    /// The line differs from the last one handed to the outputs (a forecast's included).
    public var lineIsNew: Bool
    /// Where the highlight is.
    public var highlight: Highlight
    /// The line's number (`ScanSession.speechUtterance`): speech says a line again when it
    /// changes, and reports its progress by it.
    public var utterance: Int

    public init(line: BrailleLine, language: String?, lineIsNew: Bool, highlight: Highlight, utterance: Int = 0) {
        self.line = line
        self.language = language
        self.lineIsNew = lineIsNew
        self.highlight = highlight
        self.utterance = utterance
    }
}

/// What an output tells the run (`ScanOutput.takeReports`). An output whose own progress must
/// hold scanning (speech that has not finished a highlight) reports it here, as the braille
/// display reports the reader's panning, and the run hands it to the session.
public enum OutputReport: Hashable, Sendable {
    /// The reader panned away from the line's first window (`away`), or came back to it: auto
    /// scanning holds while any output's reader is away.
    case readerPanned(away: Bool)
    /// Speech is heard (connected), or not: auditory scanning's hold applies only while it is.
    case speechHeard(Bool)
    /// The speech of line `utterance` began, at `time` (CLOCK_MONOTONIC seconds).
    case speechBegan(utterance: Int, time: Double)
    /// It ended, or was cancelled.
    case speechEnded(utterance: Int, time: Double)
    /// Something for the user (the status line, the trace, a service's journal).
    case status(String)
    /// Something the output did, for the record (the trace).
    case spoken(SpeechProgress)
}
