import AccessibilityModel

/// The AT-SPI states the mapping reads (a subset of `AtspiStateType`).
public struct AccessibleStates: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let enabled = AccessibleStates(rawValue: 1 << 0)
    public static let sensitive = AccessibleStates(rawValue: 1 << 1)
    public static let visible = AccessibleStates(rawValue: 1 << 2)
    public static let showing = AccessibleStates(rawValue: 1 << 3)
    public static let modal = AccessibleStates(rawValue: 1 << 4)
    public static let checked = AccessibleStates(rawValue: 1 << 5)
    public static let selected = AccessibleStates(rawValue: 1 << 6)
    public static let pressed = AccessibleStates(rawValue: 1 << 7)
    public static let focusable = AccessibleStates(rawValue: 1 << 8)
    public static let focused = AccessibleStates(rawValue: 1 << 9)
    public static let active = AccessibleStates(rawValue: 1 << 10)
    public static let editable = AccessibleStates(rawValue: 1 << 11)
    public static let checkable = AccessibleStates(rawValue: 1 << 12)
    /// An open combo box or menu (a browser's `<select>` while its options show).
    public static let expanded = AccessibleStates(rawValue: 1 << 13)
    public static let expandable = AccessibleStates(rawValue: 1 << 14)
    /// A container whose children the toolkit makes as they are asked for (a GTK 3 list box):
    /// too many to walk (Orca does not), and no cache holds them.
    public static let managesDescendants = AccessibleStates(rawValue: 1 << 15)
}

/// The AT-SPI Value interface of an object, as read.
public struct AccessibleValue: Hashable, Sendable {
    public var current: Double
    public var minimum: Double
    public var maximum: Double
    /// The toolkit's minimum increment; 0 when it gives none (GTK 4.8 sliders).
    public var minimumIncrement: Double

    public init(current: Double, minimum: Double, maximum: Double, minimumIncrement: Double) {
        self.current = current
        self.minimum = minimum
        self.maximum = maximum
        self.minimumIncrement = minimumIncrement
    }

    /// Steps a scan takes over the whole range when the toolkit gives no increment.
    public static let stepsOverRange = 10.0

    /// The step of Increment and Decrement: the minimum increment, else a tenth of the range
    /// (1 when the range is empty or not a finite number).
    public var step: Double {
        if minimumIncrement.isFinite, minimumIncrement > 0 { return minimumIncrement }
        let range = maximum - minimum
        guard range.isFinite, range > 0 else { return 1 }
        return range / Self.stepsOverRange
    }

    /// `current` moved by `steps` steps, kept within the range.
    public func stepped(by steps: Double) -> Double {
        let next = current + steps * step
        guard minimum.isFinite, maximum.isFinite, minimum <= maximum else { return next }
        return Swift.min(Swift.max(next, minimum), maximum)
    }
}

/// One AT-SPI object as read from the bus: plain data, no connection behind it. The live
/// content reads a window into these; `AccessibleMapping` turns them into model elements.
public struct AccessibleNode: Hashable, Sendable {
    /// Unique while the object lives: its bus name and object path.
    public var id: String
    /// AT-SPI's role name (`atspi_role_get_name`): "push button", "check box", "panel"…
    public var role: String
    public var name: String
    public var description: String
    public var states: AccessibleStates
    /// Extents relative to the window, as the toolkit reports them (Qt 5 gets them wrong;
    /// `WindowCoordinates` chooses).
    public var extents: Rect?
    /// Extents on the screen, as the toolkit reports them (GTK 4 gives window coordinates).
    public var screenExtents: Rect?
    /// The Action interface's action names, in order (empty: no Action interface).
    public var actions: [String]
    public var value: AccessibleValue?
    /// The Text interface's content (its first `AccessibleNode.textWindow` characters); nil
    /// without the interface, or when it was not read (an object named by its name).
    public var text: String?
    /// Whether the object's text is longer than `text` (a long document is read in part).
    public var textIsCut: Bool
    /// The names (else the text) of the objects its labelled-by relation names, joined.
    public var labelledBy: String
    public var children: [AccessibleNode]

    /// Most characters of an object's text that are read: a paragraph or a display whole, a
    /// 1 MB document in part (the loop waits on every read).
    public static let textWindow = 2_000

    public init(
        id: String, role: String, name: String = "", description: String = "",
        states: AccessibleStates = [.enabled, .sensitive, .visible, .showing], extents: Rect? = nil,
        screenExtents: Rect? = nil, actions: [String] = [], value: AccessibleValue? = nil, text: String? = nil, textIsCut: Bool = false,
        labelledBy: String = "", children: [AccessibleNode] = []
    ) {
        self.id = id
        self.role = role
        self.name = name
        self.description = description
        self.states = states
        self.extents = extents
        self.screenExtents = screenExtents
        self.actions = actions
        self.value = value
        self.text = text
        self.textIsCut = textIsCut
        self.labelledBy = labelledBy
        self.children = children
    }

    /// Takes the object's own properties from `updated` (everything read of it but children).
    public mutating func takeProperties(from updated: AccessibleNode) {
        role = updated.role
        name = updated.name
        description = updated.description
        states = updated.states
        extents = updated.extents
        screenExtents = updated.screenExtents
        actions = updated.actions
        value = updated.value
        text = updated.text
        textIsCut = updated.textIsCut
        labelledBy = updated.labelledBy
    }

    /// The node with `id`, searching this subtree.
    public func node(withID id: String) -> AccessibleNode? {
        if self.id == id { return self }
        for child in children { if let found = child.node(withID: id) { return found } }
        return nil
    }

    /// Gives the node `id` the properties of `updated` (role, name, description, states,
    /// extents, actions, value, text, label relation), keeping its children: what a name or state change event
    /// changes, without reading the rest of the window again. False when no node has that id.
    @discardableResult
    public mutating func updateProperties(of id: String, from updated: AccessibleNode) -> Bool {
        if self.id == id {
            takeProperties(from: updated)
            return true
        }
        for index in children.indices where children[index].updateProperties(of: id, from: updated) { return true }
        return false
    }

    /// Roles whose children are rows: their size changes with the rows they hold.
    static let rowRoles: Set<String> = ["list", "list box", "table", "tree", "tree table"]

    /// The size either kind of extents gives (nil for none), to compare sizes.
    static func size(of node: AccessibleNode) -> [Double]? {
        (node.screenExtents ?? node.extents).map { [$0.width, $0.height] }
    }

    /// A rectangle's corner (nil for none), to compare positions.
    static func origin(of extents: Rect?) -> Point? { extents.map { Point(x: $0.x, y: $0.y) } }

    /// Gives each node whose id is in `updated` those properties (keeping its children), in one
    /// walk of the tree: a relayout's dozens of changed objects cost one walk, not one each.
    /// Returns the ids found, and those of them that have children and whose extents' origin
    /// moved (their descendants moved with them and were not read), or that are lists whose size
    /// changed (rows came or went, not always said): the caller reads the subtree or the window
    /// again.
    public mutating func updateProperties(from updated: [String: AccessibleNode]) -> (found: Set<String>, movedContainers: Set<String>) {
        var found = Set<String>()
        var moved = Set<String>()
        var remaining = updated.count
        func walk(_ node: inout AccessibleNode) {
            guard remaining > 0 else { return }
            if let new = updated[node.id] {
                found.insert(node.id)
                remaining -= 1
                if !node.children.isEmpty, Self.origin(of: node.extents) != Self.origin(of: new.extents)
                    || Self.origin(of: node.screenExtents) != Self.origin(of: new.screenExtents) {
                    moved.insert(node.id)
                } else if Self.rowRoles.contains(node.role), Self.size(of: node) != Self.size(of: new) {
                    // A list that grew or shrank gained or lost rows: GTK 4.8 adds gnome-calculator's
                    // history row with no children-changed event, only the list's bounds change.
                    moved.insert(node.id)
                }
                node.takeProperties(from: new)
            }
            for index in node.children.indices {
                guard remaining > 0 else { return }
                walk(&node.children[index])
            }
        }
        walk(&self)
        return (found, moved)
    }
}
