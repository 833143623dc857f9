import AccessibilityModel
import Runtime
import Scanning
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
        let frame = TerminalFrame(snapshot(), columns: 40, rows: 20, help: "keys")
        let lines = frame.plainLines
        #expect(lines[0] == "Demo — screen main — scanning")
        #expect(lines.contains { $0.hasPrefix("[Alpha]") })
        // Bravo: x 200 of 400 → column 20; mid y 220 of 400 → layout row 7 of 14.
        #expect(lines[1 + 7].dropFirst(20).hasPrefix("[Bravo]"))
        #expect(lines[15].allSatisfy { $0 == "─" })
        #expect(lines[17] == "braille: ⠃⠗⠁⠧⠕")
        #expect(lines[18] == "   text: Bravo btn")
        #expect(lines[19] == "keys")
    }

    @Test func theHighlightIsReverseVideo() {
        let ansi = TerminalFrame(snapshot(), columns: 40, rows: 20, help: "").ansi
        #expect(ansi.contains("\u{1B}[7m[Bravo]"))
        #expect(!ansi.contains("\u{1B}[7m[Alpha]"))
    }

    @Test func theMenuIsDrawnWithItsFocus() {
        let frame = TerminalFrame(snapshot(menu: (["Tap", "Exit menu"], 1)), columns: 40, rows: 20, help: "")
        #expect(frame.plainLines.contains { $0.contains("│ Tap") })
        #expect(frame.ansi.contains("\u{1B}[7m Exit menu"))
    }

    @Test func wideCharactersTakeTwoColumns() {
        var chinese = snapshot()
        chinese.items = [Element(id: "a", label: "播放", frame: Rect(x: 0, y: 0, width: 400, height: 40))]
        let frame = TerminalFrame(chinese, columns: 40, rows: 20, help: "")
        #expect(frame.plainLines.contains { $0.hasPrefix("[播放]") })
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
