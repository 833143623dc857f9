import AccessibilityModel
@testable import Scanning
import Scenes
import SwitchInput
import Testing

// The session rebuilds the scan structure after an effect from what it built before: unchanged
// when nothing the screen reads changed, patched when only shown values changed, built again
// when a structural binding changed. Whatever the path, the structure must be the one a full
// build from the templates gives, and the engine must show the new values.

private let cacheScene = """
    scene: Cache
    size: [390, 844]
    state: {count: 0, on: false, shown: false, unread: 2, other: 0}
    start: main
    screens:
      main:
        elements:
          - {id: status, label: "Count {count}", value: "{unread} unread", frame: [0, 0, 130, 44]}
          - {id: add, label: Add, traits: [button], frame: [130, 0, 130, 44], activate: [{add: {count: 1}}, {post: {notification: layoutChanged}}]}
          - {id: flip, label: Flip, traits: [button, {selected: on}], frame: [260, 0, 130, 44], activate: [{toggle: on}, {post: {notification: layoutChanged}}]}
          - {id: show, label: "{shown?Hide:Show}", traits: [button], frame: [0, 50, 130, 44], activate: [{toggle: shown}, {post: {notification: layoutChanged}}]}
          - {id: read, label: Read, traits: [button], frame: [130, 50, 130, 44], activate: [{add: {unread: -1}}]}
          - {id: quiet, label: Quiet, traits: [button], frame: [260, 50, 130, 44], activate: [{add: {other: 1}}]}
          - id: box
            shouldGroupAccessibilityChildren: true
            frame: [0, 100, 390, 200]
            elements:
              - {id: k1, label: "One ({unread})", frame: [0, 100, 97, 44]}
              - {id: k2, label: Two, hint: "{count} taps", frame: [97, 100, 97, 44]}
              - {id: k3, label: Three, frame: [194, 100, 97, 44], customActions: [{name: "Clear {unread}", do: [{set: {unread: 0}}]}]}
              - {id: k4, label: Four, frame: [291, 100, 97, 44], visible: shown}
              - {id: k5, label: Five, frame: [0, 150, 97, 44]}
              - {id: k6, label: Six, frame: [97, 150, 97, 44]}
              - {id: k7, label: Seven, frame: [194, 150, 97, 44]}
              - {id: deco, label: "Deco {count}", isAccessibilityElement: false, frame: [0, 250, 40, 40]}
              - id: cell
                label: "Cell {count}"
                isAccessibilityElement: true
                frame: [291, 150, 97, 44]
                elements:
                  - {id: inner, label: "Inner {count}", frame: [291, 150, 40, 44]}
    """

private func session(groupItems: Bool) throws -> ScanSession {
    let scene = try SceneParser.parse(yaml: cacheScene, file: "cache.yaml")
    var settings = ScanSettings()
    settings.scanning = .manual
    settings.focusedItemAfterTap = .current
    settings.groupItems = groupItems
    var session = ScanSession(scene: scene, settings: settings)
    _ = session.start()
    return session
}

/// Moves the highlight onto the item `id` (next, select to enter its group) and taps it.
private func tap(_ id: ElementID, in session: inout ScanSession, at time: inout Double) throws {
    func press(_ action: SwitchAction) {
        time += 1
        _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .down, time: time))
        _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .up, time: time + 0.1))
    }
    var moves = 0
    while true {
        if case .entry(let node) = session.engine.highlight, node.id == id, !node.isGroup { break }
        if case .entry(let node) = session.engine.highlight, node.isGroup, node.items.contains(where: { $0.id == id }) {
            press(.select)
        } else {
            press(.next)
        }
        moves += 1
        try #require(moves < 100, "cannot reach \(id)")
    }
    press(.tap)
}

private func fresh(_ session: ScanSession) -> ScanStructure {
    ScanSession.buildStructure(
        scene: session.scene, state: SceneState(values: session.state, screen: session.screen),
        groupItems: session.settings.groupItems)
}

private func item(_ id: ElementID, in structure: ScanStructure) -> Element? {
    structure.nodes.flatMap(\.items).first { $0.id == id }
}

@Suite struct StructureCacheTests {
    @Test(arguments: [true, false])
    func everyRebuildEqualsAFullBuild(groupItems: Bool) throws {
        var session = try session(groupItems: groupItems)
        var time = 1.0
        // Shown values (labels, values, hints, traits, action names), a structural binding
        // (visible), and a value nothing reads, in turn and repeated.
        for id in ["add", "flip", "read", "show", "add", "quiet", "show", "flip", "read", "add"] {
            try tap(id, in: &session, at: &time)
            #expect(session.currentStructure() == fresh(session), "after tapping \(id)")
            #expect(session.focusID == id, "the highlight stays on \(id)")
        }
        #expect(session.state["count"] == .number(3))
        #expect(item("status", in: session.currentStructure())?.label == "Count 3")
        #expect(item("status", in: session.currentStructure())?.value == "0 unread")
        #expect(item("k2", in: session.currentStructure())?.hint == "3 taps")
        #expect(item("cell", in: session.currentStructure())?.children.first?.label == "Inner 3")
        #expect(item("k3", in: session.currentStructure())?.customActions.first?.name == "Clear 0")
        #expect(item("flip", in: session.currentStructure())?.traits.contains(.selected) == false)
        #expect(item("k4", in: session.currentStructure()) == nil)
        if groupItems {
            // A decoration inside the container (no item of its own) is renewed too.
            let box = session.currentStructure().nodes.first { $0.id == "box" }?.element
            #expect(box?.children.first { $0.id == "deco" }?.label == "Deco 3")
        }
    }

    @Test(arguments: [true, false])
    func manyChangedLabelsAreAllRenewed(groupItems: Bool) throws {
        // More changed elements than are patched one by one: the whole structure is walked.
        let keys = (0..<80).map { "      - {id: key\($0), label: \"Key \($0) ({unread})\", frame: [\(($0 % 8) * 44), \(100 + ($0 / 8) * 44), 44, 44]}" }
        let text = """
            scene: Many
            size: [390, 844]
            state: {unread: 2}
            start: main
            screens:
              main:
                elements:
                  - {id: read, label: Read, traits: [button], frame: [0, 0, 390, 44], activate: [{add: {unread: -1}}]}
            """ + "\n" + keys.joined(separator: "\n") + "\n"
        let scene = try SceneParser.parse(yaml: text, file: "many.yaml")
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.focusedItemAfterTap = .current
        settings.groupItems = groupItems
        var session = ScanSession(scene: scene, settings: settings)
        _ = session.start()
        var time = 1.0
        try tap("read", in: &session, at: &time)
        try tap("read", in: &session, at: &time)
        #expect(session.currentStructure() == fresh(session))
        #expect(item("key79", in: session.currentStructure())?.label == "Key 79 (0)")
    }

    @Test func theHighlightedItemShowsTheNewLabel() throws {
        var session = try session(groupItems: true)
        var time = 1.0
        try tap("show", in: &session, at: &time)
        #expect(session.brailleText.contains("Hide"))
        #expect(item("k4", in: session.currentStructure())?.label == "Four")
        try tap("flip", in: &session, at: &time)
        #expect(session.brailleText.contains("Flip"))
        if case .entry(let node) = session.engine.highlight {
            #expect(node.element.traits.contains(.selected))
        } else {
            Issue.record("nothing highlighted after the tap")
        }
    }
}
