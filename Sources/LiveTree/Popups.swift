import AccessibilityModel

/// Menus and combo boxes as their users meet them. A menu (a menu bar's File, a submenu) and a
/// combo box are one item each: the items of their closed popup are not on screen and are not
/// scanned. Selected, the toolkit opens the popup; an open popup is a modal level of the scan
/// holding only its items, and escape closes it.
public enum Popups {
    /// Roles of objects whose select opens a popup of items (GTK 3's menus hold their items).
    public static let openerRoles: Set<String> = ["menu", "combo box"]

    /// Roles of the popup object an opener holds between itself and its items (Qt: a menu
    /// item's `popup menu`; a combo box's menu or list; a browser's `<select>`: a list box).
    public static let popupRoles: Set<String> = ["popup menu", "menu", "list box", "list"]

    /// The id of a popup's scan level: its opener's id with this after it (the opener stays an
    /// item of the window under the level).
    public static let levelSuffix = "#popup"

    /// Whether `node` opens a popup: a menu, a combo box, or an item holding a popup menu (Qt's
    /// menu bar entries and submenus).
    public static func isOpener(_ node: AccessibleNode) -> Bool {
        openerRoles.contains(node.role) || node.children.contains { $0.role == "popup menu" }
    }

    /// The popup objects `opener` holds (empty: its children are the popup's items).
    static func popups(of opener: AccessibleNode) -> [AccessibleNode] {
        opener.children.filter { $0.role == "popup menu" || (opener.role == "combo box" && popupRoles.contains($0.role)) }
    }

    /// The items of the popup `opener` opens: the children of the popup objects it holds (a Qt
    /// menu's `popup menu`, a combo box's list), else its own children (a GTK 3 menu's items, a
    /// browser's options).
    public static func items(of opener: AccessibleNode) -> [AccessibleNode] {
        let held = popups(of: opener)
        return held.isEmpty ? opener.children : held.flatMap(\.children)
    }

    /// Whether `node` opens a popup and it is open: EXPANDED (a browser's `<select>`, which is
    /// open only so when it is EXPANDABLE); the popup
    /// object it holds SHOWING (Qt's popup menu, a combo box's menu; not a Qt combo box's list,
    /// which shows while closed); for a menu, one of its items SHOWING (GTK 3 keeps a closed
    /// menu's items VISIBLE, and maps them, SHOWING, only while the menu is popped up; a
    /// browser's closed `<select>` shows its chosen option, so a combo box is not judged so).
    public static func isOpen(_ node: AccessibleNode) -> Bool {
        guard isOpener(node) else { return false }
        if node.states.contains(.expanded) { return true }
        // A combo box that says whether it is expanded (EXPANDABLE: a browser's `<select>`) is
        // open only when EXPANDED: Firefox keeps a closed one's menu SHOWING. (A GTK 3 combo
        // box says neither; its menu SHOWS only while popped up. Chromium's EXPANDED can go
        // unread: `expandedOpeners(shown:in:)`.)
        if node.role == "combo box", node.states.contains(.expandable) { return false }
        if popups(of: node).contains(where: { $0.role != "list" && $0.states.contains(.showing) }) { return true }
        return node.role != "combo box" && items(of: node).contains { $0.states.contains(.showing) }
    }

    /// The combo boxes that say EXPANDABLE whose popup an event said SHOWN (`shown`: the ids of
    /// objects shown by an event and not hidden since): open, whatever EXPANDED reads. Chromium
    /// opens a `<select>` with its menu's showing event, while the scanner went on reading the
    /// combo box not EXPANDED (a new pyatspi process reads it EXPANDED).
    public static func expandedOpeners(shown: Set<String>, in window: AccessibleNode) -> Set<String> {
        guard !shown.isEmpty else { return [] }
        var found = Set<String>()
        func walk(_ node: AccessibleNode) {
            if node.role == "combo box", node.states.contains(.expandable), popups(of: node).contains(where: { shown.contains($0.id) }) {
                found.insert(node.id)
            }
            for child in node.children { walk(child) }
        }
        walk(window)
        return found
    }

    /// The label of the option a combo box holds as chosen (SELECTED or CHECKED), nil when none
    /// is, or it is the combo box's own label.
    public static func chosenOption(of comboBox: AccessibleNode) -> String? {
        guard let chosen = items(of: comboBox).first(where: { !$0.states.isDisjoint(with: [.selected, .checked]) }),
              let label = AccessibleMapping.ownLabel(chosen), label != AccessibleMapping.ownLabel(comboBox) else { return nil }
        return label
    }

    /// The open popup the user is in: the last open one in the window's order, which is the
    /// deepest (a submenu opened from an open menu comes after it). Nil when none is open.
    public static func openPopup(in window: AccessibleNode) -> AccessibleNode? {
        var found: AccessibleNode?
        func walk(_ node: AccessibleNode) {
            if isOpen(node) { found = node }
            // A combo box's own menu is its popup, not a menu of its own (a browser's closed
            // `<select>` shows its chosen option in it).
            for child in node.role == "combo box" ? items(of: node) : node.children { walk(child) }
        }
        walk(window)
        return found
    }

    /// The open popup as a scan level: a modal container (its siblings, the rest of the window,
    /// are not scanned while it shows) holding only the popup's items, in which escape is handled
    /// (the content closes the popup).
    public static func level(of opener: AccessibleNode) -> Element {
        Element(
            id: opener.id + levelSuffix,
            label: AccessibleMapping.ownLabel(opener),
            frame: nil,
            isAccessibilityElement: false,
            accessibilityViewIsModal: true,
            isPresent: true,
            children: items(of: opener).map(AccessibleMapping.element),
            escape: [])
    }

    /// The id of the opener whose popup `levelID` is (nil for any other id).
    public static func openerID(ofLevel levelID: ElementID) -> String? {
        guard levelID.hasSuffix(levelSuffix) else { return nil }
        return String(levelID.dropLast(levelSuffix.count))
    }
}

extension AccessibleNode {
    /// Marks the nodes `ids` EXPANDED (`Popups.expandedOpeners`).
    public mutating func markExpanded(_ ids: Set<String>) {
        guard !ids.isEmpty else { return }
        if ids.contains(id) { states.insert(.expanded) }
        for index in children.indices { children[index].markExpanded(ids) }
    }
}
