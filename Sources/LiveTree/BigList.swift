import AccessibilityModel

/// A big list: a container that makes its children as they are asked for (`managesDescendants`,
/// a GTK 3 list box) and holds more of them than a window read takes at once. Scrolling one
/// moves its rows in and out of view with no event (GTK 3 moves the viewport, not the rows, and
/// gives the rows out of view no position): what a scroll changed is found from the rows alone.
extension AccessibleNode {
    /// The innermost big list (more than `rowsReadAtOnce` children) holding the object `id`,
    /// and the index of its row that holds it; nil when no big list holds it.
    public func bigListRow(holding id: String, rowsReadAtOnce: Int) -> (listID: String, row: Int)? {
        var found: (listID: String, row: Int)?
        func walk(_ node: AccessibleNode) -> Bool {
            if node.id == id { return true }
            for (index, child) in node.children.enumerated() where walk(child) {
                if found == nil, node.states.contains(.managesDescendants), node.children.count > rowsReadAtOnce {
                    found = (node.id, index)
                }
                return true
            }
            return false
        }
        _ = walk(self)
        return found
    }

    /// The ids (each row with its subtree) of the rows of the list `listID` whose frames a
    /// scroll to row `row` can have changed: those within `reach` rows of it (the screenful now
    /// in view), and those that had a frame (in view before). Empty when no node has that id.
    public func rowsMovedByScroll(in listID: String, to row: Int, reach: Int) -> [String] {
        guard let list = node(withID: listID) else { return [] }
        let near = max(0, row - reach)..<max(0, min(list.children.count, row + reach + 1))
        var ids = [String]()
        for (index, child) in list.children.enumerated() where near.contains(index) || child.hasFrame {
            ids += child.subtreeIDs()
        }
        return ids
    }

    /// The vertical scroll bar that scrolls the list `listID`: among the children of its nearest
    /// container that has a scroll bar with a value (GTK 3's scrolled window holds the list's
    /// viewport and its two bars), the one with the larger range; nil when there is none.
    public func scrollBar(of listID: String) -> AccessibleNode? {
        var path = [AccessibleNode]()
        func walk(_ node: AccessibleNode) -> Bool {
            path.append(node)
            if node.id == listID { return true }
            for child in node.children where walk(child) { return true }
            path.removeLast()
            return false
        }
        guard walk(self) else { return nil }
        for container in path.reversed() {
            let bars = container.children.filter { $0.role == "scroll bar" && $0.value != nil }
            if let bar = bars.max(by: { range(of: $0) < range(of: $1) }), range(of: bar) > 0 { return bar }
        }
        return nil
    }

    /// The value that shows row `row` of `count` on scroll bar `value`: its share of the range,
    /// rows taken as equally high (the bar's top is the view's top, so the row is in the view).
    public static func scrollValue(showing row: Int, of count: Int, on value: AccessibleValue) -> Double {
        let share = count > 1 ? Double(min(max(0, row), count - 1)) / Double(count - 1) : 0
        return value.minimum + (value.maximum - value.minimum) * share
    }

    private func range(of bar: AccessibleNode) -> Double { bar.value.map { $0.maximum - $0.minimum } ?? 0 }

    /// Takes the extents off the rows of the list `listID` (and off what they hold) that lie
    /// above or below `window` (screen coordinates): after a scroll GTK 3 reports the rows it
    /// moved at places far outside the window (the last of 10,000 rows at y = 197,187 in a
    /// 600-point window), which would put them in the reading order by those places; with none
    /// they come in the list's order, as the rows out of view do.
    public mutating func dropFramesOutside(_ window: Rect, inList listID: String) {
        if id == listID {
            for index in children.indices {
                guard let frame = WindowCoordinates.usable(children[index].screenExtents),
                      frame.y + frame.height <= window.y || frame.y >= window.y + window.height else { continue }
                children[index].dropExtents()
            }
            return
        }
        for index in children.indices { children[index].dropFramesOutside(window, inList: listID) }
    }

    private mutating func dropExtents() {
        screenExtents = nil
        extents = nil
        for index in children.indices { children[index].dropExtents() }
    }

    /// Whether either kind of extents says where it is (GTK 3 puts a row out of view at G_MININT).
    var hasFrame: Bool { WindowCoordinates.usable(screenExtents) != nil || WindowCoordinates.usable(extents) != nil }
}
