import AccessibilityModel
import CAtspi
#if canImport(Glibc)
import Glibc
#endif
import LiveTree

/// libatspi, wrapped once: accessible objects, their properties as Swift values, actions,
/// values, events, and the GLib main context joined to one descriptor for the program's poll
/// loop. No GLib or C type is visible past this module; errors name the libatspi call.
public enum Atspi {
    /// Connects to the accessibility bus (`atspi_init`); a second call does nothing. Every call
    /// after it waits at most `callTimeout` milliseconds for an application's answer
    /// (`startupTimeout` within that long of this process first meeting the application:
    /// libatspi counts from then, not from the application's start): a hung application costs
    /// the loop a bounded wait, not libatspi's own 15 s or D-Bus's 25 s.
    public static func initialize() throws(AtspiError) {
        let result = atspi_init()
        // 0: connected; 1: already was. Anything else: no bus.
        guard result == 0 || result == 1 else {
            throw AtspiError(call: "atspi_init", message: "could not connect to the accessibility bus (returned \(result))")
        }
        atspi_set_timeout(callTimeout, startupTimeout)
    }

    /// Longest wait for an application's answer to one call, in milliseconds.
    public static let callTimeout: Int32 = 1_500
    /// Longest wait while this process has just met the application (libatspi's start-up
    /// allowance, 15 s of its own: a hung application then cost a new `snapshot` 18 s).
    public static let startupTimeout: Int32 = 3_000

    /// Children of one container read with the window when it is read in part
    /// (`AccessibleObject.snapshot(limit:objects:deferred:)`): more than a screenful of rows.
    public static let childrenReadAtOnce = 60

    /// Most objects a labelled-by relation names that are read (a label is one or two).
    public static let maxLabelTargets = 8

    /// The desktop: its children are the applications.
    /// Not while the registry is away (`AccessibilityRegistry`): libatspi would block on it.
    public static func desktop() throws(AtspiError) -> AccessibleObject {
        try requireRegistry("atspi_get_desktop")
        guard let pointer = atspi_get_desktop(0) else {
            throw AtspiError(call: "atspi_get_desktop", message: "no desktop")
        }
        return AccessibleObject(owning: pointer)
    }

    /// Most children an object may report before the rest are left out: a number from the bus
    /// becomes an `Int` only within it.
    public static let maxChildren = 1_000_000

    /// Throws at once when the registry did not answer its last check: a libatspi call to it
    /// (the desktop, the device event controller) would wait on it unbounded.
    static func requireRegistry(_ name: String) throws(AtspiError) {
        guard AccessibilityRegistry.shared.isRunning else { throw AtspiError(call: name, message: AccessibilityRegistry.notRunning) }
    }

    /// Runs `body` with a GError slot, and turns an error left in it into an `AtspiError`.
    static func call<T>(_ name: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) throws(AtspiError) -> T {
        var error: UnsafeMutablePointer<GError>?
        let result = body(&error)
        if let error {
            var buffer = [CChar](repeating: 0, count: 512)
            _ = catspi_take_error(error, &buffer, buffer.count)
            throw AtspiError(call: name, message: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return result
    }

    /// A C string libatspi gave (freed here).
    static func take(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
        guard let pointer else { return nil }
        defer { catspi_free(pointer) }
        return String(cString: pointer)
    }

    /// Sends a pointer click (button 1 press and release) at a screen position, through the
    /// registry's device event controller (XTest on X11).
    public static func click(x: Double, y: Double) throws(AtspiError) {
        guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else {
            throw AtspiError(call: "atspi_generate_mouse_event", message: "position \(x), \(y) is off any screen")
        }
        try requireRegistry("atspi_generate_mouse_event")
        let ok = try call("atspi_generate_mouse_event") { atspi_generate_mouse_event(glong(x.rounded()), glong(y.rounded()), "b1c", $0) }
        if ok == 0 { throw AtspiError(call: "atspi_generate_mouse_event", message: "refused") }
    }

    /// The X keysym of the Escape key.
    public static let escapeKeysym = 0xff1b

    /// Sends a key press and release (an X keysym) to whatever has the keyboard, through the
    /// registry's device event controller: Escape closes a toolkit's open popup menu.
    public static func pressKey(keysym: Int) throws(AtspiError) {
        guard keysym > 0, keysym <= 0x1fff_ffff else {
            throw AtspiError(call: "atspi_generate_keyboard_event", message: "keysym \(keysym) is out of range")
        }
        try requireRegistry("atspi_generate_keyboard_event")
        let ok = try call("atspi_generate_keyboard_event") { atspi_generate_keyboard_event(glong(keysym), nil, ATSPI_KEY_SYM, $0) }
        if ok == 0 { throw AtspiError(call: "atspi_generate_keyboard_event", message: "refused") }
    }
}

/// The children of a container not read yet: those from index `next` up to `count`.
public struct DeferredChildren: Equatable, Sendable {
    public var containerID: String
    public var next: Int
    public var count: Int
    public init(containerID: String, next: Int, count: Int) {
        self.containerID = containerID
        self.next = next
        self.count = count
    }
}

/// One AT-SPI object (a reference counted libatspi proxy).
public final class AccessibleObject: @unchecked Sendable, Hashable {
    // Only used on the thread of the run's loop; libatspi proxies are not thread safe.
    let pointer: UnsafeMutablePointer<AtspiAccessible>

    /// Takes over a reference the caller owns.
    init(owning pointer: UnsafeMutablePointer<AtspiAccessible>) { self.pointer = pointer }
    /// Takes a new reference.
    init(borrowing pointer: UnsafeMutablePointer<AtspiAccessible>) {
        _ = catspi_ref(pointer)
        self.pointer = pointer
    }
    deinit { catspi_unref(pointer) }

    public static func == (lhs: AccessibleObject, rhs: AccessibleObject) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Its bus name and object path: unique while it lives.
    public var id: String { String(cString: catspi_bus_name(pointer)) + String(cString: catspi_path(pointer)) }

    /// Its application's bus name.
    public var busName: String { String(cString: catspi_bus_name(pointer)) }

    /// `Atspi.call` to this object's application: an error at once when the application is not
    /// answering (`ApplicationSilence`), and a call that timed out makes it so.
    func call<T>(_ name: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) throws(AtspiError) -> T {
        let bus = busName
        if ApplicationSilence.shared.contains(bus) { throw AtspiError(call: name, message: AtspiError.notAnswering) }
        do throws(AtspiError) {
            return try Atspi.call(name, body)
        } catch {
            if error.isTimeout { ApplicationSilence.shared.note(bus) }
            throw error
        }
    }

    public func name() throws(AtspiError) -> String {
        try Atspi.take(call("atspi_accessible_get_name") { atspi_accessible_get_name(pointer, $0) }) ?? ""
    }

    public func descriptionText() throws(AtspiError) -> String {
        try Atspi.take(call("atspi_accessible_get_description") { atspi_accessible_get_description(pointer, $0) }) ?? ""
    }

    /// The role's name ("push button", "check box", "frame"…).
    public func roleName() throws(AtspiError) -> String {
        let role = try call("atspi_accessible_get_role") { atspi_accessible_get_role(pointer, $0) }
        return Atspi.take(atspi_role_get_name(role)) ?? "unknown"
    }

    /// Forgets what libatspi has cached of it and its descendants, so that the next calls ask
    /// the application: an object that changed with no event saying so (Firefox's `<select>`
    /// popup, closed, says nothing until its objects are destroyed much later).
    public func forgetCache() { atspi_accessible_clear_cache(pointer) }

    /// Its states; of an application that is not answering, those libatspi has cached (none
    /// when it has not: a call would wait on it).
    public func states() -> AccessibleStates {
        if ApplicationSilence.shared.contains(busName) { return AccessibleStates(rawValue: catspi_cached_states(pointer)) }
        return AccessibleStates(rawValue: catspi_states(pointer))
    }

    public func childCount() throws(AtspiError) -> Int {
        let count = try call("atspi_accessible_get_child_count") { atspi_accessible_get_child_count(pointer, $0) }
        guard count >= 0 else { return 0 }
        return min(Int(count), Atspi.maxChildren)
    }

    public func child(at index: Int) throws(AtspiError) -> AccessibleObject? {
        guard index >= 0, index < Atspi.maxChildren else { return nil }
        let child = try call("atspi_accessible_get_child_at_index") { atspi_accessible_get_child_at_index(pointer, gint(index), $0) }
        return child.map { AccessibleObject(owning: $0) }
    }

    public func children() throws(AtspiError) -> [AccessibleObject] {
        var result = [AccessibleObject]()
        for index in 0..<(try childCount()) {
            if let child = try child(at: index) { result.append(child) }
        }
        return result
    }

    public func parent() throws(AtspiError) -> AccessibleObject? {
        try call("atspi_accessible_get_parent") { atspi_accessible_get_parent(pointer, $0) }.map { AccessibleObject(owning: $0) }
    }

    public func processID() throws(AtspiError) -> Int32? {
        let pid = try call("atspi_accessible_get_process_id") { atspi_accessible_get_process_id(pointer, $0) }
        return pid > 0 && pid <= UInt32(Int32.max) ? Int32(pid) : nil
    }

    /// Extents relative to the window; nil without the Component interface.
    public func windowExtents() throws(AtspiError) -> Rect? {
        guard catspi_is_component(pointer) != 0 else { return nil }
        var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        let result = try call("atspi_component_get_extents") { catspi_window_extents(pointer, &x, &y, &width, &height, $0) }
        guard result == 0 else { return nil }
        // Toolkits report -1 sizes for objects with no extents; such an object has no frame.
        guard width >= 0, height >= 0 else { return nil }
        return Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }

    /// The Action interface's action names (empty without it).
    public func actionNames() throws(AtspiError) -> [String] {
        guard catspi_is_action(pointer) != 0 else { return [] }
        let action = atspi_accessible_get_action_iface(pointer)
        defer { catspi_unref(action) }
        let count = try call("atspi_action_get_n_actions") { atspi_action_get_n_actions(action, $0) }
        guard count > 0 else { return [] }
        var names = [String]()
        for index in 0..<min(Int(count), 64) {
            let name = try Atspi.take(call("atspi_action_get_action_name") { atspi_action_get_action_name(action, gint(index), $0) })
            names.append(name ?? "")
        }
        return names
    }

    /// Performs the action named `name`; false when the object has no such action.
    @discardableResult
    public func doAction(named name: String) throws(AtspiError) -> Bool {
        guard let index = try actionNames().firstIndex(of: name) else { return false }
        let action = atspi_accessible_get_action_iface(pointer)
        defer { catspi_unref(action) }
        let ok = try call("atspi_action_do_action") { atspi_action_do_action(action, gint(index), $0) }
        return ok != 0
    }

    /// The Text interface's first `most` characters, and whether the text is longer (nil
    /// without the interface).
    public func textHead(most: Int = AccessibleNode.textWindow) throws(AtspiError) -> (text: String, isCut: Bool)? {
        guard catspi_is_text(pointer) != 0 else { return nil }
        let most = Int32(clamping: max(0, most))
        var length: Int32 = 0
        let raw = try call("atspi_text_get_text") { catspi_text_head(pointer, most, &length, $0) }
        guard let text = Atspi.take(raw) else { return nil }
        return (text, length > most)
    }

    /// The objects that label this one (its labelled-by relations' targets), in order.
    public func labelledBy() throws(AtspiError) -> [AccessibleObject] {
        var targets = [UnsafeMutablePointer<AtspiAccessible>?](repeating: nil, count: Atspi.maxLabelTargets)
        let count = try call("atspi_accessible_get_relation_set") {
            catspi_labelled_by(pointer, &targets, Int32(Atspi.maxLabelTargets), $0)
        }
        return targets.prefix(Int(min(max(count, 0), Int32(Atspi.maxLabelTargets)))).compactMap { $0.map { AccessibleObject(owning: $0) } }
    }

    /// The Value interface, read (nil without it, or when a number is not finite).
    public func value() throws(AtspiError) -> AccessibleValue? {
        guard catspi_is_value(pointer) != 0 else { return nil }
        let value = atspi_accessible_get_value_iface(pointer)
        defer { catspi_unref(value) }
        let current = try call("atspi_value_get_current_value") { atspi_value_get_current_value(value, $0) }
        let minimum = try call("atspi_value_get_minimum_value") { atspi_value_get_minimum_value(value, $0) }
        let maximum = try call("atspi_value_get_maximum_value") { atspi_value_get_maximum_value(value, $0) }
        let increment = try call("atspi_value_get_minimum_increment") { atspi_value_get_minimum_increment(value, $0) }
        guard current.isFinite, minimum.isFinite, maximum.isFinite else { return nil }
        return AccessibleValue(
            current: current, minimum: minimum, maximum: maximum, minimumIncrement: increment.isFinite ? increment : 0)
    }

    public func setValue(_ new: Double) throws(AtspiError) {
        guard catspi_is_value(pointer) != 0 else {
            throw AtspiError(call: "atspi_value_set_current_value", message: "the object has no Value interface")
        }
        let value = atspi_accessible_get_value_iface(pointer)
        defer { catspi_unref(value) }
        let ok = try call("atspi_value_set_current_value") { atspi_value_set_current_value(value, new, $0) }
        if ok == 0 { throw AtspiError(call: "atspi_value_set_current_value", message: "refused \(new)") }
    }

    /// Its index among its parent's children (nil when it has none, or the number is out of range).
    public func indexInParent() throws(AtspiError) -> Int? {
        let index = try call("atspi_accessible_get_index_in_parent") { atspi_accessible_get_index_in_parent(pointer, $0) }
        return index >= 0 && index < Atspi.maxChildren ? Int(index) : nil
    }

    /// Selects its child at `index` through the Selection interface (a tab list's tab brought to
    /// the front); false when the object has no Selection interface or the application refused
    /// (Chromium's tab strip refuses: its tabs' own action does it).
    public func selectChild(at index: Int) throws(AtspiError) -> Bool {
        guard index >= 0, index < Atspi.maxChildren, let selection = atspi_accessible_get_selection_iface(pointer) else { return false }
        defer { catspi_unref(selection) }
        let ok = try call("atspi_selection_select_child") { atspi_selection_select_child(selection, gint(index), $0) }
        return ok != 0
    }

    /// Gives the object the keyboard focus.
    public func grabFocus() throws(AtspiError) {
        guard catspi_is_component(pointer) != 0 else {
            throw AtspiError(call: "atspi_component_grab_focus", message: "the object has no Component interface")
        }
        let component = atspi_accessible_get_component_iface(pointer)
        defer { catspi_unref(component) }
        let ok = try call("atspi_component_grab_focus") { atspi_component_grab_focus(component, $0) }
        if ok == 0 { throw AtspiError(call: "atspi_component_grab_focus", message: "refused") }
    }

    /// Extents on the screen (for a pointer click), nil without the Component interface.
    public func screenExtents() throws(AtspiError) -> Rect? {
        guard catspi_is_component(pointer) != 0 else { return nil }
        let component = atspi_accessible_get_component_iface(pointer)
        defer { catspi_unref(component) }
        let rect = try call("atspi_component_get_extents") { atspi_component_get_extents(component, ATSPI_COORD_TYPE_SCREEN, $0) }
        guard let rect else { return nil }
        defer { catspi_free(rect) }
        guard rect.pointee.width >= 0, rect.pointee.height >= 0 else { return nil }
        return Rect(x: Double(rect.pointee.x), y: Double(rect.pointee.y), width: Double(rect.pointee.width), height: Double(rect.pointee.height))
    }

    /// The object's own properties read into a plain value, without its children. A part that
    /// cannot be read is left out (a browser's slider whose value "Get failed" is a slider
    /// without a value); the role is the one part the object cannot do without (an object that
    /// cannot say it is gone), and an application that does not answer stops the read (each
    /// further call would wait out the timeout too): both throw.
    ///
    /// Extents: the screen's, which every toolkit gets right or gives as window coordinates
    /// (GTK 4); the window's as well only for a window (`isWindow`: its corner in its own
    /// coordinates is what `WindowCoordinates` checks against) or when the screen's cannot be
    /// used (one call an object, not two: a window of 10,000 objects).
    public func properties(isWindow: Bool = false) throws(AtspiError) -> AccessibleNode {
        var node = AccessibleNode(id: id, role: try roleName(), states: states())
        node.name = try part(name, else: "")
        node.description = try part(descriptionText, else: "")
        node.screenExtents = try part(screenExtents, else: nil)
        if isWindow || WindowCoordinates.usable(node.screenExtents) == nil {
            node.extents = try part(windowExtents, else: nil)
        }
        node.actions = try part(actionNames, else: [])
        node.value = try part(value, else: nil)
        if AccessibleMapping.readsText(role: node.role, name: node.name), let head = try part({ () throws(AtspiError) in try textHead() }, else: nil) {
            node.text = head.text
            node.textIsCut = head.isCut
        }
        if AccessibleMapping.readsLabelRelation(role: node.role) {
            node.labelledBy = try part(labelText, else: "")
        }
        return node
    }

    /// What the objects labelling this one say: each one's name, else its text.
    private func labelText() throws(AtspiError) -> String {
        var texts = [String]()
        for target in try labelledBy() where target != self {
            let name = try part(target.name, else: "")
            let text = AccessibleMapping.isRealName(name) ? name : (try part({ () throws(AtspiError) in try target.textHead() }, else: nil))?.text ?? ""
            let shown = AccessibleMapping.plainText(text)
            if !shown.isEmpty { texts.append(shown) }
        }
        return texts.joined(separator: " ")
    }

    /// `read`'s answer, else `fallback` when it failed for this object alone; an application
    /// that did not answer is thrown.
    private func part<T>(_ read: () throws(AtspiError) -> T, else fallback: T) throws(AtspiError) -> T {
        do throws(AtspiError) {
            return try read()
        } catch {
            if error.isNoReply { throw error }
            return fallback
        }
    }

    /// The object and its subtree read into plain values, at most `limit` objects (the rest
    /// left out), so that a huge window cannot exhaust memory.
    public func snapshot(limit: Int = 100_000, isWindow: Bool = false) throws(AtspiError) -> AccessibleNode {
        var objects: [String: AccessibleObject]?
        return try snapshot(limit: limit, objects: &objects, isWindow: isWindow)
    }

    /// The snapshot, and each object by its id in `objects` (to act on what the user chose).
    /// An object that cannot be read (gone meanwhile, or broken) is left out with its subtree,
    /// the rest read; when the application stops answering, or `goOn` says no more (the
    /// caller's time budget), what was read is kept and the rest left out. Throws only when
    /// this object itself cannot be read.
    /// `isWindow`: this object is the window (its extents are read both ways).
    public func snapshot(
        limit: Int = 100_000, objects: inout [String: AccessibleObject]?, isWindow: Bool = false, goOn: () -> Bool = { true }
    ) throws(AtspiError) -> AccessibleNode {
        var budget = max(1, limit)
        var deferred: [DeferredChildren]?
        return try snapshot(budget: &budget, objects: &objects, deferred: &deferred, isWindow: isWindow, goOn: goOn)
    }

    /// The snapshot with the children of big containers that manage their descendants (more
    /// than `Atspi.childrenReadAtOnce`) read in part: their first `childrenReadAtOnce`, the rest named in `deferred` for the
    /// caller to read later (`children(of:from:to:)`), so that a list of 10,000 rows shows its
    /// first screenful in the time of a few dozen rows.
    public func snapshot(
        limit: Int = 100_000, objects: inout [String: AccessibleObject]?, deferred: inout [DeferredChildren], isWindow: Bool = false,
        goOn: () -> Bool = { true }
    ) throws(AtspiError) -> AccessibleNode {
        var budget = max(1, limit)
        var later: [DeferredChildren]? = deferred
        defer { deferred = later ?? [] }
        return try snapshot(budget: &budget, objects: &objects, deferred: &later, isWindow: isWindow, goOn: goOn)
    }

    /// Its children from index `start` up to `end` (not included), each with its subtree (big
    /// containers inside them in part, as `snapshot(limit:objects:deferred:)`); a child that
    /// cannot be read is left out. Stops early when `goOn` says no more: `next` is the index
    /// to go on from.
    public func children(
        from start: Int, to end: Int, limit: Int, objects: inout [String: AccessibleObject]?, deferred: inout [DeferredChildren],
        goOn: () -> Bool
    ) -> (nodes: [AccessibleNode], next: Int) {
        var budget = max(1, limit)
        var later: [DeferredChildren]? = deferred
        defer { deferred = later ?? [] }
        var nodes = [AccessibleNode]()
        var index = max(0, start)
        while index < min(end, Atspi.maxChildren), budget > 0, goOn() {
            do throws(AtspiError) {
                // A child is read whole (its label with a row): `goOn` is asked between children.
                if let child = try child(at: index) {
                    nodes.append(try child.snapshot(budget: &budget, objects: &objects, deferred: &later, goOn: { true }))
                }
            } catch {
                if error.isNoReply { return (nodes, end) }
            }
            index += 1
        }
        return (nodes, index)
    }

    private func snapshot(
        budget: inout Int, objects: inout [String: AccessibleObject]?, deferred: inout [DeferredChildren]?, isWindow: Bool = false,
        goOn: () -> Bool
    ) throws(AtspiError) -> AccessibleNode {
        budget -= 1
        var node = try properties(isWindow: isWindow)
        objects?[id] = self
        var count = try part(childCount, else: 0)
        // Only a container that makes its children as they are asked for (a GTK 3 list box)
        // is read in part: any other window (a page of 150 links) is read whole, as it was.
        if deferred != nil, count > Atspi.childrenReadAtOnce, node.states.contains(.managesDescendants) {
            deferred?.append(DeferredChildren(containerID: id, next: Atspi.childrenReadAtOnce, count: count))
            count = Atspi.childrenReadAtOnce
        }
        var index = 0
        while index < count, budget > 0 {
            guard goOn() else { budget = 0; break }
            do throws(AtspiError) {
                if let child = try child(at: index) {
                    node.children.append(try child.snapshot(budget: &budget, objects: &objects, deferred: &deferred, goOn: goOn))
                }
            } catch {
                // An application that stopped answering: every further call would wait too.
                if error.isNoReply { budget = 0 }
            }
            index += 1
        }
        return node
    }
}
