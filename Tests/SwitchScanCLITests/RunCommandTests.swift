import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Platform

/// `switchscan run` as a user runs it: keystrokes on standard input (a pipe, then a real
/// terminal under tmux), the trace it writes, the screen it draws, and how it ends.
@Suite("switchscan run", .serialized)
struct RunCommandTests {
    /// The trace file's lines, parsed.
    static func traceEvents(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func keystrokesFromAPipeDriveTheScannerAndTheTraceRecordsIt() throws {
        let folder = try TemporaryFolder()
        let trace = folder.url.appendingPathComponent("trace.jsonl").path
        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["run", "Scenarios/switch-control-groups.yaml", "--set", "scanning=manual", "--no-view", "--trace", trace]
        process.currentDirectoryURL = CLI.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path]) { $1 }  // not the user's settings
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try folder.outputFile("stdout-1")
        try process.run()
        // Enter moves to Btn 1, then Space opens its menu, then Space again taps it.
        for chunk in ["\r", " ", " "] {
            input.fileHandleForWriting.write(Data(chunk.utf8))
            Thread.sleep(forTimeInterval: 0.15)
        }
        try input.fileHandleForWriting.close()  // the end of input ends the run
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let events = try Self.traceEvents(trace)
        #expect(events.allSatisfy { $0["time"] is Double || $0["time"] is Int })
        let kinds = events.compactMap { $0["kind"] as? String }
        // Each run starts with its `run` line (the trace is appended to), then the first screen.
        #expect(kinds.prefix(2) == ["run", "screen"])
        let highlights = events.filter { $0["kind"] as? String == "highlight" }.compactMap { $0["id"] as? String }
        #expect(highlights.prefix(2) == ["test-wrap", "btn-1"])
        let menu = try #require(events.first { $0["kind"] as? String == "menu" })
        #expect(menu["entries"] as? [String] == ["Tap", "Exit menu"])
        let perform = try #require(events.first { $0["kind"] as? String == "perform" })
        #expect(perform["id"] as? String == "btn-1")
        #expect(perform["action"] as? String == "activate")
        let inputs = events.filter { $0["kind"] as? String == "input" }
        #expect(inputs.compactMap { $0["switch"] as? String } == ["key:enter", "key:space", "key:space"])
        #expect(inputs.allSatisfy { $0["accepted"] as? Bool == true })
    }

    @Test func autoScanningRunsOnTheRealClockWithoutPolling() throws {
        let folder = try TemporaryFolder()
        let trace = folder.url.appendingPathComponent("trace.jsonl").path
        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["run", "Scenarios/switch-control-groups.yaml", "--set", "autoScanningTime=0.2",
                             "--no-view", "--trace", trace, "--duration", "0.5"]
        process.currentDirectoryURL = CLI.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path]) { $1 }  // not the user's settings
        let input = Pipe()  // kept open: the run ends by its duration
        process.standardInput = input
        process.standardOutput = try folder.outputFile("stdout-2")
        let started = Date()
        try process.run()
        process.waitUntilExit()
        let elapsed = Date().timeIntervalSince(started)
        try input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 0)
        // When the duration ends the run is the run state machine's decision, tested on a manual
        // clock (RunStateMachineTests.durationElapsed); here, that it ends by itself.
        let highlights = try Self.traceEvents(trace).filter { $0["kind"] as? String == "highlight" }
        // With no input, the steps come by themselves, in scan order (due at 0, 0.2 and 0.4 s; a
        // busy machine may fire a timer late, so fewer may fit in the 0.5 s).
        let ids = highlights.compactMap { $0["id"] as? String }
        #expect(ids.count >= 2, "no step came by itself: \(ids)")
        #expect(ids == Array(["test-wrap", "btn-1", "btn-2", "third-group", "test-wrap"].prefix(ids.count)), "\(ids)")
        // A step never comes before its time (the run's clock is the real one): each at least a
        // step's time after the one before.
        let times = highlights.compactMap { ($0["time"] as? NSNumber)?.doubleValue }
        #expect(times.count == ids.count)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= 0.2 - 0.001, "steps \(later - earlier) s apart: \(times)")
        }
        #expect((times.last ?? 0) <= elapsed, "\(times)")
    }

    @Test func aBadSceneIsReportedWithItsPositionAndNothingRuns() throws {
        let folder = try TemporaryFolder()
        let scene = try folder.write("bad.yaml", "scene: Bad\nsize: [100, 100]\nstart: main\nscreens:\n  main:\n    elements:\n      - {id: a, lable: A}\n")
        let result = try CLI.run(["run", scene, "--no-view"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.yaml:7:17: error: unknown key 'lable' in an element (did you mean 'label'?)"))
    }
}

/// The real program in a real terminal: tmux runs it, send-keys types, capture-pane reads.
@Suite("switchscan run in a terminal", .serialized)
struct RunInTerminalTests {
    let session = "switchscan-test-\(UUID().uuidString.prefix(8))"

    /// Runs tmux on the tests' own server and returns what it printed (`Tmux.run`).
    func tmux(_ arguments: [String], timeout: Double = 10) throws -> String {
        try Tmux.run(socket: socket, arguments, timeout: timeout)
    }

    /// A tmux server of the test's own, so nothing touches the user's sessions.
    var socket: String { "switchscan-tests" }

    /// The pane's text once `condition` holds (or the last capture after `timeout` seconds).
    func screen(until condition: (String) -> Bool, timeout: Double = 5) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        repeat {
            text = try tmux(["capture-pane", "-t", session, "-p"])
            if condition(text) { return text }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        return text
    }

    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }
    var statusPath: String { folder.url.appendingPathComponent("status").path }

    /// The program's exit status, once it has exited: the shell that ran it writes it to a file
    /// (tmux's own record of it, pane_dead_status, is not always filled in by tmux 3.3).
    func exitStatus(timeout: Double = 5) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: statusPath, encoding: .utf8), text.hasSuffix("\n") {
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// The PID of switchscan: the child of the shell tmux started in the pane (from /proc).
    func programPID() throws -> pid_t {
        let shell = try tmux(["display", "-p", "-t", session, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return try #require(children.split(separator: " ").first.flatMap { pid_t($0) }, "no child of the pane's shell \(shell)")
    }

    func start(_ arguments: String, columns: Int = 100) throws {
        try? FileManager.default.removeItem(atPath: statusPath)
        let binary = try CLI.binary().path
        _ = try tmux(["new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "30", "-c", CLI.packageRoot.path,
                      "XDG_CONFIG_HOME=\(folder.url.appendingPathComponent("config").path) \(binary) \(arguments); echo $? > \(statusPath)"])
        _ = try tmux(["set-option", "-t", session, "remain-on-exit", "on"])
    }

    @Test func theScreenFollowsTheKeysAndQRestoresTheTerminal() throws {
        try start("run Scenarios/switch-control-groups.yaml --set scanning=manual")
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        var text = try screen { $0.contains("text: Test 1, Test 2 grp") }
        #expect(text.contains("Switch Control groups — screen main — scanning"))
        #expect(text.contains("[Btn 1]"))
        #expect(text.contains("group: select enters it"))

        _ = try tmux(["send-keys", "-t", session, "Enter"])
        text = try screen { $0.contains("text: Btn 1 btn") }
        #expect(text.contains("text: Btn 1 btn"))

        _ = try tmux(["send-keys", "-t", session, "Space"])
        text = try screen { $0.contains("│ Tap") }
        #expect(text.contains("│ Tap"))
        #expect(text.contains("Exit menu"))

        _ = try tmux(["send-keys", "-t", session, "q"])
        #expect(exitStatus() == "0")
        // The alternate screen was left: the drawing is gone from the pane.
        #expect(try tmux(["display", "-p", "-t", session, "#{alternate_on}"]).hasPrefix("0"))
        #expect(!(try tmux(["capture-pane", "-t", session, "-p"])).contains("text: Tap menu"))
    }

    @Test func aBadSettingsEditIsOnTheStatusLineWithItsPositionAndAGoodOneApplies() throws {
        let path = try folder.write("settings.yaml", "scanning: manual\n")
        try start("run Scenarios/switch-control-groups.yaml --settings \(path)", columns: 220)
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        _ = try screen { $0.contains("text: Test 1, Test 2 grp") }
        try Data("scanning: manual\nloops: 0\n".utf8).write(to: URL(fileURLWithPath: path))
        let message = "settings: \(path):2:8: error: setting 'loops' expects a whole number from 1 to 100; found 0; the previous settings stay"
        var text = try screen { $0.contains(message) }
        #expect(text.contains(message), "\(text)")
        // Still manual scanning: Enter moves, nothing moves by itself.
        _ = try tmux(["send-keys", "-t", session, "Enter"])
        text = try screen { $0.contains("text: Btn 1 btn") }
        #expect(text.contains("text: Btn 1 btn"))
        try Data("scanning: manual\nbrailleHints: true\n".utf8).write(to: URL(fileURLWithPath: path))
        text = try screen { $0.contains("settings: \(path) applied: scanning manual, brailleHints true") }
        #expect(text.contains("settings: \(path) applied: scanning manual, brailleHints true"), "\(text)")
        _ = try tmux(["send-keys", "-t", session, "q"])
        #expect(exitStatus() == "0")
    }

    @Test func sigtermAndSigintExitCleanlyWithTheTerminalRestored() throws {
        for (signal, status) in [("TERM", "143"), ("INT", "130")] {
            try start("run Scenarios/switch-control-groups.yaml")
            defer { _ = try? tmux(["kill-session", "-t", session]) }
            _ = try screen { $0.contains("text: Test 1, Test 2 grp") }
            let pid = try programPID()
            #expect(throws: Never.self) { try ProcessSignal.send(signal == "TERM" ? SIGTERM : SIGINT, to: pid) }
            #expect(exitStatus() == status, "after SIG\(signal)")
            #expect(try tmux(["display", "-p", "-t", session, "#{alternate_on}"]).hasPrefix("0"), "after SIG\(signal)")
            #expect(!(try tmux(["capture-pane", "-t", session, "-p"])).contains("text: Test 1, Test 2 grp"), "after SIG\(signal)")
            _ = try tmux(["kill-session", "-t", session])
        }
    }
}
