// Benchmarks: each subcommand prints figures (with `--markdown`, one section for
// PERFORMANCE.md on stdout; progress on stderr) and asserts nothing about speed.
//
//   swift build -c release --product switchscan-bench
//   switchscan-bench efficiency [--markdown] [--every-n]   steps and seconds to select an item; ours / the exact optimum for n = 2…4096 (Efficiency.swift)
//   switchscan-bench scale [--markdown]        load, order, group and layoutChanged rebuilds at 1k–100k (Scale.swift)
//   switchscan-bench events [--markdown]       handling one switch event on a 10,000-item scene (EventLatency.swift)
//   switchscan-bench input [--markdown]        input events per second, and event timestamp → action (InputBenchmark.swift)
//   switchscan-bench braille [--markdown]      highlight → BrlAPI write, BRLTTY and an emulated display (BrailleLatency.swift)
//   switchscan-bench latency [--markdown] [--rounds N] [--keep]  switch event → BrlAPI write, switchscan run against a C reference (Latency.swift)
//   switchscan-bench idle [--markdown]         CPU and wake-ups of switchscan run, auto-scanning and stopped (Idle.swift)
//   switchscan-bench validate-memory [--markdown]  peak memory of switchscan validate on inputs under 1 MB (ValidateMemory.swift)
//   switchscan-bench live [--markdown]         a 10,000-object GTK window: first highlight, one change event, peak memory, against pyatspi (LiveBenchmark.swift)
//   switchscan-bench orca [--only APP]        what the real Orca says and brailles beside our braille line, same widgets (OrcaCompare.swift)
import AccessibilityModel
import Foundation
import Scenes
import Platform


/// A scene with about `count` elements: containers of 100 buttons (10 rows of 10), each container
/// keeping its children together, every button with a label bound to `unread`, two traits, a
/// frame and a hint. Above them, a row of controls whose effects post `layoutChanged` (what the
/// scale benchmark presses): `add-one` changes the value one label reads (`status`),
/// `show-details` shows or hides one element, `mark-read` changes the value every key's label
/// reads.
func generateScene(elements count: Int) -> (text: String, elements: Int) {
    var lines = [
        "scene: Generated \(count)", "size: [390, 844]", "state:", "  unread: 3", "  count: 0", "  details: false",
        "start: main", "screens:", "  main:", "    elements:",
    ]
    for control in generatedControls { lines.append("      - " + control.yaml) }
    let perContainer = 100
    let containers = max(1, (count + 50) / (perContainer + 1))
    var total = generatedControls.count
    for c in 0..<containers {
        let top = 100 + Double(c) * 440
        lines.append("      - id: box-\(c)")
        lines.append("        shouldGroupAccessibilityChildren: true")
        lines.append("        elements:")
        total += 1
        for i in 0..<perContainer {
            let x = Double(i % 10) * 39, y = top + Double(i / 10) * 44
            lines.append("          - {id: b-\(c)-\(i), label: \"Key \(i) of \(c) ({unread})\", hint: \"Inserts the key.\", traits: [button, keyboardKey], frame: [\(x), \(y), 39, 44]}")
            total += 1
        }
    }
    return (lines.joined(separator: "\n") + "\n", total)
}

/// The controls above the keys, as YAML flow mappings and as JSON objects.
let generatedControls: [(yaml: String, json: String)] = [
    ("{id: status, label: \"Count {count}\", frame: [0, 0, 97, 44]}",
     "{\"id\": \"status\", \"label\": \"Count {count}\", \"frame\": [0, 0, 97, 44]}"),
    ("{id: add-one, label: Add one, traits: [button], frame: [97, 0, 97, 44], activate: [{add: {count: 1}}, {post: {notification: layoutChanged}}]}",
     "{\"id\": \"add-one\", \"label\": \"Add one\", \"traits\": [\"button\"], \"frame\": [97, 0, 97, 44], \"activate\": [{\"add\": {\"count\": 1}}, {\"post\": {\"notification\": \"layoutChanged\"}}]}"),
    ("{id: show-details, label: Details, traits: [button], frame: [194, 0, 97, 44], activate: [{toggle: details}, {post: {notification: layoutChanged}}]}",
     "{\"id\": \"show-details\", \"label\": \"Details\", \"traits\": [\"button\"], \"frame\": [194, 0, 97, 44], \"activate\": [{\"toggle\": \"details\"}, {\"post\": {\"notification\": \"layoutChanged\"}}]}"),
    ("{id: mark-read, label: Mark read, traits: [button], frame: [291, 0, 97, 44], activate: [{add: {unread: 1}}, {post: {notification: layoutChanged}}]}",
     "{\"id\": \"mark-read\", \"label\": \"Mark read\", \"traits\": [\"button\"], \"frame\": [291, 0, 97, 44], \"activate\": [{\"add\": {\"unread\": 1}}, {\"post\": {\"notification\": \"layoutChanged\"}}]}"),
    ("{id: details, label: Details shown, visible: details, frame: [0, 50, 390, 44]}",
     "{\"id\": \"details\", \"label\": \"Details shown\", \"visible\": \"details\", \"frame\": [0, 50, 390, 44]}"),
]

/// The same scene as JSON, the usual form of generated files (read by the JSON fast path).
func generateJSONScene(elements count: Int) -> String {
    let perContainer = 100
    let containers = max(1, (count + 50) / (perContainer + 1))
    var boxes = generatedControls.map(\.json)
    boxes.reserveCapacity(containers + boxes.count)
    for c in 0..<containers {
        let top = 100 + Double(c) * 440
        var buttons = [String]()
        buttons.reserveCapacity(perContainer)
        for i in 0..<perContainer {
            let x = Double(i % 10) * 39, y = top + Double(i / 10) * 44
            buttons.append("{\"id\": \"b-\(c)-\(i)\", \"label\": \"Key \(i) of \(c) ({unread})\", \"hint\": \"Inserts the key.\", \"traits\": [\"button\", \"keyboardKey\"], \"frame\": [\(x), \(y), 39, 44]}")
        }
        boxes.append("{\"id\": \"box-\(c)\", \"shouldGroupAccessibilityChildren\": true, \"elements\": [\n" + buttons.joined(separator: ",\n") + "]}")
    }
    return "{\"scene\": \"Generated \(count)\", \"size\": [390, 844], \"state\": {\"unread\": 3, \"count\": 0, \"details\": false}, \"start\": \"main\",\n\"screens\": {\"main\": {\"elements\": [\n" + boxes.joined(separator: ",\n") + "]}}}\n"
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Peak resident set size (VmHWM) in bytes; `resetPeak` starts a new peak from the current size.
func peakResidentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }
    return 0
}

func currentResidentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1024
    }
    return 0
}

func resetPeak() {
    // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux 4.0+).
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

// Last: globals of main.swift are set in order, so the dispatch runs after all of them.
let benchArguments = Array(CommandLine.arguments.dropFirst())
switch benchArguments.first {
case "efficiency", "grouping": runEfficiencyBenchmark(arguments: benchArguments)
case "scale": runScaleBenchmark(arguments: benchArguments)
case "scale-child": runScaleChild(arguments: benchArguments)
case "events": runEventBenchmark(arguments: benchArguments)
case "input": runInputBenchmark(arguments: Array(benchArguments.dropFirst()))
case "braille": runBrailleBenchmark(arguments: Array(benchArguments.dropFirst()))
case "latency": runLatencyBenchmark(arguments: Array(benchArguments.dropFirst()))
case "idle": runIdleBenchmark(arguments: Array(benchArguments.dropFirst()))
case "validate-memory": runValidateMemoryBenchmark(arguments: Array(benchArguments.dropFirst()))
case "validate-memory-child": runValidateMemoryChild(arguments: Array(benchArguments.dropFirst()))
case "import": runImportBenchmark(arguments: Array(benchArguments.dropFirst()))
case "live": runLiveBenchmark(arguments: Array(benchArguments.dropFirst()))
case "live-browser": runLiveBrowserBenchmark(arguments: Array(benchArguments.dropFirst()))
case "typing": runTypingBenchmark(arguments: Array(benchArguments.dropFirst()))
case "orca": runOrcaComparison(arguments: Array(benchArguments.dropFirst()))
default:
    FileHandle.standardError.write("usage: switchscan-bench efficiency|scale|events|input|braille|latency|idle|validate-memory|import|live|live-browser|typing|orca [--markdown]\n".data(using: .utf8)!)
    CurrentProcess.exit(2)
}
CurrentProcess.exit(0)
