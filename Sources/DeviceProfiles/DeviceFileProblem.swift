/// One problem in a device file (a switch profile, an evemu recording, a raw event stream): where,
/// and what was expected. Lines and columns are 1-based, as editors count them.
public struct DeviceFileProblem: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: error: message`, the form compilers use, so editors can jump to it.
    public var description: String { "\(file):\(line):\(column): error: \(message)" }
}

/// A profile that could not be loaded, with every problem found (not only the first).
public struct ProfileLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var problems: [DeviceFileProblem]

    public init(problems: [DeviceFileProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// ", did you mean 'action'?" when a known name is one or two edits away.
func suggestion(_ name: String, among candidates: [String]) -> String {
    let best = candidates.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
    guard let best, best.1 <= max(1, min(2, name.count / 3)) else { return "" }
    return " (did you mean '\(best.0)'?)"
}

/// Edit distance for suggestions: insertions, deletions, substitutions and swaps of two
/// neighbouring characters each count 1 (optimal string alignment).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], beforePrevious[j - 2] + 1)
            }
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}
