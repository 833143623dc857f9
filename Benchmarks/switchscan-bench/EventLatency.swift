// Handling one switch event on a large scene: the time `ScanSession.input` takes for one edge,
// through stabilisation, the engine and the braille line (and, for a tap, the scene's effects
// and the rebuild of the structure).
import AccessibilityModel
import Foundation
import Scanning
import Scenes
import SwitchInput
import Platform

func runEventBenchmark(arguments: [String] = [], items: Int = 10_000, events: Int = 2_000) {
    let markdown = arguments.contains("--markdown")
    let started = DispatchTime.now().uptimeNanoseconds
    // A flat keyboard-like screen: rows of 10 keys, each with a label, a trait and a frame.
    var lines = ["scene: Events \(items)", "size: [390, 844]", "state:", "  count: 0", "start: main", "screens:", "  main:", "    elements:"]
    for i in 0..<items {
        let x = Double(i % 10) * 39, y = Double(i / 10) * 44
        lines.append("      - {id: k-\(i), label: \"Key \(i)\", traits: [keyboardKey], frame: [\(x), \(y), 39, 44], activate: [{add: {count: 1}}]}")
    }
    let scene: Scene
    do { scene = try SceneParser.parse(yaml: lines.joined(separator: "\n"), file: "events.yaml") } catch {
        FileHandle.standardError.write("the generated scene did not load: \(error)\n".data(using: .utf8)!)
        CurrentProcess.exit(1)
    }
    FileHandle.standardError.write("events: a scene of \(items) items, \(events) measured edges per case\n".data(using: .utf8)!)
    var rows = [(name: String, press: (Double, Double), release: (Double, Double))]()

    func measure(_ name: String, settings: ScanSettings, edges: (Int, Double) -> SwitchEdge) {
        var session = ScanSession(scene: scene, settings: settings)
        _ = session.start()
        var downs = [Double](), ups = [Double]()
        var time = 1.0
        for index in 0..<events {
            time += 0.2
            let edge = edges(index, time)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = session.input(edge)
            let microseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
            if edge.kind == .down { downs.append(microseconds) } else { ups.append(microseconds) }
        }
        func figures(_ samples: [Double]) -> (Double, Double) {
            let sorted = samples.sorted()
            return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))])
        }
        rows.append((name, figures(downs), figures(ups)))
    }

    var manual = ScanSettings()
    manual.scanning = .manual
    manual.groupItems = false
    measure("`next`, manual, flat", settings: manual) { index, time in
        SwitchEdge(switchID: "next", kind: index % 2 == 0 ? .down : .up, time: time)
    }
    var grouped = ScanSettings()
    grouped.scanning = .manual
    measure("`next`, manual, automatic groups", settings: grouped) { index, time in
        SwitchEdge(switchID: "next", kind: index % 2 == 0 ? .down : .up, time: time)
    }
    var tapping = ScanSettings()
    tapping.scanning = .manual
    tapping.tapBehavior = .alwaysTap
    tapping.focusedItemAfterTap = .current
    tapping.groupItems = false
    measure("`select`, alwaysTap (runs the scene's effect, which changes a value no element reads)", settings: tapping) { index, time in
        SwitchEdge(switchID: "select", kind: index % 2 == 0 ? .down : .up, time: time)
    }

    let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    func us(_ value: Double) -> String { String(format: "%.1f µs", value) }
    var out = [String]()
    out.append(markdown ? "## Handling one switch event on a 10,000-item scene" : "switchscan-bench events")
    out.append("")
    out.append("""
        The time `ScanSession.input` takes for one switch edge (stabilisation, the engine, the \
        braille line; for a tap also the scene's effect and the structure the session hands the \
        engine afterwards), on a generated flat scene of \(items) keys (rows of 10, each with a \
        label, a trait, a frame and an `add` effect on a counter no label reads), \(events) edges \
        per case (half presses, half releases), 0.2 s of virtual time apart. One run, \
        \(String(format: "%.1f", wall)) s of wall time.
        """)
    out.append("")
    out.append("| case | press: median | press: p99 | release: median | release: p99 |")
    out.append("|---|---:|---:|---:|---:|")
    for row in rows {
        out.append("| \(row.name) | \(us(row.press.0)) | \(us(row.press.1)) | \(us(row.release.0)) | \(us(row.release.1)) |")
    }
    out.append("")
    let worst = rows.map(\.press.0).max() ?? 0
    out.append("Target handling a press in under 50 µs (median): \(worst < 50 ? "met" : "missed") (slowest case \(us(worst)))\(worst < 50 ? "." : ": the case that runs an effect rebuilds the structure.")")
    print(out.joined(separator: "\n"))
}
