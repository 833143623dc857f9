/// `accessibilityIdentifier`: unique within a scene.
public typealias ElementID = String

/// `UIAccessibilityNavigationStyle`. UIKit: "Currently, this property only affects Switch Control."
public enum NavigationStyle: String, Hashable, Sendable, CaseIterable {
    /// The scanner decides (with `groupItems` on it may group; with it off, items are scanned one by one).
    case automatic
    /// Children are scanned as individual items in the parent's sequence.
    case separate
    /// The container is one scan item; selecting it enters it.
    case combined
}

/// One node of an accessibility tree, as plain data (AccessKit's approach): every attribute of
/// UIAccessibility that a scene can express, already resolved against the scene's state.
/// Which nodes the scanner sees is decided by the pure functions in `Rules/`.
public struct Element: Hashable, Sendable {
    public var id: ElementID
    public var label: String?
    public var value: String?
    public var hint: String?
    public var traits: Traits
    /// BCP 47 tag (`accessibilityLanguage`); nil inherits from the container or the scene.
    public var language: String?
    /// `accessibilityFrame` as declared; nil means the union of the children's frames.
    public var frame: Rect?
    /// `accessibilityActivationPoint` as declared; nil means the centre of the frame.
    public var activationPoint: Point?
    /// `isAccessibilityElement` as declared; nil means true for a leaf, false for a container.
    public var isAccessibilityElementDeclared: Bool?
    /// `accessibilityElementsHidden`: this element and everything below it are hidden from
    /// assistive technologies (UIKit hides the receiver too, as SwiftUI's `accessibilityHidden`).
    public var accessibilityElementsHidden: Bool
    /// `accessibilityViewIsModal`: while visible, its siblings are ignored.
    public var accessibilityViewIsModal: Bool
    /// `shouldGroupAccessibilityChildren`: keep the children together in reading order.
    public var shouldGroupAccessibilityChildren: Bool
    public var navigationStyle: NavigationStyle
    /// `accessibilityElements`: explicit reading order; ids anywhere in this element's subtree.
    public var accessibilityElements: [ElementID]?
    /// SwiftUI `accessibilitySortPriority`: higher comes first among the units of a container.
    public var sortPriority: Double
    /// False when the scene's `visible` binding says the element does not exist right now.
    public var isPresent: Bool
    public var children: [Element]
    public var customActions: [CustomAction]
    public var customContent: [CustomContent]
    /// `accessibilityActivate`; nil means a tap at the activation point.
    public var activate: [Effect]?
    /// `accessibilityIncrement` / `accessibilityDecrement` of an adjustable element.
    public var increment: [Effect]?
    public var decrement: [Effect]?
    /// `accessibilityPerformEscape`.
    public var escape: [Effect]?
    /// `accessibilityPerformMagicTap`.
    public var magicTap: [Effect]?

    public init(
        id: ElementID,
        label: String? = nil,
        value: String? = nil,
        hint: String? = nil,
        traits: Traits = [],
        language: String? = nil,
        frame: Rect? = nil,
        activationPoint: Point? = nil,
        isAccessibilityElement: Bool? = nil,
        accessibilityElementsHidden: Bool = false,
        accessibilityViewIsModal: Bool = false,
        shouldGroupAccessibilityChildren: Bool = false,
        navigationStyle: NavigationStyle = .automatic,
        accessibilityElements: [ElementID]? = nil,
        sortPriority: Double = 0,
        isPresent: Bool = true,
        children: [Element] = [],
        customActions: [CustomAction] = [],
        customContent: [CustomContent] = [],
        activate: [Effect]? = nil,
        increment: [Effect]? = nil,
        decrement: [Effect]? = nil,
        escape: [Effect]? = nil,
        magicTap: [Effect]? = nil
    ) {
        self.id = id
        self.label = label
        self.value = value
        self.hint = hint
        self.traits = traits
        self.language = language
        self.frame = frame
        self.activationPoint = activationPoint
        self.isAccessibilityElementDeclared = isAccessibilityElement
        self.accessibilityElementsHidden = accessibilityElementsHidden
        self.accessibilityViewIsModal = accessibilityViewIsModal
        self.shouldGroupAccessibilityChildren = shouldGroupAccessibilityChildren
        self.navigationStyle = navigationStyle
        self.accessibilityElements = accessibilityElements
        self.sortPriority = sortPriority
        self.isPresent = isPresent
        self.children = children
        self.customActions = customActions
        self.customContent = customContent
        self.activate = activate
        self.increment = increment
        self.decrement = decrement
        self.escape = escape
        self.magicTap = magicTap
    }

    /// `isAccessibilityElement`: as declared, else true for a leaf and false for a container.
    public var isAccessibilityElement: Bool {
        isAccessibilityElementDeclared ?? children.isEmpty
    }

    /// The frame as declared, else the union of the children's frames; nil when neither exists.
    public var resolvedFrame: Rect? {
        if let frame { return frame }
        var union: Rect?
        for child in children {
            guard let childFrame = child.resolvedFrame else { continue }
            union = union.map { $0.union(childFrame) } ?? childFrame
        }
        return union
    }

    /// The activation point as declared, else the centre of the frame.
    public var resolvedActivationPoint: Point? {
        activationPoint ?? resolvedFrame?.center
    }
}

/// One screen of a scene, resolved: its top-level elements, and the root container's own
/// attributes (`accessibilityElements` of the view controller's view, escape, magic tap).
public struct Screen: Hashable, Sendable {
    public var name: String
    /// The screen's root, a container that is never an item itself.
    public var root: Element

    public init(name: String, root: Element) {
        self.name = name
        self.root = root
    }

    public init(name: String, size: Rect? = nil, elements: [Element], accessibilityElements: [ElementID]? = nil) {
        self.name = name
        self.root = Element(
            id: "screen:\(name)", frame: size, isAccessibilityElement: false,
            accessibilityElements: accessibilityElements, children: elements)
    }

    public var elements: [Element] { root.children }
}
