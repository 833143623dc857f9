import AccessibilityModel
import Testing

@testable import Scanning

// The exact optimum of the step model (issue 17): checked against every tree on small n, built
// as real scan structures and costed by ScanCost (the model switchscan cost reports).

enum OptimumFixture {
    static func item(_ index: Int) -> ScanNode { .item(Element(id: "i\(index)", label: "I \(index)")) }

    /// Every tree over items first..<first + count in order: each level an ordered cut into
    /// entries, an entry of one item being the item, of several a group (itself any tree). A
    /// group's level is never a single group of all it holds (that nesting would never end); the
    /// top level may be (it is never optimal, but is a tree the scanner can walk).
    static func allTrees(_ first: Int, _ count: Int, wholeGroupAllowed: Bool = true) -> [[ScanNode]] {
        if count == 0 { return [[]] }
        var result = [[ScanNode]]()
        for w in 1...count {
            if w == count && w >= 2 && !wholeGroupAllowed { continue }
            let entries: [ScanNode]
            if w == 1 {
                entries = [item(first)]
            } else {
                entries = allTrees(first, w, wholeGroupAllowed: false).map { .group(Element(id: "g\(first)-\(w)", isAccessibilityElement: false, navigationStyle: .combined), $0) }
            }
            for rest in allTrees(first + w, count - w) {
                for entry in entries { result.append([entry] + rest) }
            }
        }
        return result
    }

    /// The tree `ScanOptimum.uniformLevel` describes, for items first..<first + n.
    static func optimalTree(_ first: Int, _ n: Int) -> [ScanNode] {
        var nodes = [ScanNode](), at = first
        for w in ScanOptimum.uniformLevel(n: n) {
            nodes.append(w == 1 ? item(at) : .group(Element(id: "g\(at)", isAccessibilityElement: false, navigationStyle: .combined), optimalTree(at, w)))
            at += w
        }
        return nodes
    }
}

@Suite struct ScanOptimumTests {
    @Test func theOptimumIsTheBestOfEveryTreeOnSmallN() {
        let totals = ScanOptimum.uniformTotals(upTo: 7)
        for n in 1...7 {
            let trees = OptimumFixture.allTrees(0, n)
            let best = trees.map { ScanCost.report($0).items.reduce(0) { $0 + $1.autoSelectSteps } }.min()!
            #expect(totals[n] == best, "n = \(n): \(trees.count) trees, best \(best), programme \(totals[n])")
        }
        // The enumeration is complete: levels that are not one whole group are counted by the
        // little Schröder numbers (45 for 5 items), and the whole group doubles them at the top.
        #expect(OptimumFixture.allTrees(0, 5, wholeGroupAllowed: false).count == 45)
        #expect(OptimumFixture.allTrees(0, 5).count == 90)
    }

    @Test func handCountedValues() {
        // 1 item: one highlight and its select. 3 items flat: 2 + 3 + 4. 7: a group of 3 first, 33.
        let totals = ScanOptimum.uniformTotals(upTo: 7)
        #expect(Array(totals[0...3]) == [0, 2, 5, 9])
        #expect(totals[7] == 33)
        #expect(ScanOptimum.uniformMean(n: 6) == 4.5)
    }

    @Test func theOutlineReachesTheOptimum() {
        let table = ScanOptimum.uniformTable(upTo: 300)
        for n in [2, 7, 16, 64, 100, 256, 300] {
            let tree = OptimumFixture.optimalTree(0, n)
            #expect(tree.flatMap(\.items).count == n)
            let total = ScanCost.report(tree).items.reduce(0) { $0 + $1.autoSelectSteps }
            #expect(total == table.totals[n], "n = \(n)")
        }
    }

    @Test func theGroupingEstimatesWithTheExactOptimum() {
        // The grouping's f(n) is the exact optimum up to its table's size (4096), not a capped
        // or chunked estimate; beyond it the estimate keeps growing with n.
        let totals = ScanOptimum.uniformTotals(upTo: 4096)
        for n in 1...4096 {
            #expect(abs(Double(totals[n]) / Double(n) - AutomaticGrouping.optimalUniformMean(n: n)) < 1e-9, "n = \(n)")
        }
        #expect(AutomaticGrouping.optimalUniformMean(n: 8192) > AutomaticGrouping.optimalUniformMean(n: 4096))
        #expect(AutomaticGrouping.optimalUniformMean(n: 8192) < AutomaticGrouping.optimalUniformMean(n: 4096) + 2)
    }
}
