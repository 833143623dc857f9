import AccessibilityModel

/// The selection counts one screen's structure is built with (issue 17, part 2): each item
/// weighs its decayed count plus `prior` (an item never chosen still weighs something, and a few
/// selections do not overturn the layout). Taken from `SelectionCounts` at a calm point only (a
/// session's start, a screen change, a change of the learning settings), so the structure never
/// moves under the user's highlight while they scan a screen.
public struct LearnedWeights: Hashable, Sendable {
    /// Count + prior, by id; absent ids weigh `prior`.
    public var weights: [ElementID: Double]
    public var prior: Double
    /// Also put the most frequent items first (`orderByFrequency`).
    public var orderByFrequency: Bool

    public init(counts: [ElementID: Double], prior: Double = 0.5, orderByFrequency: Bool) {
        self.weights = counts.mapValues { $0 + prior }
        self.prior = prior
        self.orderByFrequency = orderByFrequency
    }

    public func weight(of id: ElementID) -> Double { weights[id] ?? prior }

    /// `nodes` as scanned with these weights. With `orderByFrequency` (the user chose speed over
    /// a stable layout) every level is reordered by frequency and grouped for the expected steps
    /// under the weights. Without it the weights change nothing: the groups follow the layout
    /// alone, so a key keeps its place ("second group, third item") however habits change.
    public func arrange(_ nodes: [ScanNode], groupItems: Bool) -> [ScanNode] {
        guard orderByFrequency else { return groupItems ? AutomaticGrouping.group(nodes) : nodes }
        let ordered = byFrequency(nodes)
        return groupItems ? AutomaticGrouping.group(ordered, weights: weights, unseenWeight: prior) : ordered
    }

    /// Every level's nodes, most selected first (a group weighs its items' total); equal weights
    /// keep their reading order.
    func byFrequency(_ nodes: [ScanNode]) -> [ScanNode] {
        let weighed = nodes.enumerated().map { index, node -> (Int, Double, ScanNode) in
            let total = node.items.reduce(0) { $0 + weight(of: $1.id) }
            switch node {
            case .item: return (index, total, node)
            case .group(let element, let children): return (index, total, .group(element, byFrequency(children)))
            }
        }
        return weighed.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.2)
    }
}
