import BrailleTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestTier
import Platform

/// `switchscan run --braille brlapi:HOST` against a real BRLTTY driving an emulated Baum display
/// on a pseudo-terminal (`BrailleTestSupport`): the exact dots the display receives, its routing,
/// pan and line keys, and the connection surviving BRLTTY's restarts and a display that answers
/// late. Every BRLTTY is on a private BrlAPI host and stopped by its PID, also when a test fails.
///
/// The dots are liblouis's (`en-ueb-g2.ctb` for the English scenes, `zhcn-cbs.ctb` for zh-CN),
/// looked up once with `Louis.translate` and written here by dot numbers.
@Suite("switchscan run on a braille display", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start BRLTTY"), .serialized,
       .enabled(if: BRLTTYProcess.hasBrailleDriver("bm"), "BRLTTY with its Baum driver is not installed"))
struct BrailleRunTests {
    // MARK: The lines, as liblouis (UEB grade 2) contracts them

    /// `Test 1, Test 2 grp`: capital ⠠, ⠞⠑⠌ ("st" contracted), number sign ⠼ + ⠁, comma ⠂, grp.
    static let testGroup = cells(["6", "2345", "15", "34", "", "3456", "1", "2", "", "6", "2345", "15", "34", "",
                                  "3456", "12", "", "1245", "1235", "1234"])
    /// `Btn 1 btn`.
    static let button1 = cells(["6", "12", "2345", "1345", "", "3456", "1", "", "12", "2345", "1345"])
    /// `Btn 2 btn`.
    static let button2 = cells(["6", "12", "2345", "1345", "", "3456", "12", "", "12", "2345", "1345"])
    /// `Tap 1/2: Btn 1 btn`: the entry, its position (numbers with the number sign, ⠸⠌ for the
    /// slash), then Btn 1's own line.
    static let tapMenu = cells(["6", "2345", "1", "1234", "", "3456", "1", "456", "34", "3456", "12", "25", "",
                                "6", "12", "2345", "1345", "", "3456", "1", "", "12", "2345", "1345"])
    /// `Tap 1/2:`, the start of the menu line on any item of a two-entry menu.
    static let tapMenuPrefix = Array(tapMenu.prefix(12))
    /// `Tap 1/5: A view with custom actions` ("with" ⠾, "st" ⠌, "ion" ⠰⠝).
    static let customActionsTapMenu = cells(["6", "2345", "1", "1234", "", "3456", "1", "456", "34", "3456", "15", "25", "",
                                             "6", "1", "", "1236", "24", "15", "2456", "", "23456", "", "14", "136", "34",
                                             "135", "134", "", "1", "14", "56", "1345", "234"])
    /// `Scanner menu`: "er" contracted (⠻).
    static let scannerMenu = cells(["6", "234", "14", "1", "1345", "1345", "12456", "", "134", "26", "136"])
    /// `Exit menu 1/1`: the screen's menu (no element), its only entry.
    static let exitMenu = cells(["6", "15", "1346", "24", "2345", "", "134", "26", "136", "", "3456", "1", "456", "34", "3456", "1"])
    /// `more 2/5: A view with custom actions`: "more" is the wordsign ⠍.
    static let moreMenu = cells(["134", "", "3456", "12", "456", "34", "3456", "15", "25", "", "6", "1", "", "1236", "24", "15",
                                 "2456", "", "23456", "", "14", "136", "34", "135", "134", "", "1", "14", "56", "1345", "234"])
    /// The announcement `more`: the wordsign alone.
    static let more = cells(["134"])
    /// `A view with custom actions`: "with" ⠾, "st" ⠌, "tion" ⠰⠝ in grade 2.
    static let customActions = cells(["6", "1", "", "1236", "24", "15", "2456", "", "23456", "", "14", "136", "34", "135",
                                      "134", "", "1", "14", "56", "1345", "234"])
    /// `添加 btn` in the Chinese common braille scheme: 添 ⠞⠩ (tone omitted), 加 ⠁⠛⠫, then btn.
    /// `添加 按钮`: the role word in Chinese too (按钮 ⠧⠝⠳⠄), through the same table.
    static let chineseAdd = cells(["2345", "146", "1", "1245", "1246", "", "1236", "1345", "1256", "3"])
    /// `Send the quarterly report to everyone on the team btn` on 20 cells: three windows, cut
    /// at spaces.
    static let longWindows = [
        cells(["6", "234", "26", "145", "", "2346", "", "12345", "136", "345", "2345", "12456", "123", "13456"]),
        cells(["1235", "15", "1234", "135", "1235", "2345", "", "2345", "135", "", "5", "15", "13456", "5", "135", "",
               "135", "1345", "", "2346"]),
        cells(["2345", "2", "134", "", "12", "2345", "1345"]),
    ]
    static let longLabel = "Send the quarterly report to everyone on the team"
    static let longScene = """
        scene: Long label
        size: [390, 844]
        start: main
        screens:
          main:
            elements:
              - {id: long, label: \(longLabel), traits: [button], frame: [20, 100, 350, 44]}
              - {id: short, label: Btn 1, traits: [button], frame: [20, 200, 350, 44]}

        """

    // MARK: Tests

    @Test("The group, Btn 1, the menu and an announcement reach the display as exact dots")
    func exactDots() throws {
        let rig = try DisplayRig(cells: 40)
        let run = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                               "--braille", "brlapi:\(rig.brltty.host)"])
        try rig.expect(Self.testGroup, "the first item, a group", run: run)
        run.type("\r")
        try rig.expect(Self.button1, "Btn 1 after Enter (next)", run: run)
        run.type(" ")
        try rig.expect(Self.tapMenu, "the menu after Space (select)", run: run)
        #expect(run.finish() == 0, "\(run.stderr)")
        let statuses = run.events.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String }
        #expect(statuses.contains { $0.hasPrefix("braille display connected: Baum") && $0.contains("40 cells") }, "\(statuses)")

        let announcing = try ScanRun(["Scenarios/custom-actions.yaml", "--set", "scanning=manual",
                                      "--braille", "brlapi:\(rig.brltty.host)", "--braille-auth", "none"])
        try rig.expect(Self.customActions, "the English label, contracted", run: announcing)
        announcing.type(" ")
        try rig.expect(Self.customActionsTapMenu, "the menu", run: announcing)
        announcing.type("\r")
        try rig.expect(Self.moreMenu, "the custom action 'more' in the menu", run: announcing)
        announcing.type(" ")
        try rig.expect(Self.more, "the announcement 'more'", run: announcing)
        #expect(announcing.events.contains { $0["kind"] as? String == "announcement" && $0["text"] as? String == "more" })
        #expect(announcing.finish() == 0, "\(announcing.stderr)")
    }

    @Test("A routing key over the highlighted item selects it: the menu opens")
    func routingKeySelects() throws {
        let rig = try DisplayRig(cells: 40)
        let run = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                               "--braille", "brlapi:\(rig.brltty.host)"])
        try rig.expect(Self.testGroup, "the first item", run: run)
        run.type("\r")
        try rig.expect(Self.button1, "Btn 1", run: run)
        // Past the line's text: no element under the key, nothing happens.
        try rig.emulator.pressRoutingKey(30)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!run.events.contains { $0["kind"] as? String == "menu" })
        try rig.emulator.pressRoutingKey(2)
        try rig.expect(Self.tapMenu, "the menu opened by the routing key", run: run)
        #expect(run.finish() == 0, "\(run.stderr)")
        let events = run.events
        let inputs = events.filter { $0["kind"] as? String == "input" }.compactMap { $0["switch"] as? String }
        #expect(inputs == ["key:enter", "braille:route"], "\(inputs)")
        let route = try #require(events.firstIndex { $0["switch"] as? String == "braille:route" })
        let menu = try #require(events.firstIndex { $0["kind"] as? String == "menu" })
        #expect(route < menu)
        #expect(events[menu]["entries"] as? [String] == ["Tap", "Exit menu"])
        #expect(events.contains { $0["kind"] as? String == "highlight" && $0["id"] as? String == "btn-1" })
    }

    @Test("brailleCursor: dots 7-8 under the highlighted segment (segment), on its first cell (firstCell), or none (off)")
    func cursorSetting() throws {
        let rig = try DisplayRig(cells: 40)
        let dots78: UInt8 = 0xC0
        let segment = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                                   "--set", "brailleCursor=segment", "--braille", "brlapi:\(rig.brltty.host)"])
        // The group's whole line is its segment: every cell, the blanks too.
        try rig.expect(Self.testGroup.map { $0 | dots78 }, "the group, dots 7-8 under all of it", run: segment)
        segment.type("\r")
        try rig.expect(Self.button1.map { $0 | dots78 }, "Btn 1, dots 7-8 under all of it", run: segment)
        #expect(segment.finish() == 0, "\(segment.stderr)")

        let first = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                                 "--set", "brailleCursor=firstCell", "--braille", "brlapi:\(rig.brltty.host)"])
        var marked = Self.testGroup
        marked[0] |= dots78
        try rig.expect(marked, "the group, BrlAPI's cursor on its first cell", run: first)
        #expect(first.finish() == 0, "\(first.stderr)")

        let off = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                               "--set", "brailleCursor=off", "--braille", "brlapi:\(rig.brltty.host)"])
        try rig.expect(Self.testGroup, "the group, no dots 7-8", run: off)
        off.type("\r")
        try rig.expect(Self.button1, "Btn 1, no dots 7-8", run: off)
        #expect(off.finish() == 0, "\(off.stderr)")

        let bad = try CLI.run(["run", "Scenarios/switch-control-groups.yaml", "--no-view", "--braille", "none",
                               "--set", "brailleCursor=under"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--set brailleCursor=under: expected one of none, firstCell, segment"), "\(bad)")
    }

    @Test("Routing keys on the menu: over the menu button it opens the menu; over an entry it selects that entry")
    func routingOnTheMenu() throws {
        let rig = try DisplayRig(cells: 40)
        // alwaysTap: the menu button ends each cycle; Backspace (previous) from the first entry reaches it.
        let button = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                                  "--set", "tapBehavior=alwaysTap", "--braille", "brlapi:\(rig.brltty.host)"])
        try rig.expect(Self.testGroup, "the first item", run: button)
        button.type("\u{7f}")
        try rig.expect(Self.scannerMenu, "the menu button", run: button)
        try rig.emulator.pressRoutingKey(3)
        try rig.expect(Self.exitMenu, "the menu, opened by the routing key over the button", run: button)
        // Past the entry's text: nothing.
        try rig.emulator.pressRoutingKey(20)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(rig.emulator.cells == padded(Self.exitMenu, to: 40))
        try rig.emulator.pressRoutingKey(0)
        try rig.expect(Self.scannerMenu, "the menu closed by the routing key over Exit menu", run: button)
        #expect(button.finish() == 0, "\(button.stderr)")
        let inputs = button.events.filter { $0["kind"] as? String == "input" }.compactMap { $0["switch"] as? String }
        #expect(inputs == ["key:backspace", "braille:route", "braille:route"], "\(inputs)")
        let menus = button.events.filter { $0["kind"] as? String == "menu" }
        #expect(menus.first?["entries"] as? [String] == ["Exit menu"], "\(menus)")

        // An item's menu: the routing key over "Tap menu" taps Btn 1.
        let entry = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                                 "--braille", "brlapi:\(rig.brltty.host)"])
        try rig.expect(Self.testGroup, "the first item", run: entry)
        entry.type("\r")
        try rig.expect(Self.button1, "Btn 1", run: entry)
        try rig.emulator.pressRoutingKey(0)
        try rig.expect(Self.tapMenu, "Btn 1's menu", run: entry)
        try rig.emulator.pressRoutingKey(5)
        #expect(entry.waitForTrace(timeout: 3) { events in
            events.contains { $0["kind"] as? String == "perform" && $0["id"] as? String == "btn-1" && $0["action"] as? String == "activate" }
        }, "\(entry.events.suffix(8))")
        #expect(entry.finish() == 0, "\(entry.stderr)")
        let entryInputs = entry.events.filter { $0["kind"] as? String == "input" }.compactMap { $0["switch"] as? String }
        #expect(entryInputs == ["key:enter", "braille:route", "braille:route"], "\(entryInputs)")
    }

    /// The Orbit Reader 20 has no routing keys (BRLTTY's bm/orbit.ktb binds none); its profile
    /// is chosen from BrlAPI's driver name and model identifier (the key table, `orbit`).
    @Test("Pan keys move a long line's window on a 20-cell display; the line keys are switches (Orbit Reader 20 profile)")
    func panAndLineKeys() throws {
        let folder = try TemporaryFolder()
        let scene = try folder.write("long.yaml", Self.longScene)
        let rig = try DisplayRig(cells: 20, identity: "Orbit Reader 20")
        let run = try ScanRun([scene, "--set", "scanning=manual", "--braille", "brlapi:\(rig.brltty.host)"])
        try rig.expect(Self.longWindows[0], "the first window", run: run)
        try rig.emulator.pressDisplayKey(5)  // FWINRT
        try rig.expect(Self.longWindows[1], "the second window after pan right", run: run)
        try rig.emulator.pressDisplayKey(5)
        try rig.expect(Self.longWindows[2], "the last window", run: run)
        try rig.emulator.pressDisplayKey(5)  // at the end: stays
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rig.emulator.cells == padded(Self.longWindows[2], to: 20))
        try rig.emulator.pressDisplayKey(2)  // FWINLT
        try rig.expect(Self.longWindows[1], "back one window after pan left", run: run)
        // Display6 is LNDN, bound to next by the profile; Display4 (LNUP) to previous.
        try rig.emulator.pressDisplayKey(6)
        try rig.expect(Self.button1, "Btn 1 after the display's LNDN", run: run)
        try rig.emulator.pressDisplayKey(4)
        try rig.expect(Self.longWindows[0], "the long item after LNUP", run: run)
        #expect(run.finish() == 0, "\(run.stderr)")
        let inputs = run.events.filter { $0["kind"] as? String == "input" }.compactMap { $0["switch"] as? String }
        #expect(inputs == ["braille:LNDN", "braille:LNUP"], "\(inputs)")
        let statuses = run.events.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String }
        #expect(statuses.contains { $0.contains("profile orbit-reader-20") && $0.contains("20 cells") }, "\(statuses)")
    }

    /// A user's `~/.config/switchscan/braille/orbit-reader-20.yaml` replaces the shipped one:
    /// here the rockers (Display2, Display5: FWINLT, FWINRT) move the highlight and Display4 and
    /// Display6 (LNUP, LNDN) pan.
    static let userOrbit = """
        name: Orbit Reader 20, rockers as switches
        brltty:
          driver: bm
          keyTables: [bm/orbit.ktb]
        cells: [20]
        routingKeys: false
        pan:
          left: {command: LNUP, keys: [Display4, Up]}
          right: {command: LNDN, keys: [Display6, Down]}
        switches:
          - {command: FWINLT, keys: [Display2, Left], action: previous}
          - {command: FWINRT, keys: [Display5, Right], action: next}

        """

    @Test("Display profiles from $XDG_CONFIG_HOME/switchscan/braille override the shipped ones; a bad one is reported and the shipped one stays")
    func userProfiles() throws {
        let folder = try TemporaryFolder()
        let scene = try folder.write("long.yaml", Self.longScene)
        let config = folder.url.appendingPathComponent("config").path
        let braille = config + "/switchscan/braille"
        try FileManager.default.createDirectory(atPath: braille, withIntermediateDirectories: true)
        try Self.userOrbit.write(toFile: braille + "/orbit-reader-20.yaml", atomically: true, encoding: .utf8)
        try "name: Broken\nbrltty: {driver: bm}\ncells: [twenty]\n".write(toFile: braille + "/broken.yaml", atomically: true, encoding: .utf8)
        let rig = try DisplayRig(cells: 20, identity: "Orbit Reader 20")

        let run = try ScanRun([scene, "--set", "scanning=manual", "--braille", "brlapi:\(rig.brltty.host)"],
                              environment: ["XDG_CONFIG_HOME": config])
        try rig.expect(Self.longWindows[0], "the first window", run: run)
        try rig.emulator.pressDisplayKey(6)  // LNDN: pans with the user's profile
        try rig.expect(Self.longWindows[1], "the second window after Display6", run: run)
        try rig.emulator.pressDisplayKey(4)  // LNUP: pans back
        try rig.expect(Self.longWindows[0], "the first window after Display4", run: run)
        try rig.emulator.pressDisplayKey(5)  // FWINRT: next
        try rig.expect(Self.button1, "Btn 1 after the right rocker", run: run)
        try rig.emulator.pressDisplayKey(2)  // FWINLT: previous
        try rig.expect(Self.longWindows[0], "the long item after the left rocker", run: run)
        #expect(run.finish() == 0, "\(run.stderr)")
        let inputs = run.events.filter { $0["kind"] as? String == "input" }.compactMap { $0["switch"] as? String }
        #expect(inputs == ["braille:FWINRT", "braille:FWINLT"], "\(inputs)")
        let statuses = run.events.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String }
        #expect(statuses.contains { $0.contains("profile orbit-reader-20") }, "\(statuses)")
        let located = try Regex(#"^braille display profile: .*/switchscan/braille/broken\.yaml:\d+:\d+: error: "#)
        #expect(statuses.contains { $0.contains(located) }, "\(statuses)")

        // The user's Orbit file broken: reported with its place, and the shipped profile used.
        try "name: Orbit\nrouting: yes\n".write(toFile: braille + "/orbit-reader-20.yaml", atomically: true, encoding: .utf8)
        let shipped = try ScanRun([scene, "--set", "scanning=manual", "--braille", "brlapi:\(rig.brltty.host)"],
                                  environment: ["XDG_CONFIG_HOME": config])
        // The display still shows the first run's line: wait for this run's connection.
        #expect(shipped.waitForTrace(timeout: 4) { events in
            events.contains { ($0["text"] as? String)?.contains("(profile orbit-reader-20), 20 cells") == true }
        }, "\(shipped.events)")
        try rig.expect(Self.longWindows[0], "the first window", run: shipped)
        try rig.emulator.pressDisplayKey(5)  // FWINRT pans with the shipped profile
        try rig.expect(Self.longWindows[1], "the second window after Display5", run: shipped)
        try rig.emulator.pressDisplayKey(6)  // LNDN: next
        try rig.expect(Self.button1, "Btn 1 after Display6", run: shipped)
        #expect(shipped.finish() == 0, "\(shipped.stderr)")
        let shippedStatuses = shipped.events.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String }
        let orbitProblem = try Regex(#"^braille display profile: .*/switchscan/braille/orbit-reader-20\.yaml:\d+:\d+: error: "#)
        #expect(shippedStatuses.contains { $0.contains(orbitProblem) }, "\(shippedStatuses)")
        #expect(shippedStatuses.contains { $0.contains("profile orbit-reader-20") }, "\(shippedStatuses)")
    }

    @Test("A display of two rows of 20 (BRLTTY's Virtual driver): the long line fills both rows, pans by both, and a routing key on row 2 selects",
          .enabled(if: BRLTTYProcess.hasBrailleDriver("vr"), "this BRLTTY has no Virtual driver (vr), removed upstream in 6.9"))
    func twoRowDisplay() throws {
        let folder = try TemporaryFolder()
        let scene = try folder.write("long.yaml", Self.longScene)
        let display = try VirtualBrailleDisplay(cells: 20, rows: 2)
        defer { display.stop() }
        let brltty = try BRLTTYProcess(driver: "vr", device: display.device)
        defer { brltty.stop() }
        try brltty.start()
        let run = try ScanRun([scene, "--set", "scanning=manual", "--braille", "brlapi:\(brltty.host)"])
        func expect(_ cells: [UInt8], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let shown = display.waitForCells(timeout: 3) { $0 == cells }
            #expect(shown != nil, "\(what): shown \(display.cells.map(BrailleCells.dotNumbers)); trace \(run.events.suffix(6))",
                    sourceLocation: sourceLocation)
        }
        // The 20-cell windows of the line are now rows: the first two on the display, then the third.
        expect(padded(Self.longWindows[0], to: 20) + padded(Self.longWindows[1], to: 20), "rows 1 and 2")
        #expect(run.waitForTrace(timeout: 2) { events in
            events.contains { ($0["text"] as? String)?.contains("20×2 cells") == true }
        }, "\(run.events)")
        try display.send("FWINRT")
        expect(padded(Self.longWindows[2], to: 40), "the third row's text, after pan right")
        try display.send("FWINLT")
        expect(padded(Self.longWindows[0], to: 20) + padded(Self.longWindows[1], to: 20), "back")
        // Row 2, column 3 ("e" of "report"): the item; the menu opens.
        try display.send("ROUTE 23")
        // The menu line on the long item: "Tap 1/2:" then the item's line, over both rows.
        #expect(display.waitForCells(timeout: 3, where: { Array($0.prefix(12)) == Self.tapMenuPrefix }) != nil,
                "the menu opened by a routing key on row 2: \(display.cells.map(BrailleCells.dotNumbers))")
        #expect(run.finish() == 0, "\(run.stderr)")
        let inputs = run.events.filter { $0["kind"] as? String == "input" }.compactMap { $0["switch"] as? String }
        #expect(inputs == ["braille:route"], "\(inputs)")
    }

    @Test("A routing key on a panned window still routes to the element")
    func routingOnAPannedWindow() throws {
        let folder = try TemporaryFolder()
        let scene = try folder.write("long.yaml", Self.longScene)
        let rig = try DisplayRig(cells: 20)
        let run = try ScanRun([scene, "--set", "scanning=manual", "--braille", "brlapi:\(rig.brltty.host)"])
        try rig.expect(Self.longWindows[0], "the first window", run: run)
        try rig.emulator.pressDisplayKey(5)
        try rig.expect(Self.longWindows[1], "the second window", run: run)
        try rig.emulator.pressRoutingKey(3)
        #expect(rig.emulator.waitForCells(timeout: 3, where: { Array($0.prefix(12)) == Self.tapMenuPrefix }) != nil,
                "the menu opened from the second window: \(rig.emulator.cells.map(BrailleCells.dotNumbers))")
        run.type("\u{1b}")  // escape closes the menu
        try rig.expect(Self.longWindows[0], "the element again, from its first window", run: run)
        #expect(run.finish() == 0, "\(run.stderr)")
        let inputs = run.events.filter { $0["kind"] as? String == "input" }.compactMap { $0["switch"] as? String }
        #expect(inputs == ["braille:route", "key:escape"], "\(inputs)")
    }

    @Test("BRLTTY killed, or stopped, mid-run and started again: the line is back once it answers")
    func brlttyRestart() throws {
        let rig = try DisplayRig(cells: 40)
        let run = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                               "--braille", "brlapi:\(rig.brltty.host)"])
        try rig.expect(Self.testGroup, "the first item", run: run)
        rig.brltty.kill()  // SIGKILL by PID: socket and lock file left behind
        #expect(run.waitForTrace(timeout: 2) { events in
            events.contains { $0["kind"] as? String == "status" && $0["text"] as? String == "braille display: BRLTTY connection lost; reconnecting" }
        }, "no status about the lost connection: \(run.events)")
        run.type("\r")  // the scanner goes on meanwhile
        #expect(run.waitForTrace(timeout: 2) { $0.contains { $0["kind"] as? String == "highlight" && $0["id"] as? String == "btn-1" } })
        #expect(run.isRunning)
        let writes = rig.emulator.cellWriteCount
        let starting = Date()
        try rig.brltty.start()  // returns once BrlAPI answers (BRLTTY's server speaks up to 1 s late)
        let answering = Date()
        // (How soon is a figure, printed; a busy machine makes it longer. The wait only guards a hang.)
        try rig.expect(Self.button1, "the current line after the restart", run: run, timeout: 30)
        print(String(format: "BRLTTY restarted: the line is back %.3f s after it answers (%.3f s after it was started)",
                     Date().timeIntervalSince(answering), Date().timeIntervalSince(starting)))
        #expect(rig.emulator.cellWriteCount > writes)

        // Stopped properly (SIGTERM: the client reads end of file) and started again.
        rig.brltty.stop()
        run.type("\r")
        #expect(run.waitForTrace(timeout: 2) { $0.contains { $0["kind"] as? String == "highlight" && $0["id"] as? String == "btn-2" } })
        try rig.brltty.start()
        try rig.expect(Self.button2, "the current line after a stop and start", run: run, timeout: 3)
        let statuses = run.events.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String }
        #expect(statuses.filter { $0 == "braille display: BRLTTY connection lost; reconnecting" }.count == 2, "\(statuses)")
        #expect(run.finish() == 0, "\(run.stderr)")
        // Without a screen the story is on standard error too (a service's journal): each
        // connection and each loss, once, in order.
        let told = run.stderr.split(separator: "\n").compactMap { line -> String? in
            if line.hasPrefix("switchscan run: braille display connected: ") { return "connected" }
            if line == "switchscan run: braille display: BRLTTY connection lost; reconnecting" { return "lost" }
            return nil
        }
        #expect(told == ["connected", "lost", "connected", "lost", "connected"], "\(run.stderr)")
    }

    @Test("A display not answering at first: no crash, a status; the line appears once it answers")
    func displayAnswersLate() throws {
        let rig = try DisplayRig(cells: 40, answering: false)
        let run = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                               "--braille", "brlapi:\(rig.brltty.host)"])
        #expect(run.waitForTrace(timeout: 3) { events in
            events.contains { ($0["text"] as? String)?.contains("reports 0 cells; waiting for it") == true }
        }, "\(run.events)")
        run.type("\r")
        #expect(run.waitForTrace(timeout: 2) { $0.contains { $0["kind"] as? String == "highlight" && $0["id"] as? String == "btn-1" } })
        #expect(run.isRunning)
        rig.emulator.startAnswering()
        // BRLTTY probes again about every 5 s after a failed start.
        try rig.expect(Self.button1, "the line once the display answers", run: run, timeout: 9)
        #expect(run.finish() == 0, "\(run.stderr)")
    }

    @Test("No BRLTTY at first: the run goes on, says so, and shows the line once BRLTTY starts")
    func brlttyStartsLate() throws {
        let rig = try DisplayRig(cells: 40, started: false)
        let run = try ScanRun(["Scenarios/switch-control-groups.yaml", "--set", "scanning=manual",
                               "--braille", "brlapi:\(rig.brltty.host)"])
        #expect(run.waitForTrace(timeout: 2) { events in
            events.contains { ($0["text"] as? String)?.hasPrefix("braille display: no BRLTTY at \(rig.brltty.host)") == true }
        }, "\(run.events)")
        #expect(run.isRunning)
        let starting = Date()
        try rig.brltty.start()
        try rig.expect(Self.testGroup, "the line once BRLTTY answers", run: run, timeout: 4)
        print(String(format: "BRLTTY started late: the line is on the display %.3f s after it was started",
                     Date().timeIntervalSince(starting)))
        #expect(run.finish() == 0, "\(run.stderr)")
    }

    @Test("The Chinese scene gives Chinese braille cells (zhcn-cbs) on the display")
    func chineseCells() throws {
        let rig = try DisplayRig(cells: 40)
        let run = try ScanRun(["Scenarios/chinese-labels.yaml", "--set", "scanning=manual", "--set", "groupItems=false",
                               "--braille", "brlapi:\(rig.brltty.host)"])
        try rig.expect(Self.chineseAdd, "添加 按钮", run: run)
        #expect(run.finish() == 0, "\(run.stderr)")
    }

    @Test("--braille none and a bad --braille value")
    func brailleOptionValues() throws {
        let bad = try CLI.run(["run", "Scenarios/switch-control-groups.yaml", "--no-view", "--braille", "brl"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--braille brl: expected auto, brlapi[:HOST], terminal or none"), "\(bad)")
        let none = try CLI.run(["run", "Scenarios/switch-control-groups.yaml", "--no-view", "--braille", "none"])
        #expect(none.status == 0, "\(none)")
    }
}

// MARK: - Helpers

/// Cells from dot numbers, one string per cell ("" blank).
private func cells(_ dots: [String]) -> [UInt8] {
    dots.map { $0.reduce(UInt8(0)) { $0 | UInt8(1 << ($1.wholeNumberValue! - 1)) } }
}

private func padded(_ cells: [UInt8], to count: Int) -> [UInt8] {
    cells + [UInt8](repeating: 0, count: max(0, count - cells.count))
}

/// An emulated Baum display and its BRLTTY on a private host; dropping it stops BRLTTY by its PID.
final class DisplayRig {
    let emulator: BaumDisplayEmulator
    let brltty: BRLTTYProcess

    init(cells: Int, identity: String? = nil, answering: Bool = true, started: Bool = true, brlttyArguments: [String] = []) throws {
        ProcessSignal.ignore(SIGPIPE)  // writes to a switchscan that has exited fail instead
        emulator = try BaumDisplayEmulator(cells: cells, identity: identity, answering: answering)
        brltty = try BRLTTYProcess(baum: emulator, extraArguments: brlttyArguments)
        if started { try brltty.start() }
    }

    deinit {
        brltty.stop()
        emulator.stop()
    }

    /// Waits until the display shows exactly `expected` (then blank cells); `timeout` is raised to
    /// `ScanRun.hangGuard` (see there).
    func expect(_ expected: some Collection<UInt8>, _ what: String, run: ScanRun, timeout: Double = 3,
                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = Array(expected)
        guard emulator.waitForCells(expected, timeout: max(timeout, ScanRun.hangGuard)) else {
            let shown = emulator.cells
            Issue.record("""
                \(what): expected \(BrailleCells.text(expected)) (\(expected.map(BrailleCells.dotNumbers))), \
                shown \(BrailleCells.text(shown)) (\(shown.map(BrailleCells.dotNumbers)))
                trace: \(run.events.suffix(8))
                switchscan stderr: \(run.stderr)
                BRLTTY: \(brltty.logTail(lines: 15))
                """, sourceLocation: sourceLocation)
            throw CLIError("\(what): not shown")
        }
    }
}

/// `switchscan run … --no-view --trace FILE` with keystrokes on a pipe; terminated by its PID if
/// still running when dropped.
final class ScanRun {
    let process = Process()
    let input = Pipe()
    let folder: TemporaryFolder
    let tracePath: String
    let stderrPath: String

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        folder = try TemporaryFolder()
        tracePath = folder.url.appendingPathComponent("trace.jsonl").path
        stderrPath = folder.url.appendingPathComponent("stderr").path
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = try CLI.binary()
        process.arguments = ["run"] + arguments + ["--no-view", "--trace", tracePath]
        process.currentDirectoryURL = CLI.packageRoot
        // A configuration folder of its own: the user's settings.yaml must not change the run.
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path]) { $1 }.merging(environment) { $1 }
        // Close-on-exec: a BRLTTY started later must not hold the pipe open (the run ends when
        // this end closes).
        for descriptor in [input.fileHandleForWriting.fileDescriptor, input.fileHandleForReading.fileDescriptor] {
            try FileIO.setCloseOnExec(FileDescriptor(rawValue: descriptor))
        }
        process.standardInput = input
        process.standardOutput = try folder.outputFile("stdout")
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    var isRunning: Bool { process.isRunning }

    func type(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// The least time a wait for what the run does is given. The timeouts the tests pass are what
    /// a quiet machine needs; with both cores busy a run's first line took longer than 3 s. These
    /// waits end as soon as their condition holds, and only guard against a run that never gets
    /// there: none of them may fail a test for being slow.
    static let hangGuard = 30.0

    /// Closes standard input (which ends the run) and waits for the exit status (`timeout` raised
    /// to `hangGuard`).
    func finish(timeout: Double = 5) -> Int32? {
        try? input.fileHandleForWriting.close()
        let deadline = Date(timeIntervalSinceNow: max(timeout, Self.hangGuard))
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    var events: [[String: Any]] { (try? RunCommandTests.traceEvents(tracePath)) ?? [] }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits until the trace satisfies `condition` (`timeout` raised to `hangGuard`).
    func waitForTrace(timeout: Double, _ condition: ([[String: Any]]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(timeout, Self.hangGuard))
        repeat {
            if condition(events) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return condition(events)
    }
}
