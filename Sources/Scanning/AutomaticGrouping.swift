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
/// - `automatic` containers are free: the scanner may keep one as a group (it is then entered
///   on select) or splice its children into the surrounding sequence, and may cut across them.
///
/// Each level is arranged as follows (`Builder.arrange`):
/// 1. Three candidate *block* sequences: the level's pieces (each automatic container is a
///    block), spatial rows (runs of consecutive pieces that share a row by the reading-order row
///    rule and go left to right), and atoms (every container spliced). Rows and containers are
///    candidates only when they actually split the level.
/// 2. For each block sequence, a dynamic programme chooses its cut into consecutive *parts*,
///    each part one entry of the level: a single piece stays what it is (item, combined group,
///    or the container as a group), several blocks become a synthetic group. The cost of a part
///    at position t is w·(t + 1) plus an estimate of its inside: the exact cost inside its atoms,
///    plus w·f(c) when it is a group of c atoms, where f(c) is the optimal mean steps for c
///    equally likely items (`optimalUniformMean`, computed once by the same programme on a flat
///    list, exactly up to 1024 items). Sizes, and whether a part is a group at all, are chosen
///    together, so a level mixes items and groups when that is cheaper (bigger groups first),
///    and a level where grouping does not pay stays flat (on equal cost, fewer groups). A level
///    has at most `maxLevelEntries` entries; with more than `maxBoundaries` blocks, cuts are
///    considered at evenly spaced block boundaries only (nearly equal chunks), which keeps the
///    work near linear. When cutting atoms, a group that straddles rows without holding whole
///    rows costs `rowCutPenalty` more per item, so chunks keep to rows when nearly as cheap.
/// 3. A level with containers keeps them as groups (they are the app's structure: a user sees
///    them on screen), and arranges the pieces around them (flat up to
///    `containerLevelFlatLimit` entries). Otherwise the split by rows is taken when its
///    estimated cost is within `naturalTolerance` (10%) of the atoms' split; else the chunks win.
/// 4. Each synthetic group and each kept container is arranged in turn, recursively.
///
/// Synthetic groups are `Element(id: "auto:<first item id>…<last item id>", frame: union of
/// the children's frames, isAccessibilityElement: false, navigationStyle: .combined)`; kept
/// automatic containers keep their element, with `navigationStyle` set to `.combined`. The result
/// is deterministic: no hashing, ties broken towards the earlier and smaller choice.
public enum AutomaticGrouping {
    /// Most entries a level may have (for equally likely items, allowing 30 changes no optimum
    /// up to 300 items).
    public static let maxLevelEntries = 16
    /// A level holding the app's containers with at most this many entries is scanned as it is:
    /// grouping 6 or fewer entries does not pay (f(6) is the flat mean).
    public static let containerLevelFlatLimit = 6
    /// Most cut points the dynamic programme considers on one level.
    public static let maxBoundaries = 64
    /// How much more (relative to the best chunking) a split by rows or containers may cost
    /// and still be preferred: users see rows and the app's containers.
    public static let naturalTolerance = 0.10
    /// When chunking, the extra cost (in steps per item of the group) counted against a group
    /// that cuts across rows without consisting of whole rows: such a group's outline covers
    /// keys it does not hold, so a chunk that respects rows is preferred when nearly as cheap.
    public static let rowCutPenalty = 0.25

    /// The structure the scanner walks with `groupItems` on.
    public static func group(_ nodes: [ScanNode]) -> [ScanNode] {
        var builder = Builder()
        let pieces = builder.flatten(nodes)
        return builder.arrange(pieces)
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

        mutating func flatten(_ nodes: [ScanNode]) -> [Piece] {
            var pieces = [Piece]()
            pieces.reserveCapacity(nodes.count)
            for node in nodes {
                switch node {
                case .item(let element):
                    pieces.append(addAtom(Atom(
                        node: node, weight: 1, inner: 0, frame: element.resolvedFrame)))
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
                    let arranged = AutomaticGrouping.group(children)
                    let items = arranged.flatMap(\.items)
                    guard !items.isEmpty else { continue }
                    element.navigationStyle = .combined
                    pieces.append(addAtom(Atom(
                        node: .group(element, arranged), weight: Double(items.count),
                        inner: totalSelectSteps(arranged), frame: element.resolvedFrame)))
                }
            }
            return pieces
        }

        mutating func addAtom(_ atom: Atom) -> Piece {
            atoms.append(atom)
            weightPrefix.append(weightPrefix.last! + atom.weight)
            innerPrefix.append(innerPrefix.last! + atom.inner)
            return Piece(kind: .atom(atoms.count - 1), atoms: (atoms.count - 1)..<atoms.count, frame: atom.frame)
        }

        // MARK: Arranging a level

        /// One way to cut a level: the pieces it is made of and the chosen parts (ranges of pieces).
        struct Plan {
            var pieces: [Piece]
            var parts: [Range<Int>]
            var cost: Double
        }

        func arrange(_ pieces: [Piece]) -> [ScanNode] {
            guard let firstPiece = pieces.first, let lastPiece = pieces.last else { return [] }
            let span = firstPiece.atoms.lowerBound..<lastPiece.atoms.upperBound
            if span.count == 1 { return [atoms[span.lowerBound].node] }

            // The app's own containers (kept together by shouldGroupAccessibilityChildren or an
            // explicit order) are groups the user knows from the screen: they are always kept,
            // and only the pieces around them are arranged.
            if pieces.contains(where: \.isContainer) {
                if pieces.count <= AutomaticGrouping.containerLevelFlatLimit {
                    return pieces.map(entry)
                }
                if let containers = plan(pieces, blockStarts: Array(pieces.indices)) {
                    return containers.parts.map { part in
                        part.count == 1 ? entry(containers.pieces[part.lowerBound]) : syntheticGroup(Array(containers.pieces[part]))
                    }
                }
            }
            var natural: Plan?
            func consider(_ plan: Plan?) {
                guard let plan else { return }
                if natural == nil || plan.cost < natural!.cost - epsilon { natural = plan }
            }
            let rows = rowStarts(pieces)
            if rows.count >= 2 && rows.count < pieces.count {
                consider(plan(pieces, blockStarts: rows))
            }
            let atomPieces = span.map { Piece(kind: .atom($0), atoms: $0..<($0 + 1), frame: atoms[$0].frame) }
            let chunks = plan(atomPieces, blockStarts: Array(atomPieces.indices), rows: rowStarts(atomPieces))
            let chosen: Plan
            if let natural, chunks == nil || natural.cost <= chunks!.cost * (1 + naturalTolerance) + epsilon {
                chosen = natural
            } else if let chunks {
                chosen = chunks
            } else {
                return span.map { atoms[$0].node }  // not reached: a level of atoms always has a plan
            }
            return chosen.parts.map { part in
                part.count == 1 ? entry(chosen.pieces[part.lowerBound]) : syntheticGroup(Array(chosen.pieces[part]))
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

        /// The cheapest cut of `pieces` into parts made of whole blocks (given by their starts),
        /// with at most `maxLevelEntries` parts; nil when there is none (a single block). With
        /// `rows` (their starts), a group that cuts across rows costs `rowCutPenalty` more per item.
        func plan(_ pieces: [Piece], blockStarts: [Int], rows: [Int]? = nil) -> Plan? {
            // Cut points: block starts, thinned evenly when there are too many, and the end.
            var cuts = blockStarts
            if cuts.count > maxBoundaries {
                let step = Double(cuts.count) / Double(maxBoundaries)
                cuts = (0..<maxBoundaries).map { cuts[Int((Double($0) * step).rounded(.down))] }
            }
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

            let entries = maxLevelEntries
            let infinity = Double.infinity
            let table = uniformTable
            // best[i * width + t]: cheapest cost of the pieces from cuts[i] on, first entry at t.
            let width = entries + 2
            var best = [Double](repeating: infinity, count: k * width)
            var choice = [Int](repeating: -1, count: k * width)
            for t in 1...(entries + 1) { best[(k - 1) * width + t] = 0 }
            for i in stride(from: k - 2, through: 0, by: -1) {
                // The first cut is only ever at position 1; cut i at positions up to i + 1.
                let positions = i == 0 ? 1...1 : 2...min(entries, i + 1)
                let lower = pieces[cuts[i]].atoms.lowerBound
                for j in (i + 1)..<k {
                    if i == 0 && j == k - 1 { continue }  // the whole level as one group
                    // The part pieces[cuts[i]..<cuts[j]] costs w·(t + 1) at position t, plus
                    // the exact cost inside its atoms, plus w·f(atoms) when it is a group.
                    let upper = pieces[cuts[j] - 1].atoms.upperBound
                    let w = weightPrefix[upper] - weightPrefix[lower]
                    var inside = innerPrefix[upper] - innerPrefix[lower]
                    let count = upper - lower
                    if count > 1 {
                        inside += w * (count <= uniformTableSize ? table[count] / Double(count) : optimalUniformMean(n: count))
                    }
                    if rows != nil, cuts[j] - cuts[i] > 1, rowOf[cuts[i]] != rowOf[cuts[j] - 1],
                       !(rowStartsHere[cuts[i]] && rowStartsHere[cuts[j]]) {
                        inside += w * rowCutPenalty
                    }
                    for t in positions {
                        let rest = best[j * width + t + 1]
                        if rest == infinity { continue }
                        let cost = w * Double(t + 1) + inside + rest
                        if cost < best[i * width + t] - epsilon {
                            best[i * width + t] = cost
                            choice[i * width + t] = j
                        }
                    }
                }
            }
            guard best[1] < infinity else { return nil }
            var parts = [Range<Int>]()
            var i = 0, t = 1
            while i < k - 1 {
                let j = choice[i * width + t]
                parts.append(cuts[i]..<cuts[j])
                i = j
                t += 1
            }
            return Plan(pieces: pieces, parts: parts, cost: best[1])
        }
    }

    static let epsilon = 1e-9

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

    /// F(n) for n up to this is computed exactly, once; beyond it by nearly equal chunks.
    static let uniformTableSize = 1024

    /// F(n): the least total steps over n equally likely items in a flat list, with mixed
    /// levels (items and groups) of at most `maxLevelEntries` entries.
    static let uniformTable: [Double] = {
        let n = uniformTableSize, entries = maxLevelEntries
        var total = [Double](repeating: 0, count: n + 1)
        // rest[m * width + t]: cheapest cost of m items as entries from position t on.
        let width = entries + 2
        var rest = [Double](repeating: .infinity, count: (n + 1) * width)
        for t in 1...(entries + 1) { rest[t] = 0 }
        for m in 1...n {
            // F(m): entries from position 1, the first not the whole list.
            var first = Double.infinity
            if m == 1 {
                first = 0
            } else {
                for s in 1..<m {
                    let value = Double(s) * 2 + total[s] + rest[(m - s) * width + 2]
                    if value < first { first = value }
                }
            }
            total[m] = first
            for t in stride(from: entries, through: 2, by: -1) {
                var value = Double.infinity
                for s in 1...m {
                    let tail = rest[(m - s) * width + t + 1]
                    if tail == .infinity { continue }
                    let candidate = Double(s) * Double(t + 1) + total[s] + tail
                    if candidate < value { value = candidate }
                }
                rest[m * width + t] = value
            }
        }
        return total
    }()

    static func uniformTotal(_ n: Int) -> Double {
        if n <= uniformTableSize { return uniformTable[n] }
        // Beyond the table (an estimate): five nearly equal chunks, mean position 3 plus a select.
        return Double(n) * (4 + optimalUniformMean(n: (n + 4) / 5))
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
