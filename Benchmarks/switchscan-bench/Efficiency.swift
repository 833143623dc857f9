// Scan efficiency: steps and seconds for a switch user to select an item (issue 7, part 1).
//
//   switchscan-bench efficiency [--markdown] [--scenarios DIR]
//
// Four ways to scan the same items, each run through the real `ScanningEngine`, one target at a
// time, with the default settings (one switch, `scanning: auto`, `autoScanningTime` 1.0 s,
// `pauseOnFirstItem` off, `loops` 4, `tapBehavior: default`):
// - linear: the screen with `groupItems` off (items one by one; the app's combined groups kept);
// - row-column: the same entries cut into spatial rows (the reading order's row rule); each row
//   of two or more entries becomes one combined container `row:<k>` (select enters the row,
//   then the item), a row of one entry stays that entry;
// - ours: `groupItems` on (`AutomaticGrouping`, the structure `ScanSession` scans);
// - bound: min over b of ((b + 1)/2 + 1)·log_b(n) (for Zipf targets, the same with the entropy
//   of the targets in place of log n).
// Steps: every highlight shown counts one (the first highlight of the screen and of each group
// entered included), every select counts one (entering each group, then the item; the item's
// select opens the scanner menu, and the menu is not counted). The simulated user presses select
// at the end of the highlight's step, so the seconds are the engine's virtual time at that press:
// Σ over levels of (position − 1 + 1)·autoScanningTime, plus the time a message is shown when
// the screen starts with one (a summary element's): the user waits it out, since a press then
// only takes it off the display. Every engine count is checked against
// `ScanCost` (the model `switchscan cost` reports).
// Targets: every item equally likely, and Zipf (s = 1) over the items ranked in scan order (the
// first item scanned is the most frequent: scene order, not optimised for frequency).
import AccessibilityModel
import Foundation
import Scanning
import Scenes
import SwitchInput

/// A square grid of `count` keys (44×44 points, ⌈√count⌉ per row): the usual row-column layout.
func gridScreen(keys count: Int, perRow: Int? = nil) -> Screen {
    let side = perRow ?? Int(Double(count).squareRoot().rounded(.up))
    let keys = (0..<count).map { index in
        Element(
            id: "key-\(index)", label: "Key \(index)", traits: .keyboardKey,
            frame: Rect(x: Double(index % side) * 44, y: 100 + Double(index / side) * 44, width: 44, height: 44))
    }
    return Screen(name: "grid", size: Rect(x: 0, y: 0, width: 390, height: 844), elements: keys)
}

/// Steps and seconds to select each item of `structure`, by driving the engine.
struct DrivenCosts {
    /// In the structure's item order.
    var ids: [ElementID]
    var steps: [Int]
    var seconds: [Double]
    /// Items whose engine count differs from ScanCost's (should be none).
    var disagreements: Int
}

func driveEngine(_ structure: [ScanNode], settings: ScanSettings) -> DrivenCosts {
    // The groups on each item's path, to know which entry to select.
    var ancestors = [ElementID: Set<ElementID>]()
    func walk(_ nodes: [ScanNode], path: Set<ElementID>) {
        for node in nodes {
            switch node {
            case .item(let element): ancestors[element.id] = path
            case .group(let element, let children): walk(children, path: path.union([element.id]))
            }
        }
    }
    walk(structure, path: [])
    let items = structure.flatMap(\.items)
    let model = ScanCost.report(structure, settings: settings)
    var result = DrivenCosts(ids: items.map(\.id), steps: [], seconds: [], disagreements: 0)
    for (index, item) in items.enumerated() {
        var engine = ScanningEngine(settings: settings)
        var deadline = 0.0
        var steps = 0
        var done = false
        var pressTime = 0.0
        var timers: [ScanTimer: Double] = [:]
        func absorb(_ actions: [ScanAction]) {
            for action in actions {
                switch action {
                case .highlight(let highlight) where highlight != .none: steps += 1
                case .schedule(let timer, let at):
                    timers[timer] = at
                    if timer == .advance { deadline = at }
                case .cancel(let timer): timers[timer] = nil
                case .menu: done = true
                default: break
                }
            }
        }
        absorb(engine.handle(.structureChanged(ScanStructure(nodes: structure), .initial, time: 0)))
        let path = ancestors[item.id] ?? []
        var guardSteps = 0
        while !done {
            guardSteps += 1
            guard guardSteps < 100_000 else { break }
            // A message on the display (a screen's summary, shown first) is waited out: a press
            // would only take it off the display.
            if engine.flashMessage == nil, case .entry(let node) = engine.highlight,
               node.id == item.id && !node.isGroup || node.isGroup && path.contains(node.id) {
                steps += 1  // the select, at the end of the highlight's step
                pressTime = deadline
                absorb(engine.handle(.began(.select, time: deadline)))
                absorb(engine.handle(.ended(.select, time: deadline)))
                continue
            }
            if engine.highlight == .none { break }  // loops ran out: not reachable (never expected)
            // The earliest timer: the step's, or a message's (a screen's summary is shown first).
            guard let (timer, at) = timers.min(by: { $0.value < $1.value }) else { break }
            timers[timer] = nil
            absorb(engine.handle(.timerFired(timer, time: at)))
        }
        // An item the engine never selected counts the steps it took before giving up (not
        // Int.max, whose sum overflowed): it is a disagreement, reported as such.
        result.steps.append(steps)
        result.seconds.append(done ? pressTime : deadline)
        if !done || steps != model.items[index].autoSelectSteps || model.items[index].id != item.id {
            result.disagreements += 1
        }
    }
    return result
}

struct MethodFigures {
    var meanSteps: Double
    var worstSteps: Int
    var meanSeconds: Double
    var worstSeconds: Double
    var zipfSteps: Double
    var zipfSeconds: Double
}

func figures(_ costs: DrivenCosts, zipf: [ElementID: Double]) -> MethodFigures {
    let n = Double(costs.steps.count)
    var zipfSteps = 0.0, zipfSeconds = 0.0
    for (index, id) in costs.ids.enumerated() {
        let weight = zipf[id] ?? 0
        zipfSteps += weight * Double(costs.steps[index])
        zipfSeconds += weight * costs.seconds[index]
    }
    return MethodFigures(
        meanSteps: Double(costs.steps.reduce(0, +)) / n, worstSteps: costs.steps.max() ?? 0,
        meanSeconds: costs.seconds.reduce(0, +) / n, worstSeconds: costs.seconds.max() ?? 0,
        zipfSteps: zipfSteps, zipfSeconds: zipfSeconds)
}

/// min over b of ((b + 1)/2 + 1)·H/ln b, H the targets' entropy in nats (ln n when uniform).
func entropyBound(_ weights: [Double]) -> Double {
    let entropy = weights.reduce(0) { $0 - ($1 > 0 ? $1 * log($1) : 0) }
    guard entropy > 0 else { return 2 }
    var best = Double.infinity
    for b in 2...64 { best = min(best, (Double(b + 1) / 2 + 1) * entropy / log(Double(b))) }
    return best
}

/// The four methods on one screen.
struct ScreenEfficiency {
    var name: String
    var items: Int
    var linear: MethodFigures
    var rowColumn: MethodFigures
    var ours: MethodFigures
    var bound: Double
    var zipfBound: Double
    var disagreements: Int
    /// The exact optimum's mean steps for this many equally likely items (`ScanOptimum`).
    var optimum: Double
    /// Whether the grouped structure holds groups of the app's own (kept containers, combined
    /// groups), which the optimum is free to cut and the grouping keeps.
    var appGroups: Bool
}

func measureEfficiency(name: String, screen: Screen, settings: ScanSettings) -> ScreenEfficiency {
    let flat = AutomaticGrouping.scanStructure(of: screen, groupItems: false)
    let grouped = AutomaticGrouping.scanStructure(of: screen, groupItems: true)
    let rowColumn = AutomaticGrouping.rowColumnStructure(flat)
    let order = flat.flatMap(\.items).map(\.id)
    let weights = ScanCost.zipfWeights(count: order.count)
    let zipf = Dictionary(uniqueKeysWithValues: zip(order, weights))
    let linearCosts = driveEngine(flat, settings: settings)
    let rowCosts = driveEngine(rowColumn, settings: settings)
    let ourCosts = driveEngine(grouped, settings: settings)
    let disagreeing = linearCosts.disagreements + rowCosts.disagreements + ourCosts.disagreements
    if disagreeing > 0 {
        FileHandle.standardError.write("efficiency: \(name): \(disagreeing) items where the engine and ScanCost disagree\n".data(using: .utf8)!)
    }
    return ScreenEfficiency(
        name: name, items: order.count,
        linear: figures(linearCosts, zipf: zipf), rowColumn: figures(rowCosts, zipf: zipf), ours: figures(ourCosts, zipf: zipf),
        bound: ScanCost.hierarchicalBound(n: order.count), zipfBound: entropyBound(weights),
        disagreements: linearCosts.disagreements + rowCosts.disagreements + ourCosts.disagreements,
        optimum: ScanOptimum.uniformMean(n: order.count), appGroups: hasAppGroups(grouped))
}

/// Whether `nodes` hold a group that is not one of the grouping's own (`auto:`).
func hasAppGroups(_ nodes: [ScanNode]) -> Bool {
    nodes.contains { node in
        guard case .group(let element, let children) = node else { return false }
        return !element.id.hasPrefix("auto:") || hasAppGroups(children)
    }
}

/// Ours (groups that follow the layout) against the exact optimum (`ScanOptimum`, any tree) and
/// row-column scanning for every n of flat square grids: the mean steps to select (acting
/// excluded). Counted from the structures, not timed.
struct OptimumComparison {
    /// ratios[n] for n in 2...maxN (index 0 and 1 unused).
    var ours: [Double]
    var optimum: [Double]
    var rowColumn: [Double]
    var ratios: [Double]
    var worst: Int
}

func compareWithOptimum(upTo maxN: Int, log: (String) -> Void) -> OptimumComparison {
    let table = ScanOptimum.uniformTable(upTo: maxN)
    var result = OptimumComparison(ours: [0, 0], optimum: [0, 0], rowColumn: [0, 0], ratios: [0, 0], worst: 2)
    for n in 2...maxN {
        if n % 512 == 0 { log("efficiency: optimum comparison at n = \(n)") }
        let nodes = gridScreen(keys: n).scanNodes(groupAutomatic: true)
        let ours = AutomaticGrouping.totalSelectSteps(AutomaticGrouping.group(nodes)) / Double(n)
        let optimum = Double(table.totals[n]) / Double(n)
        result.ours.append(ours)
        result.optimum.append(optimum)
        result.rowColumn.append(AutomaticGrouping.totalSelectSteps(AutomaticGrouping.rowColumnStructure(nodes)) / Double(n))
        result.ratios.append(ours / optimum)
        if ours / optimum > result.ratios[result.worst] { result.worst = n }
    }
    return result
}

/// Issue 17, part 2: expected steps to select under Zipf targets (s = 1) for a grid of n keys,
/// with the targets ranked in scene order (the issue's table) or in a shuffled order (the
/// frequent keys anywhere), for linear, row-column, ours without weights, ours with the true
/// weights, ours learnt from a simulated user's 50, 200 and 1,000 selections (counts plus 0.5,
/// `SelectionCounts` with no decay in effect at this length), and the weighted contiguous optimum.
struct LearningRow {
    var n: Int
    var order: String
    var linear: Double, rowColumn: Double, uniform: Double, oracle: Double
    var learnt: [(selections: Int, steps: Double)]
    var optimum: Double
    /// Seconds to group with the true weights (median of 3).
    var weightedTime: Double
}

func measureLearning(n: Int, shuffled: Bool) -> LearningRow {
    let screen = gridScreen(keys: n)
    let flat = AutomaticGrouping.scanStructure(of: screen, groupItems: false)
    let ids = flat.flatMap(\.items).map(\.id)
    var ranked = ids
    var random = SplitMix64(seed: UInt64(n) &* 7919)
    if shuffled {
        for index in stride(from: ranked.count - 1, to: 0, by: -1) {
            ranked.swapAt(index, Int(random.next() % UInt64(index + 1)))
        }
    }
    let zipf = ScanCost.zipfWeights(count: n)
    let truth = Dictionary(uniqueKeysWithValues: zip(ranked, zipf))
    let nodes = screen.scanNodes(groupAutomatic: true)
    func expected(_ structure: [ScanNode]) -> Double { AutomaticGrouping.expectedSelectSteps(structure, weights: truth) }
    var cumulative = [Double](), sum = 0.0
    for weight in zipf { sum += weight; cumulative.append(sum) }
    var counts = SelectionCounts(halfLife: 1e9)
    var learnt = [(selections: Int, steps: Double)]()
    var made = 0
    for target in [50, 200, 1000] {
        while made < target {
            let u = random.unit() * sum
            var low = 0, high = n - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] <= u { low = middle + 1 } else { high = middle }
            }
            counts.record(ranked[low], screen: "grid")
            made += 1
        }
        let weights = counts.weights(screen: "grid", items: ids)
        learnt.append((target, expected(AutomaticGrouping.group(nodes, weights: weights))))
    }
    var times = [Double]()
    for _ in 0..<3 {
        let started = DispatchTime.now().uptimeNanoseconds
        _ = AutomaticGrouping.group(nodes, weights: truth)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
    }
    return LearningRow(
        n: n, order: shuffled ? "shuffled" : "scene order",
        linear: expected(flat), rowColumn: expected(AutomaticGrouping.rowColumnStructure(flat)), uniform: expected(AutomaticGrouping.group(nodes)),
        oracle: expected(AutomaticGrouping.group(nodes, weights: truth)), learnt: learnt,
        optimum: ScanOptimum.weightedContiguousMean(ids.map { truth[$0] ?? 0 }), weightedTime: times.sorted()[1])
}

func runEfficiencyBenchmark(arguments: [String]) {
    let markdown = arguments.contains("--markdown")
    var directory = "Scenarios"
    if let at = arguments.firstIndex(of: "--scenarios"), at + 1 < arguments.count { directory = arguments[at + 1] }
    let settings = ScanSettings()
    let started = DispatchTime.now().uptimeNanoseconds
    func log(_ text: String) { FileHandle.standardError.write((text + "\n").data(using: .utf8)!) }

    // Flat grids.
    var flat = [ScreenEfficiency]()
    for n in [16, 64, 256, 1024] {
        log("efficiency: flat grid of \(n)")
        flat.append(measureEfficiency(name: "\(n)", screen: gridScreen(keys: n), settings: settings))
    }

    // Ours against the exact optimum, every n from 2 to 4096.
    let optimumStarted = DispatchTime.now().uptimeNanoseconds
    let maxN = 4096
    let versus = compareWithOptimum(upTo: maxN, log: log)
    let optimumWall = Double(DispatchTime.now().uptimeNanoseconds - optimumStarted) / 1e9

    // Every screen of every seed scene, with the scene's initial state.
    var seeds = [ScreenEfficiency]()
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".json") }.sorted()
    if files.isEmpty { log("efficiency: no scene files in \(directory) (run from the package root, or give --scenarios DIR)") }
    for file in files {
        let path = directory + "/" + file
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            log("efficiency: cannot read \(path)")
            continue
        }
        let scene: Scene
        do { scene = try SceneParser.parse(yaml: text, file: path) } catch {
            log("efficiency: \(path) did not load: \(error)")
            continue
        }
        for template in scene.screens {
            guard let screen = scene.screen(template.name, state: scene.initialState),
                  !screen.scanItems().isEmpty else { continue }
            let stem = file.split(separator: ".").first.map(String.init) ?? file
            seeds.append(measureEfficiency(name: "\(stem) / \(template.name)", screen: screen, settings: settings))
        }
    }
    let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let disagreements = (flat + seeds).reduce(0) { $0 + $1.disagreements }

    func f(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
    let worstRatio = flat.map { $0.ours.meanSteps / $0.bound }.max() ?? 0
    // Seed screens of 6 or more items (below that, grouping does not pay and every method is linear).
    let larger = seeds.filter { $0.items >= 6 }
    func meanRatio(_ ratio: (ScreenEfficiency) -> Double) -> Double {
        larger.isEmpty ? 0 : larger.map(ratio).reduce(0, +) / Double(larger.count)
    }

    var out = [String]()
    out.append(markdown ? "## Scan efficiency: steps and seconds to select an item" : "switchscan-bench efficiency")
    out.append("")
    out.append("""
        Each item of a screen was selected once by driving the real `ScanningEngine` (one switch, \
        `scanning: auto`, default settings: `autoScanningTime` 1.0 s, `pauseOnFirstItem` off, \
        `loops` 4, `tapBehavior: default`). A step is a highlight shown (the first one of the \
        screen and of each group entered included) or a select (entering each group, then the \
        item, whose select opens the scanner menu; the menu is not counted); the simulated user \
        presses at the end of the highlight's step, so seconds are the virtual time of the final \
        press (a message the screen starts with, a summary element's, is waited out: a press \
        would only take it off the display). Linear: `groupItems` off. Row-column: the same entries cut into spatial rows (the \
        reading order's row rule), each row of two or more entries one combined container, run \
        through the same engine. Ours: `groupItems` on (automatic grouping). Bound: min over b of \
        ((b + 1)/2 + 1)·log_b(n); for Zipf targets the same with the targets' entropy in place \
        of ln n. Zipf (s = 1): the k-th item in scan order is chosen with weight 1/k (scene \
        order, not optimised for frequency). Flat scenes are square grids of 44-point keys \
        (⌈√n⌉ per row); seed scenes are every screen of `Scenarios/` with the initial state. \
        \(disagreements == 0 ? "Every engine count equals `ScanCost`'s model." : "Every engine count equals `ScanCost`'s model except \(disagreements) (an item and a method each), on \((flat + seeds).filter { $0.disagreements > 0 }.map { "`\($0.name)`" }.joined(separator: ", ")) (a defect of the engine, the model or this driver, to find).") One run, \
        \(f(wall, 1)) s of wall time.
        """)
    out.append("")
    out.append("| n | method | mean steps | worst steps | mean s | worst s | Zipf mean steps | Zipf mean s | mean / bound |")
    out.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for screen in flat {
        for (name, m) in [("linear", screen.linear), ("row-column", screen.rowColumn), ("ours", screen.ours)] {
            out.append("| \(screen.items) | \(name) | \(f(m.meanSteps)) | \(m.worstSteps) | \(f(m.meanSeconds)) | \(f(m.worstSeconds, 0)) | \(f(m.zipfSteps)) | \(f(m.zipfSeconds)) | \(f(m.meanSteps / screen.bound, 3)) |")
        }
        out.append("| \(screen.items) | bound | \(f(screen.bound)) | | | | \(f(screen.zipfBound)) | | 1.000 |")
    }
    out.append("")
    out.append("""
        Ours follows the layout: every automatic group is a run of one row (or column) or a \
        block of whole rows, the cheapest such tree. Against the exact optimum (`ScanOptimum`: a \
        dynamic programme over group sizes giving the best tree for this step model, any number \
        of entries per level, groups cutting across rows allowed, every item equally likely, \
        acting excluded) and row-column scanning, the mean steps to select, for every n from 2 \
        to \(maxN) (square grids as above; counted from the structures, \(f(optimumWall, 1)) s of \
        wall time). Worst n: **\(versus.worst)** (\(f(versus.ratios[versus.worst], 4)) × the optimum).
        """)
    out.append("")
    out.append("| n from | to | worst ours / optimum | at n | mean ours / optimum | n with ratio > 1.05 | mean ours / row-column |")
    out.append("|---:|---:|---:|---:|---:|---:|---:|")
    var bandStart = 2
    for bandEnd in [8, 16, 64, 256, 1024, maxN] where bandEnd <= maxN {
        let band = bandStart...bandEnd
        let worstInBand = band.max { versus.ratios[$0] < versus.ratios[$1] }!
        let mean = band.map { versus.ratios[$0] }.reduce(0, +) / Double(band.count)
        let over = band.filter { versus.ratios[$0] > 1.05 + 1e-12 }.count
        let againstRowColumn = band.map { versus.ours[$0] / versus.rowColumn[$0] }.reduce(0, +) / Double(band.count)
        out.append("| \(bandStart) | \(bandEnd) | \(f(versus.ratios[worstInBand], 4)) | \(worstInBand) | \(f(mean, 4)) | \(over) | \(f(againstRowColumn, 4)) |")
        bandStart = bandEnd + 1
    }
    out.append("")
    out.append("| n | ours | optimum | ours / optimum | row-column |")
    out.append("|---:|---:|---:|---:|---:|")
    for n in [7, 16, 30, 31, 64, 100, 256, 1000, 1024, 4096] where n <= maxN {
        out.append("| \(n) | \(f(versus.ours[n], 3)) | \(f(versus.optimum[n], 3)) | \(f(versus.ratios[n], 4)) | \(f(versus.rowColumn[n], 3)) |")
    }
    let optimumMet = versus.ratios[2...].allSatisfy { $0 <= 1.05 + 1e-12 }
    let rowColumnBeaten = (2...maxN).allSatisfy { versus.ours[$0] <= versus.rowColumn[$0] + 1e-12 }
    out.append("")
    out.append("Goal groups that follow the layout within 1.05 × the exact optimum at every n from 2 to \(maxN): \(optimumMet ? "met" : "missed") (worst \(f(versus.ratios[versus.worst], 4)) at n = \(versus.worst)); never above row-column: \(rowColumnBeaten ? "met" : "missed").")
    if arguments.contains("--every-n") {
        out.append("")
        out.append("| n | ours | optimum | ours / optimum | row-column |")
        out.append("|---:|---:|---:|---:|---:|")
        for n in 2...maxN { out.append("| \(n) | \(f(versus.ours[n], 4)) | \(f(versus.optimum[n], 4)) | \(f(versus.ratios[n], 4)) | \(f(versus.rowColumn[n], 4)) |") }
    }
    out.append("")
    out.append("Seed scenes (mean steps, worst in brackets; Zipf means; seconds for ours):")
    out.append("")
    out.append("| scene / screen | n | linear | row-column | ours | ours: mean s (worst) | bound | ours / bound | optimum | ours / optimum | Zipf: linear | Zipf: row-column | Zipf: ours |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for s in seeds {
        out.append("| \(s.name)\(s.appGroups ? " ¹" : "") | \(s.items) | \(f(s.linear.meanSteps)) (\(s.linear.worstSteps)) | \(f(s.rowColumn.meanSteps)) (\(s.rowColumn.worstSteps)) | \(f(s.ours.meanSteps)) (\(s.ours.worstSteps)) | \(f(s.ours.meanSeconds)) (\(f(s.ours.worstSeconds, 0))) | \(f(s.bound)) | \(f(s.ours.meanSteps / s.bound, 3)) | \(f(s.optimum)) | \(f(s.ours.meanSteps / s.optimum, 3)) | \(f(s.linear.zipfSteps)) | \(f(s.rowColumn.zipfSteps)) | \(f(s.ours.zipfSteps)) |")
    }
    out.append("")
    out.append("¹ The screen holds groups of the app's own (containers the grouping keeps as the seeds require, or combined groups), which the optimum is free to cut.")
    // Mean steps are rounded to 2 decimals in the table; the ratio here is from the counts.
    let seedsOver = seeds.filter { $0.ours.meanSteps > 1.05 * $0.optimum + 1e-9 }
    let freeOver = seedsOver.filter { !$0.appGroups }
    let seedRatios = seeds.map { $0.ours.meanSteps / $0.optimum }
    let worstSeed = seeds.max { $0.ours.meanSteps / $0.optimum < $1.ours.meanSteps / $1.optimum }
    out.append("")
    out.append("Seed screens, ours / optimum: median \(f((seedRatios.isEmpty ? 0 : median(seedRatios)), 4)), worst \(f(seedRatios.max() ?? 0, 4))\(worstSeed.map { " (\($0.name))" } ?? ""); ours / row-column: median \(f((seeds.isEmpty ? 0 : median(seeds.map { $0.ours.meanSteps / $0.rowColumn.meanSteps })), 4)), worst \(f(seeds.map { $0.ours.meanSteps / $0.rowColumn.meanSteps }.max() ?? 0, 4)).")
    out.append("")
    out.append("Seed screens above 1.05 × the optimum: \(seedsOver.count) of \(seeds.count) (\(seedsOver.map(\.name).joined(separator: ", "))); of those without groups of the app's own: \(freeOver.count)\(freeOver.isEmpty ? "" : " (" + freeOver.map(\.name).joined(separator: ", ") + ")").")
    out.append("")
    // Learning what the user picks (issue 17, part 2).
    let learningStarted = DispatchTime.now().uptimeNanoseconds
    var learning = [LearningRow]()
    for n in [16, 64, 256, 1024] {
        log("efficiency: learning, n = \(n)")
        learning.append(measureLearning(n: n, shuffled: false))
        learning.append(measureLearning(n: n, shuffled: true))
    }
    let learningWall = Double(DispatchTime.now().uptimeNanoseconds - learningStarted) / 1e9
    out.append("")
    out.append("""
        Learning what the user picks (issue 17, part 2): expected steps to select (acting \
        excluded) when key k of the ranking is chosen with weight 1/k (Zipf, s = 1), the ranking \
        being the scene order or a shuffled order (seeded). Ours: `groupItems` with equal weights; \
        weighted: `AutomaticGrouping.group(_:weights:)` with the true weights; learnt: with the \
        counts of a simulated user's first 50, 200 and 1,000 selections drawn from the same \
        distribution (seeded), plus 0.5 each. Optimum: the weighted contiguous optimum \
        (`ScanOptimum.weightedContiguousMean`, every tree keeping reading order). \
        \(f(learningWall, 1)) s of wall time.
        """)
    out.append("")
    out.append("| n | ranking | linear | row-column | ours | learnt 50 | learnt 200 | learnt 1000 | weighted | optimum | weighted / optimum | learnt 1000 / optimum | weighted: time |")
    out.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in learning {
        let learnt = row.learnt.map { f($0.steps) }
        out.append("| \(row.n) | \(row.order) | \(f(row.linear)) | \(f(row.rowColumn)) | \(f(row.uniform)) | \(learnt.joined(separator: " | ")) | \(f(row.oracle)) | \(f(row.optimum)) | \(f(row.oracle / row.optimum, 3)) | \(f(row.learnt.last!.steps / row.optimum, 3)) | \(f(row.weightedTime * 1000, 1)) ms |")
    }
    let weightedMet = learning.allSatisfy { $0.oracle <= 1.05 * $0.optimum && $0.oracle < $0.rowColumn && $0.oracle < $0.linear }
    out.append("")
    out.append("Target weighted grouping within 1.05 × the weighted optimum and better than row-column and linear at every n above: \(weightedMet ? "met" : "missed") (worst \(f(learning.map { $0.oracle / $0.optimum }.max() ?? 0, 3)) × the optimum).")

    let met = worstRatio <= 1.15
    out.append("Target automatic grouping within 1.15 × the bound (flat scenes, equally likely targets): \(met ? "met" : "missed") (at most \(f(worstRatio, 3)) × the bound, n = 16 to 1024)\(met ? "." : ": the grouping's levels are constrained by rows.")")
    out.append("")
    out.append("On the \(larger.count) seed screens of 6 or more items (at most \(seeds.map(\.items).max() ?? 0), constrained by the apps' own containers), ours takes on average \(f(meanRatio { $0.ours.meanSteps / $0.linear.meanSteps }, 3)) × linear's and \(f(meanRatio { $0.ours.meanSteps / $0.rowColumn.meanSteps }, 3)) × row-column's mean steps, and \(f(meanRatio { $0.ours.meanSteps / $0.bound }, 3)) × the bound.")
    print(out.joined(separator: "\n"))
}
