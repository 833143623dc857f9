// Automatic grouping against linear scanning and the hierarchical bound (issue 3).
//
//   swift run -c release switchscan-bench grouping
//
// Flat scenes of n equally likely keys (44×44 points, rows of 8, as a keyboard), one switch auto
// scanning with groupItems on. "ours" is the mean steps to select a key (each level's highlight
// steps, the first counted as 1, plus one select per level: ScanCost's autoSelectSteps) after
// AutomaticGrouping; "linear" is (n + 1)/2; "bound" is min over b of ((b + 1)/2 + 1)·log_b(n).
// Targets: ours/bound ≤ 1.15, and linear/ours ≥ 10 at n = 1024. "flat optimum" is the best mean
// for n items with no rows to respect (the grouping's own estimate f(n)); "worst" is the most
// steps any key needs; "time" is grouping plus costing (the table of f(n), built once, is timed
// on its own first). Last, a large screen: 990 containers of 100 keys (the load benchmark's shape).
import AccessibilityModel
import Foundation
import Scanning

/// A screen of `count` keys, 44×44 points, in rows of 8.
func gridScreen(keys count: Int, perRow: Int = 8) -> Screen {
    let keys = (0..<count).map { index in
        Element(
            id: "key-\(index)", label: "Key \(index)", traits: .keyboardKey,
            frame: Rect(x: Double(index % perRow) * 44, y: 100 + Double(index / perRow) * 44, width: 44, height: 44))
    }
    return Screen(name: "grid", size: Rect(x: 0, y: 0, width: 390, height: 844), elements: keys)
}

func runGroupingBenchmark() {
    print("switchscan-bench grouping: flat grids of equally likely keys (44×44, rows of 8), one switch auto scanning, groupItems on")
    print("")
    func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
    let tableStart = DispatchTime.now().uptimeNanoseconds
    _ = AutomaticGrouping.optimalUniformMean(n: 2)
    print(String(format: "table of f(n) for n ≤ 1024 built once in %.1f ms", Double(DispatchTime.now().uptimeNanoseconds - tableStart) / 1e6))
    let header = ["n", "linear", "ours", "bound", "ours/bound", "linear/ours", "flat optimum", "worst", "time"]
    let widths = [6, 8, 7, 7, 11, 12, 13, 6, 10]
    print(zip(header, widths).map { pad($0, $1) }.joined(separator: " "))
    for n in [16, 64, 256, 1024] {
        let screen = gridScreen(keys: n)
        let start = DispatchTime.now().uptimeNanoseconds
        let structure = AutomaticGrouping.group(screen.scanNodes(groupAutomatic: true))
        let report = ScanCost.report(structure)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let ours = report.mean.autoSelectSteps
        let linear = ScanCost.linearMean(n: n), bound = ScanCost.hierarchicalBound(n: n)
        let row = [
            "\(n)", String(format: "%.1f", linear), String(format: "%.2f", ours), String(format: "%.2f", bound),
            String(format: "%.3f", ours / bound), String(format: "%.1f", linear / ours),
            String(format: "%.2f", AutomaticGrouping.optimalUniformMean(n: n)),
            String(format: "%.0f", report.worst.autoSelectSteps), String(format: "%.1f ms", elapsed),
        ]
        print(zip(row, widths).map { pad($0, $1) }.joined(separator: " "))
    }

    print("")
    largeScreenGrouping(containers: 990)
}

/// Groups a screen of `containers` containers of 100 keys (10 rows of 10) and prints the time.
func largeScreenGrouping(containers: Int) {
    var elements = [Element]()
    for box in 0..<containers {
        let top = Double(box) * 440
        let keys = (0..<100).map { index in
            Element(id: "b-\(box)-\(index)", label: "Key \(index)", traits: .keyboardKey,
                    frame: Rect(x: Double(index % 10) * 39, y: top + Double(index / 10) * 44, width: 39, height: 44))
        }
        elements.append(Element(id: "box-\(box)", shouldGroupAccessibilityChildren: true, children: keys))
    }
    let nodes = Screen(name: "large", elements: elements).scanNodes(groupAutomatic: true)
    var times = [Double]()
    var structure = [ScanNode]()
    for _ in 0..<3 {
        let start = DispatchTime.now().uptimeNanoseconds
        structure = AutomaticGrouping.group(nodes)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    let report = ScanCost.report(structure)
    let n = report.items.count
    let ours = report.mean.autoSelectSteps, bound = ScanCost.hierarchicalBound(n: n)
    print(String(format: "large screen: %d containers of 100 keys, %d items: grouping %.0f ms (median of 3); mean %.2f steps, bound %.2f, ratio %.3f, worst %.0f, linear %.1f",
                 containers, n, times.sorted()[1], ours, bound, ours / bound, report.worst.autoSelectSteps, ScanCost.linearMean(n: n)))
}
