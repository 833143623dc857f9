import AccessibilityModel
import Atspi
import LiveTree
import Scanning

/// A live application's text fields take the scanning keyboard's text: through EditableText at
/// the caret where the widget offers it, else as key events to the focused field. The field's
/// text and caret are read back through Text after every edit (key events reach the application
/// through the X server: what they typed may show only at the next read).
extension LiveApplication: TextEntryTarget {
    public func isTextField(_ element: Element) -> Bool {
        accessible(forElement: element.id).map { AccessibleMapping.isTextField($0.node) } ?? false
    }

    public func fieldText(of field: ElementID) -> FieldText? {
        guard let object = accessible(forElement: field)?.object, let read = try? object.fieldText() else { return nil }
        return FieldText(text: read.text, caret: read.caret)
    }

    public func apply(_ edit: TextEdit, to field: ElementID) -> FieldText? {
        guard let object = accessible(forElement: field)?.object, let before = fieldText(of: field) else { return nil }
        do throws(AtspiError) {
            switch (edit, object.isEditableText) {
            case (.insert(let text), true):
                try object.insertText(text, at: before.caret)
            case (.deleteBackward(let count), true):
                try object.deleteText(before: before.caret, count: min(count, before.caret))
            case (.insert(let text), false):
                try Atspi.typeString(text)
            case (.deleteBackward(let count), false):
                for _ in 0..<min(count, before.caret) { try Atspi.pressKey(keysym: Atspi.backSpaceKeysym) }
            }
        } catch {
            return nil
        }
        return fieldText(of: field)
    }
}
