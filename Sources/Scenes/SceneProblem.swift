import Documents

/// Where something is in a scene file: 1-based line and column, as editors count them.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// One problem in a scene file: where, and what was expected.
public struct SceneProblem: Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    /// `file:line:column: error: message`, the form compilers use, so editors can jump to it.
    public var description: String { "\(location): error: \(message)" }
}

/// A scene that could not be loaded, with every problem found (not only the first).
public struct SceneLoadError: Error, Sendable, CustomStringConvertible {
    public var problems: [SceneProblem]

    public init(problems: [SceneProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// Bounds that keep a hostile or broken file from exhausting the machine.
public struct SceneLimits: Sendable {
    /// Largest file accepted, in bytes of UTF-8.
    public var maxBytes: Int
    /// Deepest nesting of `elements`.
    public var maxDepth: Int
    /// Most elements in one scene (all screens).
    public var maxElements: Int
    /// Longest string (label, value, hint, id, names), in characters.
    public var maxStringLength: Int
    /// Most YAML nodes visited; aliases count each time they are used, so an alias bomb stops here.
    public var maxNodes: Int

    public init(
        maxBytes: Int = 128 << 20, maxDepth: Int = 64, maxElements: Int = 1_000_000,
        maxStringLength: Int = 10_000, maxNodes: Int = 20_000_000
    ) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxStringLength = maxStringLength
        self.maxNodes = maxNodes
    }

    public static let standard = SceneLimits()
}

/// Positions come from the shared document reader.
public typealias TextPosition = Documents.TextPosition
