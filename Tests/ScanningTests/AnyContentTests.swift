import AccessibilityModel
import BrailleFormatting
import Scanning
import Scenes
import SwitchInput
import Testing

/// The session reaches what it scans only through `ScanContent`: focus hooks, the app's own
/// effects and learnt weights work for any content, not only for a `SceneContent` (here a
/// content of another type that keeps a scene inside), and the session's typed outputs carry
/// what outputs need.
@Suite("Any content")
struct AnyContentTests {
    /// Another content type: a scene kept inside, every requirement handed on to it.
    struct KeptScene: ScanContent {
        var inner: SceneContent
        var title: String { inner.title }
        var screenName: String { inner.screenName }
        var size: (width: Double, height: Double) { inner.size }
        var language: String { inner.language }
        var actsOutsideItself: Bool { false }
        var scene: Scene { inner.scene }
        var sceneState: SceneState { inner.sceneState }
        func currentStructure(groupItems: Bool) -> ScanStructure { inner.currentStructure(groupItems: groupItems) }
        mutating func rebuildStructure(groupItems: Bool) -> ScanStructure { inner.rebuildStructure(groupItems: groupItems) }
        mutating func perform(_ command: ElementCommand, on element: Element?) -> ContentUpdate? {
            inner.perform(command, on: element)
        }
        mutating func useLearnedWeights(_ weights: LearnedWeights?) -> Bool { inner.useLearnedWeights(weights) }
        mutating func highlightMoved(_ moves: [HighlightMove]) -> (ran: [String], update: ContentUpdate)? {
            inner.highlightMoved(moves)
        }
        mutating func runAppEffects(_ effects: [Effect]) -> ContentUpdate? { inner.runAppEffects(effects) }
    }

    static let yaml = """
        scene: Kept
        size: [390, 844]
        state: {log: "", last: ""}
        start: main
        screens:
          main:
            elements:
              - id: first
                label: First
                traits: [button]
                frame: [0, 0, 390, 44]
                didBecomeFocused: [{set: {log: first gained}}]
                activate: [{set: {last: First}}]
              - id: second
                label: Deuxième
                language: fr
                traits: [button]
                frame: [0, 100, 390, 44]
                activate: [{set: {last: Second}}]
              - id: third
                label: Third
                traits: [button]
                frame: [0, 200, 390, 44]
                activate: [{set: {last: Third}}]
        """

    static func session(orderByFrequency: Bool = false) throws -> ScanSession {
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.groupItems = false
        settings.tapBehavior = .alwaysTap
        settings.learnSelections = true
        settings.orderByFrequency = orderByFrequency
        let scene = try SceneParser.parse(yaml: yaml, file: "kept.yaml")
        return ScanSession(content: KeptScene(inner: SceneContent(scene: scene)), settings: settings)
    }

    static func press(_ action: SwitchAction, _ session: inout ScanSession) -> [SessionOutput] {
        let time = session.time + 0.2
        return SessionDriver.step(.edge(SwitchEdge(switchID: action.rawValue, kind: .down, time: time)), on: &session)
            + SessionDriver.step(.edge(SwitchEdge(switchID: action.rawValue, kind: .up, time: time + 0.05)), on: &session)
    }

    @Test("the focus hooks of a content that is not a SceneContent run")
    func focusHooks() throws {
        var session = try Self.session()
        let outputs = SessionDriver.step(.start, on: &session)
        #expect(session.focusID == "first")
        #expect(session.state["log"] == .string("first gained"))
        #expect(outputs.traceEvents.contains { $0.kind == .status(text: "focus hooks: first didBecomeFocused") })
    }

    @Test("the app's own effects run on a content that is not a SceneContent")
    func appEffects() throws {
        var session = try Self.session()
        _ = SessionDriver.step(.start, on: &session)
        let trace = session.appChanged([.set([(name: "last", value: .string("by the app"))])])
        #expect(trace != nil)
        #expect(session.state["last"] == .string("by the app"))
    }

    @Test("what the user selects orders the structure of a content that is not a SceneContent")
    func learning() throws {
        var session = try Self.session(orderByFrequency: true)
        session.useSelections(SelectionCounts(), scope: "", stored: false)
        _ = SessionDriver.step(.start, on: &session)
        // Third, three times: next, next, select (a tap: tapBehavior alwaysTap).
        for _ in 0..<3 {
            var presses = 0
            while session.focusID != "third", presses < 10 {
                _ = Self.press(.next, &session)
                presses += 1
            }
            _ = Self.press(.select, &session)
            #expect(session.state["last"] == .string("Third"))
        }
        // A calm point (the settings' learning changed and back) takes the counts: most selected first.
        var settings = session.settings
        settings.orderByFrequency = false
        _ = SessionDriver.step(.settings(settings), on: &session)
        settings.orderByFrequency = true
        _ = SessionDriver.step(.settings(settings), on: &session)
        #expect(session.currentStructure().nodes.map(\.id).first == "third")
    }

    @Test("the outputs carry the highlighted element, the line's language, the menu's item and the command's element")
    func typedOutputs() throws {
        var session = try Self.session()
        _ = SessionDriver.step(.start, on: &session)
        let moved = Self.press(.next, &session)
        let highlighted = moved.compactMap { output -> Element? in
            if case .highlight(let highlight) = output.kind { return highlight.element }
            return nil
        }
        #expect(highlighted.map(\.id) == ["second"])
        let lines = moved.compactMap { output -> (BrailleLine, String?)? in
            if case let .line(line, language, _) = output.kind { return (line, language) }
            return nil
        }
        #expect(lines.count == 1 && lines.first?.0.text.hasPrefix("Deuxième") == true && lines.first?.1 == "fr")
        #expect(lines.first?.0 == session.brailleLine)

        let menu = Self.press(.menu, &session)
        let opened = menu.compactMap { output -> (count: Int, focus: Int, item: ElementID?)? in
            if case let .menu(entries, focus, item) = output.kind { return (entries.count, focus, item?.id) }
            return nil
        }
        #expect(opened.first?.item == "second" && opened.first?.focus == 0 && (opened.first?.count ?? 0) > 1)

        _ = Self.press(.menu, &session)  // closes it
        let tapped = Self.press(.select, &session)
        let performed = tapped.compactMap { output -> (ElementCommand, ElementID?)? in
            if case let .perform(command, element) = output.kind { return (command, element?.id) }
            return nil
        }
        #expect(performed.count == 1 && performed.first?.0 == .activate && performed.first?.1 == "second")
        #expect(session.state["last"] == .string("Second"))
        // The trace is made from the same outputs.
        #expect(tapped.traceEvents.contains { $0.kind == .perform(id: "second", action: "activate") })
    }
}
