// Latency against the floor (issue 7 part 2; issue 6's "end-to-end time from a switch edge's
// timestamp to the braille write"): the same raw input stream, the same BRLTTY and emulated Baum
// display, read by the C reference (Benchmarks/reference/reference.c) and by the real
// `switchscan run` (release build), from each event's timestamp to the new cells arriving at the
// emulated display (its frames are timestamped; issue 17 part 3) and to the BrlAPI write returning.
//
//   swift build -c release --product switchscan --product switchscan-bench
//   .build/release/switchscan-bench latency [--presses N] [--rounds N] [--markdown] [--keep]
//
// Presses (Enter, KEY_ENTER) go into a FIFO as `struct input_event` records stamped with
// CLOCK_MONOTONIC when written, 100–200 ms apart and held 30–60 ms (a seeded generator: the same
// stream every run), in rounds (6 unless --rounds says), each program taking its turn in each round. The reference
// prints when each write returned; switchscan's trace has a `brailleWritten` line with the
// CLOCK_MONOTONIC moment each write returned. Costs about 0.3 s of wall time per press, plus
// about 5 s of starts.
import BrailleTestSupport
import SwitchInput
import Foundation
import Platform
#if canImport(Glibc)
import Glibc
#endif

func runLatencyBenchmark(arguments: [String]) {
    do {
        try LatencyBenchmark(arguments: arguments).run()
    } catch {
        benchProgress("latency: \(error)")
        CurrentProcess.exit(1)
    }
}

private struct LatencyBenchmark {
    let markdown: Bool
    let presses: Int
    /// Rounds, each program taking its turn in each (a new process per turn): where the kernel
    /// wakes BRLTTY beside each process moves the BrlAPI call's time from one process to the next
    /// (medians of 0.06–0.13 ms between rounds), so that one process's placement weighs less.
    let rounds: Int
    /// Leaves the scratch folder (scene, FIFOs, switchscan's traces, the reference's output) in
    /// place and says where, for looking at single presses.
    let keep: Bool

    init(arguments: [String]) throws {
        markdown = arguments.contains("--markdown")
        keep = arguments.contains("--keep")
        let rounds = try numberOption("--rounds", in: arguments) ?? 6
        guard rounds >= 1, rounds <= 100 else { throw BenchFailure("--rounds: expected 1 to 100, found \(rounds)") }
        self.rounds = Int(rounds)
        let presses = try numberOption("--presses", in: arguments) ?? 300
        guard presses >= 1, presses <= 100_000 else { throw BenchFailure("--presses: expected 1 to 100000, found \(presses)") }
        self.presses = Int(presses)
    }

    /// One press: when it goes down and up, in seconds after the round's start.
    struct Press {
        var down: Double
        var up: Double
    }

    /// The presses of each round: 100–200 ms apart, held 30–60 ms.
    func schedule() -> [[Press]] {
        var generator = SplitMix64(seed: 0x5EED_CAFE)  // the same stream of presses every run
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
        /// Per press, event timestamp → the first frame at the emulated display showing the
        /// press's new cells (the emulator's arrival time, CLOCK_MONOTONIC).
        var toDisplay: [Double] = []
        /// Per press, the program's own work: from reading the event (the reference: its read(2)
        /// returned; switchscan: its loop began reading the source, the trace's `read`) to the
        /// BrlAPI write starting.
        var ownWork: [Double] = []
    }

    /// Each press's time to the display: the first frame after its stamp (and before the next
    /// press's) whose cells differ from those shown at the stamp. Both programs change the line on
    /// every press (switchscan moves the highlight; the reference alternates two lines).
    static func displayLatencies(stamps: [Double], frames: [BaumDisplayEmulator.Frame], initial: [UInt8]) -> [Double] {
        var result = [Double]()
        var shown = initial
        var index = 0
        for (number, stamp) in stamps.enumerated() {
            while index < frames.count, frames[index].time <= stamp {
                shown = frames[index].cells
                index += 1
            }
            let next = number + 1 < stamps.count ? stamps[number + 1] : .infinity
            var probe = index
            while probe < frames.count, frames[probe].time < next {
                if frames[probe].cells != shown {
                    result.append(frames[probe].time - stamp)
                    break
                }
                probe += 1
            }
        }
        return result
    }

    func run() throws {
        let package = try BenchPackage.locate()
        _ = FileManager.default.changeCurrentDirectoryPath(package.root)
        let switchscan = try package.switchscan()
        let scratch = try makeScratchFolder("latency")
        defer {
            if keep { benchProgress("latency: kept \(scratch)") } else { try? FileManager.default.removeItem(atPath: scratch) }
        }
        ProcessSignal.ignore(SIGPIPE)  // a reader that died gives EPIPE, not the end of the benchmark
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
            try measureReference(reference, host: brltty.host, emulator: emulator, presses: presses, scratch: scratch, round: round, into: &floor)
            benchProgress("latency: round \(round + 1): switchscan run, \(presses.count) presses")
            try measureSwitchscan(switchscan, host: brltty.host, emulator: emulator, scene: scene, presses: presses, scratch: scratch, round: round, into: &ours)
        }
        try report(ours: ours, reference: floor)
    }

    // MARK: The two programs

    func measureReference(_ executable: String, host: String, emulator: BaumDisplayEmulator, presses: [Press], scratch: String, round: Int,
                          into outcome: inout Outcome) throws {
        let fifo = scratch + "/reference-\(round).fifo", output = scratch + "/reference-\(round).out"
        let errors = scratch + "/reference-\(round).err"
        do { try FileSystem.makeFIFO(fifo) } catch { throw BenchFailure("\(error)") }
        let child = try BenchChild(executable, ["-a", "none", host, fifo], name: "the C reference", stdout: output, stderr: errors)
        defer { child.stop() }
        try waitFor(child, errors: errors, what: "its \"ready\" line", timeout: 10) {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").hasPrefix("ready")
        }
        let initial = emulator.cells
        emulator.startRecordingFrames()
        let (stamps, preemptions) = try drive(fifo: fifo, reader: child, presses: presses)
        outcome.toDisplay += Self.displayLatencies(stamps: stamps, frames: emulator.stopRecordingFrames(), initial: initial)
        outcome.preemptions += preemptions
        guard child.wait(timeout: 10) == 0 else {
            throw BenchFailure("the C reference failed (status \(child.status.map(String.init) ?? "running")): \(contents(errors))")
        }
        // "EVENT RETURNED" per press, after the "ready" line.
        // The line carries the stamp as the record did, in whole microseconds.
        func microseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e6).rounded()) }
        var returned = [Int64: Double]()
        var ownWork = [Int64: Double]()
        for line in contents(output).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ").compactMap { Double($0) }
            if fields.count >= 2 { returned[microseconds(fields[0])] = fields[1] }
            if fields.count >= 4 { ownWork[microseconds(fields[0])] = fields[2] - fields[3] }
        }
        outcome.pressesSent += stamps.count
        for stamp in stamps {
            if let write = returned[microseconds(stamp)] { outcome.latencies.append(write - stamp) }
            if let work = ownWork[microseconds(stamp)] { outcome.ownWork.append(work) }
        }
    }

    func measureSwitchscan(_ executable: String, host: String, emulator: BaumDisplayEmulator, scene: String, presses: [Press], scratch: String, round: Int,
                           into outcome: inout Outcome) throws {
        let fifo = scratch + "/switchscan-\(round).fifo", trace = scratch + "/switchscan-\(round).jsonl"
        let errors = scratch + "/switchscan-\(round).err"
        do { try FileSystem.makeFIFO(fifo) } catch { throw BenchFailure("\(error)") }
        let child = try BenchChild(
            executable,
            ["run", scene, "--input", "raw:\(fifo)", "--braille", "brlapi:\(host)", "--braille-auth", "none", "--no-view",
             "--set", "scanning=manual", "--set", "groupItems=false", "--trace", trace],
            name: "switchscan run", stdout: scratch + "/switchscan-\(round).out", stderr: errors, environment: ["XDG_CONFIG_HOME": scratch + "/config"])
        defer { child.stop() }
        // Connected, and the first line written.
        try waitFor(child, errors: errors, what: "its first braille write (brailleWritten in the trace)", timeout: 15) {
            contents(trace).contains("\"brailleWritten\"")
        }
        let initial = emulator.cells
        emulator.startRecordingFrames()
        let (stamps, preemptions) = try drive(fifo: fifo, reader: child, presses: presses)
        outcome.toDisplay += Self.displayLatencies(stamps: stamps, frames: emulator.stopRecordingFrames(), initial: initial)
        outcome.preemptions += preemptions
        // A raw FIFO's writer closing leaves `switchscan run` waiting for the next writer: it is
        // stopped with SIGTERM (its trace is flushed as it ends; 128 + 15 is its status then).
        if child.wait(timeout: 0.2) == nil { child.stop() }
        guard let status = child.status, status == 0 || status == 128 + SIGTERM else {
            throw BenchFailure("switchscan run failed (status \(child.status.map(String.init) ?? "running")): \(contents(errors))")
        }
        var writes = [(returned: Double, call: Double)]()
        // When the loop began reading each press (its `input` line's `read`; the line's `timestamp`
        // is the record's time re-dated on the loop's clock, so the press is found by its read).
        var reads = [Double]()
        for line in contents(trace).split(separator: "\n") {
            if line.contains("\"brailleWritten\"") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let monotonic = object["monotonic"] as? Double, let call = object["call"] as? Double else { continue }
                writes.append((monotonic, call))
            } else if line.contains("\"kind\":\"input\""), line.contains("\"edge\":\"down\"") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let read = object["read"] as? Double else { continue }
                reads.append(read)
            }
        }
        outcome.pressesSent += stamps.count
        // Each press's write: the first to return after it and before the next press.
        for (index, stamp) in stamps.enumerated() {
            let next = index + 1 < stamps.count ? stamps[index + 1] : .infinity
            guard let write = writes.first(where: { $0.returned > stamp && $0.returned < next }) else { continue }
            outcome.latencies.append(write.returned - stamp)
            outcome.calls.append(write.call)
            // The press's read: the last one before its write started, and after the press.
            let started = write.returned - write.call
            if let read = reads.last(where: { $0 <= started }), read >= stamp { outcome.ownWork.append(started - read) }
        }
    }

    /// Writes the presses into the FIFO at their times, each record stamped with CLOCK_MONOTONIC
    /// (to the microsecond, as the record carries it) just before it is written; closes the FIFO
    /// (the end of the stream ends both programs). Returns the presses' stamps, and how many times
    /// the reader was preempted meanwhile.
    func drive(fifo: String, reader: BenchChild, presses: [Press]) throws -> (stamps: [Double], preemptions: Int) {
        let descriptor = try openFIFOForWriting(fifo, reader: reader, timeout: 10)
        defer { FileIO.close(descriptor) }
        let keyEnter: UInt16 = 28
        func send(_ value: Int32) throws -> Double {
            let stamp = (benchNow() * 1e6).rounded(.down) / 1e6
            let bytes = inputEventRecord(time: stamp, type: 1, code: keyEnter, value: value)
                + inputEventRecord(time: stamp, type: 0, code: 0, value: 0)
            do {
                try FileIO.writeAll(descriptor, bytes)
            } catch {
                throw BenchFailure("writing to \(fifo): \(error.errno.message)")
            }
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
        guard let mineShown = BenchSample(ours.toDisplay), let floorShown = BenchSample(reference.toDisplay) else {
            throw BenchFailure("no frames matched at the display (switchscan: \(ours.toDisplay.count), reference: \(reference.toDisplay.count))")
        }
        let calls = BenchSample(ours.calls)
        let ratio = mineShown.median / floorShown.median, ratioP99 = mineShown.p99 / floorShown.p99
        let writeRatio = mine.median / floor.median, writeRatioP99 = mine.p99 / floor.p99
        let target = 1.5
        let met = ratio <= target
        func row(_ name: String, _ measured: Int, _ outcome: Outcome, _ sample: BenchSample, preemptions: Bool) -> String {
            let perPress = preemptions ? String(format: "%.2f", Double(outcome.preemptions) / Double(max(1, outcome.pressesSent))) : ""
            return "| \(name) | \(measured) of \(outcome.pressesSent) | \(benchMilliseconds(sample.median)) | \(benchMilliseconds(sample.p99)) | \(benchMilliseconds(sample.maximum)) | \(perPress) |"
        }
        func ratioRow(_ name: String, _ median: Double, _ p99: Double) -> String {
            "| \(name) | | \(String(format: "%.2f", median)) | \(String(format: "%.2f", p99)) | | |"
        }
        var lines = [
            "## Latency: a switch event to the cells at the display, against a C reference",
            "",
            "`switchscan-bench latency`: one BRLTTY (Baum driver) driving the Baum display emulator of `BrailleTestSupport` "
                + "(40 cells, on a pseudo-terminal); the same generated stream of \(presses) key presses for each program "
                + "(Enter as `struct input_event` records through a FIFO, each stamped with CLOCK_MONOTONIC as it is written, "
                + "presses 100–200 ms apart and held 30–60 ms, in \(rounds) rounds taking turns). The reference "
                + "(`Benchmarks/reference/reference.c`) blocks in read(2) and writes one of two fixed lines, alternately, with "
                + "`brlapi_write`; `switchscan run SCENE --input raw:FIFO --braille brlapi:HOST --no-view` (release build, manual "
                + "scanning, a 40-button scene: each press moves the highlight, the line is translated by liblouis and written "
                + "through BrlAPI) reports when each write returned in its trace (`brailleWritten`, CLOCK_MONOTONIC). "
                + "**Cells at the display**: the emulator stamps each cell frame it receives from BRLTTY with CLOCK_MONOTONIC "
                + "when it reads the frame's bytes; a press's figure runs from the event's timestamp to the first frame after it "
                + "whose cells differ from those shown at the press (before the next press). **Write returned**: from the event's "
                + "timestamp to the BrlAPI write returning.",
            "",
            "| program | presses measured | median | p99 | max | preemptions per press |",
            "|---|---:|---:|---:|---:|---:|",
            row("C reference: cells at the display", reference.toDisplay.count, reference, floorShown, preemptions: true),
            row("`switchscan run`: cells at the display", ours.toDisplay.count, ours, mineShown, preemptions: true),
            ratioRow("**ratio switchscan / reference, cells at the display**", ratio, ratioP99),
            row("C reference: write returned", reference.latencies.count, reference, floor, preemptions: false),
            row("`switchscan run`: write returned", ours.latencies.count, ours, mine, preemptions: false),
            ratioRow("ratio switchscan / reference, write returned", writeRatio, writeRatioP99),
        ]
        if let calls {
            lines.append("| `brlapi__write` call alone, in switchscan | \(calls.count) | \(benchMilliseconds(calls.median)) | \(benchMilliseconds(calls.p99)) | \(benchMilliseconds(calls.maximum)) | |")
        }
        let ownWork = BenchSample(ours.ownWork), floorWork = BenchSample(reference.ownWork)
        if let floorWork {
            lines.append(row("C reference: own work, read returned → write started", reference.ownWork.count, reference, floorWork, preemptions: false))
        }
        if let ownWork {
            lines.append(row("`switchscan run`: own work, reading began → write started", ours.ownWork.count, ours, ownWork, preemptions: false))
        }
        lines.append("")
        let figure = String(format: "%.2f at the median", ratio)
        lines.append("Target ratio switchscan / reference on the cells at the display at most \(target) at the median: "
            + (met ? "met (\(figure))." : "missed (\(figure))."))
        let workTarget = 50e-6
        if let ownWork {
            let workFigure = String(format: "%.0f µs at the median, p99 %.0f µs", ownWork.median * 1e6, ownWork.p99 * 1e6)
            lines.append("Target switchscan's own work between reading a press and starting its braille write under 50 µs at the median: "
                + (ownWork.median < workTarget ? "met (\(workFigure))." : "missed (\(workFigure))."))
        }
        lines.append("At the median switchscan's write returns " + benchMilliseconds(mine.median - floor.median)
            + " after the reference's, and its cells reach the display " + benchMilliseconds(mineShown.median - floorShown.median)
            + " after them: its own work (reading the record, decoding it through the switch profile, finding the press's "
            + "forecast, the line the session will show, worked out while idle, and handing it to the display, the line "
            + "translated and rendered ahead too; when no forecast holds, the stabiliser and the engine first) and the "
            + "BrlAPI call, which varies from run to run with where BRLTTY runs (last column: preemptions).")
        lines.append("")
        lines.append(String(format: "Issue 6's end-to-end figure (switch edge timestamp → braille write returned): median %@, p99 %@; to the cells at the display: median %@, p99 %@.",
                            benchMilliseconds(mine.median), benchMilliseconds(mine.p99), benchMilliseconds(mineShown.median), benchMilliseconds(mineShown.p99)))
        if !markdown {
            lines = lines.filter { !$0.hasPrefix("|---") }
        }
        print(lines.joined(separator: "\n"))
    }
}

private func contents(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}
