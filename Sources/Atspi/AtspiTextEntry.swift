import CAtspi

/// Typing into a text field: its whole text and caret read back (Text), text put in at the caret
/// (EditableText), else key events sent to whatever has the keyboard.
extension AccessibleObject {
    /// Longest field text read back, in characters: a field holding more is read up to here.
    public static let mostFieldText = 100_000

    /// True when the object takes text through its EditableText interface.
    public var isEditableText: Bool { catspi_is_editable_text(pointer) != 0 }

    /// The field's text (up to `mostFieldText` characters) and its caret offset, clamped to the
    /// text read; nil without the Text interface.
    public func fieldText() throws(AtspiError) -> (text: String, caret: Int)? {
        guard let head = try textHead(most: Self.mostFieldText) else { return nil }
        let caret = try Atspi.call("atspi_text_get_caret_offset") { catspi_text_caret(pointer, $0) }
        let length = head.text.count
        // A caret the application does not keep (-1) is at the end.
        return (head.text, caret < 0 ? length : min(Int(caret), length))
    }

    /// Inserts `text` at character `position` and puts the caret after it (EditableText).
    public func insertText(_ text: String, at position: Int) throws(AtspiError) {
        guard isEditableText else {
            throw AtspiError(call: "atspi_editable_text_insert_text", message: "the object has no EditableText interface")
        }
        guard position >= 0, position <= Self.mostFieldText else {
            throw AtspiError(call: "atspi_editable_text_insert_text", message: "position \(position) is out of range")
        }
        let bytes = Int32(clamping: text.utf8.count)
        let ok = try Atspi.call("atspi_editable_text_insert_text") { catspi_insert_text(pointer, Int32(position), text, bytes, $0) }
        if ok == 0 { throw AtspiError(call: "atspi_editable_text_insert_text", message: "refused") }
        // Where the widget leaves its caret after an insertion differs; the caret is put after it.
        _ = try Atspi.call("atspi_text_set_caret_offset") { catspi_text_set_caret(pointer, Int32(position + text.count), $0) }
    }

    /// Deletes the `count` characters before character `position` (EditableText).
    public func deleteText(before position: Int, count: Int) throws(AtspiError) {
        guard isEditableText else {
            throw AtspiError(call: "atspi_editable_text_delete_text", message: "the object has no EditableText interface")
        }
        guard position >= count, count >= 0, position <= Self.mostFieldText else {
            throw AtspiError(call: "atspi_editable_text_delete_text", message: "\(count) characters before \(position) are out of range")
        }
        let ok = try Atspi.call("atspi_editable_text_delete_text") { catspi_delete_text(pointer, Int32(position - count), Int32(position), $0) }
        if ok == 0 { throw AtspiError(call: "atspi_editable_text_delete_text", message: "refused") }
    }
}

extension Atspi {
    /// The X keysym of BackSpace.
    public static let backSpaceKeysym = 0xff08

    /// Sends `text` as key events to whatever has the keyboard (for fields without EditableText).
    public static func typeString(_ text: String) throws(AtspiError) {
        guard !text.isEmpty else { return }
        try requireRegistry("atspi_generate_keyboard_event")
        let ok = try call("atspi_generate_keyboard_event") { atspi_generate_keyboard_event(0, text, ATSPI_KEY_STRING, $0) }
        if ok == 0 { throw AtspiError(call: "atspi_generate_keyboard_event", message: "refused '\(text)'") }
    }
}
