import Foundation

/// Statuses from parts of a run that cannot reach its status line themselves (the scanning
/// keyboard's word prediction, started deep inside the session when the keyboard first
/// predicts): posted here, and said by the run (`LiveRun`) as its own statuses, on the status
/// line, in the trace, and on standard error when no screen is drawn, once each. Written to
/// standard error directly, they would be drawn over by the terminal view.
public final class StatusMailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var posted: [String] = []

    public init() {}

    /// Leaves `text` for the run to say at its next turn (from any thread).
    public func post(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        posted.append(text)
    }

    /// Whether statuses wait to be said.
    public var hasStatuses: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !posted.isEmpty
    }

    /// The statuses posted since the last call, oldest first.
    public func take() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        defer { posted.removeAll() }
        return posted
    }
}
