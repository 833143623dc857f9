import Presentation
import Scanning
import Platform

/// The terminal view as an output: each turn, the frame (`TerminalFrame`) for the terminal's
/// size, written when it differs from the one on the screen. What the frame shows (the session's
/// items, highlight, menu and line, the run's status) is made by `frame`, which the run sets.
final class TerminalView: ScanOutput {
    private let terminal: TerminalSession
    /// The frame for a terminal of this size, as the run sees the session now.
    var frame: (_ columns: Int, _ rows: Int) -> TerminalFrame? = { _, _ in nil }
    /// The text last written (nil: draw the next frame whole, e.g. after a resize or `fg`).
    private var lastFrame: String?

    init(terminal: TerminalSession) {
        self.terminal = terminal
    }

    var name: String { "terminal view" }

    func shownWasLost() {
        lastFrame = nil
    }

    func present(_ outputs: [SessionOutput], shown: ShownState, at now: Double) {
        guard terminal.isRaw, let size = terminal.size(), let frame = frame(size.columns, size.rows) else { return }
        let text = frame.ansi
        guard text != lastFrame else { return }
        lastFrame = text
        try? FileIO.writeAll(terminal.output, text)
    }
}
