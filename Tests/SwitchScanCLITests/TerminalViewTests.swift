import BrailleTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Platform

/// An interactive bash in a tmux pane of a given size, on a tmux server of its own: the terminal
/// a user runs `switchscan run` in, with job control (Ctrl-Z, `fg`). The server goes with the
/// value, also when a test fails: `kill-server`, then its PID and the program's if still there.
final class ShellInTmux {
    let socket = "switchscan-view-\(UUID().uuidString.prefix(8))"
    let target = "view"
    let folder: TemporaryFolder
    private var serverPID: pid_t?
    /// The server's socket file, removed with it (tmux leaves it behind).
    private var socketPath: String?
    /// switchscan, once `programPID` found it.
    private var programs: [pid_t] = []

    init(columns: Int, rows: Int) throws {
        folder = try TemporaryFolder()
        let config = folder.url.appendingPathComponent("config").path  // not the user's settings
        // tmux reads an empty configuration file of the test's own; the shell's history goes to
        // the test's folder (neither is the user's nor a system path).
        let tmuxConfiguration = try folder.write("tmux.conf", "")
        let history = folder.url.appendingPathComponent("history").path
        _ = try tmux(["-f", tmuxConfiguration, "new-session", "-d", "-s", target, "-x", "\(columns)", "-y", "\(rows)",
                      "-c", CLI.packageRoot.path,
                      "env XDG_CONFIG_HOME=\(config) PS1='shell$ ' HISTFILE=\(history) bash --norc --noprofile -i"])
        serverPID = pid_t(try tmux(["display", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
        socketPath = try tmux(["display", "-p", "#{socket_path}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let prompt = try screen { $0.contains("shell$") }
        guard prompt.contains("shell$") else { throw CLIError("no shell prompt in the tmux pane:\n\(prompt)") }
    }

    deinit {
        _ = try? tmux(["kill-server"], timeout: 5)
        for pid in programs + (serverPID.map { [$0] } ?? []) where ProcessSignal.exists(pid) {
            // A program still there (stopped, or not ended by the hangup) is ended by its PID.
            try? ProcessSignal.send(SIGCONT, to: pid)
            try? ProcessSignal.send(SIGKILL, to: pid)
        }
        if let socketPath, socketPath.hasSuffix("/\(socket)") { try? FileSystem.remove(socketPath) }
    }

    func tmux(_ arguments: [String], timeout: Double = 10) throws -> String {
        try Tmux.run(socket: socket, arguments, timeout: timeout)
    }

    /// Types `line` into the pane and presses Enter.
    func type(_ line: String) throws {
        _ = try tmux(["send-keys", "-t", target, "-l", line])
        _ = try tmux(["send-keys", "-t", target, "Enter"])
    }

    /// Presses keys by tmux's names (`Enter`, `Space`, `C-z`, `x`).
    func press(_ keys: String...) throws {
        _ = try tmux(["send-keys", "-t", target] + keys)
    }

    func resize(columns: Int, rows: Int) throws {
        _ = try tmux(["resize-window", "-t", target, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// A tmux format for the pane (`#{alternate_on}`, `#{cursor_flag}`, `#{pane_tty}`).
    func value(_ format: String) throws -> String {
        try tmux(["display", "-p", "-t", target, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pane's text once `condition` holds (or the last capture after `timeout` seconds).
    func screen(timeout: Double = 10, until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        repeat {
            text = try tmux(["capture-pane", "-t", target, "-p"])
            if condition(text) { return text }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        return text
    }

    /// The pane's lines, one per row.
    func lines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// switchscan: the child of the pane's shell (from /proc).
    func programPID() throws -> pid_t {
        let shell = try value("#{pane_pid}")
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        let pid = try #require(children.split(separator: " ").first.flatMap { pid_t($0) }, "no child of the pane's shell \(shell)")
        programs.append(pid)
        return pid
    }
}

/// `switchscan run` in a real terminal as a user sees it: Ctrl-Z and `fg`, windows from 40×10 to
/// 120×40, what the status line says about keys that did nothing, long statuses.
@Suite("switchscan run: the terminal view", .serialized)
struct TerminalViewTests {
    let seed = "Scenarios/switch-control-groups.yaml"
    let items = ["Test 1", "Test 2", "Btn 1", "Btn 2", "Btn 5", "Btn 6"]

    /// `stty -a -F TTY` run from the test, outside the pane: the settings the program set.
    func sttySettings(_ tty: String) throws -> [String] {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("stty")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/stty")
        process.arguments = ["-a", "-F", tty]
        process.standardOutput = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return try String(contentsOf: output, encoding: .utf8).split(whereSeparator: { " ;\n".contains($0) }).map(String.init)
    }

    /// Once the program has ended (the prompt is back), its exit status as the shell saw it.
    func expectExitStatus(_ shell: ShellInTmux, _ status: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        _ = try shell.screen { shell.lines($0).last(where: { !$0.isEmpty }) == "shell$" }
        try shell.type("echo exit=$?")
        let text = try shell.screen { $0.contains("exit=") }
        #expect(shell.lines(text).contains("exit=\(status)"), "\(text)", sourceLocation: sourceLocation)
    }

    @Test func ctrlZGivesTheShellItsTerminalAndFgTakesItBackRedrawnAndStillScanning() throws {
        let shell = try ShellInTmux(columns: 80, rows: 24)
        // No `; echo exit=$?` after it: bash goes on with a list when its job stops.
        try shell.type("\(try CLI.binary().path) run \(seed) --set scanning=manual")
        var text = try shell.screen { $0.contains("text: Test 1, Test 2 grp") }
        #expect(text.contains("Switch Control groups — screen main — scanning"), "\(text)")
        let pid = try shell.programPID()
        try shell.press("Enter")
        text = try shell.screen { $0.contains("text: Btn 1 btn") }
        #expect(text.contains("text: Btn 1 btn"))

        // Ctrl-Z: stopped, the shell's prompt back on the main screen, the cursor shown.
        try shell.press("C-z")
        text = try shell.screen { $0.contains("Stopped") && shell.lines($0).last(where: { !$0.isEmpty }) == "shell$" }
        #expect(text.contains("Stopped"), "\(text)")
        #expect(ProcessStatistics.state(of: pid) == "T")
        #expect(try shell.value("#{alternate_on}") == "0")
        #expect(try shell.value("#{cursor_flag}") == "1")
        #expect(!text.contains("text: Btn 1 btn"), "the frame is gone with the alternate screen: \(text)")
        // What a command run from the shell now gets: canonical input and echo. (bash puts its
        // own settings back when a job stops, whatever the job left; what switchscan itself
        // does shows above, in the screen and the cursor, and below, in raw mode after fg.)
        try shell.type("stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo END")
        text = try shell.screen { shell.lines($0).contains("icanon echo END") }
        #expect(shell.lines(text).contains("icanon echo END"), "\(text)")

        // fg: raw mode again (seen from outside the pane), the whole frame drawn again.
        try shell.type("fg")
        text = try shell.screen { $0.contains("text: Btn 1 btn") && $0.contains("q quit") }
        for part in ["Switch Control groups — screen main — scanning", "[Test 1]", "[Btn 6]", "────", "text: Btn 1 btn", "q quit"] {
            #expect(text.contains(part), "\(part) after fg:\n\(text)")
        }
        #expect(try shell.value("#{alternate_on}") == "1")
        #expect(ProcessStatistics.state(of: pid) != "T")
        let settings = try sttySettings(try shell.value("#{pane_tty}"))
        #expect(settings.contains("-icanon") && settings.contains("-echo"), "\(settings)")
        // Space alone acts (canonical input would hold it until Enter): Btn 1's menu opens.
        try shell.press("Space")
        text = try shell.screen { $0.contains("│ Tap") }
        #expect(text.contains("│ Tap"), "\(text)")

        try shell.press("q")
        try expectExitStatus(shell, "0")
        #expect(try shell.value("#{alternate_on}") == "0")
    }

    @Test func whileSuspendedNothingHappensAndAfterFgTheScanGoesOn() throws {
        let shell = try ShellInTmux(columns: 80, rows: 24)
        let trace = shell.folder.url.appendingPathComponent("trace.jsonl").path
        try shell.type("\(try CLI.binary().path) run \(seed) --set autoScanningTime=0.3 --trace \(trace)")
        _ = try shell.screen { $0.contains("— scanning") }
        try shell.press("C-z")
        let stopped = try shell.screen { $0.contains("Stopped") }
        #expect(stopped.contains("Stopped"))
        // How long it stays stopped does not matter here: that the steps missed meanwhile come
        // once, late, is the run state machine's decision, tested on a manual clock
        // (RunStateMachineTests.lateTimersComeOnce).
        try shell.type("fg")
        _ = try shell.screen { $0.contains("q quit") }
        // Two steps more once it is back, however long a busy machine takes (30 s guard a hang).
        let highlightsAtFg = InputRunTests.traceCount("highlight", in: trace)
        InputRunTests.waitForTrace(trace, until: Date().addingTimeInterval(30)) { $0("highlight") >= highlightsAtFg + 2 }
        try shell.press("q")
        try expectExitStatus(shell, "0")

        let events = try RunCommandTests.traceEvents(trace)
        let suspended = try #require(events.firstIndex { $0["text"] as? String == "suspended (SIGTSTP)" })
        let continued = try #require(events.firstIndex { $0["text"] as? String == "continued (SIGCONT)" })
        #expect(suspended < continued)
        #expect(!events[suspended..<continued].contains { $0["kind"] as? String == "highlight" }, "nothing moved while stopped")
        let after = events[continued...].filter { $0["kind"] as? String == "highlight" }
        #expect(after.count >= 2, "the scan went on after fg: \(after)")
    }

    @Test func afterBgTheScanGoesOnWithoutDrawingOverTheShellAndFgBringsTheViewBack() throws {
        let shell = try ShellInTmux(columns: 80, rows: 60)  // tall: the shell's lines below are counted
        let trace = shell.folder.url.appendingPathComponent("trace.jsonl").path
        // The terminal alone, in and out: no display or device to look for wakes the run.
        try shell.type("\(try CLI.binary().path) run \(seed) --input terminal --braille terminal --set autoScanningTime=0.3 --trace \(trace)")
        _ = try shell.screen { $0.contains("— scanning") }
        let pid = try shell.programPID()
        // Each step waits for the shell's answer: keys typed before the shell has the terminal
        // back would go to switchscan.
        func count(_ part: String, _ text: String) -> Int { text.components(separatedBy: part).count - 1 }
        try shell.press("C-z")
        _ = try shell.screen { count("Stopped", $0) == 1 && shell.lines($0).last(where: { !$0.isEmpty }) == "shell$" }
        try shell.type("bg")
        _ = try shell.screen { count("shell$", $0) == 3 }
        // Two steps in the background (however long a busy machine takes; 30 s guard a hang):
        // running, not stopped by a terminal it may no longer touch (SIGTTOU, SIGTTIN), and not
        // drawing over the shell.
        let highlightsAtBg = InputRunTests.traceCount("highlight", in: trace)
        InputRunTests.waitForTrace(trace, until: Date().addingTimeInterval(30)) { $0("highlight") >= highlightsAtBg + 2 }
        #expect(ProcessStatistics.state(of: pid) != "T", "\(ProcessStatistics.state(of: pid) ?? "gone")")
        let text = try shell.screen { _ in true }
        #expect(!text.contains("— screen main —") && !text.contains("q quit"), "\(text)")
        #expect(try shell.value("#{alternate_on}") == "0")

        try shell.type("fg")
        var back = try shell.screen { $0.contains("— screen main —") && $0.contains("q quit") }
        #expect(back.contains("Switch Control groups — screen main"), "\(back)")
        #expect(try shell.value("#{alternate_on}") == "1")

        // Again with scanning paused: no timer wakes the run, and fg still brings the view back.
        try shell.press("s")
        _ = try shell.screen { $0.contains("— paused") }
        try shell.press("C-z")
        _ = try shell.screen { count("Stopped", $0) == 2 && shell.lines($0).last(where: { !$0.isEmpty }) == "shell$" }
        try shell.type("bg")
        _ = try shell.screen { count("shell$", $0) == 5 }
        // No pause here: the look every 0.25 s whether the run is in the foreground again, the
        // only wake-up of a paused run in the background, is the run state machine's decision
        // (RunStateMachineTests.backgroundThenForeground).
        try shell.type("fg")
        back = try shell.screen { $0.contains("— paused") && $0.contains("q quit") }
        #expect(back.contains("Switch Control groups — screen main — paused"), "\(back)")
        try shell.press("q")
        try expectExitStatus(shell, "0")

        let events = try RunCommandTests.traceEvents(trace)
        let continued = try #require(events.firstIndex { $0["text"] as? String == "continued (SIGCONT)" })
        let foreground = try #require(events.firstIndex { $0["text"] as? String == "in the foreground again (fg)" })
        let inBackground = events[continued..<foreground].filter { $0["kind"] as? String == "highlight" }
        #expect(inBackground.count >= 2, "the scan went on in the background: \(inBackground)")
    }

    @Test func theFrameFitsEverySizeWithEveryItemWholeAndTheQuitKeyOnTheLastRow() throws {
        let shell = try ShellInTmux(columns: 120, rows: 40)
        try shell.type("\(try CLI.binary().path) run \(seed) --set scanning=manual")
        _ = try shell.screen { $0.contains("text: Test 1, Test 2 grp") }
        for (columns, rows) in [(120, 40), (80, 24), (60, 15), (40, 10)] {
            try shell.resize(columns: columns, rows: rows)
            // Until the frame for this size is drawn (tmux shows the last one cut meanwhile).
            let text = try shell.screen { text in
                let lines = shell.lines(text)
                return lines.count == rows && lines.last?.hasSuffix("q quit") == true && lines.allSatisfy { $0.count <= columns }
                    && lines.first?.hasSuffix("— screen main — scanning") == true && items.allSatisfy { text.contains("[\($0)]") }
            }
            let lines = shell.lines(text)
            #expect(lines.count == rows, "\(columns)×\(rows):\n\(text)")
            #expect(lines.last?.hasSuffix("q quit") == true, "\(columns)×\(rows):\n\(text)")
            #expect(lines.allSatisfy { $0.count <= columns }, "\(columns)×\(rows):\n\(text)")
            #expect(lines.first?.hasSuffix("— screen main — scanning") == true, "\(columns)×\(rows):\n\(text)")
            for item in items {
                #expect(text.components(separatedBy: "[\(item)]").count == 2, "[\(item)] once at \(columns)×\(rows):\n\(text)")
            }
            #expect(text.contains("   text: Test 1, Test 2 grp"), "\(columns)×\(rows):\n\(text)")
        }
        try shell.press("q")
        try expectExitStatus(shell, "0")
    }

    /// The status lines of a frame: from under the braille text to above the keys.
    func statusLines(_ lines: [String]) -> [String] {
        guard let text = lines.lastIndex(where: { $0.hasPrefix("   text: ") }),
              let keys = lines.firstIndex(where: { $0.hasPrefix("Space select") }), text < keys else { return [] }
        return Array(lines[(text + 1)..<keys])
    }

    @Test func at40x10KeysThatDidNothingSayWhyAndWhatWorksAndTheMenuStaysInItsRows() throws {
        let shell = try ShellInTmux(columns: 40, rows: 10)
        try shell.type("\(try CLI.binary().path) run \(seed) --set scanning=manual")
        var text = try shell.screen { $0.contains("text: Test 1, Test 2 grp") }
        try shell.press("Enter")
        text = try shell.screen { $0.contains("text: Btn 1 btn") }
        #expect(text.contains("text: Btn 1 btn"))

        // Paused by s: Enter does nothing, and the status line says why and which key resumes.
        try shell.press("s")
        text = try shell.screen { $0.contains("— paused") }
        #expect(text.contains("scanning paused: press s to resume it"), "\(text)")
        try shell.press("Enter")
        let paused = "Enter (next) ignored: scanning is paused (the stop switch resumes it); press s to resume scanning"
        text = try shell.screen { statusLines(shell.lines($0)).joined(separator: " ") == paused }
        #expect(statusLines(shell.lines(text)).joined(separator: " ") == paused, "\(text)")
        #expect(text.contains("text: Btn 1 btn"), "the highlight stayed")
        #expect(shell.lines(text).last?.hasSuffix("q quit") == true, "\(text)")

        // A key that is no switch.
        try shell.press("x")
        let notAKey = "'x' is not a scanner key; press s to resume scanning (q quits)"
        text = try shell.screen { statusLines(shell.lines($0)).joined(separator: " ") == notAKey }
        #expect(statusLines(shell.lines(text)).joined(separator: " ") == notAKey, "\(text)")

        // s resumes: the feedback goes, Space opens the menu inside the layout rows.
        try shell.press("s")
        text = try shell.screen { $0.contains("— scanning") && statusLines(shell.lines($0)).isEmpty }
        #expect(statusLines(shell.lines(text)).isEmpty, "\(text)")
        try shell.press("Space")
        text = try shell.screen { $0.contains("text: Tap") }
        let lines = shell.lines(text)
        #expect(lines.contains { $0.contains("│ Tap") }, "\(text)")
        #expect(lines.count == 10 && lines.last?.hasSuffix("q quit") == true, "\(text)")
        #expect(lines.contains { $0.hasPrefix("   text: Tap") }, "\(text)")
        try shell.press("q")
        try expectExitStatus(shell, "0")
    }

    @Test func aStatusTooLongForItsRowsAt40x10IsShownPageByPage() throws {
        let shell = try ShellInTmux(columns: 40, rows: 10)
        // Pages of 1.5 s (4 s by default): the refused file below keeps it.
        let settings = try shell.folder.write("settings.yaml", "scanning: manual\nstatusPageTime: 1.5\n")
        try shell.type("\(try CLI.binary().path) run \(seed) --input terminal --braille terminal --settings \(settings)")
        _ = try shell.screen { $0.contains("text: Test 1, Test 2 grp") }
        try Data("scanning: manual\nloops: 0\n".utf8).write(to: URL(fileURLWithPath: settings))
        let message = "settings: \(settings):2:8: error: setting 'loops' expects a whole number from 1 to 100; found 0; the previous settings stay"
        // Manual scanning, the terminal alone (no display or device looked for): nothing but the page's own time turns the page.
        let first = try shell.screen { $0.range(of: #"\(1/\d+\)"#, options: .regularExpression) != nil }
        let marker = try #require(first.range(of: #"\(1/\d+\)"#, options: .regularExpression), "\(first)")
        let pages = try #require(Int(first[marker].dropFirst(3).dropLast()))
        #expect(pages >= 2)
        var shown = ""
        for page in 1...pages {
            let text = page == 1 ? first : try shell.screen { $0.contains("(\(page)/\(pages))") }
            let lines = shell.lines(text)
            #expect(lines.count == 10 && lines.last?.hasSuffix("q quit") == true, "\(text)")
            let status = statusLines(lines).filter { !$0.isEmpty }.joined(separator: " ")  // a last page may be short
            #expect(status.hasSuffix(" (\(page)/\(pages))"), "page \(page): \(text)")
            shown += status.replacingOccurrences(of: " (\(page)/\(pages))", with: "")
        }
        // Every character of the message, in order (a path longer than a line is broken in it).
        #expect(shown.filter { !$0.isWhitespace } == message.filter { !$0.isWhitespace }, "\(shown)")
        try shell.press("q")
        try expectExitStatus(shell, "0")
    }

    @Test func aStatusLongerThan120ColumnsIsWrappedWhole() throws {
        let shell = try ShellInTmux(columns: 120, rows: 40)
        let settings = try shell.folder.write("settings.yaml", "scanning: manual\n")
        try shell.type("\(try CLI.binary().path) run \(seed) --settings \(settings)")
        _ = try shell.screen { $0.contains("text: Test 1, Test 2 grp") }
        try Data("scanning: manual\nloops: 0\n".utf8).write(to: URL(fileURLWithPath: settings))
        let message = "settings: \(settings):2:8: error: setting 'loops' expects a whole number from 1 to 100; found 0; the previous settings stay"
        try #require(message.count > 120)
        let text = try shell.screen { statusLines(shell.lines($0)).joined(separator: " ") == message }
        let status = statusLines(shell.lines(text))
        #expect(status.joined(separator: " ") == message, "\(text)")
        #expect(status.count >= 2 && status.allSatisfy { $0.count <= 120 }, "\(status)")
        try shell.press("q")
        try expectExitStatus(shell, "0")
    }
}
