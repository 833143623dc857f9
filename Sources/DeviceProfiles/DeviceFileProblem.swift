import Documents

/// One problem in a device file (a switch profile, an evemu recording, a raw event stream): where,
/// and what was expected. The shared reader's problem, under the name device code has used.
public typealias DeviceFileProblem = DocumentProblem

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
    Suggestion.text(name, among: candidates)
}
