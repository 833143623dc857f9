import AccessibilityModel
import DeviceProfiles
import Scanning
import Platform

/// The file that keeps what the user selects (issue 17, part 2): `SelectionCounts`' text at
/// `$XDG_STATE_HOME/switchscan/selections.tsv` (XDG_STATE_HOME when absolute, else
/// `$HOME/.local/state`), holding ids and counts only, for every scene the user runs.
///
/// Nothing in it is lost to one bad line: every good line is kept, a bad one is skipped and
/// named once (`file:line:column: error: …`). A file this switchscan must not rewrite (a newer
/// format's header, no header: another file the path leads to) is not read and never written;
/// it is said, and the run learns for itself only. Every write goes through `SafeFileWriter`
/// (read again under the folder's lock, merged, written atomically; through a symbolic link to
/// its target, as every file the program writes; a target that is not a regular file is
/// refused), so two processes recording at once both land. The counts are bounded
/// (`SelectionCounts.maxEntries`, the least recently used screens forgotten first), so the file
/// stays near a megabyte and reads in milliseconds.
public struct SelectionStore: Sendable {
    public let path: String
    /// The largest file read (one written by an older switchscan without the entry bound).
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

    /// The counts on disk (empty when there is no file) and, when lines were skipped, what they
    /// were; a problem when the file cannot be read or must be left alone (then nothing is read
    /// and the store must not be written).
    public func load() -> Result<(counts: SelectionCounts, skipped: Problem?), Problem> {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, maxBytes: Self.maxBytes)
        } catch {
            if error.isMissing { return .success((SelectionCounts(halfLife: halfLife), nil)) }
            return .failure(Problem(description: "\(error.problem(file: path)); it is left as it is"))
        }
        return read(bytes).map { ($0.counts, skippedProblem($0)) }
    }

    /// The file's bytes read leniently, or why the whole file is left alone.
    func read(_ bytes: [UInt8]) -> Result<SelectionCounts.Reading, Problem> {
        do {
            return .success(try SelectionCounts.read(bytes, halfLife: halfLife))
        } catch {
            return .failure(refusal(error))
        }
    }

    /// Adds `selections` (in the order made) to the counts on disk and writes them back (bad
    /// lines skipped, said in the problem returned). Throws, writing nothing, when the file must
    /// be left alone or cannot be read or written.
    @discardableResult
    public func record(_ selections: [(screen: String, id: ElementID)]) throws -> (SelectionCounts, Problem?) {
        var written = SelectionCounts(halfLife: halfLife)
        var problem: Problem?
        try SafeFileWriter.update(path, maxBytes: Self.maxBytes) { (bytes: [UInt8]?) throws -> String in
            var counts = SelectionCounts(halfLife: halfLife)
            if let bytes {
                let reading = try read(bytes).get()
                counts = reading.counts
                problem = skippedProblem(reading)
            }
            for selection in selections { counts.record(selection.id, screen: selection.screen) }
            written = counts
            return counts.encoded()
        }
        return (written, problem)
    }

    /// The lines `reading` skipped, in one message: the first with its place and reason, then
    /// the others' line numbers.
    func skippedProblem(_ reading: SelectionCounts.Reading) -> Problem? {
        guard let first = reading.skipped.first else { return nil }
        var text = "\(path):\(first.line):\(first.column): error: \(first.message); the line is skipped, the others are kept"
        let others = reading.skipped.dropFirst().map { String($0.line) }
        if !others.isEmpty {
            let more = reading.skippedCount - reading.skipped.count
            text += " (also skipped: line\(others.count == 1 ? "" : "s") \(others.joined(separator: ", "))\(more > 0 ? " and \(more) more" : ""))"
        }
        return Problem(description: text)
    }

    func refusal(_ error: SelectionCounts.DecodeError) -> Problem {
        Problem(description: "\(path):\(error.line):\(error.column): error: \(error.message); it is left as it is (nothing read, nothing written; move it away to start afresh)")
    }
}
