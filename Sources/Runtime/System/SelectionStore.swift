import AccessibilityModel
import DeviceProfiles
import Scanning

/// The file that keeps what the user selects (issue 17, part 2): `SelectionCounts`' text at
/// `$XDG_STATE_HOME/switchscan/selections.tsv` (XDG_STATE_HOME when absolute, else
/// `$HOME/.local/state`), holding ids and counts only. Every write goes through `SafeFileWriter`
/// (read again under the folder's lock, merged, written atomically), so two processes recording
/// at once both land. A file that does not read as selection counts is started afresh rather than
/// stopping the scan (its problem is returned to be shown). Not yet called by `ScanSession`.
public struct SelectionStore: Sendable {
    public let path: String
    /// The counts kept are bounded (`SelectionCounts`' limits), so the file stays under this.
    public static let maxBytes = 8 << 20
    public var halfLife: Double

    public init(path: String, halfLife: Double = 500) {
        self.path = path
        self.halfLife = halfLife
    }

    /// The store's place from the environment alone; nil when neither variable is usable.
    public static func defaultPath(environment: [String: String]) -> String? {
        xdgPath(variable: "XDG_STATE_HOME", homeFallback: ".local/state", tail: "switchscan/selections.tsv", environment: environment)
    }

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The counts on disk: empty when there is no file; a problem when it cannot be read or parsed.
    public func load() -> Result<SelectionCounts, Problem> {
        switch RegularFile.readText(path, maxBytes: Self.maxBytes) {
        case .failure(let error):
            return error.isMissing ? .success(SelectionCounts(halfLife: halfLife)) : .failure(Problem(description: "\(path): \(error.message)"))
        case .success(let text):
            do { return .success(try SelectionCounts.decode(text, halfLife: halfLife)) } catch {
                return .failure(Problem(description: "\(path): \(error)"))
            }
        }
    }

    /// Adds `selections` (in the order made) to the counts on disk and writes them back.
    /// Returns the counts written and, when the file on disk was unreadable, its problem.
    @discardableResult
    public func record(_ selections: [(screen: String, id: ElementID)]) throws -> (SelectionCounts, Problem?) {
        var written = SelectionCounts(halfLife: halfLife)
        var problem: Problem?
        try SafeFileWriter.update(path, maxBytes: Self.maxBytes) { text in
            var counts = SelectionCounts(halfLife: halfLife)
            if let text {
                do { counts = try SelectionCounts.decode(text, halfLife: halfLife) } catch {
                    problem = Problem(description: "\(path): \(error); started afresh")
                }
            }
            for selection in selections { counts.record(selection.id, screen: selection.screen) }
            written = counts
            return counts.encoded()
        }
        return (written, problem)
    }
}
