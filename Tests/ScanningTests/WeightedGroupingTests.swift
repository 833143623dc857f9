import AccessibilityModel
import Testing

@testable import Scanning

// Issue 17, part 2: grouping for items chosen with unequal likelihood, the weighted contiguous
// optimum it is measured against, and the selection counts the weights come from.

@Suite struct WeightedGroupingTests {
    @Test func theWeightedOptimumIsTheBestOfEveryTreeOnSmallN() {
        // Every tree keeping the order (OptimumFixture.allTrees), costed by ScanCost and weighted.
        let weightSets: [[Double]] = [[1, 1, 1, 1, 1], [9, 1, 1, 1, 1], [1, 1, 1, 1, 9], [1, 5, 1, 3, 1, 1], [0.5, 0.5, 8, 0.5, 0.5, 0.5, 4]]
        for weights in weightSets {
            let trees = OptimumFixture.allTrees(0, weights.count)
            let best = trees.map { tree in
                let steps = ScanCost.report(tree).items.map { Double($0.autoSelectSteps) }
                return zip(steps, weights).reduce(0) { $0 + $1.0 * $1.1 } / weights.reduce(0, +)
            }.min()!
            #expect(abs(ScanOptimum.weightedContiguousMean(weights) - best) < 1e-9, "weights \(weights)")
        }
        #expect(abs(ScanOptimum.weightedContiguousMean([Double](repeating: 2, count: 64)) - ScanOptimum.uniformMean(n: 64)) < 1e-9)
    }

    @Test func equalWeightsGiveTheUnweightedGrouping() {
        for (count, perRow) in [(7, 7), (16, 4), (16, 8), (64, 8), (100, 10)] {
            let elements = GroupingFixture.keys(count, perRow: perRow)
            let nodes = GroupingFixture.gridScreen(elements).scanNodes(groupAutomatic: true)
            let weights = Dictionary(uniqueKeysWithValues: elements.map { ($0.id, 3.0) })
            #expect(AutomaticGrouping.group(nodes, weights: weights) == AutomaticGrouping.group(nodes), "\(count) keys")
        }
    }

    @Test func aFrequentItemGetsAShortPathAndTheOrderIsKept() {
        // 64 keys, k40 chosen half the time: it is reached in fewer steps than without weights,
        // and the expected steps are within 5 % of the weighted optimum.
        let elements = GroupingFixture.keys(64)
        let nodes = GroupingFixture.gridScreen(elements).scanNodes(groupAutomatic: true)
        var weights = Dictionary(uniqueKeysWithValues: elements.map { ($0.id, 1.0) })
        weights["k40"] = 63
        let weighted = AutomaticGrouping.group(nodes, weights: weights)
        let plain = AutomaticGrouping.group(nodes)
        #expect(weighted.flatMap(\.items).map(\.id) == plain.flatMap(\.items).map(\.id))
        func steps(_ structure: [ScanNode], _ id: String) -> Int { ScanCost.report(structure).items.first { $0.id == id }!.autoSelectSteps }
        #expect(steps(weighted, "k40") < steps(plain, "k40"))
        #expect(steps(weighted, "k40") <= 4)
        let optimum = ScanOptimum.weightedContiguousMean(elements.map { weights[$0.id]! })
        let ours = AutomaticGrouping.expectedSelectSteps(weighted, weights: weights)
        #expect(ours <= 1.05 * optimum, "\(ours) against \(optimum)")
        #expect(ours < AutomaticGrouping.expectedSelectSteps(plain, weights: weights))
    }

    @Test func selectionCountsDecayAndStayBounded() {
        var counts = SelectionCounts(halfLife: 2, maxItemsPerScreen: 3, maxScreens: 2)
        counts.record("a", screen: "main")
        counts.record("a", screen: "main")
        // After two selections with a half-life of two: 1 · 2^(−1/2) + 1.
        #expect(abs(counts.screens["main"]!["a"]! - (1 + 1 / 2.0.squareRoot())) < 1e-12)
        for id in ["b", "c", "d"] { counts.record(id, screen: "main") }
        #expect(counts.screens["main"]!.count == 3)
        #expect(counts.screens["main"]!["b"] == nil)  // the smallest went
        counts.record("x", screen: "other")
        counts.record("y", screen: "third")
        #expect(counts.screens["main"] == nil)       // the least recently used screen went
        #expect(counts.recent == ["other", "third"])
        let weights = counts.weights(screen: "third", items: ["y", "z"])
        #expect(weights == ["y": 1.5, "z": 0.5])
    }

    @Test("Counts on a screen of 4,096 ids are the decayed sums, through many selections (the decay kept as one scale per screen)")
    func selectionCountsOnABigScreen() {
        var counts = SelectionCounts(halfLife: 1, maxItemsPerScreen: 4096)
        // Every id once, then "k0" 1,000 more times: with a half-life of one selection the scale
        // falls below 1e-200 several times over and is folded back into the counts.
        for index in 0..<4096 { counts.record("k\(index)", screen: "grid") }
        for _ in 0..<1000 { counts.record("k0", screen: "grid") }
        let grid = counts.screens["grid"]!
        #expect(grid.count == 4096)
        // k0: 1 + 1/2 + 1/4 + … over 1,000 selections (its first, long ago, is nothing now): 2.
        #expect(abs(grid["k0"]! - 2) < 1e-9, "\(grid["k0"]!)")
        // k4095, chosen once, 1,000 selections ago: 2^-1000, below any double's precision of 2.
        #expect(grid["k4095"]! < 1e-300)
        #expect(grid["k4095"]! >= 0)
        // k4094, chosen one selection before k4095: half of its count.
        #expect(grid["k4094"]! < grid["k4095"]!)
        // The same counts as recording them one by one by hand, on a small screen.
        var small = SelectionCounts(halfLife: 3)
        var expected = [String: Double]()
        let decay = small.decay
        for id in ["a", "b", "a", "c", "a", "b"] {
            small.record(id, screen: "s")
            for key in expected.keys { expected[key]! *= decay }
            expected[id, default: 0] += 1
        }
        for (id, value) in expected { #expect(abs(small.screens["s"]![id]! - value) < 1e-12, "\(id)") }
    }

    @Test func selectionCountsRoundTripSkipBadLinesAndRefuseAnotherHeader() throws {
        var counts = SelectionCounts()
        counts.record("key-1", screen: "keyboard")
        counts.record("key-2", screen: "keyboard")
        counts.record("ok", screen: "alert")
        let text = counts.encoded()
        #expect(!text.contains("label"))
        let read = try SelectionCounts.read(Array(text.utf8))
        #expect(read.counts.screens == counts.screens)
        #expect(read.counts.recent == counts.recent)
        #expect(read.skippedCount == 0)
        #expect(throws: SelectionCounts.DecodeError(line: 1, message: "expected the header 'switchscan-selections 1': this is not a selections file")) {
            try SelectionCounts.read(Array("hello\n".utf8))
        }
        #expect(throws: SelectionCounts.DecodeError(line: 1, message: "expected the header 'switchscan-selections 1': this is not a selections file")) {
            try SelectionCounts.read([])
        }
        let bad = try SelectionCounts.read(Array("switchscan-selections 1\nmain\tk\tnan\nmain k 1\nmain\tj\t2\n".utf8))
        #expect(bad.skipped == [
            SelectionCounts.DecodeError(line: 2, column: 8, message: "count 'nan' is not a number from 0 to 1e9"),
            SelectionCounts.DecodeError(line: 3, message: "expected screen, id and count separated by tabs"),
        ])
        #expect(bad.counts.screens == ["main": ["j": 2]])
    }

    @Test func selectionCountsKeepAtMostMaxEntriesForgettingTheLeastRecentlyUsedScreens() {
        var counts = SelectionCounts(maxEntries: 10)
        for screen in ["a", "b", "c"] {
            for id in 0..<4 { counts.record("\(screen)\(id)", screen: screen) }
        }
        // 12 ids: screen a, used least recently, goes whole.
        #expect(counts.recent == ["b", "c"])
        #expect(counts.entryCount == 8)
        counts.record("a0", screen: "a")
        #expect(counts.recent == ["b", "c", "a"])
        counts.record("a1", screen: "a")
        counts.record("a2", screen: "a")
        #expect(counts.recent == ["c", "a"])
        #expect(counts.entryCount == 7)
    }
}
