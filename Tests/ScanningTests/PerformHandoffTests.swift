import AccessibilityModel
import Scanning
import Scenes
import SwitchInput
import Testing

/// The session never acts on what it scans: a selection ends its answer with `.perform`, and
/// nothing in the content changes until the host hands the command over and the answer back
/// (`SessionDriver`). Virtual time throughout: the session's clock is what the test gives it.
@Suite("Perform hand-off")
struct PerformHandoffTests {
    /// A scene kept inside, which writes down every command it is handed.
    struct RecordingContent: ScanContent {
        var inner: SceneContent
        var performed: [String] = []
        /// Stands for a live application: what it is handed acts outside the value.
        var outside = false
        var title: String { inner.title }
        var screenName: String { inner.screenName }
        var size: (width: Double, height: Double) { inner.size }
        var language: String { inner.language }
        var actsOutsideItself: Bool { outside }
        var scene: Scene { inner.scene }
        var sceneState: SceneState { inner.sceneState }
        func currentStructure(groupItems: Bool) -> ScanStructure { inner.currentStructure(groupItems: groupItems) }
        mutating func rebuildStructure(groupItems: Bool) -> ScanStructure { inner.rebuildStructure(groupItems: groupItems) }
        mutating func perform(_ command: ElementCommand, on element: Element?) -> ContentUpdate? {
            performed.append("\(command) \(element?.id ?? "screen")")
            return inner.perform(command, on: element)
        }
        mutating func useLearnedWeights(_ weights: LearnedWeights?) -> Bool { inner.useLearnedWeights(weights) }
        mutating func highlightMoved(_ moves: [HighlightMove]) -> (ran: [String], update: ContentUpdate)? {
            performed += moves.map { "moved \($0.lost ?? "-") to \($0.gained ?? "-")" }
            return inner.highlightMoved(moves)
        }
    }

    static let yaml = """
        scene: Hand-off
        size: [390, 844]
        state: {last: none, focused: none}
        start: main
        screens:
          main:
            elements:
              - id: open
                label: Open
                traits: [button]
                frame: [0, 0, 390, 44]
                didBecomeFocused: [{set: {focused: Open}}]
                activate: [{set: {last: Open}}, {go: details}]
              - id: stay
                label: Stay
                traits: [button]
                frame: [0, 100, 390, 44]
                activate: [{set: {last: Stay}}]
          details:
            elements:
              - id: back
                label: Back
                traits: [button]
                frame: [0, 0, 390, 44]
                activate: [{go: main}]
        """

    static func session(_ change: (inout ScanSettings) -> Void = { _ in }) throws -> ScanSession {
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.groupItems = false
        settings.tapBehavior = .alwaysTap
        settings.debounceTime = nil
        change(&settings)
        let scene = try SceneParser.parse(yaml: yaml, file: "hand-off.yaml")
        return ScanSession(content: RecordingContent(inner: SceneContent(scene: scene)), settings: settings)
    }

    /// What the content was handed: commands, and highlight moves (`moved a to b`).
    static func handed(_ session: ScanSession) -> [String] {
        (session.content as? RecordingContent)?.performed ?? ["the content is no longer the recording one"]
    }

    /// The commands the content was handed.
    static func performed(_ session: ScanSession) -> [String] {
        handed(session).filter { !$0.hasPrefix("moved ") }
    }

    static func select(at time: Double) -> SessionEvent {
        .edge(SwitchEdge(switchID: SwitchAction.select.rawValue, kind: .down, time: time))
    }

    @Test("a select ends the session's answer with .perform; nothing changes until the answer is handed back")
    func selectYieldsPerform() throws {
        var session = try Self.session()
        _ = session.handle(.start)
        #expect(session.focusID == "open")

        let outputs = session.handle(Self.select(at: 1))
        guard case .perform(let command, let element)? = outputs.last?.kind else {
            Issue.record("the answer to a select does not end with .perform: \(outputs.map(\.kind))")
            return
        }
        #expect(command == .activate)
        #expect(element?.id == "open")
        #expect(session.pendingPerform?.command == .activate)
        #expect(session.pendingPerform?.element?.id == "open")
        // The session did not act: the content was handed nothing, and nothing moved.
        #expect(Self.performed(session) == [])
        #expect(session.state["last"] == .string("none"))
        #expect(session.screen == "main")
        #expect(session.focusID == "open")

        let answer = SessionDriver.answerPending(on: &session)
        #expect(Self.performed(session) == ["activate open"])
        #expect(session.pendingPerform == nil)
        #expect(session.state["last"] == .string("Open"))
        #expect(session.screen == "details")
        #expect(session.focusID == "back")
        #expect(answer.contains { if case .screen(name: "details") = $0.kind { true } else { false } })
    }

    @Test("the session alone never hands the content a command or a highlight move, whatever the switches do")
    func sessionNeverCallsTheContent() throws {
        var session = try Self.session()
        _ = session.handle(.start)
        var performs = 0
        // Every select performs; nothing answers, so each request finds, at the next event,
        // that nothing handled it.
        for step in 0..<6 {
            let time = 1 + Double(step)
            let action: SwitchAction = step.isMultiple(of: 2) ? .select : .next
            let outputs = session.handle(.edge(SwitchEdge(switchID: action.rawValue, kind: .down, time: time)))
                + session.handle(.edge(SwitchEdge(switchID: action.rawValue, kind: .up, time: time + 0.05)))
            performs += outputs.filter { if case .perform = $0.kind { true } else { false } }.count
        }
        #expect(performs == 3)
        #expect(Self.handed(session) == [])
        #expect(session.state["last"] == .string("none"))
    }

    @Test("a perform fired by a timer stops time passing; the answer lets it go on, and the outputs are the driver's")
    func timerPerformResumes() throws {
        func autoTap(_ settings: inout ScanSettings) {
            settings.scanning = .auto
            settings.tapBehavior = .autoTap
            settings.autoScanningTime = 1
            settings.autoTapTime = 0.75
        }
        var session = try Self.session(autoTap)
        var driven = session
        var outputs = SessionDriver.step(.start, on: &session) + SessionDriver.step(Self.select(at: 0.5), on: &session)
        let expected = SessionDriver.step(.start, on: &driven) + SessionDriver.step(Self.select(at: 0.5), on: &driven)
            + SessionDriver.step(.time(6, lateness: nil), on: &driven)

        outputs += session.handle(.time(6, lateness: nil))
        // The auto tap fired at 1.25 and the session stopped there, waiting.
        #expect(session.time == 1.25)
        #expect(session.pendingPerform?.element?.id == "open")
        #expect(Self.performed(session) == [])
        #expect(session.screen == "main")

        outputs += SessionDriver.answerPending(on: &session)
        #expect(session.time == 6)
        #expect(session.screen == "details")
        #expect(Self.performed(session) == ["activate open"])
        // Stopping and going on gives the trace a host that answers at once gives.
        #expect(outputs.traceEvents == expected.traceEvents)
        #expect(driven.screen == "details")
    }

    @Test("an event that comes while the session waits finds the command answered as nothing handling it")
    func unansweredPerformIsNothingHandled() throws {
        var session = try Self.session()
        _ = session.handle(.start)
        _ = session.handle(Self.select(at: 1))
        #expect(session.pendingPerform != nil)
        _ = session.handle(.time(2, lateness: nil))
        #expect(session.pendingPerform == nil)
        #expect(session.screen == "main")
        #expect(session.state["last"] == .string("none"))
        #expect(session.focusID != nil)
        #expect(Self.performed(session) == [])
    }

    @Test("the highlight landing on an item asks for its focus hooks; they run when the answer is handed back")
    func highlightMoveAsksForFocusHooks() throws {
        var session = try Self.session()
        let start = session.handle(.start)
        #expect(session.focusID == "open")
        #expect(session.pendingHighlightMoves == [HighlightMove(lost: nil, gained: "open")])
        #expect(Self.handed(session) == [])
        #expect(session.state["focused"] == .string("none"))
        // The line waits for the hooks' answer (what they change may change it).
        #expect(!start.contains { if case .line = $0.kind { true } else { false } })

        let answer = SessionDriver.answerPending(on: &session)
        #expect(Self.handed(session) == ["moved - to open"])
        #expect(session.pendingRequest == nil)
        #expect(session.state["focused"] == .string("Open"))
        #expect(answer.contains { if case .status("focus hooks: open didBecomeFocused") = $0.kind { true } else { false } })
        #expect(answer.contains { if case .line = $0.kind { true } else { false } })
    }

    @Test("a forecast hands no command to content that acts outside itself: that edge is not forecast")
    func forecastNeverPerformsOnALiveApplication() throws {
        for outside in [false, true] {
            var session = try Self.session()
            var content = RecordingContent(inner: SceneContent(scene: try SceneParser.parse(yaml: Self.yaml, file: "hand-off.yaml")))
            content.outside = outside
            session = ScanSession(content: content, settings: session.settings)
            _ = SessionDriver.step(.start, on: &session)
            #expect(!session.forecasts(edgeOf: SwitchAction.next.rawValue).isEmpty)
            let selects = session.forecasts(edgeOf: SwitchAction.select.rawValue)
            // A scene's behaviour runs on the forecast's own copy; a live application's would not.
            #expect(selects.isEmpty == outside, "content acting outside itself: \(outside)")
            #expect(Self.performed(session) == [])
        }
    }
}
