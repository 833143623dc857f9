import AccessibilityModel
import Foundation
@testable import Presentation
import Scanning
import Scenes
import SwitchInput
import Testing

@Suite("Terminal keys")
struct TerminalKeysTests {
    @Test func decodesTheDocumentedKeys() {
        #expect(TerminalKeys.decode([0x20, 0x0D, 0x7F, 0x6D, 0x74, 0x73, 0x71]) ==
                [.space, .enter, .backspace, .character("m"), .character("t"), .character("s"), .character("q")])
    }

    @Test func arrowsAreSequencesAndALoneEscapeIsEscape() {
        #expect(TerminalKeys.decode(Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8)) == [.up, .down, .right, .left])
        #expect(TerminalKeys.decode(Array("\u{1B}OC".utf8)) == [.right])
        #expect(TerminalKeys.decode([0x1B]) == [.escape])
    }

    @Test func keysMapToSwitchesBoundToTheirActions() {
        #expect(TerminalKeys.switchID(for: .space).flatMap { TerminalKeys.bindings[$0]?.action } == .select)
        #expect(TerminalKeys.switchID(for: .enter).flatMap { TerminalKeys.bindings[$0]?.action } == .next)
        #expect(TerminalKeys.switchID(for: .backspace).flatMap { TerminalKeys.bindings[$0]?.action } == .previous)
        #expect(TerminalKeys.switchID(for: .character("M")).flatMap { TerminalKeys.bindings[$0]?.action } == .menu)
        #expect(TerminalKeys.switchID(for: .escape).flatMap { TerminalKeys.bindings[$0]?.action } == .escape)
        #expect(TerminalKeys.switchID(for: .character("x")) == nil)
        #expect(TerminalKeys.isQuit(.character("q")))
        #expect(TerminalKeys.isQuit(.interrupt))
    }
}

@Suite("Terminal frame")
struct TerminalFrameTests {
    func snapshot(highlighted: Set<ElementID> = ["b"], menu: (entries: [String], focus: Int)? = nil) -> TerminalFrame.Snapshot {
        TerminalFrame.Snapshot(
            title: "Demo", screen: "main", sceneSize: (400, 400),
            items: [
                Element(id: "a", label: "Alpha", frame: Rect(x: 0, y: 0, width: 200, height: 40)),
                Element(id: "b", label: "Bravo", frame: Rect(x: 200, y: 200, width: 200, height: 40)),
            ],
            highlighted: highlighted, highlightNote: nil, menu: menu, brailleText: "Bravo btn",
            brailleCells: "⠃⠗⠁⠧⠕", scanning: true, status: nil)
    }

    @Test func drawsItemsAtTheirScaledPlaceWithTheBrailleLineAndKeys() {
        let frame = TerminalFrame(snapshot(), columns: 40, rows: 20, keys: ["keys"])
        let lines = frame.plainLines
        #expect(lines.count == 20)
        #expect(lines[0] == "Demo — screen main — scanning")
        #expect(lines.contains { $0.hasPrefix("[Alpha]") })
        // 20 rows: title, 13 layout rows, rule, note, cells, text, status, keys. Bravo: x 200 of
        // 400 → column 20; mid y 220 of 400 → layout row 7 of 13.
        #expect(lines[1 + 7].dropFirst(20).hasPrefix("[Bravo]"))
        #expect(lines[14].allSatisfy { $0 == "─" })
        #expect(lines[16] == "braille: ⠃⠗⠁⠧⠕")
        #expect(lines[17] == "   text: Bravo btn")
        #expect(lines[19] == "keys")
    }

    @Test func theHighlightIsReverseVideo() {
        let ansi = TerminalFrame(snapshot(), columns: 40, rows: 20, keys: []).ansi
        #expect(ansi.contains("\u{1B}[7m[Bravo]"))
        #expect(!ansi.contains("\u{1B}[7m[Alpha]"))
    }

    @Test func theMenuIsDrawnWithItsFocus() {
        let frame = TerminalFrame(snapshot(menu: (["Tap", "Exit menu"], 1)), columns: 40, rows: 20, keys: [])
        #expect(frame.plainLines.contains { $0.contains("│ Tap") })
        #expect(frame.ansi.contains("\u{1B}[7m Exit menu"))
    }

    @Test func wideCharactersTakeTwoColumns() {
        var chinese = snapshot()
        chinese.items = [Element(id: "a", label: "播放", frame: Rect(x: 0, y: 0, width: 400, height: 40))]
        let frame = TerminalFrame(chinese, columns: 40, rows: 20, keys: [])
        #expect(frame.plainLines.contains { $0.hasPrefix("[播放]") })
    }

    // MARK: Sizes

    /// The seed scene's start screen (switch-control-groups.yaml, screen main), its frames as
    /// written there: a tall phone screen with a row of two and a column of four.
    func phoneScreen(status: String? = nil, highlighted: Set<ElementID> = ["test-1", "test-2"]) -> TerminalFrame.Snapshot {
        let frames: [(String, String, Rect)] = [
            ("test-1", "Test 1", Rect(x: 20, y: 100, width: 170, height: 44)),
            ("test-2", "Test 2", Rect(x: 200, y: 100, width: 170, height: 44)),
            ("btn-1", "Btn 1", Rect(x: 20, y: 180, width: 350, height: 44)),
            ("btn-2", "Btn 2", Rect(x: 20, y: 232, width: 350, height: 44)),
            ("btn-5", "Btn 5", Rect(x: 20, y: 388, width: 350, height: 44)),
            ("btn-6", "Btn 6", Rect(x: 20, y: 440, width: 350, height: 44)),
        ]
        return TerminalFrame.Snapshot(
            title: "Switch Control groups", screen: "main", sceneSize: (390, 844),
            items: frames.map { Element(id: $0.0, label: $0.1, frame: $0.2) },
            highlighted: highlighted, highlightNote: "group: select enters it", menu: nil,
            brailleText: "Test 1, Test 2 grp", brailleCells: "⠠⠞⠑⠌⠀⠼⠁", scanning: true, status: status)
    }

    static let sizes = [(40, 10), (60, 15), (80, 24), (120, 40)]

    /// What must hold at every size: as many lines as rows, none wider than the terminal, the
    /// quit key on the last line, the title's state.
    func expectFits(_ frame: TerminalFrame, _ size: (Int, Int), sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let lines = frame.plainLines
        #expect(lines.count == size.1, "\(size)", sourceLocation: sourceLocation)
        for line in lines { #expect(line.count <= size.0, "\(size): \(line)", sourceLocation: sourceLocation) }
        #expect(lines.last?.hasSuffix("q quit") == true, "\(size): \(lines)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasSuffix("— scanning") == true, "\(size): \(lines)", sourceLocation: sourceLocation)
    }

    @Test(arguments: sizes)
    func everyItemIsShownWholeOnceAndTheQuitKeyAlwaysAtEverySize(columns: Int, rows: Int) {
        let frame = TerminalFrame(phoneScreen(), columns: columns, rows: rows, keys: TerminalKeys.helpItems)
        expectFits(frame, (columns, rows))
        let text = frame.plainLines.joined(separator: "\n")
        for label in ["Test 1", "Test 2", "Btn 1", "Btn 2", "Btn 5", "Btn 6"] {
            #expect(text.components(separatedBy: "[\(label)]").count == 2, "[\(label)] once at \(columns)×\(rows):\n\(text)")
        }
        #expect(text.contains("group: select enters it"), "\(columns)×\(rows)")
        #expect(text.contains("   text: Test 1, Test 2 grp"), "\(columns)×\(rows)")
        // Highlighted: both items of the group, each in reverse video.
        #expect(frame.ansi.contains("\u{1B}[7m[Test 1]") && frame.ansi.contains("\u{1B}[7m[Test 2]"))
    }

    @Test func whereRoomAllowsTheLayoutKeepsTheScenesShape() {
        // 80×24: Test 1 and Test 2 side by side, the buttons under Test 1 in their order, with
        // the gap between Btn 2 and Btn 5 kept.
        let lines = TerminalFrame(phoneScreen(), columns: 80, rows: 24, keys: TerminalKeys.helpItems).plainLines
        func place(_ label: String) -> (row: Int, column: Int)? {
            for (row, line) in lines.enumerated() {
                if let range = line.range(of: "[\(label)]") { return (row, line.distance(from: line.startIndex, to: range.lowerBound)) }
            }
            return nil
        }
        let places = ["Test 1", "Test 2", "Btn 1", "Btn 2", "Btn 5", "Btn 6"].compactMap(place)
        #expect(places.count == 6)
        guard places.count == 6 else { return }
        #expect(places[0].row == places[1].row && places[0].column < places[1].column)
        #expect(places[2...].allSatisfy { $0.column == places[0].column })
        #expect(places[0].row < places[2].row && places[2].row < places[3].row && places[3].row < places[4].row)
        #expect(places[4].row - places[3].row > 1, "the gap between Btn 2 and Btn 5")
    }

    @Test func aStatusIsWrappedWholeAtEverySizeAndTheKeysStay() {
        let status = "settings: /home/someone/.config/switchscan/settings.yaml:2:8: error: setting 'loops' "
            + "expects a whole number from 1 to 100; found 0; the previous settings stay"
        for (columns, rows) in Self.sizes where rows >= 15 {
            let frame = TerminalFrame(phoneScreen(status: status), columns: columns, rows: rows, keys: TerminalKeys.helpItems)
            expectFits(frame, (columns, rows))
            #expect(frame.statusPageCount == 1)
            let lines = frame.plainLines
            // The status's lines are those just above the keys, and read as the whole message.
            let keysStart = lines.lastIndex { $0.hasPrefix("Space select") } ?? lines.count
            let statusLines = lines[..<keysStart].reversed().prefix { !$0.hasPrefix("   text:") }.reversed()
            #expect(statusLines.joined(separator: " ") == status, "\(columns)×\(rows): \(lines)")
            #expect(statusLines.count > 1 || columns > status.count)
        }
    }

    @Test func aStatusTooLongForItsRowsIsShownAPageAtATimeWithNothingLeftOut() {
        let status = (1...40).map { "word\($0)" }.joined(separator: " ")
        let first = TerminalFrame(phoneScreen(status: status), columns: 40, rows: 10, keys: TerminalKeys.helpItems)
        expectFits(first, (40, 10))
        let pages = first.statusPageCount
        #expect(pages > 1)
        var words = [String]()
        for page in 0..<pages {
            let frame = TerminalFrame(phoneScreen(status: status), columns: 40, rows: 10, keys: TerminalKeys.helpItems, statusPage: page)
            expectFits(frame, (40, 10))
            let text = frame.plainLines.joined(separator: " ")
            #expect(text.contains("(\(page + 1)/\(pages))"), "\(frame.plainLines)")
            words += text.split(separator: " ").map(String.init).filter { $0.hasPrefix("word") }
        }
        #expect(words == (1...40).map { "word\($0)" })
    }

    @Test(arguments: sizes)
    func manyItemsAreListedWithoutOverlapAndTheHighlightIsAlwaysShown(columns: Int, rows: Int) {
        // A keyboard: 4 rows of 10 keys, each 39 points wide; the highlight on the last key.
        var items = [Element]()
        for row in 0..<4 {
            for column in 0..<10 {
                let index = row * 10 + column
                items.append(Element(id: "k\(index)", label: "Key \(index)",
                                     frame: Rect(x: Double(column) * 39, y: 500 + Double(row) * 50, width: 39, height: 50)))
            }
        }
        let snapshot = TerminalFrame.Snapshot(
            title: "Keyboard", screen: "keys", sceneSize: (390, 844), items: items, highlighted: ["k39"],
            highlightNote: nil, menu: nil, brailleText: "Key 39 btn", brailleCells: nil, scanning: true, status: nil)
        let frame = TerminalFrame(snapshot, columns: columns, rows: rows, keys: TerminalKeys.helpItems)
        expectFits(frame, (columns, rows))
        let text = frame.plainLines.joined(separator: "\n")
        let shown = (0..<40).filter { text.contains("[Key \($0)]") }
        #expect(frame.ansi.contains("\u{1B}[7m[Key 39]"), "\(columns)×\(rows):\n\(text)")
        // Every key is either shown whole or counted in a marker.
        var counted = shown.count
        for marker in ["before", "more"] {
            if let range = text.range(of: #"\((\d+) "# + marker + #"\)"#, options: .regularExpression) {
                counted += Int(text[range].dropFirst().prefix { $0.isNumber }) ?? 0
            }
        }
        #expect(counted == 40, "\(columns)×\(rows):\n\(text)")
    }

    @Test(arguments: sizes)
    func anOpenMenuStaysInTheLayoutRowsWithItsFocusShown(columns: Int, rows: Int) {
        let entries = ["Tap", "Scroll up", "Scroll down", "Gestures", "Device", "Settings", "Exit menu"]
        var menu = phoneScreen()
        menu.menu = (entries, 6)
        let frame = TerminalFrame(menu, columns: columns, rows: rows, keys: TerminalKeys.helpItems)
        expectFits(frame, (columns, rows))
        #expect(frame.ansi.contains("\u{1B}[7m Exit menu"))
        #expect(frame.plainLines.contains { $0.hasPrefix("   text: Test 1, Test 2 grp") }, "\(frame.plainLines)")
    }

    @Test func belowTheSmallestSizeItSaysSoAndKeepsTheQuitKey() {
        let lines = TerminalFrame(phoneScreen(), columns: 30, rows: 4, keys: TerminalKeys.helpItems).plainLines
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("window 30×4 is too small"))
        #expect(lines[3] == "q quit")
    }

    @Test func controlCharactersInLabelsAndTitlesAreNotWrittenOut() {
        var hostile = phoneScreen()
        hostile.title = "Line\nbreak"
        hostile.items[0].label = "Esc\u{1B}[2Jape"
        let frame = TerminalFrame(hostile, columns: 80, rows: 24, keys: TerminalKeys.helpItems)
        #expect(frame.plainLines.count == 24)
        #expect(frame.plainLines[0].hasPrefix("Line\u{FFFD}break — screen main"))
        #expect(frame.plainLines.contains { $0.contains("[Esc\u{FFFD}[2Jape]") })
        // The only escapes written are the frame's own: home, attributes, clear to the end of line.
        let escapes = frame.ansi.components(separatedBy: "\u{1B}").dropFirst().map { $0.prefix(3) }
        #expect(escapes.allSatisfy { escape in ["[H", "[0m", "[7m", "[1m", "[K"].contains { escape.hasPrefix($0) } }, "\(escapes)")
        #expect(!frame.ansi.contains("\n\n"))
    }

    @Test func theLargestSizeATerminalCanSayIsDrawnInItsCorner() {
        let lines = TerminalFrame(phoneScreen(), columns: Int(UInt16.max), rows: Int(UInt16.max), keys: TerminalKeys.helpItems).plainLines
        #expect(lines.count == TerminalFrame.maximumRows)
        #expect(lines.allSatisfy { $0.count <= TerminalFrame.maximumColumns })
        #expect(lines.last?.hasSuffix("q quit") == true)
    }

    @Test func theTitleKeepsTheStateAsItShrinks() {
        var paused = phoneScreen()
        paused.scanning = false
        paused.paused = true
        #expect(TerminalFrame.titleLine(paused, width: 80) == "Switch Control groups — screen main — paused")
        #expect(TerminalFrame.titleLine(paused, width: 40) == "Switch Control g… — screen main — paused")
        #expect(TerminalFrame.titleLine(paused, width: 22) == "Switch Contr… — paused")
        #expect(TerminalFrame.titleLine(paused, width: 10) == "paused")
    }

    // MARK: The pieces

    @Test func rowsAreSharedOutInOrderOfNeed() {
        // 40×10 with a two-line status and keys on three lines: the keys, the text, three layout
        // rows, the status and the note; the keys' other lines, the cells and the rule wait.
        let small = TerminalFrame.allocateRows(total: 10, statusLines: 2, keyLines: 3, hasNote: true, hasCells: true)
        #expect(small.total == 10)
        #expect(small.layout == 3 && small.status == 2 && small.note == 1 && small.text == 1 && small.keys == 2)
        #expect(small.cells == 0 && small.rule == 0)
        // 80×24: everything, the rest to the layout; the status row is kept when empty.
        let large = TerminalFrame.allocateRows(total: 24, statusLines: 0, keyLines: 2, hasNote: false, hasCells: true)
        #expect(large.total == 24)
        #expect(large.status == 1 && large.note == 1 && large.keys == 2 && large.cells == 1 && large.rule == 1)
        #expect(large.layout == 24 - 1 - 7)
    }

    @Test func wrappingBreaksAtSpacesAndSplitsOnlyWordsLongerThanALine() {
        #expect(TerminalFrame.wrap("one two three four", width: 9) == ["one two", "three", "four"])
        #expect(TerminalFrame.wrap("/a/very/long/path ok", width: 8) == ["/a/very/", "long/pat", "h ok"])
        #expect(TerminalFrame.wrap("two\nlines", width: 20) == ["two", "lines"])
    }

    @Test func keyItemsWrapWholeAndQuitIsKeptWhenTheyDoNotFit() {
        let items = TerminalKeys.helpItems
        let two = TerminalFrame.wrapItems(items, width: 40, maxLines: 2)
        #expect(two.count == 2)
        #expect(two.last?.hasSuffix("… · q quit") == true, "\(two)")
        #expect(two.allSatisfy { $0.count <= 40 })
        let all = TerminalFrame.wrapItems(items, width: 40, maxLines: 10)
        #expect(all.joined(separator: " · ") == TerminalKeys.help)
    }
}

@Suite("Feedback for keys that did nothing")
struct KeyFeedbackTests {
    /// The seed scene `switch-control-groups.yaml`.
    static func scene() throws -> Scene {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/switch-control-groups.yaml").path
        return try SceneParser.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    /// A session as `switchscan run` makes it: the terminal's keys bound, pulse-only.
    func session(_ settings: [(String, StateValue)] = [("scanning", .string("manual"))]) throws -> ScanSession {
        var scanSettings = ScanSettings()
        for (name, value) in settings { try scanSettings.set(name, value) }
        var bindings = ScanSession.actionSwitches
        bindings.merge(TerminalKeys.bindings) { $1 }
        var session = ScanSession(scene: try Self.scene(), settings: scanSettings, bindings: bindings,
                                  pulseOnlySwitches: Set(TerminalKeys.bindings.keys))
        _ = session.start()
        return session
    }

    /// Presses `key` as LiveRun does and returns the status line's feedback.
    func press(_ key: TerminalKeys.Key, _ session: inout ScanSession, at time: Double) -> String? {
        let situation = TerminalKeys.Situation(session.engine)
        var events = [TraceEvent]()
        if let id = TerminalKeys.switchID(for: key) { events = session.input(SwitchEdge(switchID: id, kind: .down, time: time)) }
        return TerminalKeys.feedback(for: key, events: events, situation: situation)
    }

    @Test func enterWhilePausedSaysWhyAndThatSResumes() throws {
        var session = try session()
        #expect(press(.enter, &session, at: 1) == nil, "Enter moves: no feedback")
        #expect(press(.character("s"), &session, at: 2) == nil, "s pauses")
        #expect(session.engine.isPaused)
        let focus = session.focusID
        let feedback = try #require(press(.enter, &session, at: 3))
        #expect(feedback.hasPrefix("Enter (next) ignored: scanning is paused"), "\(feedback)")
        #expect(feedback.hasSuffix("press s to resume scanning"), "\(feedback)")
        #expect(session.focusID == focus)
        #expect(press(.character("s"), &session, at: 4) == nil, "s resumes")
        #expect(press(.enter, &session, at: 5) == nil)
        #expect(session.focusID != focus)
    }

    @Test func aKeyThatIsNoSwitchSaysWhatWouldWork() throws {
        var session = try session()
        #expect(press(.character("x"), &session, at: 1) == "'x' is not a scanner key; Enter moves on, Space selects (q quits)")
        #expect(TerminalKeys.decode([0x04]) == [.control("D")])
        #expect(press(.control("D"), &session, at: 2)?.hasPrefix("Ctrl-D is not a scanner key") == true)
        #expect(TerminalKeys.decode(Array("\u{1B}[15~".utf8)) == [.otherSequence])
        // In the menu the hint is the menu's keys.
        _ = press(.enter, &session, at: 3)
        _ = press(.space, &session, at: 4)
        #expect(session.engine.menu != nil)
        #expect(press(.tab, &session, at: 5) == "Tab is not a scanner key; Enter moves in the menu, Space chooses, Esc closes it (q quits)")
    }

    @Test func aPressTheInputSettingsDidNotTakeSaysWhy() throws {
        var session = try session([("scanning", .string("manual")), ("ignoreRepeat", .number(0.5))])
        #expect(press(.enter, &session, at: 1) == nil)
        let focus = session.focusID
        let feedback = try #require(press(.enter, &session, at: 1.1))
        #expect(feedback.hasPrefix("Enter was not taken (a repeat within ignoreRepeat)"), "\(feedback)")
        #expect(session.focusID == focus)
    }
}

@Suite("Trace lines")
struct TraceFormatTests {
    @Test func everyKindIsOneJSONObjectWithTimeAndKind() {
        let lines = [
            TraceEvent(time: 1.5, kind: .input(switchID: "key:space", edge: "down", accepted: false, reason: "bounce")),
            TraceEvent(time: 2, kind: .highlight(id: "b", label: "Say \"hi\"")),
            TraceEvent(time: 2, kind: .menu(entries: ["Tap", "Exit menu"], focus: 0)),
            TraceEvent(time: 2, kind: .perform(id: "b", action: "activate")),
            TraceEvent(time: 2, kind: .screen(name: "main")),
            TraceEvent(time: 2, kind: .announcement(text: "Sent.")),
            TraceEvent(time: 2, kind: .braille(text: "Bravo btn")),
        ].map { TraceFormat.jsonLine($0) }
        #expect(lines == [
            #"{"time":1.5,"kind":"input","switch":"key:space","edge":"down","accepted":false,"reason":"bounce"}"#,
            #"{"time":2,"kind":"highlight","id":"b","label":"Say \"hi\""}"#,
            #"{"time":2,"kind":"menu","entries":["Tap","Exit menu"],"focus":"Tap"}"#,
            #"{"time":2,"kind":"perform","id":"b","action":"activate"}"#,
            #"{"time":2,"kind":"screen","name":"main"}"#,
            #"{"time":2,"kind":"announcement","text":"Sent."}"#,
            #"{"time":2,"kind":"braille","text":"Bravo btn"}"#,
        ])
    }
}
