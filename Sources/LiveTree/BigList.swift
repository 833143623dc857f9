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

    /// Whether either kind of extents says where it is (GTK 3 puts a row out of view at G_MININT).
    var hasFrame: Bool { WindowCoordinates.usable(screenExtents) != nil || WindowCoordinates.usable(extents) != nil }
}
