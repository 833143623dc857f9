import BrailleTestSupport
import BrlAPI
import Foundation
import Testing
import TestTier
import Platform

/// "Test 1 btn" in BRLTTY's en-nabcc text table, as BRLTTY 6.5 writes it to the display:
/// capitals add dot 7, digits are NABCC's lower-cell forms (1 = dot 2).
let test1ButtonDots = cells(["23457", "15", "234", "2345", "", "2", "", "12", "2345", "1345"])

@Suite("BrlAPI against a real BRLTTY and an emulated Baum display", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start BRLTTY"), .serialized,
       .enabled(if: BRLTTYProcess.executablePath != nil, "brltty is not installed (scripts/setup installs it)"))
struct BrlAPIAgainstBRLTTY {
    @Test("The display size is the emulator's cell count", arguments: [40, 80])
    func displaySize(cellCount: Int) throws {
        let rig = try BaumRig(cells: cellCount)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        let size = try connection.displaySize()
        #expect(size.columns == cellCount)
        #expect(size.rows == 1)
        #expect(try connection.driverName() == "Baum")

        // Every cell reaches the display, the last one included.
        let pattern = (0..<cellCount).map { UInt8(($0 * 37 + 1) & 0xFF) }
        try connection.write(text: BrailleCells.text(pattern), cursor: nil)
        #expect(rig.emulator.waitForCells(pattern, timeout: 2), "shown: \(rig.emulator.text)")
    }

    @Test("Recorded frames carry each write's cells and the moment they arrived, on CLOCK_MONOTONIC")
    func recordedFrames() throws {
        let rig = try BaumRig(cells: 40)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        let first = (0..<40).map { UInt8(($0 * 5 + 3) & 0xFF) }, second = (0..<40).map { UInt8(($0 * 11 + 7) & 0xFF) }
        try connection.write(text: BrailleCells.text(first), cursor: nil)
        #expect(rig.emulator.waitForCells(first, timeout: 2))
        rig.emulator.startRecordingFrames()
        let before = MonotonicClock.now()
        try connection.write(text: BrailleCells.text(second), cursor: nil)
        #expect(rig.emulator.waitForCells(second, timeout: 2), "shown: \(rig.emulator.text)")
        let after = MonotonicClock.now()
        let frames = rig.emulator.stopRecordingFrames()
        let shown = try #require(frames.first { $0.cells == second }, "frames: \(frames.map { BrailleCells.text($0.cells) })")
        #expect(shown.time >= before && shown.time <= after, "arrived at \(shown.time), written in \(before)...\(after)")
        #expect(!frames.contains { $0.cells == first }, "the frame before recording started is not kept")
        #expect(rig.emulator.frames.isEmpty, "nothing is kept once recording stopped")
    }

    @Test("The display's identity selects BRLTTY's key table for the model")
    func identity() throws {
        let rig = try BaumRig(cells: 18, identity: "Refreshabraille 18")
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        #expect(try connection.displaySize().columns == 18)
        #expect(try connection.modelIdentifier() == "rb", "log:\n\(rig.log)")
        // The Refreshabraille table (bm/rb.ktb) pans with Display2/Display5 too.
        try rig.emulator.pressDisplayKey(5)
        #expect(try nextKey(connection, timeout: 2) == .panRight)
        try rig.emulator.pressRoutingKey(17)
        #expect(try nextKey(connection, timeout: 2) == .route(17))
    }

    @Test("Text goes through BRLTTY's text table; U+2800 cells pass through as dots")
    func exactDots() throws {
        let rig = try BaumRig(cells: 40)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)

        try connection.write(text: "Test 1 btn", cursor: nil)
        #expect(rig.emulator.waitForCells(test1ButtonDots, timeout: 2),
                "shown: \(rig.emulator.cells.prefix(12).map(BrailleCells.dotNumbers))")

        // The same dots written as Unicode braille: exactly these cells, nothing else.
        try connection.write(text: BrailleCells.text(test1ButtonDots), cursor: nil)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rig.emulator.cells == padded(test1ButtonDots, to: 40))

        // Cells that are the protocol's ESC (0x1B = dots 1245) are doubled on the wire and
        // decoded back; every dot, dots 7-8 included, survives.
        let awkward: [UInt8] = [0x1B, 0xFF, 0x1B, 0x1B, 0x00, 0x80, 0x40, 0xC0, 0x01, 0x1B]
        try connection.write(text: BrailleCells.text(awkward), cursor: nil)
        #expect(rig.emulator.waitForCells(awkward, timeout: 2), "shown: \(rig.emulator.text)")

        // Longer than the display: cut to the display, no error.
        let long = (0..<50).map { UInt8($0 + 1) }
        try connection.write(text: BrailleCells.text(long), cursor: nil)
        #expect(rig.emulator.waitForCells(Array(long.prefix(40)), timeout: 2))
    }

    @Test("The cursor adds dots 7-8 to its cell (1-based); none without a cursor")
    func cursorCell() throws {
        let rig = try BaumRig(cells: 40)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        let line = cells(["1", "12", "14", "145"])

        try connection.write(text: BrailleCells.text(line), cursor: 2)
        var expected = line
        expected[1] |= 0xC0
        #expect(rig.emulator.waitForCells(expected, timeout: 2), "shown: \(rig.emulator.text)")

        try connection.write(text: BrailleCells.text(line), cursor: 40)
        var last = padded(line, to: 40)
        last[39] = 0xC0
        #expect(rig.emulator.waitForCells(last, timeout: 2), "shown: \(rig.emulator.text)")

        try connection.write(text: BrailleCells.text(line), cursor: nil)
        #expect(rig.emulator.waitForCells(line, timeout: 2), "shown: \(rig.emulator.text)")

        for outside in [0, 41, -1] {
            let error = #expect(throws: BrlAPIError.self) { try connection.write(text: "x", cursor: outside) }
            #expect(error?.code == .invalidParameter)
            #expect(error?.function == "brlapi__write")
        }
    }

    @Test("Routing keys on the display arrive as .route(cell), 0-based")
    func routingKeys() throws {
        let rig = try BaumRig(cells: 40)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        for cell in [0, 7, 39] {
            try rig.emulator.pressRoutingKey(cell)
            #expect(try nextKey(connection, timeout: 2) == .route(cell))
        }
    }

    @Test("Display2/Display5 pan left/right, Display4/Display6 go up/down; unaccepted keys never arrive")
    func displayKeys() throws {
        let rig = try BaumRig(cells: 40)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        let expectations: [(key: Int, command: BrlAPIKey)] = [(2, .panLeft), (5, .panRight), (4, .lineUp), (6, .lineDown)]
        for (key, command) in expectations {
            try rig.emulator.pressDisplayKey(key)
            #expect(try nextKey(connection, timeout: 2) == command, "Display\(key)")
        }

        // Display1 is CSRTRK and Display1+Display3 is CHRLT in BRLTTY's Baum table: not accepted.
        try rig.emulator.pressDisplayKey(1)
        try rig.emulator.pressDisplayKeys([1, 3])
        #expect(try nextKey(connection, timeout: 0.4) == nil)
        try rig.emulator.pressDisplayKey(5)
        #expect(try nextKey(connection, timeout: 2) == .panRight)

        // Accepting more commands (a profile binding a key to a switch action) lets them in.
        try connection.acceptKeys([.characterLeft])
        try rig.emulator.pressDisplayKeys([1, 3])
        #expect(try nextKey(connection, timeout: 2) == .command(.characterLeft))
    }

    @Test("ROUTE past the width the connection knows becomes .other, not a cell")
    func routeBoundsChecked() throws {
        let rig = try BaumRig(cells: 20)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        #expect(try connection.displaySize().columns == 20)
        // The display grows; libbrlapi keeps the old size for this connection.
        try rig.emulator.changeCellCount(40)
        Thread.sleep(forTimeInterval: 0.3)
        try rig.emulator.pressRoutingKey(30)
        let key = try nextKey(connection, timeout: 2)
        guard case .other = key else {
            Issue.record("expected .other for ROUTE 30 on a 20-cell connection, got \(String(describing: key))")
            return
        }
        try rig.emulator.pressRoutingKey(5)
        #expect(try nextKey(connection, timeout: 2) == .route(5))
    }

    @Test("A server exception makes the call throw instead of aborting the process")
    func exceptionIsRecorded() throws {
        let rig = try BaumRig(cells: 40)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        try connection.write(text: "Test 1 btn", cursor: nil)
        #expect(rig.emulator.waitForCells(test1ButtonDots, timeout: 2))

        // The display shrinks to 20 cells; this connection still writes 40 (libbrlapi keeps
        // the first size), which BRLTTY answers with an exception. The default handler would
        // abort; ours records it and the call fails.
        try rig.emulator.changeCellCount(20)
        Thread.sleep(forTimeInterval: 0.3)
        var failure: BrlAPIError?
        do {
            try connection.write(text: "Test 1 btn", cursor: nil)
            _ = try nextKey(connection, timeout: 2)
            _ = try connection.displaySize()
            try connection.write(text: "Test 1 btn", cursor: nil)
        } catch let error as BrlAPIError {
            failure = error
        }
        let error = try #require(failure, "no exception reached the client; log:\n\(rig.log)")
        #expect(error.isConnectionLost, "\(error)")
        #expect(error.exception != nil, "\(error)")
        #expect(connection.lastException != nil)
        print("after the display shrank: \(error)")

        // A new connection sees the new size and works.
        let fresh = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        #expect(try fresh.displaySize().columns == 20)
        try fresh.write(text: "Test 1 btn", cursor: nil)
        #expect(rig.emulator.waitForCells(test1ButtonDots, timeout: 2))
    }

    @Test("BRLTTY killed: the next write and read throw; restarted: the line is back")
    func killAndRestart() throws {
        let rig = try BaumRig(cells: 40)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        try connection.write(text: "Test 1 btn", cursor: nil)
        #expect(rig.emulator.waitForCells(test1ButtonDots, timeout: 2))

        rig.brltty.kill()  // SIGKILL by PID: no goodbye, socket and lock file left behind

        // SIGPIPE is ignored, so the write fails with EPIPE and this process lives on.
        let writeError = #expect(throws: BrlAPIError.self) { try connection.write(text: "Test 1 btn", cursor: nil) }
        #expect(writeError?.isConnectionLost == true, "\(String(describing: writeError))")
        #expect(writeError?.function == "brlapi__write")
        #expect(writeError.map { $0.code == .libc && $0.errno == EPIPE || $0.code == .endOfFile } == true)
        let readError = #expect(throws: BrlAPIError.self) { try connection.readKey() }
        #expect(readError?.isConnectionLost == true, "\(String(describing: readError))")
        #expect(readError?.function == "brlapi__readKey")
        #expect(readError?.description.contains("brlapi__readKey") == true)
        print("write after BRLTTY was killed: \(writeError.map(String.init(describing:)) ?? "no error")")
        print("read after BRLTTY was killed: \(readError.map(String.init(describing:)) ?? "no error")")
        // libbrlapi still reports the old size for the dead connection (a pitfall).
        #expect(try connection.displaySize().columns == 40)
        connection.close()
        #expect(throws: BrlAPIError.self) { try connection.readKey() }

        // A client reconnecting every 50 ms: restart BRLTTY on the same host.
        let writesBefore = rig.emulator.cellWriteCount
        let started = Date()
        try rig.brltty.start()
        // (The waits guard a hang; they are no speed target.)
        let fresh = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 30)
        try fresh.write(text: "Test 1 btn", cursor: nil)
        #expect(rig.emulator.waitForCellWrites(atLeast: writesBefore + 1, timeout: 30))
        #expect(rig.emulator.waitForCells(test1ButtonDots, timeout: 30))
        // A figure, not a check: a busy machine makes it longer.
        print("BRLTTY restart → line back on the display: \(String(format: "%.3f", Date().timeIntervalSince(started))) s")
    }

    @Test("BRLTTY stopped with SIGTERM: the client sees end of file")
    func stopGracefully() throws {
        let rig = try BaumRig(cells: 40)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)
        rig.brltty.stop()
        #expect(!rig.brltty.isRunning)
        let error = #expect(throws: BrlAPIError.self) { _ = try nextKey(connection, timeout: 2) }
        #expect(error?.code == .endOfFile, "\(String(describing: error))")
        // Nothing listens any more: opening fails, it does not hang or crash.
        let refused = #expect(throws: BrlAPIError.self) { _ = try BrlAPIConnection.open(host: rig.brltty.host, auth: "none") }
        #expect(refused?.function == "brlapi__openConnection")
        #expect(refused?.isServerUnavailable == true, "\(String(describing: refused))")
    }

    @Test("A display not answering yet: size 0, no crash; the line appears once it answers")
    func displayNotAnsweringYet() throws {
        let rig = try BaumRig(cells: 40, answering: false)
        #expect(rig.emulator.waitForProbes(atLeast: 1, timeout: 3), "BRLTTY never probed")

        let early = try BrlAPIConnection.open(host: rig.brltty.host, auth: "none")
        let size = try early.displaySize()
        #expect(size.columns == 0, "BRLTTY reports \(size) with no display")
        // Writing to no cells is refused here (BRLTTY would answer it with an exception).
        let error = #expect(throws: BrlAPIError.self) { try early.write(text: "Test 1 btn", cursor: nil) }
        #expect(error?.code == .invalidParameter)
        early.close()

        rig.emulator.startAnswering()
        let started = Date()
        // BRLTTY probes again about every 5 s after a failed start.
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 8, retryInterval: 0.25)
        try connection.write(text: "Test 1 btn", cursor: nil)
        #expect(rig.emulator.waitForCells(test1ButtonDots, timeout: 2))
        print("display answering → line shown: \(String(format: "%.3f", Date().timeIntervalSince(started))) s")
        #expect(try connection.displaySize().columns == 40)
    }

    @Test("Write latency: BrlAPI write returning, and the cells reaching the display")
    func writeLatency() throws {
        let rig = try BaumRig(cells: 40)
        let connection = try connectWhenDisplayReady(host: rig.brltty.host, timeout: 5)

        // One line per highlight, as the scanner writes: each write, then its cells on the display.
        var returned = [Double]()
        var shown = [Double]()
        for index in 0..<100 {
            let pattern = (0..<40).map { UInt8(($0 + index) & 0xFF) }
            let start = DispatchTime.now().uptimeNanoseconds
            try connection.write(text: BrailleCells.text(pattern), cursor: nil)
            returned.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            guard rig.emulator.waitForCells(pattern, timeout: 2) else {
                Issue.record("write \(index) never reached the display")
                return
            }
            shown.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let write = percentiles(returned)
        let display = percentiles(shown)
        print(String(format: "brlapi__write returns: median %.3f ms, p99 %.3f ms (%d writes)", write.median, write.p99, returned.count))
        print(String(format: "write → cells at the display: median %.2f ms, p99 %.2f ms", display.median, display.p99))
        // Figures only: speed is measured by the benchmark (switchscan-bench braille), not asserted.
        #expect(returned.count == 100)

        // A burst: BRLTTY sends every write on to the display (none are dropped), so a burst
        // queues up behind the serial line. Writers should send only changed lines.
        let writesBefore = rig.emulator.cellWriteCount
        let burst = 50
        let start = DispatchTime.now().uptimeNanoseconds
        var last = [UInt8]()
        for index in 0..<burst {
            last = (0..<40).map { UInt8(($0 * 3 + index) & 0xFF) }
            try connection.write(text: BrailleCells.text(last), cursor: nil)
        }
        let queued = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        #expect(rig.emulator.waitForCells(last, timeout: 5))
        let drained = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        print(String(format: "burst of %d writes: returned after %.1f ms, last line shown after %.1f ms, %d cell writes reached the display",
                     burst, queued, drained, rig.emulator.cellWriteCount - writesBefore))
    }

    @Test("BRLTTY's Virtual driver: exact dots, ROUTE and pan commands",
          .enabled(if: BRLTTYProcess.hasBrailleDriver("vr"), "this BRLTTY has no Virtual driver (vr), removed upstream in 6.9"))
    func virtualDriver() throws {
        BrlAPI.ignoreSIGPIPE()
        let display = try VirtualBrailleDisplay(cells: 40)
        defer { display.stop() }
        let brltty = try BRLTTYProcess(driver: "vr", device: display.device)
        defer { brltty.stop() }
        try brltty.start()
        #expect(display.waitForConnection(timeout: 3))

        let connection = try connectWhenDisplayReady(host: brltty.host, timeout: 5)
        #expect(try connection.displaySize().columns == 40)
        #expect(try connection.driverName() == "Virtual")

        try connection.write(text: "Test 1 btn", cursor: nil)
        #expect(display.waitForCells(timeout: 2) { $0 == padded(test1ButtonDots, to: 40) } != nil,
                "shown: \(display.text)")
        let awkward: [UInt8] = [0x1B, 0xFF, 0x00, 0x80, 0x40]
        try connection.write(text: BrailleCells.text(awkward), cursor: 3)
        var expected = padded(awkward, to: 40)
        expected[2] |= 0xC0
        #expect(display.waitForCells(timeout: 2) { $0 == expected } != nil, "shown: \(display.text)")

        try display.send("ROUTE 5")
        #expect(try nextKey(connection, timeout: 2) == .route(5))
        try display.send("FWINRT")
        #expect(try nextKey(connection, timeout: 2) == .panRight)
        try display.send("FWINLT")
        #expect(try nextKey(connection, timeout: 2) == .panLeft)
        try display.send("LNUP")
        #expect(try nextKey(connection, timeout: 2) == .lineUp)
    }

    /// A display of two rows (`cells 20 2`): BrlAPI's size is 20×2, the write region is both
    /// rows, row by row, and a routing key on the second row is ROUTE with the cell's row-major
    /// number (20 + column).
    @Test("BRLTTY's Virtual driver with two rows of 20: size, both rows written, ROUTE on row 2",
          .enabled(if: BRLTTYProcess.hasBrailleDriver("vr"), "this BRLTTY has no Virtual driver (vr), removed upstream in 6.9"))
    func virtualDriverTwoRows() throws {
        BrlAPI.ignoreSIGPIPE()
        let display = try VirtualBrailleDisplay(cells: 20, rows: 2)
        defer { display.stop() }
        let brltty = try BRLTTYProcess(driver: "vr", device: display.device)
        defer { brltty.stop() }
        try brltty.start()
        #expect(display.waitForConnection(timeout: 3))
        let connection = try connectWhenDisplayReady(host: brltty.host, timeout: 5)
        let size = try connection.displaySize()
        #expect(size.columns == 20 && size.rows == 2, "\(size)")

        // 40 cells: "Test 1 btn" on row 1 (padded to 20), the same on row 2.
        let row = "Test 1 btn" + String(repeating: " ", count: 10)
        try connection.write(text: row + "Test 1 btn", cursor: 21)
        var expected = padded(test1ButtonDots, to: 20) + padded(test1ButtonDots, to: 20)
        expected[20] |= 0xC0
        #expect(display.waitForCells(timeout: 2) { $0 == expected } != nil, "shown: \(display.text)")

        try display.send("ROUTE 25")
        #expect(try nextKey(connection, timeout: 2) == .route(25))
        try display.send("ROUTE 3")
        #expect(try nextKey(connection, timeout: 2) == .route(3))
    }
}

@Suite("BrlAPI without a server")
struct BrlAPIWithoutServer {
    @Test("Opening a host nobody serves throws, naming brlapi__openConnection")
    func openRefused() throws {
        BrlAPI.ignoreSIGPIPE()
        let host = ":\(BRLTTYProcess.unusedHostNumber())"
        let error = #expect(throws: BrlAPIError.self) { _ = try BrlAPIConnection.open(host: host, auth: "none") }
        #expect(error?.function == "brlapi__openConnection")
        #expect(error?.isServerUnavailable == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("brlapi__openConnection: ") == true)
    }

    @Test("Commands carry BRLTTY's names")
    func commandNames() {
        #expect(BrlAPICommand(brlttyName: "FWINLT") == .panLeft)
        #expect(BrlAPICommand(brlttyName: "fwinrt") == .panRight)
        #expect(BrlAPICommand(brlttyName: "ROUTE") == .route)
        #expect(BrlAPICommand(brlttyName: "NOPE") == nil)
        #expect(BrlAPICommand.lineDown.brlttyName == "LNDN")
    }

    @Test("libbrlapi's version")
    func libraryVersion() {
        let version = BrlAPI.libraryVersion
        #expect(version.major == 0 && version.minor >= 8)
        #expect(BrlAPI.socketDirectory == "/var/lib/BrlAPI")
    }
}

@Suite("Braille display profiles")
struct BrailleProfileCommands {
    /// `Devices/braille/` of this repository.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Devices/braille")

    @Test("Every command a profile names is one the BrlAPI wrapper can accept")
    func commandsAreKnown() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.count >= 20)
        let pattern = try Regex(#"command: ([A-Z_]+)"#)
        for file in files {
            let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
            let commands = text.matches(of: pattern).map { String($0.output[1].substring ?? "") }
            #expect(commands.contains("FWINLT") && commands.contains("FWINRT"), "\(file) has no pan keys")
            for command in commands {
                #expect(BrlAPICommand(brlttyName: command) != nil, "\(file): unknown command \(command)")
            }
        }
    }
}
