import AccessibilityModel

/// AT-SPI objects to model elements: a pure function of a snapshot, so that the rules are
/// tested on inline trees. The table it follows is docs/live-applications.md.
public enum AccessibleMapping {
    /// How a role becomes an element.
    public struct RoleRule: Sendable {
        /// The traits the role always carries.
        public var traits: Traits
        /// Whether the object is one scan item (its children are part of it), or a container
        /// whose children are scanned (grouped under the scene rules).
        public var isItem: Bool
    }

    /// Roles that are items, with their traits. Any other role is a container when it has
    /// children, and static text when it has none but a name.
    public static let itemRoles: [String: Traits] = [
        "push button": .button, "button": .button, "toggle button": .button,
        "check box": .button, "radio button": .button, "switch": .button,
        "menu item": .button, "check menu item": .button, "radio menu item": .button,
        "combo box": .button, "page tab": .button,
        "link": .link,
        "slider": [], "spin button": [], "scroll bar": [],
        "heading": .header,
        "image": .image, "icon": .image,
        "label": .staticText, "static": .staticText, "paragraph": .staticText, "caption": .staticText,
        "text": [], "entry": [], "password text": [],
        "list item": [], "table cell": [], "tree item": [],
        "progress bar": [.staticText, .updatesFrequently],
    ]

    /// Containers that carry a trait of their own.
    public static let containerTraits: [String: Traits] = ["page tab list": .tabBar]

    /// Action names that mean the tap, in the order they are preferred.
    public static let tapActions = ["click", "press", "activate", "toggle", "jump", "default.activate"]

    /// Roles a text field has: selecting it gives it the keyboard focus.
    public static let textFieldRoles: Set<String> = ["text", "entry", "password text"]

    /// The action that is the tap: a tap action name, else the first action, else none (a
    /// pointer click at the activation point does it then).
    public static func tapAction(of node: AccessibleNode) -> String? {
        tapActions.first(where: node.actions.contains) ?? node.actions.first
    }

    /// Whether the object is a text field (an editable text role).
    public static func isTextField(_ node: AccessibleNode) -> Bool {
        textFieldRoles.contains(node.role) && (node.states.contains(.editable) || node.role == "password text")
    }

    /// The window as a screen: the window is the root, its children the elements.
    public static func screen(of window: AccessibleNode) -> Screen {
        var root = element(window)
        root.isAccessibilityElementDeclared = false
        root.frame = window.extents.map { Rect(x: 0, y: 0, width: $0.width, height: $0.height) }
        return Screen(name: window.name.isEmpty ? window.role : window.name, root: root)
    }

    /// The element for `node` and its subtree.
    public static func element(_ node: AccessibleNode) -> Element {
        let isItem = itemRoles[node.role] != nil || (node.children.isEmpty && !node.name.isEmpty)
        var traits = itemRoles[node.role] ?? (isItem ? .staticText : containerTraits[node.role] ?? [])
        if node.value != nil, ["slider", "spin button", "scroll bar"].contains(node.role) { traits.insert(.adjustable) }
        if !node.states.isDisjoint(with: [.checked, .selected, .pressed]) { traits.insert(.selected) }
        let interactive = isItem && !traits.contains(.staticText) && !traits.contains(.header)
        // GTK 4.8 leaves ENABLED off some working widgets (a scale): only both missing is dimmed.
        if interactive, node.states.isDisjoint(with: [.sensitive, .enabled]) { traits.insert(.notEnabled) }
        let tap = tapAction(of: node)
        var label = node.name.isEmpty ? nil : node.name
        if isItem, label == nil {
            // A button or list row without a name of its own shows its children's text.
            let texts = descendantNames(node)
            label = texts.isEmpty ? nil : texts.joined(separator: " ")
        }
        var hint = node.description.isEmpty ? nil : node.description
        if isTextField(node), hint == nil { hint = "text field: select gives it the keyboard focus" }
        return Element(
            id: node.id,
            label: label,
            value: node.value.map { format($0.current) },
            hint: hint,
            traits: traits,
            frame: frame(of: node),
            isAccessibilityElement: isItem ? true : false,
            accessibilityViewIsModal: node.states.contains(.modal),
            isPresent: node.states.contains(.visible),
            children: isItem ? [] : node.children.map(element),
            customActions: node.actions.filter { $0 != tap }.map { CustomAction(name: $0, effects: []) })
    }

    /// Coordinates at or beyond this are no position: GTK 3 reports x = y = G_MININT
    /// (-2147483648) for an object that is not on screen (a list's rows scrolled out of view).
    public static let noPosition = -1_073_741_824.0

    /// The element's frame: the extents, or none when they have no position (an object off
    /// screen). A frame of G_MININT would sort first in reading order (a long list's first
    /// highlight was its first row out of view, "Row 29"); with none the object comes after
    /// those on screen, in the window's order, as Orca reads it.
    public static func frame(of node: AccessibleNode) -> Rect? {
        guard let extents = node.extents, extents.x > noPosition, extents.y > noPosition,
              extents.x.isFinite, extents.y.isFinite else { return nil }
        return extents
    }

    /// The names of a subtree's objects, in order (the text inside a button or a row).
    static func descendantNames(_ node: AccessibleNode) -> [String] {
        node.children.flatMap { child in child.name.isEmpty ? descendantNames(child) : [child.name] }
    }

    /// A value as the user reads it: whole numbers without a fraction.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\((value * 100).rounded() / 100)"
    }
}
