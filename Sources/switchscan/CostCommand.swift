import AccessibilityModel
import ArgumentParser
import Foundation
import Runtime
import Scanning
import Scenes

struct CostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cost",
        abstract: "Report the steps and seconds to reach and act on every item of a screen.",
        discussion: """
            For each item, in scan order (after automatic grouping when groupItems is on): the \
            steps and seconds to reach it from the start of the scan and act on it, with one \
            switch auto scanning and with two switches scanning manually (next and select), then \
            the mean (every item equally likely) and the worst.

            Conventions: on every level the highlight starts on the first entry, which counts as \
            step 1. Auto: each highlight step lasts autoScanningTime (plus pauseOnFirstItem on a \
            level's first entry); each select (entering a group, then the item) is one more step \
            and takes no time of its own. Manual: steps are presses (moving to entry p takes p - 1 \
            nexts, then a select); seconds are presses times --press-interval. Acting: with \
            tapBehavior default the menu opens on Tap (auto: 2 more steps, one highlight time; \
            manual: 1 more press); autoTap waits autoTapTime; alwaysTap acts on the select. \
            See docs/automatic-grouping.md.
            """)

    @Argument(help: "The scene file.", completion: Completions.scenes)
    var scene: String

    @Option(help: "The screen to report (default: the scene's start screen).")
    var screen: String?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Set a scanning setting by its name (repeatable): numbers in seconds, true/false, off, or a choice name.",
        valueName: "name=value"), completion: Completions.settingAssignments)
    var settingOverrides: [String] = []

    @Option(name: .customLong("state"), help: ArgumentHelp("Override a state value (repeatable).", valueName: "name=value"))
    var stateOverrides: [String] = []

    @Option(help: ArgumentHelp("Seconds per press when scanning manually.", valueName: "seconds"))
    var pressInterval: Double = ScanCost.defaultPressInterval

    @Flag(help: ArgumentHelp(
        "Arrange and weigh the screen as switchscan run does with the selections it learnt here (learnSelections).",
        discussion: "The selections run stored for this scene file and screen ($XDG_STATE_HOME/switchscan/selections.tsv): the grouping made for them (orderByFrequency as set), and a learnt mean, each item weighing its count plus 0.5. Without selections for the screen: the plain grouping, and a note saying so."))
    var learned = false

    @Flag(help: "Print JSON: the settings, every item's costs, the mean and the worst (and the learnt mean with --learned).")
    var json = false

    func run() throws {
        let scene: Scene
        switch SceneFiles.load(self.scene) {
        case .success(let loaded): scene = loaded
        case .failure(let error):
            for problem in error.problems { printError(problem.description) }
            throw ExitCode.unloadable
        }
        guard pressInterval > 0, pressInterval <= 3600 else {
            throw ValidationError("--press-interval: expected a number of seconds above 0 and at most 3600; found \(pressInterval)")
        }
        let settings = try SettingOverrides.settings(from: settingOverrides)
        let name = screen ?? scene.start
        var state = scene.initialState
        for override in stateOverrides {
            let (key, value) = try InspectCommand().parseOverride(override, scene: scene)
            state[key] = value
        }
        guard let resolved = scene.screen(name, state: state) else {
            throw ValidationError("scene '\(scene.title)' has no screen '\(name)'; its screens are: \(scene.screens.map(\.name).joined(separator: ", "))")
        }
        var weights: LearnedWeights?
        var learnedNote: String?
        if learned {
            (weights, learnedNote) = try learnedWeights(scene: scene, screen: name, settings: settings)
        }
        let report = ScanCost.report(ScanStructure.of(resolved, groupItems: settings.groupItems, learned: weights).nodes,
                                     settings: settings, pressInterval: pressInterval)
        let learnedMean = weights.map { weights in report.weightedMean(report.items.map { weights.weight(of: $0.id) }) }
        let comparison = ScanCost.comparison(for: resolved)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            var document = CostJSON(scene: scene.title, file: self.scene, screen: name, report: report)
            document.learnedMean = learnedMean
            document.comparison = comparison
            document.learned = learned ? (learnedNote ?? "selections learnt for this screen") : nil
            print(String(decoding: try encoder.encode(document), as: UTF8.self))
        } else {
            print(CostText.render(scene: scene, screen: name, report: report, learnedMean: learnedMean, learnedNote: learnedNote,
                                  comparison: comparison))
        }
    }

    /// The weights `run` would arrange this screen with: its selections in the store, under the
    /// scene file's scope. Nil (and a note) when there are none; a store that cannot be read is
    /// an input that does not load (exit status 2).
    private func learnedWeights(scene: Scene, screen: String, settings: ScanSettings) throws -> (LearnedWeights?, String?) {
        let environment = ProcessInfo.processInfo.environment
        guard let path = SelectionStore.defaultPath(environment: environment) else {
            return (nil, "no state folder (neither XDG_STATE_HOME nor HOME is usable): no selections to read; equal weights")
        }
        let store = SelectionStore(path: path)
        let counts: SelectionCounts
        switch store.load() {
        case .success(let loaded):
            counts = loaded.counts
            // Lines skipped do not stop the report: said, and the others are used.
            if let skipped = loaded.skipped { printError(skipped.description) }
        case .failure(let problem):
            // The problem names the file itself.
            printError(problem.description)
            throw ExitCode.unloadable
        }
        let key = ScanSession.selectionKey(scope: selectionScope(of: scene, given: self.scene), screen: screen)
        guard let screenCounts = counts.counts(screen: key), !screenCounts.isEmpty else {
            return (nil, "no selections learnt for this screen in \(path); equal weights")
        }
        let total = screenCounts.values.reduce(0, +)
        return (LearnedWeights(counts: screenCounts, orderByFrequency: settings.orderByFrequency),
                "\(screenCounts.count) item\(screenCounts.count == 1 ? "" : "s") selected here before (decayed total \(formatCost(total))), from \(path)")
    }
}

/// Numbers as the report prints them: up to two decimals, without needless zeros.
func formatCost(_ value: Double) -> String {
    var text = String(format: "%.2f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

/// The text report: a table, then the mean and the worst.
enum CostText {
    static func render(scene: Scene, screen: String, report: ScanCost.Report, learnedMean: ScanCost.Figures? = nil,
                       learnedNote: String? = nil, comparison: ScanCost.Comparison? = nil) -> String {
        let settings = report.settings
        func seconds(_ value: Double?) -> String { value.map { "\(formatCost($0)) s" } ?? "off" }
        var lines = [
            "\(scene.title) — screen \(screen): \(report.items.count) items, groupItems \(settings.groupItems ? "on" : "off"), tapBehavior \(settings.tapBehavior.rawValue)\(settings.tapBehavior == .autoTap ? " (autoTapTime \(seconds(settings.autoTapTime)))" : "")",
            "auto: one switch, autoScanningTime \(seconds(settings.autoScanningTime)), pauseOnFirstItem \(seconds(settings.pauseOnFirstItem)); manual: two switches (next, select), \(seconds(report.pressInterval)) per press",
            "steps to reach and act from the start of the scan; the first highlight of a level counts as step 1",
            "",
        ]
        let header = ["position", "id", "label", "auto steps", "auto s", "manual steps", "manual s"]
        var rows = report.items.map { item in
            [item.positionText, item.id + (item.isEnabled ? "" : " (dimmed)"), item.label ?? "", String(item.autoSteps),
             formatCost(item.autoSeconds), String(item.manualSteps), formatCost(item.manualSeconds)]
        }
        let mean = report.mean, worst = report.worst
        var summary = [
            ["mean", "", "", formatCost(mean.autoSteps), formatCost(mean.autoSeconds), formatCost(mean.manualSteps), formatCost(mean.manualSeconds)],
            ["worst", report.worstItem()?.id ?? "", "", formatCost(worst.autoSteps), formatCost(worst.autoSeconds), formatCost(worst.manualSteps), formatCost(worst.manualSeconds)],
        ]
        if let learnedMean {
            // Each item weighing what was learnt: the cost of this user's typical selection.
            summary.append(["learnt mean", "", "", formatCost(learnedMean.autoSteps), formatCost(learnedMean.autoSeconds),
                            formatCost(learnedMean.manualSteps), formatCost(learnedMean.manualSeconds)])
        }
        rows += summary
        var widths = header.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        widths[2] = min(widths[2], 40)
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let shown = cell.count > widths[index] ? String(cell.prefix(widths[index] - 1)) + "…" : cell
                let padding = String(repeating: " ", count: max(0, widths[index] - shown.count))
                return index < 3 ? shown + padding : padding + shown  // numbers right-aligned
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        if let learnedNote { lines.insert("learnt selections: \(learnedNote)", at: 3) }
        lines.append(line(header))
        for row in rows.dropLast(summary.count) { lines.append(line(row)) }
        lines.append(line(widths.map { String(repeating: "-", count: $0) }))
        for row in summary { lines.append(line(row)) }
        if let comparison, comparison.optimum > 0 {
            // The steps to select, acting excluded: what the grouping minimises.
            let ours = report.mean.autoSelectSteps
            lines.append("")
            lines.append("mean steps to select (acting excluded): \(settings.groupItems ? "these groups" : "this structure") \(formatCost(ours)); "
                + "the optimum over every tree \(formatCost(comparison.optimum)) (\(String(format: "%.3f", ours / comparison.optimum)) ×); "
                + "row-column scanning \(formatCost(comparison.rowColumn))")
        }
        return lines.joined(separator: "\n")
    }
}

/// The JSON report.
struct CostJSON: Encodable {
    var scene: String
    var file: String
    var screen: String
    var settings: Settings
    var pressInterval: Double
    var items: [ScanCost.ItemCost]
    var mean: ScanCost.Figures
    var worst: ScanCost.Figures
    /// The first item with the most auto steps.
    var worstItem: String?
    /// With --learned: the mean with each item weighing its learnt count + 0.5 (nil: none learnt).
    var learnedMean: ScanCost.Figures?
    /// With --learned: what was learnt, or why nothing was.
    var learned: String?
    /// The optimum over every tree and row-column scanning, in mean steps to select.
    var comparison: ScanCost.Comparison?

    init(scene: String, file: String, screen: String, report: ScanCost.Report) {
        self.scene = scene
        self.file = file
        self.screen = screen
        let settings = report.settings
        self.settings = Settings(
            groupItems: settings.groupItems, autoScanningTime: settings.autoScanningTime,
            pauseOnFirstItem: settings.pauseOnFirstItem, tapBehavior: settings.tapBehavior.rawValue,
            autoTapTime: settings.autoTapTime)
        pressInterval = report.pressInterval
        items = report.items
        mean = report.mean
        worst = report.worst
        worstItem = report.worstItem()?.id
    }

    struct Settings: Encodable {
        var groupItems: Bool
        var autoScanningTime: Double
        var pauseOnFirstItem: Double?
        var tapBehavior: String
        var autoTapTime: Double

        enum CodingKeys: String, CodingKey { case groupItems, autoScanningTime, pauseOnFirstItem, tapBehavior, autoTapTime }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(groupItems, forKey: .groupItems)
            try container.encode(autoScanningTime, forKey: .autoScanningTime)
            try container.encode(pauseOnFirstItem, forKey: .pauseOnFirstItem)  // null when off
            try container.encode(tapBehavior, forKey: .tapBehavior)
            try container.encode(autoTapTime, forKey: .autoTapTime)
        }
    }
}
