import Yams

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
/// are then a boolean and a number) and where they are. YAML comes from Yams; JSON, the usual
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

    struct ExpansionKey: Hashable {
        var line: Int, column: Int, isMapping: Bool, count: Int
    }

    /// The number of nodes with every alias expanded, and as written (an alias counts one),
    /// counted without expanding them: Yams gives an alias the anchored node itself (same kind,
    /// position and size), so each collection is counted once and its count reused. Counting
    /// stops past `limit`.
    static func nodeCounts(_ node: Node, limit: Int, memo: inout [ExpansionKey: Int]) -> (expanded: Int, written: Int) {
        let children: [Node]
        let isMapping: Bool
        switch node {
        case .scalar, .alias: return (1, 1)
        case .mapping(let mapping):
            children = mapping.flatMap { [$0.key, $0.value] }
            isMapping = true
        case .sequence(let sequence):
            children = Array(sequence)
            isMapping = false
        }
        let key = node.mark.map { ExpansionKey(line: $0.line, column: $0.column, isMapping: isMapping, count: children.count) }
        if let key, let known = memo[key] { return (known, 1) }
        var expanded = 1, written = 1
        for child in children where expanded <= limit {
            let counts = nodeCounts(child, limit: limit, memo: &memo)
            expanded += counts.expanded
            written += counts.written
        }
        if let key { memo[key] = expanded }
        return (expanded, written)
    }
}
