// The braille display's latency (issue 5): from the engine's highlight to the BrlAPI write
// returning, with a real BRLTTY driving an emulated Baum display (BrailleTestSupport) and the
// output `switchscan run` uses (BrailleDisplayOutput: liblouis, windows, coalesced writes).
//
//   swift run -c release switchscan-bench braille [steps]
//
// Needs brltty with its Baum driver (scripts/setup installs it). BRLTTY runs on a private BrlAPI
// host and is stopped by its PID.
import BrailleFormatting
import BrailleTestSupport
import BrlAPI
import Foundation
import Runtime
import Scanning
import Scenes
import SwitchInput

func runBrailleBenchmark(steps: Int = 200) {
    guard BRLTTYProcess.hasBrailleDriver("bm") else {
        print("braille: brltty with its Baum driver (bm) is not installed")
        exit(1)
    }
    BrlAPI.ignoreSIGPIPE()
    let emulator: BaumDisplayEmulator
    let brltty: BRLTTYProcess
    do {
        emulator = try BaumDisplayEmulator(cells: 40)
        brltty = try BRLTTYProcess(baum: emulator)
        try brltty.start()
    } catch {
        print("braille: cannot start BRLTTY with the emulated display: \(error)")
        exit(1)
    }
    defer {
        brltty.stop()
        emulator.stop()
    }

    // A flat screen of labelled buttons (English, so liblouis contracts them with UEB grade 2).
    var lines = ["scene: Braille latency", "size: [390, 844]", "start: main", "screens:", "  main:", "    elements:"]
    let words = ["Send", "Archive", "Reply to all", "Forward", "Mark as unread", "Move to folder", "Delete", "Flag"]
    for i in 0..<40 {
        lines.append("      - {id: b-\(i), label: \"\(words[i % words.count]) \(i)\", traits: [button], frame: [0, \(i * 20), 390, 20]}")
    }
    let scene: Scene
    do { scene = try SceneParser.parse(yaml: lines.joined(separator: "\n"), file: "braille.yaml") } catch {
        print("braille: the generated scene did not load: \(error)")
        exit(1)
    }

    let output = BrailleDisplayOutput(.init(host: brltty.host, auth: "none"))
    defer { output.close() }
    pump(output, timeout: 5) { output.isConnected }
    guard output.isConnected else {
        print("braille: no display on \(brltty.host); BRLTTY says:\n\(brltty.logTail(lines: 20))")
        exit(1)
    }
    print("braille: BRLTTY \(brltty.host), an emulated 40-cell Baum display, \(steps) highlights per case")

    var settings = ScanSettings()
    settings.scanning = .manual
    settings.groupItems = false

    /// One case: a highlight every `spacing` seconds; for each, the time from the highlight to
    /// the return of the write that carries it (or a later line, when writes are coalesced).
    func measure(_ name: String, spacing: Double) {
        var session = ScanSession(scene: scene, settings: settings)
        _ = session.start()
        output.show(session.brailleLine, language: session.brailleLanguage, at: MonotonicClock.now())
        pump(output, timeout: 1) { !output.hasPendingWrite }
        Thread.sleep(forTimeInterval: 0.1)

        var writes = [(started: Double, returned: Double)]()
        output.writeObserver = { writes.append(($0, $1)) }
        var highlights = [Double]()
        var time = 1.0
        let emulatorWritesBefore = emulator.cellWriteCount
        let begin = MonotonicClock.now()
        for step in 0..<steps {
            // Keep the pace: the next highlight `spacing` after the previous one.
            let due = begin + Double(step) * spacing
            pump(output, timeout: max(0, due - MonotonicClock.now())) { false }
            time += 0.2
            _ = session.input(SwitchEdge(switchID: "next", kind: .down, time: time))
            let highlighted = MonotonicClock.now()  // the engine has moved the highlight
            highlights.append(highlighted)
            output.show(session.brailleLine, language: session.brailleLanguage, at: highlighted)
            _ = session.input(SwitchEdge(switchID: "next", kind: .up, time: time + 0.05))
        }
        pump(output, timeout: 1) { !output.hasPendingWrite }
        output.writeObserver = nil
        // The last line reached the display.
        let shownAll = emulator.waitForCellWrites(atLeast: emulatorWritesBefore + 1, timeout: 2)
        var latencies = [Double]()
        for highlight in highlights {
            guard let write = writes.first(where: { $0.started >= highlight - 1e-9 }) else { continue }
            latencies.append(write.returned - highlight)
        }
        let calls = writes.map { $0.returned - $0.started }
        print("  \(name):")
        print("    highlight → write returned: \(figures(latencies))  (\(highlights.count) highlights, \(writes.count) writes)")
        print("    brlapi__write call alone:   \(figures(calls))")
        if !shownAll { print("    (the display did not receive the last write within 2 s)") }
    }

    measure("one highlight every 50 ms (switch presses)", spacing: 0.05)
    measure("one highlight every 5 ms (a burst: writes coalesced to one per 25 ms)", spacing: 0.005)

    // Highlight → the cells at the display (BRLTTY's own pacing and the serial line included).
    var session = ScanSession(scene: scene, settings: settings)
    _ = session.start()
    var toDisplay = [Double]()
    var time = 1.0
    for _ in 0..<min(steps, 100) {
        pump(output, timeout: 0.06) { false }
        let before = emulator.cellWriteCount
        time += 0.2
        _ = session.input(SwitchEdge(switchID: "next", kind: .down, time: time))
        let highlighted = MonotonicClock.now()
        output.show(session.brailleLine, language: session.brailleLanguage, at: highlighted)
        pump(output, timeout: 1) { !output.hasPendingWrite }
        guard emulator.waitForCellWrites(atLeast: before + 1, timeout: 2) else { continue }
        toDisplay.append(MonotonicClock.now() - highlighted)
        _ = session.input(SwitchEdge(switchID: "next", kind: .up, time: time + 0.05))
    }
    print("  highlight → cells at the emulated display (one every 60 ms+): \(figures(toDisplay))")
}

/// The loop's part for one source: poll its descriptor until its deadline, for `timeout` s or
/// until `condition`.
private func pump(_ output: BrailleDisplayOutput, timeout: Double, until condition: () -> Bool) {
    let end = MonotonicClock.now() + timeout
    while !condition() {
        let now = MonotonicClock.now()
        if now >= end { return }
        var wait = end - now
        if let due = output.deadline { wait = min(wait, max(0, due - now)) }
        let descriptors = output.descriptor.map { [$0] } ?? []
        let ready = (try? Poll.readable(descriptors, timeout: wait)) ?? []
        if let descriptor = output.descriptor, ready.contains(descriptor) { _ = output.readable(at: MonotonicClock.now()) }
        if let due = output.deadline, due <= MonotonicClock.now() { _ = output.deadlineReached(at: MonotonicClock.now()) }
    }
}

/// Median and 99th percentile, in milliseconds.
private func figures(_ seconds: [Double]) -> String {
    guard !seconds.isEmpty else { return "no samples" }
    let sorted = seconds.sorted()
    let median = sorted[sorted.count / 2] * 1000
    let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))] * 1000
    return String(format: "median %.3f ms, p99 %.3f ms", median, p99)
}
