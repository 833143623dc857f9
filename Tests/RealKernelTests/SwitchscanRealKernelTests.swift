import Foundation
import Testing
import Platform

// `switchscan run --input evdev:auto` on a real kernel (Tests/RealKernel/README.md, "The switchscan
// scenario"): harness.py boots the guest with the debug build of switchscan and its libraries,
// the scene and the generic keyboard profile; the guest runs it (guest/run/switchscan) with its
// trace relayed to the trace port, beside B, a second reader of the keyboard that never grabs.
// The host taps keys, unplugs and replugs the keyboard over QMP, and these tests assert on the
// trace's JSON lines and the guest's markers.

@Suite(
    "Real kernel: switchscan run reads the USB keyboard as a switch interface",
    .enabled(if: RealKernel.enabled, "SWITCHSCAN_SKIP_REAL_KERNEL=1: the real-kernel tests are skipped"))
struct SwitchscanRealKernelTests {
    static let keyboard = "\"QEMU QEMU USB Keyboard\" (usb 0627:0001)"

    @Test("A key down when switchscan starts: it grabs the keyboard only once the key is released")
    func grabWaitsForTheKeysToBeReleased() async throws {
        let run = try await SwitchscanRun.shared.result()
        let found = try #require(run.statuses.first { $0.text.contains("\(Self.keyboard) is a switch device") })
        #expect(found.text.hasSuffix("profile generic-keyboard (KEY_SPACE → select, KEY_ENTER → next); waiting for its keys to be released to grab it"),
                "\(found.text)")
        let grabbed = try #require(run.statuses.first { $0.text == "/dev/input/event1 \(Self.keyboard): grabbed" },
                                   "\(run.statuses.map(\.text))")
        #expect(grabbed.index > found.index)
        // Before the grab: the release of the Space pressed before switchscan saw it (a release
        // of a switch that is not down: rejected) and autorepeats; nothing accepted.
        let before = run.inputs.filter { $0.index < grabbed.index }
        #expect(!before.contains { $0.accepted }, "\(before.map(\.summary))")
        let dropped = run.statuses.filter { $0.text.contains("SYN_DROPPED") && $0.index < grabbed.index }
        for status in dropped {
            // Seen when the start is slow: the autorepeat overflows the 64-event buffer first, and
            // the release comes back through the resync as state, not as an edge of its own.
            print("RealKernel switchscan: at the start: \(status.text)")
        }
        if dropped.isEmpty {
            #expect(before.contains { $0.switchID == "space" && $0.edge == "up" && !$0.accepted }, "\(before.map(\.summary))")
        }
    }

    @Test("Space and Enter arrive as the generic profile's switches: select and next drive the scanner")
    func keysAreSwitchActions() async throws {
        let run = try await SwitchscanRun.shared.result()
        let grabbed = try #require(run.statuses.first { $0.text.hasSuffix("\(Self.keyboard): grabbed") })
        // The host's first four taps once it is grabbed: Enter, Space, Enter, Space; each a press
        // and a release.
        let taps = Array(run.inputs.filter { $0.index > grabbed.index }.prefix(8))
        #expect(taps.map(\.summary) == ["enter down", "enter up", "space down", "space up", "enter down", "enter up", "space down", "space up"],
                "\(run.inputs.map(\.summary))")
        #expect(taps.allSatisfy { $0.accepted })
        // Enter: next (Btn 1). Space: select opens Btn 1's menu. Enter: the next entry. Space:
        // Exit menu, back on Btn 1.
        #expect(run.ids("highlight").prefix(3) == ["test-wrap", "btn-1", "btn-1"], "\(run.ids("highlight"))")
        let menus = run.lines.filter { $0.kind == "menu" }
        #expect(menus.prefix(3).map { $0.fields["focus"] as? String } == ["Tap", "Exit menu", nil], "\(menus)")
        // Edge times are the kernel's (monotonic) timestamps: 100 ms holds come out as such.
        guard taps.count == 8 else { return }
        let holds = stride(from: 0, to: 8, by: 2).map { taps[$0 + 1].time - taps[$0].time }
        #expect(holds.allSatisfy { $0 > 0.06 && $0 < 0.2 }, "\(holds)")
        // Kernel autorepeat while Enter is held: never a press.
        let repeats = run.inputs.filter { $0.edge == "repeat" }
        #expect(!repeats.isEmpty && repeats.allSatisfy { !$0.accepted }, "\(repeats.map(\.summary))")
    }

    @Test("While switchscan holds its grab a second reader of the keyboard sees nothing")
    func grabHidesTheKeysFromOtherReaders() async throws {
        let run = try await SwitchscanRun.shared.result()
        #expect(run.report.keys(reader: "B", phase: "plain") == RealKernelTests.spaceEnter + [Edge(57, 1)], "B reads before switchscan")
        // After: only the release of the Space held while switchscan started (it was released
        // before the grab); its autorepeats are counted by the guest, not printed.
        let afterwards = run.report.events.filter { $0.reader == "B" && $0.phase != "plain" && $0.type == 1 }
        #expect(afterwards.map { Edge($0.code, $0.value) } == [Edge(57, 0)], "B read while switchscan held the grab: \(afterwards)")
        #expect(run.inputs.filter(\.accepted).count >= 8, "switchscan read the keys B did not: \(run.inputs.map(\.summary))")
        print("RealKernel switchscan: \(run.report.markers.first { $0.kind == "REPEATS" }?.line ?? "no REPEATS line")")
    }

    @Test("SYN_DROPPED: a release lost in the overflow comes back through libevdev's resync")
    func droppedEventsAreResynchronised() async throws {
        let run = try await SwitchscanRun.shared.result()
        #expect(run.report.markers.contains { $0.kind == "STOPPED-SYNC" } && run.report.markers.contains { $0.kind == "CONTINUED-SYNC" })
        let lastBack = try #require(run.statuses.last { $0.text.contains("\(Self.keyboard) is back") })
        let dropped = try #require(run.statuses.first { $0.index > lastBack.index && $0.text.contains("SYN_DROPPED") },
                                   "\(run.statuses.map(\.text))")
        #expect(dropped.text == "/dev/input/event1: the kernel dropped events (SYN_DROPPED); the switch state was brought up to date from the device")
        // Enter pressed, then (switchscan stopped, the buffer overflowing with autorepeats)
        // released: the release arrives with the resync; then Space works as ever.
        let after = run.inputs.filter { $0.index > lastBack.index }
        #expect(after.prefix(4).map(\.summary) == ["enter down", "enter up", "space down", "space up"], "\(after.map(\.summary))")
        #expect(after.prefix(4).allSatisfy { $0.accepted })
        if after.count >= 2 { #expect(after[1].index > dropped.index, "the release came with the resync") }
        print("RealKernel switchscan: \(dropped.text)")
    }

    @Test("device_del while a switch is held: the switch is released in the trace, and scanning goes on")
    func unplugWhileHeld() async throws {
        let run = try await SwitchscanRun.shared.result()
        let unplugged = run.statuses.filter { $0.text.contains("\(Self.keyboard): unplugged (ENODEV)") }
        #expect(unplugged.count == 2, "\(run.statuses.map(\.text))")
        for (index, status) in unplugged.enumerated() {
            // The held Enter: its press, then a release no later than the unplug's status.
            let before = run.inputs.filter { $0.index < status.index && $0.switchID == "enter" }
            let press = try #require(before.last { $0.edge == "down" && $0.accepted })
            let release = run.inputs.first { $0.index > press.index && $0.switchID == "enter" && $0.edge == "up" }
            #expect(release?.accepted == true && (release?.index ?? .max) < status.index,
                    "unplug \(index + 1): Enter was not released: \(run.inputs.map(\.summary)) / \(status.text)")
            print("RealKernel switchscan unplug \(index + 1): \(status.text)")
        }
        // The first unplug came while switchscan waited in poll(): the kernel's own release
        // (input_dev_release_keys) was read before ENODEV, so switchscan had nothing to release.
        // The second came while it was stopped: ENODEV at once, the kernel's release lost, and
        // switchscan released Enter itself.
        #expect(unplugged.last?.text.contains("; released: enter; waiting for it to come back") == true,
                "\(unplugged.last?.text ?? "")")
        #expect(run.report.markers.contains { $0.kind == "STOPPED" } && run.report.markers.contains { $0.kind == "CONTINUED" })
        #expect(run.report.qmpEventNames.filter { $0 == "DEVICE_DELETED" }.count == 2, "\(run.report.qmpEventNames)")
    }

    @Test("device_add brings the keyboard back into the same run, grabbed again, and its keys act")
    func replug() async throws {
        let run = try await SwitchscanRun.shared.result()
        let back = run.statuses.filter { $0.text.contains("\(Self.keyboard) is back: ") }
        #expect(back.count == 2, "\(run.statuses.map(\.text))")
        for status in back {
            #expect(status.text.hasSuffix("; grabbed"), "\(status.text)")
            // A key after it is accepted and does something (a menu opens or the highlight moves).
            let next = try #require(run.inputs.first { $0.index > status.index }, "no key after \(status.text)")
            #expect(next.accepted && next.edge == "down", "\(next.summary)")
            #expect(run.lines.contains { $0.index > next.index && ($0.kind == "menu" || $0.kind == "highlight") })
        }
        // One process throughout; it ended on the host's cue with SIGTERM (128 + 15).
        #expect(run.report.markers.filter { $0.kind == "SWITCHSCAN" }.count == 1)
        #expect(run.report.markers.first { $0.kind == "SWITCHSCAN-END" }?.fields["status"] == "143")
        #expect(run.report.markers.first { $0.kind == "EXIT" }?.fields["status"] == "0")
    }

    @Test("SIGTERM releases the keyboard: once switchscan has exited, a new reader gets its keys")
    func sigtermReleasesTheDevice() async throws {
        let run = try await SwitchscanRun.shared.result()
        #expect(run.report.markers.first { $0.kind == "SWITCHSCAN-END" }?.fields["status"] == "143")
        #expect(run.report.keys(reader: "C", phase: "released") == RealKernelTests.spaceEnter,
                "C, opened after switchscan exited: \(run.report.events.filter { $0.reader == "C" })")
    }

    /// How long it took is a figure, printed (QEMU without KVM on a busy machine is slow; the
    /// harness's own limit guards a hang); what is checked is that the guest's moments fall in the run.
    @Test("The switchscan run's moments come within the run")
    func timing() async throws {
        let run = try await SwitchscanRun.shared.result()
        let total = try #require(run.report.timings["run_s"])
        print("RealKernel switchscan timings: \(run.report.timings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
        let moments = run.report.timings.filter { $0.key.hasPrefix("boot_to_") }
        #expect(!moments.isEmpty && moments.values.allSatisfy { 0 <= $0 && $0 <= total }, "\(run.report.timings)")
    }
}

// MARK: - The run and its trace

/// One line of switchscan's trace, with its position among the trace port's lines.
struct TraceLine: @unchecked Sendable, CustomStringConvertible {
    var index: Int
    var phase: String
    var fields: [String: Any]
    var kind: String { fields["kind"] as? String ?? "" }
    var time: Double { (fields["time"] as? NSNumber)?.doubleValue ?? 0 }
    var description: String { "\(index) \(phase) \(fields)" }
}

struct InputLine: Sendable {
    var index: Int
    var time: Double
    var switchID: String
    var edge: String
    var accepted: Bool
    var summary: String { "\(switchID) \(edge)\(accepted ? "" : " rejected")" }
}

struct StatusLine: Sendable {
    var index: Int
    var text: String
}

struct SwitchscanResult: @unchecked Sendable {
    var report: Report
    var lines: [TraceLine]

    var inputs: [InputLine] {
        lines.filter { $0.kind == "input" }.compactMap { line in
            guard let id = line.fields["switch"] as? String, let edge = line.fields["edge"] as? String,
                  let accepted = line.fields["accepted"] as? Bool else { return nil }
            return InputLine(index: line.index, time: line.time, switchID: id, edge: edge, accepted: accepted)
        }
    }

    var statuses: [StatusLine] {
        lines.filter { $0.kind == "status" }.compactMap { line in
            (line.fields["text"] as? String).map { StatusLine(index: line.index, text: $0) }
        }
    }

    func ids(_ kind: String) -> [String] {
        lines.filter { $0.kind == kind }.compactMap { $0.fields["id"] as? String }
    }
}

/// Runs `harness.py run --scenario switchscan` once per test process.
actor SwitchscanRun {
    static let shared = SwitchscanRun()
    private var running: Task<SwitchscanResult, Error>?

    func result() async throws -> SwitchscanResult {
        if running == nil {
            running = Task.detached { try Self.run() }
        }
        return try await running!.value
    }

    /// The switchscan program of this build: beside the test bundle, else the package's
    /// `.build/debug`.
    /// What the runs learn of the selections (`learnSelections`) goes to a scratch folder, never
    /// the user's state folder, where it would change the next test run's grouping.
    static let scratchStateHome: String = {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchscan-realkernel-state-\(CurrentProcess.id)", isDirectory: true).path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try? CurrentProcess.setEnvironmentVariable("XDG_STATE_HOME", to: path)
        return path
    }()

    static func program() throws -> String {
        _ = scratchStateHome
        var folders = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let executable = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        folders.append(RealKernel.packageRoot.appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent("switchscan").path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        throw RealKernelError(description: "switchscan was not found in \(folders.map(\.path)); run `swift build` first")
    }

    static func run() throws -> SwitchscanResult {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchscan-realkernel-run-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let reportURL = scratch.appendingPathComponent("report.json")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        defer { try? err.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", RealKernel.harness.path, "run", "--scenario", "switchscan",
                             "--switchscan", try program(), "--report", reportURL.path, "--timeout", "150"]
        process.currentDirectoryURL = RealKernel.packageRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: { let url = scratch.appendingPathComponent("stdout"); FileManager.default.createFile(atPath: url.path, contents: nil); return url }())
        process.standardError = err
        try process.run()
        let started = Date()
        var timedOut = false
        while process.isRunning && Date().timeIntervalSince(started) < RealKernel.limit {
            Thread.sleep(forTimeInterval: 0.1)
        }
        if process.isRunning {
            // SIGTERM: the harness stops the QEMU it started and removes its files; then SIGKILL.
            timedOut = true
            process.terminate()
            let grace = Date()
            while process.isRunning && Date().timeIntervalSince(grace) < 15 { Thread.sleep(forTimeInterval: 0.1) }
            if process.isRunning { try? ProcessSignal.send(SIGKILL, to: process.processIdentifier) }
        }
        process.waitUntilExit()
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        if timedOut {
            throw RealKernelError(description: "the real-kernel harness took more than \(Int(RealKernel.limit)) s and was stopped\n\(stderr)")
        }
        let status = process.terminationStatus
        if status == 3 {
            throw RealKernelError(description: "the real-kernel tests cannot run here: \(stderr.trimmingCharacters(in: .whitespacesAndNewlines)) (SWITCHSCAN_SKIP_REAL_KERNEL=1 skips them)")
        }
        guard let data = try? Data(contentsOf: reportURL) else {
            throw RealKernelError(description: "the real-kernel harness exited \(status) without a report\n\(stderr)")
        }
        let report = try JSONDecoder().decode(Report.self, from: data)
        guard report.ok, status == 0 else {
            throw RealKernelError(description: """
                the switchscan real-kernel run failed (exit \(status)): \(report.error ?? "no error given")
                --- guest trace (last 60 lines)
                \(report.trace.suffix(60).joined(separator: "\n"))
                --- harness
                \(stderr)
                """)
        }
        // switchscan's lines, in order.
        struct Raw: Decodable {
            struct Line: Decodable {
                var phase: String
                var line: String
            }
            var switchscan: [Line]
        }
        let raw = try JSONDecoder().decode(Raw.self, from: data)
        let lines = raw.switchscan.enumerated().compactMap { index, entry -> TraceLine? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(entry.line.utf8)) as? [String: Any] else { return nil }
            return TraceLine(index: index, phase: entry.phase, fields: object)
        }
        return SwitchscanResult(report: report, lines: lines)
    }
}
