import AccessibilityModel
import Foundation
import Scenes
import Testing

@testable import Scanning

// Scan cost (issue 3): small structures computed by hand for each tap behaviour, the settings
// that change the seconds, means, worst cases, weights, and the reference curves.
//
// Conventions (ScanCost's header): on every level the highlight starts on the first entry
// (step 1); auto: each highlight lasts autoScanningTime (+ pauseOnFirstItem on a level's first
// entry), each select is a step of no time; manual: presses (p − 1 nexts and a select for
// entry p), seconds = presses × press interval; default tap behaviour: the menu opens on Tap
// (auto +2 steps and one highlight time, manual +1 press); autoTap: +autoTapTime seconds.

private func costItem(_ id: ElementID, traits: Traits = .button) -> ScanNode {
    .item(Element(id: id, label: id.uppercased(), traits: traits))
}

private func costGroup(_ id: ElementID, _ children: [ScanNode]) -> ScanNode {
    .group(Element(id: id, isAccessibilityElement: false, navigationStyle: .combined), children)
}

private func costSettings(_ values: [(String, StateValue)]) throws -> ScanSettings {
    var settings = ScanSettings()
    for (name, value) in values { try settings.set(name, value) }
    return settings
}

/// (auto steps, auto seconds, manual steps, manual seconds) of every item.
private func costFigures(_ report: ScanCost.Report) -> [[Double]] {
    report.items.map { [Double($0.autoSteps), $0.autoSeconds, Double($0.manualSteps), $0.manualSeconds] }
}

private let costThreeItems = [costItem("a"), costItem("b"), costItem("c")]
/// One item, then a group of two.
private let costItemThenPair = [costItem("a"), costGroup("g", [costItem("b"), costItem("c")])]

@Suite struct ScanCostTests {
    @Test func threeFlatItemsWithTheMenu() {
        // Positions 1, 2, 3: select steps p + 1; the menu's Tap adds a highlight and a select.
        let report = ScanCost.report(costThreeItems)
        #expect(report.items.map(\.autoSelectSteps) == [2, 3, 4])
        #expect(report.items.map(\.manualSelectPresses) == [1, 2, 3])
        #expect(costFigures(report) == [[4, 2, 2, 2], [5, 3, 3, 3], [6, 4, 4, 4]])
        #expect(report.mean == ScanCost.Figures(
            autoSelectSteps: 3, autoSteps: 5, autoSeconds: 3, manualSelectPresses: 2, manualSteps: 3, manualSeconds: 3))
        #expect(report.worst.autoSteps == 6 && report.worst.manualSeconds == 4)
        #expect(report.worstItem()?.id == "c")
    }

    @Test func threeFlatItemsWithAutoTap() throws {
        let report = ScanCost.report(costThreeItems, settings: try costSettings([("tapBehavior", .string("autoTap"))]))
        #expect(costFigures(report) == [[2, 1.75, 1, 1.75], [3, 2.75, 2, 2.75], [4, 3.75, 3, 3.75]])
        let longer = ScanCost.report(costThreeItems, settings: try costSettings([
            ("tapBehavior", .string("autoTap")), ("autoTapTime", .number(0.5)),
        ]))
        #expect(longer.items.map(\.autoSeconds) == [1.5, 2.5, 3.5])
    }

    @Test func threeFlatItemsWithAlwaysTap() throws {
        let report = ScanCost.report(costThreeItems, settings: try costSettings([("tapBehavior", .string("alwaysTap"))]))
        #expect(costFigures(report) == [[2, 1, 1, 1], [3, 2, 2, 2], [4, 3, 3, 3]])
        #expect(report.mean.autoSteps == 3 && report.mean.manualSteps == 2)
    }

    @Test func aGroupOfTwoAfterOneItem() throws {
        // a: [1]; b: [2, 1] (reach g in 2, select, b is step 1 inside, select); c: [2, 2].
        let base = ScanCost.report(costItemThenPair)
        #expect(base.items.map(\.positions) == [[1], [2, 1], [2, 2]])
        #expect(base.items.map(\.path) == [[], ["g"], ["g"]])
        #expect(base.items.map(\.autoSelectSteps) == [2, 5, 6])
        #expect(base.items.map(\.manualSelectPresses) == [1, 3, 4])
        #expect(costFigures(base) == [[4, 2, 2, 2], [7, 4, 4, 4], [8, 5, 5, 5]])

        let autoTap = ScanCost.report(costItemThenPair, settings: try costSettings([("tapBehavior", .string("autoTap"))]))
        #expect(costFigures(autoTap) == [[2, 1.75, 1, 1.75], [5, 3.75, 3, 3.75], [6, 4.75, 4, 4.75]])

        let alwaysTap = ScanCost.report(costItemThenPair, settings: try costSettings([("tapBehavior", .string("alwaysTap"))]))
        #expect(costFigures(alwaysTap) == [[2, 1, 1, 1], [5, 3, 3, 3], [6, 4, 4, 4]])
        #expect(alwaysTap.mean.autoSteps == 13.0 / 3)
    }

    @Test func pauseOnFirstItemAndScanningTime() throws {
        // Every level's first highlight lasts 0.5 s longer: a pays it once, b and c twice.
        let paused = ScanCost.report(costItemThenPair, settings: try costSettings([
            ("pauseOnFirstItem", .number(0.5)), ("tapBehavior", .string("alwaysTap")),
        ]))
        #expect(paused.items.map(\.autoSeconds) == [1.5, 4, 5])
        // Manual scanning has no timer: unchanged.
        #expect(paused.items.map(\.manualSeconds) == [1, 3, 4])
        // `true` turns the pause on with one step's time.
        let onWithTrue = ScanCost.report(costItemThenPair, settings: try costSettings([
            ("autoScanningTime", .number(2)), ("pauseOnFirstItem", .bool(true)),
        ]))
        // a: 2 + 2 (first) + 2 (Tap); b: (4 + 2) + (2 + 2) + 2; c: (4 + 2) + (4 + 2) + 2.
        #expect(onWithTrue.items.map(\.autoSeconds) == [6, 12, 14])
    }

    @Test func pressInterval() {
        let report = ScanCost.report(costItemThenPair, pressInterval: 1.5)
        #expect(report.items.map(\.manualSeconds) == [3, 6, 7.5])
        #expect(report.items.map(\.manualSteps) == [2, 4, 5])
    }

    @Test func dimmedItemsAreReportedAsNotEnabled() {
        let report = ScanCost.report([costItem("a"), costItem("b", traits: [.button, .notEnabled])])
        #expect(report.items.map(\.isEnabled) == [true, false])
        #expect(report.items.map(\.autoSteps) == [4, 5])
    }

    @Test func weightedMeans() {
        let report = ScanCost.report(costThreeItems)
        #expect(report.weightedMean([1, 0, 0]).autoSteps == 4)
        #expect(report.weightedMean(["c": 2, "a": 2]).autoSteps == 5)
        let zipf = ScanCost.zipfWeights(count: 3)
        #expect(zipf.count == 3)
        for (weight, expected) in zip(zipf, [6.0 / 11, 3.0 / 11, 2.0 / 11]) { #expect(abs(weight - expected) < 1e-12) }
        #expect(abs(report.weightedMean(zipf).autoSteps - (4.0 * 6 + 5 * 3 + 6 * 2) / 11) < 1e-12)
        let steeper = ScanCost.zipfWeights(count: 4, exponent: 2)
        #expect(abs(steeper[1] / steeper[0] - 0.25) < 1e-12 && abs(steeper.reduce(0, +) - 1) < 1e-12)
        #expect(ScanCost.report([]).mean == .zero)
    }

    @Test func referenceCurves() {
        // min over b of ((b + 1)/2 + 1)·log_b(n): b = 5 for n ≥ 5, i.e. 4·ln n / ln 5.
        #expect(abs(ScanCost.hierarchicalBound(n: 16) - 4 * log(16.0) / log(5.0)) < 1e-12)
        #expect(abs(ScanCost.hierarchicalBound(n: 16) - 6.8909) < 1e-4)
        #expect(abs(ScanCost.hierarchicalBound(n: 64) - 10.3363) < 1e-4)
        #expect(abs(ScanCost.hierarchicalBound(n: 1024) - 4 * log(1024.0) / log(5.0)) < 1e-12)
        #expect(ScanCost.hierarchicalBound(n: 3) == 3)  // b = 3: one level, mean position 2 + select
        #expect(ScanCost.hierarchicalBound(n: 2) == 2.5)
        #expect(ScanCost.linearMean(n: 1024) == 512.5)
        #expect(ScanCost.linearMean(n: 16) == 8.5)
        // The module's own logarithm and exponential (it imports no C library).
        for x in [0.001, 0.5, 1, 2, 3, 10, 1024, 1e9] {
            #expect(abs(ScanCost.naturalLog(x) - log(x)) < 1e-12 * max(1, abs(log(x))))
            #expect(abs(ScanCost.exponential(log(x)) - x) < 1e-12 * x)
        }
    }

    @Test func aScreenIsCostedAsTheScannerWalksIt() throws {
        // Automatic containers: grouped with groupItems on, spliced with it off.
        let boxes = (0..<4).map { box in
            Element(id: "box\(box)", shouldGroupAccessibilityChildren: true,
                    children: GroupingFixture.keys(4, perRow: 2, prefix: "b\(box)-", top: Double(box) * 100))
        }
        let screen = GroupingFixture.gridScreen(boxes)
        let on = ScanCost.report(for: screen)
        #expect(on.items.count == 16)
        #expect(on.items[5].path == ["box1"] && on.items[5].positions == [2, 2])
        #expect(on.mean.autoSelectSteps == 7)
        let off = ScanCost.report(for: screen, settings: try costSettings([("groupItems", .bool(false))]))
        #expect(off.items.map(\.positions) == (1...16).map { [$0] })
        #expect(off.mean.autoSelectSteps == ScanCost.linearMean(n: 16) + 1)
    }

    @Test func theSeedSwitchControlGroupsScene() throws {
        // Scenarios/switch-control-groups.yaml, screen main: [Test 1, Test 2] combined, Btn 1,
        // Btn 2 (separate), [Btn 5, Btn 6] combined. Four entries: grouping keeps them.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Scenarios/switch-control-groups.yaml").path
        let scene = try SceneParser.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path)
        let report = ScanCost.report(for: scene.startScreen)
        #expect(report.items.map(\.id) == ["test-1", "test-2", "btn-1", "btn-2", "btn-5", "btn-6"])
        #expect(report.items.map(\.positionText) == ["1.1", "1.2", "2", "3", "4.1", "4.2"])
        #expect(report.items.map(\.autoSteps) == [6, 7, 5, 6, 9, 10])
        #expect(report.items.map(\.manualSteps) == [3, 4, 3, 4, 6, 7])
        #expect(report.mean.autoSteps == 43.0 / 6)
        #expect(report.worst.autoSeconds == 7)
    }
}
