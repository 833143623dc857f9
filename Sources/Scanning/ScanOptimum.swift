/// The exact optimum of the benchmark's step model (issue 17, part 1), against which automatic
/// grouping is measured: one switch, auto scanning, highlights shown until the target (the first
/// entry of a level counts as step 1), one select per level (entering each group, then the item),
/// every item equally likely, any tree of groups (no limit on a level's entries or on depth).
///
/// Selecting an item costs Σ (p + 1) over the levels on its path, p its entry's position. For a
/// level whose entries carry w₁…w_k items, Σ w_t·(t + 1) = n + Σ_t S_t with S_t = w_t + … + w_k
/// (the items at or after entry t): so the level can be built from its end, one entry put in
/// front of a suffix of m items at a time, each adding (m + w) plus what lies inside the entry.
/// That gives a dynamic programme over the number of items, O(n²) in all:
///
///   D(m)  = min over w of D(m − w) + m + inside(w),   D(0) = 0       (a suffix of m items)
///   T(n)  = n + D(n) with the single entry "one group of all n" excluded   (a whole level)
///   inside(1) = 0 (an item), inside(w) = T(w) for w ≥ 2 (a group, arranged optimally itself)
///
/// T(n) is the least total, over the n items, of the steps to select them; T(n)/n the least mean.
/// Integers throughout: the figures are exact.
public enum ScanOptimum {
    /// `totals[n]`, for n from 0 to `count`, is T(n): the least total steps to select each of n
    /// equally likely items once, over every tree (T(0) = 0, T(1) = 2).
    public static func uniformTotals(upTo count: Int) -> [Int] {
        let table = uniformTable(upTo: count)
        return table.totals
    }

    /// The least mean steps to select one of `n` equally likely items (0 for no items).
    public static func uniformMean(n: Int) -> Double {
        n <= 0 ? 0 : Double(uniformTotals(upTo: n)[n]) / Double(n)
    }

    /// An optimal tree's outline for `n` items: the sizes of the entries of the top level in scan
    /// order (1 an item, w ≥ 2 a group of w items, itself arranged by `uniformLevel(n: w)`).
    public static func uniformLevel(n: Int) -> [Int] {
        guard n >= 2 else { return n == 1 ? [1] : [] }
        return uniformTable(upTo: n).level(n)
    }

    /// The table behind the functions above, kept for callers that ask about many n.
    public struct UniformTable: Sendable {
        /// T(m) for m in 0...count.
        public let totals: [Int]
        /// D(m): the least cost of a suffix of m items (an entry of all m allowed).
        let suffix: [Int]
        /// The size of the first entry of an optimal suffix of m items (D), and of a whole level (T).
        let firstOfSuffix: [Int]
        let firstOfLevel: [Int]

        /// The top level's entry sizes for n ≥ 2 items, in scan order.
        public func level(_ n: Int) -> [Int] {
            var sizes = [firstOfLevel[n]]
            var rest = n - sizes[0]
            while rest > 0 {
                let w = firstOfSuffix[rest]
                sizes.append(w)
                rest -= w
            }
            return sizes
        }
    }

    public static func uniformTable(upTo count: Int) -> UniformTable {
        let count = max(count, 1)
        var totals = [Int](repeating: 0, count: count + 1)
        var suffix = [Int](repeating: 0, count: count + 1)
        var firstOfSuffix = [Int](repeating: 0, count: count + 1)
        var firstOfLevel = [Int](repeating: 0, count: count + 1)
        for m in 1...count {
            // A whole level of m items: at least two entries unless m is one item.
            var best = Int.max, bestFirst = 1
            for w in 1...max(1, m == 1 ? 1 : m - 1) {
                let inside = w == 1 ? 0 : totals[w]
                let value = suffix[m - w] + m + inside
                if value < best { best = value; bestFirst = w }
            }
            totals[m] = m + best
            firstOfLevel[m] = bestFirst
            // A suffix of m items may also be one group of all m.
            let whole = m + (m == 1 ? 0 : totals[m])
            if m >= 2, whole < best {
                suffix[m] = whole
                firstOfSuffix[m] = m
            } else {
                suffix[m] = best
                firstOfSuffix[m] = bestFirst
            }
        }
        return UniformTable(totals: totals, suffix: suffix, firstOfSuffix: firstOfSuffix, firstOfLevel: firstOfLevel)
    }

    /// The least expected steps to select an item when item k (in reading order) is chosen with
    /// probability proportional to `weights[k]`, over every tree that keeps the items in order
    /// (each group a contiguous run; issue 17, part 2's weighted contiguous optimum). The same
    /// suffix programme as above, on every interval: G(i, j), the best level holding exactly
    /// items i..<j, from D_j(m) = min over e of W(m..<j) + inside(m..<e) + D_j(e). O(n³) (1024
    /// items: about 180 million steps). Equal weights give T(n)/n.
    public static func weightedContiguousMean(_ weights: [Double]) -> Double {
        let n = weights.count
        guard n > 0 else { return 0 }
        var prefix = [0.0]
        for weight in weights { prefix.append(prefix.last! + max(0, weight)) }
        let total = prefix[n]
        guard total > 0 else { return 0 }
        if n == 1 { return 2 }
        // best[m * (n + 1) + j]: G(m, j) for j − m ≥ 2.
        let width = n + 1
        var best = [Double](repeating: 0, count: width * width)
        var suffix = [Double](repeating: 0, count: width)
        for j in 1...n {
            suffix[j] = 0
            for m in stride(from: j - 1, through: 0, by: -1) {
                let w = prefix[j] - prefix[m]
                if j - m >= 2 {
                    var level = Double.infinity
                    for e in (m + 1)..<j {
                        let inside = e - m == 1 ? 0 : best[m * width + e]
                        level = min(level, w + inside + suffix[e])
                    }
                    best[m * width + j] = w + level
                }
                var value = Double.infinity
                for e in (m + 1)...j {
                    let inside = e - m == 1 ? 0 : best[m * width + e]
                    value = min(value, w + inside + suffix[e])
                }
                suffix[m] = value
            }
        }
        return best[n] / total
    }
}
