/// What a test or a benchmark reads back from a `switchscan run`: its trace's highlight lines
/// and the counters of its debug lines (SWITCHSCAN_LIVE_DEBUG).
public enum RunTrace {
    public struct Highlight: Sendable {
        public let id: String
        public let label: String
    }

    /// The trace's highlight rows, in order.
    public static func highlights(_ trace: String) -> [Highlight] {
        trace.split(separator: "\n").compactMap { line -> Highlight? in
            guard line.contains("\"kind\":\"highlight\""), let id = field("id", of: line) else { return nil }
            return Highlight(id: id, label: field("label", of: line) ?? "")
        }
    }

    /// A string field of one trace line (no escaped quotes in what the readers look for).
    public static func field(_ name: String, of line: Substring) -> String? {
        guard let start = line.range(of: "\"\(name)\":\"") else { return nil }
        return String(line[start.upperBound...].prefix { $0 != "\"" })
    }

    /// The largest number that follows `prefix` at the start of a debug line ("live: window
    /// read 12": how many times the run read the window whole); 0 when none.
    public static func lastCount(_ prefix: String, in debug: String) -> Int {
        debug.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix(prefix) else { return nil }
            return Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
        }.max() ?? 0
    }
}
