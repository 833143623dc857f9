import AccessibilityModel
import Scenes
import SwitchInput
import Testing

@testable import Scanning

// Issue 17, part 2, wired into the session: what the user selects is counted per screen, and
// the structure is arranged with those counts at calm points (the start, a screen change).

@Suite struct SelectionLearningTests {
    /// 16 keys, 4 a row, each recording its label; `go` opens a second screen whose `back`
    /// returns (the way a user leaves and comes back to a screen).
    static let yaml: String = {
        var keys = ""
        for index in 1...16 {
            let x = 20 + ((index - 1) % 4) * 80, y = 100 + ((index - 1) / 4) * 60
            keys += "      - {id: k\(index), label: K\(index), traits: [keyboardKey], frame: [\(x), \(y), 70, 50], activate: [{set: {last: K\(index)}}]}\n"
        }
        return """
            scene: Learning
            size: [390, 844]
            state:
              last: ""
            start: keys
            screens:
              keys:
                elements:
            \(keys)      - {id: go, label: Go, traits: [button], frame: [20, 400, 300, 50], activate: [{go: other}]}
              other:
                elements:
                  - {id: back, label: Back, traits: [button], frame: [20, 100, 300, 50], activate: [{go: keys}]}

            """
    }()

    static func scene() throws -> Scene { try SceneParser.parse(yaml: yaml, file: "learning.yaml") }

    static func settings(learn: Bool, orderByFrequency: Bool = false) throws -> ScanSettings {
        var settings = ScanSettings()
        try settings.set("scanning", .string("manual"))
        try settings.set("tapBehavior", .string("alwaysTap"))
        try settings.set("learnSelections", .bool(learn))
        try settings.set("orderByFrequency", .bool(orderByFrequency))
        return settings
    }

    /// A session learning from empty counts, in memory (as a scripted test's), unless `host` is false.
    static func session(learn: Bool, orderByFrequency: Bool = false, host: Bool = true) throws -> ScanSession {
        var session = ScanSession(scene: try scene(), settings: try settings(learn: learn, orderByFrequency: orderByFrequency))
        if host { session.useSelections(SelectionCounts(), scope: "", stored: false) }
        _ = session.start()
        return session
    }

    /// A press of the virtual switch for `action`, 0.2 s after the last.
    static func press(_ session: inout ScanSession, _ action: SwitchAction) {
        let start = session.time + 0.2
        _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .down, time: start))
        _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .up, time: start + 0.05))
    }

    /// The nodes from the top level down to the item `id`.
    static func path(to id: ElementID, in nodes: [ScanNode]) -> [ScanNode]? {
        for node in nodes {
            if case .item(let element) = node, element.id == id { return [node] }
            if case .group(_, let children) = node, let inner = path(to: id, in: children) { return [node] + inner }
        }
        return nil
    }

    /// Selects `id` as a user would: next until each node on its path is highlighted, then select.
    /// Returns the presses it took.
    @discardableResult
    static func select(_ id: ElementID, in session: inout ScanSession) throws -> Int {
        let path = try #require(Self.path(to: id, in: session.currentStructure().nodes), "\(id) on screen \(session.screen)")
        var presses = 0
        for node in path {
            var guardCount = 0
            while session.focusID != node.id {
                press(&session, .next)
                presses += 1
                guardCount += 1
                try #require(guardCount < 100, "\(node.id) never highlighted")
            }
            press(&session, .select)
            presses += 1
        }
        return presses
    }

    static func selectSteps(of id: ElementID, _ session: ScanSession) -> Int? {
        ScanCost.report(session.currentStructure().nodes).items.first { $0.id == id }?.autoSelectSteps
    }

    @Test func aKeyKeepsItsPlaceWhileLearningWithoutOrderByFrequency() throws {
        // The counts are kept, but the layout the user learnt does not move.
        var session = try Self.session(learn: true)
        let initial = session.currentStructure()
        for _ in 0..<20 { try Self.select("k15", in: &session) }
        try Self.select("go", in: &session)
        try Self.select("back", in: &session)
        #expect(session.screen == "keys")
        #expect(session.currentStructure().nodes == initial.nodes)
        #expect((session.selections.screens["keys"]?["k15"] ?? 0) > 19)
    }

    @Test func aFrequentItemsPathGetsShorterAfterLearning() throws {
        var session = try Self.session(learn: true, orderByFrequency: true)
        let initial = session.currentStructure()
        let before = try #require(Self.selectSteps(of: "k15", session))
        let pressesBefore = try Self.select("k15", in: &session)
        #expect(session.state["last"] == .string("K15"))
        for _ in 1..<20 {
            try Self.select("k15", in: &session)
            // No calm point yet: the structure the user is scanning stays as it was.
            #expect(session.currentStructure() == initial)
        }
        try Self.select("go", in: &session)
        try Self.select("back", in: &session)
        #expect(session.screen == "keys")
        let after = try #require(Self.selectSteps(of: "k15", session))
        #expect(after < before, "k15: \(before) steps before learning, \(after) after")
        #expect(try Self.select("k15", in: &session) < pressesBefore)
        // Only ids and counts, per screen: k15 counted 21 times (decayed), go once.
        let counts = try #require(session.selections.screens["keys"])
        #expect(Set(counts.keys) == ["k15", "go"])
        #expect(counts["k15"]! > 20 && counts["k15"]! < 21)
    }

    @Test func withLearningOffNothingIsCountedAndTheStructureStays() throws {
        var session = try Self.session(learn: false)
        let initial = session.currentStructure()
        for _ in 0..<10 { try Self.select("k15", in: &session) }
        try Self.select("go", in: &session)
        try Self.select("back", in: &session)
        #expect(session.selections.screens.isEmpty)
        #expect(session.unsavedSelections.isEmpty)
        #expect(session.currentStructure() == initial)
    }

    @Test func orderByFrequencyPutsTheFrequentItemFirst() throws {
        var session = try Self.session(learn: true, orderByFrequency: true)
        for _ in 0..<10 { try Self.select("k15", in: &session) }
        try Self.select("go", in: &session)
        try Self.select("back", in: &session)
        let order = session.currentStructure().nodes.flatMap(\.items).map(\.id)
        #expect(order.first == "k15")
        // The rest keep their reading order (go was chosen once: second).
        #expect(Array(order.dropFirst(2)) == (1...16).map { "k\($0)" }.filter { $0 != "k15" })
        #expect(Self.selectSteps(of: "k15", session) == 2)
    }

    @Test func storedCountsAreUsedFromTheStartAndSelectionsWaitForTheHost() throws {
        var counts = SelectionCounts()
        for _ in 0..<30 { counts.record("k16", screen: "/scenes/learning.yaml#keys") }
        var learnt = ScanSession(scene: try Self.scene(), settings: try Self.settings(learn: true, orderByFrequency: true))
        learnt.useSelections(counts, scope: "/scenes/learning.yaml")
        _ = learnt.start()
        var fresh = try Self.session(learn: true)
        #expect(try #require(Self.selectSteps(of: "k16", learnt)) < (try #require(Self.selectSteps(of: "k16", fresh))))
        try Self.select("k2", in: &learnt)
        let unsaved = learnt.takeUnsavedSelections()
        #expect(unsaved.map(\.screen) == ["/scenes/learning.yaml#keys"])
        #expect(unsaved.map(\.id) == ["k2"])
        #expect(learnt.unsavedSelections.isEmpty)
        // A session whose host does not store them keeps none waiting (a scripted test's).
        try Self.select("k2", in: &fresh)
        #expect(fresh.unsavedSelections.isEmpty)
        #expect(fresh.selections.screens["keys"]?["k2"] != nil)
    }

    @Test func whenAutoScanningStopsByItselfTheNewWeightsApply() throws {
        // One screen, auto scanning: the selections apply once the loops run out (the highlight
        // is hidden), not while the user scans.
        var settings = try Self.settings(learn: true, orderByFrequency: true)
        try settings.set("scanning", .string("auto"))
        try settings.set("loops", .number(1))
        var session = ScanSession(scene: try Self.scene(), settings: settings)
        session.useSelections(SelectionCounts(), scope: "", stored: false)
        _ = session.start()
        let initial = session.currentStructure()
        // Select k15's row, then k15, the auto way: wait until highlighted, then select.
        let path = try #require(Self.path(to: "k15", in: initial.nodes))
        for node in path {
            var waited = 0
            while session.focusID != node.id {
                _ = session.advance(to: session.time + 0.5)
                waited += 1
                try #require(waited < 200)
            }
            Self.press(&session, .select)
        }
        #expect(session.state["last"] == .string("K15"))
        #expect(session.currentStructure() == initial)
        #expect(session.isScanning)
        var waited = 0
        while session.isScanning {
            _ = session.advance(to: session.time + 0.5)
            waited += 1
            try #require(waited < 400)
        }
        #expect(session.focusID == nil)
        #expect(session.currentStructure().nodes.flatMap(\.items).first?.id == "k15")
        // Any switch starts again from the top: on k15's new place.
        Self.press(&session, .select)
        #expect(session.isScanning)
        #expect(session.focusID.map { Self.path(to: "k15", in: session.currentStructure().nodes)?.first?.id == $0 } == true)
    }

    @Test func withoutAHostAskingNothingIsLearntWhateverTheSetting() throws {
        // A benchmark's or switchscan cost's session: learnSelections is on by default, but
        // nothing asked for learning, so the plain grouping stays.
        var session = try Self.session(learn: true, host: false)
        let initial = session.currentStructure()
        for _ in 0..<10 { try Self.select("k15", in: &session) }
        try Self.select("go", in: &session)
        try Self.select("back", in: &session)
        #expect(session.selections.screens.isEmpty)
        #expect(session.currentStructure() == initial)
    }
}
