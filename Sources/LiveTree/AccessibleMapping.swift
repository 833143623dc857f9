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
        // A menu is the item that opens it (a menu bar's File): its popup is scanned only when
        // open, as a level of its own (`Popups`).
        "menu": .button, "combo box": .button, "page tab": .button,
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

    /// Roles whose content is their text (the Text interface), read whatever their name: text
    /// fields, paragraphs, documents, terminals, a calculator's display. A password's is not
    /// read.
    public static let textContentRoles: Set<String> = ["text", "entry", "paragraph", "document text", "terminal", "editbar"]

    /// Roles that become items whatever they hold: their content is their text.
    public static let textItemRoles: Set<String> = ["document text", "terminal", "editbar"]

    /// Roles whose text shows their value (a GTK 3 scale's text is its number): the Value
    /// interface says it, the text is not read.
    public static let valueRoles: Set<String> = ["slider", "spin button", "scroll bar", "progress bar"]

    /// Whether an object's text is read: a text role's always; any other object's when it has
    /// no name of its own (a GTK 3 display named after nothing, a browser's paragraph), but a
    /// password's and a value's.
    public static func readsText(role: String, name: String) -> Bool {
        role != "password text" && !valueRoles.contains(role) && (textContentRoles.contains(role) || !isRealName(name))
    }

    /// Whether an object's labelled-by relation is read: an item's or a text field's (what
    /// Orca reads first); containers are not labelled on a braille line.
    public static func readsLabelRelation(role: String) -> Bool {
        itemRoles[role] != nil || textItemRoles.contains(role)
    }

    /// Whether `name` names the object for a user: not empty, not a toolkit's class name
    /// (GTK 4.8 names an unnamed widget after its class: `GtkButton`, `GtkScale`, `GtkSourceView`;
    /// Qt's are `QPushButton`…), not an object path.
    public static func isRealName(_ name: String) -> Bool {
        let trimmed = trimmed(name)
        guard !trimmed.isEmpty else { return false }
        return !isToolkitClassName(trimmed) && !(trimmed.hasPrefix(":") && trimmed.contains("/org/a11y/atspi/"))
    }

    /// `text` without white space at either end.
    static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// Prefixes of toolkit class names (GTK, GDK, libadwaita, libhandy, GtkSourceView, Qt).
    static let classPrefixes = ["Gtk", "Gdk", "Adw", "Hdy", "Gsv", "Q"]

    /// A single word made of a toolkit's prefix and capitalised parts: `GtkMenuButton`, `QLineEdit`.
    static func isToolkitClassName(_ word: String) -> Bool {
        guard word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
        for prefix in classPrefixes where word.hasPrefix(prefix) {
            let rest = word.dropFirst(prefix.count)
            // The class part: an upper-case letter, then a lower-case one (`QWERTY` is no class).
            guard let first = rest.first, first.isUppercase, rest.dropFirst().first?.isLowercase == true else { continue }
            return true
        }
        return false
    }

    /// Text as one line: the embedded-object marks (U+FFFC, where a child sits in its parent's
    /// text) left out, each run of white space one space.
    public static func plainText(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{FFFC}" }).joined(separator: " ")
    }

    /// The object's text as shown: one line, with an ellipsis when only its start was read.
    public static func shownText(_ node: AccessibleNode) -> String? {
        guard let text = node.text else { return nil }
        let plain = plainText(text)
        guard !plain.isEmpty else { return nil }
        return node.textIsCut ? plain + "…" : plain
    }

    /// What names the object, in the order Orca reads: the labelled-by relation, the name, the
    /// description (a tooltip), then, but for a text field (whose text is its value), the text.
    /// Nil when none says anything.
    public static func ownLabel(_ node: AccessibleNode) -> String? {
        let relation = plainText(node.labelledBy)
        if !relation.isEmpty { return relation }
        if isRealName(node.name) { return trimmed(node.name) }
        let description = plainText(node.description)
        // GTK 3 describes a scale by its value ("50"): the value says it already.
        if !description.isEmpty, description != node.value.map({ format($0.current) }) { return description }
        return isTextField(node) || node.value != nil ? nil : shownText(node)
    }

    /// Traits whose word the braille line shows: an item with one of them is not wordless.
    static let wordTraits: Traits = [.button, .link, .header, .adjustable, .image, .searchField, .keyboardKey]

    /// The text field's role, read with its content (as Orca says "text").
    public static let textFieldContent = CustomContent(label: "role", value: "text field", isImportant: true)

    /// The action that is the tap: a tap action name, else the first action, else none (a
    /// pointer click at the activation point does it then).
    public static func tapAction(of node: AccessibleNode) -> String? {
        tapActions.first(where: node.actions.contains) ?? node.actions.first
    }

    /// Whether the object is a text field (an editable text role).
    public static func isTextField(_ node: AccessibleNode) -> Bool {
        textFieldRoles.contains(node.role) && (node.states.contains(.editable) || node.role == "password text")
    }

    /// The window as a screen: the window is the root, its children the elements; an open
    /// popup (a menu, a combo box's options) is a modal level after them.
    /// Frames are relative to the window's corner, from whichever extents the toolkit gets
    /// right (`WindowCoordinates`: Qt 5's window coordinates are not).
    public static func screen(of read: AccessibleNode) -> Screen {
        let coordinates = WindowCoordinates(window: read)
        let window = coordinates.resolved(read)
        var root = element(window)
        root.isAccessibilityElementDeclared = false
        if let opener = Popups.openPopup(in: window) { root.children.append(Popups.level(of: opener)) }
        root.frame = coordinates.windowFrame
        return Screen(name: window.name.isEmpty ? window.role : window.name, root: root)
    }

    /// The element for `node` and its subtree.
    public static func element(_ node: AccessibleNode) -> Element {
        var node = node
        if node.role == "page tab" {
            // A GTK 3 notebook's tab holds its page: the page is scanned beside the tab
            // (`elements(ofChild:)`), not read into the tab's label.
            let page = Set(page(of: node).map(\.id))
            node.children.removeAll { page.contains($0.id) }
        }
        var label = ownLabel(node)
        var isItem = itemRoles[node.role] != nil || textItemRoles.contains(node.role) || (node.children.isEmpty && label != nil)
        var traits = itemRoles[node.role] ?? (isItem ? .staticText : containerTraits[node.role] ?? [])
        if node.value != nil, ["slider", "spin button", "scroll bar"].contains(node.role) { traits.insert(.adjustable) }
        if !node.states.isDisjoint(with: [.checked, .selected, .pressed]) { traits.insert(.selected) }
        let interactive = isItem && !traits.contains(.staticText) && !traits.contains(.header)
        // GTK 4.8 leaves ENABLED off some working widgets (a scale): only both missing is dimmed.
        if interactive, node.states.isDisjoint(with: [.sensitive, .enabled]) { traits.insert(.notEnabled) }
        let tap = tapAction(of: node)
        let textField = isTextField(node)
        if isItem, label == nil, !textField {
            // A button or list row without a name of its own shows its children's text, each once
            // (a GTK 4 button and the label inside it both carry "7"). A text field's children
            // (its scroll bars, FeatherPad's line-number area and its tooltip) do not name it.
            let texts = descendantLabels(node)
            label = texts.isEmpty ? nil : texts.joined(separator: " ")
        }
        var value = node.value.map { format($0.current) }
        if textField { value = shownText(node) }
        // A combo box says its chosen option, as Orca reads it (`Fruit combo box Apple`).
        if node.role == "combo box", value == nil { value = Popups.chosenOption(of: node) }
        // Static text that says nothing (galculator's spacer label, named " ") is nothing to scan.
        if isItem, traits.contains(.staticText), label == nil, value == nil, !textItemRoles.contains(node.role) {
            isItem = false
            traits = []
        }
        // Nothing else to say (an unnamed image inside nothing, a list row with no text): the
        // role, as a screen reader says it, rather than nothing.
        if isItem, label == nil, value == nil, traits.isDisjoint(with: wordTraits), !textField { label = node.role }
        var hint = plainText(node.description)
        if hint == label || hint == value { hint = "" }
        if textField, hint.isEmpty { hint = "text field: select gives it the keyboard focus" }
        return Element(
            id: node.id,
            label: label,
            value: value,
            hint: hint.isEmpty ? nil : hint,
            traits: traits,
            frame: frame(of: node),
            isAccessibilityElement: isItem ? true : false,
            accessibilityViewIsModal: node.states.contains(.modal),
            isPresent: isShown(node),
            children: isItem ? [] : node.children.flatMap(elements(ofChild:)),
            customActions: node.actions.filter { $0 != tap }.map { CustomAction(name: $0, effects: []) },
            customContent: textField ? [textFieldContent] : [])
    }

    /// Whether a tap on `node` selects it through its tab list's Selection interface: a page tab
    /// with no action (a GTK 3 notebook's; a browser's tab has its own: Firefox's `switch`,
    /// Chromium's `doDefault`).
    public static func selectsThroughTabList(_ node: AccessibleNode) -> Bool {
        node.role == "page tab" && tapAction(of: node) == nil
    }

    /// The page a page tab holds: its children that are containers (a GTK 3 notebook puts each
    /// page under its tab; a browser's tab holds only its close button, an item).
    static func page(of tab: AccessibleNode) -> [AccessibleNode] {
        guard tab.role == "page tab" else { return [] }
        return tab.children.filter { itemRoles[$0.role] == nil && !textItemRoles.contains($0.role) && !$0.children.isEmpty }
    }

    /// The elements a container's child becomes: itself, but for a tab list whose tabs hold
    /// their pages (a GTK 3 notebook), the tab list (its tabs, one item each) and then the page
    /// of the tab selected, as the user sees it; the other tabs' pages are not on screen (GTK 3
    /// keeps them VISIBLE) and are not scanned.
    static func elements(ofChild node: AccessibleNode) -> [Element] {
        guard node.role == "page tab list" else { return [element(node)] }
        let shownPages = node.children.filter { $0.states.contains(.selected) }.flatMap(page(of:))
        return [element(node)] + shownPages.map(element)
    }

    /// Roles whose object is off screen while it is not SHOWING, whatever VISIBLE says: a
    /// browser's document in a background tab (Firefox and Chromium keep every tab's document
    /// in the window, VISIBLE, and clear SHOWING on those not shown), and a menu's items while
    /// the menu is closed. (Other roles do not go by SHOWING: GTK 4.8 clears it on widgets that
    /// are on screen.)
    public static let shownOnlyWhenShowing: Set<String> = [
        "document web", "document frame", "menu", "popup menu", "menu item", "check menu item", "radio menu item",
        "tearoff menu item",
    ]

    /// Whether the object is on screen for the user, and so scanned: VISIBLE; SHOWING too for
    /// the roles of `shownOnlyWhenShowing`; and, for an object without children, a size (a
    /// zero-size scroll bar is nothing the user can see or aim at).
    public static func isShown(_ node: AccessibleNode) -> Bool {
        guard node.states.contains(.visible) else { return false }
        if shownOnlyWhenShowing.contains(node.role), !node.states.contains(.showing) { return false }
        if node.children.isEmpty, let extents = node.extents, extents.x > noPosition, extents.y > noPosition,
           extents.width <= 0 || extents.height <= 0 {
            return false
        }
        return true
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

    /// What a subtree's objects say, in order, each text once (the text inside a button or a
    /// row; a toolkit often gives a button's label and the button the same words).
    static func descendantLabels(_ node: AccessibleNode) -> [String] {
        var texts = [String]()
        func collect(_ node: AccessibleNode) {
            for child in node.children {
                if let label = ownLabel(child) {
                    if !texts.contains(label) { texts.append(label) }
                } else {
                    collect(child)
                }
            }
        }
        collect(node)
        return texts
    }

    /// A value as the user reads it: whole numbers without a fraction.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\((value * 100).rounded() / 100)"
    }
}
