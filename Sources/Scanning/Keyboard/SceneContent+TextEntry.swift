import AccessibilityModel
import Scenes

/// A scene's text fields (`textField: NAME`) take typed text: their text is the state value NAME.
extension SceneContent: TextEntryTarget {
    public func isTextField(_ element: Element) -> Bool {
        stateName(ofField: element.id) != nil
    }

    public func fieldText(of field: ElementID) -> FieldText? {
        guard let name = stateName(ofField: field) else { return nil }
        guard case .string(let text)? = state.values[name] else { return FieldText(text: "") }
        // A scene's field has no caret of its own: typing goes at the end of its text.
        return FieldText(text: text)
    }

    public mutating func apply(_ edit: TextEdit, to field: ElementID) -> FieldText? {
        guard let name = stateName(ofField: field), let current = fieldText(of: field) else { return nil }
        _ = performByApp([.set([(name: name, value: .string(current.applying(edit).text))])])
        return fieldText(of: field)
    }

    /// The state value holding the text of field `id` on the current screen.
    private func stateName(ofField id: ElementID) -> String? {
        scene.screenTemplate(named: state.screen)?.elements.lazy.flatMap(\.subtree).first { $0.id == id }?.textField
    }
}
