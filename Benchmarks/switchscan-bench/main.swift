// Benchmarks for the model and scene loader. Prints figures; asserts nothing about speed.
//
//   swift run -c release switchscan-bench [elements] [runs] [yaml|json]
//   swift run -c release switchscan-bench grouping   (automatic grouping against linear and the bound)
//   swift run -c release switchscan-bench events     (handling one switch event on a 10,000-item scene)
//   swift run -c release switchscan-bench braille    (highlight → BrlAPI write, BRLTTY and an emulated display)
//   switchscan-bench latency  (switch event → BrlAPI write, switchscan run against a C reference)
//   switchscan-bench idle     (CPU and wake-ups of switchscan run, auto-scanning and stopped)
//
// Scale: a generated scene of `elements` elements (default 100,000): rows of buttons grouped in
// containers, with labels, traits, frames and a binding. Reports medians over `runs` runs of
// parsing (YAML → templates), resolving the start screen and computing the scan order, and the
// peak resident memory added by one load-and-order, per element.
import AccessibilityModel
import Foundation
import Scenes

if CommandLine.arguments.dropFirst().first == "grouping" { runGroupingBenchmark(); exit(0) }
if CommandLine.arguments.dropFirst().first == "events" { runEventBenchmark(); exit(0) }
if CommandLine.arguments.dropFirst().first == "braille" { runBrailleBenchmark(arguments: Array(CommandLine.arguments.dropFirst(2))); exit(0) }
if CommandLine.arguments.dropFirst().first == "latency" { runLatencyBenchmark(arguments: Array(CommandLine.arguments.dropFirst(2))); exit(0) }
if CommandLine.arguments.dropFirst().first == "idle" { runIdleBenchmark(arguments: Array(CommandLine.arguments.dropFirst(2))); exit(0) }

let arguments = CommandLine.arguments
let elementTarget = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5

/// A scene with `count` elements: containers of 100 buttons (10 rows of 10), each container
/// keeping its children together, every button with a label, a trait, a frame and a hint.
func generateScene(elements count: Int) -> (text: String, elements: Int) {
    var lines = [
        "scene: Generated \(count)", "size: [390, 844]", "state:", "  unread: 3", "start: main",
        "screens:", "  main:", "    elements:",
    ]
    let perContainer = 100
    let containers = max(1, count / (perContainer + 1))
    var total = 0
    for c in 0..<containers {
        let top = Double(c) * 440
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

/// The same scene as JSON, the usual form of generated files (read by the JSON fast path).
func generateJSONScene(elements count: Int) -> String {
    let perContainer = 100
    let containers = max(1, count / (perContainer + 1))
    var boxes = [String]()
    boxes.reserveCapacity(containers)
    for c in 0..<containers {
        let top = Double(c) * 440
        var buttons = [String]()
        buttons.reserveCapacity(perContainer)
        for i in 0..<perContainer {
            let x = Double(i % 10) * 39, y = top + Double(i / 10) * 44
            buttons.append("{\"id\": \"b-\(c)-\(i)\", \"label\": \"Key \(i) of \(c) ({unread})\", \"hint\": \"Inserts the key.\", \"traits\": [\"button\", \"keyboardKey\"], \"frame\": [\(x), \(y), 39, 44]}")
        }
        boxes.append("{\"id\": \"box-\(c)\", \"shouldGroupAccessibilityChildren\": true, \"elements\": [\n" + buttons.joined(separator: ",\n") + "]}")
    }
    return "{\"scene\": \"Generated \(count)\", \"size\": [390, 844], \"state\": {\"unread\": 3}, \"start\": \"main\",\n\"screens\": {\"main\": {\"elements\": [\n" + boxes.joined(separator: ",\n") + "]}}}\n"
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

let (yamlText, elements) = generateScene(elements: elementTarget)
let jsonText = generateJSONScene(elements: elementTarget)

func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

/// Loads and orders `text` `runs` times; prints medians of each phase and of the peak memory.
func measure(_ format: String, _ text: String) {
    print("\n\(format): \(elements) elements, \(text.utf8.count / 1024) KiB, \(runs) runs")
    var parseTimes = [Double](), resolveTimes = [Double](), orderTimes = [Double](), totalTimes = [Double]()
    var peakPerElement = [Double]()
    var itemCount = 0
    for _ in 0..<runs {
        resetPeak()
        let baseline = currentResidentBytes()
        let t0 = now()
        let scene: Scene
        do { scene = try SceneParser.parse(yaml: text, file: "generated.\(format.lowercased())") } catch {
            print("the generated scene did not load: \(error)")
            exit(1)
        }
        let t1 = now()
        let screen = scene.startScreen
        let t2 = now()
        let nodes = screen.scanNodes()
        let t3 = now()
        itemCount = nodes.flatMap(\.items).count
        let peak = peakResidentBytes()
        parseTimes.append(Double(t1 - t0) / 1e9)
        resolveTimes.append(Double(t2 - t1) / 1e9)
        orderTimes.append(Double(t3 - t2) / 1e9)
        totalTimes.append(Double(t3 - t0) / 1e9)
        peakPerElement.append(Double(max(0, peak - baseline)) / Double(elements))
    }
    print("  scan items found:               \(itemCount)")
    print("  median parse (file → scene):    \(ms(median(parseTimes)))")
    print("  median resolve (start screen):  \(ms(median(resolveTimes)))")
    print("  median order (rules, grouping): \(ms(median(orderTimes)))")
    print("  median load and order, total:   \(ms(median(totalTimes)))  (\(String(format: "%.2f", median(totalTimes) * 1e6 / Double(elements))) µs per element; aim: under 1 s)")
    // The first run's peak is the honest one: later runs reuse memory the allocator kept.
    print("  peak memory added, first run:   \(String(format: "%.0f", peakPerElement[0])) bytes per element (aim: under 1024)")
}

if arguments.count <= 3 { print("switchscan-bench: load and order a generated scene") }
if arguments.count > 3 {
    let format = arguments[3].uppercased()
    measure(format, format == "JSON" ? jsonText : yamlText)
} else {
    fflush(nil)  // all output streams: the children write to the same terminal
    // Each format in a process of its own: memory freed by one run stays in the allocator, and
    // would hide the next format's peak.
    for format in ["yaml", "json"] {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = [String(elementTarget), String(runs), format]
        do {
            try child.run()
            child.waitUntilExit()
        } catch {
            print("cannot run \(CommandLine.arguments[0]): \(error)")
            exit(1)
        }
    }
}
