import AccessibilityModel
import Scenes

/// The scan structure a session last built, with the state values it was built from, so that a
/// rebuild after an effect does only the work the change calls for:
/// - nothing, when no value the screen reads changed (an effect on a counter nothing shows);
/// - when only values read by what elements *show* changed (labels, values, hints, traits,
///   custom actions' names, custom content), the elements reading them are resolved again and
///   put in place in the structure: the reading order and the grouping cannot have changed, as
///   they depend only on frames, priorities, navigation styles and the structural bindings;
/// - otherwise (a `visible`, `accessibilityElementsHidden`, `accessibilityViewIsModal`,
///   `shouldGroupAccessibilityChildren` or `isAccessibilityElement` binding reads a changed
///   value, or the screen changed), the whole structure is built again.
/// The result is always the structure a full build gives (tested against it).
struct StructureCache: Sendable {
    var screen: String
    var groupItems: Bool
    /// The learnt weights the structure is arranged with (nil: none, the equal-likelihood grouping).
    var learned: LearnedWeights?
    var reads: ScreenReads
    /// The values of `reads.names` when `structure` was last built or patched.
    var values: [StateValue?]
    var structure: ScanStructure
    /// Each top-level element as resolved, with the values its subtree read then.
    var topLevel: [TopLevel?]
    var order = OrderMemo()
    var grouping = GroupingMemo()
    /// Where each element is in `structure` (see `StructurePatch.locate`): found on the first
    /// patch after a build, kept while patches leave every element in place.
    var locations: [ElementID: [Int]]?

    struct TopLevel: Sendable {
        var values: [StateValue?]
        var element: Element
        /// Its elements that escape reaches (nil until the element is found present).
        var escapable: Set<ElementID>?
        /// Its elements that a magic tap handler reaches (as `escapable`).
        var magicTappable: Set<ElementID>?
    }

    /// A cache for `state`'s screen, built in full.
    init?(scene: Scene, state: SceneState, groupItems: Bool, learned: LearnedWeights? = nil) {
        guard let template = scene.screenTemplate(named: state.screen) else { return nil }
        self.screen = state.screen
        self.groupItems = groupItems
        self.learned = learned
        self.reads = ScreenReads(template)
        self.values = []
        self.structure = ScanStructure(nodes: [])
        self.topLevel = []
        rebuild(scene: scene, state: state.values, template: template)
    }

    func currentValues(_ state: [String: StateValue]) -> [StateValue?] {
        reads.names.map { state[$0] }
    }

    /// The structure for `state` on the same screen: kept when nothing the screen reads changed,
    /// patched when only shown values changed, else rebuilt reusing the unchanged top-level
    /// elements, their reading order and their containers' grouping.
    mutating func update(to state: [String: StateValue], scene: Scene, template: ScreenTemplate) -> ScanStructure {
        let now = currentValues(state)
        if now == values { return structure }
        var changed = [String]()
        var readers = 0
        for (index, name) in reads.names.enumerated() where now[index] != values[index] {
            if reads.structural.contains(name) {
                rebuild(scene: scene, state: state, template: template)
                return structure
            }
            changed.append(name)
            readers += reads.readers[name]?.count ?? 0
        }
        var fresh = StructurePatch.Fresh(capacity: readers)
        for name in changed {
            for reader in reads.readers[name] ?? [] where fresh.index[reader.id] == nil {
                fresh.add(reader.id, reader.shown.render(state))
            }
        }
        // A few elements: patched where they are; many: in one walk over the whole structure.
        if fresh.shown.count <= StructurePatch.targetedLimit {
            if locations == nil { locations = StructurePatch.locate(structure.nodes) }
            if let locations, fresh.index.keys.allSatisfy({ locations[$0] != nil }) {
                for id in Array(fresh.index.keys) { StructurePatch.patch(&structure.nodes, at: locations[id]![...], &fresh) }
                values = now
                return structure
            }
        }
        if let patched = StructurePatch.nodes(structure.nodes, &fresh) { structure.nodes = patched }
        values = now
        return structure
    }

    /// Builds the structure again; top-level elements whose subtree reads the same values as
    /// when they were resolved are reused, and so, downstream, their order and grouping.
    mutating func rebuild(scene: Scene, state: [String: StateValue], template: ScreenTemplate) {
        var kept = [TopLevel?](repeating: nil, count: template.elements.count)
        let previous = topLevel, names = reads.topLevelNames
        let screen = scene.screen(self.screen, state: state) { index, element in
            let snapshot = names[index].map { state[$0] }
            if index < previous.count, let old = previous[index], old.values == snapshot {
                kept[index] = old
                return old.element
            }
            let resolved = element.resolve(state: state, language: scene.language)
            kept[index] = TopLevel(values: snapshot, element: resolved)
            return resolved
        }
        topLevel = kept
        values = currentValues(state)
        locations = nil
        guard let screen else {
            structure = ScanStructure(nodes: [])
            return
        }
        var nodes = screen.scanNodes(groupAutomatic: groupItems, memo: &order)
        if let learned {
            nodes = learned.arrange(nodes, groupItems: groupItems)
        } else if groupItems {
            nodes = AutomaticGrouping.group(nodes, memo: &grouping)
        }
        // Escape's and magic tap's reach, per top-level element (as `ScanSession.structure(of:nodes:)`
        // finds them).
        let rootHandles = screen.root.escape != nil
        let rootMagicTaps = screen.root.magicTap != nil
        var escapable: Set<ElementID> = rootHandles ? [screen.root.id] : []
        var magicTappable: Set<ElementID> = rootMagicTaps ? [screen.root.id] : []
        for (index, child) in screen.root.children.enumerated() where child.isPresent {
            if topLevel[index]?.escapable == nil {
                topLevel[index]?.escapable = ScanSession.reach(of: \.escape, in: child, handled: rootHandles)
            }
            if topLevel[index]?.magicTappable == nil {
                topLevel[index]?.magicTappable = ScanSession.reach(of: \.magicTap, in: child, handled: rootMagicTaps)
            }
            escapable.formUnion(topLevel[index]?.escapable ?? [])
            magicTappable.formUnion(topLevel[index]?.magicTappable ?? [])
        }
        structure = ScanStructure(
            nodes: nodes, escapable: escapable, screenHandlesEscape: rootHandles, magicTappable: magicTappable,
            screenHandlesMagicTap: screen.root.magicTap != nil)
    }
}

/// Which state names a screen's templates read, and where.
struct ScreenReads: Sendable {
    /// Every name read anywhere on the screen, sorted.
    var names: [String]
    /// Names read by a binding that decides the structure.
    var structural: Set<String>
    /// For each name read by what an element shows: the elements reading it.
    var readers: [String: [Reader]]
    /// For each top-level element: the names read in its subtree, sorted.
    var topLevelNames: [[String]]

    struct Reader: Sendable {
        var id: ElementID
        /// What the element's template shows, rendered on its own (without the template's subtree).
        var shown: ShownTemplate
    }

    init(_ template: ScreenTemplate) {
        var all = Set<String>(), structural = Set<String>()
        var readers = [String: [Reader]]()
        func condition(_ binding: BoolBinding?) -> String? {
            if case .condition(let condition)? = binding { return condition.name }
            return nil
        }
        var subtree = Set<String>()
        func walk(_ element: ElementTemplate) {
            var shown = Set<String>()
            for text in [element.label, element.value, element.hint] { shown.formUnion(text?.referencedNames ?? []) }
            for entry in element.traits { if let name = entry.condition?.name { shown.insert(name) } }
            for action in element.customActions { shown.formUnion(action.name.referencedNames) }
            for content in element.customContent {
                shown.formUnion(content.label.referencedNames)
                shown.formUnion(content.value.referencedNames)
            }
            for name in shown { readers[name, default: []].append(Reader(id: element.id, shown: element.shownTemplate)) }
            all.formUnion(shown)
            subtree.formUnion(shown)
            let bindings = [
                condition(element.isAccessibilityElement), condition(element.accessibilityElementsHidden),
                condition(element.accessibilityViewIsModal), condition(element.shouldGroupAccessibilityChildren),
                element.visible?.name,
            ]
            for case let name? in bindings {
                structural.insert(name)
                subtree.insert(name)
            }
            for child in element.elements { walk(child) }
        }
        var topLevelNames = [[String]]()
        for element in template.elements {
            subtree = []
            walk(element)
            topLevelNames.append(subtree.sorted())
        }
        self.topLevelNames = topLevelNames
        all.formUnion(structural)
        self.names = all.sorted()
        self.structural = structural
        self.readers = readers
    }
}

/// Puts what elements show now (`ShownAttributes`) into a structure, by id; what the rules
/// decided (children kept, `isAccessibilityElement` as resolved, the navigation style the
/// grouping set) stays. Unchanged parts are shared, not copied.
enum StructurePatch {
    /// Up to this many changed elements are patched where they are; more, in one walk.
    static let targetedLimit = 64

    /// What an element shows now, and the last element patched with it: the same element met
    /// again (a key is a scan item and also among its container's children) gets the same
    /// patched value, so both places share one storage instead of two copies.
    /// (Arrays beside the index, so that reading one entry copies nothing else.)
    struct Fresh {
        var index: [ElementID: Int]
        var shown: [ShownAttributes]
        var last: [(original: Element, patched: Element)?]

        init(capacity: Int) {
            index = .init(minimumCapacity: capacity)
            shown = []
            shown.reserveCapacity(capacity)
            last = []
            last.reserveCapacity(capacity)
        }

        mutating func add(_ id: ElementID, _ attributes: ShownAttributes) {
            index[id] = shown.count
            shown.append(attributes)
            last.append(nil)
        }
    }

    /// For every element in `nodes`: the indices, level by level, of the node holding it (its
    /// own node, or the item whose element has it among its children). Elements that only a
    /// group's element holds (decoration inside a container) are not listed.
    static func locate(_ nodes: [ScanNode]) -> [ElementID: [Int]] {
        var index = [ElementID: [Int]]()
        func register(_ element: Element, _ path: [Int]) {
            index[element.id] = path
            for child in element.children { register(child, path) }
        }
        func walk(_ nodes: [ScanNode], _ path: [Int]) {
            for (position, node) in nodes.enumerated() {
                switch node {
                case .item(let element): register(element, path + [position])
                case .group(let element, let children):
                    index[element.id] = path + [position]
                    walk(children, path + [position])
                }
            }
        }
        walk(nodes, [])
        return index
    }

    /// Patches the node at `path` and the group elements above it (which hold the element among
    /// their children too).
    static func patch(_ nodes: inout [ScanNode], at path: ArraySlice<Int>, _ fresh: inout Fresh) {
        guard let position = path.first, nodes.indices.contains(position) else { return }
        switch nodes[position] {
        case .item:
            if let patched = node(nodes[position], &fresh) { nodes[position] = patched }
        case .group(let element, var children):
            let patchedElement = self.element(element, &fresh) ?? element
            if path.count > 1 { patch(&children, at: path.dropFirst(), &fresh) }
            nodes[position] = .group(patchedElement, children)
        }
    }

    /// The nodes with the fresh elements put in, or nil when none of them is there.
    static func nodes(_ nodes: [ScanNode], _ fresh: inout Fresh) -> [ScanNode]? {
        var result: [ScanNode]?
        for (index, node) in nodes.enumerated() {
            guard let patched = self.node(node, &fresh) else { continue }
            if result == nil { result = nodes }
            result![index] = patched
        }
        return result
    }

    static func node(_ node: ScanNode, _ fresh: inout Fresh) -> ScanNode? {
        switch node {
        case .item(let element):
            return self.element(element, &fresh).map { .item($0) }
        case .group(let element, let children):
            let patchedElement = self.element(element, &fresh)
            let patchedChildren = nodes(children, &fresh)
            guard patchedElement != nil || patchedChildren != nil else { return nil }
            return .group(patchedElement ?? element, patchedChildren ?? children)
        }
    }

    static func element(_ element: Element, _ fresh: inout Fresh) -> Element? {
        var result: Element?
        let entry = fresh.index[element.id]
        if let entry {
            if let last = fresh.last[entry], last.original == element { return last.patched }
            let new = fresh.shown[entry]
            var shown = element
            shown.label = new.label
            shown.value = new.value
            shown.hint = new.hint
            shown.traits = new.traits
            shown.customActions = new.customActions
            shown.customContent = new.customContent
            result = shown
        }
        var children: [Element]?
        for (index, child) in element.children.enumerated() {
            guard let patched = self.element(child, &fresh) else { continue }
            if children == nil { children = element.children }
            children![index] = patched
        }
        if let children {
            if result == nil { result = element }
            result!.children = children
        }
        if let result, let entry { fresh.last[entry] = (element, result) }
        return result
    }
}
