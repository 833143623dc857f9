import AccessibilityModel
import Platform
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

    /// The text field that has the keyboard focus in the window, as last read; else the window's
    /// only shown text field (an editor's text area, whose window may not have the focus yet).
    public var focusedTextField: Element? {
        guard let snapshot = currentSnapshot else { return nil }
        var fields = [AccessibleNode]()
        func collect(_ node: AccessibleNode) {
            guard AccessibleMapping.isShown(node) else { return }
            if AccessibleMapping.isTextField(node) { fields.append(node) }
            for child in node.children { collect(child) }
        }
        collect(snapshot)
        guard let node = fields.first(where: { $0.states.contains(.focused) }) ?? (fields.count == 1 ? fields.first : nil) else {
            return nil
        }
        func search(_ element: Element) -> Element? {
            if element.id == node.id { return element }
            for child in element.children { if let found = search(child) { return found } }
            return nil
        }
        // A field inside an item that is scanned whole (Mousepad's text area in its page tab)
        // has no element of its own on the screen: it is typed into by its object all the same.
        return search(currentScreen.root) ?? Element(id: node.id, label: node.name.isEmpty ? "text" : node.name)
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
        return keyEventsAnswer(in: field, expecting: before.applying(edit))
    }

    /// The longest the field is read for what key events typed, in seconds: a bound for an
    /// application that never shows it (the keys went to another window), not a speed target.
    static let keyEventAnswerLimit = 3.0

    /// The field's text once it shows `expected`, read again until then (at most
    /// `keyEventAnswerLimit`); else what it holds at the limit. Key events reach the application
    /// through the X server and its own queue, and it updates its text, then its caret, a while
    /// later (Firefox: 0.1 s on a busy machine, seconds when starved). Read at once, the keyboard
    /// would show the field as it was before the key, and the next choice would be made on it: a
    /// key chosen again because its letter is not shown (typed twice), or a predicted word's
    /// edits computed from text that is not the field's.
    private func keyEventsAnswer(in field: ElementID, expecting expected: FieldText) -> FieldText? {
        let end = MonotonicClock.now() + Self.keyEventAnswerLimit
        while true {
            let read = fieldText(of: field)
            if read == expected || read == nil || MonotonicClock.now() >= end { return read }
            MonotonicClock.sleep(seconds: 0.02)
        }
    }
}
