// Switch input (issue 4): how many raw events per second the input path handles, and how long a
// press takes from its kernel-style timestamp to the engine's action in the live loop.
//
//   switchscan-bench input [--markdown] [--presses N] [--runs N]
//
// (a) Throughput: a stream of raw `struct input_event` records (24 bytes each, as a USB keyboard
//     sends them: MSC_SCAN, EV_KEY, SYN_REPORT per edge) for KEY_ENTER presses goes through
//     RawEventDecoder, the generic keyboard profile (ProfileEdges), and ScanSession.input
//     (stabilisation, engine, braille line), in the 64 KiB chunks the runtime's raw stream input
//     reads; each stage is also timed alone. On a seed scene and on a generated 10,000-item scene.
// (b) Latency: a writer thread reads CLOCK_MONOTONIC, puts it in a record's timestamp and
//     writes the record into a FIFO; `LiveRun` (the loop of `switchscan run`) reads the FIFO
//     through the raw stream input built by `InputSources.build([.raw(path:)])`; a braille sink
//     notes CLOCK_MONOTONIC when the loop hands it the line the press changed.
import BrailleFormatting
import DeviceProfiles
import Foundation
import Runtime
import Scanning
import Scenes
import SwitchInput
import Platform

func runInputBenchmark(arguments: [String]) {
    var markdown = false
    var presses = 1000
    var runs = 7
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        switch argument {
        case "--markdown": markdown = true
        case "--presses", "--runs":
            guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
                FileHandle.standardError.write(Data("input: \(argument) needs a positive number\n".utf8))
                CurrentProcess.exit(2)
            }
            if argument == "--presses" { presses = value } else { runs = value }
            index += 1
        default:
            FileHandle.standardError.write(Data("input: unknown argument \(argument) (expected --markdown, --presses N, --runs N)\n".utf8))
            CurrentProcess.exit(2)
        }
        index += 1
    }
    let benchmark = InputBenchmark(presses: presses, runs: runs)
    let report = benchmark.run()
    print(markdown ? report.markdown : report.plain)
}

private func progress(_ text: String) {
    FileHandle.standardError.write(Data(("input: " + text + "\n").utf8))
}

private struct InputBenchmark {
    let presses: Int
    let runs: Int

    /// Record throughput, records per second.
    static let throughputTarget = 100_000.0
    /// Timestamp → action, seconds.
    static let medianTarget = 0.001
    static let p99Target = 0.005

    struct Throughput {
        var scene: String
        var items: Int
        var records: Int
        var edges: Int
        /// Records per second, median over the runs, by stage.
        var decode: Double
        var translate: Double
        var stabilise: Double
        var whole: Double
        /// Microseconds per key edge through the whole path, timed one edge's records at a time.
        var edgeMedian: Double
        var edgeP99: Double
    }

    struct Latency {
        var scene: String
        var items: Int
        var presses: Int
        var samples: [Double]
        var missed: Int
        var seconds: Double
        var median: Double { percentile(samples, 0.5) }
        var p99: Double { percentile(samples, 0.99) }
        var maximum: Double { samples.max() ?? .nan }
    }

    struct Report {
        var throughput: [Throughput]
        var latency: [Latency]
        var profile: String
        var presses: Int
        var runs: Int

        var plain: String {
            var lines = ["input: throughput (records per second, median of \(runs) runs) and latency (\(presses) presses per scene)"]
            for t in throughput {
                lines.append("  \(t.scene) (\(t.items) items), \(t.records) records, \(t.edges) key edges:")
                lines.append("    decode \(rate(t.decode)), + profile \(rate(t.translate)), + stabiliser \(rate(t.stabilise)), whole path \(rate(t.whole))")
                lines.append(String(format: "    one key edge, whole path: median %.2f µs, p99 %.2f µs", t.edgeMedian, t.edgeP99))
            }
            for l in latency {
                lines.append(String(format: "  latency %@ (%d items): median %.3f ms, p99 %.3f ms, max %.3f ms (%d presses, %d without an action, %.1f s)",
                                    l.scene, l.items, l.median * 1000, l.p99 * 1000, l.maximum * 1000, l.presses, l.missed, l.seconds))
            }
            lines += targets
            return lines.joined(separator: "\n")
        }

        var targets: [String] {
            var lines = [String]()
            let slowest = throughput.min { $0.whole < $1.whole }
            if let slowest {
                let figure = "\(rate(slowest.whole)) on the \(slowest.scene)"
                lines.append(slowest.whole >= InputBenchmark.throughputTarget
                    ? "Target input throughput ≥ 100,000 records/s through decode, profile, stabiliser and engine on every scene: met (\(figure))"
                    : "Target input throughput ≥ 100,000 records/s through decode, profile, stabiliser and engine on every scene: missed (\(figure)): on every edge, releases included, `ScanSession.input` formats the braille line again, and for an automatic group of a large screen `BrailleFormatter.groupLine` walks the group's items; decode, profile and stabiliser alone run at \(rate(slowest.stabilise)) records/s on that scene")
            }
            let worstMedian = latency.max { $0.median < $1.median }
            let worstP99 = latency.max { $0.p99 < $1.p99 }
            if let worstMedian, let worstP99 {
                let met = worstMedian.median <= InputBenchmark.medianTarget && worstP99.p99 <= InputBenchmark.p99Target
                let figure = String(format: "median %.3f ms, p99 %.3f ms at worst", worstMedian.median * 1000, worstP99.p99 * 1000)
                lines.append(met
                    ? "Target input latency, event timestamp → engine action in the live loop, median ≤ 1 ms and p99 ≤ 5 ms: met (\(figure))"
                    : "Target input latency, event timestamp → engine action in the live loop, median ≤ 1 ms and p99 ≤ 5 ms: missed (\(figure)): scheduling on a shared 2-CPU machine (the loop waits in poll(2) and must be woken)")
            }
            return lines
        }

        var markdown: String {
            var lines = ["## Switch input: events per second and timestamp-to-action latency", ""]
            lines.append("""
                `switchscan-bench input`. **Throughput**: a stream of raw `struct input_event` records \
                (24 bytes; per edge MSC_SCAN, EV_KEY KEY_ENTER, SYN_REPORT, as a USB keyboard sends \
                them; presses 0.1 s apart in their timestamps, held 0.05 s) goes through \
                `RawEventDecoder` in the 64 KiB chunks the runtime's raw stream input reads, the \
                profile `\(profile)` (`ProfileEdges`, the runtime's translator), and \
                `ScanSession.input` (stabiliser, engine with manual scanning and automatic groups, \
                braille line), dated by the records' timestamps as a device's events are; each stage \
                is also run alone on the same bytes. Records per second are the median of \(runs) \
                runs; the per-edge figures time one edge's three records at a time through the whole \
                path. **Latency**: a writer thread reads CLOCK_MONOTONIC, writes it as the \
                timestamp of a KEY_ENTER press record (then SYN_REPORT) into a FIFO, and holds the key \
                12 ms; the FIFO is read by `switchscan run`'s raw stream input (`InputSources.build` \
                with `.raw`) inside the real `LiveRun` poll loop (no terminal, no view), with \
                `debounceTime` 0.01 s so that presses can come every 24 ms (the first edge of a \
                press is accepted at once whatever the debounce). The two points timed: (1) the \
                CLOCK_MONOTONIC value written into the record's `tv_sec`/`tv_usec` just before \
                `write(2)`; (2) CLOCK_MONOTONIC read by the loop when it hands the braille line \
                that the press changed (the engine moved the highlight) to its braille outputs, \
                a `ScanOutput` here. \(presses) presses per scene, manual scanning, no grouping \
                (each press moves the highlight).
                """)
            lines.append("")
            lines.append("| scene | items | records | decode (records/s) | + profile | + stabiliser | whole path (records/s) | one edge: median | one edge: p99 |")
            lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
            for t in throughput {
                lines.append("| \(t.scene) | \(t.items) | \(t.records) | \(rate(t.decode)) | \(rate(t.translate)) | \(rate(t.stabilise)) | \(rate(t.whole)) | \(String(format: "%.2f µs", t.edgeMedian)) | \(String(format: "%.2f µs", t.edgeP99)) |")
            }
            lines.append("")
            lines.append("| scene | items | presses | timestamp → action: median | p99 | max | presses without an action | wall time |")
            lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
            for l in latency {
                lines.append(String(format: "| %@ | %d | %d | %.3f ms | %.3f ms | %.3f ms | %d | %.1f s |",
                                    l.scene, l.items, l.presses, l.median * 1000, l.p99 * 1000, l.maximum * 1000, l.missed, l.seconds))
            }
            lines.append("")
            lines += targets
            return lines.joined(separator: "\n")
        }
    }

    func run() -> Report {
        guard let devices = Self.repositoryFolder("Devices/switches") else {
            progress("Devices/switches was not found (run from the repository)")
            CurrentProcess.exit(1)
        }
        let profilePath = devices + "/generic-keyboard.yaml"
        let profile: SwitchProfile
        do {
            profile = try SwitchProfile.parse(yaml: try String(contentsOfFile: profilePath, encoding: .utf8), file: profilePath)
        } catch {
            progress("\(profilePath): \(error)")
            CurrentProcess.exit(1)
        }
        guard let scenarios = Self.repositoryFolder("Scenarios") else {
            progress("Scenarios was not found (run from the repository)")
            CurrentProcess.exit(1)
        }
        let seedPath = scenarios + "/switch-control-groups.yaml"
        let seed: Scene
        let large: Scene
        do {
            seed = try SceneParser.parse(yaml: try String(contentsOfFile: seedPath, encoding: .utf8), file: seedPath)
            large = try SceneParser.parse(yaml: generateScene(elements: 10_100).text, file: "generated-10000.yaml")
        } catch {
            progress("a scene did not load: \(error)")
            CurrentProcess.exit(1)
        }
        let scenes = [("seed switch-control-groups.yaml", seed), ("generated", large)]
        var throughput = [Throughput]()
        for (name, scene) in scenes {
            progress("throughput on \(name)")
            throughput.append(measureThroughput(name: name, scene: scene, profile: profile))
        }
        var latency = [Latency]()
        for (name, scene) in scenes {
            progress("latency on \(name): \(presses) presses, about \(Int(Double(presses) * 0.024 + 1)) s")
            latency.append(measureLatency(name: name, scene: scene, profilePath: profilePath))
        }
        return Report(throughput: throughput, latency: latency, profile: profile.id, presses: presses, runs: runs)
    }

    // MARK: (a) Throughput

    /// One edge's records, as a USB keyboard sends them.
    static func edgeRecords(time: Double, code: UInt16, value: Int32) -> [UInt8] {
        let key = DeviceEvent.EventType.key
        return RawEventDecoder.encode(DeviceEvent(time: time, type: DeviceEvent.EventType.msc, code: DeviceEvent.MscCode.scan, value: 0x70028))
            + RawEventDecoder.encode(DeviceEvent(time: time, type: key, code: code, value: value))
            + RawEventDecoder.encode(DeviceEvent(time: time, type: DeviceEvent.EventType.syn, code: DeviceEvent.SynCode.report, value: 0))
    }

    func measureThroughput(name: String, scene: Scene, profile: SwitchProfile) -> Throughput {
        let enter = KeyCodes.code(named: "KEY_ENTER") ?? 28
        let pressCount = 20_000
        var bytes = [UInt8]()
        bytes.reserveCapacity(pressCount * 2 * 3 * RawEventDecoder.recordSize)
        var edgeChunks = [[UInt8]]()
        for press in 0..<pressCount {
            let time = 1000 + Double(press) * 0.1
            let down = Self.edgeRecords(time: time, code: enter, value: 1)
            let up = Self.edgeRecords(time: time + 0.05, code: enter, value: 0)
            bytes += down
            bytes += up
            edgeChunks.append(down)
            edgeChunks.append(up)
        }
        let records = bytes.count / RawEventDecoder.recordSize
        let chunkSize = 1 << 16
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map { Array(bytes[$0..<min(bytes.count, $0 + chunkSize)]) }

        var settings = ScanSettings()
        settings.scanning = .manual
        let naming = SwitchNaming(profiles: [profile])
        let bindings = ScanSession.actionSwitches.merging(naming.bindings) { $1 }
        func freshSession() -> ScanSession {
            var session = ScanSession(scene: scene, settings: settings, bindings: bindings, pulseOnlySwitches: naming.pulseSwitches, time: 999)
            _ = session.start()
            return session
        }
        let stabiliserConfiguration = Stabilizer.Configuration(debounceTime: settings.debounceTime)

        var decode = [Double](), translate = [Double](), stabilise = [Double](), whole = [Double]()
        var edges = 0
        var sink = 0
        for _ in 0..<runs {
            // Decode alone.
            var started = DispatchTime.now().uptimeNanoseconds
            var decoder = RawEventDecoder()
            for chunk in chunks { sink &+= decoder.feed(chunk).count }
            decode.append(Double(records) / seconds(since: started))

            // Decode and the profile.
            started = DispatchTime.now().uptimeNanoseconds
            decoder = RawEventDecoder()
            var keys = ProfileEdges(profile: profile, naming: naming)
            edges = 0
            for chunk in chunks {
                for event in decoder.feed(chunk) where keys.edge(event, at: event.time) != nil { edges += 1 }
            }
            translate.append(Double(records) / seconds(since: started))

            // Decode, the profile and the stabiliser alone.
            started = DispatchTime.now().uptimeNanoseconds
            decoder = RawEventDecoder()
            keys = ProfileEdges(profile: profile, naming: naming)
            var stabiliser = Stabilizer(configuration: stabiliserConfiguration, bindings: bindings)
            for chunk in chunks {
                for event in decoder.feed(chunk) {
                    if let edge = keys.edge(event, at: event.time) { sink &+= stabiliser.handle(edge).count }
                }
            }
            stabilise.append(Double(records) / seconds(since: started))

            // The whole path: the session (stabiliser, engine, braille line) as the loop drives it.
            var session = freshSession()
            started = DispatchTime.now().uptimeNanoseconds
            decoder = RawEventDecoder()
            keys = ProfileEdges(profile: profile, naming: naming)
            for chunk in chunks {
                for event in decoder.feed(chunk) {
                    if let edge = keys.edge(event, at: event.time) { sink &+= session.input(edge).count }
                }
            }
            whole.append(Double(records) / seconds(since: started))
        }

        // One edge at a time through the whole path.
        var session = freshSession()
        var decoder = RawEventDecoder()
        var keys = ProfileEdges(profile: profile, naming: naming)
        var perEdge = [Double]()
        perEdge.reserveCapacity(edgeChunks.count)
        for chunk in edgeChunks {
            let started = DispatchTime.now().uptimeNanoseconds
            for event in decoder.feed(chunk) {
                if let edge = keys.edge(event, at: event.time) { sink &+= session.input(edge).count }
            }
            perEdge.append(seconds(since: started) * 1e6)
        }
        if sink == 42 { progress("") }  // keeps the work from being optimised away
        let items = freshSession().currentStructure().nodes.flatMap(\.items).count
        return Throughput(
            scene: name, items: items, records: records, edges: edges,
            decode: percentile(decode, 0.5), translate: percentile(translate, 0.5), stabilise: percentile(stabilise, 0.5),
            whole: percentile(whole, 0.5), edgeMedian: percentile(perEdge, 0.5), edgeP99: percentile(perEdge, 0.99))
    }

    // MARK: (b) Latency through LiveRun

    /// A braille output that notes when the loop hands it a line.
    final class ClockSink: ScanOutput {
        var shown = [(at: Double, text: String)]()
        var showsLines: Bool { true }
        var isShowingLines: Bool { true }
        func present(_ outputs: [SessionOutput], shown state: ShownState, at now: Double) {
            if state.lineIsNew { shown.append((now, state.line.text)) }
        }
        func showAhead(_ line: BrailleLine, language: String?, at now: Double) {
            shown.append((now, line.text))
        }
    }

    func measureLatency(name: String, scene: Scene, profilePath: String) -> Latency {
        let folder = NSTemporaryDirectory() + "switchscan-input-bench-\(CurrentProcess.id)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/events.fifo"
        try? FileSystem.remove(fifo)
        do {
            try FileSystem.makeFIFO(fifo)
        } catch {
            progress("\(error)")
            CurrentProcess.exit(1)
        }
        let made: InputSources.Made
        do {
            made = try InputSources.build([.raw(path: fifo)], profile: profilePath, profileDirectories: [], fast: false)
        } catch {
            progress("the raw input: \(error)")
            CurrentProcess.exit(1)
        }
        if !made.problems.isEmpty {
            progress("the raw input: \(made.problems.joined(separator: "; "))")
            CurrentProcess.exit(1)
        }
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.groupItems = false
        settings.debounceTime = 0.01
        let sink = ClockSink()
        let hold = 0.012, gap = 0.012
        let options = LiveRun.Options(
            scene: scene, settings: settings, terminalInput: false, terminalView: false, tracePath: nil,
            // A FIFO whose writer closes waits for the next writer (the live loop's fault rule), so
            // the run is given the stream's length and three seconds more.
            duration: Double(presses) * (hold + gap) + 3, sources: made.sources, outputs: [sink])
        let live: LiveRun
        do {
            live = try LiveRun(options)
        } catch {
            progress("LiveRun: \(error)")
            CurrentProcess.exit(1)
        }

        let enter = KeyCodes.code(named: "KEY_ENTER") ?? 28
        let writer = LatencyWriter(path: fifo, presses: presses, code: enter, hold: hold, gap: gap)
        let thread = Thread { writer.run() }
        let started = MonotonicClock.now()
        thread.start()
        let ending: LiveRun.Ending
        do {
            ending = try live.run()
        } catch {
            progress("LiveRun: \(error)")
            CurrentProcess.exit(1)
        }
        writer.finished.wait()
        let elapsed = MonotonicClock.now() - started
        if ending != .durationElapsed { progress("the live run ended with \(ending), not after the stream's length") }
        if let problem = writer.problem { progress(problem); CurrentProcess.exit(1) }

        // Each press's action is the first line handed over at or after its timestamp and before
        // the next press.
        let stamps = writer.stamps
        var samples = [Double]()
        var missed = 0
        var cursor = 0
        for (index, stamp) in stamps.enumerated() {
            while cursor < sink.shown.count, sink.shown[cursor].at < stamp { cursor += 1 }
            let next = index + 1 < stamps.count ? stamps[index + 1] : .infinity
            if cursor < sink.shown.count, sink.shown[cursor].at < next {
                samples.append(sink.shown[cursor].at - stamp)
                cursor += 1
            } else {
                missed += 1
            }
        }
        let items = ScanSession(scene: scene, settings: settings).currentStructure().nodes.flatMap(\.items).count
        return Latency(scene: name, items: items, presses: stamps.count, samples: samples, missed: missed, seconds: elapsed)
    }

    /// The repository's folder, from the current folder or above the executable.
    static func repositoryFolder(_ relative: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: relative, isDirectory: &isDirectory), isDirectory.boolValue { return relative }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = folder.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}

/// Writes presses into the FIFO from its own thread: for each, CLOCK_MONOTONIC read and written
/// as the record's timestamp, then `write(2)` at once; the release `hold` later; the next press
/// `gap` after that. Closing the FIFO ends the live run.
private final class LatencyWriter: @unchecked Sendable {
    let path: String
    let presses: Int
    let code: UInt16
    let hold: Double
    let gap: Double
    /// The press timestamps as written (seconds, CLOCK_MONOTONIC, to the microsecond).
    private(set) var stamps = [Double]()
    private(set) var problem: String?
    let finished = DispatchSemaphore(value: 0)

    init(path: String, presses: Int, code: UInt16, hold: Double, gap: Double) {
        self.path = path
        self.presses = presses
        self.code = code
        self.hold = hold
        self.gap = gap
    }

    func run() {
        defer { finished.signal() }
        let descriptor: FileDescriptor
        do {
            descriptor = try FileIO.open(path, .writeOnly)
        } catch {
            problem = "open \(path) for writing: \(error.errno.message)"
            return
        }
        defer { FileIO.close(descriptor) }
        sleep(seconds: 0.2)  // the loop is polling
        stamps.reserveCapacity(presses)
        for _ in 0..<presses {
            guard let stamp = writeEdge(descriptor, value: 1) else { return }
            stamps.append(stamp)
            sleep(seconds: hold)
            guard writeEdge(descriptor, value: 0) != nil else { return }
            sleep(seconds: gap)
        }
    }

    /// One EV_KEY record and a SYN_REPORT, stamped with CLOCK_MONOTONIC now; the stamp written.
    private func writeEdge(_ descriptor: FileDescriptor, value: Int32) -> Double? {
        let now = MonotonicClock.now()
        let seconds = Int64(now.rounded(.down)), micros = min(999_999, Int64(((now - now.rounded(.down)) * 1e6).rounded(.down)))
        let key = DeviceEvent(seconds: seconds, microseconds: micros, type: DeviceEvent.EventType.key, code: code, value: value)
        let syn = DeviceEvent(seconds: seconds, microseconds: micros, type: DeviceEvent.EventType.syn, code: DeviceEvent.SynCode.report, value: 0)
        let bytes = RawEventDecoder.encode(key) + RawEventDecoder.encode(syn)
        do {
            let written = try FileIO.writeOnce(descriptor, bytes[...])
            guard written == bytes.count else {
                problem = "write to \(path): \(written) of \(bytes.count) bytes"
                return nil
            }
        } catch {
            problem = "write to \(path): \(error.errno.message)"
            return nil
        }
        return key.time
    }

    private func sleep(seconds: Double) {
        MonotonicClock.sleep(seconds: seconds)
    }
}

private func seconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

private func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    if fraction == 0.5 {
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

private func rate(_ perSecond: Double) -> String {
    if perSecond >= 1e6 { return String(format: "%.2f M", perSecond / 1e6) }
    return String(format: "%.0f k", perSecond / 1e3)
}
