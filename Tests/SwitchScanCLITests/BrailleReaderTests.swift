import BrailleTestSupport
import Foundation
import Testing
import TestTier

/// Issue 12 at a real BRLTTY with an emulated Baum display: the highlight is what the display
/// shows. A message on the display holds auto scanning; the next step counts from the moment
/// the highlight's own line reached the display (BrlAPI writes, `brailleWritten` in the trace);
/// a press while a message is up only takes it off.
@Suite("A braille reader's scanning: nothing acts unseen", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start BRLTTY"), .serialized,
       .enabled(if: BRLTTYProcess.executablePath != nil, "brltty is not installed (scripts/setup installs it)"))
struct BrailleReaderTests {
    /// `Score 13`, the bowler game's summary, flashed when the app opens.
    static let score = cells(["6", "234", "14", "135", "1235", "15", "", "3456", "1", "14"])
    /// `Frame 1, 9, 8 pins, then 1 pin`, the first item.
    static let frame1 = cells(["6", "124", "1235", "1", "134", "15", "", "3456", "1", "2", "", "3456", "24", "2", "", "3456",
                               "125", "", "1234", "35", "234", "2", "", "2346", "1345", "", "3456", "1", "", "1234", "35"])

    /// `Increment 2/4: 4 stars sldr`: the new value with the menu still open.
    static let incrementedTo4 = cells(["6", "35", "14", "1235", "15", "56", "2345", "", "3456", "12", "456", "34", "3456", "145",
                                       "25", "", "3456", "145", "", "34", "345", "234", "", "234", "123", "145", "1235"])
    /// `scanning stopped` (UEB grade 2: "ing" ⠬, "st" ⠌, "ed" ⠫).
    static let scanningStopped = cells(["234", "14", "1", "1345", "1345", "346", "", "34", "135", "1234", "1234", "1246"])
    /// `A view with custom actions`, uncontracted (UEB grade 1): every letter spelled.
    static let uncontractedLabel = cells(["6", "1", "", "1236", "24", "15", "2456", "", "2456", "24", "2345", "125", "", "14", "136",
                                          "234", "2345", "135", "134", "", "1", "14", "2345", "24", "135", "1345", "234"])
    /// `btn Btn 1`: the role first (brailleRoleFirst).
    static let roleFirstButton1 = cells(["12", "2345", "1345", "", "6", "12", "2345", "1345", "", "3456", "1"])

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
        // The message's time counts from when the loop showed it (its `braille` line), which its
        // write's return follows by however long a busy machine makes the write.
        let scoreShown = try #require(events.first { $0["kind"] as? String == "braille" && ($0["text"] as? String ?? "").hasPrefix("Score 13") }
            .flatMap { ($0["time"] as? NSNumber)?.doubleValue }, "\(events)")
        #expect(scoreShown <= scoreWritten)
        #expect(frame1Written - scoreShown >= 1.2 - 0.05, "the message stayed up its time: \(scoreShown) → \(frame1Written)")
        let highlights = events.filter { $0["kind"] as? String == "highlight" }
        let frame2Highlighted = try #require(highlights.first { $0["id"] as? String == "frame-2" }.flatMap { ($0["time"] as? NSNumber)?.doubleValue })
        let before = highlights.filter { (($0["time"] as? NSNumber)?.doubleValue ?? 0) < frame2Highlighted }
        #expect(before.compactMap { $0["id"] as? String } == ["frame-1"], "\(highlights)")
        // The step counts from frame 1's line on the display (its `braille` line once the message
        // is gone: its write returns later on a busy machine), not from the highlight under the message.
        let frame1Shown = try #require(events.last { event in
            event["kind"] as? String == "braille" && (event["text"] as? String ?? "").hasPrefix("Frame 1,")
                && ((event["time"] as? NSNumber)?.doubleValue ?? .infinity) < frame2Highlighted
        }.flatMap { ($0["time"] as? NSNumber)?.doubleValue }, "\(events)")
        #expect(frame1Shown - scoreShown >= 1.2 - 0.05, "frame 1's line came \(frame1Shown - scoreShown) s after the message")
        #expect(frame2Highlighted - frame1Shown >= 0.4 - 0.02, "frame 1 was on the display \(frame2Highlighted - frame1Shown) s")
        #expect(frame2Written >= frame2Highlighted)
    }

    @Test("auto scanning holds while the reader pans away from the line's first window")
    func panningHoldsAutoScanning() throws {
        let folder = try TemporaryFolder()
        let scene = try folder.write("long.yaml", BrailleRunTests.longScene)
        let rig = try DisplayRig(cells: 20)
        let run = try ScanRun([scene, "--set", "scanning=auto", "--set", "autoScanningTime=0.6", "--set", "groupItems=false",
                               "--braille", "brlapi:\(rig.brltty.host)", "--settings", "none"])
        try rig.expect(BrailleRunTests.longWindows[0], "the long item's first window", run: run)
        try rig.emulator.pressDisplayKey(5)  // pan right: the rest of the line
        try rig.expect(BrailleRunTests.longWindows[1], "the second window", run: run)
        // The pan reached the session, which holds scanning (that no step comes while the reader
        // is away, for however long, is the engine's decision, tested on a manual clock in
        // ScanningEngineTests): no fixed wait for steps that do not come.
        #expect(run.waitForTrace(timeout: 10) { events in
            events.contains { ($0["text"] as? String)?.contains("panned away from the line's first window: scanning holds") == true }
        }, "the hold is said: \(run.events.suffix(8))")
        #expect(rig.emulator.cells == padded(BrailleRunTests.longWindows[1], to: 20), "still the second window")
        try rig.emulator.pressDisplayKey(2)  // pan left: back to the first window
        try rig.expect(BrailleRunTests.longWindows[0], "the first window again", run: run)
        #expect(run.waitForTrace(timeout: 3) { events in
            events.contains { $0["kind"] as? String == "highlight" && $0["id"] as? String == "short" }
        }, "scanning goes on once the reader is back: \(run.events.suffix(8))")
        #expect(run.finish() == 0, "\(run.stderr)")
        let events = run.events
        let statuses = events.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String }
        #expect(statuses.contains { $0.contains("panned away from the line's first window: scanning holds") }, "\(statuses)")
        let highlights = events.filter { $0["kind"] as? String == "highlight" }.compactMap { $0["id"] as? String }
        #expect(highlights.prefix(2) == ["long", "short"], "\(highlights)")
    }

    @Test("feedback at the display: the new value after Increment with the menu open; scanning stopped after the loops")
    func feedbackAtTheDisplay() throws {
        let rig = try DisplayRig(cells: 40)
        let run = try ScanRun(["Scenarios/star-rating.yaml", "--set", "scanning=manual",
                               "--braille", "brlapi:\(rig.brltty.host)", "--settings", "none"])
        run.type(" ")  // select: the menu on the rating
        run.type("\r")  // next: Increment
        run.type(" ")  // select: Increment, the menu stays open
        try rig.expect(Self.incrementedTo4, "the new value, the menu still open on Increment", run: run)
        #expect(run.finish() == 0, "\(run.stderr)")

        let stopping = try ScanRun(["Scenarios/star-rating.yaml", "--set", "scanning=auto", "--set", "autoScanningTime=0.2",
                                    "--set", "loops=1", "--braille", "brlapi:\(rig.brltty.host)", "--settings", "none"])
        try rig.expect(Self.scanningStopped, "scanning stopped, said on the display", run: stopping, timeout: 4)
        #expect(stopping.finish() == 0, "\(stopping.stderr)")
    }

    @Test("the reader's braille: uncontracted (brailleCode) and the role first (brailleRoleFirst) reach the display")
    func readersBraille() throws {
        let rig = try DisplayRig(cells: 40)
        let uncontracted = try ScanRun(["Scenarios/custom-actions.yaml", "--set", "scanning=manual", "--set", "brailleCode=uncontracted",
                                        "--braille", "brlapi:\(rig.brltty.host)", "--settings", "none"])
        try rig.expect(Self.uncontractedLabel, "grade 1: with and st spelled out", run: uncontracted)
        #expect(uncontracted.finish() == 0, "\(uncontracted.stderr)")
        // The same table named for English alone (brailleTables), contracted code otherwise.
        let ownTable = try ScanRun(["Scenarios/custom-actions.yaml", "--set", "scanning=manual", "--set", "brailleTables=en=en-ueb-g1.ctb",
                                    "--braille", "brlapi:\(rig.brltty.host)", "--settings", "none"])
        try rig.expect(Self.uncontractedLabel, "the reader's own table for English", run: ownTable)
        #expect(ownTable.finish() == 0, "\(ownTable.stderr)")

        let small = try DisplayRig(cells: 14)
        let roleFirst = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual", "--set", "brailleRoleFirst=true",
                                     "--braille", "brlapi:\(small.brltty.host)", "--settings", "none"])
        roleFirst.type("\r")
        try small.expect(Self.roleFirstButton1, "btn first on a 14-cell display", run: roleFirst)
        #expect(roleFirst.finish() == 0, "\(roleFirst.stderr)")
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
