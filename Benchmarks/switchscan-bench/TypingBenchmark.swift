// Typing with the scanning keyboard (issue 27): a held-out English text (Benchmarks/texts,
// not presage's training text) typed by a user who makes no mistakes, with one switch at the
// default settings (auto scanning, rows entered then keys, keys typed on their select): scan
// steps per character, and the keystrokes prediction saves, beside a QWERTY keyboard scanned
// row by row and column by column (as Onboard scans it) and without prediction.
import AccessibilityModel
import DeviceProfiles
import Foundation
import Runtime
import Scanning
import Platform

/// A text field of its own for the benchmark: it takes every edit, and is read back from itself.
struct BenchTextField: TextEntryTarget {
    var text = FieldText(text: "")
    static let fieldID: ElementID = "field"

    var title: String { "typing benchmark" }
    var screenName: String { "field" }
    var size: (width: Double, height: Double) { (390, 844) }
    var language: String { "en" }
    func currentStructure(groupItems: Bool) -> ScanStructure { ScanStructure(nodes: []) }
    mutating func rebuildStructure(groupItems: Bool) -> ScanStructure { ScanStructure(nodes: []) }
    mutating func perform(_ command: ElementCommand, on element: Element?) -> ContentUpdate? { nil }
    func isTextField(_ element: Element) -> Bool { element.id == Self.fieldID }
    func fieldText(of field: ElementID) -> FieldText? { field == Self.fieldID ? text : nil }
    mutating func apply(_ edit: TextEdit, to field: ElementID) -> FieldText? {
        guard field == Self.fieldID else { return nil }
        text = text.applying(edit)
        return text
    }
}

struct TypingRun {
    var name: String
    var characters = 0
    var selections = 0
    var wordsChosen = 0
    var steps = 0
    var seconds = 0.0
    var stepsPerCharacter: Double { Double(steps) / Double(max(characters, 1)) }
    var secondsPerCharacter: Double { seconds / Double(max(characters, 1)) }
}

/// Types `text` on `layout` (without its prediction row when `predictor` is nil) as a perfect
/// one-switch user: every selection costs the steps ScanCost gives its key on the keyboard as
/// it is at that moment (the scan restarts at the top after each key, `focusedItemAfterTap`'s
/// default).
func typeText(_ text: String, layout: KeyboardLayout, predictor: (any WordPredicting)?, name: String) throws -> TypingRun {
    var layout = layout
    if predictor == nil { layout.rows.removeAll { $0 == .predictions } }
    let settings = ScanSettings()
    var keyboard = KeyboardContent(
        over: BenchTextField(), field: Element(id: BenchTextField.fieldID, label: "field"),
        offer: KeyboardOffer(layout: layout, predictor: predictor))
    var run = TypingRun(name: name, characters: text.count)
    let limit = text.count * 10
    while let choice = try PerfectTypist.nextChoice(toType: text, on: keyboard) {
        guard run.selections < limit else { throw PerfectTypist.Unreachable(message: "\(name): no end after \(limit) selections") }
        let structure = keyboard.currentStructure(groupItems: settings.groupItems)
        guard let id = keyboard.elementID(of: choice),
              let cost = ScanCost.report(structure.nodes, settings: settings).items.first(where: { $0.id == id }) else {
            throw PerfectTypist.Unreachable(message: "\(name): \(choice) is not on the keyboard")
        }
        run.selections += 1
        run.steps += cost.autoSelectSteps
        // Keys are typed on select: no scanner menu's time after it.
        run.seconds += Double(cost.positions.reduce(0, +)) * settings.autoScanningTime
            + Double(cost.positions.count) * (settings.pauseOnFirstItem ?? 0)
        if case .word = choice { run.wordsChosen += 1 }
        _ = keyboard.make(choice)
    }
    guard PerfectTypist.isDone(keyboard.fieldText.text, typing: text) else {
        throw PerfectTypist.Unreachable(message: "\(name): the field holds something else than the text")
    }
    return run
}

func runTypingBenchmark(arguments: [String]) {
    let markdown = arguments.contains("--markdown")
    let textFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("texts/held-out-english.txt").path
    guard let raw = try? String(contentsOfFile: textFile, encoding: .utf8) else {
        FileHandle.standardError.write(Data("typing: cannot read \(textFile)\n".utf8))
        CurrentProcess.exit(2)
    }
    let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    let layouts = KeyboardLayouts(folders: ShippedData.directory(.keyboards).map { [$0.path] } ?? [])
    for problem in layouts.problems { FileHandle.standardError.write(Data("typing: \(problem)\n".utf8)) }
    guard let frequency = layouts.layout(named: "english-frequency"), let qwerty = layouts.layout(named: "qwerty") else {
        FileHandle.standardError.write(Data("typing: the shipped english-frequency and qwerty layouts are needed\n".utf8))
        CurrentProcess.exit(2)
    }
    let runs: [TypingRun]
    do {
        // No learning: the benchmark must not train presage on the text it measures.
        let presage = try PresagePrediction(stateFolder: nil, learnsWhileTyping: false)
        runs = [
            try typeText(text, layout: frequency, predictor: presage, name: "English by frequency, with prediction (the default)"),
            try typeText(text, layout: frequency, predictor: nil, name: "English by frequency, no prediction"),
            try typeText(text, layout: qwerty, predictor: presage, name: "QWERTY row-column, with prediction"),
            try typeText(text, layout: qwerty, predictor: nil, name: "QWERTY row-column, no prediction (as Onboard)"),
        ]
    } catch {
        FileHandle.standardError.write(Data("typing: \(error)\n".utf8))
        CurrentProcess.exit(1)
    }
    let fewerSteps = 1 - runs[0].stepsPerCharacter / runs[3].stepsPerCharacter
    let savings = 1 - Double(runs[0].selections) / Double(runs[1].selections)
    let perCharacter = 1 - Double(runs[0].selections) / Double(runs[0].characters)
    func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
    if markdown {
        print("## typing: the scanning keyboard\n")
        print("\(text.count) characters of held-out English (`Benchmarks/texts/held-out-english.txt`: the Declaration of Independence's opening and the Gettysburg Address, public domain; presage's English model is trained on another text), typed by a user who makes no mistakes with one switch at the default settings (auto scanning, 1 s a step; rows entered, then keys; keys typed on select). Steps are highlight steps and selects, as `switchscan cost` counts them.\n")
        print("| keyboard | selections | words chosen | steps | steps per character | seconds per character |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for run in runs {
            print("| \(run.name) | \(run.selections) | \(run.wordsChosen) | \(run.steps) | \(String(format: "%.2f", run.stepsPerCharacter)) | \(String(format: "%.2f", run.secondsPerCharacter)) |")
        }
        print("")
        print("**Target** at least 30 % fewer steps per character than row-column QWERTY without prediction: \(percent(fewerSteps)) fewer (\(fewerSteps >= 0.30 ? "met" : "not met")).")
        print("**Target** at least 35 % keystroke savings from prediction (selections with prediction against the same keyboard without): \(percent(savings)) (\(savings >= 0.35 ? "met" : "not met")); against one selection a character: \(percent(perCharacter)).")
    } else {
        print("typing \(text.count) characters of held-out English, one switch, default settings:")
        for run in runs {
            print("  \(run.name): \(run.selections) selections (\(run.wordsChosen) words), \(run.steps) steps, \(String(format: "%.2f", run.stepsPerCharacter)) steps/character, \(String(format: "%.2f", run.secondsPerCharacter)) s/character")
        }
        print("  steps per character: \(percent(fewerSteps)) fewer than row-column QWERTY without prediction (target 30 %)")
        print("  keystroke savings of prediction: \(percent(savings)) (target 35 %); \(percent(perCharacter)) against one selection per character")
    }
}
