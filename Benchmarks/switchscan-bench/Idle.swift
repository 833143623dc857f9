// Idle cost (issue 7 part 4, issue 6's "CPU while auto-scanning at one step per second"): the
// CPU time and wake-ups of the real `switchscan run` process (release build) while it
// auto-scans at one step per second and while it is stopped (manual scanning, no input), each
// with and without a braille display (BRLTTY on an emulated Baum display); and, when the live
// desktop's programs are installed (Xvfb, D-Bus, python3-gi), while it auto-scans a live GTK 4
// window through AT-SPI (`run --atspi`, issue 15: under 1 % of a core) on a desktop of its own.
//
//   swift build -c release --product switchscan --product switchscan-bench
//   .build/release/switchscan-bench idle [--seconds N] [--markdown]
//
// The four runs go side by side, each in a process of its own with a raw input FIFO that the
// benchmark holds open and never writes to. After they are ready (the display connected, the first
// line written) and one more second, the benchmark reads, at the start and end of N seconds
// (default 60): /proc/PID/task/*/schedstat (time on a CPU, ns), /proc/PID/stat (utime + stime,
// every thread, in clock ticks) and /proc/PID/task/*/status (voluntary context switches: each
// time a thread slept and was woken, its wake-ups; involuntary ones: preemptions). Costs N +
// about 5 s of wall time.
import BrailleTestSupport
import Foundation
import LiveTestSupport
import Platform
#if canImport(Glibc)
import Glibc
#endif

func runIdleBenchmark(arguments: [String]) {
    do {
        try IdleBenchmark(arguments: arguments).run()
    } catch {
        benchProgress("idle: \(error)")
        CurrentProcess.exit(1)
    }
}

private struct IdleBenchmark {
    let markdown: Bool
    let seconds: Double

    init(arguments: [String]) throws {
        markdown = arguments.contains("--markdown")
        seconds = try numberOption("--seconds", in: arguments) ?? 60
    }

    struct Case {
        let autoScanning: Bool
        let display: Bool
        /// A live GTK 4 window through AT-SPI instead of the scene.
        var live = false
        var name: String {
            (autoScanning ? "auto-scanning, one step per second" : "stopped (manual scanning, no input)")
                + (live ? ", a live GTK 4 window (AT-SPI)" : "")
        }
    }

    /// One running case.
    final class Running {
        let scenario: Case
        let child: BenchChild
        let trace: String
        let errors: String
        let fifo: FileDescriptor
        var start: Snapshot?
        var end: Snapshot?

        init(_ scenario: Case, child: BenchChild, trace: String, errors: String, fifo: FileDescriptor) {
            self.scenario = scenario
            self.child = child
            self.trace = trace
            self.errors = errors
            self.fifo = fifo
        }
    }

    /// What /proc says about a process at one moment.
    struct Snapshot {
        var time: Double
        /// utime + stime, seconds (every thread, the exited ones included; clock ticks).
        var cpu: Double
        /// Time on a CPU, seconds, summed over the live threads (/proc/PID/task/*/schedstat:
        /// nanoseconds).
        var onCPU: Double
        /// Voluntary and involuntary context switches summed over the live threads.
        var voluntary: Int
        var involuntary: Int
        var threads: [String: Int]
        /// Highlight lines in the trace so far (steps taken).
        var steps: Int
        var writes: Int

        init?(pid: pid_t, trace: String) {
            time = benchNow()
            guard let cpu = ProcessStatistics.cpuSeconds(of: pid) else { return nil }
            self.cpu = cpu
            voluntary = 0
            involuntary = 0
            onCPU = 0
            threads = [:]
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks {
                guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
                var name = task, switches = 0
                for line in status.split(separator: "\n") {
                    let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2 else { continue }
                    switch parts[0] {
                    case "Name": name = "\(parts[1]) (\(task))"
                    case "voluntary_ctxt_switches": voluntary += Int(parts[1]) ?? 0; switches += Int(parts[1]) ?? 0
                    case "nonvoluntary_ctxt_switches": involuntary += Int(parts[1]) ?? 0; switches += Int(parts[1]) ?? 0
                    default: break
                    }
                }
                threads[name] = switches
                if let schedstat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
                   let nanoseconds = schedstat.split(separator: " ").first.flatMap({ Double($0) }) {
                    onCPU += nanoseconds / 1e9
                }
            }
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            steps = text.components(separatedBy: "\"kind\":\"highlight\"").count - 1
            writes = text.components(separatedBy: "\"kind\":\"brailleWritten\"").count - 1
        }
    }

    func run() throws {
        let package = try BenchPackage.locate()
        _ = FileManager.default.changeCurrentDirectoryPath(package.root)
        let switchscan = try package.switchscan()
        let scratch = try makeScratchFolder("idle")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        ProcessSignal.ignore(SIGPIPE)
        let scene = scratch + "/scene.yaml"
        try benchmarkSceneYAML(title: "Idle").write(toFile: scene, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: scratch + "/config", withIntermediateDirectories: true)

        var cases = [Case(autoScanning: true, display: false), Case(autoScanning: true, display: true),
                     Case(autoScanning: false, display: false), Case(autoScanning: false, display: true)]
        // The live case runs on a desktop of its own (Xvfb, a private D-Bus, the AT-SPI bus, the
        // GTK 4 demo of the live tests), stopped with the benchmark.
        var desktop: LiveDesktop?
        defer { desktop?.stop() }
        if LiveDesktop.isAvailable {
            let started = try LiveDesktop(apps: ["gtk4_demo.py"])
            desktop = started
            let readyBy = benchNow() + 20
            while !started.output(of: "gtk4_demo.py").contains("ready"), benchNow() < readyBy { benchSleep(0.1) }
            cases.append(Case(autoScanning: true, display: false, live: true))
        } else {
            benchProgress("idle: the live desktop's programs (Xvfb, dbus, python3-gi) are not installed: no live-window case")
        }
        // A BRLTTY and an emulated display for each case with a display (one client per display).
        var displays = [(emulator: BaumDisplayEmulator, brltty: BRLTTYProcess)]()
        var runs = [Running]()
        defer {
            for run in runs {
                run.child.stop()
                FileIO.close(run.fifo)
            }
            for display in displays {
                display.brltty.stop()
                display.emulator.stop()
            }
        }
        for (index, scenario) in cases.enumerated() {
            var arguments = ["run"] + (scenario.live ? ["--atspi", "--window", "Demo"] : [scene]) + [
                             "--input", "raw:\(scratch)/input-\(index).fifo", "--no-view",
                             "--trace", "\(scratch)/trace-\(index).jsonl", "--set", "groupItems=false",
                             // A safety net: the run ends by itself if this benchmark dies.
                             "--duration", String(Int(seconds) + 60)]
            arguments += scenario.autoScanning
                ? ["--set", "scanning=auto", "--set", "autoScanningTime=1", "--set", "loops=100"]
                : ["--set", "scanning=manual"]
            if scenario.display {
                let display = try startEmulatedDisplay(cells: 40)
                displays.append(display)
                arguments += ["--braille", "brlapi:\(display.brltty.host)", "--braille-auth", "none"]
            } else {
                arguments += ["--braille", "none"]
            }
            let fifo = "\(scratch)/input-\(index).fifo"
            do { try FileSystem.makeFIFO(fifo) } catch { throw BenchFailure("\(error)") }
            let errors = "\(scratch)/errors-\(index).txt"
            var environment = ["XDG_CONFIG_HOME": scratch + "/config"]
            if scenario.live, let desktop { environment.merge(desktop.environment) { _, new in new } }
            let child = try BenchChild(switchscan, arguments, name: "switchscan run (\(scenario.name))",
                                       stdout: "\(scratch)/output-\(index).txt", stderr: errors,
                                       environment: environment)
            let writer = try openFIFOForWriting(fifo, reader: child, timeout: 10)
            runs.append(Running(scenario, child: child, trace: "\(scratch)/trace-\(index).jsonl", errors: errors, fifo: writer))
        }
        benchProgress("idle: \(runs.count) runs of switchscan (pids \(runs.map { String($0.child.pid) }.joined(separator: ", "))), \(seconds) s each, side by side")
        // Ready: the screen in the trace, and the display's first line written.
        let readyBy = benchNow() + 15
        for run in runs {
            while true {
                let text = (try? String(contentsOfFile: run.trace, encoding: .utf8)) ?? ""
                // A live run is ready once the window is its screen (not "no window").
                let screenShown = run.scenario.live ? text.contains("\"kind\":\"highlight\",\"id\":\"")
                    : text.contains("\"kind\":\"screen\"")
                if screenShown, !run.scenario.display || text.contains("\"brailleWritten\"") { break }
                guard run.child.isRunning else {
                    throw BenchFailure("\(run.child.name) exited (status \(run.child.status ?? -1)): \((try? String(contentsOfFile: run.errors, encoding: .utf8)) ?? "")")
                }
                guard benchNow() < readyBy else { throw BenchFailure("\(run.child.name) was not ready within 15 s") }
                benchSleep(0.05)
            }
        }
        benchSleep(1)
        for run in runs { run.start = Snapshot(pid: run.child.pid, trace: run.trace) }
        benchSleep(seconds)
        for run in runs { run.end = Snapshot(pid: run.child.pid, trace: run.trace) }
        for run in runs where !run.child.isRunning {
            throw BenchFailure("\(run.child.name) ended during the measurement (status \(run.child.status ?? -1))")
        }
        report(runs)
    }

    func report(_ runs: [Running]) {
        var rows = [String]()
        var autoFigures = [(display: Bool, live: Bool, cpu: Double)]()
        for run in runs {
            guard let start = run.start, let end = run.end else { continue }
            let wall = end.time - start.time
            // The nanosecond figure; the tick-based one (exited threads included) when it is larger.
            let cpu = max(end.onCPU - start.onCPU, end.cpu - start.cpu) / wall * 100
            let voluntary = Double(end.voluntary - start.voluntary) / wall
            let involuntary = Double(end.involuntary - start.involuntary) / wall
            let steps = Double(end.steps - start.steps) / wall
            let writes = Double(end.writes - start.writes) / wall
            if run.scenario.autoScanning { autoFigures.append((run.scenario.display, run.scenario.live, cpu)) }
            rows.append(String(format: "| %@ | %@ | %.3f %% | %.2f | %.2f | %.2f | %.2f |", run.scenario.name,
                               run.scenario.display ? "connected" : "none", cpu, voluntary, involuntary, steps, writes))
            var perThread = [String]()
            for (thread, count) in end.threads.sorted(by: { $0.key < $1.key }) {
                perThread.append("\(thread): \(count - (start.threads[thread] ?? 0))")
            }
            benchProgress("idle: \(run.scenario.name), display \(run.scenario.display ? "connected" : "none"): context switches by thread over \(String(format: "%.1f", wall)) s: \(perThread.joined(separator: ", "))")
        }
        let worst = autoFigures.map(\.cpu).max() ?? .nan
        let target = 1.0
        var lines = [
            "## Idle cost: CPU and wake-ups of `switchscan run`",
            "",
            "`switchscan-bench idle`: `switchscan run` processes (release build) side by side for \(Int(seconds)) s each, "
                + "on a 40-button scene with `groupItems=false` and a raw input FIFO held open with nothing written: auto-scanning "
                + "at one step per second (`scanning=auto`, `autoScanningTime=1`) and stopped (`scanning=manual`, no input), each "
                + "with no braille output and with a braille display (BRLTTY, Baum driver, on the emulated 40-cell Baum display; "
                + "one BRLTTY per run), and a trace file; and, last, auto-scanning the live GTK 4 demo window through AT-SPI "
                + "(`run --atspi --window Demo`, its own Xvfb, D-Bus and AT-SPI bus). CPU: time on a CPU summed over the process's threads "
                + "(/proc/PID/task/*/schedstat, nanoseconds; utime + stime of /proc/PID/stat if larger); wake-ups: "
                + "voluntary context switches (the thread slept and was woken), preemptions: involuntary ones, summed over the "
                + "process's threads (/proc/PID/task/*/status).",
            "",
            "| case | braille display | CPU (of one core) | wake-ups per second | preemptions per second | steps per second | BrlAPI writes per second |",
            "|---|---|---:|---:|---:|---:|---:|",
        ] + rows + [""]
        let figure = autoFigures.map {
            String(format: "%.3f %% %@", $0.cpu, $0.live ? "on a live GTK 4 window" : $0.display ? "with the display" : "without")
        }.joined(separator: ", ")
        lines.append("Target under \(Int(target)) % of a core while auto-scanning: " + (worst < target ? "met (\(figure))." : "missed (\(figure))."))
        if !markdown { lines = lines.filter { !$0.hasPrefix("|---") } }
        print(lines.joined(separator: "\n"))
    }
}
