// The live application benchmark (issue 15): a GTK 3 window of 10,000 accessible objects (a
// list box of 5,000 rows, each a list item holding a label: Tests/LiveApps/gtk3_long_list.py) on
// a desktop of its own (Tests/LiveApps/live-session.sh: Xvfb, a private D-Bus session, the AT-SPI
// bus), operated by `switchscan run --atspi` (release build) and walked by a plain pyatspi script
// (Tests/LiveApps/pyatspi_walk.py, reading what switchscan's snapshot reads) in the same run.
//
//   swift build -c release --product switchscan --product switchscan-bench
//   .build/release/switchscan-bench live [--objects N] [--runs R] [--changes K] [--markdown]
//
// Figures, each the median of R runs (default 3) or of R × K change events (default 3):
// - first highlight: from starting `switchscan run --atspi --window "Long list"` to its trace's
//   first highlight of an element (the window is already shown: it is found, read and mapped);
//   against it, from starting the pyatspi script to its walk's end, and the walk alone;
// - one change event: the application renames the highlighted row's label (SIGUSR1); from the
//   signal to the new label in switchscan's trace (its braille line), and switchscan's CPU time
//   meanwhile; against it, from the signal to the pyatspi listener having read the new name;
// - peak memory: switchscan's VmHWM after its change events, the pyatspi walker's after its walk.
// A first pyatspi walk before any measurement makes the toolkit create its accessible objects
// (GTK creates them on first use); it is reported, not counted. The runs alternate (walk, run).
import Foundation
import Runtime
import Platform
#if canImport(Glibc)
import Glibc
#endif

func runLiveBenchmark(arguments: [String]) {
    do {
        try LiveBenchmark(arguments: arguments).run()
    } catch {
        benchProgress("live: \(error)")
        CurrentProcess.exit(1)
    }
}

private struct LiveBenchmark {
    let markdown: Bool
    let objects: Int
    let runs: Int
    let changes: Int

    init(arguments: [String]) throws {
        markdown = arguments.contains("--markdown")
        objects = Int(try numberOption("--objects", in: arguments) ?? 20_000)
        runs = Int(try numberOption("--runs", in: arguments) ?? 3)
        changes = Int(try numberOption("--changes", in: arguments) ?? 3)
        guard (2...1_000_000).contains(objects), (1...100).contains(runs), (1...100).contains(changes) else {
            throw BenchFailure("--objects takes 2…1000000, --runs and --changes 1…100")
        }
    }

    static let title = "Long list"

    /// live-session.sh with the long list: its environment, the application's PID and output.
    final class Desktop {
        let process = Process()
        let input = Pipe()
        var environment: [String: String] = [:]
        var appPID: pid_t = 0
        var rows = 0
        var appOutput = ""
        /// Rows the application was asked to append so far.
        var appended = 0

        init(apps: String, objects: Int, changeFile: String) throws {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [apps + "/live-session.sh", apps + "/gtk3_long_list.py"]
            var environment = ProcessInfo.processInfo.environment
            environment["LONG_LIST_OBJECTS"] = String(objects)
            environment["LONG_LIST_CHANGE_FILE"] = changeFile
            environment.removeValue(forKey: "WAYLAND_DISPLAY")
            process.environment = environment
            let output = Pipe()
            process.standardInput = input
            try FileIO.setCloseOnExec(FileDescriptor(rawValue: input.fileHandleForWriting.fileDescriptor))
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            while !text.contains("READY\n") {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { environment[parts[0]] = parts[1] }
            }
            // The application's output: FOLDER/SCRIPT.out (live-session.sh).
            guard let folder = environment["APP_FOLDER"], environment["DISPLAY"] != nil else {
                throw BenchFailure("live-session.sh did not start a desktop: \(text)")
            }
            self.environment = environment
            appOutput = folder + "/gtk3_long_list.py.out"
            // The window is shown when the application says "ready ROWS PID".
            let end = benchNow() + 120
            while benchNow() < end {
                let said = (try? String(contentsOfFile: appOutput, encoding: .utf8)) ?? ""
                if let line = said.split(separator: "\n").first(where: { $0.hasPrefix("ready ") }) {
                    let fields = line.split(separator: " ")
                    if fields.count == 3, let rows = Int(fields[1]), let pid = Int32(fields[2]), pid > 0 {
                        self.rows = rows
                        appPID = pid
                        return
                    }
                }
                benchSleep(0.1)
            }
            throw BenchFailure("the long list application did not start within 120 s")
        }

        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    /// A child whose standard output is read line by line, with a timeout.
    final class LineReader {
        let process = Process()
        let output = Pipe()
        private var buffer = ""

        init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = environment
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        /// The next line, or nil at the end or after `timeout` seconds.
        func line(timeout: Double) throws -> String? {
            let end = benchNow() + timeout
            while true {
                if let newline = buffer.firstIndex(of: "\n") {
                    let line = String(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    return line
                }
                let left = end - benchNow()
                guard left > 0 else { return nil }
                let descriptor = FileDescriptor(rawValue: output.fileHandleForReading.fileDescriptor)
                guard try !Poll.readable([descriptor], timeout: left).isEmpty else { continue }
                guard let bytes = try? FileIO.read(descriptor), !bytes.isEmpty else { return nil }
                buffer += String(decoding: bytes, as: UTF8.self)
            }
        }

        func stop() {
            if process.isRunning { try? ProcessSignal.send(SIGTERM, to: process.processIdentifier) }
            process.waitUntilExit()
        }
    }

    struct Walk {
        var objects: Int
        var wall: Double
        var walk: Double
        var peakKilobytes: Int
    }

    /// One pyatspi walk in a process of its own.
    func pyatspiWalk(apps: String, desktop: Desktop) throws -> Walk {
        let started = benchNow()
        let walker = try LineReader("/usr/bin/python3", [apps + "/pyatspi_walk.py", "walk", Self.title], environment: desktop.environment)
        defer { walker.stop() }
        guard let walked = try walker.line(timeout: 600), walked.hasPrefix("walked ") else {
            throw BenchFailure("the pyatspi walk did not finish (is python3-pyatspi installed? scripts/setup --tests)")
        }
        let wall = benchNow() - started
        let fields = walked.split(separator: " ")
        let peak = try walker.line(timeout: 10).flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        guard fields.count == 3, let count = Int(fields[1]), let seconds = Double(fields[2]) else {
            throw BenchFailure("the pyatspi walk printed '\(walked)'")
        }
        return Walk(objects: count, wall: wall, walk: seconds, peakKilobytes: peak)
    }

    struct Run {
        var firstHighlight: Double
        var changeLatencies: [Double]
        var changeCPU: [Double]
        var peakKilobytes: Int
        var label: String
        /// From the process start to the list's last row reached by Previous from the first row.
        var lastRowReached: Double
        /// From the application appending a row to the row highlighted by Next from the last row.
        var appendedReached: Double
    }

    /// The switch profile of the run: Enter is next, Left previous.
    static let profile = """
        name: live benchmark keys
        match: generic
        pulseOnly: false
        switches:
          - id: enter
            code: KEY_ENTER
            action: next
          - id: left
            code: KEY_LEFT
            action: previous

        """
    static let keyEnter: UInt16 = 28
    static let keyLeft: UInt16 = 105

    /// Presses and releases `key` through the FIFO and waits for the highlight it moves (a
    /// further highlight line in the trace); its label.
    static func press(_ key: UInt16, writer: FileDescriptor, trace: String, child: BenchChild) throws -> String {
        func highlights() -> [Substring] {
            ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains("\"kind\":\"highlight\"") }
        }
        let before = highlights().count
        for value: Int32 in [1, 0] {
            let stamp = (benchNow() * 1e6).rounded(.down) / 1e6
            let bytes = inputEventRecord(time: stamp, type: 1, code: key, value: value) + inputEventRecord(time: stamp, type: 0, code: 0, value: 0)
            do { try FileIO.writeAll(writer, bytes) } catch { throw BenchFailure("writing a key press: \(error)") }
            if value == 1 { benchSleep(0.05) }
        }
        let end = benchNow() + 60
        while benchNow() < end {
            let lines = highlights()
            if lines.count > before, let last = lines.last { return field("label", in: String(last)) ?? "" }
            guard child.isRunning else { throw BenchFailure("switchscan run exited (status \(child.status ?? -1))") }
            benchSleep(0.002)
        }
        throw BenchFailure("a key press moved no highlight within 60 s")
    }

    /// One `switchscan run --atspi`: the first highlight, then `changes` renames of the
    /// highlighted row, then its peak memory.
    func switchscanRun(_ switchscan: String, desktop: Desktop, scratch: String, index: Int, changeFile: String,
                       changeCount: inout Int) throws -> Run {
        let trace = "\(scratch)/trace-\(index).jsonl"
        let fifo = "\(scratch)/input-\(index).fifo"
        do { try FileSystem.makeFIFO(fifo) } catch { throw BenchFailure("\(error)") }
        let profile = "\(scratch)/keys.yaml"
        try Self.profile.write(toFile: profile, atomically: true, encoding: .utf8)
        let started = benchNow()
        let child = try BenchChild(
            switchscan,
            ["run", "--atspi", "--window", Self.title, "--no-view", "--no-overlay", "--settings", "none", "--profile", profile,
             "--set", "scanning=manual", "--set", "groupItems=false", "--input", "raw:\(fifo)", "--braille", "none",
             "--trace", trace, "--duration", "900"],
            name: "switchscan run --atspi", stdout: "\(scratch)/output-\(index).txt",
            stderr: "\(scratch)/errors-\(index).txt", environment: desktop.environment)
        defer { child.stop() }
        let writer = try openFIFOForWriting(fifo, reader: child, timeout: 600)
        defer { FileIO.close(writer) }
        // The first highlight of an element (the run first shows "no window" until it is read).
        var label = ""
        var firstHighlight = 0.0
        while true {
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.contains("\"kind\":\"highlight\",\"id\":\"") }) {
                firstHighlight = benchNow() - started
                label = Self.field("label", in: String(line)) ?? ""
                break
            }
            guard child.isRunning else { throw BenchFailure("switchscan run exited (status \(child.status ?? -1))") }
            guard benchNow() - started < 600 else { throw BenchFailure("no highlight within 600 s") }
            benchSleep(0.002)
        }
        // The highlighted row's number, for the application to rename it.
        guard label.hasPrefix("Row "), let row = Int(label.dropFirst(4).prefix { $0.isNumber }) else {
            throw BenchFailure("the first highlight is '\(label)', not a row of the list")
        }
        try String(row).write(toFile: changeFile, atomically: true, encoding: .utf8)
        var latencies = [Double](), cpu = [Double]()
        for _ in 0..<changes {
            changeCount += 1
            let expected = "Row \(row), change \(changeCount)"
            let cpuBefore = ProcessStatistics.cpuSeconds(of: child.pid) ?? 0
            let sent = benchNow()
            try? ProcessSignal.send(SIGUSR1, to: desktop.appPID)
            while true {
                let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
                // The braille line: the label, then the traits ("Row 0, change 1 sel").
                if ["\"", " "].contains(where: { text.contains("\"text\":\"\(expected)\($0)") }) { latencies.append(benchNow() - sent); break }
                guard benchNow() - sent < 600 else { throw BenchFailure("'\(expected)' never reached switchscan's trace") }
                benchSleep(0.002)
            }
            cpu.append((ProcessStatistics.cpuSeconds(of: child.pid) ?? 0) - cpuBefore)
            // Let the events that follow (none expected) settle before the next change.
            benchSleep(0.2)
        }
        // The whole list read (its rows past the first screenful come between loop turns): Previous
        // from the first row reaches the last one, else a row of those read so far (then Next goes
        // back to the first row, and it is tried again).
        func isLast(_ label: String) -> Bool {
            label == "Row \(desktop.rows - 1)" || label.hasPrefix("Appended ")
        }
        func isRow(_ label: String) -> Bool { label.hasPrefix("Row ") || label.hasPrefix("Appended ") }
        // Previous from the first row to the last row: past what follows the rows in the scan
        // (the list's scroll bar, on screen, comes after the rows out of view).
        func previousRow() throws -> String {
            var reached = ""
            for _ in 0..<4 {
                reached = try Self.press(Self.keyLeft, writer: writer, trace: trace, child: child)
                if isRow(reached) { break }
            }
            return reached
        }
        // Back to the first row.
        func firstRow() throws {
            for _ in 0..<4 {
                let reached = try Self.press(Self.keyEnter, writer: writer, trace: trace, child: child)
                if reached == "Row \(row)" || reached.hasPrefix("Row \(row),") { break }
            }
        }
        var lastRowReached = 0.0
        while true {
            let reached = try previousRow()
            if isLast(reached) { lastRowReached = benchNow() - started; break }
            try firstRow()
            guard benchNow() - started < 600 else { throw BenchFailure("the last row was not reached within 600 s ('\(reached)')") }
            // Tried every 2 s, as a user might: each try highlights a row out of view, which is
            // scrolled to and makes the window be read again (its first 60 rows).
            benchSleep(2)
        }
        // A row appended (GTK 3 sends no children-changed for it): from the signal to Next from
        // the last row highlighting it (the highlight is on the last row, scrolled into view; a
        // Next that reaches what follows the rows is taken back by Previous, which highlights the
        // appended row once it is placed between them, and tried again). The presses'
        // own time is in the figure.
        benchSleep(0.5)
        desktop.appended += 1
        let expected = "Appended \(desktop.appended)"
        let sent = benchNow()
        try? ProcessSignal.send(SIGUSR2, to: desktop.appPID)
        var appendedReached = 0.0
        while true {
            let reached = try Self.press(Self.keyEnter, writer: writer, trace: trace, child: child)
            if reached == expected { appendedReached = benchNow() - sent; break }
            // Back: on the row appended meanwhile (it came between the last row and what follows).
            if try Self.press(Self.keyLeft, writer: writer, trace: trace, child: child) == expected { appendedReached = benchNow() - sent; break }
            guard benchNow() - sent < 600 else { throw BenchFailure("'\(expected)' was not reached within 600 s ('\(reached)')") }
        }
        let peak = Self.peakKilobytes(of: child.pid)
        return Run(firstHighlight: firstHighlight, changeLatencies: latencies, changeCPU: cpu, peakKilobytes: peak, label: label,
                   lastRowReached: lastRowReached, appendedReached: appendedReached)
    }

    /// The pyatspi listener's latency for `changes` renames of row 0.
    func pyatspiChanges(apps: String, desktop: Desktop, changeFile: String, changeCount: inout Int) throws -> [Double] {
        try "0".write(toFile: changeFile, atomically: true, encoding: .utf8)
        let listener = try LineReader("/usr/bin/python3", [apps + "/pyatspi_walk.py", "listen", Self.title], environment: desktop.environment)
        defer { listener.stop() }
        while true {
            guard let line = try listener.line(timeout: 600) else { throw BenchFailure("the pyatspi listener did not start") }
            if line == "listening" { break }
        }
        benchSleep(0.5)
        var latencies = [Double]()
        for _ in 0..<(runs * changes) {
            changeCount += 1
            let expected = "Row 0, change \(changeCount)"
            let sent = benchNow()
            try? ProcessSignal.send(SIGUSR1, to: desktop.appPID)
            while true {
                guard let line = try listener.line(timeout: 60) else { throw BenchFailure("'\(expected)' never reached the pyatspi listener") }
                let fields = line.split(separator: " ", maxSplits: 2)
                if fields.count == 3, fields[0] == "changed", fields[2] == expected, let at = Double(fields[1]) {
                    latencies.append(at - sent)
                    break
                }
            }
            benchSleep(0.2)
        }
        return latencies
    }

    static func field(_ name: String, in line: String) -> String? {
        guard let range = line.range(of: "\"\(name)\":\"") else { return nil }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
    }

    static func peakKilobytes(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        }
        return 0
    }

    func run() throws {
        let package = try BenchPackage.locate()
        _ = FileManager.default.changeCurrentDirectoryPath(package.root)
        let switchscan = try package.switchscan()
        let apps = package.root + "/Tests/LiveApps"
        let scratch = try makeScratchFolder("live")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        ProcessSignal.ignore(SIGPIPE)
        let changeFile = scratch + "/change-row"
        benchProgress("live: starting the desktop and the long list (\(objects) objects)")
        let desktop = try Desktop(apps: apps, objects: objects, changeFile: changeFile)
        defer { desktop.stop() }
        var changeCount = 0
        let warmUp = try pyatspiWalk(apps: apps, desktop: desktop)
        benchProgress(String(format: "live: first pyatspi walk (the toolkit creates its objects): %d objects, %.2f s", warmUp.objects, warmUp.walk))
        var walks = [Walk](), results = [Run]()
        for index in 0..<runs {
            walks.append(try pyatspiWalk(apps: apps, desktop: desktop))
            benchProgress(String(format: "live: pyatspi walk %d: %.2f s (process %.2f s)", index + 1, walks.last!.walk, walks.last!.wall))
            results.append(try switchscanRun(switchscan, desktop: desktop, scratch: scratch, index: index, changeFile: changeFile,
                                             changeCount: &changeCount))
            benchProgress(String(format: "live: switchscan run %d: first highlight (%@) after %.2f s, changes %@, last row reached after %.2f s, appended row reached after %.3f s", index + 1,
                                 results.last!.label, results.last!.firstHighlight,
                                 results.last!.changeLatencies.map { String(format: "%.3f s", $0) }.joined(separator: ", "),
                                 results.last!.lastRowReached, results.last!.appendedReached))
        }
        let listened = try pyatspiChanges(apps: apps, desktop: desktop, changeFile: changeFile, changeCount: &changeCount)
        report(objects: warmUp.objects, rows: desktop.rows, warmUp: warmUp, walks: walks, results: results, listened: listened)
    }

    func loadAverage() -> Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { Double($0) } ?? 0
    }

    func report(objects: Int, rows: Int, warmUp: Walk, walks: [Walk], results: [Run], listened: [Double]) {
        let ours = median(results.map(\.firstHighlight))
        let theirs = median(walks.map(\.wall))
        let walkOnly = median(walks.map(\.walk))
        let change = median(results.flatMap(\.changeLatencies))
        let changeCPU = median(results.flatMap(\.changeCPU))
        let theirChange = median(listened)
        let lastRow = median(results.map(\.lastRowReached))
        let appended = median(results.map(\.appendedReached))
        let peak = median(results.map { Double($0.peakKilobytes) }) / 1024
        let theirPeak = median(walks.map { Double($0.peakKilobytes) }) / 1024
        func s(_ value: Double) -> String { String(format: "%.3f s", value) }
        func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2f ×", a / b) : "n/a" }
        var lines = [
            "## Live application: a window of \(objects) accessible objects",
            "",
            "`switchscan-bench live`: a GTK 3 list box of \(rows) rows (each a list item holding a label; \(objects) objects "
                + "in the window, the frame included) on Xvfb with a private D-Bus session and the AT-SPI bus; `switchscan run "
                + "--atspi` (release build, `groupItems=false`, manual scanning, no overlay) against a plain pyatspi walk "
                + "(Tests/LiveApps/pyatspi_walk.py: role, name, description, states, extents, actions and value of each object) "
                + "in the same run, alternating, \(results.count) runs each; medians. A first pyatspi walk, not counted, "
                + String(format: "made GTK create its accessible objects (%.2f s).", warmUp.walk),
            "",
            "| figure | switchscan | pyatspi | switchscan / pyatspi |",
            "|---|---:|---:|---:|",
            "| process start → first highlight (switchscan) / walk done (pyatspi) | \(s(ours)) | \(s(theirs)) | \(ratio(ours, theirs)) |",
            "| the walk alone (pyatspi) | | \(s(walkOnly)) | \(ratio(ours, walkOnly)) |",
            "| one change event: label renamed → seen (switchscan: new braille line; pyatspi: name read in its listener) | \(s(change)) | \(s(theirChange)) | \(ratio(change, theirChange)) |",
            "| CPU time of switchscan for one change event | \(s(changeCPU)) | | |",
            "| process start → the last row reached (Previous from the first row; the rows past the first screenful are read between loop turns) | \(s(lastRow)) | \(s(theirs)) | \(ratio(lastRow, theirs)) |",
            "| a row appended (no children-changed) → highlighted by Next from the last row (the presses' time included) | \(s(appended)) | | |",
            String(format: "| peak memory (VmHWM) | %.1f MiB | %.1f MiB | %@ |", peak, theirPeak, ratio(peak, theirPeak)),
            "",
        ]
        let all = results.flatMap(\.changeLatencies).map { String(format: "%.3f", $0) }.joined(separator: ", ")
        lines.append("Every change event, in seconds: \(all). switchscan reads the renamed object and the objects of GTK 3's "
            + "relayout (bounds changes) alone, the events that arrived together as one batch; the pyatspi listener only "
            + "reads the changed object's name.")
        lines.append(String(format: "Load average (1 min) at the end: %.2f.", loadAverage()))
        if !markdown { lines = lines.filter { !$0.hasPrefix("|---") } }
        print(lines.joined(separator: "\n"))
    }
}
