import YAMLEvents

/// Builds `DocumentNode`s straight from libyaml's event stream (no intermediate tree, no tag
/// resolution: the readers type scalars themselves). Aliases are expanded into the anchored
/// node (a shared copy: arrays are copy-on-write, so an alias costs no copy of its subtree);
/// every node, as written and as expanded, is counted so that the reader can refuse an alias
/// bomb by its size without walking it.
enum YAMLDocument {
    /// What reading the text gave.
    enum Outcome {
        /// The text holds no document (nothing, or only comments).
        case empty
        case node(DocumentNode, Counts)
        case yamlError(YAMLReadError)
    }

    /// Nodes as written (an alias counts one) and with every alias expanded; `overflow` is the
    /// position of the node (in document order, as written) past `budget`, if any.
    struct Counts {
        var written = 0
        var expanded = 0
        /// Aliases read (each counts one in `written`).
        var aliases = 0
        var overflow: TextPosition?
    }

    /// libyaml's errors, and those of building the tree (an undefined alias, a second document,
    /// a key given twice in one mapping).
    enum YAMLReadError: Error {
        case libyaml(YAMLParseError)
        /// libyaml's composer errors, worded as libyaml words them.
        case composer(problem: String, TextPosition, context: (text: String, position: TextPosition)?)
        case duplicateKey(String, TextPosition, firstLine: Int)
    }

    /// What makes two keys the same: a scalar's explicit tag (nil: a string, as a plain or quoted
    /// scalar without one is) and text; for a collection, its contents written out.
    struct KeyIdentity: Hashable {
        var tag: String?
        var text: String
        var isCollection = false
    }

    /// Lists and mappings nested deeper than this are refused where the next one starts (as the
    /// libyaml Yams bundled did; Debian's libyaml has no limit, and the readers walk nodes
    /// recursively).
    static let maxNesting = 1000

    static func nestingError(_ at: TextPosition) -> YAMLReadError {
        .composer(problem: "lists and mappings nested deeper than \(maxNesting) levels; the file is refused", at, context: nil)
    }

    /// Nodes of a collection key compared for duplicates, at most.
    static let identityLimit = 1000

    /// A collection being read.
    private struct Frame {
        var isMapping: Bool
        var position: TextPosition
        var anchor: String?
        var items: [DocumentNode] = []
        var pairs: [(key: DocumentNode, value: DocumentNode)] = []
        var pendingKey: DocumentNode?
        /// Keys as compared for duplicates (their text and tag), beside `pairs`.
        var keyIdentities: [KeyIdentity] = []
        /// Where each key is written (an alias's own place, not its anchor's).
        var keyPositions: [TextPosition] = []
        var expanded = 1
    }

    static func read(_ text: String, budget: Int) -> Outcome {
        let parser = YAMLEventParser(utf8: text)
        var counts = Counts()
        var anchors = [String: (node: DocumentNode, expanded: Int)]()
        var stack = [Frame]()
        var root: DocumentNode?

        /// Expanded counts stop growing past the budget (an alias bomb's would overflow); past it,
        /// the exact number is not needed.
        func saturated(_ a: Int, _ b: Int) -> Int { min(a + b, budget + 1) }
        func position(_ mark: YAMLMark) -> TextPosition { TextPosition(line: mark.line, column: mark.column) }
        func count(_ position: TextPosition) {
            counts.written += 1
            if counts.written == budget + 1 { counts.overflow = position }
        }
        /// Puts a finished node into its parent (or makes it the root).
        func add(_ node: DocumentNode, identity: KeyIdentity?, at written: TextPosition, expanded: Int) {
            guard !stack.isEmpty else {
                root = node
                counts.expanded = expanded
                return
            }
            stack[stack.count - 1].expanded = saturated(stack[stack.count - 1].expanded, expanded)
            if stack[stack.count - 1].isMapping {
                if let key = stack[stack.count - 1].pendingKey {
                    stack[stack.count - 1].pairs.append((key, node))
                    stack[stack.count - 1].pendingKey = nil
                } else {
                    stack[stack.count - 1].pendingKey = node
                    stack[stack.count - 1].keyIdentities.append(identity ?? KeyIdentity(text: ""))
                    stack[stack.count - 1].keyPositions.append(written)
                }
            } else {
                stack[stack.count - 1].items.append(node)
            }
        }
        /// A key's identity for duplicates: two keys are the same when they have the same text and
        /// tag (a plain or quoted scalar without a tag is a string), or are equal collections.
        /// A collection key is compared by its first `identityLimit` nodes only (an alias bomb as a
        /// key must not be walked); a larger one is its own key.
        func identity(of node: DocumentNode, tag: String?) -> KeyIdentity {
            if case .scalar(let text, _, _) = node { return KeyIdentity(tag: tag == "tag:yaml.org,2002:str" ? nil : tag, text: text) }
            var remaining = YAMLDocument.identityLimit
            var text = ""
            func walk(_ node: DocumentNode) -> Bool {
                remaining -= 1
                guard remaining >= 0 else { return false }
                switch node {
                case .scalar(let scalar, _, _): text += "s\(scalar.utf8.count):" + scalar
                case .sequence(let items, _):
                    text += "[\(items.count):"
                    for item in items { guard walk(item) else { return false } }
                case .mapping(let pairs, _):
                    text += "{\(pairs.count):"
                    for pair in pairs { guard walk(pair.key), walk(pair.value) else { return false } }
                }
                return true
            }
            if walk(node) { return KeyIdentity(text: text, isCollection: true) }
            return KeyIdentity(tag: "\(node.position.line):\(node.position.column)", text: "", isCollection: true)
        }
        func name(_ key: DocumentNode) -> String {
            switch key {
            case .scalar(let text, _, _): return text
            case .sequence: return "[…]"
            case .mapping: return "{…}"
            }
        }
        /// The second use of a key given twice, the earliest in the file; nil when none is.
        func duplicate(in frame: Frame) -> YAMLReadError? {
            let keys = frame.keyIdentities
            guard keys.count > 1 else { return nil }
            // A handful of keys (an element's) are compared pairwise; more through a dictionary.
            if keys.count <= 12 {
                for index in 1..<keys.count {
                    for first in 0..<index where keys[first] == keys[index] {
                        return .duplicateKey(name(frame.pairs[index].key), frame.keyPositions[index], firstLine: Int(frame.keyPositions[first].line))
                    }
                }
                return nil
            }
            var firstIndex = [KeyIdentity: Int](minimumCapacity: keys.count)
            for (index, key) in keys.enumerated() {
                if let first = firstIndex[key] {
                    return .duplicateKey(name(frame.pairs[index].key), frame.keyPositions[index], firstLine: Int(frame.keyPositions[first].line))
                }
                firstIndex[key] = index
            }
            return nil
        }

        do throws(YAMLReadError) {
            func next() throws(YAMLReadError) -> YAMLEvent {
                do { return try parser.next() } catch { throw .libyaml(error) }
            }
            guard case .streamStart = try next() else { return .empty }
            let first = try next()
            if case .streamEnd = first { return .empty }
            while root == nil {
                switch try next() {
                case .scalar(let text, let isPlain, let anchor, let tag, let mark):
                    let at = position(mark)
                    count(at)
                    let node = DocumentNode.scalar(text, isPlain: isPlain, at)
                    if let anchor { anchors[anchor] = (node, 1) }
                    let isKey = stack.last.map { $0.isMapping && $0.pendingKey == nil } ?? false
                    add(node, identity: isKey ? identity(of: node, tag: tag) : nil, at: at, expanded: 1)
                case .alias(let anchor, let mark):
                    counts.aliases += 1
                    let at = position(mark)
                    count(at)
                    guard let anchored = anchors[anchor] else {
                        throw .composer(problem: "found undefined alias", position(mark), context: nil)
                    }
                    let isKey = stack.last.map { $0.isMapping && $0.pendingKey == nil } ?? false
                    add(anchored.node, identity: isKey ? identity(of: anchored.node, tag: nil) : nil, at: at, expanded: anchored.expanded)
                case .sequenceStart(let anchor, _, let mark):
                    let at = position(mark)
                    count(at)
                    if stack.count >= YAMLDocument.maxNesting { throw YAMLDocument.nestingError(at) }
                    stack.append(Frame(isMapping: false, position: at, anchor: anchor))
                case .mappingStart(let anchor, _, let mark):
                    let at = position(mark)
                    count(at)
                    if stack.count >= YAMLDocument.maxNesting { throw YAMLDocument.nestingError(at) }
                    stack.append(Frame(isMapping: true, position: at, anchor: anchor))
                case .sequenceEnd, .mappingEnd:
                    guard let frame = stack.popLast() else { return .empty }
                    if frame.isMapping, let error = duplicate(in: frame) { throw error }
                    let node: DocumentNode = frame.isMapping ? .mapping(frame.pairs, frame.position) : .sequence(frame.items, frame.position)
                    if let anchor = frame.anchor { anchors[anchor] = (node, frame.expanded) }
                    let isKey = stack.last.map { $0.isMapping && $0.pendingKey == nil } ?? false
                    add(node, identity: isKey ? identity(of: node, tag: nil) : nil, at: frame.position, expanded: frame.expanded)
                case .streamStart, .streamEnd, .documentStart, .documentEnd:
                    // libyaml gives these only around a document's root, never inside it.
                    return .empty
                }
            }
            _ = try next()  // the document's end
            let after = try next()
            if case .streamEnd = after {} else {
                let mark: YAMLMark
                if case .documentStart(let start) = after { mark = start } else { mark = YAMLMark(line: 1, column: 1) }
                throw .composer(
                    problem: "but found another document", position(mark),
                    context: ("expected a single document in the stream", TextPosition(line: 1, column: 1)))
            }
        } catch {
            return .yamlError(error)
        }
        guard let root else { return .empty }
        return .node(root, counts)
    }
}
