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
    /// Every attribute lives in one reference: copying an element (into a scan item, a group's
    /// children, a cache) retains one object instead of some fifteen. Setters copy the storage
    /// first when it is shared, so `Element` keeps value semantics.
    private var storage: Storage
    /// What the element shows, when it was put in after the element was made
    /// (`showing(_:)`, a relabel): then it, not `storage`, holds the label, value, hint, traits,
    /// custom actions and custom content. A relabel of a large screen thus makes one small
    /// object per element, shared by every place the element is in, instead of copying each
    /// element's storage. nil: `storage` holds them.
    private var shownOverride: ShownAttributes.Shared?

    private final class Storage: @unchecked Sendable {
        // Written only through `Element`'s setters after `isKnownUniquelyReferenced`, so a
        // storage reachable from two values (or threads) is never written; hence no dynamic
        // exclusivity check on each access.
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) { self.fields = fields }
    }

    private struct Fields: Hashable {
        var id: ElementID
        var label: String?
        var value: String?
        var hint: String?
        var traits: Traits
        var language: String?
        var frame: Rect?
        var activationPoint: Point?
        var isAccessibilityElementDeclared: Bool?
        var accessibilityElementsHidden: Bool
        var accessibilityViewIsModal: Bool
        var shouldGroupAccessibilityChildren: Bool
        var navigationStyle: NavigationStyle
        var accessibilityElements: [ElementID]?
        var sortPriority: Double
        var isPresent: Bool
        var children: [Element]
        var customActions: [CustomAction]
        var customContent: [CustomContent]
        var activate: [Effect]?
        var increment: [Effect]?
        var decrement: [Effect]?
        var escape: [Effect]?
        var magicTap: [Effect]?

        /// Equal in every attribute but those `ShownAttributes` holds (a field added to `Fields`
        /// is added here too, unless `ShownAttributes` holds it).
        func equalApartFromShown(_ other: Fields) -> Bool {
            id == other.id && language == other.language && frame == other.frame
                && activationPoint == other.activationPoint
                && isAccessibilityElementDeclared == other.isAccessibilityElementDeclared
                && accessibilityElementsHidden == other.accessibilityElementsHidden
                && accessibilityViewIsModal == other.accessibilityViewIsModal
                && shouldGroupAccessibilityChildren == other.shouldGroupAccessibilityChildren
                && navigationStyle == other.navigationStyle && accessibilityElements == other.accessibilityElements
                && sortPriority == other.sortPriority && isPresent == other.isPresent && children == other.children
                && activate == other.activate && increment == other.increment && decrement == other.decrement
                && escape == other.escape && magicTap == other.magicTap
        }
    }

    /// Before a write: the storage is this value's own, and holds every attribute (a shown
    /// override is folded into it).
    private mutating func makeUnique() {
        if let shown = shownOverride {
            var fields = storage.fields
            fields.label = shown.label
            fields.value = shown.value
            fields.hint = shown.hint
            fields.traits = shown.traits
            fields.customActions = shown.customActions
            fields.customContent = shown.customContent
            storage = Storage(fields)
            shownOverride = nil
        } else if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(storage.fields)
        }
    }

    /// The element showing `shown` instead of its own label, value, hint, traits, custom actions
    /// and custom content; everything else is shared with this one. `shown` can be given to many
    /// copies of the same element (a scan item and the same element among its container's
    /// children), which then stay one storage.
    public func showing(_ shown: ShownAttributes.Shared) -> Element {
        var element = self
        element.shownOverride = shown
        return element
    }

    /// What the element shows (the attributes a scene's text and trait bindings decide).
    public var shownAttributes: ShownAttributes {
        if let shown = shownOverride { return shown.attributes }
        let fields = storage.fields
        return ShownAttributes(
            label: fields.label, value: fields.value, hint: fields.hint, traits: fields.traits,
            customActions: fields.customActions, customContent: fields.customContent)
    }

    public var id: ElementID {
        get { storage.fields.id }
        set { makeUnique(); storage.fields.id = newValue }
        _modify { makeUnique(); yield &storage.fields.id }
    }
    public var label: String? {
        get { if let shown = shownOverride { return shown.label }; return storage.fields.label }
        set { makeUnique(); storage.fields.label = newValue }
        _modify { makeUnique(); yield &storage.fields.label }
    }
    public var value: String? {
        get { if let shown = shownOverride { return shown.value }; return storage.fields.value }
        set { makeUnique(); storage.fields.value = newValue }
        _modify { makeUnique(); yield &storage.fields.value }
    }
    public var hint: String? {
        get { if let shown = shownOverride { return shown.hint }; return storage.fields.hint }
        set { makeUnique(); storage.fields.hint = newValue }
        _modify { makeUnique(); yield &storage.fields.hint }
    }
    public var traits: Traits {
        get { if let shown = shownOverride { return shown.traits }; return storage.fields.traits }
        set { makeUnique(); storage.fields.traits = newValue }
        _modify { makeUnique(); yield &storage.fields.traits }
    }
    /// BCP 47 tag (`accessibilityLanguage`); nil inherits from the container or the scene.
    public var language: String? {
        get { storage.fields.language }
        set { makeUnique(); storage.fields.language = newValue }
        _modify { makeUnique(); yield &storage.fields.language }
    }
    /// `accessibilityFrame` as declared; nil means the union of the children's frames.
    public var frame: Rect? {
        get { storage.fields.frame }
        set { makeUnique(); storage.fields.frame = newValue }
        _modify { makeUnique(); yield &storage.fields.frame }
    }
    /// `accessibilityActivationPoint` as declared; nil means the centre of the frame.
    public var activationPoint: Point? {
        get { storage.fields.activationPoint }
        set { makeUnique(); storage.fields.activationPoint = newValue }
        _modify { makeUnique(); yield &storage.fields.activationPoint }
    }
    /// `isAccessibilityElement` as declared; nil means true for a leaf, false for a container.
    public var isAccessibilityElementDeclared: Bool? {
        get { storage.fields.isAccessibilityElementDeclared }
        set { makeUnique(); storage.fields.isAccessibilityElementDeclared = newValue }
        _modify { makeUnique(); yield &storage.fields.isAccessibilityElementDeclared }
    }
    /// `accessibilityElementsHidden`: this element and everything below it are hidden from
    /// assistive technologies (UIKit hides the receiver too, as SwiftUI's `accessibilityHidden`).
    public var accessibilityElementsHidden: Bool {
        get { storage.fields.accessibilityElementsHidden }
        set { makeUnique(); storage.fields.accessibilityElementsHidden = newValue }
        _modify { makeUnique(); yield &storage.fields.accessibilityElementsHidden }
    }
    /// `accessibilityViewIsModal`: while visible, its siblings are ignored.
    public var accessibilityViewIsModal: Bool {
        get { storage.fields.accessibilityViewIsModal }
        set { makeUnique(); storage.fields.accessibilityViewIsModal = newValue }
        _modify { makeUnique(); yield &storage.fields.accessibilityViewIsModal }
    }
    /// `shouldGroupAccessibilityChildren`: keep the children together in reading order.
    public var shouldGroupAccessibilityChildren: Bool {
        get { storage.fields.shouldGroupAccessibilityChildren }
        set { makeUnique(); storage.fields.shouldGroupAccessibilityChildren = newValue }
        _modify { makeUnique(); yield &storage.fields.shouldGroupAccessibilityChildren }
    }
    public var navigationStyle: NavigationStyle {
        get { storage.fields.navigationStyle }
        set { makeUnique(); storage.fields.navigationStyle = newValue }
        _modify { makeUnique(); yield &storage.fields.navigationStyle }
    }
    /// `accessibilityElements`: explicit reading order; ids anywhere in this element's subtree.
    public var accessibilityElements: [ElementID]? {
        get { storage.fields.accessibilityElements }
        set { makeUnique(); storage.fields.accessibilityElements = newValue }
        _modify { makeUnique(); yield &storage.fields.accessibilityElements }
    }
    /// SwiftUI `accessibilitySortPriority`: higher comes first among the units of a container.
    public var sortPriority: Double {
        get { storage.fields.sortPriority }
        set { makeUnique(); storage.fields.sortPriority = newValue }
        _modify { makeUnique(); yield &storage.fields.sortPriority }
    }
    /// False when the scene's `visible` binding says the element does not exist right now.
    public var isPresent: Bool {
        get { storage.fields.isPresent }
        set { makeUnique(); storage.fields.isPresent = newValue }
        _modify { makeUnique(); yield &storage.fields.isPresent }
    }
    public var children: [Element] {
        get { storage.fields.children }
        set { makeUnique(); storage.fields.children = newValue }
        _modify { makeUnique(); yield &storage.fields.children }
    }
    public var customActions: [CustomAction] {
        get { if let shown = shownOverride { return shown.customActions }; return storage.fields.customActions }
        set { makeUnique(); storage.fields.customActions = newValue }
        _modify { makeUnique(); yield &storage.fields.customActions }
    }
    public var customContent: [CustomContent] {
        get { if let shown = shownOverride { return shown.customContent }; return storage.fields.customContent }
        set { makeUnique(); storage.fields.customContent = newValue }
        _modify { makeUnique(); yield &storage.fields.customContent }
    }
    /// `accessibilityActivate`; nil means a tap at the activation point.
    public var activate: [Effect]? {
        get { storage.fields.activate }
        set { makeUnique(); storage.fields.activate = newValue }
        _modify { makeUnique(); yield &storage.fields.activate }
    }
    /// `accessibilityIncrement` / `accessibilityDecrement` of an adjustable element.
    public var increment: [Effect]? {
        get { storage.fields.increment }
        set { makeUnique(); storage.fields.increment = newValue }
        _modify { makeUnique(); yield &storage.fields.increment }
    }
    public var decrement: [Effect]? {
        get { storage.fields.decrement }
        set { makeUnique(); storage.fields.decrement = newValue }
        _modify { makeUnique(); yield &storage.fields.decrement }
    }
    /// `accessibilityPerformEscape`.
    public var escape: [Effect]? {
        get { storage.fields.escape }
        set { makeUnique(); storage.fields.escape = newValue }
        _modify { makeUnique(); yield &storage.fields.escape }
    }
    /// `accessibilityPerformMagicTap`.
    public var magicTap: [Effect]? {
        get { storage.fields.magicTap }
        set { makeUnique(); storage.fields.magicTap = newValue }
        _modify { makeUnique(); yield &storage.fields.magicTap }
    }

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
        storage = Storage(Fields(
            id: id,
            label: label,
            value: value,
            hint: hint,
            traits: traits,
            language: language,
            frame: frame,
            activationPoint: activationPoint,
            isAccessibilityElementDeclared: isAccessibilityElement,
            accessibilityElementsHidden: accessibilityElementsHidden,
            accessibilityViewIsModal: accessibilityViewIsModal,
            shouldGroupAccessibilityChildren: shouldGroupAccessibilityChildren,
            navigationStyle: navigationStyle,
            accessibilityElements: accessibilityElements,
            sortPriority: sortPriority,
            isPresent: isPresent,
            children: children,
            customActions: customActions,
            customContent: customContent,
            activate: activate,
            increment: increment,
            decrement: decrement,
            escape: escape,
            magicTap: magicTap))
    }

    public static func == (lhs: Element, rhs: Element) -> Bool {
        if lhs.shownOverride == nil && rhs.shownOverride == nil {
            return lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
        }
        // Same attributes whichever of the two holds what it shows.
        if lhs.shownOverride === rhs.shownOverride && lhs.storage === rhs.storage { return true }
        return lhs.shownAttributes == rhs.shownAttributes && lhs.storage.fields.equalApartFromShown(rhs.storage.fields)
    }

    /// The attributes in declaration order, as the synthesized conformance hashed them (what
    /// the element shows taken from the override when there is one).
    public func hash(into hasher: inout Hasher) {
        guard let shown = shownOverride else {
            storage.fields.hash(into: &hasher)
            return
        }
        var fields = storage.fields
        fields.label = shown.label
        fields.value = shown.value
        fields.hint = shown.hint
        fields.traits = shown.traits
        fields.customActions = shown.customActions
        fields.customContent = shown.customContent
        fields.hash(into: &hasher)
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

/// The attributes of an element that a scene's text and trait bindings decide: what it shows.
public struct ShownAttributes: Hashable, Sendable {
    public var label: String?
    public var value: String?
    public var hint: String?
    public var traits: Traits
    public var customActions: [CustomAction]
    public var customContent: [CustomContent]

    @inlinable
    public init(
        label: String?, value: String?, hint: String?, traits: Traits, customActions: [CustomAction],
        customContent: [CustomContent]
    ) {
        self.label = label
        self.value = value
        self.hint = hint
        self.traits = traits
        self.customActions = customActions
        self.customContent = customContent
    }

    /// Shown attributes that many copies of an element share (`Element.showing(_:)`). Its
    /// fields are its own (not one `ShownAttributes`), so that making one from rendered texts
    /// moves them in without copying a whole structure.
    public final class Shared: Sendable {
        public let label: String?
        public let value: String?
        public let hint: String?
        public let traits: Traits
        public let customActions: [CustomAction]
        public let customContent: [CustomContent]

        public var attributes: ShownAttributes {
            ShownAttributes(
                label: label, value: value, hint: hint, traits: traits, customActions: customActions,
                customContent: customContent)
        }

        @inlinable
        public convenience init(_ attributes: ShownAttributes) {
            self.init(
                label: attributes.label, value: attributes.value, hint: attributes.hint, traits: attributes.traits,
                customActions: attributes.customActions, customContent: attributes.customContent)
        }

        @inlinable
        public init(
            label: String?, value: String?, hint: String?, traits: Traits, customActions: [CustomAction],
            customContent: [CustomContent]
        ) {
            self.label = label
            self.value = value
            self.hint = hint
            self.traits = traits
            self.customActions = customActions
            self.customContent = customContent
        }
    }
}
