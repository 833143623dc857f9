import AccessibilityModel
import Scanning
import Testing

// A live application changes its window by itself (a browser many times a second): the
// engine, on a manual clock, keeps the user's place, step and menu through those changes.

private func button(_ id: String, label: String? = nil, x: Double = 0) -> ScanNode {
    .item(Element(id: id, label: label ?? id.capitalized, traits: [.button], frame: Rect(x: x, y: 0, width: 40, height: 40)))
}

private func scanner(_ scanning: ScanSettings.Style) -> ScanningEngine {
    var settings = ScanSettings()
    settings.scanning = scanning
    return ScanningEngine(settings: settings)
}

@Suite("Scanning engine: changes the application makes by itself")
struct ApplicationChangeTests {
    private let page = ScanStructure(nodes: [button("a", x: 0), button("b", x: 50), button("c", x: 100)])

    @Test("layout changes that leave the highlighted item alone neither show it again nor restart its step")
    func stepGoesOn() {
        var engine = scanner(.auto)
        let first = engine.handle(.structureChanged(page, .initial, time: 0))
        let step = first.compactMap { if case .schedule(.advance, let at) = $0 { return at } else { return nil } }.first
        #expect(step != nil)
        // Twenty changes a second elsewhere on the page, for longer than the step.
        var time = 0.05
        while time < (step ?? 1) {
            let other = ScanStructure(nodes: [button("a", x: 0), button("b", label: "B \(time)", x: 50), button("c", x: 100)])
            #expect(engine.handle(.structureChanged(other, .layoutChanged(focus: nil), time: time)) == [])
            time += 0.05
        }
        // The highlighted item's own label changed: shown again, its step not restarted.
        let renamed = ScanStructure(nodes: [button("a", label: "Renamed", x: 0), button("b", x: 50), button("c", x: 100)])
        let shown = engine.handle(.structureChanged(renamed, .layoutChanged(focus: nil), time: time))
        #expect(shown.count == 1)
        #expect(engine.highlight.focusID == "a")
        #expect(!shown.contains { if case .schedule = $0 { return true } else { return false } })
        _ = engine.handle(.timerFired(.advance, time: step ?? 1))
        #expect(engine.highlight.focusID == "b")
    }

    @Test("a scanner menu stays open through layout changes while its item is there, and closes when it goes")
    func menuStaysOpen() {
        var engine = scanner(.manual)
        _ = engine.handle(.structureChanged(page, .initial, time: 0))
        _ = engine.handle(.began(.select, time: 1))
        #expect(engine.menu != nil)
        let changed = ScanStructure(nodes: [button("a", x: 0), button("b", x: 50), button("c", x: 100), button("d", x: 150)])
        let kept = engine.handle(.structureChanged(changed, .layoutChanged(focus: nil), time: 1.07))
        #expect(!kept.contains(.menuClosed))
        #expect(engine.menu != nil)
        let without = ScanStructure(nodes: [button("b", x: 50), button("c", x: 100)])
        #expect(engine.handle(.structureChanged(without, .layoutChanged(focus: nil), time: 2)).contains(.menuClosed))
        #expect(engine.menu == nil)
    }

    @Test("a layout change that puts the highlighted item into a group highlights the group, not the item inside it")
    func noGroupEntered() {
        var engine = scanner(.manual)
        _ = engine.handle(.structureChanged(page, .initial, time: 0))
        _ = engine.handle(.began(.next, time: 1))
        #expect(engine.highlight.focusID == "b")
        let grouped = ScanStructure(nodes: [.group(Element(id: "bar"), [button("a", x: 0), button("b", x: 50)]), button("c", x: 100)])
        _ = engine.handle(.structureChanged(grouped, .layoutChanged(focus: nil), time: 2))
        #expect(engine.highlight.focusID == "bar")
        // Inside the group the user entered, a new row keeps the highlight on the same item.
        _ = engine.handle(.began(.select, time: 3))
        _ = engine.handle(.began(.next, time: 4))
        #expect(engine.highlight.focusID == "b")
        let longer = ScanStructure(nodes: [.group(Element(id: "bar"), [button("a", x: 0), button("b", x: 50), button("e", x: 60)]), button("c", x: 100)])
        _ = engine.handle(.structureChanged(longer, .layoutChanged(focus: nil), time: 5))
        #expect(engine.highlight.focusID == "b")
    }
}
