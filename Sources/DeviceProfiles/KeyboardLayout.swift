import Documents

/// A scanning keyboard's layout (`Devices/keyboards/*.yaml`): rows of keys, scanned row by row
/// (a row is a scan group), and where the row of predicted words goes.
public struct KeyboardLayout: Hashable, Sendable {
    /// One key of a row.
    public enum Key: Hashable, Sendable {
        /// Types its text (one character; upper case while shift is on, for a letter).
        case character(String)
        case space
        /// Deletes the character before the caret.
        case delete
        /// A new line (return).
        case `return`
        /// The next letter in upper case (the keyboard turns it on by itself at a sentence's start).
        case shift
        /// Closes the keyboard.
        case close

        /// The names a layout file writes for the keys that do not type themselves.
        public static let named: [(name: String, key: Key)] = [
            ("space", .space), ("delete", .delete), ("return", .return), ("shift", .shift), ("close", .close),
        ]
    }

    /// One row: predicted words, or keys.
    public enum Row: Hashable, Sendable {
        /// The words the prediction offers, as many as `predictions` says.
        case predictions
        case keys([Key])
    }

    /// The layout's name as the user chooses it: its file's name without `.yaml`.
    public var id: String
    /// What the user reads when choosing it.
    public var name: String
    /// The language its letter order is made for (BCP 47, `en`), nil for any.
    public var language: String?
    public var rows: [Row]
    /// How many predicted words the prediction row offers.
    public var predictions: Int

    public init(id: String, name: String, language: String? = nil, rows: [Row], predictions: Int = 0) {
        self.id = id
        self.name = name
        self.language = language
        self.rows = rows
        self.predictions = predictions
    }

    /// The keys a layout file may have.
    public static let topLevelKeys = ["name", "description", "language", "predictions", "rows"]
    /// Largest layout file accepted, in bytes.
    public static let maxBytes = 1 << 16
    /// Most rows, and most keys in a row.
    public static let maxRows = 20, maxKeysPerRow = 40
    /// The range of `predictions`.
    public static let predictionRange = 1...10

    /// Reads a layout from YAML text; `file` names it in messages (`file:line:column: error: …`)
    /// and gives its `id`. Every problem is reported, not only the first. No I/O.
    public static func parse(yaml text: String, file: String) throws(ProfileLoadError) -> KeyboardLayout {
        let reader = KeyboardLayoutReader(file: file)
        guard let layout = reader.read(text), reader.problems.isEmpty else {
            throw ProfileLoadError(problems: reader.sortedProblems)
        }
        return layout
    }

    /// A file's layout id: its name without the folder and `.yaml`.
    public static func id(ofFile file: String) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return name.hasSuffix(".yaml") ? String(name.dropLast(5)) : name
    }
}

private final class KeyboardLayoutReader: DocumentReader {
    init(file: String) {
        super.init(file: file, maxNodes: 10_000, maxStringLength: 200)
    }

    func read(_ text: String) -> KeyboardLayout? {
        guard let root = readDocument(text, maxBytes: KeyboardLayout.maxBytes, expected: "a keyboard layout (a mapping with name and rows)"),
              let pairs = mapping(root, "the keyboard layout") else { return nil }
        let keys = checkKeys(pairs, allowed: KeyboardLayout.topLevelKeys, in: "a keyboard layout")
        let name = required(keys, "name", in: root, "the layout's name").flatMap { string($0, "name") }
        _ = keys["description"].flatMap { string($0, "description") }
        let language = keys["language"].flatMap { string($0, "language") }
        var predictions: Int?
        if let node = keys["predictions"] {
            predictions = wholeNumber(node, "predictions", in: KeyboardLayout.predictionRange)
        }
        var rows: [KeyboardLayout.Row]?
        if let node = required(keys, "rows", in: root, "a list of rows (each a list of keys, or predictions)") {
            rows = readRows(node)
        }
        guard let name, let rows, problems.isEmpty else { return nil }
        let hasPredictionRow = rows.contains(.predictions)
        if hasPredictionRow, predictions == nil, let node = keys["rows"] {
            report(node, "a predictions row needs `predictions:` (how many words it offers, \(KeyboardLayout.predictionRange.lowerBound) to \(KeyboardLayout.predictionRange.upperBound))")
            return nil
        }
        if !hasPredictionRow, let node = keys["predictions"] {
            report(node, "`predictions:` without a predictions row in rows")
            return nil
        }
        return KeyboardLayout(id: KeyboardLayout.id(ofFile: file), name: name, language: language, rows: rows,
                              predictions: predictions ?? 0)
    }

    func readRows(_ node: DocumentNode) -> [KeyboardLayout.Row]? {
        guard let items = sequence(node, "rows") else { return nil }
        if items.isEmpty { report(node, "rows is empty: a keyboard needs at least one row of keys"); return nil }
        if items.count > KeyboardLayout.maxRows { report(node, "\(items.count) rows, at most \(KeyboardLayout.maxRows)"); return nil }
        var rows = [KeyboardLayout.Row]()
        var seen = [KeyboardLayout.Key: DocumentNode]()
        var predictionRow: DocumentNode?
        for item in items {
            if let scalar = item.asScalar {
                guard scalar.string == "predictions" else {
                    report(item, "a row is a list of keys or `predictions`, found '\(scalar.string)'")
                    continue
                }
                if let first = predictionRow {
                    report(item, "a second predictions row (the first is at line \(first.position.line))")
                    continue
                }
                predictionRow = item
                rows.append(.predictions)
                continue
            }
            guard let keyNodes = sequence(item, "a row of keys") else { continue }
            if keyNodes.isEmpty { report(item, "an empty row"); continue }
            if keyNodes.count > KeyboardLayout.maxKeysPerRow {
                report(item, "\(keyNodes.count) keys in a row, at most \(KeyboardLayout.maxKeysPerRow)")
                continue
            }
            var row = [KeyboardLayout.Key]()
            for keyNode in keyNodes {
                guard let key = readKey(keyNode) else { continue }
                if let first = seen[key] {
                    report(keyNode, "\(describe(keyNode)) is already on the keyboard (line \(first.position.line), column \(first.position.column))")
                    continue
                }
                seen[key] = keyNode
                row.append(key)
            }
            rows.append(.keys(row))
        }
        return rows
    }

    func readKey(_ node: DocumentNode) -> KeyboardLayout.Key? {
        guard let text = string(node, "a key") else { return nil }
        if let named = KeyboardLayout.Key.named.first(where: { $0.name == text }) { return named.key }
        guard text.count == 1 else {
            report(node, "a key is one character or one of " + KeyboardLayout.Key.named.map(\.name).joined(separator: ", ")
                + ", found '\(text)'" + suggestion(text, among: KeyboardLayout.Key.named.map(\.name)))
            return nil
        }
        guard let scalar = text.unicodeScalars.first, !scalar.properties.isWhitespace,
              scalar.properties.generalCategory != .control else {
            report(node, "a key's character must be visible (write `space` or `return` for those keys)")
            return nil
        }
        return .character(text)
    }
}
