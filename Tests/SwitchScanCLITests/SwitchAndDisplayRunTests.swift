import BrailleTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestTier
import Platform

/// The whole chain as a switch user has it, with nothing simulated inside switchscan: `struct
/// input_event` records on a FIFO (as a switch interface's evdev node gives them) through the
/// generic keyboard profile and the stabiliser, the scanner, liblouis, BrlAPI, a real BRLTTY and
/// its Baum driver, to the cells an emulated Baum display receives on its serial line. Then
/// SIGTERM, as systemd stops the unit: the exit status, the display given back to BRLTTY, and
/// BRLTTY still serving the next client.
@Suite("switchscan run: switches on a FIFO, a braille display through BRLTTY", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start BRLTTY"), .serialized,
       .enabled(if: BRLTTYProcess.hasBrailleDriver("bm"), "BRLTTY with its Baum driver is not installed"))
struct SwitchAndDisplayRunTests {
    static func record(_ time: Double, _ type: UInt16, _ code: UInt16, _ value: Int32) -> Data {
        CLI.inputEventRecord(time, type, code, value)
    }

    static let keyEnter: UInt16 = 28, keySpace: UInt16 = 57

    /// A key tapped: press and release 80 ms apart (records dated from `clock`), each with its
    /// SYN_REPORT, as a keyboard-emulating switch interface sends them.
    static func tap(_ code: UInt16, at time: Double) -> Data {
        record(time, 1, code, 1) + record(time, 0, 0, 0) + record(time + 0.08, 1, code, 0) + record(time + 0.08, 0, 0, 0)
    }

    /// `Exit menu` in UEB grade 2: capital ⠠, e x i t ⠑⠭⠊⠞ (no contraction), m ⠍, "en" ⠢, u ⠥.
    /// BRLTTY's screen when no client holds the display (NoScreen's message, computer braille):
    /// b r l t t y, the cursor (dots 7 and 8) on the first cell.
    static let brlttyScreen = cells(["1278", "1235", "123", "2345", "2345", "13456"])

    /// A menu entry's line: its title, its position, the element's line: `Exit menu 2/2: Btn 1 btn`.
    static let exitMenu = cells(["6", "15", "1346", "24", "2345", "", "134", "26", "136", "", "3456", "12", "456", "34", "3456",
                                 "12", "25", "", "6", "12", "2345", "1345", "", "3456", "1", "", "12", "2345", "1345"])

    @Test("Switch presses from a raw FIFO reach the display as exact dots; SIGTERM gives the display back to BRLTTY")
    func switchesToDotsThenSigterm() throws {
        // BRLTTY's own screen, while no client holds the display, is a message (its NoScreen
        // driver's `message` parameter): "brltty" in computer braille, b r l t t y.
        let rig = try DisplayRig(cells: 40, brlttyArguments: ["-X", "message=brltty"])
        #expect(rig.emulator.waitForCells(padded(Self.brlttyScreen, to: 40), timeout: 3), "BRLTTY's screen before switchscan starts")
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("switch.fifo").path
        #expect(throws: Never.self) { try FileSystem.makeFIFO(fifo) }
        let tracePath = folder.url.appendingPathComponent("trace.jsonl").path
        let stderrPath = folder.url.appendingPathComponent("stderr").path
        FileManager.default.createFile(atPath: stderrPath, contents: nil)

        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["run", "Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                             "--input", "raw:\(fifo)", "--profile", "Devices/switches/generic-keyboard.yaml",
                             "--braille", "brlapi:\(rig.brltty.host)", "--settings", "none",
                             "--no-view", "--trace", tracePath]
        process.currentDirectoryURL = CLI.packageRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try folder.outputFile("stdout-1")
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var events: [[String: Any]] { (try? RunCommandTests.traceEvents(tracePath)) ?? [] }
        func expect(_ expected: [UInt8], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            guard rig.emulator.waitForCells(expected, timeout: 3) else {
                let shown = rig.emulator.cells
                Issue.record("""
                    \(what): expected \(BrailleCells.text(expected)), shown \(BrailleCells.text(shown)) \
                    (\(shown.map(BrailleCells.dotNumbers)))
                    trace: \(events.suffix(8))
                    stderr: \((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
                    """, sourceLocation: sourceLocation)
                return
            }
        }

        // The first item, before any switch.
        expect(BrailleRunTests.testGroup, "the first item, a group")
        // Opening for writing waits for switchscan, which opened the FIFO for reading at start.
        let writer = try CLI.fifoWriter(fifo)
        let base = 7000.0
        // Each tap is written when its timestamp says, on the test's clock (as a device sends
        // them): written sooner, as soon as the display changed, the stream runs ahead of its
        // own timestamps and is re-dated, which once turned a release into a bounce in a full run.
        let firstWrite = Date()
        func write(_ code: UInt16, after seconds: Double) {
            let due = firstWrite.addingTimeInterval(seconds)
            if due > Date() { Thread.sleep(until: due) }
            writer.write(Self.tap(code, at: base + seconds))
        }
        write(Self.keyEnter, after: 0)
        expect(BrailleRunTests.button1, "Btn 1 after the switch bound to next (KEY_ENTER)")
        write(Self.keySpace, after: 0.5)
        expect(BrailleRunTests.tapMenu, "the menu's first entry after select (KEY_SPACE)")
        write(Self.keyEnter, after: 1.0)
        expect(Self.exitMenu, "the menu's second entry after next")
        write(Self.keySpace, after: 1.5)
        expect(BrailleRunTests.button1, "Btn 1 again once the menu is closed")

        // The trace: each edge accepted, in order, and what it did. Its lines follow the display
        // (written once the braille write has had time to reach it): waited for, not assumed.
        let traced = Date().addingTimeInterval(3)
        while events.filter({ $0["kind"] as? String == "input" }).count < 8, Date() < traced { Thread.sleep(forTimeInterval: 0.01) }
        let inputs = events.filter { $0["kind"] as? String == "input" }.map {
            "\($0["switch"] as? String ?? "?") \($0["edge"] as? String ?? "?") \($0["accepted"] as? Bool == true)"
        }
        #expect(inputs == ["enter down true", "enter up true", "space down true", "space up true",
                           "enter down true", "enter up true", "space down true", "space up true"], "\(inputs)")
        // Each input line says when the loop began reading it (CLOCK_MONOTONIC, as the writes).
        let inputLines = events.filter { $0["kind"] as? String == "input" }
        let writes = events.filter { $0["kind"] as? String == "brailleWritten" }.compactMap { $0["monotonic"] as? Double }
        #expect(inputLines.allSatisfy { ($0["read"] as? Double).map { read in writes.contains { abs($0 - read) < 60 } } == true },
                "\(inputLines)")
        // Each press's line was forecast while the loop was idle and written as the press was
        // read, before the session handled it: its write returned before the press's handling
        // time, and no forecast differed from the session's line. (At least three of the four:
        // the idle turn that makes a forecast can be starved on a loaded machine, and then the
        // line is written after the session, as without forecasts.)
        let all = events
        let forecastWrites = all.indices.filter { index in
            guard all[index]["kind"] as? String == "input", all[index]["edge"] as? String == "down",
                  let handled = all[index]["handled"] as? Double,
                  let write = all[index...].first(where: { $0["kind"] as? String == "brailleWritten" }),
                  let returned = write["time"] as? Double else { return false }
            return returned < handled
        }
        #expect(forecastWrites.count >= 3, "\(all)")
        #expect(!all.contains { ($0["text"] as? String ?? "").contains("forecast") }, "\(all)")
        let highlights = events.filter { $0["kind"] as? String == "highlight" }.compactMap { $0["id"] as? String }
        #expect(highlights == ["test-wrap", "btn-1", "btn-1"], "\(highlights)")
        let menus = events.filter { $0["kind"] as? String == "menu" }
        #expect(menus.map { $0["entries"] as? [String] ?? [] } == [["Tap", "Exit menu"], ["Tap", "Exit menu"], []], "\(menus)")
        let braille = events.filter { $0["kind"] as? String == "braille" }.compactMap { $0["text"] as? String }
        #expect(braille == ["Test 1, Test 2 grp", "Btn 1 btn", "Tap 1/2: Btn 1 btn", "Exit menu 2/2: Btn 1 btn", "Btn 1 btn"], "\(braille)")
        let statuses = events.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String }
        #expect(statuses.contains { $0.hasPrefix("braille display connected: Baum") && $0.contains("40 cells") }, "\(statuses)")
        #expect(statuses.contains { $0 == "raw:\(fifo): reading struct input_event records (24 bytes each) through profile generic-keyboard" },
                "\(statuses)")

        // While switchscan runs, a display key is its own (Display2 pans left: nothing to pan).
        try rig.emulator.pressDisplayKey(2)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(rig.emulator.cells == padded(BrailleRunTests.button1, to: 40))

        // SIGTERM, the FIFO still open: a clean exit, 128 + 15, as a shell and systemd expect.
        #expect(throws: Never.self) { try ProcessSignal.send(SIGTERM, to: process.processIdentifier) }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        try #require(!process.isRunning, "switchscan still running 5 s after SIGTERM")
        #expect(process.terminationReason == .exit && process.terminationStatus == 143,
                "\(process.terminationReason) \(process.terminationStatus)")
        try? writer.close()
        // Without a screen, standard error says what the status line would (the stream read,
        // the display connected), each once, and nothing else.
        let said = events.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String }
        #expect(((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "") == said.map { "switchscan run: \($0)\n" }.joined(),
                "\(said)")
        // The display is BRLTTY's again. With no screen driver BRLTTY does not redraw by itself,
        // so the line stays until a key: the same display key that panned switchscan's line
        // (above) now reaches BRLTTY, which shows its own screen, "brltty" with its cursor.
        #expect(rig.emulator.cells == padded(BrailleRunTests.button1, to: 40))
        try rig.emulator.pressDisplayKey(2)
        expect(Self.brlttyScreen, "BRLTTY's own screen after a display key, once switchscan has gone")
        #expect(rig.brltty.isRunning, "BRLTTY: \(rig.brltty.logTail(lines: 10))")
        #expect(rig.emulator.failure == nil, "\(rig.emulator.failure ?? "")")

        // BRLTTY still serves: the next run's line is on the display.
        let next = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual", "--settings", "none",
                                "--braille", "brlapi:\(rig.brltty.host)"])
        try rig.expect(BrailleRunTests.testGroup, "the next run's first item", run: next)
        #expect(next.finish() == 0, "\(next.stderr)")
    }
}

/// Cells from dot numbers, one string per cell ("" blank).
private func cells(_ dots: [String]) -> [UInt8] {
    dots.map { $0.reduce(UInt8(0)) { $0 | UInt8(1 << ($1.wholeNumberValue! - 1)) } }
}

private func padded(_ cells: [UInt8], to count: Int) -> [UInt8] {
    cells + [UInt8](repeating: 0, count: max(0, count - cells.count))
}
