/// An AT-SPI event as the change plan sees it: its type and the id of its source (nil when
/// the event came without one).
public struct ChangeEvent: Hashable, Sendable {
    public var type: String
    public var sourceID: String?
    public var detail1: Int

    public init(type: String, sourceID: String?, detail1: Int = 1) {
        self.type = type
        self.sourceID = sourceID
        self.detail1 = detail1
    }
}

/// What one batch of events asks of the snapshot, as a screen reader takes them: each event
/// costs the object it names, never the window. A name, text, state or bounds change reads its
/// source alone; a children change, or a subtree shown or hidden, reads that object's subtree;
/// `defunct` (the object is gone) removes it with its subtree and reads nothing; an event
/// about an object that is not in the snapshot (a background tab's document, a menu not open,
/// an object already removed) is about nothing scanned and is ignored, but the focus moving to
/// such an object, which says the window changed unannounced. The window is read whole only
/// then, when an event names the window itself for a subtree read, comes without a source, or
/// when more objects changed than reading them one by one is worth.
public struct ChangePlan: Equatable, Sendable {
    /// Objects whose own properties are read again (children kept), in event order.
    public var readInPlace: [String] = []
    /// Objects whose subtree is read again, none inside another or inside a removed one.
    public var readSubtrees: [String] = []
    /// Objects gone (`defunct`), removed with their subtree.
    public var removed: [String] = []
    /// The whole window is read again.
    public var readWindow = false
    /// Events about nothing in the snapshot (or said by another entry already).
    public var ignored = 0
    /// Objects an event said were hidden (`showing` cleared) or shown again, in event order.
    /// A browser clears SHOWING on a background tab's container and says so, but not on each
    /// object inside it, whose states a reader's cache keeps as they were: the event is what
    /// tells the tab is hidden (GTK 4.8, which leaves SHOWING off widgets on screen, sends no
    /// such event for them).
    public var showing: [ShowingChange] = []
    /// Objects not in the snapshot that an event said were given a parent (GTK 3 appends a row
    /// to a list with no children-changed event: the row's label says its new parent): the
    /// caller finds where they hang in the snapshot and reads them alone, in event order.
    public var attached: [String] = []

    /// An object an event said was shown or hidden.
    public struct ShowingChange: Equatable, Sendable {
        public var id: String
        public var isShown: Bool
        public init(id: String, isShown: Bool) {
            self.id = id
            self.isShown = isShown
        }
    }

    public init() {}

    /// Nothing to read or remove: the batch changes nothing scanned.
    public var isEmpty: Bool { readInPlace.isEmpty && readSubtrees.isEmpty && removed.isEmpty && attached.isEmpty && !readWindow }

    /// Whether an event of `type` says its source has a new parent.
    public static func isParentChange(_ type: String) -> Bool { type.hasPrefix("object:property-change:accessible-parent") }

    /// Most objects one batch reads one by one (in place or as subtrees): past it the window is
    /// read whole (as cheap then, and it catches what the events did not say).
    public static let mostSources = 500

    /// Events handled elsewhere (a window event finds the window again; an announcement
    /// flashes): they read nothing here.
    static func isHandledElsewhere(_ type: String) -> Bool {
        type.hasPrefix("window:") || type.hasPrefix("object:announcement")
    }

    /// Whether an event of `type` reads its source's subtree (its children changed, or it was
    /// shown or hidden, which a toolkit may do without telling each descendant).
    public static func readsSubtree(_ type: String) -> Bool {
        if type.hasPrefix("object:children-changed") { return true }
        guard type.hasPrefix("object:state-changed:") else { return false }
        let state = type.dropFirst("object:state-changed:".count)
        return state.hasPrefix("showing") || state.hasPrefix("visible") || state.hasPrefix("modal")
    }

    /// Whether an event of `type` says its source is gone.
    public static func isDefunct(_ type: String) -> Bool { type.hasPrefix("object:state-changed:defunct") }

    /// The plan for `events` on `snapshot` (the window as last read).
    public static func plan(_ events: [ChangeEvent], in snapshot: AccessibleNode, mostSources: Int = mostSources) -> ChangePlan {
        let parents = snapshot.parentIDs()
        var plan = ChangePlan()
        var showing = [ShowingChange]()
        var inPlace = [String](), inPlaceSeen = Set<String>()
        var subtrees = Set<String>(), removed = Set<String>()
        var subtreeOrder = [String](), removedOrder = [String]()
        var attached = [String](), attachedSeen = Set<String>()
        for event in events where !isHandledElsewhere(event.type) {
            guard let id = event.sourceID else {
                plan.readWindow = true
                continue
            }
            guard id == snapshot.id || parents[id] != nil else {
                // The focus on an object that was never read: the window changed without saying
                // where (Chromium brings a tab to the front with no children or showing event,
                // only the focus moving into the new tab's document).
                if event.type.hasPrefix("object:state-changed:focused"), event.detail1 != 0 {
                    plan.readWindow = true
                } else if isParentChange(event.type), attachedSeen.insert(id).inserted {
                    attached.append(id)
                } else {
                    plan.ignored += 1
                }
                continue
            }
            if event.type.hasPrefix("object:state-changed:showing") {
                showing.append(ShowingChange(id: id, isShown: event.detail1 != 0))
            }
            if isParentChange(event.type) {
                // A scanned object given a new parent: its old and new parents' children changes
                // say what moved (only GTK 3's appended row, not yet scanned, says nothing else).
                plan.ignored += 1
            } else if isDefunct(event.type) {
                // detail1 0: the state was cleared, which no toolkit does to a live object.
                guard event.detail1 != 0, id != snapshot.id else { plan.ignored += 1; continue }
                if removed.insert(id).inserted { removedOrder.append(id) } else { plan.ignored += 1 }
            } else if readsSubtree(event.type) {
                if id == snapshot.id {
                    plan.readWindow = true
                } else if subtrees.insert(id).inserted {
                    subtreeOrder.append(id)
                } else {
                    plan.ignored += 1
                }
            } else if inPlaceSeen.insert(id).inserted {
                inPlace.append(id)
            } else {
                plan.ignored += 1
            }
        }
        plan.showing = showing
        if plan.readWindow { return plan }
        plan.attached = attached
        /// Whether `id` is inside (or is) one of `set`, the snapshot's root excluded.
        func within(_ id: String, _ set: Set<String>, strictly: Bool) -> Bool {
            var current: String? = strictly ? parents[id] : id
            while let node = current {
                if set.contains(node) { return true }
                current = parents[node]
            }
            return false
        }
        plan.removed = removedOrder.filter { !within($0, removed, strictly: true) }
        let gone = Set(plan.removed)
        plan.readSubtrees = subtreeOrder.filter { !within($0, gone, strictly: false) && !within($0, subtrees, strictly: true) }
        let reread = Set(plan.readSubtrees)
        plan.readInPlace = inPlace.filter { !within($0, gone, strictly: false) && !within($0, reread, strictly: false) }
        plan.ignored += (removedOrder.count - plan.removed.count) + (subtreeOrder.count - plan.readSubtrees.count)
            + (inPlace.count - plan.readInPlace.count)
        if plan.readInPlace.count + plan.readSubtrees.count + plan.attached.count > mostSources {
            var whole = ChangePlan()
            whole.readWindow = true
            whole.showing = showing
            return whole
        }
        return plan
    }
}

extension AccessibleNode {
    /// Each node's parent's id, by the node's id (the root has none), in one walk.
    public func parentIDs() -> [String: String] {
        var parents = [String: String]()
        func walk(_ node: AccessibleNode) {
            for child in node.children {
                parents[child.id] = node.id
                walk(child)
            }
        }
        walk(self)
        return parents
    }

    /// Puts `subtree` in the place of the node with its id (a subtree read again). False when no
    /// node has that id.
    @discardableResult
    public mutating func replaceSubtree(with subtree: AccessibleNode) -> Bool {
        if id == subtree.id {
            self = subtree
            return true
        }
        for index in children.indices where children[index].replaceSubtree(with: subtree) { return true }
        return false
    }

    /// Removes the node with `id` and its subtree (the object is gone). False when no node below
    /// this one has that id.
    @discardableResult
    public mutating func removeSubtree(_ id: String) -> Bool {
        if let index = children.firstIndex(where: { $0.id == id }) {
            children.remove(at: index)
            return true
        }
        for index in children.indices where children[index].removeSubtree(id) { return true }
        return false
    }

    /// The nodes with these ids and their subtrees made not VISIBLE (what an event said is
    /// hidden, whatever the states read of each object say).
    public mutating func hide(_ ids: Set<String>) {
        guard !ids.isEmpty else { return }
        if ids.contains(id) { states.remove(.visible) }
        for index in children.indices { children[index].hide(ids) }
    }

    /// Puts `nodes` in place of the children of the node with `id` from `index` on, one for one,
    /// adding those past its last child (rows read later, or read again). False when no node has
    /// that id.
    @discardableResult
    public mutating func placeChildren(_ nodes: [AccessibleNode], from index: Int, in id: String) -> Bool {
        if self.id == id {
            let start = min(max(0, index), children.count)
            let kept = min(nodes.count, children.count - start)
            children.replaceSubrange(start..<(start + kept), with: nodes.prefix(kept))
            children += nodes.dropFirst(kept)
            return true
        }
        for position in children.indices where children[position].placeChildren(nodes, from: index, in: id) { return true }
        return false
    }

    /// Puts `node` among the children of the node with `id` at `index` (at the end when the
    /// index is past them). False when no node has that id.
    @discardableResult
    public mutating func insertChild(_ node: AccessibleNode, at index: Int, in id: String) -> Bool {
        if self.id == id {
            children.insert(node, at: min(max(0, index), children.count))
            return true
        }
        for position in children.indices where children[position].insertChild(node, at: index, in: id) { return true }
        return false
    }

    /// The ids of this node and every node below it.
    public func subtreeIDs() -> [String] {
        var ids = [id]
        for child in children { ids += child.subtreeIDs() }
        return ids
    }
}
