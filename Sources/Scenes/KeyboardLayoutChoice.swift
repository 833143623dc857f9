/// The `keyboardLayout` setting: the layout by its file's name, or `auto`, the text field's
/// language's (its letters by frequency).
public enum KeyboardLayoutChoice: String, Hashable, Sendable, CaseIterable {
    case auto
    case englishFrequency = "english-frequency"
    case frenchFrequency = "french-frequency"
    case qwerty, azerty

    /// The layout's id, nil for `auto`.
    public var layoutID: String? { self == .auto ? nil : rawValue }
}
