import Yams

/// What the device files' readers (switch profiles, braille display profiles) share: where the
/// problems go, the node budget that stops an alias bomb, and the typed readers. Each `read…`
/// reports what it rejects and returns nil, so one pass finds every problem.
class YAMLFileReader {
    let file: String
    var problems: [DeviceFileProblem] = []
    private let maxNodes: Int
    private var budget: Int
    private var reportedBudget = false

    init(file: String, maxNodes: Int) {
        self.file = file
        self.maxNodes = maxNodes
        self.budget = maxNodes
    }

    /// The file's root node: refused when larger than `maxBytes`, empty, or not YAML (each with
    /// its message); `expected` says what the file should hold.
    func composeDocument(_ text: String, maxBytes: Int, expected: String) -> Node? {
        guard text.utf8.count <= maxBytes else {
            report(line: 1, column: 1, "the file is \(text.utf8.count) bytes; a profile is at most \(maxBytes)")
            return nil
        }
        do {
            guard let node = try Yams.compose(yaml: text, .basic) else {
                report(line: 1, column: 1, "the file is empty; expected \(expected)")
                return nil
            }
            return node
        } catch let error as YamlError {
            reportYAMLError(error)
        } catch {
            report(line: 1, column: 1, "cannot read the file as YAML: \(error)")
        }
        return nil
    }

    func report(line: Int, column: Int, _ message: String) {
        problems.append(DeviceFileProblem(file: file, line: line, column: column, message: message))
    }

    func report(_ node: Node, _ message: String) {
        report(line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, message)
    }

    /// Counts a visited node; false once the budget is spent (reported once).
    func visit(_ node: Node) -> Bool {
        budget -= 1
        if budget < 0 {
            if !reportedBudget {
                reportedBudget = true
                report(node, "the file has more than \(maxNodes) YAML nodes (aliases count each time they are used); it is refused")
            }
            return false
        }
        return true
    }

    func reportYAMLError(_ error: YamlError) {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
            let .composer(context, problem, mark, _):
            let contextText = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            report(line: mark.line, column: mark.column, "invalid YAML: \(problem)\(contextText)")
        case let .duplicatedKeysInMapping(duplicates, context):
            report(line: context.mark.line, column: context.mark.column,
                   "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in one mapping; each key may appear once")
        case let .reader(problem, offset, _, _):
            report(line: 1, column: 1, "cannot read the file: \(problem)\(offset.map { " at byte \($0)" } ?? "")")
        default:
            report(line: 1, column: 1, "cannot read the file as YAML: \(error)")
        }
    }

    // MARK: Typed readers

    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            if isNull(scalar) { return "nothing (null)" }
            return "'\(scalar.string)'"
        }
    }

    func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    func mapping(_ node: Node, _ what: String) -> [(String, Node, Node)]? {
        guard visit(node) else { return nil }
        guard case .mapping(let mapping) = node else {
            report(node, "expected a mapping for \(what), found \(describe(node))")
            return nil
        }
        var result = [(String, Node, Node)]()
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                report(key, "a key in \(what) must be a plain name, found \(describe(key))")
                continue
            }
            result.append((scalar.string, key, value))
        }
        return result
    }

    /// The allowed keys, by name; reports each unknown one with a suggestion.
    func checkKeys(_ pairs: [(String, Node, Node)], allowed: [String], in what: String) -> [String: Node] {
        var keys = [String: Node]()
        for (key, keyNode, value) in pairs {
            if allowed.contains(key) { keys[key] = value } else {
                report(keyNode, "unknown key '\(key)' in \(what)\(suggestion(key, among: allowed)); expected one of: \(allowed.joined(separator: ", "))")
            }
        }
        return keys
    }

    func required(_ keys: [String: Node], _ key: String, in node: Node, _ expected: String) -> Node? {
        if let value = keys[key] { return value }
        report(node, "missing '\(key)': expected \(expected)")
        return nil
    }

    func sequence(_ node: Node, _ what: String) -> [Node]? {
        guard visit(node) else { return nil }
        guard case .sequence(let sequence) = node else {
            report(node, "expected a list for \(what), found \(describe(node))")
            return nil
        }
        return Array(sequence)
    }

    func string(_ node: Node, _ what: String) -> String? {
        guard visit(node) else { return nil }
        guard case .scalar(let scalar) = node, !isNull(scalar) else {
            report(node, "expected a string for \(what), found \(describe(node))")
            return nil
        }
        guard scalar.string.count <= 1000 else {
            report(node, "\(what) is \(scalar.string.count) characters long; at most 1000 are accepted")
            return nil
        }
        return scalar.string
    }

    func bool(_ node: Node, _ what: String) -> Bool? {
        guard visit(node) else { return nil }
        if case .scalar(let scalar) = node, scalar.style == .plain, scalar.string == "true" || scalar.string == "false" {
            return scalar.string == "true"
        }
        report(node, "expected true or false for \(what), found \(describe(node))")
        return nil
    }

    func stringList(_ node: Node, _ what: String) -> [String]? {
        guard let items = sequence(node, what) else { return nil }
        let strings = items.compactMap { string($0, "an entry of \(what)") }
        return strings.count == items.count ? strings : nil
    }
}
