// The braille display's latency (issue 5): from the engine's highlight to the BrlAPI write
// returning, with a real BRLTTY driving an emulated Baum display (BrailleTestSupport) and the
// output `switchscan run` uses (BrailleDisplayOutput: liblouis, windows, coalesced writes).
//
//   switchscan-bench braille [--steps N] [--markdown]
//
// Needs brltty with its Baum driver (scripts/setup installs it). BRLTTY runs on a private BrlAPI
// host and is stopped by its PID. Costs about 25 s of wall time with the default 200 steps.
import BrailleFormatting
import BrailleTestSupport
import BrlAPI
import Foundation
import Runtime
import Scanning
import Scenes
import SwitchInput
import Platform

func runBrailleBenchmark(arguments: [String]) {
    let markdown = arguments.contains("--markdown")
    let steps: Int
    do { steps = Int(try numberOption("--steps", in: arguments) ?? 200) } catch {
        benchProgress("braille: \(error)")
        CurrentProcess.exit(1)
    }
    BrlAPI.ignoreSIGPIPE()
    let emulator: BaumDisplayEmulator
    let brltty: BRLTTYProcess
    do {
        (emulator, brltty) = try startEmulatedDisplay(cells: 40)
    } catch {
        benchProgress("braille: cannot start BRLTTY with the emulated display: \(error)")
        CurrentProcess.exit(1)
    }
    defer {
        brltty.stop()
        emulator.stop()
    }

    // A flat screen of labelled buttons (English, so liblouis contracts them with UEB grade 2).
    let scene: Scene
    do { scene = try SceneParser.parse(yaml: benchmarkSceneYAML(title: "Braille latency"), file: "braille.yaml") } catch {
        benchProgress("braille: the generated scene did not load: \(error)")
        brltty.stop()  // CurrentProcess.exit(1) skips the defers
        emulator.stop()
        CurrentProcess.exit(1)
    }

    let output = BrailleDisplayOutput(.init(host: brltty.host, auth: "none"))
    defer { output.close() }
    pump(output, timeout: 5) { output.isConnected }
    guard output.isConnected else {
        benchProgress("braille: no display on \(brltty.host); BRLTTY says:\n\(brltty.logTail(lines: 20))")
        output.close()
        brltty.stop()  // CurrentProcess.exit(1) skips the defers
        emulator.stop()
        CurrentProcess.exit(1)
    }
    benchProgress("braille: BRLTTY \(brltty.host), an emulated 40-cell Baum display, \(steps) highlights per case")
    var rows = [(name: String, sample: BenchSample?)]()

    var settings = ScanSettings()
    settings.scanning = .manual
    settings.groupItems = false

    /// One case: highlights at `offsets` seconds from the start; for each, the time from the
    /// highlight to the return of the write that carries it (or a later line, when writes are
    /// coalesced; nan when none).
    func measure(_ name: String, offsets: [Double]) -> (latencies: [Double], calls: [Double], writes: Int) {
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
        for offset in offsets {
            // Keep the pace: each highlight at its moment.
            let due = begin + offset
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
            let write = writes.first { $0.started >= highlight - 1e-9 }
            latencies.append(write.map { $0.returned - highlight } ?? .nan)
        }
        let calls = writes.map { $0.returned - $0.started }
        if !shownAll { benchProgress("braille: \(name): the display did not receive the last write within 2 s") }
        return (latencies, calls, writes.count)
    }

    let paced = measure("one highlight every 50 ms", offsets: (0..<steps).map { Double($0) * 0.05 })
    let burst = measure("one highlight every 5 ms", offsets: (0..<steps).map { Double($0) * 0.005 })
    // Bursts of 5 highlights 5 ms apart, one burst every 125 ms: the first of each must not wait.
    var burstOffsets = [Double]()
    for index in 0..<steps {
        let burstStart: Double = Double(index / 5) * 0.125
        burstOffsets.append(burstStart + Double(index % 5) * 0.005)
    }
    let bursts = measure("bursts", offsets: burstOffsets)
    var firstOfBurst = [Double]()
    for (index, latency) in bursts.latencies.enumerated() where index % 5 == 0 { firstOfBurst.append(latency) }
    rows.append(("highlight → write returned, one highlight every 50 ms", BenchSample(paced.latencies.filter { !$0.isNaN })))
    rows.append(("`brlapi__write` alone", BenchSample(paced.calls)))
    rows.append(("highlight → write returned, one every 5 ms (coalesced to one write per 25 ms: \(burst.writes) writes)", BenchSample(burst.latencies.filter { !$0.isNaN })))
    rows.append(("the first highlight of a burst (5 highlights 5 ms apart, one burst every 125 ms) → write returned", BenchSample(firstOfBurst.filter { !$0.isNaN })))

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
    rows.append(("highlight → cells at the emulated display (one every 60 ms or more)", BenchSample(toDisplay)))

    func cell(_ sample: BenchSample?, _ value: (BenchSample) -> Double) -> String {
        sample.map { benchMilliseconds(value($0)) } ?? "no samples"
    }
    var lines = [
        "## Braille: from the highlight to the BrlAPI write",
        "",
        "`switchscan-bench braille`: BRLTTY with the Baum driver on a pseudo-terminal and the Baum display emulator "
            + "(40 cells), the runtime's display output in this process (liblouis translation, window, coalesced writes), "
            + "\(steps) highlights per case on a 40-button scene, manual scanning; times on CLOCK_MONOTONIC from the moment "
            + "the engine moved the highlight. BRLTTY paces writes to this display at about 23 ms each (as at 19,200 baud), "
            + "so the output writes only the latest line, at most one per 25 ms: a burst of highlights costs up to one "
            + "pacing interval instead of queueing every line.",
        "",
        "| case | median | p99 |",
        "|---|---:|---:|",
    ]
    for row in rows { lines.append("| \(row.name) | \(cell(row.sample) { $0.median }) | \(cell(row.sample) { $0.p99 }) |") }
    lines.append("")
    lines.append("No target of its own (issue 5 sets none); the end-to-end target, against a C reference, is `switchscan-bench latency`'s.")
    if !markdown { lines = lines.filter { !$0.hasPrefix("|---") } }
    print(lines.joined(separator: "\n"))
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
