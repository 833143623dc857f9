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
/// 2. On a level of atoms the reference is the best cut with no regard to rows: for equally
///    likely items the exact optimum's own (`ScanOptimum`), else the dynamic programme's over
///    single atoms. A part's cost is W·(position + 1) plus its inside: the exact cost inside its
///    atoms plus, for a group, the optimum f(c) for its c atoms (exact up to 4096, estimated
///    beyond; with weights, exact runs on levels up to `exactWeightedLimit` atoms). The
///    programme is built from the level's end with no position in its state (O(cuts²), no cap on
///    entries); beyond `maxCuts` blocks it considers the block starts near the optimum's own
///    boundaries and evenly spaced ones.
/// 3. When the reference does not keep to the screen's rows, a cut of whole rows, else a cut
///    that keeps within rows (`rowCutPenalty` while choosing), is taken if it costs less than
///    (1 + slack) × the reference; the slack (`naturalTolerance`, 2 %, for the whole tree) left
///    by that choice is handed to the level's synthetic groups, so the whole tree stays under
///    1.02 × the optimum for equally likely items.
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
    /// Most cut points the dynamic programme considers on one level: every block start up to
    /// this many; beyond, the ones near the optimum's own boundaries and evenly spaced ones.
    public static let maxCuts = 128
    /// How much more (relative to the best estimate) a whole tree may cost to follow the
    /// screen's rows: users see rows, and issue 17 asks for them wherever they cost under 2 %.
    public static let naturalTolerance = 0.02
    /// When chunking within rows, the extra cost (in steps per item of the group) counted while
    /// choosing against a group that cuts across rows without consisting of whole rows.
    public static let rowCutPenalty = 0.25

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
            /// The level's estimated total over its items (exact on the level, the optimum inside
            /// its synthetic groups), penalties for cutting rows not included.
            var cost: Double
            /// The part of `cost` that is the estimate inside synthetic groups (Σ w·f(c)): what
            /// the groups' own arrangements may exceed by the slack handed down to them.
            var groupInside: Double
        }

        /// Arranges one level. `slack` is how much more (relative) than the best estimate this
        /// level and everything under it may cost to follow the screen's rows: the choice on this
        /// level spends part of it, its synthetic groups share what is left, so the whole tree
        /// stays within (1 + slack) × the estimate (exactly the optimum for equally likely items).
        func arrange(_ pieces: [Piece], slack: Double = AutomaticGrouping.naturalTolerance) -> [ScanNode] {
            guard let firstPiece = pieces.first, let lastPiece = pieces.last else { return [] }
            let span = firstPiece.atoms.lowerBound..<lastPiece.atoms.upperBound
            if span.count == 1 { return [atoms[span.lowerBound].node] }
            if itemWeights != nil, exact == nil, span.count >= 3, span.count <= exactWeightedLimit {
                // Weighted, and small enough: every run of these atoms is costed exactly from here down.
                var exactly = self
                exactly.exact = ExactGroups(
                    offset: span.lowerBound, weightPrefix: Array(weightPrefix[span.lowerBound...span.upperBound]),
                    inner: span.map { atoms[$0].inner })
                return exactly.arrange(pieces, slack: slack)
            }

            // The app's own containers (kept together by shouldGroupAccessibilityChildren or an
            // explicit order) are groups the user knows from the screen: they are always kept,
            // and only the pieces around them are arranged.
            if pieces.contains(where: \.isContainer) {
                if pieces.count <= AutomaticGrouping.containerLevelFlatLimit {
                    return pieces.map(entry)
                }
                if let containers = plan(pieces, blockStarts: Array(pieces.indices)) {
                    return build(containers, slack: slack)
                }
                return pieces.map(entry)  // not reached: more than one piece always has a plan
            }

            // A level of atoms. The reference is the best cut with no regard to rows: for equally
            // likely items the exact optimum's own (ScanOptimum), otherwise the programme's.
            let count = span.count
            let weight = weightPrefix[span.upperBound] - weightPrefix[span.lowerBound]
            let uniform = weight == Double(count) && innerPrefix[span.upperBound] == innerPrefix[span.lowerBound]
                && (itemWeights == nil || span.allSatisfy { atoms[$0].weight == 1 })
            let best: Plan
            if uniform, count <= uniformTableSize {
                var parts = [Range<Int>](), at = 0, groupInside = 0.0
                for size in optimumTable.level(count) {
                    parts.append(at..<(at + size))
                    if size > 1 { groupInside += Double(optimumTable.totals[size]) }
                    at += size
                }
                best = Plan(pieces: pieces, parts: parts, cost: Double(optimumTable.totals[count]), groupInside: groupInside)
            } else if let found = plan(pieces, blockStarts: Array(pieces.indices)) {
                best = found
            } else {
                return span.map { atoms[$0].node }  // not reached: two atoms or more always have a plan
            }

            // Rows, when the best cut does not already keep to them: whole rows as groups, else
            // chunks that keep within rows (or hold whole rows), each taken when it costs less
            // than (1 + slack) × the reference; else the reference.
            let rows = rowStarts(pieces)
            var chosen = best
            if rows.count >= 2, !keepsToRows(best, rows: rows) {
                let limit = best.cost * (1 + slack) - epsilon
                if rows.count < pieces.count, let byRows = plan(pieces, blockStarts: rows), byRows.cost < limit {
                    chosen = byRows
                } else if let withinRows = plan(pieces, blockStarts: Array(pieces.indices), rows: rows),
                          withinRows.cost < limit, keepsToRows(withinRows, rows: rows) {
                    chosen = withinRows
                }
            }
            // What the choice left of the allowance goes to the synthetic groups, relative to
            // their estimated inside.
            let left = max(0, best.cost * (1 + slack) - chosen.cost)
            return build(chosen, slack: chosen.groupInside > 0 ? left / chosen.groupInside : 0)
        }

        /// Whether every group of the plan lies within one row or consists of whole rows.
        func keepsToRows(_ plan: Plan, rows: [Int]) -> Bool {
            var rowStartsHere = Set(rows)
            rowStartsHere.insert(plan.pieces.count)
            var rowIndex = 0
            for part in plan.parts where part.count > 1 {
                if rowStartsHere.contains(part.lowerBound) && rowStartsHere.contains(part.upperBound) { continue }
                // Within one row: no row starts strictly inside the part.
                while rowIndex < rows.count && rows[rowIndex] <= part.lowerBound { rowIndex += 1 }
                if rowIndex < rows.count && rows[rowIndex] < part.upperBound { return false }
            }
            return true
        }

        func build(_ plan: Plan, slack: Double) -> [ScanNode] {
            plan.parts.map { part in
                part.count == 1 ? entry(plan.pieces[part.lowerBound]) : syntheticGroup(Array(plan.pieces[part]), slack: slack)
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

        func syntheticGroup(_ pieces: [Piece], slack: Double) -> ScanNode {
            let first = atoms[pieces.first!.atoms.lowerBound].firstID
            let last = atoms[pieces.last!.atoms.upperBound - 1].lastID
            let element = Element(
                id: "auto:\(first)…\(last)", frame: unionFrame(pieces.map(\.frame)),
                isAccessibilityElement: false, navigationStyle: .combined)
            return .group(element, arrange(pieces, slack: slack))
        }

        /// The cut points the programme considers among `blockStarts` (indices into `pieces`):
        /// all of them up to `maxCuts`; beyond, evenly spaced ones plus, around every boundary of
        /// the optimal top level for equally likely items (by the items' weight), the nearest
        /// block starts on either side, and the nearest of `preferred` (row starts) too.
        func candidateCuts(_ pieces: [Piece], blockStarts: [Int], preferred: [Int]? = nil) -> [Int] {
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
                if let preferred, !preferred.isEmpty {
                    let near = firstAtOrAfter(boundary, in: preferred)
                    for index in max(0, near - 1)...min(preferred.count - 1, near) { chosen.insert(preferred[index]) }
                }
            }
            chosen.insert(blockStarts[0])
            return chosen.sorted()
        }

        /// The cheapest cut of `pieces` into parts made of whole blocks (given by their starts);
        /// nil when there is none (a single block). With `rows` (their starts), a group that cuts
        /// across rows without holding whole rows costs `rowCutPenalty` more per item while
        /// choosing (the plan's cost leaves the penalty out).
        ///
        /// A level whose parts weigh w₁…w_k costs Σ w_t·(t + 1) = W + Σ_t S_t (S_t the weight at
        /// or after part t) plus what lies inside the parts, so it is built from its end with no
        /// position in the state: D(i) = min over j of S(i) + inside(i..<j) + D(j), O(cuts²).
        func plan(_ pieces: [Piece], blockStarts: [Int], rows: [Int]? = nil) -> Plan? {
            var cuts = candidateCuts(pieces, blockStarts: blockStarts, preferred: rows)
            cuts.append(pieces.count)
            let k = cuts.count
            guard k >= 3 else { return nil }

            // Row of each piece, and whether a row starts there (index pieces.count: the end).
            var rowOf = [Int](), rowStartsHere = [Bool]()
            if let rows {
                rowOf.reserveCapacity(pieces.count)
                rowStartsHere = [Bool](repeating: false, count: pieces.count + 1)
                rowStartsHere[pieces.count] = true
                for start in rows { rowStartsHere[start] = true }
                var row = -1
                for index in pieces.indices {
                    if rowStartsHere[index] { row += 1 }
                    rowOf.append(row)
                }
            }

            let infinity = Double.infinity
            let lowerOf = cuts.map { $0 < pieces.count ? pieces[$0].atoms.lowerBound : pieces[pieces.count - 1].atoms.upperBound }
            let end = lowerOf[k - 1]
            var best = [Double](repeating: infinity, count: k)
            var penaltyOf = [Double](repeating: 0, count: k)  // penalties included in best[i]
            var choice = [Int](repeating: -1, count: k)
            best[k - 1] = 0
            for i in stride(from: k - 2, through: 0, by: -1) {
                let lower = lowerOf[i]
                let suffix = weightPrefix[end] - weightPrefix[lower]
                for j in (i + 1)..<k {
                    if i == 0 && j == k - 1 { continue }  // the whole level as one group
                    // The part pieces[cuts[i]..<cuts[j]]: the exact cost inside its atoms, plus
                    // w·f(atoms) when it is a group.
                    let upper = lowerOf[j]
                    let w = weightPrefix[upper] - weightPrefix[lower]
                    var inside = innerPrefix[upper] - innerPrefix[lower]
                    let count = upper - lower
                    if count > 1 {
                        if let exact { inside = exact.group(lower, upper) } else { inside += w * groupMean(lower, upper) }
                    }
                    var penalty = 0.0
                    if rows != nil, cuts[j] - cuts[i] > 1 {
                        if rowStartsHere[cuts[i]] && rowStartsHere[cuts[j]] {
                            // Whole rows: preferred on equal cost (4 rows of 4: three rows, then
                            // four keys, rather than 4, 4, 3 and five keys, both 104 steps).
                            penalty = -w * wholeRowsPreference
                        } else if rowOf[cuts[i]] != rowOf[cuts[j] - 1] {
                            penalty = w * rowCutPenalty
                        }
                    }
                    let cost = suffix + inside + penalty + best[j]
                    if cost < best[i] - epsilon {
                        best[i] = cost
                        penaltyOf[i] = penalty + penaltyOf[j]
                        choice[i] = j
                    }
                }
            }
            guard best[0] < infinity else { return nil }
            var parts = [Range<Int>]()
            var groupInside = 0.0
            var i = 0
            while i < k - 1 {
                let j = choice[i]
                parts.append(cuts[i]..<cuts[j])
                if j - i >= 1, cuts[j] - cuts[i] > 1 {
                    if let exact {
                        groupInside += exact.group(lowerOf[i], lowerOf[j]) - (innerPrefix[lowerOf[j]] - innerPrefix[lowerOf[i]])
                    } else {
                        groupInside += (weightPrefix[lowerOf[j]] - weightPrefix[lowerOf[i]]) * groupMean(lowerOf[i], lowerOf[j])
                    }
                }
                i = j
            }
            let weight = weightPrefix[end] - weightPrefix[lowerOf[0]]
            return Plan(pieces: pieces, parts: parts, cost: weight + best[0] - penaltyOf[0], groupInside: groupInside)
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
    /// Per item, far below any real difference of cost (a whole step over all items) and far
    /// above `epsilon`: only breaks ties.
    static let wholeRowsPreference = 1e-6

    static func unionFrame(_ frames: [Rect?]) -> Rect? {
        var union: Rect?
        for case let frame? in frames { union = union.map { $0.union(frame) } ?? frame }
        return union
    }

    /// The starts of spatial rows among consecutive pieces: a piece joins the current row when
    /// its top lies above the vertical middle of every piece in the row (or level with the row's
    /// first top), as in the reading order's row rule, and it is not left of the previous piece.
    /// Pieces without a frame stand alone.
    static func rowStarts(_ pieces: [Piece]) -> [Int] {
        spatialRowStarts(pieces.map(\.frame))
    }

    /// The starts of spatial rows among consecutive frames (the rule of `rowStarts`): used by
    /// the grouping, and by the benchmark's row-column scanning.
    public static func spatialRowStarts(_ frames: [Rect?]) -> [Int] {
        var starts = [Int]()
        var rowTop = 0.0, rowLimit = 0.0, lastLeft = 0.0
        var open = false
        for (index, frame) in frames.enumerated() {
            guard let frame else {
                starts.append(index)
                open = false
                continue
            }
            if open, frame.minY < rowLimit || frame.minY == rowTop, frame.minX >= lastLeft {
                rowLimit = min(rowLimit, frame.midY)
            } else {
                starts.append(index)
                rowTop = frame.minY
                rowLimit = frame.midY
                open = true
            }
            lastLeft = frame.minX
        }
        return starts
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
