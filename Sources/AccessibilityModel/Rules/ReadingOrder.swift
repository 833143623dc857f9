/// Reading order and scan structure: the accessibility tree of a screen turned into the ordered
/// sequence of items and groups that VoiceOver reads and Switch Control scans.
///
/// Units. The children of a container are gathered into *units*:
/// - an accessibility element is a unit (its own children are not reached);
/// - a container that keeps its children together is a unit placed by its frame: one with
///   `shouldGroupAccessibilityChildren`, an explicit `accessibilityElements`, or
///   `navigationStyle: combined`;
/// - any other container is transparent: its units join its parent's sort, as in UIKit, where
///   elements of plain subviews are ordered together with their parent's;
/// - a non-accessible leaf (decoration) is no unit.
///
/// Order of a container's units:
/// 1. with `accessibilityElements`: exactly the listed elements, in the listed order (ids may
///    be anywhere in the subtree, as in the seed's keypad); unlisted ones are not reached, and a
///    listed element that is hidden is skipped;
/// 2. otherwise by `sortPriority`, higher first; units of equal priority in spatial order.
///
/// The row rule (spatial order). Units are sorted by the top of their frame, then the left.
/// A unit joins the current row when its top lies above the vertical middle of every unit
/// already in the row (or level with the row's first top); otherwise it starts a new row.
/// Rows are read top to bottom; within a row units are read left to right (ties: top, then
/// declaration order). So a tall column beside short keys shares the row of the keys level with
/// its top, and keys one row lower start a new row. Units without any frame come last, in
/// declaration order.
public enum ReadingOrder {
    /// The ordered scan nodes of a container that has already been through
    /// `Visibility.accessibilityTree`. Containers appear as groups with their navigation style;
    /// `NavigationGrouping.resolve` then applies `separate`.
    public static func nodes(of container: Element) -> [ScanNode] {
        // The id index is only needed to resolve explicit orders; most trees have none.
        var index = [ElementID: Element]()
        if hasExplicitOrder(container) { indexSubtree(container, into: &index) }
        return nodes(of: container, index: index)
    }

    static func hasExplicitOrder(_ element: Element) -> Bool {
        element.accessibilityElements != nil || element.children.contains(where: hasExplicitOrder)
    }

    static func nodes(of container: Element, index: [ElementID: Element]) -> [ScanNode] {
        if let explicit = container.accessibilityElements {
            return explicit.compactMap { id in index[id].flatMap { node(for: $0, index: index) } }
        }
        var pool = [Unit]()
        gatherUnits(of: container, into: &pool)
        return sortUnits(pool).compactMap { node(for: $0.element, index: index) }
    }

    /// True when a container's children stay together as one unit of its parent's order.
    public static func keepsChildrenTogether(_ element: Element) -> Bool {
        element.shouldGroupAccessibilityChildren || element.accessibilityElements != nil
            || element.navigationStyle == .combined
    }

    static func node(for element: Element, index: [ElementID: Element]) -> ScanNode? {
        if element.isAccessibilityElement { return .item(element) }
        guard !element.children.isEmpty else { return nil }
        let children = nodes(of: element, index: index)
        guard !children.isEmpty else { return nil }
        return .group(element, children)
    }

    struct Unit {
        var element: Element
        var frame: Rect?
        var declarationIndex: Int
    }

    static func gatherUnits(of container: Element, into pool: inout [Unit]) {
        for child in container.children {
            if child.isAccessibilityElement || keepsChildrenTogether(child) {
                pool.append(Unit(element: child, frame: child.resolvedFrame, declarationIndex: pool.count))
            } else if !child.children.isEmpty {
                gatherUnits(of: child, into: &pool)
            }
        }
    }

    static func sortUnits(_ units: [Unit]) -> [Unit] {
        // Partition by priority, highest first; each partition is ordered spatially.
        let priorities = Set(units.map(\.element.sortPriority)).sorted(by: >)
        if priorities.count <= 1 { return spatialOrder(units) }
        return priorities.flatMap { priority in
            spatialOrder(units.filter { $0.element.sortPriority == priority })
        }
    }

    /// The row rule described above.
    static func spatialOrder(_ units: [Unit]) -> [Unit] {
        let framed = units.filter { $0.frame != nil }.sorted { a, b in
            let fa = a.frame!, fb = b.frame!
            if fa.minY != fb.minY { return fa.minY < fb.minY }
            if fa.minX != fb.minX { return fa.minX < fb.minX }
            return a.declarationIndex < b.declarationIndex
        }
        var ordered = [Unit]()
        ordered.reserveCapacity(units.count)
        var row = [Unit]()
        var rowTop = 0.0
        var rowLimit = 0.0
        func closeRow() {
            ordered.append(contentsOf: row.sorted { a, b in
                let fa = a.frame!, fb = b.frame!
                if fa.minX != fb.minX { return fa.minX < fb.minX }
                if fa.minY != fb.minY { return fa.minY < fb.minY }
                return a.declarationIndex < b.declarationIndex
            })
            row.removeAll(keepingCapacity: true)
        }
        for unit in framed {
            let frame = unit.frame!
            if !row.isEmpty, frame.minY < rowLimit || frame.minY == rowTop {
                row.append(unit)
                rowLimit = min(rowLimit, frame.midY)
            } else {
                if !row.isEmpty { closeRow() }
                row.append(unit)
                rowTop = frame.minY
                rowLimit = frame.midY
            }
        }
        if !row.isEmpty { closeRow() }
        ordered.append(contentsOf: units.filter { $0.frame == nil })
        return ordered
    }

    static func indexSubtree(_ element: Element, into index: inout [ElementID: Element]) {
        index[element.id] = element
        for child in element.children { indexSubtree(child, into: &index) }
    }
}
