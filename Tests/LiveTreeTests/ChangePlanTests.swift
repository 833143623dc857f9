import AccessibilityModel
import LiveTree
import Testing

/// A browser window as Firefox lays it out: its own toolbar, and two tabs' documents, the
/// first in the background (VISIBLE, not SHOWING), the second shown; a list on the shown page.
private func browserWindow(rows: Int = 2) -> AccessibleNode {
    let shown: AccessibleStates = [.enabled, .sensitive, .visible, .showing]
    func link(_ id: String, _ name: String, y: Double) -> AccessibleNode {
        AccessibleNode(id: id, role: "link", name: name, extents: Rect(x: 10, y: y, width: 80, height: 20), actions: ["jump"])
    }
    return AccessibleNode(
        id: ":1.9/frame", role: "frame", name: "Firefox", extents: Rect(x: 0, y: 0, width: 800, height: 600),
        children: [
            AccessibleNode(id: ":1.9/toolbar", role: "tool bar", children: [
                AccessibleNode(id: ":1.9/back", role: "push button", name: "Back",
                               extents: Rect(x: 0, y: 0, width: 30, height: 30), actions: ["press"]),
                AccessibleNode(id: ":1.9/scrollbar", role: "scroll bar", name: "",
                               extents: Rect(x: 0, y: 0, width: 0, height: 0)),
            ]),
            AccessibleNode(id: ":1.9/old", role: "document web", name: "Old page", states: [.enabled, .sensitive, .visible],
                           extents: Rect(x: 0, y: 40, width: 800, height: 560),
                           children: [link(":1.9/old/link", "Old link", y: 60)]),
            AccessibleNode(id: ":1.9/new", role: "document web", name: "New page", states: shown,
                           extents: Rect(x: 0, y: 40, width: 800, height: 560),
                           children: [
                               link(":1.9/new/link", "New link", y: 60),
                               AccessibleNode(id: ":1.9/new/list", role: "list", children: (0..<rows).map { row in
                                   AccessibleNode(id: ":1.9/new/row\(row)", role: "list item", name: "Row \(row)",
                                                  extents: Rect(x: 10, y: 100 + 30 * Double(row), width: 200, height: 25))
                               }),
                           ]),
        ])
}

@Suite("Which events read what")
struct ChangePlanTests {
    @Test("a burst of defunct events on objects not in the window (Firefox's) reads nothing and changes nothing")
    func defunctElsewhere() {
        let events = (0..<6).map { ChangeEvent(type: "object:state-changed:defunct", sourceID: ":1.9/gone\($0)") }
        let plan = ChangePlan.plan(events, in: browserWindow())
        #expect(plan.isEmpty)
        #expect(!plan.readWindow)
        #expect(plan.ignored == 6)
    }

    @Test("a defunct object in the window is taken out with its subtree, nothing read; the window never")
    func defunctInWindow() {
        let events = [
            ChangeEvent(type: "object:state-changed:defunct", sourceID: ":1.9/new/list"),
            ChangeEvent(type: "object:state-changed:defunct", sourceID: ":1.9/new/row1"),
            ChangeEvent(type: "object:property-change:accessible-name", sourceID: ":1.9/new/row0"),
            ChangeEvent(type: "object:state-changed:defunct", sourceID: ":1.9/back", detail1: 0),
        ]
        let plan = ChangePlan.plan(events, in: browserWindow())
        #expect(plan.removed == [":1.9/new/list"])
        #expect(plan.readInPlace.isEmpty)
        #expect(plan.readSubtrees.isEmpty)
        #expect(!plan.readWindow)
        var window = browserWindow()
        let removed = window.removeSubtree(":1.9/new/list")
        #expect(removed)
        #expect(AccessibleMapping.screen(of: window).scanItems().map(\.label) == ["Back", "New link"])
    }

    @Test("a children change reads that parent's subtree only: an appended row is scanned, the rest kept")
    func childrenChanged() {
        let events = [
            ChangeEvent(type: "object:children-changed:add", sourceID: ":1.9/new/list"),
            ChangeEvent(type: "object:children-changed:add", sourceID: ":1.9/new/list"),
            ChangeEvent(type: "object:property-change:accessible-name", sourceID: ":1.9/new/row0"),
            ChangeEvent(type: "object:property-change:accessible-name", sourceID: ":1.9/back"),
        ]
        let plan = ChangePlan.plan(events, in: browserWindow())
        #expect(plan.readSubtrees == [":1.9/new/list"])
        // Row 0 is read with its list; Back alone.
        #expect(plan.readInPlace == [":1.9/back"])
        #expect(!plan.readWindow)
        var window = browserWindow()
        let reread = browserWindow(rows: 3).node(withID: ":1.9/new/list")!
        let replaced = window.replaceSubtree(with: reread)
        #expect(replaced)
        #expect(AccessibleMapping.screen(of: window).scanItems().map(\.label) == ["Back", "New link", "Row 0", "Row 1", "Row 2"])
    }

    @Test("a subtree inside another read is read with it; the window's own children change reads the window")
    func nestedAndWindow() {
        let nested = ChangePlan.plan([
            ChangeEvent(type: "object:children-changed:add", sourceID: ":1.9/new/list"),
            ChangeEvent(type: "object:state-changed:showing", sourceID: ":1.9/new"),
        ], in: browserWindow())
        #expect(nested.readSubtrees == [":1.9/new"])
        let whole = ChangePlan.plan([ChangeEvent(type: "object:children-changed:add", sourceID: ":1.9/frame")], in: browserWindow())
        #expect(whole.readWindow)
        let noSource = ChangePlan.plan([ChangeEvent(type: "object:children-changed:add", sourceID: nil)], in: browserWindow())
        #expect(noSource.readWindow)
    }

    @Test("more sources than one by one is worth: the window is read whole")
    func tooMany() {
        let events = (0..<2).map { ChangeEvent(type: "object:bounds-changed", sourceID: ":1.9/new/row\($0)") }
        #expect(ChangePlan.plan(events, in: browserWindow(), mostSources: 1).readWindow)
        #expect(!ChangePlan.plan(events, in: browserWindow(), mostSources: 2).readWindow)
    }

    @Test("what is not showing is not scanned: a background tab's document, a zero-size scroll bar, a closed menu's items")
    func notShowing() {
        var window = browserWindow()
        window.children.append(AccessibleNode(
            id: ":1.9/menu", role: "menu", name: "File", states: [.enabled, .sensitive, .visible],
            children: [AccessibleNode(id: ":1.9/quit", role: "menu item", name: "Quit", states: [.enabled, .sensitive, .visible],
                                      extents: Rect(x: 0, y: 0, width: 50, height: 20), actions: ["click"])]))
        let labels = AccessibleMapping.screen(of: window).scanItems().map(\.label)
        #expect(labels == ["Back", "New link", "Row 0", "Row 1"])
        // The same tab brought to the front (SHOWING) is scanned.
        window.children[1].states.insert(.showing)
        #expect(AccessibleMapping.screen(of: window).scanItems().map(\.label).contains("Old link"))
    }

    @Test("a tab's container said hidden (showing cleared) hides the document inside, whose own states still say SHOWING")
    func hiddenByEvent() {
        var window = browserWindow()
        let plan = ChangePlan.plan([
            ChangeEvent(type: "object:state-changed:showing", sourceID: ":1.9/new", detail1: 0),
            ChangeEvent(type: "object:state-changed:showing", sourceID: ":1.9/elsewhere", detail1: 0),
        ], in: window)
        #expect(plan.showing == [ChangePlan.ShowingChange(id: ":1.9/new", isShown: false)])
        #expect(plan.readSubtrees == [":1.9/new"])
        window.hide(Set(plan.showing.filter { !$0.isShown }.map(\.id)))
        #expect(AccessibleMapping.screen(of: window).scanItems().map(\.label) == ["Back"])
    }

    @Test("the focus moving to an object never read (Chromium's tab brought to the front, with no other event) reads the window")
    func focusOnUnknown() {
        let focused = ChangePlan.plan([
            ChangeEvent(type: "object:state-changed:focused", sourceID: ":1.9/new", detail1: 0),
            ChangeEvent(type: "object:state-changed:focused", sourceID: ":1.9/other-tab", detail1: 1),
        ], in: browserWindow())
        #expect(focused.readWindow)
        let left = ChangePlan.plan([ChangeEvent(type: "object:state-changed:focused", sourceID: ":1.9/other-tab", detail1: 0)], in: browserWindow())
        #expect(left.isEmpty)
    }
}
