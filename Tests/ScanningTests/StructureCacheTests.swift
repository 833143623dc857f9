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

/// A started session of `yaml` (the cache scene unless given), scanned by hand, the highlight
/// staying on the tapped element.
private func session(groupItems: Bool, yaml: String = cacheScene, file: String = "cache.yaml") throws -> ScanSession {
    let scene = try SceneParser.parse(yaml: yaml, file: file)
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
        var session = try session(groupItems: groupItems, yaml: text, file: "many.yaml")
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

/// A screen where every key's label reads `unread` (more keys than are patched one by one),
/// inside containers kept together, with a key that is a container itself (`cell`), a
/// decoration only its container holds, and an element shown by `details`.
private func inlineTreeScene() -> String {
    var lines = [
        "scene: Relabel", "size: [390, 844]", "state: {unread: 2, details: false}", "start: main", "screens:", "  main:",
        "    elements:",
        "      - {id: read, label: \"Read {unread}\", traits: [button], frame: [0, 0, 195, 44], activate: [{add: {unread: 1}}, {post: {notification: layoutChanged}}]}",
        "      - {id: details, label: Details, traits: [button], frame: [195, 0, 195, 44], activate: [{toggle: details}, {post: {notification: layoutChanged}}]}",
    ]
    for box in 0..<3 {
        let top = 50 + box * 250
        lines += ["      - id: box\(box)", "        shouldGroupAccessibilityChildren: true", "        elements:"]
        for key in 0..<30 {
            let x = (key % 10) * 39, y = top + (key / 10) * 44
            lines.append("          - {id: k\(box)-\(key), label: \"Key \(key) of \(box) ({unread})\", hint: \"{unread} left\", traits: [keyboardKey, {selected: details}], frame: [\(x), \(y), 39, 44], activate: [{add: {unread: 1}}, {post: {notification: layoutChanged}}]}")
        }
        lines.append("          - {id: deco\(box), label: \"Deco {unread}\", isAccessibilityElement: false, frame: [0, \(top + 140), 20, 20]}")
        lines.append("          - {id: shown\(box), label: \"Shown {unread}\", visible: details, frame: [40, \(top + 140), 39, 44]}")
        lines += [
            "          - id: cell\(box)", "            label: \"Cell {unread}\"", "            isAccessibilityElement: true",
            "            frame: [200, \(top + 140), 190, 44]", "            elements:",
            "              - {id: inner\(box), label: \"Inner {unread}\", frame: [200, \(top + 140), 90, 44]}",
        ]
    }
    return lines.joined(separator: "\n") + "\n"
}

@Suite struct RelabelEveryElementTests {
    @Test(arguments: [true, false])
    func relabelOfEveryElementEqualsAFullBuild(groupItems: Bool) throws {
        var session = try session(groupItems: groupItems, yaml: inlineTreeScene(), file: "relabel.yaml")
        var time = 1.0
        // Relabels of every element, again and again (shown attributes put over ones put before),
        // structural changes between them (the structure built again), and relabels with the
        // highlight on a key inside a container (last: `tap` does not leave a group).
        for (step, id) in ["read", "read", "read", "details", "read", "details", "read", "k1-17", "k1-17"].enumerated() {
            try tap(id, in: &session, at: &time)
            let structure = session.currentStructure()
            #expect(structure == fresh(session), "step \(step): after tapping \(id)")
            #expect(session.focusID == id, "step \(step): the highlight stays on \(id)")
            let unread = session.state["unread"].map { "\($0)" } ?? "?"
            #expect(item("k2-29", in: structure)?.label == "Key 29 of 2 (\(unread))")
            #expect(item("k0-0", in: structure)?.hint == "\(unread) left")
            #expect(item("cell1", in: structure)?.children.first?.label == "Inner \(unread)")
            if id.hasPrefix("k") {
                #expect(session.brailleText.contains("Key 17 of 1 (\(unread))"), "step \(step): the line shows the new label")
            }
        }
        #expect(session.state["unread"] == .number(9))
        #expect(item("k0-5", in: session.currentStructure())?.traits.contains(.selected) == false)
        if groupItems {
            // A decoration only its container holds is relabelled too.
            func container(_ nodes: [ScanNode]) -> Element? {
                for node in nodes {
                    if node.id == "box2" { return node.element }
                    if let found = container(node.children) { return found }
                }
                return nil
            }
            let box = container(session.currentStructure().nodes)
            #expect(box?.children.first { $0.id == "deco2" }?.label == "Deco 9")
        }
    }
}
