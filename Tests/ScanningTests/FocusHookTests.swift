import AccessibilityModel
import Scanning
import Scenes
import SwitchInput
import Testing

/// `didBecomeFocused` / `didLoseFocus` (the Orange guide's UIAccessibilityFocus): the session runs
/// them as the app's own effects when the highlight lands on an item or leaves it.
@Suite("Focus hooks")
struct FocusHookTests {
    static let yaml = """
        scene: Hooks
        size: [390, 844]
        state: {log: "", count: 0}
        start: main
        screens:
          main:
            elements:
              - id: first
                label: First
                traits: [button]
                frame: [0, 0, 390, 44]
                didBecomeFocused: [{set: {log: first gained}}]
                didLoseFocus: [{set: {log: first lost}}]
              - id: ping
                label: Ping
                traits: [button]
                frame: [0, 100, 390, 44]
                didBecomeFocused: [{add: {count: 1}}, {post: {notification: layoutChanged, focus: pong}}]
              - id: pong
                label: Pong
                traits: [button]
                frame: [0, 200, 390, 44]
                didBecomeFocused: [{add: {count: 1}}, {post: {notification: layoutChanged, focus: ping}}]
        """

    static func session() throws -> ScanSession {
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.groupItems = false
        return ScanSession(scene: try SceneParser.parse(yaml: yaml, file: "hooks.yaml"), settings: settings)
    }

    static func press(_ action: SwitchAction, _ session: inout ScanSession, at time: Double) -> [TraceEvent] {
        session.input(SwitchEdge(switchID: action.rawValue, kind: .down, time: time))
            + session.input(SwitchEdge(switchID: action.rawValue, kind: .up, time: time + 0.05))
    }

    @Test("the start lands on an item: its didBecomeFocused runs; moving on runs its didLoseFocus")
    func gainedThenLost() throws {
        var session = try Self.session()
        let trace = session.start()
        #expect(session.focusID == "first")
        #expect(session.state["log"] == .string("first gained"))
        #expect(trace.contains { $0.kind == .status(text: "focus hooks: first didBecomeFocused") })
        _ = Self.press(.next, &session, at: 1)
        #expect(session.focusID == "ping")
        #expect(session.state["log"] == .string("first lost"))
    }

    @Test("hooks that keep moving the highlight stop after a bounded number of rounds")
    func boundedRounds() throws {
        var session = try Self.session()
        _ = session.start()
        _ = Self.press(.next, &session, at: 1)
        // Ping sends the highlight to Pong, whose hook sends it back, and so on: each landing
        // runs one hook; the rounds are bounded, and the scanner goes on working.
        let count = session.state["count"]
        #expect(count == .number(16), "\(String(describing: count))")
        _ = Self.press(.previous, &session, at: 2)
        #expect(session.focusID != nil)
    }
}
