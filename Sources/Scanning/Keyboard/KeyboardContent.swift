import AccessibilityModel
import DeviceProfiles
import Scenes

/// The scanning keyboard as scanned content: pushed over the content whose text field was
/// selected, it scans its layout's rows (each row a group) and hands what its keys type to that
/// field, reading the field's text back after every edit.
public struct KeyboardContent: ScanContent {
    /// What the keyboard types into, kept as it was when the keyboard opened (and changed only
    /// by the edits).
    public private(set) var base: any TextEntryTarget
    /// The text field typed into.
    public let field: ElementID
    public let fieldLabel: String
    public let layout: KeyboardLayout
    private let predictor: (any WordPredicting)?
    /// The field's text as last read back from it.
    public private(set) var fieldText: FieldText
    /// The words the prediction row offers now.
    public private(set) var predictions: [String] = []
    public private(set) var typing = KeyboardTyping()
    /// The user closed the keyboard: the session goes back to `base`.
    public private(set) var isClosed = false

    /// What each key's element does.
    private enum KeyAction: Hashable {
        case key(KeyboardLayout.Key)
        case word(String)
    }

    /// How many characters of the field's text each key shows around the caret.
    public static let shownTextWidth = 20

    /// The id of the scanner menu's Keyboard entry (`ContentCommand`), offered by content that
    /// keeps a keyboard focus while a text field has it.
    public static let openCommandID = "keyboard"

    /// The screen name the trace shows while typing.
    public static let screenPrefix = "keyboard: "

    public init(over base: any TextEntryTarget, field: Element, offer: KeyboardOffer) {
        self.base = base
        self.field = field.id
        self.fieldLabel = field.label ?? field.id
        self.layout = offer.layout
        self.predictor = offer.predictor
        self.fieldText = base.fieldText(of: field.id) ?? FieldText(text: "")
        updatePredictions()
    }

    public var title: String { base.title }
    public var screenName: String { Self.screenPrefix + fieldLabel }
    public var size: (width: Double, height: Double) { base.size }
    public var language: String { layout.language ?? base.language }
    /// The scene and state typed into (a scene's text field keeps its text in its state).
    public var scene: Scene { base.scene }
    public var sceneState: SceneState { base.sceneState }
    public var scanningKeyboard: KeyboardContent? { self }

    /// The key that types `character` (letters in either case), else nil.
    public func key(typing character: Character) -> KeyboardLayout.Key? {
        switch character {
        case " ": return .space
        case "\n": return .return
        default:
            let lower = String(character).lowercased()
            for case .keys(let keys) in layout.rows {
                if let key = keys.first(where: { $0 == .character(String(character)) || $0 == .character(lower) }) {
                    return key
                }
            }
            return nil
        }
    }

    /// The keyboard's screen: one group per row, predicted words first where the layout puts them.
    public func screen() -> Screen {
        let rowCount = Double(max(layout.rows.count, 1))
        let rowHeight = size.height / rowCount
        // The field's text around the caret, as last read back: each key's value, so the braille
        // line shows it beside the highlighted key.
        let shownText = fieldText.aroundCaret(width: Self.shownTextWidth)
        var rows = [Element]()
        for (rowIndex, row) in layout.rows.enumerated() {
            let actions = Self.actions(of: row, predictions: predictions, count: layout.predictions)
            guard !actions.isEmpty else { continue }
            let keyWidth = size.width / Double(actions.count)
            let y = Double(rowIndex) * rowHeight
            let keys = actions.enumerated().map { index, action in
                Element(
                    id: Self.id(row: rowIndex, index: index), label: label(of: action), value: shownText, traits: [.keyboardKey],
                    frame: Rect(x: Double(index) * keyWidth, y: y, width: keyWidth, height: rowHeight))
            }
            // A row reads as its first keys, then the field's text: the text is on the line while
            // the rows are scanned too.
            var rowLabel = "words"
            if case .keys = row { rowLabel = keys.prefix(4).compactMap(\.label).joined(separator: " ") }
            rowLabel += ": " + shownText
            rows.append(Element(
                id: "row.\(rowIndex)", label: rowLabel, isAccessibilityElement: false,
                shouldGroupAccessibilityChildren: true, navigationStyle: .combined, children: keys))
        }
        return Screen(name: screenName, size: Rect(x: 0, y: 0, width: size.width, height: size.height), elements: rows)
    }

    public func currentStructure(groupItems: Bool) -> ScanStructure {
        // The layout's rows are the groups (a user learns where a key is): no automatic grouping.
        var structure = ScanStructure.of(screen(), groupItems: false)
        structure.tapsKeysOnSelect = true
        // Escape closes the keyboard.
        structure.screenHandlesEscape = true
        return structure
    }

    /// The field is read back first: a live application may apply an edit after its call returned,
    /// or change the text by itself.
    public mutating func rebuildStructure(groupItems: Bool) -> ScanStructure {
        if let read = base.fieldText(of: field), read != fieldText {
            fieldText = read
            updatePredictions()
        }
        return currentStructure(groupItems: groupItems)
    }

    public mutating func perform(_ command: ElementCommand, on element: Element?) -> ContentUpdate? {
        switch command {
        case .escape:
            isClosed = true
            return ContentUpdate()
        case .activate:
            guard let element, let action = action(of: element.id) else { return nil }
            return press(action)
        default:
            return nil
        }
    }

    /// Types `key` (as its element's activation does).
    public mutating func press(_ key: KeyboardLayout.Key) -> ContentUpdate {
        press(.key(key))
    }

    /// Puts predicted `word` in (as its element's activation does).
    public mutating func choose(word: String) -> ContentUpdate {
        press(.word(word))
    }

    private mutating func press(_ action: KeyAction) -> ContentUpdate {
        let edits: [TextEdit]
        switch action {
        case .key(.close):
            isClosed = true
            return ContentUpdate()
        case .key(let key): edits = typing.edits(for: key, after: fieldText.beforeCaret)
        case .word(let word): edits = typing.edits(forWord: word, after: fieldText.beforeCaret)
        }
        for edit in edits {
            guard let readBack = base.apply(edit, to: field) else {
                return ContentUpdate(notifications: [AccessibilityNotification(
                    kind: .announcement, text: "\(fieldLabel) did not take the text")])
            }
            fieldText = readBack
        }
        updatePredictions()
        // Keys carry the text read back as their value: the braille line shows it beside the key.
        return ContentUpdate()
    }

    private mutating func updatePredictions() {
        guard layout.rows.contains(.predictions), let predictor else { predictions = []; return }
        predictions = Array(predictor.predictions(after: fieldText.beforeCaret).prefix(layout.predictions))
    }

    private static func actions(of row: KeyboardLayout.Row, predictions: [String], count: Int) -> [KeyAction] {
        switch row {
        case .predictions: return predictions.prefix(count).map(KeyAction.word)
        case .keys(let keys): return keys.map(KeyAction.key)
        }
    }

    private static func id(row: Int, index: Int) -> ElementID { "key.\(row).\(index)" }

    private func action(of id: ElementID) -> KeyAction? {
        let parts = id.split(separator: ".")
        guard parts.count == 3, parts[0] == "key", let row = Int(parts[1]), let index = Int(parts[2]),
              layout.rows.indices.contains(row) else { return nil }
        let actions = Self.actions(of: layout.rows[row], predictions: predictions, count: layout.predictions)
        return actions.indices.contains(index) ? actions[index] : nil
    }

    private func label(of action: KeyAction) -> String {
        switch action {
        case .word(let word): return word
        case .key(.character(let text)):
            return text.first?.isLetter == true && typing.shiftIsOn(after: fieldText.beforeCaret) ? text.uppercased() : text
        case .key(.space): return "space"
        case .key(.delete): return "delete"
        case .key(.return): return "return"
        case .key(.shift): return typing.shiftIsOn(after: fieldText.beforeCaret) ? "shift on" : "shift"
        case .key(.close): return "close keyboard"
        }
    }

    /// The element id of `key` on the keyboard as it is now, and of predicted `word`.
    public func elementID(of key: KeyboardLayout.Key) -> ElementID? { elementID(forAction: .key(key)) }
    public func elementID(ofWord word: String) -> ElementID? { elementID(forAction: .word(word)) }

    private func elementID(forAction wanted: KeyAction) -> ElementID? {
        for (rowIndex, row) in layout.rows.enumerated() {
            if let index = Self.actions(of: row, predictions: predictions, count: layout.predictions).firstIndex(of: wanted) {
                return Self.id(row: rowIndex, index: index)
            }
        }
        return nil
    }
}
