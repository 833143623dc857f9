/// One entry of a screen's scan sequence: an item, or a group of entries.
public enum ScanNode: Hashable, Sendable {
    /// An accessibility element: one scan item. (Held in the node itself, not in a box of its
    /// own: a screen of 10,000 keys makes and frees 10,000 objects fewer per structure.)
    case item(Element)
    /// A container kept together, with its ordered entries. Its navigation style says what the
    /// scanner does with it: `combined` is one item entered on select; `automatic` lets the
    /// scanner decide (`groupItems`). After `NavigationGrouping.resolve` no group is `separate`.
    indirect case group(Element, [ScanNode])

    public var element: Element {
        switch self {
        case .item(let element), .group(let element, _): return element
        }
    }

    public var id: ElementID { element.id }

    public var children: [ScanNode] {
        if case .group(_, let children) = self { return children }
        return []
    }

    public var isGroup: Bool {
        if case .group = self { return true }
        return false
    }

    /// The first of `items`, found without listing them all.
    public var firstItem: Element? {
        switch self {
        case .item(let element): return element
        case .group(_, let children):
            for child in children { if let first = child.firstItem { return first } }
            return nil
        }
    }

    /// The items under this node, depth first, in scan order.
    public var items: [Element] {
        switch self {
        case .item(let element): return [element]
        case .group(_, let children): return children.flatMap(\.items)
        }
    }
}
