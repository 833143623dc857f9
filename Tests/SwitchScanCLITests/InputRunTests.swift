import Foundation
import Testing
import Platform

/// `switchscan run --input …` as a user runs it: evemu recordings (fast and at their recorded
/// times), a raw event stream through a FIFO, and inputs that are wrong (a malformed recording, a
/// path that is not an evdev device, a profile with errors), each said clearly while the run
/// keeps its other inputs. Every source goes through a profile and the session's stabilisation,
/// so the trace's `input` lines show what was accepted and why the rest was not.
@Suite("switchscan run --input", .serialized)
struct InputRunTests {
    /// A keyboard-emulating switch interface (no profile of its own: the generic keyboard profile
    /// fits it): Enter tapped, then Space pressed with contact bounce (up and down again within
    /// 3 ms), held long enough for two kernel autorepeats, released; then Enter, and Space again.
    static let recording = """
        # EVEMU 1.3
        # Input device name: "Test Switch Interface"
        # Input device ID: bus 0x0003 vendor 0x1d6b product 0x7777 version 0x0111
        N: Test Switch Interface
        I: 0003 1d6b 7777 0111
        P: 00 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 10 00 00 00 00
        B: 01 00 00 00 00 00 00 00 02
        B: 01 00 00 00 00 00 00 00 00
        B: 04 10 00 00 00 00 00 00 00
        B: 14 03 00 00 00 00 00 00 00
        E: 0.000001 0004 0004 458792\t# EV_MSC / MSC_SCAN             458792
        E: 0.000001 0001 001c 0001\t# EV_KEY / KEY_ENTER            1
        E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
        E: 0.110001 0004 0004 458792\t# EV_MSC / MSC_SCAN             458792
        E: 0.110001 0001 001c 0000\t# EV_KEY / KEY_ENTER            0
        E: 0.110001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +110ms
        E: 0.400001 0004 0004 458796\t# EV_MSC / MSC_SCAN             458796
        E: 0.400001 0001 0039 0001\t# EV_KEY / KEY_SPACE            1
        E: 0.400001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +290ms
        E: 0.401501 0001 0039 0000\t# EV_KEY / KEY_SPACE            0 (bounce)
        E: 0.401501 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +1ms
        E: 0.402801 0001 0039 0001\t# EV_KEY / KEY_SPACE            1 (bounce)
        E: 0.402801 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +1ms
        E: 0.650001 0001 0039 0002\t# EV_KEY / KEY_SPACE            2
        E: 0.650001 0000 0000 0001\t# ------------ SYN_REPORT (1) ---------- +248ms
        E: 0.683001 0001 0039 0002\t# EV_KEY / KEY_SPACE            2
        E: 0.683001 0000 0000 0001\t# ------------ SYN_REPORT (1) ---------- +33ms
        E: 0.800001 0004 0004 458796\t# EV_MSC / MSC_SCAN             458796
        E: 0.800001 0001 0039 0000\t# EV_KEY / KEY_SPACE            0
        E: 0.800001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +117ms
        E: 1.000001 0001 001c 0001\t# EV_KEY / KEY_ENTER            1
        E: 1.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +200ms
        E: 1.090001 0001 001c 0000\t# EV_KEY / KEY_ENTER            0
        E: 1.090001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +90ms
        E: 1.300001 0001 0039 0001\t# EV_KEY / KEY_SPACE            1
        E: 1.300001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +210ms
        E: 1.400001 0001 0039 0000\t# EV_KEY / KEY_SPACE            0
        E: 1.400001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +100ms

        """

    /// The recording's key edges as the trace shows them: (switch, edge, accepted, reason).
    static let expectedInputs: [InputLine] = [
        InputLine("enter", "down", true), InputLine("enter", "up", true),
        InputLine("space", "down", true),
        InputLine("space", "up", false, "bounce"), InputLine("space", "down", false, "bounce"),
        InputLine("space", "repeat", false, "autorepeat"), InputLine("space", "repeat", false, "autorepeat"),
        InputLine("space", "up", true),
        InputLine("enter", "down", true), InputLine("enter", "up", true),
        InputLine("space", "down", true), InputLine("space", "up", true),
    ]

    /// Offsets of the key events from the first, in the recording (seconds).
    static let recordedOffsets = [0, 0.11, 0.4, 0.4015, 0.4028, 0.65, 0.683, 0.8, 1.0, 1.09, 1.3, 1.4]

    struct InputLine: Equatable, CustomStringConvertible {
        var switchID: String
        var edge: String
        var accepted: Bool
        var reason: String?
        init(_ switchID: String, _ edge: String, _ accepted: Bool, _ reason: String? = nil) {
            (self.switchID, self.edge, self.accepted, self.reason) = (switchID, edge, accepted, reason)
        }
        init?(_ event: [String: Any]) {
            guard event["kind"] as? String == "input", let id = event["switch"] as? String, let edge = event["edge"] as? String,
                  let accepted = event["accepted"] as? Bool else { return nil }
            self.init(id, edge, accepted, event["reason"] as? String)
        }
        var description: String { "\(switchID) \(edge) \(accepted ? "accepted" : "rejected \(reason ?? "?")")" }
    }

    /// What one run left behind.
    struct Run: CustomStringConvertible {
        var status: Int32
        var stderr: String
        var trace: [[String: Any]]
        var elapsed: Double

        var inputs: [InputLine] { trace.compactMap(InputLine.init) }
        var statuses: [String] { trace.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String } }
        func ids(_ kind: String) -> [String] {
            trace.filter { $0["kind"] as? String == kind }.compactMap { $0["id"] as? String }
        }
        func times(_ kind: String) -> [Double] {
            trace.filter { $0["kind"] as? String == kind }.compactMap { ($0["time"] as? NSNumber)?.doubleValue }
        }
        var description: String {
            "exit \(status) after \(elapsed) s\n--- stderr\n\(stderr)--- trace\n"
                + trace.map { "\($0)" }.joined(separator: "\n")
        }
    }

    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }
    var tracePath: String { folder.url.appendingPathComponent("trace.jsonl").path }

    static let scene = "Scenarios/switch-control-groups.yaml"

    /// Starts `switchscan run SCENE --set scanning=manual --no-view --trace … arguments…` in the
    /// package root with its own (empty) user profile folder; `feed` runs while it runs (writes
    /// keystrokes into `stdin`, the write end of its standard input, which it then closes).
    func run(_ arguments: [String], timeout: Double = 20, feed: ((FileHandle) throws -> Void)? = nil) throws -> Run {
        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["run", Self.scene, "--set", "scanning=manual", "--no-view", "--trace", tracePath] + arguments
        process.currentDirectoryURL = CLI.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.url.appendingPathComponent("config").path
        process.environment = environment
        let errURL = folder.url.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardError = err
        process.standardOutput = try folder.outputFile("stdout-1")
        let input = Pipe()
        process.standardInput = feed == nil ? FileHandle.nullDevice : input
        let started = Date()
        try process.run()
        if let feed {
            try feed(input.fileHandleForWriting)
            try? input.fileHandleForWriting.close()
        }
        while process.isRunning, Date().timeIntervalSince(started) < timeout { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw CLIError("switchscan run \(arguments) did not end within \(timeout) s")
        }
        process.waitUntilExit()
        let elapsed = Date().timeIntervalSince(started)
        try err.close()
        let trace = FileManager.default.fileExists(atPath: tracePath) ? try RunCommandTests.traceEvents(tracePath) : []
        return Run(status: process.terminationStatus, stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
                   trace: trace, elapsed: elapsed)
    }

    // MARK: Recordings

    @Test func aRecordingReplayedFastGoesThroughTheProfileAndTheStabilisation() throws {
        let file = try folder.write("switch.evemu", Self.recording)
        let result = try run(["--input", "evemu:\(file)", "--fast", "--profile", "Devices/switches/generic-keyboard.yaml"])
        #expect(result.status == 0, "\(result)")
        // Without a screen, standard error says what the status line would: the recording's
        // introduction, and nothing else.
        #expect(result.stderr == result.statuses.map { "switchscan run: \($0)\n" }.joined(), "\(result)")
        #expect(result.statuses.count == 1, "\(result)")
        #expect(result.inputs == Self.expectedInputs, "\(result)")
        // All at once: every edge came from one read of the recording (one `read` moment for all).
        let reads = result.trace.filter { $0["kind"] as? String == "input" }.compactMap { ($0["read"] as? NSNumber)?.doubleValue }
        #expect(reads.count == Self.recordedOffsets.count && Set(reads).count == 1, "read at \(reads)")
        // Dated as recorded: the offsets between the edges are the recording's.
        let times = result.times("input")
        try #require(times.count == Self.recordedOffsets.count)
        for (time, offset) in zip(times, Self.recordedOffsets) {
            #expect(abs((time - times[0]) - offset) < 0.000_01, "\(time - times[0]) vs \(offset)")
        }
        // Enter: next (Btn 1); Space: select opens the item's menu; the bounce and the repeats do
        // nothing; Enter moves in the menu; Space selects Exit menu.
        // Exit menu: the highlight is back on Btn 1.
        #expect(result.ids("highlight") == ["test-wrap", "btn-1", "btn-1"], "\(result)")
        let menus = result.trace.filter { $0["kind"] as? String == "menu" }
        #expect(menus.first?["entries"] as? [String] == ["Tap", "Exit menu"], "\(result)")
        #expect(menus.compactMap { $0["focus"] as? String } == ["Tap", "Exit menu"], "\(result)")
        #expect(menus.count == 3 && menus.last?["entries"] as? [String] == [], "the menu closes: \(menus)")
        let introduction = try #require(result.statuses.first)
        #expect(introduction.contains("\"Test Switch Interface\" (usb 1d6b:7777)"), "\(introduction)")
        #expect(introduction.contains("through profile generic-keyboard (--profile)"), "\(introduction)")
        #expect(introduction.contains("all at once (--fast)"), "\(introduction)")
    }

    @Test func aRecordingReplaysAtItsRecordedTimesThroughTheBestMatchingProfile() throws {
        let file = try folder.write("switch.evemu", Self.recording)
        let result = try run(["--input", "evemu:\(file)"])
        #expect(result.status == 0, "\(result)")
        #expect(result.inputs == Self.expectedInputs, "\(result)")
        // When each edge is due is the recording's decision, tested on a manual clock
        // (InputSourceTests.aRecordingIsReplayedAtItsRecordedOffsetsFromTheStart). Here: not all
        // at once: the edges came from reads at different moments.
        let reads = result.trace.filter { $0["kind"] as? String == "input" }.compactMap { ($0["read"] as? NSNumber)?.doubleValue }
        #expect(Set(reads).count > 1, "read at \(reads)")
        let times = result.times("input")
        try #require(times.count == Self.recordedOffsets.count)
        #expect(abs((times.last! - times[0]) - 1.4) < 0.000_01)
        // The best match for a device without a profile of its own: the generic keyboard.
        #expect(result.statuses.first?.contains("through profile generic-keyboard (generic match); at the recorded times") == true,
                "\(result.statuses)")
    }

    @Test func aMalformedRecordingIsReportedWithItsLineAndTheTerminalStillWorks() throws {
        var text = Self.recording
        text = text.replacingOccurrences(of: "E: 0.400001 0001 0039 0001", with: "E: 0.400001 0001 0039")
        let file = try folder.write("broken.evemu", text)
        let result = try run(["--input", "evemu:\(file)", "--input", "terminal"]) { stdin in
            Thread.sleep(forTimeInterval: 0.4)
            stdin.write(Data("\r".utf8))
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(result.status == 0, "\(result)")
        let message = "broken.evemu:20:1: error: an event line needs a time, a type, a code and a value"
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.statuses.contains { $0.contains(message) }, "\(result)")
        // Nothing of the recording was replayed; the terminal's Enter was read.
        #expect(result.inputs == [InputLine("key:enter", "down", true)], "\(result)")
        #expect(result.ids("highlight") == ["test-wrap", "btn-1"], "\(result)")
    }

    // MARK: Raw streams

    @Test func aRawStreamFromAFIFOIsReadAsItComesAndATruncatedRecordIsReported() throws {
        let fifo = folder.url.appendingPathComponent("events.fifo").path
        #expect(throws: Never.self) { try FileSystem.makeFIFO(fifo) }
        let record = CLI.inputEventRecord
        let trace = tracePath
        // The terminal input (a pipe here) ends the run when the test closes it: the FIFO does
        // not, since a writer closing it is waited for again.
        let result = try run(["--input", "raw:\(fifo)", "--input", "terminal"]) { _ in
            // The run starts before any writer connects (the FIFO is opened non-blocking): its
            // first status is in the trace while nobody has opened the FIFO for writing yet.
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline,
                  !((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").contains("reading struct input_event records") {
                Thread.sleep(forTimeInterval: 0.02)
            }
            let writer = try CLI.fifoWriter(fifo)
            let base = 5000.25
            // Enter tapped; Space pressed with a 2 ms bounce; then a release cut after 10 bytes.
            writer.write(record(base, 4, 4, 458792) + record(base, 1, 28, 1) + record(base, 0, 0, 0))
            Thread.sleep(forTimeInterval: 0.1)
            writer.write(record(base + 0.1, 1, 28, 0) + record(base + 0.1, 0, 0, 0))
            Thread.sleep(forTimeInterval: 0.2)
            writer.write(record(base + 0.3, 1, 57, 1) + record(base + 0.302, 1, 57, 0) + record(base + 0.3035, 1, 57, 1))
            Thread.sleep(forTimeInterval: 0.1)
            writer.write(record(base + 0.4, 1, 57, 2) + record(base + 0.5, 1, 57, 0).prefix(10))
            Thread.sleep(forTimeInterval: 0.1)
            try writer.close()
            // The run waits for the next writer, which is read from its own first record on
            // (its clock starts anew: an earlier timestamp than the first writer's is fine).
            let waiting = Date().addingTimeInterval(10)
            while Date() < waiting,
                  !((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").contains("waiting for the next writer") {
                Thread.sleep(forTimeInterval: 0.02)
            }
            let second = try CLI.fifoWriter(fifo)
            second.write(record(10.0, 1, 28, 1) + record(10.0, 0, 0, 0) + record(10.05, 1, 28, 0) + record(10.05, 0, 0, 0))
            Thread.sleep(forTimeInterval: 0.2)
            try second.close()
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(result.status == 0, "\(result)")
        #expect(result.inputs == [
            InputLine("enter", "down", true), InputLine("enter", "up", true), InputLine("space", "down", true),
            InputLine("space", "up", false, "bounce"), InputLine("space", "down", false, "bounce"),
            InputLine("space", "repeat", false, "autorepeat"),
            InputLine("enter", "down", true), InputLine("enter", "up", true),
        ], "\(result)")
        #expect(result.statuses.contains("raw:\(fifo): the writer closed the stream; waiting for the next writer"), "\(result)")
        #expect(result.ids("highlight") == ["test-wrap", "btn-1"], "\(result)")
        #expect(result.trace.contains { $0["kind"] as? String == "menu" }, "Space opened the menu: \(result)")
        // 9 whole records (216 bytes), then 10 bytes of the tenth.
        let truncated = try #require(result.statuses.first { $0.contains("ends inside a record") }, "\(result)")
        #expect(truncated.contains("10 of 24 bytes at byte offset 216 (record 10)"), "\(truncated)")
        // The edges keep the records' spacing.
        let times = result.times("input")
        try #require(times.count == 8)
        #expect(abs((times[2] - times[0]) - 0.3) < 0.000_01, "\(times)")
    }

    // MARK: Devices

    @Test func aPathThatIsNotAnEvdevDeviceIsSaidAndTheTerminalKeepsWorking() throws {
        let result = try run(["--input", "evdev:/dev/null", "--input", "terminal"]) { stdin in
            Thread.sleep(forTimeInterval: 0.4)
            for key in ["\r", " "] {
                stdin.write(Data(key.utf8))
                Thread.sleep(forTimeInterval: 0.15)
            }
        }
        #expect(result.status == 0, "\(result)")
        let message = "/dev/null is not an evdev input device (libevdev_new_from_fd: ENOTTY"
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.statuses.contains { $0.hasPrefix(message) }, "\(result)")
        #expect(result.inputs == [InputLine("key:enter", "down", true), InputLine("key:space", "down", true)], "\(result)")
        #expect(result.trace.contains { $0["kind"] as? String == "menu" }, "\(result)")
    }

    /// A device node the user may not read (input nodes are `root:input 0660`): the run says what
    /// to do (the `input` group, or the repository's udev rule) and keeps its other inputs. Run as
    /// a real unprivileged user: as root, `setpriv` drops to nobody (uid and gid 65534, no
    /// supplementary groups), since root reads any file; as another user, the node is mode 0000.
    /// This machine has no /dev/input, so the node is a file with the node's mode: `open(2)`
    /// fails with EACCES before anything looks at what the file is, as for a real node.
    @Test func aDeviceTheUserMayNotReadSaysWhatToDoAndTheOtherInputsKeepWorking() throws {
        // Every file the unprivileged run touches lives in a folder anyone may enter and write.
        let shared = folder.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileSystem.setPermissions(folder.url.path, 0o755)
        try FileSystem.setPermissions(shared.path, 0o777)
        let node = shared.appendingPathComponent("event7").path
        #expect(FileManager.default.createFile(atPath: node, contents: Data(repeating: 0, count: 24)))
        let asRoot = CurrentProcess.isRoot
        try FileSystem.setPermissions(node, asRoot ? 0o600 : 0o000)
        // Another input: a raw stream of one Enter press (records as a keyboard sends them).
        let record = CLI.inputEventRecord
        let raw = shared.appendingPathComponent("enter.raw").path
        try (record(10, 1, 28, 1) + record(10, 0, 0, 0) + record(10.1, 1, 28, 0) + record(10.1, 0, 0, 0))
            .write(to: URL(fileURLWithPath: raw))
        let trace = shared.appendingPathComponent("trace.jsonl").path

        let process = Process()
        let binary = try CLI.binary().path
        let arguments = [
            "run", Self.scene, "--set", "scanning=manual", "--no-view", "--braille", "none", "--trace", trace,
            "--input", "evdev:\(node)", "--input", "raw:\(raw)", "--input", "terminal",
        ]
        if asRoot {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        process.currentDirectoryURL = CLI.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = shared.appendingPathComponent("config").path
        environment["HOME"] = shared.path
        process.environment = environment
        let errURL = folder.url.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardError = err
        process.standardOutput = try folder.outputFile("stdout-2")
        let input = Pipe()
        process.standardInput = input
        let started = Date()
        try process.run()
        // Space only once the raw stream's Enter was handled (not after a fixed pause: on a busy
        // machine the run took 0.4 s to show its screen and the Space came first).
        while Date().timeIntervalSince(started) < 15 {
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            if text.contains("\"switch\":\"enter\",\"edge\":\"up\"") { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        input.fileHandleForWriting.write(Data(" ".utf8))  // the terminal's Space: select
        Thread.sleep(forTimeInterval: 0.2)
        try input.fileHandleForWriting.close()  // the end of standard input ends the run
        while process.isRunning, Date().timeIntervalSince(started) < 20 { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("switchscan run did not end within 20 s")
        }
        process.waitUntilExit()
        try err.close()
        let stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        let events = try RunCommandTests.traceEvents(trace)
        let result = Run(status: process.terminationStatus, stderr: stderr, trace: events, elapsed: Date().timeIntervalSince(started))

        #expect(result.status == 0, "\(result)")
        let message = "\(node): permission denied (open: EACCES"
        #expect(result.stderr.contains(message), "\(result)")
        let said = try #require(result.statuses.first { $0.hasPrefix(message) }, "\(result)")
        #expect(said.contains("'input' group"), "\(said)")
        #expect(said.contains("sudo usermod -aG input $USER"), "\(said)")
        #expect(said.contains("Devices/switches/70-switchscan.rules"), "\(said)")
        #expect(FileManager.default.fileExists(atPath: CLI.packageRoot.appendingPathComponent("Devices/switches/70-switchscan.rules").path))
        // The raw stream's Enter moved the highlight, then the terminal's Space opened the menu.
        #expect(result.inputs == [
            InputLine("enter", "down", true), InputLine("enter", "up", true), InputLine("key:space", "down", true),
        ], "\(result)")
        #expect(result.ids("highlight") == ["test-wrap", "btn-1"], "\(result)")
        #expect(result.trace.contains { $0["kind"] as? String == "menu" }, "\(result)")
    }

    @Test func aProfileWithErrorsStopsTheRunBeforeItStartsWithItsPosition() throws {
        let profile = try folder.write("mine.yaml", "name: Mine\nmatch: generic\nswitches:\n  - {id: a, code: KEY_SPACE, action: selct}\n")
        let recording = try folder.write("switch.evemu", Self.recording)
        // A run that reads no switch through the profile asked for must not look like one that
        // works (a service would go on with nothing to operate it): exit 2, as for a scene.
        let result = try run(["--input", "evemu:\(recording)", "--input", "terminal", "--profile", profile])
        #expect(result.status == 2, "\(result)")
        let message = "mine.yaml:4:38: error: unknown action 'selct' (did you mean 'select'?)"
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.stderr.contains("--profile \(profile) has errors"), "\(result)")
        #expect(result.trace.isEmpty, "the run did not start: \(result)")
    }

    @Test func inputSpecsThatAreWrongStopTheRunWithAMessage() throws {
        let bad = try run(["--input", "usb:3"])
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderr.contains("--input usb:3: expected auto, terminal, evdev:PATH, evemu:FILE or raw:PATH"), "\(bad)")
        let noProfile = try run(["--input", "raw:/dev/null", "--profile", "no-such-profile"])
        #expect(noProfile.status == 2, "\(noProfile)")
        #expect(noProfile.stderr.contains("--profile no-such-profile: no such file, and no profile"), "\(noProfile)")
    }
}

extension InputRunTests {
    /// A file of records written before the run began, read at once at the start: its first press
    /// keeps its length (100 ms here), instead of its press being dated at the start and its
    /// release a few milliseconds later, which the stabiliser took for contact bounce.
    @Test func aPressReadAtTheStartKeepsItsLength() throws {
        let folder = try TemporaryFolder()
        let raw = folder.url.appendingPathComponent("press.raw")
        let record = CLI.inputEventRecord
        try (record(10, 1, 28, 1) + record(10, 0, 0, 0) + record(10.1, 1, 28, 0) + record(10.1, 0, 0, 0))
            .write(to: raw)
        let trace = folder.url.appendingPathComponent("trace.jsonl").path
        let result = try CLI.run(["run", Self.scene, "--input", "raw:\(raw.path)", "--no-view", "--braille", "none",
                                  "--settings", "none", "--set", "scanning=manual", "--trace", trace])
        #expect(result.status == 0, "\(result)")
        let inputs = try RunCommandTests.traceEvents(trace).filter { $0["kind"] as? String == "input" }
        #expect(inputs.map { "\($0["edge"] as? String ?? "?") \($0["accepted"] as? Bool == true)" } == ["down true", "up true"], "\(inputs)")
        let times = inputs.compactMap { ($0["time"] as? NSNumber)?.doubleValue }
        #expect(times.count == 2 && abs(times[1] - times[0] - 0.1) < 0.001, "press and release at \(times)")
    }
}
