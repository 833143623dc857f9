import BrailleFormatting
import Scanning

/// What every output is: the braille display, the terminal view, the highlight on the screen
/// (and speech). Each turn of the run hands all of them the same typed stream, the session's
/// outputs in order (`SessionOutput`: the highlight, the menu and its entry's position, the line
/// and its language, announcements, commands performed, scanning started or stopped) with the
/// run's own statuses among them, and what that leaves shown (`ShownState`). The trace is made
/// from the same stream (`SessionOutput.traceEvent`). An output that has something to tell the
/// run (the reader panned away from the line's first window) reports it (`takeReports`).
public protocol ScanOutput: AnyObject {
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
}

extension ScanOutput {
    public func showAhead(_ line: BrailleLine, language: String?, at now: Double) {}
    public func prepare(_ line: BrailleLine, language: String?) {}
    public var showsLines: Bool { false }
    public var isShowingLines: Bool { false }
    public func takeReports() -> [OutputReport] { [] }
    public func observeWrites(_ observer: @escaping (OutputWrite) -> Void) {}
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

    public init(line: BrailleLine, language: String?, lineIsNew: Bool, highlight: Highlight) {
        self.line = line
        self.language = language
        self.lineIsNew = lineIsNew
        self.highlight = highlight
    }
}

/// What an output tells the run (`ScanOutput.takeReports`). An output whose own progress must
/// hold scanning (speech that has not finished a highlight) reports it here, as the braille
/// display reports the reader's panning, and the run hands it to the session.
public enum OutputReport: Hashable, Sendable {
    /// The reader panned away from the line's first window (`away`), or came back to it: auto
    /// scanning holds while any output's reader is away.
    case readerPanned(away: Bool)
}
