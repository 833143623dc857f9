import Yams

/// A position in a scene file: 1-based line and column (columns count Unicode scalars, as
/// libyaml does).
public struct TextPosition: Hashable, Sendable {
    public var line: Int32
    public var column: Int32

    public init(line: Int, column: Int) {
        self.line = Int32(clamping: line)
        self.column = Int32(clamping: column)
    }
}

/// The parsed document the scene reader walks: scalars keep their text, whether they were plain
/// (unquoted: `true`, `5` are then a boolean and a number) and where they are. YAML comes from
/// Yams; JSON, the usual form of generated scenes, from `JSONDocument`, which is several times
/// faster on large files. Both give the same nodes, so the reader has one code path.
/// Not `indirect`: children live in arrays, so no node needs a box of its own.
enum DocumentNode {
    case scalar(String, isPlain: Bool, TextPosition)
    case mapping([(key: DocumentNode, value: DocumentNode)], TextPosition)
    case sequence([DocumentNode], TextPosition)

    var position: TextPosition {
        switch self {
        case .scalar(_, _, let position), .mapping(_, let position), .sequence(_, let position): return position
        }
    }
}

/// Thrown when a document cannot be turned into nodes: where, and why.
struct DocumentError: Error {
    var position: TextPosition
    /// Nil when the node budget ran out; the reader words that message with its limit.
    var message: String?
}

extension DocumentNode {
    /// Converts a Yams node. Aliases were expanded by Yams into shared subtrees; each use counts
    /// against `budget`, so an alias bomb stops with an error instead of exhausting memory.
    static func fromYAML(_ node: Node, budget: inout Int) throws(DocumentError) -> DocumentNode {
        budget -= 1
        let position = TextPosition(line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
        guard budget >= 0 else {
            throw DocumentError(position: position, message: nil)
        }
        switch node {
        case .scalar(let scalar):
            return .scalar(scalar.string, isPlain: scalar.style == .plain, position)
        case .mapping(let mapping):
            var pairs = [(key: DocumentNode, value: DocumentNode)]()
            pairs.reserveCapacity(mapping.count)
            for (key, value) in mapping {
                pairs.append((try fromYAML(key, budget: &budget), try fromYAML(value, budget: &budget)))
            }
            return .mapping(pairs, position)
        case .sequence(let sequence):
            var items = [DocumentNode]()
            items.reserveCapacity(sequence.count)
            for item in sequence { items.append(try fromYAML(item, budget: &budget)) }
            return .sequence(items, position)
        case .alias:
            throw DocumentError(position: position, message: "an alias that Yams did not resolve")
        }
    }
}
