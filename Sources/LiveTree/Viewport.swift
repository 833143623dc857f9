import AccessibilityModel

/// What of a window is in view: an object is in view when its frame lies inside the window
/// and inside every scrolled container around it (a browser's document, a scroll pane), all
/// relative to the window's corner (`WindowCoordinates`: a snapshot may hold screen extents only). What is out of view is scrolled to before it is highlighted, and the
/// scanner menu's Scroll down and Scroll up say where there is more.
public enum Viewport {
    /// Roles whose object shows part of its content, scrolled (its extents are the part shown).
    public static let scrollingRoles: Set<String> = ["document web", "document frame", "scroll pane", "viewport"]

    /// Where an object is against the area that shows it.
    public enum Place: Equatable, Sendable {
        case inView
        case above
        case below
        /// Beside the area (scrolled sideways), or with no position at all (GTK 3's rows
        /// scrolled out of view report none).
        case elsewhere
    }

    /// Where the object `id` is in `window`; nil when the window does not hold it.
    public static func place(of id: String, in snapshot: AccessibleNode) -> Place? {
        let coordinates = WindowCoordinates(window: snapshot)
        let window = coordinates.resolved(snapshot)
        var found: Place?
        func walk(_ node: AccessibleNode, visible: Rect) -> Bool {
            var area = visible
            if node.id != window.id, scrollingRoles.contains(node.role), let extents = AccessibleMapping.frame(of: node) {
                area = intersection(area, extents) ?? Rect(x: area.x, y: area.y, width: 0, height: 0)
            }
            if node.id == id {
                found = place(AccessibleMapping.frame(of: node), in: visible)
                return true
            }
            for child in node.children where walk(child, visible: area) { return true }
            return false
        }
        let bounds = Rect(x: 0, y: 0, width: coordinates.width, height: coordinates.height)
        _ = walk(window, visible: bounds)
        return found
    }

    /// Where `frame` is against `area`: in view when its middle is inside (a link half cut by
    /// the bottom edge can be seen and aimed at).
    static func place(_ frame: Rect?, in area: Rect) -> Place {
        guard let frame else { return .elsewhere }
        let middleY = frame.y + frame.height / 2, middleX = frame.x + frame.width / 2
        if middleY < area.y { return .above }
        if middleY > area.y + area.height { return .below }
        if middleX < area.x || middleX > area.x + area.width { return .elsewhere }
        return .inView
    }

    static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let x = max(a.x, b.x), y = max(a.y, b.y)
        let right = min(a.x + a.width, b.x + b.width), bottom = min(a.y + a.height, b.y + b.height)
        guard right >= x, bottom >= y else { return nil }
        return Rect(x: x, y: y, width: right - x, height: bottom - y)
    }

    /// Roles whose object is one item with whatever it holds (a link's text, a row's cells).
    static let itemRoles: Set<String> = ElementList.formFieldRoles.union(["link", "heading", "list item", "menu item", "table cell", "paragraph"])

    /// The objects scanned as items that are out of view in
    /// `direction` (`.above` or `.below`), in the window's order: what Scroll up and Scroll
    /// down bring into view.
    public static func items(_ direction: Place, in snapshot: AccessibleNode) -> [String] {
        let coordinates = WindowCoordinates(window: snapshot)
        let window = coordinates.resolved(snapshot)
        var found = [String]()
        func walk(_ node: AccessibleNode, visible: Rect) {
            guard AccessibleMapping.isShown(node) else { return }
            var area = visible
            if node.id != window.id, scrollingRoles.contains(node.role), let extents = AccessibleMapping.frame(of: node) {
                area = intersection(area, extents) ?? Rect(x: area.x, y: area.y, width: 0, height: 0)
            }
            if node.id != window.id, node.children.isEmpty || itemRoles.contains(node.role) {
                if place(AccessibleMapping.frame(of: node), in: visible) == direction { found.append(node.id) }
                return
            }
            for child in node.children { walk(child, visible: area) }
        }
        let bounds = Rect(x: 0, y: 0, width: coordinates.width, height: coordinates.height)
        walk(window, visible: bounds)
        return found
    }
}
