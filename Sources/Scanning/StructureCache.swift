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
    /// For each element in `structure`, in the order `StructurePatch.Walk` meets them, its
    /// reader's index in `reads` and whether it has children (`StructurePatch.planEntry`): found on the first patch of many
    /// elements after a build, kept while patches leave every element in place. A relabel of
    /// every element then looks nothing up by id.
    var plan: [Int]?

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
        for (index, name) in reads.names.enumerated() where now[index] != values[index] {
            if reads.structural.contains(name) {
                rebuild(scene: scene, state: state, template: template)
                return structure
            }
            changed.append(name)
        }
        // What each reader of a changed value shows now, rendered once: the same object goes to
        // every place the element is in (its item, its container's children). `renewedIndex`:
        // for each reader, its place in `renewed` (-1: unchanged).
        var renewedIndex = [Int32](repeating: -1, count: reads.ids.count)
        var renewedReaders = [Int]()
        renewedReaders.reserveCapacity(min(reads.ids.count, changed.reduce(0) { $0 + (reads.readers[$1]?.count ?? 0) }))
        for name in changed {
            for reader in reads.readers[name] ?? [] where renewedIndex[reader] < 0 {
                renewedIndex[reader] = Int32(truncatingIfNeeded: renewedReaders.count)
                renewedReaders.append(reader)
            }
        }
        let renewed = ShownTemplate.render(reads.shown, at: renewedReaders, state: state)
        values = now
        // A few elements: patched where they are; many: in one walk over the whole structure.
        if renewed.count <= StructurePatch.targetedLimit {
            if locations == nil { locations = StructurePatch.locate(structure.nodes) }
            if let locations, renewedReaders.allSatisfy({ locations[reads.ids[$0]] != nil }) {
                var byID = [ElementID: ShownAttributes.Shared](minimumCapacity: renewed.count)
                for (reader, shown) in zip(renewedReaders, renewed) { byID[reads.ids[reader]] = shown }
                for reader in renewedReaders {
                    StructurePatch.patch(&structure.nodes, at: locations[reads.ids[reader]]![...], byID)
                }
                return structure
            }
        }
        if plan == nil { plan = StructurePatch.plan(structure.nodes, readers: reads.ordinals) }
        var walk = StructurePatch.Walk(plan: plan!, renewedIndex: renewedIndex, renewed: renewed)
        walk.nodes(&structure.nodes)
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
        plan = nil
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
    /// For each name read by what an element shows: the elements reading it (their indices in
    /// `ids` and `shown`).
    var readers: [String: [Int]]
    /// The elements whose shown attributes read a state value (readers), in template order.
    var ids: [ElementID]
    /// What each reader's template shows, rendered on its own (without the template's subtree).
    var shown: [ShownTemplate]
    /// Each reader's index, by id.
    var ordinals: [ElementID: Int]
    /// For each top-level element: the names read in its subtree, sorted.
    var topLevelNames: [[String]]

    init(_ template: ScreenTemplate) {
        var all = Set<String>(), structural = Set<String>()
        var readers = [String: [Int]]()
        var ids = [ElementID](), shownTemplates = [ShownTemplate](), ordinals = [ElementID: Int]()
        func condition(_ binding: BoolBinding?) -> String? {
            if case .condition(let condition)? = binding { return condition.name }
            return nil
        }
        var subtree = Set<String>()
        func walk(_ element: ElementTemplate) {
            var shown = Set<String>()
            for text in [element.label, element.placeholder, element.value, element.hint] { shown.formUnion(text?.referencedNames ?? []) }
            for entry in element.traits { if let name = entry.condition?.name { shown.insert(name) } }
            for action in element.customActions { shown.formUnion(action.name.referencedNames) }
            for content in element.customContent {
                shown.formUnion(content.label.referencedNames)
                shown.formUnion(content.value.referencedNames)
            }
            // Ids are unique on a screen; should one come twice, its first element is the reader.
            if !shown.isEmpty, ordinals[element.id] == nil {
                let ordinal = ids.count
                ids.append(element.id)
                shownTemplates.append(element.shownTemplate)
                ordinals[element.id] = ordinal
                for name in shown { readers[name, default: []].append(ordinal) }
            }
            all.formUnion(shown)
            subtree.formUnion(shown)
            let bindings = [
                condition(element.isAccessibilityElement), condition(element.accessibilityElementsHidden),
                condition(element.accessibilityViewIsModal), condition(element.shouldGroupAccessibilityChildren),
                element.visible?.name,
            ] + element.traits.map { entry in
                // A conditional isModal trait hides or shows the rest of the screen.
                entry.trait.contains(.isModal) ? entry.condition?.name : nil
            }
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
        self.ids = ids
        self.shown = shownTemplates
        self.ordinals = ordinals
    }
}

/// Puts what elements show now (`ShownAttributes`, shared by every copy of an element) into a
/// structure; what the rules decided (children kept, `isAccessibilityElement` as resolved, the
/// navigation style the grouping set) stays. Unchanged parts are shared, not copied.
enum StructurePatch {
    /// Up to this many changed elements are patched where they are; more, in one walk.
    static let targetedLimit = 64

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
    static func patch(_ nodes: inout [ScanNode], at path: ArraySlice<Int>, _ fresh: [ElementID: ShownAttributes.Shared]) {
        guard let position = path.first, nodes.indices.contains(position) else { return }
        switch nodes[position] {
        case .item(let element):
            if let patched = self.element(element, fresh) { nodes[position] = .item(patched) }
        case .group(let element, var children):
            let patchedElement = self.element(element, fresh) ?? element
            if path.count > 1 { patch(&children, at: path.dropFirst(), fresh) }
            nodes[position] = .group(patchedElement, children)
        }
    }

    /// The element and its subtree showing the fresh attributes, or nil when none of them is there.
    static func element(_ element: Element, _ fresh: [ElementID: ShownAttributes.Shared]) -> Element? {
        var result = fresh[element.id].map { element.showing($0) }
        var children: [Element]?
        for (index, child) in element.children.enumerated() {
            guard let patched = self.element(child, fresh) else { continue }
            if children == nil { children = element.children }
            children![index] = patched
        }
        if let children {
            if result == nil { result = element }
            result!.children = children
        }
        return result
    }

    /// A plan's entry: the reader index plus one (0: none), times two, plus one when the element
    /// has children (so the walk reads no leaf's storage to find out).
    static func planEntry(reader: Int?, hasChildren: Bool) -> Int {
        ((reader.map { $0 + 1 } ?? 0) << 1) | (hasChildren ? 1 : 0)
    }

    /// The entry (`planEntry`) of every element of `nodes`, in the order `Walk` meets them.
    static func plan(_ nodes: [ScanNode], readers: [ElementID: Int]) -> [Int] {
        var plan = [Int]()
        func visit(_ element: Element) {
            let children = element.children
            plan.append(StructurePatch.planEntry(reader: readers[element.id], hasChildren: !children.isEmpty))
            for child in children { visit(child) }
        }
        func walk(_ nodes: [ScanNode]) {
            for node in nodes {
                switch node {
                case .item(let item): visit(item)
                case .group(let group, let children):
                    visit(group)
                    walk(children)
                }
            }
        }
        walk(nodes)
        return plan
    }

    /// One walk over a whole structure that puts in the fresh attributes of each element, found
    /// by its position in the walk (`plan`), not by id.
    struct Walk {
        let plan: [Int]
        /// By reader index: where in `renewed` what it shows now is (-1: unchanged).
        let renewedIndex: [Int32]
        let renewed: [ShownAttributes.Shared]
        var position = 0

        /// Puts the fresh attributes into `nodes`; true when any changed.
        @discardableResult
        mutating func nodes(_ nodes: inout [ScanNode]) -> Bool {
            var changed = false
            for index in nodes.indices {
                switch nodes[index] {
                case .item(let item):
                    guard let patched = element(item) else { continue }
                    nodes[index] = .item(patched)
                    changed = true
                case .group(let group, var children):
                    let patchedGroup = element(group)
                    guard self.nodes(&children) || patchedGroup != nil else { continue }
                    nodes[index] = .group(patchedGroup ?? group, children)
                    changed = true
                }
            }
            return changed
        }

        /// The element and its subtree with the fresh attributes, or nil when none changed.
        mutating func element(_ element: Element) -> Element? {
            let entry = plan[position]
            position += 1
            var result: Element?
            let reader = (entry >> 1) - 1
            if reader >= 0, case let index = renewedIndex[reader], index >= 0 { result = element.showing(renewed[Int(index)]) }
            guard entry & 1 == 1 else { return result }
            let children = element.children
            var patchedChildren: [Element]?
            for index in children.indices {
                guard let patched = self.element(children[index]) else { continue }
                if patchedChildren == nil { patchedChildren = children }
                patchedChildren![index] = patched
            }
            guard let patchedChildren else { return result }
            var container = result ?? element
            container.children = patchedChildren
            return container
        }
    }
}
