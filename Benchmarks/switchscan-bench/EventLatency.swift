// Handling one switch event on a large scene: the time `ScanSession.input` takes for one edge,
// through stabilisation, the engine and the braille line (and, for a tap, the scene's effects
// and the rebuild of the structure).
import AccessibilityModel
import Foundation
import Scanning
import Scenes
import SwitchInput

func runEventBenchmark(items: Int = 10_000, events: Int = 2_000) {
    // A flat keyboard-like screen: rows of 10 keys, each with a label, a trait and a frame.
    var lines = ["scene: Events \(items)", "size: [390, 844]", "state:", "  count: 0", "start: main", "screens:", "  main:", "    elements:"]
    for i in 0..<items {
        let x = Double(i % 10) * 39, y = Double(i / 10) * 44
        lines.append("      - {id: k-\(i), label: \"Key \(i)\", traits: [keyboardKey], frame: [\(x), \(y), 39, 44], activate: [{add: {count: 1}}]}")
    }
    let scene: Scene
    do { scene = try SceneParser.parse(yaml: lines.joined(separator: "\n"), file: "events.yaml") } catch {
        print("the generated scene did not load: \(error)")
        exit(1)
    }
    print("events: a scene of \(items) items, \(events) measured edges per case")

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
        func figures(_ samples: [Double]) -> String {
            let sorted = samples.sorted()
            let median = sorted[sorted.count / 2]
            let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            return "median \(String(format: "%.1f", median)) µs, p99 \(String(format: "%.1f", p99)) µs"
        }
        print("  \(name):")
        print("    press (down edge):   \(figures(downs))  (aim: median under 50 µs)")
        print("    release (up edge):   \(figures(ups))")
    }

    var manual = ScanSettings()
    manual.scanning = .manual
    manual.groupItems = false
    measure("next, manual, flat (press and release edges)", settings: manual) { index, time in
        SwitchEdge(switchID: "next", kind: index % 2 == 0 ? .down : .up, time: time)
    }
    var grouped = ScanSettings()
    grouped.scanning = .manual
    measure("next, manual, automatic groups", settings: grouped) { index, time in
        SwitchEdge(switchID: "next", kind: index % 2 == 0 ? .down : .up, time: time)
    }
    var tapping = ScanSettings()
    tapping.scanning = .manual
    tapping.tapBehavior = .alwaysTap
    tapping.focusedItemAfterTap = .current
    tapping.groupItems = false
    measure("select with alwaysTap (runs the effect, rebuilds 10,000 items)", settings: tapping) { index, time in
        SwitchEdge(switchID: "select", kind: index % 2 == 0 ? .down : .up, time: time)
    }
}
