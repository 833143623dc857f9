import AccessibilityModel

/// The keys a scene file may use at each level, as the reader accepts them; the reader checks
/// against these lists and `switchscan-scene(5)` lists them, so the page cannot drift from the
/// reader.
public enum SceneFormatKeys {
    public static let scene = ["scene", "description", "size", "language", "state", "start", "screens", "tests"]
    /// A tests file: a scene's tests kept beside it (`scene:` names the scene file).
    public static let testsFile = ["scene", "description", "tests"]
    public static let screen = ["title", "elements", "accessibilityElements", "escape", "magicTap"]
    public static let element = [
        "id", "label", "value", "hint", "traits", "language", "frame", "activationPoint",
        "isAccessibilityElement", "accessibilityElementsHidden", "accessibilityViewIsModal",
        "shouldGroupAccessibilityChildren", "navigationStyle", "accessibilityElements", "sortPriority",
        "visible", "elements", "customActions", "customContent", "activate", "increment", "decrement",
        "escape", "magicTap", "placeholder", "didBecomeFocused", "didLoseFocus", "textField",
    ]
    public static let effects = ["set", "toggle", "add", "go", "announce", "post"]
    public static let test = ["name", "screen", "profile", "settings", "steps"]
    public static let steps = ["press", "hold", "wait", "route", "key", "app", "post", "type", "expect"]
    /// `traits:` names (`none` clears them).
    public static var traits: [String] { ["none"] + Traits.named.map(\.name) }
}
