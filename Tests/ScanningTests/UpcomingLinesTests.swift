import AccessibilityModel
import BrailleFormatting
import Foundation
import Scanning
import Scenes
import SwitchInput
import Testing

/// The lines a live run makes ahead while idle (`upcomingBrailleLines`): which entries they are
/// for, and that a session that prepares them shows exactly what one that does not shows.
@Suite("Lines made ahead")
struct UpcomingLinesTests {
    /// Five buttons in a row, a container of three (kept as a group), and a button that shows a
    /// value the buttons change.
    static let yaml = """
        scene: Ahead
        size: [600, 200]
        start: main
        state: {count: 0}
        screens:
          main:
            elements:
              - {id: b0, label: Zero, traits: [button], frame: [0, 0, 50, 50], activate: [{add: {count: 1}}, {post: {notification: layoutChanged}}]}
              - {id: b1, label: One, traits: [button], frame: [50, 0, 50, 50], activate: [{add: {count: 1}}, {post: {notification: layoutChanged}}]}
              - {id: b2, label: Two, traits: [button], frame: [100, 0, 50, 50]}
              - {id: b3, label: Three, traits: [button], frame: [150, 0, 50, 50]}
              - {id: b4, label: 'Count {count}', traits: [button], frame: [200, 0, 50, 50]}
              - id: box
                label: Box
                navigationStyle: combined
                frame: [0, 100, 300, 50]
                elements:
                  - {id: c0, label: Left, traits: [button], frame: [0, 100, 100, 50]}
                  - {id: c1, label: Middle, hint: Does nothing, traits: [button], frame: [100, 100, 100, 50]}
                  - {id: c2, label: Right, traits: [button], frame: [200, 100, 100, 50]}

        """

    static func settings() -> ScanSettings {
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.groupItems = false
        settings.brailleHints = true
        return settings
    }

    static func ids(_ nodes: [ScanNode]) -> [String] { nodes.map { $0.id.description } }

    @Test("Entries nearest first: after the highlight (wrapping), a group's first entry, the one before; none with the menu open")
    func upcomingEntries() throws {
        let scene = try SceneParser.parse(yaml: Self.yaml, file: "ahead.yaml")
        var session = ScanSession(scene: scene, settings: Self.settings())
        _ = session.start()
        #expect(session.focusID?.description == "b0")
        #expect(Self.ids(session.engine.upcomingEntries(limit: 3)) == ["b1", "b2", "box"])
        #expect(Self.ids(session.engine.upcomingEntries(limit: 10)) == ["b1", "b2", "b3", "b4", "box"])
        #expect(session.engine.upcomingEntries(limit: 0).isEmpty)
        for _ in 0..<5 { _ = press(.next, &session) }
        #expect(session.focusID?.description == "box")
        // On the group: its first entry first (a select enters it), then on round the level.
        #expect(Self.ids(session.engine.upcomingEntries(limit: 4)) == ["c0", "b0", "b1", "b4"])
        _ = press(.select, &session)  // enters the group
        #expect(session.focusID?.description == "c0")
        #expect(Self.ids(session.engine.upcomingEntries(limit: 3)) == ["c1", "c2"])
        _ = press(.select, &session)  // the item menu opens
        #expect(session.engine.menu != nil)
        #expect(session.engine.upcomingEntries(limit: 3).isEmpty)
    }

    @Test("A session that makes lines ahead at every step shows the same lines as one that does not, through presses, taps and layout changes")
    func preparedLinesAreTheLinesShown() throws {
        let scene = try SceneParser.parse(yaml: Self.yaml, file: "ahead.yaml")
        var plain = ScanSession(scene: scene, settings: Self.settings())
        var ahead = ScanSession(scene: scene, settings: Self.settings())
        _ = plain.start()
        _ = ahead.start()
        // Next through the row to the box, into it, round it to its exit and out, on to Zero,
        // tap Zero through its menu (its count changes b4's label: a layout change), and on to b4.
        let presses: [SwitchAction] = [.next, .next, .next, .next, .next, .select, .next, .next, .next, .select,
                                       .next, .select, .select, .next, .next, .next, .next]
        var lines = [String]()
        var madeAhead = 0
        for (index, action) in presses.enumerated() {
            let made = ahead.upcomingBrailleLines(limit: 6)
            madeAhead += made.count
            // Each line made ahead is the line the formatter gives for that entry now.
            let formatter = BrailleFormatter(showHints: true, language: scene.language, roleFirst: false)
            for (node, line) in zip(ahead.engine.upcomingEntries(limit: 6), made) {
                #expect(line.line == formatter.line(for: node), "press \(index): \(node.id)")
            }
            let shownPlain = press(action, &plain)
            let shownAhead = press(action, &ahead)
            #expect(shownAhead == shownPlain, "press \(index) (\(action))")
            #expect(ahead.brailleLineLanguage == plain.brailleLanguage)
            lines.append(shownPlain.text)
        }
        #expect(madeAhead > 20)
        // The walk did what it says: the tap on Zero changed b4's line.
        #expect(lines.contains("Count 0 btn"))
        #expect(lines.contains("Tap 1/2: Zero btn"))
        #expect(lines.last == "Count 1 btn", "\(lines)")
    }

    @Test("Settings that change how lines look drop the lines made before")
    func settingsDropPreparedLines() throws {
        let scene = try SceneParser.parse(yaml: Self.yaml, file: "ahead.yaml")
        var session = ScanSession(scene: scene, settings: Self.settings())
        _ = session.start()
        _ = session.upcomingBrailleLines(limit: 6)
        var roleFirst = Self.settings()
        roleFirst.brailleRoleFirst = true
        _ = session.updateSettings(roleFirst)
        let formatter = BrailleFormatter(showHints: true, language: scene.language, roleFirst: true)
        _ = press(.next, &session)
        let node = try #require(session.engine.upcomingEntries(limit: 6).last)  // b0, the one before
        #expect(node.id.description == "b0")
        #expect(session.brailleLine.text.hasPrefix("btn"), "role first: \(session.brailleLine.text)")
        let made = session.upcomingBrailleLines(limit: 6)
        #expect(made.last?.line == formatter.line(for: node))
    }

    /// A press and release of the switch bound to `action`, 0.1 s apart; the line shown after it.
    func press(_ action: SwitchAction, _ session: inout ScanSession) -> BrailleLine {
        let start = session.time + 0.5
        _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .down, time: start))
        _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .up, time: start + 0.1))
        _ = session.advance(to: start + 0.2)
        return session.brailleLine
    }
}
