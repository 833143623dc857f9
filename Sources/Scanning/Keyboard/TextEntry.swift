import AccessibilityModel
import DeviceProfiles
import Scenes

/// A text field's text and where its caret is (a count of characters from the start), as the
/// field says it.
public struct FieldText: Hashable, Sendable {
    public var text: String
    public var caret: Int

    public init(text: String, caret: Int? = nil) {
        self.text = text
        self.caret = min(max(caret ?? text.count, 0), text.count)
    }

    /// The text before the caret.
    public var beforeCaret: String { String(text.prefix(caret)) }

    /// Up to `width` characters around the caret, the caret shown as `|`: what the braille
    /// line shows of the field while typing.
    public func aroundCaret(width: Int = 30) -> String {
        let before = Array(text.prefix(caret)), after = Array(text.dropFirst(caret))
        let keepBefore = min(before.count, max(width - min(after.count, width / 3), 0))
        let keepAfter = min(after.count, max(width - keepBefore, 0))
        return String(before.suffix(keepBefore)) + "|" + String(after.prefix(keepAfter))
    }

    /// The text after `edit` at the caret (what a field that takes it holds).
    public func applying(_ edit: TextEdit) -> FieldText {
        var characters = Array(text)
        switch edit {
        case .insert(let inserted):
            characters.insert(contentsOf: Array(inserted), at: caret)
            return FieldText(text: String(characters), caret: caret + inserted.count)
        case .deleteBackward(let count):
            let removed = min(max(count, 0), caret)
            characters.removeSubrange((caret - removed)..<caret)
            return FieldText(text: String(characters), caret: caret - removed)
        }
    }
}

/// One change the keyboard makes to a field, at its caret.
public enum TextEdit: Hashable, Sendable {
    case insert(String)
    /// Removes this many characters before the caret.
    case deleteBackward(Int)
}

/// Content whose text fields take typed text: the scanning keyboard is offered on them and hands
/// them what is typed. The field's text is read back from the field after every edit.
public protocol TextEntryTarget: ScanContent {
    /// True when `element` is a text field that takes typed text.
    func isTextField(_ element: Element) -> Bool
    /// The field's text and caret as it holds them now; nil when it is gone.
    func fieldText(of field: ElementID) -> FieldText?
    /// Makes `edit` at the field's caret and reads the field back; nil when the field is gone or
    /// refused the edit.
    mutating func apply(_ edit: TextEdit, to field: ElementID) -> FieldText?
    /// The text field that has the keyboard focus, where the content keeps one; the scanner
    /// menu's Keyboard entry opens the keyboard over it.
    var focusedTextField: Element? { get }
}

extension TextEntryTarget {
    /// Content without a keyboard focus of its own (a scene): none.
    public var focusedTextField: Element? { nil }
    /// Content that takes typed text is its own target.
    public var textEntryTarget: (any TextEntryTarget)? { self }
}

/// Predicts words from the text before the caret (a word being typed is completed).
public protocol WordPredicting: Sendable {
    func predictions(after textBeforeCaret: String) -> [String]
}

/// What the scanning keyboard is made of: the layout chosen, and the prediction when there is one.
public struct KeyboardOffer: Sendable {
    public var layout: KeyboardLayout
    public var predictor: (any WordPredicting)?

    public init(layout: KeyboardLayout, predictor: (any WordPredicting)? = nil) {
        self.layout = layout
        self.predictor = predictor
    }
}
