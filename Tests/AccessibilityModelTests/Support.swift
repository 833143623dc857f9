import AccessibilityModel

// Small helpers shared by the rule tests. Each test builds its own inline tree with
// `Element(...)` values and asserts on what a user would check: ordered ids, groups, hits.

/// `[x, y, width, height]` as in the scene format.
func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
    Rect(x: x, y: y, width: width, height: height)
}

/// A tappable button (it has `activate`, so taps at its activation point reach it).
func button(_ id: ElementID, _ frame: Rect?, sortPriority: Double = 0) -> Element {
    Element(
        id: id, label: id, traits: .button, frame: frame, sortPriority: sortPriority,
        activate: [.announce(id)])
}

/// A plain text leaf.
func text(_ id: ElementID, _ frame: Rect?, sortPriority: Double = 0) -> Element {
    Element(id: id, label: id, traits: .staticText, frame: frame, sortPriority: sortPriority)
}

func screen(_ elements: [Element], accessibilityElements: [ElementID]? = nil) -> Screen {
    Screen(name: "main", size: rect(0, 0, 390, 844), elements: elements, accessibilityElements: accessibilityElements)
}

/// The ids of a screen's scan items, in scan order, ignoring groups.
func itemIDs(_ screen: Screen) -> [ElementID] {
    screen.scanItems().map(\.id)
}

/// Scan nodes written as `id` for an item and `id[child, child]` for a group.
func outline(_ nodes: [ScanNode]) -> [String] {
    nodes.map { node in
        switch node {
        case .item(let element):
            return element.id
        case .group(let element, let children):
            return "\(element.id)[\(outline(children).joined(separator: ", "))]"
        }
    }
}

/// Every id below `root` (not `root` itself), depth first, in declaration order.
func descendantIDs(_ root: Element) -> [ElementID] {
    root.children.flatMap { [$0.id] + descendantIDs($0) }
}
