/// `accessibilityNavigationStyle` resolved into the groups the scanner walks.
public enum NavigationGrouping {
    /// `separate` containers are spliced into their parent's sequence; `combined` ones stay as
    /// groups entered on select; `automatic` ones stay as groups when `groupAutomatic` is true
    /// (the scanner's `groupItems` on), and are spliced when it is false.
    public static func resolve(_ nodes: [ScanNode], groupAutomatic: Bool = true) -> [ScanNode] {
        nodes.flatMap { node -> [ScanNode] in
            guard case .group(let container, let children) = node else { return [node] }
            let resolved = resolve(children, groupAutomatic: groupAutomatic)
            switch container.navigationStyle {
            case .combined: return [.group(container, resolved)]
            case .separate: return resolved
            case .automatic: return groupAutomatic ? [.group(container, resolved)] : resolved
            }
        }
    }
}

extension Screen {
    /// The screen's scan sequence: visibility rules, reading order, then navigation styles.
    public func scanNodes(groupAutomatic: Bool = true) -> [ScanNode] {
        let tree = Visibility.accessibilityTree(root)
        return NavigationGrouping.resolve(ReadingOrder.nodes(of: tree), groupAutomatic: groupAutomatic)
    }

    /// The screen's items in scan order, ignoring groups.
    public func scanItems() -> [Element] {
        scanNodes(groupAutomatic: false).flatMap(\.items)
    }
}
