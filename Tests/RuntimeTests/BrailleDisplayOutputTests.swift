import BrailleFormatting
import BrailleTestSupport
import DeviceProfiles
import Foundation
import Runtime
import SwitchInput
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestTier
import Platform

/// `BrailleDisplayOutput` driven as the loop drives it (its descriptor polled, its deadline
/// kept), against a real BRLTTY and the Baum display emulator: coalesced writes, the cursor,
/// a display that changes size, and the status it gives. `switchscan run` itself is tested in
/// `SwitchScanCLITests/BrailleRunTests`.
@Suite("Braille display output", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start BRLTTY"), .serialized,
       .enabled(if: BRLTTYProcess.hasBrailleDriver("bm"), "BRLTTY with its Baum driver is not installed"))
struct BrailleDisplayOutputTests {
    /// Computer braille (one cell per character, known dots) so that expectations are plain.
    static let computerBraille = BrailleTableChoice(tables: [:], uncontractedTables: [:],
                                                    fallbackTable: "en-us-comp8.ctb", computerBrailleTable: "en-us-comp8.ctb")
    static let a: UInt8 = 0b1          // dot 1
    static let b: UInt8 = 0b11         // dots 1 2
    static let c: UInt8 = 0b1001       // dots 1 4
    static let dots78: UInt8 = 0xC0

    @Test("A burst of lines gives a few writes, the last line last; one write per interval at most")
    func writesAreCoalesced() throws {
        let rig = try OutputRig(cells: 40)
        let output = rig.output(tables: Self.computerBraille)
        defer { output.close() }
        try rig.connect(output)
        let before = output.writeCount
        var starts = [Double]()
        output.writeObserver = { started, _ in starts.append(started) }
        Thread.sleep(forTimeInterval: 0.05)  // the connection's first write is old enough
        // 200 highlights in a tight loop, then the loop goes on as LiveRun's would: the first is
        // written at once, the others wait, and only the last of them is written.
        let burstStart = MonotonicClock.now()
        for index in 0..<200 {
            output.show(BrailleLine(text: "item \(index) abc", target: .element("e\(index)")), language: nil, at: MonotonicClock.now())
        }
        let burst = MonotonicClock.now() - burstStart
        let last = Array("item 199 abc".utf8).map(OutputRig.computerBrailleCell)
        _ = rig.pump(output, timeout: 2) { rig.emulator.cells.prefix(last.count).elementsEqual(last) }
        #expect(rig.emulator.waitForCells(last, timeout: 1), "shown: \(rig.emulator.text)")
        let writes = output.writeCount - before
        print(String(format: "200 shows in a burst of %.1f ms: %d writes", burst * 1000, writes))
        // The first at once, at most one per 25 ms during the burst, the last after it.
        #expect(writes >= 2 && writes <= 2 + Int(burst / 0.025), "\(writes) writes for one burst of \(burst) s")
        for (earlier, later) in zip(starts, starts.dropFirst()) {
            #expect(later - earlier >= 0.025 - 0.0005, "writes \(later - earlier) s apart")
        }
        // The same line again: nothing written.
        let count = output.writeCount
        output.show(BrailleLine(text: "item 199 abc", target: .element("e199")), language: nil, at: MonotonicClock.now())
        _ = rig.pump(output, timeout: 0.1) { false }
        #expect(output.writeCount == count)
    }

    @Test("Cursor: BrlAPI's cursor on the highlighted segment's first cell, or dots 7-8 under the whole segment")
    func cursorMarking() throws {
        let rig = try OutputRig(cells: 40)
        // "ab " is a message (routes to nothing), "cab" the highlighted element.
        let line = BrailleLine(text: "ab cab", segments: [
            .init(range: 0..<3, target: nil), .init(range: 3..<6, target: .element("x")),
        ])
        let first = rig.output(tables: Self.computerBraille, cursor: .firstCell)
        try rig.connect(first)
        rig.show(line, on: first)
        #expect(rig.emulator.waitForCells([Self.a, Self.b, 0, Self.c | Self.dots78, Self.a, Self.b], timeout: 2),
                "shown: \(rig.emulator.cells.prefix(6).map(BrailleCells.dotNumbers))")
        first.close()

        let segment = rig.output(tables: Self.computerBraille, cursor: .segment)
        defer { segment.close() }
        try rig.connect(segment)
        rig.show(line, on: segment)
        #expect(rig.emulator.waitForCells([Self.a, Self.b, 0, Self.c | Self.dots78, Self.a | Self.dots78, Self.b | Self.dots78], timeout: 2),
                "shown: \(rig.emulator.cells.prefix(6).map(BrailleCells.dotNumbers))")
    }

    @Test("A line prepared ahead (the next highlight, made while the loop is idle) is written exactly as one that was not, also panned to its highlight")
    func preparedLinesAreWrittenAsShown() throws {
        let rig = try OutputRig(cells: 40)
        // A short line, and one of 51 characters whose highlighted "cab" starts at 48: its first
        // window is the one holding the highlight, not the line's start.
        let short = BrailleLine(text: "ab cab", segments: [
            .init(range: 0..<3, target: nil), .init(range: 3..<6, target: .element("x")),
        ])
        let long = BrailleLine(text: String(repeating: "ab ", count: 16) + "cab", segments: [
            .init(range: 0..<48, target: nil), .init(range: 48..<51, target: .element("y")),
        ])
        let highlighted = [Self.c | Self.dots78, Self.a | Self.dots78, Self.b | Self.dots78]
        var written: [Bool: [String]] = [:]
        for prepared in [false, true] {
            let output = rig.output(tables: Self.computerBraille, cursor: .segment)
            defer { output.close() }
            try rig.connect(output)
            for line in [short, long, short] {
                if prepared { output.prepare(line, language: nil) }
                rig.show(line, on: output)
                #expect(rig.emulator.waitForCells(timeout: 2, where: { $0.contains(highlighted) }) != nil,
                        "prepared \(prepared): \(rig.emulator.cells.prefix(12).map(BrailleCells.dotNumbers))")
                written[prepared, default: []].append(output.lastWrittenText ?? "(nothing)")
            }
        }
        #expect(written[true] == written[false])
        #expect(written[true]?.count == 3)
    }

    @Test("The display shrinks: BRLTTY's exception, a reconnection, the line cut for the new width")
    func displayChangesSize() throws {
        let rig = try OutputRig(cells: 40)
        let output = rig.output(tables: Self.computerBraille)
        defer { output.close() }
        try rig.connect(output)
        #expect(output.displayCells == 40)
        let words = "abc abc abc abc abc abc abc abc"  // 31 cells: one window on 40, two on 20
        rig.show(BrailleLine(text: words, target: .element("w")), on: output)
        let abc: [UInt8] = [Self.a, Self.b, Self.c]
        let all = Array([[UInt8]](repeating: abc, count: 8).joined(separator: [0]))
        #expect(rig.emulator.waitForCells(all, timeout: 2))
        try rig.emulator.changeCellCount(20)
        Thread.sleep(forTimeInterval: 0.3)
        // The next line is written 40 cells wide; BRLTTY answers with an exception.
        let next = "bca bca bca bca bca bca bca bca"
        rig.show(BrailleLine(text: next, target: .element("w2")), on: output)
        let statuses = rig.pump(output, timeout: 4) { output.displayCells == 20 && !output.hasPendingWrite }
        #expect(output.displayCells == 20, "\(statuses)")
        // The first window of the new width, cut at a space: five words, 19 cells.
        let bca: [UInt8] = [Self.b, Self.c, Self.a]
        let firstWindow = Array([[UInt8]](repeating: bca, count: 5).joined(separator: [0])) + [0]
        // (The emulator keeps its 40-cell buffer; the display shows its first 20.)
        #expect(rig.emulator.waitForCells(timeout: 2) { Array($0.prefix(20)) == firstWindow } != nil,
                "shown: \(rig.emulator.cells.map(BrailleCells.dotNumbers))")
        #expect(statuses.contains { $0.hasSuffix("reconnecting") }, "\(statuses)")
        #expect(statuses.contains { $0.contains("20 cells") }, "\(statuses)")
    }

    @Test("A BRLTTY that accepts but never answers (stopped): the attempt times out, the loop goes on, and it connects once BRLTTY runs again")
    func connectionAttemptTimesOut() throws {
        let rig = try OutputRig(cells: 40)
        let pid = try #require(rig.brltty.pid)
        defer { try? ProcessSignal.send(SIGCONT, to: pid) }
        // Twice at most: in a full run, BRLTTY was once seen answering while it should have been
        // stopped (resumed by something outside this test); the second attempt checks that it
        // really is stopped (state T in /proc) for the whole attempt.
        for attempt in 1...2 {
            #expect(throws: Never.self) { try ProcessSignal.send(SIGSTOP, to: pid) }
            let stoppedBy = Date(timeIntervalSinceNow: 2)
            while ProcessStatistics.state(of: pid) != "T", Date() < stoppedBy { Thread.sleep(forTimeInterval: 0.01) }
            #expect(ProcessStatistics.state(of: pid) == "T", "BRLTTY is not stopped")
            let output = BrailleDisplayOutput(.init(host: rig.brltty.host, auth: "none", reconnectDelay: 0.1,
                                                    maximumReconnectDelay: 0.2, connectTimeout: 0.5))
            defer { output.close() }
            let statuses = rig.pump(output, timeout: 1.2) { false }
            let stateAfter = ProcessStatistics.state(of: pid)
            if attempt == 1, stateAfter != "T" {
                // Resumed from outside: not what this test is about; try once more.
                continue
            }
            // The pump came back (a loop blocked by the stopped BRLTTY would not), and said why.
            #expect(statuses.contains { $0.contains("no answer within 0.5 s") }, "\(statuses); BRLTTY's state \(stateAfter ?? "?")")
            #expect(!output.isConnected)
            try? ProcessSignal.send(SIGCONT, to: pid)
            _ = rig.pump(output, timeout: 4) { output.isConnected }
            #expect(output.isConnected)
            return
        }
    }

    /// What is said while BRLTTY is away, and how often, is `BrailleDisplayLink`'s decision
    /// (`RunControlTests`, with `--braille auto`'s silence); here, that a real refusal reads as
    /// BRLTTY being away.
    @Test("No BRLTTY on the host: the failed connection is said as BRLTTY awaited, with its socket")
    func noBRLTTYIsSaidAsAwaited() throws {
        let number = BRLTTYProcess.unusedHostNumber()
        let host = ":\(number)"
        let told = BrailleDisplayOutput(.init(host: host, reconnectDelay: 0.05, maximumReconnectDelay: 0.1))
        defer { told.close() }
        var statuses = [String]()
        let end = MonotonicClock.now() + 5
        while statuses.isEmpty, MonotonicClock.now() < end {
            statuses += OutputRig.Pump().pump(told, timeout: 0.05) { false }
        }
        #expect(statuses.count == 1, "\(statuses)")
        #expect(statuses.first?.hasPrefix("braille display: no BRLTTY at \(host)") == true, "\(statuses)")
        #expect(statuses.first?.contains("(socket ") == true && statuses.first?.contains("/\(number))") == true, "\(statuses)")
        #expect(!told.isConnected)
    }

    @Test("Bindings: the routing keys select; the profiles' line keys are previous and next")
    func bindingsFromTheProfiles() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Devices/braille").path
        let loaded = BrailleOutputs.loadDisplayProfiles(from: folder)
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        #expect(loaded.profiles.count == 23)
        #expect(BrailleDisplayOutput.commandBindings(for: loaded.profiles) == ["LNUP": .previous, "LNDN": .next])
        let output = BrailleDisplayOutput(.init(host: ":\(BRLTTYProcess.unusedHostNumber())", quietWhileAbsent: true,
                                                profiles: loaded.profiles))
        defer { output.close() }
        #expect(output.bindings == [
            "braille:route": SwitchBinding(action: .select),
            "braille:LNUP": SwitchBinding(action: .previous),
            "braille:LNDN": SwitchBinding(action: .next),
        ])
        #expect(output.pulseSwitches == ["braille:route", "braille:LNUP", "braille:LNDN"])

        // Profiles that disagree leave the command unbound.
        var other = try #require(loaded.profiles.first)
        other.switches = [.init(command: "LNUP", keys: ["Up"], action: .menu)]
        #expect(BrailleDisplayOutput.commandBindings(for: [loaded.profiles[0], other]) == ["LNDN": .next])
        #expect(BrailleDisplayOutput.commandBindings(for: []) == BrailleDisplayOutput.defaultCommandBindings)
    }

    @Test("Two rows of 20 (BRLTTY's Virtual driver): the line wraps across both rows, dots 7-8 under the item on row 2, a routing key on row 2 selects",
          .enabled(if: BRLTTYProcess.hasBrailleDriver("vr"), "this BRLTTY has no Virtual driver (vr), removed upstream in 6.9"))
    func twoRows() throws {
        let display = try VirtualBrailleDisplay(cells: 20, rows: 2)
        defer { display.stop() }
        let brltty = try BRLTTYProcess(driver: "vr", device: display.device)
        defer { brltty.stop() }
        try brltty.start()
        let output = BrailleDisplayOutput(.init(host: brltty.host, auth: "none", tables: Self.computerBraille,
                                                contracted: false, cursor: .segment))
        defer { output.close() }
        let statuses = OutputRig.Pump().pump(output, timeout: 5) { output.isConnected }
        #expect(output.displaySize?.columns == 20 && output.displaySize?.rows == 2, "\(statuses)")
        #expect(output.displayCells == 40)
        #expect(statuses.contains { $0.contains("Virtual") && $0.contains("20×2 cells") }, "\(statuses)")

        // A message of five words (19 cells, row 1), then the highlighted item "bca bca" (row 2).
        let line = BrailleLine(text: "abc abc abc abc abc bca bca", segments: [
            .init(range: 0..<20, target: nil), .init(range: 20..<27, target: .element("x")),
        ])
        output.show(line, language: nil, at: MonotonicClock.now())
        _ = OutputRig.Pump().pump(output, timeout: 1) { !output.hasPendingWrite }
        let abc: [UInt8] = [Self.a, Self.b, Self.c]
        let bca: [UInt8] = [Self.b, Self.c, Self.a]
        let row1 = Array([[UInt8]](repeating: abc, count: 5).joined(separator: [0])) + [0]
        let row2 = (bca + [0] + bca).map { $0 | Self.dots78 } + [UInt8](repeating: 0, count: 13)
        #expect(display.waitForCells(timeout: 2) { $0 == row1 + row2 } != nil,
                "shown: \(display.cells.map(BrailleCells.dotNumbers))")

        // Row 1, column 5: the message; row 1, column 19: past its text; row 2, column 2: the item.
        // One command at a time: the Virtual driver reads one line per input it is woken for, so
        // a second line sent with the first waits for the next one.
        func edges(within seconds: Double, stopAtFirst: Bool) throws -> [SwitchEdge] {
            var edges = [SwitchEdge]()
            let end = MonotonicClock.now() + seconds
            while MonotonicClock.now() < end, !(stopAtFirst && !edges.isEmpty) {
                guard let descriptor = output.descriptor else { break }
                if try !Poll.readable([descriptor], timeout: 0.05).isEmpty {
                    for input in output.readable(at: MonotonicClock.now()) {
                        if case .edge(let edge) = input { edges.append(edge) }
                    }
                }
            }
            return edges
        }
        try display.send("ROUTE 5")
        #expect(try edges(within: 0.5, stopAtFirst: false).isEmpty)
        try display.send("ROUTE 19")
        #expect(try edges(within: 0.5, stopAtFirst: false).isEmpty)
        try display.send("ROUTE 22")
        #expect(try edges(within: 3, stopAtFirst: true).map(\.switchID) == [BrailleDisplayOutput.routeSwitch])
    }

    @Test("The factory: none and terminal make no display; auto and brlapi one")
    func factory() {
        #expect(BrailleOutputs.make(.none, auth: nil, profilesDirectories: []).terminalCells == false)
        let terminal = BrailleOutputs.make(.terminal, auth: nil, profilesDirectories: [])
        #expect(terminal.outputs.isEmpty && terminal.sources.isEmpty && terminal.terminalCells)
        let made = BrailleOutputs.makeOutputs(.brlapi(host: ":\(BRLTTYProcess.unusedHostNumber())"), auth: "none", profilesDirectories: [])
        defer { made.display?.close() }
        #expect(made.outputs.count == 1 && made.sources.count == 1 && made.terminalCells)
        #expect(made.display?.configuration.quietWhileAbsent == false)
        #expect(made.display?.configuration.auth == "none")
        let auto = BrailleOutputs.makeOutputs(.auto, auth: nil, profilesDirectories: [])
        defer { auto.display?.close() }
        #expect(auto.display?.configuration.quietWhileAbsent == true)
        #expect(auto.display?.configuration.host == nil)
    }
}

/// An emulated Baum display with its BRLTTY; dropping it stops BRLTTY by its PID.
final class OutputRig {
    let emulator: BaumDisplayEmulator
    let brltty: BRLTTYProcess

    init(cells: Int) throws {
        emulator = try BaumDisplayEmulator(cells: cells)
        brltty = try BRLTTYProcess(baum: emulator)
        try brltty.start()
    }

    deinit {
        brltty.stop()
        emulator.stop()
    }

    func output(tables: BrailleTableChoice, cursor: BrailleDisplayOutput.CursorMarking = .none) -> BrailleDisplayOutput {
        BrailleDisplayOutput(.init(host: brltty.host, auth: "none", tables: tables, contracted: false, cursor: cursor))
    }

    /// Pumps until connected.
    func connect(_ output: BrailleDisplayOutput) throws {
        _ = pump(output, timeout: 5) { output.isConnected }
        guard output.isConnected else { throw BrailleTestSupportError("connect", detail: "no display; BRLTTY: \(brltty.logTail(lines: 10))") }
    }

    func pump(_ output: BrailleDisplayOutput, timeout: Double, until condition: () -> Bool) -> [String] {
        Pump().pump(output, timeout: timeout, until: condition)
    }

    /// Shows a line and pumps until it is written.
    @discardableResult
    func show(_ line: BrailleLine, on output: BrailleDisplayOutput) -> [String] {
        output.show(line, language: nil, at: MonotonicClock.now())
        return pump(output, timeout: 1) { !output.hasPendingWrite }
    }

    /// The loop's part, for one source: poll its descriptor until its deadline; statuses out.
    struct Pump {
        func pump(_ output: BrailleDisplayOutput, timeout: Double, until condition: () -> Bool) -> [String] {
            var statuses = [String]()
            let end = MonotonicClock.now() + timeout
            while !condition() {
                let now = MonotonicClock.now()
                if now >= end { break }
                var wait = end - now
                if let due = output.deadline { wait = min(wait, max(0, due - now)) }
                let descriptors = output.descriptor.map { [$0] } ?? []
                let ready = (try? Poll.readable(descriptors, timeout: min(wait, 0.05))) ?? []
                var inputs = [RuntimeInput]()
                if let descriptor = output.descriptor, ready.contains(descriptor) { inputs += output.readable(at: MonotonicClock.now()) }
                if let due = output.deadline, due <= MonotonicClock.now() { inputs += output.deadlineReached(at: MonotonicClock.now()) }
                for input in inputs { if case .status(let text) = input { statuses.append(text) } }
            }
            return statuses
        }
    }

    /// A character's cell in US computer braille (`en-us-comp8.ctb`) for the few used here.
    static func computerBrailleCell(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: " "): 0
        case UInt8(ascii: "a"): 0b1
        case UInt8(ascii: "b"): 0b11
        case UInt8(ascii: "c"): 0b1001
        case UInt8(ascii: "e"): 0b10001
        case UInt8(ascii: "i"): 0b1010
        case UInt8(ascii: "m"): 0b1101
        case UInt8(ascii: "t"): 0b11110
        case UInt8(ascii: "1"): 0b10  // comp8 digits: a-j in the lower dots (1 → dot 2)
        case UInt8(ascii: "9"): 0b10100
        default: 0xFF
        }
    }
}
