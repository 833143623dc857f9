/// Which elements exist for assistive technologies: small pure functions over a tree.

public enum Visibility {
    /// The tree as it is on screen: elements whose `visible` binding is false are removed with
    /// their subtrees. Hit testing works on this tree (hidden-from-VoiceOver views still take taps).
    public static func presentTree(_ root: Element) -> Element {
        var result = root
        result.isAccessibilityElementDeclared = root.isAccessibilityElement
        result.children = root.children.compactMap { $0.isPresent ? presentTree($0) : nil }
        return result
    }

    /// The tree the scanner sees. Removed, with their subtrees:
    /// - elements that are not present (`visible` false);
    /// - elements with `accessibilityElementsHidden`;
    /// - siblings of a modal view (`accessibilityViewIsModal`): among the remaining children of a
    ///   container, when any is modal, only the last modal one stays (a later subview is on top).
    ///   Only siblings are affected, never an ancestor's siblings: the Orange guide's examples 2
    ///   and 3, where Parent B and Parent A stay visible unless the app hides them.
    /// - everything but an element with SwiftUI's `isModal` trait and its ancestors (when several
    ///   remain, the last in the tree's order, which is drawn on top): in SwiftUI the other views
    ///   need no hiding (the Orange guide's example 2 with `.accessibilityAddTraits(.isModal)`).
    /// Every kept element records whether it is an accessibility element as it was before its
    /// children were removed, so that a container whose children are all hidden does not turn
    /// into a leaf item.
    public static func accessibilityTree(_ root: Element) -> Element {
        let tree = exposedTree(root)
        guard let path = lastModalPath(in: tree) else { return tree }
        return keeping(path[...], in: tree)
    }

    /// The tree without what is not present, hidden, or a sibling of a modal view.
    static func exposedTree(_ root: Element) -> Element {
        var result = root
        result.isAccessibilityElementDeclared = root.isAccessibilityElement
        let kept = root.children.filter(isExposed)
        result.children = applyModalSiblingRule(kept).map(exposedTree)
        return result
    }

    /// Whether an element of the tree below `root` has the `isModal` trait and is exposed.
    public static func holdsModalTrait(_ root: Element) -> Bool {
        root.children.contains { isExposed($0) && ($0.traits.contains(.isModal) || holdsModalTrait($0)) }
    }

    /// The child indices from `root` to the last element with the `isModal` trait, in depth-first
    /// order; nil when there is none.
    static func lastModalPath(in root: Element) -> [Int]? {
        var found: [Int]?
        func walk(_ element: Element, _ path: [Int]) {
            for (index, child) in element.children.enumerated() {
                if child.traits.contains(.isModal) { found = path + [index] }
                walk(child, path + [index])
            }
        }
        walk(root, [])
        return found
    }

    /// `root` with, at each level of `path`, only the child on the path; the last one whole.
    static func keeping(_ path: ArraySlice<Int>, in root: Element) -> Element {
        guard let index = path.first else { return root }
        var result = root
        result.children = [keeping(path.dropFirst(), in: root.children[index])]
        return result
    }

    /// An element exists for accessibility when it is present and not hidden.
    public static func isExposed(_ element: Element) -> Bool {
        element.isPresent && !element.accessibilityElementsHidden
    }

    /// The sibling rule of `accessibilityViewIsModal`: when one or more siblings are modal, the
    /// last of them is the only one kept.
    public static func applyModalSiblingRule(_ siblings: [Element]) -> [Element] {
        guard let modal = siblings.last(where: \.accessibilityViewIsModal) else { return siblings }
        return [modal]
    }
}
