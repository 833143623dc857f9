import BrailleTestSupport
import Foundation
import Testing

/// Issue 12 at a real BRLTTY with an emulated Baum display: the highlight is what the display
/// shows. A message on the display holds auto scanning; the next step counts from the moment
/// the highlight's own line reached the display (BrlAPI writes, `brailleWritten` in the trace);
/// a press while a message is up only takes it off.
@Suite("A braille reader's scanning: nothing acts unseen", .serialized,
       .enabled(if: BRLTTYProcess.executablePath != nil, "brltty is not installed (scripts/setup installs it)"))
struct BrailleReaderTests {
    /// `Score 13`, the bowler game's summary, flashed when the screen appears.
    static let score = cells(["6", "234", "14", "135", "1235", "15", "", "3456", "1", "14"])
    /// `Frame 1, 9, 8 pins, then 1 pin`, the first item.
    static let frame1 = cells(["6", "124", "1235", "1", "134", "15", "", "3456", "1", "2", "", "3456", "24", "2", "", "3456",
                               "125", "", "1234", "35", "234", "2", "", "2346", "1345", "", "3456", "1", "", "1234", "35"])

    /// The starts of the lines as the display got them (the trace's `brailleWritten` text is the
    /// window written, in Unicode braille): `Score 13`, `Frame 1,`, `Frame 2,`.
    static let scoreText = "⠠⠎⠉⠕⠗⠑⠀⠼⠁⠉", frame1Text = "⠠⠋⠗⠁⠍⠑⠀⠼⠁⠂", frame2Text = "⠠⠋⠗⠁⠍⠑⠀⠼⠃⠂"

    /// The times (since start) at which BrlAPI writes of windows starting with `prefix` returned.
    static func writes(_ events: [[String: Any]], startingWith prefix: String) -> [Double] {
        events.filter { $0["kind"] as? String == "brailleWritten" && ($0["text"] as? String ?? "").hasPrefix(prefix) }
            .compactMap { ($0["time"] as? NSNumber)?.doubleValue }
    }

    @Test("auto scanning holds under a message and steps from the moment the item's line is on the display")
    func autoScanningHoldsUnderAMessage() throws {
        let rig = try DisplayRig(cells: 40)
        let run = try ScanRun(["Scenarios/bowler.yaml", "--set", "scanning=auto", "--set", "autoScanningTime=0.4",
                               "--set", "flashDuration=1.2", "--set", "groupItems=false",
                               "--braille", "brlapi:\(rig.brltty.host)", "--settings", "none"])
        try rig.expect(Self.score, "Score 13 first", run: run)
        try rig.expect(Array(Self.frame1.prefix(40)), "frame 1's line once the message is gone", run: run)
        #expect(run.waitForTrace(timeout: 5) { !Self.writes($0, startingWith: Self.frame2Text).isEmpty }, "\(run.events.suffix(10))")
        #expect(run.finish() == 0, "\(run.stderr)")
        let events = run.events
        // While "Score 13" was up, nothing but frame 1 was highlighted.
        let scoreWritten = try #require(Self.writes(events, startingWith: Self.scoreText).first)
        let frame1Written = try #require(Self.writes(events, startingWith: Self.frame1Text).first)
        let frame2Written = try #require(Self.writes(events, startingWith: Self.frame2Text).first)
        #expect(frame1Written - scoreWritten >= 1.2 - 0.05, "the message stayed up its time: \(scoreWritten) → \(frame1Written)")
        let highlights = events.filter { $0["kind"] as? String == "highlight" }
        let frame2Highlighted = try #require(highlights.first { $0["id"] as? String == "frame-2" }.flatMap { ($0["time"] as? NSNumber)?.doubleValue })
        let before = highlights.filter { (($0["time"] as? NSNumber)?.doubleValue ?? 0) < frame2Highlighted }
        #expect(before.compactMap { $0["id"] as? String } == ["frame-1"], "\(highlights)")
        // The step counts from frame 1's line on the display, not from the highlight under the message.
        #expect(frame2Highlighted - frame1Written >= 0.4 - 0.02, "frame 1 was on the display \(frame2Highlighted - frame1Written) s")
        #expect(frame2Written >= frame2Highlighted)
    }

    @Test("a press while a message is on the display takes it off and does nothing else")
    func aPressOnlyDismissesTheMessage() throws {
        let rig = try DisplayRig(cells: 40)
        let run = try ScanRun(["Scenarios/bowler.yaml", "--set", "scanning=manual", "--set", "groupItems=false",
                               "--braille", "brlapi:\(rig.brltty.host)", "--settings", "none"])
        try rig.expect(Self.score, "Score 13 first", run: run)
        run.type(" ")  // select, while the message is up
        try rig.expect(Array(Self.frame1.prefix(40)), "frame 1's line, the message gone", run: run)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(rig.emulator.cells == padded(Array(Self.frame1.prefix(40)), to: 40), "nothing else happened")
        #expect(run.finish() == 0, "\(run.stderr)")
        let events = run.events
        #expect(!events.contains { $0["kind"] as? String == "menu" }, "no menu opened: \(events)")
        #expect(!events.contains { $0["kind"] as? String == "perform" }, "nothing performed: \(events)")
        #expect(events.contains { $0["kind"] as? String == "ignored" && ($0["reason"] as? String ?? "").contains("took the message off") },
                "the trace says why: \(events)")
    }
}

private func cells(_ dots: [String]) -> [UInt8] {
    dots.map { $0.reduce(UInt8(0)) { $0 | UInt8(1 << ($1.wholeNumberValue! - 1)) } }
}

private func padded(_ cells: [UInt8], to count: Int) -> [UInt8] {
    cells + Array(repeating: 0, count: max(0, count - cells.count))
}
