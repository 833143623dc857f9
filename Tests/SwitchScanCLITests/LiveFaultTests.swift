import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Platform

/// The live loop under faults (issue 11): a stream whose clock jumps, a trace that cannot be
/// written, a trace kept across runs, inputs that all fail. (A process stopped and continued:
/// its missed steps come once, late; decided by `RunStateMachine`, tested on a manual clock in
/// `RunControlTests`, and end to end with Ctrl-Z and `fg` in `TerminalViewTests`.)
extension InputRunTests {
    /// Highlight times (seconds since start) of one run's part of the trace.
    static func highlightTimes(_ trace: [[String: Any]]) -> [Double] {
        trace.filter { $0["kind"] as? String == "highlight" }.compactMap { ($0["time"] as? NSNumber)?.doubleValue }
    }

    /// How many lines of `kind` the trace at `path` has so far (read while the run writes it).
    static func traceCount(_ kind: String, in path: String) -> Int {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").components(separatedBy: "\"kind\":\"\(kind)\"").count - 1
    }

    /// Waits until `condition` (given `traceCount` of the trace at `path`) holds, or `deadline`
    /// passes: the run gets to a point however long a busy machine takes; the deadline only
    /// guards against a run that never does.
    static func waitForTrace(_ path: String, until deadline: Date, _ condition: ((String) -> Int) -> Bool) {
        while !condition({ traceCount($0, in: path) }), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    @Test func aRecordDatedAnHourAheadDoesNotHoldAutoScanningBack() throws {
        let fifo = folder.url.appendingPathComponent("jump.fifo").path
        #expect(throws: Never.self) { try FileSystem.makeFIFO(fifo) }
        let record = CLI.inputEventRecord
        // loops=100: scanning must not stop by itself (the default 4 loops, about 3.4 s here; 100, about 85 s) however
        // long a loaded machine keeps this test from writing its records (seen in a full run: 6.4 s).
        let result = try run(["--input", "raw:\(fifo)", "--input", "terminal", "--set", "scanning=auto",
                              "--set", "autoScanningTime=0.2", "--set", "loops=100"]) { _ in
            let writer = try CLI.fifoWriter(fifo)
            // Enter tapped (next), then a record dated an hour later: Enter again.
            writer.write(record(100, 1, 28, 1) + record(100, 0, 0, 0) + record(100.05, 1, 28, 0) + record(100.05, 0, 0, 0))
            // The first batch must be read on its own (read together, the two would be one batch
            // spanning an hour, dated as a recording read whole is): wait until the run has
            // handled it, however busy the machine.
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                let text = (try? String(contentsOfFile: tracePath, encoding: .utf8)) ?? ""
                if text.contains("\"kind\":\"input\"") { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            Thread.sleep(forTimeInterval: 0.2)
            writer.write(record(3700, 1, 28, 1) + record(3700, 0, 0, 0) + record(3700.05, 1, 28, 0) + record(3700.05, 0, 0, 0))
            // Once the jump's edges are handled, three steps more by themselves: waited for (a
            // held-back scan never gives them; the 30 s only guard against that hang).
            let stepsBy = Date().addingTimeInterval(30)
            Self.waitForTrace(tracePath, until: stepsBy) { $0("input") >= 4 }
            let highlightsAtJump = Self.traceCount("highlight", in: tracePath)
            Self.waitForTrace(tracePath, until: stepsBy) { $0("highlight") >= highlightsAtJump + 3 }
            try writer.close()
        }
        #expect(result.status == 0, "\(result)")
        let jump = result.statuses.first { $0.contains("the stream's clock jumped ahead") }
        #expect(jump != nil, "the jump is said: \(result)")
        // Every edge is dated on the loop's clock, never more than the reading jitter (50 ms)
        // ahead of the moment it was handled (the hour-ahead record included).
        for line in result.trace where line["kind"] as? String == "input" {
            let time = try #require((line["time"] as? NSNumber)?.doubleValue)
            let handled = try #require((line["handled"] as? NSNumber)?.doubleValue, "\(line)")
            #expect(time <= handled + 0.05 + 0.000_01, "\(line)")
            #expect(line["timestamp"] != nil, "the stream's own timestamp is kept: \(line)")
        }
        // Auto scanning went on after the jump: steps by themselves after its edges were handled.
        let times = Self.highlightTimes(result.trace)
        let jumpInput = try #require(result.trace.last { $0["kind"] as? String == "input" }, "\(result)")
        let jumpHandled = try #require((jumpInput["handled"] as? NSNumber)?.doubleValue, "\(jumpInput)")
        #expect(times.filter { $0 > jumpHandled }.count >= 3, "highlights at \(times), the jump handled at \(jumpHandled)")
    }

    @Test func theTraceIsKeptAcrossRunsAndCarriesTimerDecisions() throws {
        let file = try folder.write("switch.evemu", Self.recording)
        for _ in 0..<2 {
            let result = try run(["--input", "evemu:\(file)", "--fast", "--profile", "Devices/switches/generic-keyboard.yaml",
                                  "--set", "holdDuration=0.05"])
            #expect(result.status == 0, "\(result)")
        }
        let trace = try RunCommandTests.traceEvents(tracePath)
        let runs = trace.filter { $0["kind"] as? String == "run" }
        #expect(runs.count == 2, "both runs' lines are there, each after its run line: \(runs)")
        #expect(runs.allSatisfy { ($0["started"] as? String)?.hasSuffix("Z") == true && $0["pid"] != nil }, "\(runs)")
        // holdDuration: the press begins when its timer fires; that decision is in the trace.
        let timers = trace.filter { $0["kind"] as? String == "timer" && $0["timer"] as? String == "hold" }
        #expect(!timers.isEmpty, "hold timers are traced")
        let began = trace.filter { $0["kind"] as? String == "action" && $0["phase"] as? String == "began" }
        #expect(began.count >= 2, "each began action is traced: \(began)")
    }

    @Test func aTraceThatCannotBeWrittenIsSaidOnceAndScanningGoesOn() throws {
        // /dev/full: every write fails with ENOSPC, as on a full disk.
        let file = try folder.write("switch.evemu", Self.recording)
        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["run", Self.scene, "--set", "scanning=manual", "--no-view", "--braille", "none", "--settings", "none",
                             "--input", "evemu:\(file)", "--fast", "--trace", "/dev/full"]
        process.currentDirectoryURL = CLI.packageRoot
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = try folder.outputFile("stdout-1")
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        let lines = stderr.split(separator: "\n").filter { $0.contains("trace: cannot write /dev/full") }
        #expect(lines.count == 1, "said once: \(stderr)")
        #expect(lines.first?.contains("No space left on device") == true, "\(stderr)")
    }

    @Test func aRunWhoseEveryInputFailedExitsNonZero() throws {
        let result = try run(["--input", "raw:\(folder.url.path)/missing.fifo", "--input", "evemu:\(folder.url.path)/missing.evemu"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("every switch input failed"), "\(result)")
        #expect(result.statuses.contains { $0.contains("missing.fifo: cannot open it: No such file or directory") }, "\(result)")
    }
}
