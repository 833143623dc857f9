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

    /// The text field that has the keyboard focus in the window, as last read.
    public var focusedTextField: Element? {
        guard let snapshot = currentSnapshot else { return nil }
        func find(_ node: AccessibleNode) -> AccessibleNode? {
            if node.states.contains(.focused), AccessibleMapping.isTextField(node) { return node }
            for child in node.children { if let found = find(child) { return found } }
            return nil
        }
        guard let node = find(snapshot) else { return nil }
        func search(_ element: Element) -> Element? {
            if element.id == node.id { return element }
            for child in element.children { if let found = search(child) { return found } }
            return nil
        }
        return search(currentScreen.root)
    }

    public func apply(_ edit: TextEdit, to field: ElementID) -> FieldText? {
        guard let object = accessible(forElement: field)?.object, let before = fieldText(of: field) else { return nil }
        do throws(AtspiError) {
            if object.isEditableText, !fieldsTakingKeyEvents.contains(field) {
                switch edit {
                case .insert(let text): try object.insertText(text, at: before.caret)
                case .deleteBackward(let count): try object.deleteText(before: before.caret, count: min(count, before.caret))
                }
                let after = fieldText(of: field)
                // Firefox's fields answer EditableText's calls with success and keep their text
                // as it was (read back at once and after a pause alike): from then on that field
                // takes key events, as its keyboard focus has them.
                guard after == before, before.applying(edit) != before else { return after }
                fieldsTakingKeyEvents.insert(field)
            }
            switch edit {
            case .insert(let text):
                try Atspi.typeString(text)
            case .deleteBackward(let count):
                for _ in 0..<min(count, before.caret) { try Atspi.pressKey(keysym: Atspi.backSpaceKeysym) }
            }
        } catch {
            return nil
        }
        return fieldText(of: field)
    }
}
