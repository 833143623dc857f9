/// One problem in a file: where, and what was expected. Lines and columns are 1-based, as
/// editors count them.
public struct DocumentProblem: Error, Hashable, Sendable, CustomStringConvertible {
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

/// The one typed reader of YAML and JSON documents that scenes, settings files, switch profiles
/// and braille display profiles share. Each `read…` of a subclass reports what it rejects and
/// returns nil, so one pass finds every problem. It does no I/O: callers read the file (the
/// runtime's `RegularFile`, which checks the size before reading) and decode it
/// (`DocumentText`).
///
/// Limits come from the document itself: a file without aliases has at most about one node
/// per byte, so the nodes a document may expand to (aliases count each time they are used) are
/// its size plus a margin, never more than the caller's `maxNodes`. An alias bomb is refused
/// before it is walked; a large honest file is read whole.
open class DocumentReader {
    public let file: String
    public private(set) var problems: [DocumentProblem] = []
    /// Longest string accepted, in characters.
    public let maxStringLength: Int
    /// The caller's ceiling on nodes; `nodeBudget` is what the current document may use.
    public let maxNodes: Int
    public private(set) var nodeBudget: Int
    private var nodesVisited = 0
    private var reportedNodeLimit = false
    private var tooManyProblems = false

    /// Past this many problems the reader stops, so a file (or an alias bomb whose every copy is
    /// wrong) cannot flood the report or keep the reader busy.
    public static let maxProblems = 1000
    /// Nodes a document may have beyond its byte count (small files with a few aliases).
    public static let nodeMargin = 10_000

    public init(file: String, maxNodes: Int, maxStringLength: Int) {
        self.file = file
        self.maxNodes = maxNodes
        self.maxStringLength = maxStringLength
        self.nodeBudget = maxNodes
    }

    /// The nodes aliases may add to those written, in a document of `byteCount` bytes: an eighth
    /// of its size and the margin (an element copied by an alias is at least three nodes from an
    /// eleven-byte line, so a file made of aliases is refused, while templates reused a few times
    /// are not).
    public static func aliasBudget(byteCount: Int) -> Int {
        byteCount / 8 + nodeMargin
    }

    /// The nodes a document of `byteCount` bytes may expand to: its size and a margin, at most
    /// `limit`.
    public static func nodeBudget(byteCount: Int, limit: Int) -> Int {
        min(limit, byteCount + nodeMargin)
    }

    // MARK: Reporting

    public var hasTooManyProblems: Bool { tooManyProblems }

    public func report(line: Int, column: Int, _ message: String) {
        guard !tooManyProblems else { return }
        if problems.count == DocumentReader.maxProblems {
            tooManyProblems = true
            problems.append(DocumentProblem(
                file: file, line: line, column: column,
                message: "more than \(DocumentReader.maxProblems) problems; the rest of the file was not checked"))
            return
        }
        problems.append(DocumentProblem(file: file, line: line, column: column, message: message))
    }

    public func report(_ position: TextPosition, _ message: String) {
        report(line: Int(position.line), column: Int(position.column), message)
    }

    public func report(_ node: DocumentNode, _ message: String) {
        report(node.position, message)
    }

    /// The problems, in file order.
    public var sortedProblems: [DocumentProblem] {
        problems.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    var nodeLimitMessage: String {
        "the file has more than \(nodeBudget) YAML nodes (aliases count each time they are used; a file's nodes are bounded by its size in bytes plus \(DocumentReader.nodeMargin), at most \(maxNodes)); it is refused"
    }

    /// Counts a visited node; false once the budget is spent (reported once).
    public func visit(_ node: DocumentNode) -> Bool {
        if tooManyProblems { return false }
        nodesVisited += 1
        if nodesVisited > nodeBudget {
            if !reportedNodeLimit {
                reportedNodeLimit = true
                report(node, nodeLimitMessage)
            }
            return false
        }
        return true
    }

    // MARK: The document

    /// The file's root node: strict JSON through the fast JSON reader, anything else through
    /// libyaml's events (`YAMLDocument`). Refused (with its message) when larger than
    /// `maxBytes`, empty (unless `emptyAllowed`: then an empty mapping), not YAML, or expanding
    /// past the node budget; `expected` says what the file should hold.
    /// A byte order mark at the start is dropped first (positions are counted without it).
    public func readDocument(_ text: String, maxBytes: Int, expected: String, emptyAllowed: Bool = false) -> DocumentNode? {
        let byteCount = text.utf8.count
        let text = DocumentText.withoutByteOrderMark(text)
        guard byteCount <= maxBytes else {
            report(line: 1, column: 1, "the file is \(byteCount) bytes; at most \(maxBytes) are accepted")
            return nil
        }
        nodeBudget = DocumentReader.nodeBudget(byteCount: byteCount, limit: maxNodes)
        var budget = nodeBudget
        do {
            if let json = try JSONDocument.parse(text, budget: &budget) { return json }
        } catch {
            reportDocumentError(error)
            return nil
        }
        // libyaml's events, straight into nodes: errors first (as libyaml meets them), then the
        // node budget.
        let root: DocumentNode, counts: YAMLDocument.Counts
        switch YAMLDocument.read(text, budget: nodeBudget) {
        case .empty:
            if emptyAllowed { return .mapping([], TextPosition(line: 1, column: 1)) }
            report(line: 1, column: 1, "the file is empty; expected \(expected)")
            return nil
        case .yamlError(let error):
            reportYAMLError(error, in: text)
            return nil
        case .node(let node, let nodeCounts):
            (root, counts) = (node, nodeCounts)
        }
        // An alias bomb is refused by its size, counted as read, not expanded. Aliases may also
        // add only so much to what is written: a file that repeats one anchor thousands of times
        // builds as much as a file many times its size.
        // (Without an alias both counts are equal: the text is searched for a `*` only to word a
        // refusal as the count of a text with aliases would be.)
        if counts.aliases > 0 || (counts.written > nodeBudget && text.utf8.contains(UInt8(ascii: "*"))) {
            if counts.expanded > nodeBudget {
                reportedNodeLimit = true
                report(line: 1, column: 1, nodeLimitMessage)
                return nil
            }
            let allowed = DocumentReader.aliasBudget(byteCount: byteCount)
            if counts.expanded - counts.written > allowed {
                reportedNodeLimit = true
                report(line: 1, column: 1, "aliases add \(counts.expanded - counts.written) nodes to the \(counts.written) written; a file of \(byteCount) bytes may add at most \(allowed) (an eighth of its size plus \(DocumentReader.nodeMargin)); it is refused")
                return nil
            }
        }
        // Without aliases every node is written: past the budget, the first node over it is named.
        if counts.written > nodeBudget {
            reportDocumentError(DocumentError(position: counts.overflow ?? TextPosition(line: 1, column: 1), message: nil))
            return nil
        }
        return root
    }

    public func reportDocumentError(_ error: DocumentError) {
        if error.message == nil { reportedNodeLimit = true }
        report(error.position, error.message ?? nodeLimitMessage)
    }

    func reportYAMLError(_ error: YAMLDocument.YAMLReadError, in text: String) {
        switch error {
        case .libyaml(let error):
            switch error.kind {
            case .scanner, .parser:
                reportSyntaxError(problem: error.problem, line: error.mark.line, column: error.mark.column,
                                  context: error.context.map { ($0.text, $0.mark.line, $0.mark.column) }, in: text)
            case .reader:
                // The offset as a count of characters, when it falls on one's start.
                let index = text.utf8.index(text.utf8.startIndex, offsetBy: error.offset, limitedBy: text.utf8.endIndex)?.samePosition(in: text)
                let offset = index.map { text.distance(from: text.startIndex, to: $0) }
                report(line: 1, column: 1, "cannot read the file: \(error.problem)\(offset.map { " at byte \($0)" } ?? "")")
            case .memory:
                report(line: 1, column: 1, "cannot read the file as YAML: Memory error")
            }
        case let .composer(problem, position, context):
            reportSyntaxError(problem: problem, line: Int(position.line), column: Int(position.column),
                              context: context.map { ($0.text, Int($0.position.line), Int($0.position.column)) }, in: text)
        case let .duplicateKey(key, position, firstLine):
            report(position, "duplicate key '\(key)' in one mapping (first at line \(firstLine)); each key may appear once")
        }
    }

    private func reportSyntaxError(problem: String, line: Int, column: Int, context: (String, Int, Int)?, in text: String) {
        if let tab = DocumentReader.tab(near: line, column: column, in: text) {
            report(line: tab.line, column: tab.column,
                   "a tab character: YAML indents with spaces only; replace the tab with spaces")
            return
        }
        let contextText = context.map { " (\($0.0) at line \($0.1), column \($0.2))" } ?? ""
        report(line: line, column: column, "invalid YAML: \(problem)\(contextText)")
    }

    /// A tab that explains a YAML error at `line`, `column`: one in the indentation of that line
    /// or the line before, or at the error's own place. libyaml's own message ("found character
    /// that cannot start any token") does not say it is a tab.
    static func tab(near line: Int, column: Int, in text: String) -> (line: Int, column: Int)? {
        var lines = [String]()
        var number = 0
        for candidate in text.unicodeScalars.split(separator: "\n", maxSplits: line, omittingEmptySubsequences: false) {
            number += 1
            if number >= line - 1, number <= line { lines.append(String(String.UnicodeScalarView(candidate))) }
            if number >= line { break }
        }
        for (offset, content) in lines.enumerated() {
            let lineNumber = line - lines.count + 1 + offset
            var scalarColumn = 1
            for scalar in content.unicodeScalars {
                if scalar == "\t" { return (lineNumber, scalarColumn) }
                let atError = lineNumber == line && scalarColumn >= column
                if scalar != " " || atError { break }
                scalarColumn += 1
            }
            if lineNumber == line {
                let scalars = Array(content.unicodeScalars)
                if column >= 1, column <= scalars.count, scalars[column - 1] == "\t" { return (line, column) }
            }
        }
        return nil
    }

    // MARK: Typed readers

    public func describe(_ node: DocumentNode) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let text, let isPlain, _):
            if ScalarView(string: text, isPlain: isPlain).isNull { return "nothing (null)" }
            let shown = text.unicodeScalars.count > 60 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(60))) + "…" : text
            return "'\(shown)'"
        }
    }

    /// A mapping's entries with string keys, in order. Reports non-string keys.
    public func mapping(_ node: DocumentNode, _ what: String) -> [(String, DocumentNode, DocumentNode)]? {
        guard visit(node) else { return nil }
        guard case .mapping(let mapping, _) = node else {
            report(node, "expected a mapping for \(what), found \(describe(node))")
            return nil
        }
        var result = [(String, DocumentNode, DocumentNode)]()
        result.reserveCapacity(mapping.count)
        for (key, value) in mapping {
            guard let scalar = key.asScalar else {
                report(key, "a key in \(what) must be a plain name, found \(describe(key))")
                continue
            }
            result.append((scalar.string, key, value))
        }
        return result
    }

    /// Looks up the allowed keys; reports each unknown one with a suggestion.
    public func checkKeys(_ pairs: [(String, DocumentNode, DocumentNode)], allowed: [String], in what: String) -> MappingKeys {
        var keys = MappingKeys()
        keys.entries.reserveCapacity(pairs.count)
        for (key, keyNode, value) in pairs {
            // Kept under the allowed name itself, so that lookups (by those names) compare a
            // string with itself.
            if let known = allowed.firstIndex(of: key) { keys.entries.append((allowed[known], value)) } else {
                report(keyNode, "unknown key '\(key)' in \(what)\(suggestion(key, among: allowed)); expected one of: \(allowed.joined(separator: ", "))")
            }
        }
        return keys
    }

    public func required(_ keys: MappingKeys, _ key: String, in node: DocumentNode, _ expected: String) -> DocumentNode? {
        if let value = keys[key] { return value }
        report(node, "missing '\(key)': expected \(expected)")
        return nil
    }

    public func sequence(_ node: DocumentNode, _ what: String) -> [DocumentNode]? {
        guard visit(node) else { return nil }
        guard case .sequence(let sequence, _) = node else {
            report(node, "expected a list for \(what), found \(describe(node))")
            return nil
        }
        return sequence
    }

    public func string(_ node: DocumentNode, _ what: String) -> String? {
        guard visit(node) else { return nil }
        guard let scalar = node.asScalar, !scalar.isNull else {
            report(node, "expected a string for \(what), found \(describe(node))")
            return nil
        }
        guard checkLength(scalar.string, node, what) else { return nil }
        return scalar.string
    }

    /// False (reported) when `text` is longer than `maxStringLength` characters.
    public func checkLength(_ text: String, _ node: DocumentNode, _ what: String) -> Bool {
        guard text.utf8.count > maxStringLength, text.count > maxStringLength else { return true }
        report(node, "\(what) is \(text.count) characters long; at most \(maxStringLength) are accepted")
        return false
    }

    public func stringList(_ node: DocumentNode, _ what: String) -> [String]? {
        guard let items = sequence(node, what) else { return nil }
        let strings = items.compactMap { string($0, "an entry of \(what)") }
        return strings.count == items.count ? strings : nil
    }

    public func bool(_ node: DocumentNode, _ what: String) -> Bool? {
        if let scalar = node.asScalar, scalar.isPlain, scalar.string == "true" || scalar.string == "false" {
            return scalar.string == "true"
        }
        report(node, "expected true or false for \(what), found \(describe(node))")
        return nil
    }

    /// A plain finite number.
    public func number(_ node: DocumentNode, _ what: String) -> Double? {
        if let scalar = node.asScalar, scalar.isPlain, let value = DocumentReader.parseNumber(scalar.string) {
            return value
        }
        report(node, "expected a number for \(what), found \(describe(node))")
        return nil
    }

    /// A plain number within `range`; outside it the message names the range.
    public func number(_ node: DocumentNode, _ what: String, in range: ClosedRange<Double>, unit: String = "") -> Double? {
        guard let value = number(node, what) else { return nil }
        guard range.contains(value) else {
            report(node, "\(what) must be from \(NumberText.format(range.lowerBound))\(unit) to \(NumberText.format(range.upperBound))\(unit); found \(written(node))")
            return nil
        }
        return value
    }

    /// A plain whole number within `range`, as an `Int` (converted only once it is known to fit).
    public func wholeNumber(_ node: DocumentNode, _ what: String, in range: ClosedRange<Int>) -> Int? {
        let scalar = node.asScalar
        guard let scalar, scalar.isPlain, let value = DocumentReader.parseNumber(scalar.string) else {
            report(node, "expected a whole number from \(range.lowerBound) to \(range.upperBound) for \(what), found \(describe(node))")
            return nil
        }
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound),
              let whole = Int(exactly: value) else {
            report(node, "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound); found \(written(node))")
            return nil
        }
        return whole
    }

    /// `count` plain numbers, each within `range` when one is given.
    /// A scalar as the file writes it (`9223372036854775808`, not the number it rounds to),
    /// for messages; cut at 60 characters.
    public func written(_ node: DocumentNode) -> String {
        guard let text = node.asScalar?.string else { return describe(node) }
        return text.unicodeScalars.count > 60 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(60))) + "…" : text
    }

    public func numberList(_ node: DocumentNode, count: Int, _ what: String, _ shape: String, in range: ClosedRange<Double>? = nil) -> [Double]? {
        // Made once: a large scene reads a frame per element.
        let described = "\(what) \(shape)"
        guard let items = sequence(node, described) else { return nil }
        guard items.count == count else {
            report(node, "\(what) has \(items.count) numbers; expected \(count): \(shape)")
            return nil
        }
        let numbers = items.compactMap { item -> Double? in
            guard let value = number(item, described) else { return nil }
            if let range, !range.contains(value) {
                report(item, "a number of \(what) \(shape) must be from \(NumberText.format(range.lowerBound)) to \(NumberText.format(range.upperBound)); found \(written(item))")
                return nil
            }
            return value
        }
        return numbers.count == count ? numbers : nil
    }

    /// A number as written in a file: starting with a digit, a sign or a point, finite.
    public static func parseNumber(_ text: String) -> Double? {
        // An ASCII first byte is decided without Character properties (every frame of a large
        // scene is four numbers); any other first character as before.
        guard let lead = text.utf8.first else { return nil }
        if lead < 0x80 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lead) || lead == UInt8(ascii: "-")
                || lead == UInt8(ascii: "+") || lead == UInt8(ascii: ".") else { return nil }
        } else {
            guard let first = text.first, first.isNumber else { return nil }
        }
        guard text.utf8.count <= 400, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// ", did you mean 'label'?" when a known name is one or two edits away.
    public func suggestion(_ name: String, among candidates: [String]) -> String {
        Suggestion.text(name, among: candidates)
    }
}

/// The known keys of one mapping, in file order. A mapping has a handful of keys, so a linear
/// search beats hashing them into a dictionary for every element.
public struct MappingKeys {
    public var entries: [(key: String, value: DocumentNode)] = []

    public init() {}

    public subscript(_ key: String) -> DocumentNode? {
        // Entries hold the allowed names (`checkKeys`), which callers look up by: a name of
        // another length is another name, told apart without comparing the text.
        let length = key.utf8.count
        return entries.first { $0.key.utf8.count == length && $0.key == key }?.value
    }
}

/// Numbers in messages: whole numbers without a fraction, others as Swift prints them (`1e-06`).
public enum NumberText {
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15, let whole = Int64(exactly: value) { return String(whole) }
        return String(value)
    }
}

/// Suggestions for misspelt names.
public enum Suggestion {
    /// ", did you mean 'action'?" when a known name is one or two edits away.
    public static func text(_ name: String, among candidates: [String]) -> String {
        // Long names are not misspellings of short keys; and the distance is quadratic.
        guard name.count <= 100 else { return "" }
        let best = candidates.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= max(1, min(2, name.count / 3)) else { return "" }
        return " (did you mean '\(best.0)'?)"
    }

    /// Edit distance: insertions, deletions, substitutions and swaps of two neighbouring
    /// characters each count 1 (optimal string alignment), so `lable` is one edit from `label`.
    public static func editDistance(_ a: String, _ b: String) -> Int {
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
}
