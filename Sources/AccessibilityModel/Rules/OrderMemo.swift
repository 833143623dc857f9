/// The scan sequence of a screen's top-level units, kept between builds: a screen rebuilt after a
/// change that touched one part of it reorders its top level and reuses the other units' ordered
/// nodes.
///
/// A unit's visibility, reading order and navigation styles depend only on its own subtree, so
/// its nodes are reused when its element equals the one they were computed from (`==`; fast
/// when the caller passes back the same, unchanged element). Screens with an explicit order
/// (`accessibilityElements` anywhere) or with a transparent top-level container (one whose units
/// join the screen's own sort) are ordered in full, as `scanNodes` does.
public struct OrderMemo: Sendable {
    struct Entry: Sendable {
        /// The unit as resolved, before the visibility rules.
        var element: Element
        /// Its frame after the visibility rules (what the spatial order sorts by).
        var frame: Rect?
        var nodes: [ScanNode]
        /// Whether an explicit order (`accessibilityElements`) is anywhere in the unit.
        var hasExplicitOrder: Bool
        /// Whether an exposed element of the unit (itself included) has the `isModal` trait,
        /// which hides the other units: the screen is then ordered in full.
        var holdsModal: Bool
    }

    var entries: [ElementID: Entry] = [:]
    var groupAutomatic = true

    public init() {}
}

extension Screen {
    /// `scanNodes(groupAutomatic:)`, reusing the ordered nodes of unchanged top-level units.
    public func scanNodes(groupAutomatic: Bool, memo: inout OrderMemo) -> [ScanNode] {
        if memo.groupAutomatic != groupAutomatic {
            memo = OrderMemo()
            memo.groupAutomatic = groupAutomatic
        }
        let exposed = Visibility.applyModalSiblingRule(root.children.filter(Visibility.isExposed))
        guard root.accessibilityElements == nil,
              exposed.allSatisfy({ $0.isAccessibilityElement || ReadingOrder.keepsChildrenTogether($0) })
        else {
            memo.entries = [:]
            return scanNodes(groupAutomatic: groupAutomatic)
        }
        var entries = [ElementID: OrderMemo.Entry]()
        entries.reserveCapacity(exposed.count)
        var units = [ReadingOrder.Unit]()
        units.reserveCapacity(exposed.count)
        for (index, element) in exposed.enumerated() {
            let entry: OrderMemo.Entry
            if let kept = memo.entries[element.id], kept.element == element {
                entry = kept
            } else {
                let tree = Visibility.accessibilityTree(element)
                let explicit = ReadingOrder.hasExplicitOrder(tree)
                let node = explicit ? nil : ReadingOrder.node(for: tree, index: [:])
                entry = OrderMemo.Entry(
                    element: element, frame: tree.resolvedFrame,
                    nodes: node.map { NavigationGrouping.resolve([$0], groupAutomatic: groupAutomatic) } ?? [],
                    hasExplicitOrder: explicit,
                    holdsModal: element.traits.contains(.isModal) || Visibility.holdsModalTrait(element))
            }
            // An isModal trait hides the rest of the screen: the units are not independent.
            if entry.hasExplicitOrder || entry.holdsModal {
                // Ids of an explicit order are looked up in the whole tree: ordered in full.
                memo.entries = [:]
                return scanNodes(groupAutomatic: groupAutomatic)
            }
            entries[element.id] = entry
            units.append(ReadingOrder.Unit(element: element, frame: entry.frame, declarationIndex: index))
        }
        guard entries.count == exposed.count else {  // ids shared by two units: no reuse by id
            memo.entries = [:]
            return scanNodes(groupAutomatic: groupAutomatic)
        }
        memo.entries = entries
        return ReadingOrder.sortUnits(units).flatMap { entries[$0.element.id]!.nodes }
    }
}
