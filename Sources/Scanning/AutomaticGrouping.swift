import AccessibilityModel

/// Automatic grouping (`groupItems` on): the scan structure the scanner walks, built so that
/// reaching any item costs few steps. Full description, with measured figures:
/// `docs/automatic-grouping.md`.
///
/// Input: a screen's scan structure with automatic containers kept
/// (`Screen.scanNodes(groupAutomatic: true)`). Output: entries in which every `.group` is entered
/// on select (all groups have `navigationStyle: .combined`), with the items in the same order.
///
/// Cost model (one switch, auto scanning, every item equally likely). On a level the highlight
/// starts on the first entry, which counts as step 1; reaching entry p costs p steps and
/// selecting it one more. The steps to select an item are the sum of (p + 1) over the levels on
/// its path: each group entered, then the item. A level whose entries carry w₁…w_k items costs
/// Σ w_t·(t + 1) plus the cost inside its groups; the algorithm minimises the total over items.
///
/// What is fixed and what is free:
/// - items, and `combined` groups (the app's own groups), are *atoms*: never split, never
///   spliced; a combined group's children are grouped further inside it, on their own;
/// - `automatic` containers (the app's own, by `shouldGroupAccessibilityChildren` or an explicit
///   order) are kept as groups, entered on select; their children are arranged inside them.
///
/// Each level is arranged as follows (`Builder.arrange`; details and figures in the docs):
/// 1. A level holding the app's containers keeps them as groups (they are the app's structure:
///    a user sees them on screen) and cuts the pieces around them (flat up to
///    `containerLevelFlatLimit` entries).
/// 2. Every synthetic group follows the layout, so that a user can learn where a key is ("second
///    group, third item") and press ahead of the highlight: it is a run of items of one line, or
///    a block of whole lines, never the end of one line with the start of the next. Lines are
///    the spatial rows, or the columns where the reading order runs down columns
///    (`layoutLineStarts`). Among such trees the level takes the cheapest (`Builder.linePlan`,
///    a dynamic programme over blocks of lines and runs within lines), costing a run's inside
///    as the best tree for its atoms: for equally likely items the exact optimum f(c)
///    (`ScanOptimum`); with weights, exact runs on levels up to `exactWeightedLimit` atoms.
/// 3. A level that is one line, or whose lines each hold one piece, constrains nothing: the best
///    cut (for equally likely items the exact optimum's own).
/// 4. Each synthetic group and each kept container is arranged in turn, recursively.
///
/// Synthetic groups are `Element(id: "auto:<first item id>…<last item id>", frame: union of
/// the children's frames, isAccessibilityElement: false, navigationStyle: .combined)`; kept
/// automatic containers keep their element, with `navigationStyle` set to `.combined`. The result
/// is deterministic: no hashing, ties broken towards the earlier and smaller choice.
public enum AutomaticGrouping {
    /// A level holding the app's containers with at most this many entries is scanned as it is:
    /// grouping 6 or fewer entries does not pay (f(6) is the flat mean).
    public static let containerLevelFlatLimit = 6
    /// Most cut points the dynamic programmes consider on one level: every block start up to
    /// this many, beyond, the ones near the optimum's own boundaries and evenly spaced ones;
    /// likewise for the lines a block of lines may start at and the cuts within one line.
    public static let maxCuts = 128
    /// About how many steps the layout programme may take on one level (some 4 million: a few
    /// tens of milliseconds); a level that would take more considers fewer cut points.
    public static let linePlanBudget = 4_000_000

    /// The structure the scanner walks with `groupItems` on.
    public static func group(_ nodes: [ScanNode]) -> [ScanNode] {
        var builder = Builder()
        let pieces = builder.flatten(nodes)
        return builder.arrange(pieces)
    }

    /// The structure for items chosen with unequal likelihood (issue 17, part 2): `weights`
    /// gives each item's relative frequency by id (items absent from it weigh `unseenWeight`,
    /// in the same units). The grouping then minimises the expected steps under those weights,
    /// keeping reading order: a frequent item gets a short path. Weights are scaled to a mean of
    /// 1, so equal weights give exactly `group(_:)`'s structure.
    public static func group(_ nodes: [ScanNode], weights: [ElementID: Double], unseenWeight: Double = 1) -> [ScanNode] {
        let items = nodes.flatMap(\.items)
        guard !items.isEmpty else { return [] }
        var raw = [ElementID: Double]()
        for item in items {
            let weight = weights[item.id] ?? unseenWeight
            raw[item.id] = weight.isFinite && weight > 0 ? weight : 0
        }
        let total = raw.values.reduce(0, +)
        guard total > 0 else { return group(nodes) }
        let scale = Double(items.count) / total
        var builder = Builder()
        builder.itemWeights = raw.mapValues { $0 * scale }
        let pieces = builder.flatten(nodes)
        return builder.arrange(pieces)
    }

    /// The expected steps to select one item of `nodes` (taken as the screen's top level) when
    /// item `id` is chosen with probability proportional to `weights[id]` (absent: 0).
    public static func expectedSelectSteps(_ nodes: [ScanNode], weights: [ElementID: Double]) -> Double {
        var total = 0.0, mass = 0.0
        func walk(_ level: [ScanNode], above: Double) {
            for (index, node) in level.enumerated() {
                let here = above + Double(index + 2)
                switch node {
                case .item(let element):
                    let weight = weights[element.id] ?? 0
                    total += weight * here
                    mass += weight
                case .group(_, let children): walk(children, above: here)
                }
            }
        }
        walk(nodes, above: 0)
        return mass > 0 ? total / mass : 0
    }

    /// `group(_:)`, reusing the arrangement of every automatic container equal to one arranged in
    /// the previous call with the same memo (a container's arrangement depends only on what is
    /// inside it). The result is the same as `group(_:)`'s.
    public static func group(_ nodes: [ScanNode], memo: inout GroupingMemo) -> [ScanNode] {
        var builder = Builder()
        builder.memo = MemoBox(previous: memo.arranged)
        let pieces = builder.flatten(nodes)
        let result = builder.arrange(pieces)
        memo.arranged = builder.memo!.current
        return result
    }

    final class MemoBox {
        let previous: [ElementID: GroupingMemo.Arranged]
        var current: [ElementID: GroupingMemo.Arranged] = [:]
        init(previous: [ElementID: GroupingMemo.Arranged]) { self.previous = previous }
    }

    /// A screen's structure for the given `groupItems`: grouped automatically when on, with
    /// automatic containers spliced (items one by one, combined groups kept) when off.
    public static func scanStructure(of screen: Screen, groupItems: Bool) -> [ScanNode] {
        groupItems ? group(screen.scanNodes(groupAutomatic: true)) : screen.scanNodes(groupAutomatic: false)
    }

    /// The total, over items, of the steps to select them within `nodes` taken as one level
    /// (sum of position + 1 over each item's path): the quantity the grouping minimises.
    public static func totalSelectSteps(_ nodes: [ScanNode]) -> Double {
        var total = 0.0
        for (index, node) in nodes.enumerated() {
            switch node {
            case .item: total += Double(index + 2)
            case .group(_, let children):
                total += Double(index + 2) * Double(children.flatMap(\.items).count) + totalSelectSteps(children)
            }
        }
        return total
    }

    /// The optimal mean steps to select one of `n` equally likely items in a flat list (what the
    /// grouping reaches when nothing constrains it): f(n) of the cost model.
    public static func optimalUniformMean(n: Int) -> Double {
        n <= 0 ? 0 : n == 1 ? 2 : uniformTotal(n) / Double(n)
    }

    // MARK: Pieces

    /// An item, or a combined group already arranged inside: never split.
    struct Atom: Sendable {
        var node: ScanNode
        /// Items under it (each item weighs 1).
        var weight: Double
        /// The exact total cost inside it (inside a combined group), over its items.
        var inner: Double
        var frame: Rect?

        // The ids of its first and last items, found when a synthetic group is named (kept out
        // of the stored fields: copying an atom then retains only its node).
        var firstID: ElementID { node.isGroup ? node.items.first?.id ?? node.id : node.id }
        var lastID: ElementID { node.isGroup ? node.items.last?.id ?? node.id : node.id }
    }

    /// An automatic container: kept as a group, or spliced.
    struct Container {
        var element: Element
        var pieces: [Piece]
        /// The container as given (the memo's key, with its id).
        var node: ScanNode
        /// Its arrangement, when the memo already had it.
        var arranged: ScanNode?
    }

    /// One unit of a level: an atom or a container, with the atoms it covers (contiguous).
    struct Piece {
        enum Kind { case atom(Int), container(Int) }
        var kind: Kind
        var atoms: Range<Int>
        var frame: Rect?

        var isContainer: Bool {
            if case .container = kind { return true }
            return false
        }
    }

    /// The flattened input: atoms in scan order, containers, and prefix sums over the atoms.
    /// Built once per call; arranging then only passes ranges and small values around.
    struct Builder {
        var atoms = [Atom]()
        var containers = [Container]()
        var weightPrefix = [0.0]
        var innerPrefix = [0.0]
        /// Arrangements of containers, from the previous call and this one (nil: no memo).
        var memo: MemoBox?
        /// Each item's weight (mean 1 over the screen) when items are not equally likely.
        var itemWeights: [ElementID: Double]?
        /// Σ w·ln w over the atoms' items, for the entropy of a run of atoms (weighted only).
        var entropyPrefix = [0.0]
        /// With weights, on a level of at most `exactWeightedLimit` atoms and under it: the exact
        /// least cost of every run of its atoms as a group, used in place of the estimate.
        var exact: ExactGroups?

        func candidateLimit() -> Int { exact == nil ? maxCuts : exactWeightedLimit }

        mutating func flatten(_ nodes: [ScanNode]) -> [Piece] {
            var pieces = [Piece]()
            pieces.reserveCapacity(nodes.count)
            for node in nodes {
                switch node {
                case .item(let element):
                    pieces.append(addAtom(Atom(
                        node: node, weight: itemWeights.map { $0[element.id] ?? 0 } ?? 1, inner: 0,
                        frame: element.resolvedFrame)))
                case .group(let element, let children) where element.navigationStyle == .automatic:
                    if let memo, let kept = memo.previous[element.id], kept.input == node {
                        // Arranged before: its atoms as they were, its arrangement as it was.
                        memo.current[element.id] = kept
                        let first = atoms.count
                        atoms.append(contentsOf: kept.atoms)
                        var weight = weightPrefix[first], inner = innerPrefix[first]
                        for index in kept.atoms.indices {
                            weight += kept.atoms[index].weight
                            inner += kept.atoms[index].inner
                            weightPrefix.append(weight)
                            innerPrefix.append(inner)
                            entropyPrefix.append(entropyPrefix.last! + Builder.wLogW(kept.atoms[index].weight))
                        }
                        containers.append(Container(element: element, pieces: [], node: node, arranged: kept.output))
                        pieces.append(Piece(kind: .container(containers.count - 1), atoms: first..<atoms.count, frame: kept.frame))
                        continue
                    }
                    let inside = flatten(children)
                    guard let first = inside.first, let last = inside.last else { continue }
                    // A container of one atom is no group worth entering.
                    if inside.count == 1, !first.isContainer {
                        pieces.append(first)
                        continue
                    }
                    containers.append(Container(element: element, pieces: inside, node: node))
                    pieces.append(Piece(
                        kind: .container(containers.count - 1), atoms: first.atoms.lowerBound..<last.atoms.upperBound,
                        frame: element.frame ?? unionFrame(inside.map(\.frame))))
                case .group(let element, let children) where element.navigationStyle == .separate:
                    // Not expected after NavigationGrouping.resolve; spliced, as resolve would.
                    pieces += flatten(children)
                case .group(var element, let children):
                    // combined: fixed, grouped inside only.
                    var inside = Builder()
                    inside.itemWeights = itemWeights
                    let insidePieces = inside.flatten(children)  // before arrange reads the builder
                    let arranged = inside.arrange(insidePieces)
                    let items = arranged.flatMap(\.items)
                    guard !items.isEmpty else { continue }
                    element.navigationStyle = .combined
                    if let itemWeights {
                        let weight = items.reduce(0) { $0 + (itemWeights[$1.id] ?? 0) }
                        let mean = expectedSelectSteps(arranged, weights: itemWeights)
                        pieces.append(addAtom(Atom(
                            node: .group(element, arranged), weight: weight,
                            inner: weight * mean, frame: element.resolvedFrame)))
                    } else {
                        pieces.append(addAtom(Atom(
                            node: .group(element, arranged), weight: Double(items.count),
                            inner: totalSelectSteps(arranged), frame: element.resolvedFrame)))
                    }
                }
            }
            return pieces
        }

        mutating func addAtom(_ atom: Atom) -> Piece {
            atoms.append(atom)
            weightPrefix.append(weightPrefix.last! + atom.weight)
            innerPrefix.append(innerPrefix.last! + atom.inner)
            entropyPrefix.append(entropyPrefix.last! + Builder.wLogW(atom.weight))
            return Piece(kind: .atom(atoms.count - 1), atoms: (atoms.count - 1)..<atoms.count, frame: atom.frame)
        }

        // MARK: Arranging a level

        /// One way to cut a level: the pieces it is made of and the chosen parts (ranges of pieces).
        struct Plan {
            var pieces: [Piece]
            var parts: [Range<Int>]
            /// The level's estimated total over its items (exact on the level, estimated inside
            /// its synthetic groups).
            var cost: Double
        }

        /// Arranges one level. Every synthetic group follows the layout (`layoutLineStarts`): a
        /// run of one line (row, or column where the pieces run down columns), or a block of whole
        /// lines; among such trees the cheapest (`linePlan`). A level that is one line, or whose
        /// lines hold one piece each, constrains nothing and takes the best cut.
        func arrange(_ pieces: [Piece]) -> [ScanNode] {
            guard let firstPiece = pieces.first, let lastPiece = pieces.last else { return [] }
            let span = firstPiece.atoms.lowerBound..<lastPiece.atoms.upperBound
            if span.count == 1 { return [atoms[span.lowerBound].node] }
            if itemWeights != nil, exact == nil, span.count >= 3, span.count <= exactWeightedLimit {
                // Weighted, and small enough: every run of these atoms is costed exactly from here down.
                var exactly = self
                exactly.exact = ExactGroups(
                    offset: span.lowerBound, weightPrefix: Array(weightPrefix[span.lowerBound...span.upperBound]),
                    inner: span.map { atoms[$0].inner })
                return exactly.arrange(pieces)
            }
            let containers = pieces.contains(where: \.isContainer)
            // The app's own containers (kept together by shouldGroupAccessibilityChildren or an
            // explicit order) are groups the user knows from the screen: they are always kept,
            // and only the pieces around them are arranged.
            if containers, pieces.count <= AutomaticGrouping.containerLevelFlatLimit {
                return pieces.map(entry)
            }
            let lines = AutomaticGrouping.layoutLineStarts(pieces.map(\.frame))
            if lines.count >= 2, lines.count < pieces.count, let constrained = linePlan(pieces, lines: lines) {
                return build(constrained)
            }
            if !containers {
                let count = span.count
                let weight = weightPrefix[span.upperBound] - weightPrefix[span.lowerBound]
                let uniform = weight == Double(count) && innerPrefix[span.upperBound] == innerPrefix[span.lowerBound]
                    && (itemWeights == nil || span.allSatisfy { atoms[$0].weight == 1 })
                if uniform, count <= uniformTableSize {
                    // Equally likely items with nothing to follow: the exact optimum's own cut.
                    var parts = [Range<Int>](), at = 0
                    for size in optimumTable.level(count) {
                        parts.append(at..<(at + size))
                        at += size
                    }
                    return build(Plan(pieces: pieces, parts: parts, cost: Double(optimumTable.totals[count])))
                }
            }
            if let found = plan(pieces, blockStarts: Array(pieces.indices)) { return build(found) }
            return pieces.map(entry)  // not reached: two pieces or more always have a plan
        }

        /// The estimated least total inside one entry holding `pieces[from..<to]`: the exact cost
        /// inside its atoms, plus, when it holds more than one atom, the group's own arrangement
        /// with no regard to lines (w·f(c), or exact with weights on a small level).
        func partInside(_ pieces: [Piece], _ from: Int, _ to: Int) -> Double {
            let lower = pieces[from].atoms.lowerBound, upper = pieces[to - 1].atoms.upperBound
            var inside = innerPrefix[upper] - innerPrefix[lower]
            if upper - lower > 1 {
                if let exact {
                    inside = exact.group(lower, upper)
                } else {
                    inside += (weightPrefix[upper] - weightPrefix[lower]) * groupMean(lower, upper)
                }
            }
            return inside
        }

        /// The cheapest cut of a level into entries that follow its lines (`lines`: the piece
        /// indices where lines start): every part of several pieces is a run within one line, or a
        /// block of two or more whole lines arranged the same way inside. Nil when the level is one
        /// line.
        ///
        /// A level costs W + Σ_t S_t plus what lies inside its entries (see `plan`), so for every
        /// end line b a suffix programme runs backwards over the positions before it:
        /// D_b(p) = min of S_b(p) + inside(run p..<q) + D_b(q) over q in p's line, and, at the
        /// start of line i, S_b(p) + C(i, j) + D_b(start of j) over blocks i..<j, j ≤ b, of two
        /// lines or more. The block of lines i..<b as a level costs C(i, b) = W(i..<b) + D_b(start
        /// of i): D_b there never takes the whole block as one entry (that would cost 2W more
        /// than not), so the same programme gives both. Ends b in increasing order, so every C a
        /// block needs is known. Work: O(lines × (positions × line length + lines²)); beyond
        /// `maxCuts` lines or positions in a line, evenly spaced ones are considered.
        func linePlan(_ pieces: [Piece], lines: [Int]) -> Plan? {
            let k = lines.count
            guard k >= 2 else { return nil }
            let lineStarts = lines + [pieces.count]
            // Lines where blocks may start or end, and cuts within a line: all of them up to
            // maxCuts, and fewer, evenly spaced, while the work would exceed linePlanBudget.
            var endLimit = maxCuts, cutLimit = maxCuts
            func work() -> Int {
                let ends = min(k, endLimit) + 1
                let runs = (0..<k).reduce(0) { total, line in
                    let cuts = min(lineStarts[line + 1] - lineStarts[line], cutLimit)
                    return total + cuts * (cuts + 1) / 2
                }
                return ends * (runs + ends * ends / 2)
            }
            while work() > AutomaticGrouping.linePlanBudget, cutLimit > 8 || endLimit > 16 {
                if cutLimit > 8 { cutLimit /= 2 }
                if work() > AutomaticGrouping.linePlanBudget, endLimit > 16 { endLimit /= 2 }
            }
            let ends = AutomaticGrouping.evenlySpaced(0...k, limit: endLimit)
            let endIndex = Dictionary(uniqueKeysWithValues: ends.enumerated().map { ($1, $0) })
            // Positions where runs may start or end within each line, and each position's line.
            var positions = [Int](), lineOf = [Int]()
            for line in 0..<k {
                for position in AutomaticGrouping.evenlySpaced(lineStarts[line]...lineStarts[line + 1], limit: cutLimit).dropLast() {
                    positions.append(position)
                    lineOf.append(line)
                }
            }
            positions.append(pieces.count)
            lineOf.append(k)
            var slotOfLineStart = [Int](repeating: 0, count: k + 1)
            for (slot, position) in positions.enumerated() where position == lineStarts[lineOf[slot]] {
                slotOfLineStart[lineOf[slot]] = slot
            }
            slotOfLineStart[k] = positions.count - 1
            let lowerOf = positions.map { $0 < pieces.count ? pieces[$0].atoms.lowerBound : pieces[pieces.count - 1].atoms.upperBound }

            // C(i, j) for i, j in `ends`, j − i ≥ 2 lines: blocks[endIndex[i] * ends.count + endIndex[j]].
            var blocks = [Double](repeating: .infinity, count: ends.count * ends.count)
            var best = [Double](repeating: .infinity, count: positions.count)
            var choice = [Int](repeating: -1, count: positions.count)
            for b in ends.dropFirst() {
                let endSlot = slotOfLineStart[b]
                let endWeight = weightPrefix[lowerOf[endSlot]]
                best[endSlot] = 0
                for slot in stride(from: endSlot - 1, through: 0, by: -1) {
                    let line = lineOf[slot]
                    let suffix = endWeight - weightPrefix[lowerOf[slot]]
                    var value = Double.infinity, chosen = -1
                    // A run within the line (one piece: the piece itself). On equal cost the
                    // piece alone wins (grouping that only ties stays flat), then the rest of
                    // the line as one group, then shorter runs.
                    let lineEnd = slotOfLineStart[line + 1]
                    for next in slot + 1 == lineEnd ? [lineEnd] : [slot + 1, lineEnd] + Array((slot + 2)..<lineEnd) {
                        let cost = suffix + partInside(pieces, positions[slot], positions[next]) + best[next]
                        if cost < value - epsilon {
                            value = cost
                            chosen = next
                        }
                    }
                    // A block of whole lines, when the line starts here.
                    if positions[slot] == lineStarts[line], let from = endIndex[line] {
                        for j in ends where j >= line + 2 && j <= b && !(slot == 0 && j == k) {
                            let inside = blocks[from * ends.count + endIndex[j]!]
                            guard inside < .infinity else { continue }
                            let cost = suffix + inside + best[slotOfLineStart[j]]
                            if cost < value - epsilon {
                                value = cost
                                chosen = slotOfLineStart[j]
                            }
                        }
                        if b - line >= 2 {
                            blocks[from * ends.count + endIndex[b]!] = suffix + value
                        }
                    }
                    best[slot] = value
                    choice[slot] = chosen
                }
            }
            // The last end is the whole level: its choices are the level's entries.
            var parts = [Range<Int>](), slot = 0
            while slot < positions.count - 1 {
                let next = choice[slot]
                guard next > slot else { return nil }
                parts.append(positions[slot]..<positions[next])
                slot = next
            }
            guard parts.count >= 2 else { return nil }
            let total = weightPrefix[lowerOf[positions.count - 1]] - weightPrefix[lowerOf[0]]
            return Plan(pieces: pieces, parts: parts, cost: total + best[0])
        }

        func build(_ plan: Plan) -> [ScanNode] {
            plan.parts.map { part in
                part.count == 1 ? entry(plan.pieces[part.lowerBound]) : syntheticGroup(Array(plan.pieces[part]))
            }
        }

        func entry(_ piece: Piece) -> ScanNode {
            switch piece.kind {
            case .atom(let index): return atoms[index].node
            case .container(let index):
                let container = containers[index]
                if let arranged = container.arranged { return arranged }
                if let memo {
                    var element = container.element
                    element.navigationStyle = .combined
                    let output = ScanNode.group(element, arrange(container.pieces))
                    memo.current[element.id] = GroupingMemo.Arranged(
                        input: container.node, output: output, atoms: Array(atoms[piece.atoms]), frame: piece.frame)
                    return output
                }
                var element = container.element
                element.navigationStyle = .combined
                return .group(element, arrange(container.pieces))
            }
        }

        func syntheticGroup(_ pieces: [Piece]) -> ScanNode {
            let first = atoms[pieces.first!.atoms.lowerBound].firstID
            let last = atoms[pieces.last!.atoms.upperBound - 1].lastID
            let element = Element(
                id: "auto:\(first)…\(last)", frame: unionFrame(pieces.map(\.frame)),
                isAccessibilityElement: false, navigationStyle: .combined)
            return .group(element, arrange(pieces))
        }

        /// The cut points the programme considers among `blockStarts` (indices into `pieces`):
        /// all of them up to `maxCuts`; beyond, evenly spaced ones plus, around every boundary of
        /// the optimal top level for equally likely items (by the items' weight), the nearest
        /// block starts on either side.
        func candidateCuts(_ pieces: [Piece], blockStarts: [Int]) -> [Int] {
            guard blockStarts.count > candidateLimit() else { return blockStarts }
            let base = weightPrefix[pieces[0].atoms.lowerBound]
            let end = weightPrefix[pieces[pieces.count - 1].atoms.upperBound]
            func weightBefore(_ piece: Int) -> Double { weightPrefix[pieces[piece].atoms.lowerBound] - base }
            var chosen = Set<Int>()
            let even = maxCuts / 2
            let step = Double(blockStarts.count) / Double(even)
            for index in 0..<even { chosen.insert(blockStarts[Int((Double(index) * step).rounded(.down))]) }
            /// The index in `starts` of the first start at or after `target` weight.
            func firstAtOrAfter(_ target: Double, in starts: [Int]) -> Int {
                var low = 0, high = starts.count
                while low < high {
                    let middle = (low + high) / 2
                    if weightBefore(starts[middle]) < target { low = middle + 1 } else { high = middle }
                }
                return low
            }
            for boundary in idealBoundaries(totalWeight: end - base) {
                let at = firstAtOrAfter(boundary, in: blockStarts)
                for index in max(0, at - 2)...min(blockStarts.count - 1, at + 1) { chosen.insert(blockStarts[index]) }
            }
            chosen.insert(blockStarts[0])
            return chosen.sorted()
        }

        /// The cheapest cut of `pieces` into parts made of whole blocks (given by their starts),
        /// with no regard to lines; nil when there is none (a single block).
        ///
        /// A level whose parts weigh w₁…w_k costs Σ w_t·(t + 1) = W + Σ_t S_t (S_t the weight at
        /// or after part t) plus what lies inside the parts, so it is built from its end with no
        /// position in the state: D(i) = min over j of S(i) + inside(i..<j) + D(j), O(cuts²).
        func plan(_ pieces: [Piece], blockStarts: [Int]) -> Plan? {
            var cuts = candidateCuts(pieces, blockStarts: blockStarts)
            cuts.append(pieces.count)
            let k = cuts.count
            guard k >= 3 else { return nil }
            let lowerOf = cuts.map { $0 < pieces.count ? pieces[$0].atoms.lowerBound : pieces[pieces.count - 1].atoms.upperBound }
            let end = lowerOf[k - 1]
            var best = [Double](repeating: .infinity, count: k)
            var choice = [Int](repeating: -1, count: k)
            best[k - 1] = 0
            for i in stride(from: k - 2, through: 0, by: -1) {
                let suffix = weightPrefix[end] - weightPrefix[lowerOf[i]]
                for j in (i + 1)..<k {
                    if i == 0 && j == k - 1 { continue }  // the whole level as one group
                    let cost = suffix + partInside(pieces, cuts[i], cuts[j]) + best[j]
                    if cost < best[i] - epsilon {
                        best[i] = cost
                        choice[i] = j
                    }
                }
            }
            guard best[0] < .infinity else { return nil }
            var parts = [Range<Int>]()
            var i = 0
            while i < k - 1 {
                parts.append(cuts[i]..<cuts[choice[i]])
                i = choice[i]
            }
            return Plan(pieces: pieces, parts: parts, cost: weightPrefix[end] - weightPrefix[lowerOf[0]] + best[0])
        }

        /// The estimated optimal mean steps inside a group of the atoms lower..<upper: f(c) for c
        /// equally likely atoms; with item weights, f at the weights' perplexity exp(H) (H their
        /// entropy), which is c again when they are equal.
        func groupMean(_ lower: Int, _ upper: Int) -> Double {
            let count = upper - lower
            guard itemWeights != nil else { return optimalUniformMean(n: count) }
            let w = weightPrefix[upper] - weightPrefix[lower]
            guard w > 0 else { return optimalUniformMean(n: count) }
            let entropy = ScanCost.naturalLog(w) - (entropyPrefix[upper] - entropyPrefix[lower]) / w
            let perplexity = min(Double(count), max(1, ScanCost.exponential(entropy)))
            let below = Int(perplexity.rounded(.down)), fraction = perplexity - Double(below)
            let low = optimalUniformMean(n: below)
            return fraction == 0 ? low : low + fraction * (optimalUniformMean(n: below + 1) - low)
        }

        static func wLogW(_ w: Double) -> Double { w > 0 ? w * ScanCost.naturalLog(w) : 0 }

        /// The cumulative weights at which the optimal top level for `totalWeight` equally
        /// likely items starts its entries after the first (scaled from the largest table beyond it).
        func idealBoundaries(totalWeight: Double) -> [Double] {
            let n = max(2, Int(totalWeight.rounded()))
            let table = optimumTable
            let sizes = table.level(min(n, uniformTableSize))
            let scale = n > uniformTableSize ? totalWeight / Double(uniformTableSize) : 1
            var boundaries = [Double](), at = 0.0
            for size in sizes.dropLast() {
                at += Double(size) * scale
                boundaries.append(at)
            }
            return boundaries
        }
    }

    static let epsilon = 1e-9

    static func unionFrame(_ frames: [Rect?]) -> Rect? {
        var union: Rect?
        for case let frame? in frames { union = union.map { $0.union(frame) } ?? frame }
        return union
    }

    /// The starts of the layout's lines among consecutive frames, which automatic groups follow:
    /// spatial rows (`spatialRowStarts`), or spatial columns (`spatialColumnStarts`) where the
    /// reading order runs down columns, which shows as fewer columns than rows. Frames that are
    /// absent stand alone.
    public static func layoutLineStarts(_ frames: [Rect?]) -> [Int] {
        let rows = spatialRowStarts(frames)
        guard rows.count > 1 else { return rows }
        let columns = spatialColumnStarts(frames)
        return columns.count < rows.count ? columns : rows
    }

    /// The starts of spatial rows among consecutive frames: a frame joins the current row when
    /// its top lies above the vertical middle of every frame in the row (or level with the row's
    /// first top), as in the reading order's row rule, and it is not left of the previous frame.
    /// Used by the grouping, and by row-column scanning (`rowColumnStructure`).
    public static func spatialRowStarts(_ frames: [Rect?]) -> [Int] {
        lineStarts(frames, across: { ($0.minY, $0.midY, $0.minX) })
    }

    /// The starts of spatial columns among consecutive frames: the row rule turned a quarter
    /// (a frame joins the column when its left edge lies left of the horizontal middle of every
    /// frame in it, or level with its first, and it is not above the previous frame), and its
    /// middle lies right of the column's first left edge: an order that runs down columns need
    /// not go left to right, so a frame far left of the column is not in it.
    public static func spatialColumnStarts(_ frames: [Rect?]) -> [Int] {
        lineStarts(frames, overlapping: true, across: { ($0.minX, $0.midX, $0.minY) })
    }

    /// The line rule on one axis: `measure` gives a frame's leading edge across the line, its
    /// middle across the line, and its position along the line. With `overlapping`, a frame
    /// joins only when its middle lies beyond the line's first leading edge.
    static func lineStarts(
        _ frames: [Rect?], overlapping: Bool = false, across measure: (Rect) -> (edge: Double, middle: Double, along: Double)
    ) -> [Int] {
        var starts = [Int]()
        var lineEdge = 0.0, lineLimit = 0.0, lastAlong = 0.0
        var open = false
        for (index, frame) in frames.enumerated() {
            guard let frame else {
                starts.append(index)
                open = false
                continue
            }
            let (edge, middle, along) = measure(frame)
            if open, edge < lineLimit || edge == lineEdge, along >= lastAlong, !overlapping || middle > lineEdge {
                lineLimit = min(lineLimit, middle)
            } else {
                starts.append(index)
                lineEdge = edge
                lineLimit = middle
                open = true
            }
            lastAlong = along
        }
        return starts
    }

    /// Row-column scanning of a level (the comparison the benchmark and `switchscan cost` make):
    /// the entries of each spatial row become one group (the whole row highlighted, select
    /// enters it); a row of one entry stays that entry.
    public static func rowColumnStructure(_ nodes: [ScanNode]) -> [ScanNode] {
        let starts = spatialRowStarts(nodes.map { $0.element.resolvedFrame ?? $0.items.first?.resolvedFrame })
        var rows = [ScanNode]()
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] : nodes.count
            if end - start == 1 {
                rows.append(nodes[start])
                continue
            }
            let row = Element(
                id: "row:\(k + 1)", frame: unionFrame(nodes[start..<end].map(\.element.resolvedFrame)),
                isAccessibilityElement: false, navigationStyle: .combined)
            rows.append(.group(row, Array(nodes[start..<end])))
        }
        return rows
    }

    /// At most `limit` + 1 values of `range`, both ends included: all of them when there are
    /// that few, else evenly spaced ones.
    static func evenlySpaced(_ range: ClosedRange<Int>, limit: Int) -> [Int] {
        let count = range.count - 1
        guard count > limit else { return Array(range) }
        var values = (0..<limit).map { range.lowerBound + $0 * count / limit }
        values.append(range.upperBound)
        return values
    }

    // MARK: The optimum for equally likely items

    /// T(n) for n up to this is the exact optimum (`ScanOptimum`), computed once per process
    /// (O(n²), about 8 million integer steps); beyond it, an estimate.
    static let uniformTableSize = 4096

    static let optimumTable = ScanOptimum.uniformTable(upTo: uniformTableSize)

    static func uniformTotal(_ n: Int) -> Double {
        if n <= uniformTableSize { return Double(optimumTable.totals[n]) }
        // Beyond the table (an estimate): the optimal mean grows with log n, by what the last
        // doubling of the table added per doubling.
        let top = Double(optimumTable.totals[uniformTableSize]) / Double(uniformTableSize)
        let half = Double(optimumTable.totals[uniformTableSize / 2]) / Double(uniformTableSize / 2)
        return Double(n) * (top + (top - half) * ScanCost.naturalLog(Double(n) / Double(uniformTableSize)) / ScanCost.ln2)
    }
}

extension AutomaticGrouping {
    /// A weighted level (or group) of up to this many atoms costs every run of its atoms exactly
    /// (O(n³): 512 atoms, about 22 million steps), for itself and everything under it; a larger
    /// one estimates from the weights' entropy, and its groups are again exact when small enough.
    public static let exactWeightedLimit = 512

    /// G(i, j): the least total (weighted) steps inside a group holding exactly atoms i..<j,
    /// over every tree keeping their order (`ScanOptimum.weightedContiguousMean`'s programme,
    /// with each atom's own inside cost).
    final class ExactGroups: @unchecked Sendable {
        let width: Int
        /// The index of the first atom covered (the table's 0).
        let offset: Int
        var table: [Double]

        /// `weightPrefix[k]`: the weight before the covered atom k (any constant added to all).
        init(offset: Int, weightPrefix: [Double], inner: [Double]) {
            self.offset = offset
            let n = inner.count
            width = n + 1
            table = [Double](repeating: 0, count: width * width)
            guard n >= 2 else { return }
            var suffix = [Double](repeating: 0, count: width)
            for j in 1...n {
                suffix[j] = 0
                for m in stride(from: j - 1, through: 0, by: -1) {
                    let w = weightPrefix[j] - weightPrefix[m]
                    // Entries up to before j (a level of at least two entries), then the
                    // whole run as one entry (a group, or the atom itself).
                    var level = Double.infinity
                    for e in (m + 1)..<j {
                        let inside = e - m == 1 ? inner[m] : table[m * width + e]
                        level = min(level, w + inside + suffix[e])
                    }
                    if j - m >= 2 { table[m * width + j] = w + level }
                    let whole = j - m == 1 ? inner[m] : table[m * width + j]
                    suffix[m] = min(level, w + whole)
                }
            }
        }

        func group(_ lower: Int, _ upper: Int) -> Double { table[(lower - offset) * width + upper - offset] }
    }
}

/// Arrangements of automatic containers kept between calls of `AutomaticGrouping.group(_:memo:)`.
public struct GroupingMemo: Sendable {
    struct Arranged: Sendable {
        var input: ScanNode
        var output: ScanNode
        /// The container's atoms as flattened, and its frame as a piece.
        var atoms: [AutomaticGrouping.Atom]
        var frame: Rect?
    }

    var arranged: [ElementID: Arranged] = [:]

    public init() {}
}
