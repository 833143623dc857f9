/// A position in a document: 1-based line and column (columns count Unicode scalars, as
/// libyaml does).
public struct TextPosition: Hashable, Sendable {
    public var line: Int32
    public var column: Int32

    public init(line: Int, column: Int) {
        self.line = Int32(clamping: line)
        self.column = Int32(clamping: column)
    }
}

/// The parsed document every typed reader walks (scenes, settings files, switch and braille
/// display profiles): scalars keep their text, whether they were plain (unquoted: `true`, `5`
/// are then a boolean and a number) and where they are. YAML comes from libyaml's events (`YAMLDocument`); JSON, the usual
/// form of generated scenes, from `JSONDocument`, which is several times faster on large files.
/// Both give the same nodes, so the readers have one code path.
/// Not `indirect`: children live in arrays, so no node needs a box of its own.
public enum DocumentNode: Sendable {
    case scalar(String, isPlain: Bool, TextPosition)
    case mapping([(key: DocumentNode, value: DocumentNode)], TextPosition)
    case sequence([DocumentNode], TextPosition)

    public var position: TextPosition {
        switch self {
        case .scalar(_, _, let position), .mapping(_, let position), .sequence(_, let position): return position
        }
    }

    /// The scalar's text and whether it was written plain; nil for a collection.
    public var asScalar: ScalarView? {
        if case .scalar(let text, let isPlain, _) = self { return ScalarView(string: text, isPlain: isPlain) }
        return nil
    }
}

/// A scalar's text and whether it was written plain (unquoted).
public struct ScalarView: Sendable {
    public var string: String
    public var isPlain: Bool

    /// `~`, `null` or nothing, written plain.
    public var isNull: Bool {
        isPlain && ["", "~", "null", "Null", "NULL"].contains(string)
    }
}

/// Thrown when a document cannot be turned into nodes: where, and why.
public struct DocumentError: Error, Sendable {
    public var position: TextPosition
    /// Nil when the node budget ran out; the reader words that message with its limit.
    public var message: String?

    public init(position: TextPosition, message: String?) {
        self.position = position
        self.message = message
    }
}
