// Latency against the floor (issue 7 part 2; issue 6's "end-to-end time from a switch edge's
// timestamp to the braille write"): the same raw input stream, the same BRLTTY and emulated Baum
// display, read by the C reference (Benchmarks/reference/reference.c) and by the real
// `switchscan run` (release build), from each event's timestamp to the BrlAPI write returning.
//
//   swift build -c release --product switchscan --product switchscan-bench
//   .build/release/switchscan-bench latency [--presses N] [--markdown]
//
// Presses (Enter, KEY_ENTER) go into a FIFO as `struct input_event` records stamped with
// CLOCK_MONOTONIC when written, 100–200 ms apart and held 30–60 ms (a seeded generator: the same
// stream every run), in two rounds, each program taking its turn in each round. The reference
// prints when each write returned; switchscan's trace has a `brailleWritten` line with the
// CLOCK_MONOTONIC moment each write returned. Costs about 0.3 s of wall time per press, plus
// about 5 s of starts.
import BrailleTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

func runLatencyBenchmark(arguments: [String]) {
    do {
        try LatencyBenchmark(arguments: arguments).run()
    } catch {
        benchProgress("latency: \(error)")
        exit(1)
    }
}

private struct LatencyBenchmark {
    let markdown: Bool
    let presses: Int
    let rounds = 2

    init(arguments: [String]) throws {
        markdown = arguments.contains("--markdown")
        presses = Int(try numberOption("--presses", in: arguments) ?? 300)
    }

    /// One press: when it goes down and up, in seconds after the round's start.
    struct Press {
        var down: Double
        var up: Double
    }

    /// The presses of each round: 100–200 ms apart, held 30–60 ms.
    func schedule() -> [[Press]] {
        var generator = LatencyPressGenerator(seed: 0x5EED_CAFE)
        var result = [[Press]]()
        for round in 0..<rounds {
            let count = presses / rounds + (round < presses % rounds ? 1 : 0)
            var time = 0.0
            var presses = [Press]()
            for _ in 0..<count {
                time += Double.random(in: 0.1...0.2, using: &generator)
                presses.append(Press(down: time, up: time + Double.random(in: 0.03...0.06, using: &generator)))
            }
            result.append(presses)
        }
        return result
    }

    /// The figures of one program: per press, event timestamp → write returned.
    struct Outcome {
        var latencies: [Double] = []
        var pressesSent = 0
        /// Times the program was preempted (involuntary context switches) while the presses came.
        var preemptions = 0
        /// The BrlAPI call alone (switchscan's trace says how long each write took).
        var calls: [Double] = []
    }

    func run() throws {
        let package = try BenchPackage.locate()
        _ = FileManager.default.changeCurrentDirectoryPath(package.root)
        let switchscan = try package.switchscan()
        let scratch = try makeScratchFolder("latency")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        signal(SIGPIPE, SIG_IGN)  // a reader that died gives EPIPE, not the end of the benchmark
        let reference = try package.reference(scratch: scratch)
        let (emulator, brltty) = try startEmulatedDisplay(cells: 40)
        defer {
            brltty.stop()
            emulator.stop()
        }
        let scene = scratch + "/scene.yaml"
        try benchmarkSceneYAML(title: "Latency").write(toFile: scene, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: scratch + "/config", withIntermediateDirectories: true)
        benchProgress("latency: BRLTTY on \(brltty.host) (pid \(brltty.pid ?? 0)), an emulated 40-cell Baum display; \(presses) presses for each program in \(rounds) rounds")

        var ours = Outcome(), floor = Outcome()
        for (round, presses) in schedule().enumerated() {
            benchProgress("latency: round \(round + 1): the C reference, \(presses.count) presses")
            try measureReference(reference, host: brltty.host, presses: presses, scratch: scratch, round: round, into: &floor)
            benchProgress("latency: round \(round + 1): switchscan run, \(presses.count) presses")
            try measureSwitchscan(switchscan, host: brltty.host, scene: scene, presses: presses, scratch: scratch, round: round, into: &ours)
        }
        try report(ours: ours, reference: floor)
    }

    // MARK: The two programs

    func measureReference(_ executable: String, host: String, presses: [Press], scratch: String, round: Int,
                          into outcome: inout Outcome) throws {
        let fifo = scratch + "/reference-\(round).fifo", output = scratch + "/reference-\(round).out"
        let errors = scratch + "/reference-\(round).err"
        guard mkfifo(fifo, 0o600) == 0 else { throw BenchFailure("mkfifo \(fifo): \(String(cString: strerror(errno)))") }
        let child = try BenchChild(executable, ["-a", "none", host, fifo], name: "the C reference", stdout: output, stderr: errors)
        defer { child.stop() }
        try waitFor(child, errors: errors, what: "its \"ready\" line", timeout: 10) {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").hasPrefix("ready")
        }
        let (stamps, preemptions) = try drive(fifo: fifo, reader: child, presses: presses)
        outcome.preemptions += preemptions
        guard child.wait(timeout: 10) == 0 else {
            throw BenchFailure("the C reference failed (status \(child.status.map(String.init) ?? "running")): \(contents(errors))")
        }
        // "EVENT RETURNED" per press, after the "ready" line.
        // The line carries the stamp as the record did, in whole microseconds.
        func microseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e6).rounded()) }
        var returned = [Int64: Double]()
        for line in contents(output).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ").compactMap { Double($0) }
            if fields.count == 2 { returned[microseconds(fields[0])] = fields[1] }
        }
        outcome.pressesSent += stamps.count
        for stamp in stamps {
            if let write = returned[microseconds(stamp)] { outcome.latencies.append(write - stamp) }
        }
    }

    func measureSwitchscan(_ executable: String, host: String, scene: String, presses: [Press], scratch: String, round: Int,
                           into outcome: inout Outcome) throws {
        let fifo = scratch + "/switchscan-\(round).fifo", trace = scratch + "/switchscan-\(round).jsonl"
        let errors = scratch + "/switchscan-\(round).err"
        guard mkfifo(fifo, 0o600) == 0 else { throw BenchFailure("mkfifo \(fifo): \(String(cString: strerror(errno)))") }
        let child = try BenchChild(
            executable,
            ["run", scene, "--input", "raw:\(fifo)", "--braille", "brlapi:\(host)", "--braille-auth", "none", "--no-view",
             "--set", "scanning=manual", "--set", "groupItems=false", "--trace", trace],
            name: "switchscan run", stderr: errors, environment: ["XDG_CONFIG_HOME": scratch + "/config"])
        defer { child.stop() }
        // Connected, and the first line written.
        try waitFor(child, errors: errors, what: "its first braille write (brailleWritten in the trace)", timeout: 15) {
            contents(trace).contains("\"brailleWritten\"")
        }
        let (stamps, preemptions) = try drive(fifo: fifo, reader: child, presses: presses)
        outcome.preemptions += preemptions
        guard child.wait(timeout: 10) == 0 else {
            throw BenchFailure("switchscan run failed (status \(child.status.map(String.init) ?? "running")): \(contents(errors))")
        }
        var writes = [(returned: Double, call: Double)]()
        for line in contents(trace).split(separator: "\n") where line.contains("\"brailleWritten\"") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let monotonic = object["monotonic"] as? Double, let call = object["call"] as? Double else { continue }
            writes.append((monotonic, call))
        }
        outcome.pressesSent += stamps.count
        // Each press's write: the first to return after it and before the next press.
        for (index, stamp) in stamps.enumerated() {
            let next = index + 1 < stamps.count ? stamps[index + 1] : .infinity
            guard let write = writes.first(where: { $0.returned > stamp && $0.returned < next }) else { continue }
            outcome.latencies.append(write.returned - stamp)
            outcome.calls.append(write.call)
        }
    }

    /// Writes the presses into the FIFO at their times, each record stamped with CLOCK_MONOTONIC
    /// (to the microsecond, as the record carries it) just before it is written; closes the FIFO
    /// (the end of the stream ends both programs). Returns the presses' stamps, and how many times
    /// the reader was preempted meanwhile.
    func drive(fifo: String, reader: BenchChild, presses: [Press]) throws -> (stamps: [Double], preemptions: Int) {
        let descriptor = try openFIFOForWriting(fifo, reader: reader, timeout: 10)
        defer { close(descriptor) }
        let keyEnter: UInt16 = 28
        func send(_ value: Int32) throws -> Double {
            let stamp = (benchNow() * 1e6).rounded(.down) / 1e6
            let bytes = inputEventRecord(time: stamp, type: 1, code: keyEnter, value: value)
                + inputEventRecord(time: stamp, type: 0, code: 0, value: 0)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count else { throw BenchFailure("writing to \(fifo): \(String(cString: strerror(errno)))") }
            return stamp
        }
        benchSleep(0.3)
        let before = contextSwitches(of: reader.pid)
        let start = benchNow()
        var stamps = [Double]()
        for press in presses {
            benchSleep(until: start + press.down)
            stamps.append(try send(1))
            benchSleep(until: start + press.up)
            _ = try send(0)
        }
        benchSleep(0.3)
        return (stamps, contextSwitches(of: reader.pid).involuntary - before.involuntary)
    }

    private func waitFor(_ child: BenchChild, errors: String, what: String, timeout: Double, _ ready: () -> Bool) throws {
        let end = benchNow() + timeout
        while !ready() {
            guard child.isRunning else { throw BenchFailure("\(child.name) exited (status \(child.status ?? -1)) before \(what): \(contents(errors))") }
            guard benchNow() < end else { throw BenchFailure("\(child.name) did not show \(what) within \(timeout) s: \(contents(errors))") }
            benchSleep(0.02)
        }
    }

    // MARK: Report

    /// Throws rather than exits: BRLTTY and the folder are removed by the caller's defers.
    func report(ours: Outcome, reference: Outcome) throws {
        guard let mine = BenchSample(ours.latencies), let floor = BenchSample(reference.latencies) else {
            throw BenchFailure("no samples (switchscan: \(ours.latencies.count), reference: \(reference.latencies.count))")
        }
        let calls = BenchSample(ours.calls)
        let ratio = mine.median / floor.median, ratioP99 = mine.p99 / floor.p99
        let target = 1.5
        let met = ratio <= target
        func row(_ name: String, _ outcome: Outcome, _ sample: BenchSample) -> String {
            "| \(name) | \(outcome.latencies.count) of \(outcome.pressesSent) | \(benchMilliseconds(sample.median)) | \(benchMilliseconds(sample.p99)) | \(benchMilliseconds(sample.maximum)) | \(String(format: "%.2f", Double(outcome.preemptions) / Double(max(1, outcome.pressesSent)))) |"
        }
        var lines = [
            "## Latency: a switch event to the braille write, against a C reference",
            "",
            "`switchscan-bench latency`: one BRLTTY (Baum driver) driving the Baum display emulator of `BrailleTestSupport` "
                + "(40 cells, on a pseudo-terminal); the same generated stream of \(presses) key presses for each program "
                + "(Enter as `struct input_event` records through a FIFO, each stamped with CLOCK_MONOTONIC as it is written, "
                + "presses 100–200 ms apart and held 30–60 ms, in \(rounds) rounds taking turns). The reference "
                + "(`Benchmarks/reference/reference.c`) blocks in read(2) and writes a fixed line with `brlapi_write`; "
                + "`switchscan run SCENE --input raw:FIFO --braille brlapi:HOST --no-view` (release build, manual scanning, "
                + "a 40-button scene: each press moves the highlight, the line is translated by liblouis and written through "
                + "BrlAPI) reports when each write returned in its trace (`brailleWritten`, CLOCK_MONOTONIC). "
                + "Latency: from the event's timestamp to the BrlAPI write returning.",
            "",
            "| program | presses measured | median | p99 | max | preemptions per press |",
            "|---|---:|---:|---:|---:|---:|",
            row("C reference", reference, floor),
            row("`switchscan run`", ours, mine),
            "| ratio switchscan / reference | | \(String(format: "%.2f", ratio)) | \(String(format: "%.2f", ratioP99)) | | |",
        ]
        if let calls {
            lines.append("| `brlapi__write` call alone, in switchscan | \(calls.count) | \(benchMilliseconds(calls.median)) | \(benchMilliseconds(calls.p99)) | \(benchMilliseconds(calls.maximum)) | |")
        }
        lines.append("")
        let figure = String(format: "%.2f at the median", ratio)
        lines.append("Target ratio switchscan / reference at most \(target) at the median: " + (met ? "met (\(figure))." : "missed (\(figure)): switchscan's own work between the read and the write adds "
                + benchMilliseconds(mine.median - floor.median) + " at the median (decoding the record through the switch profile, "
                + "the stabiliser and the engine, the braille line's formatting, its liblouis translation and window), "
                + "where the reference only reads and writes; both are preempted alike by BRLTTY (last column)."))
        lines.append("")
        lines.append(String(format: "Issue 6's end-to-end figure (switch edge timestamp → braille write returned): median %@, p99 %@.", benchMilliseconds(mine.median), benchMilliseconds(mine.p99)))
        if !markdown {
            lines = lines.filter { !$0.hasPrefix("|---") }
        }
        print(lines.joined(separator: "\n"))
    }
}

private func contents(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// SplitMix64: the same stream of presses on every run.
private struct LatencyPressGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
