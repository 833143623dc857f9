import BrailleTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestTier
import Platform

/// The trace's `brailleWritten` lines: when each BrlAPI write returned, on CLOCK_MONOTONIC (the
/// clock of evdev and raw stream timestamps, so a switch edge can be matched with the write that
/// showed its effect), and what was written, against a real BRLTTY on the emulated Baum display.
@Suite("switchscan run: when braille writes returned", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start BRLTTY"), .serialized,
       .enabled(if: BRLTTYProcess.hasBrailleDriver("bm"), "BRLTTY with its Baum driver is not installed"))
struct BrailleWriteTimingTests {
    static func monotonic() -> Double {
        MonotonicClock.now()
    }

    static func writes(_ events: [[String: Any]]) -> [[String: Any]] {
        events.filter { $0["kind"] as? String == "brailleWritten" }
    }

    @Test("Each write's return is in the trace on CLOCK_MONOTONIC, after the line it shows, with the cells the display got")
    func brailleWrittenLines() throws {
        let rig = try DisplayRig(cells: 40)
        let before = Self.monotonic()
        let run = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                               "--braille", "brlapi:\(rig.brltty.host)", "--braille-auth", "none"])
        #expect(run.waitForTrace(timeout: 5) { Self.writes($0).count == 1 }, "no first write: \(run.events) \(run.stderr)")
        run.type("\r")  // next: a new line, a second write
        #expect(run.waitForTrace(timeout: 3) { Self.writes($0).count == 2 }, "no second write: \(run.events)")
        let last = try #require(Self.writes(run.events).last)
        let text = try #require(last["text"] as? String)
        let shown = try #require(BrailleCells.cells(text), "not braille patterns: \(text)")
        #expect(rig.emulator.waitForCells(shown + [UInt8](repeating: 0, count: 40 - shown.count), timeout: 2),
                "the display shows \(rig.emulator.text), the trace says \(text)")
        #expect(run.finish() == 0, "\(run.stderr)")
        let after = Self.monotonic()

        let events = run.events
        let writes = Self.writes(events)
        try #require(writes.count == 2, "\(events)")
        var origins = [Double]()
        for write in writes {
            let monotonic = try #require(write["monotonic"] as? Double)
            let time = try #require(write["time"] as? Double)
            let call = try #require(write["call"] as? Double)
            #expect(monotonic > before && monotonic < after, "\(write) outside the run (\(before)…\(after))")
            #expect(call >= 0 && call < after - before, "\(write)")
            origins.append(monotonic - time)
        }
        // `time` counts from the run's start, `monotonic` from the clock's: one offset for both lines.
        #expect(abs(origins[0] - origins[1]) < 0.000_01, "\(origins)")
        // The trace stays in time order, and each write follows the braille line it shows.
        let times = events.compactMap { $0["time"] as? Double }
        #expect(times == times.sorted(), "\(events)")
        let secondWrite = try #require(events.lastIndex { $0["kind"] as? String == "brailleWritten" })
        let secondLine = try #require(events.lastIndex { $0["kind"] as? String == "braille" })
        #expect(secondLine < secondWrite, "\(events)")
        #expect(events[secondLine]["text"] as? String == "Btn 1 btn", "\(events)")
    }
}
