import AccessibilityModel
import LiveTree
import Testing

/// Mousepad's preferences dialog as GTK 3 gives it (read with pyatspi): a notebook whose tabs
/// have no action and each hold their page; every page VISIBLE, only the selected tab's SHOWING.
private func notebookDialog(selected: String) -> AccessibleNode {
    let shown: AccessibleStates = [.enabled, .sensitive, .visible, .showing]
    func tab(_ name: String, check: String, at x: Double) -> AccessibleNode {
        let isSelected = name == selected
        return AccessibleNode(
            id: ":1.7/tab/\(name)", role: "page tab", name: name,
            states: isSelected ? shown.union(.selected) : shown, extents: Rect(x: x, y: 10, width: 60, height: 24),
            children: [AccessibleNode(
                id: ":1.7/page/\(name)", role: "filler", states: isSelected ? shown : [.enabled, .sensitive, .visible],
                extents: Rect(x: 0, y: 40, width: 400, height: 300),
                children: [AccessibleNode(
                    id: ":1.7/check/\(name)", role: "check box", name: check,
                    states: isSelected ? shown : [.enabled, .sensitive, .visible],
                    extents: Rect(x: 10, y: 50, width: 200, height: 20), actions: ["click"])])])
    }
    return AccessibleNode(
        id: ":1.7/dialog", role: "dialog", name: "Mousepad Preferences", extents: Rect(x: 0, y: 0, width: 400, height: 400),
        children: [AccessibleNode(
            id: ":1.7/notebook", role: "page tab list", extents: Rect(x: 0, y: 0, width: 400, height: 400),
            children: [tab("View", check: "Show line numbers", at: 0), tab("Editor", check: "Enable automatic indentation", at: 70)])])
}

@Suite("Tab lists")
struct TabListTests {
    @Test("a GTK 3 notebook: its tabs are items, and the selected tab's page is scanned after them (only that page)")
    func notebookPages() {
        let view = AccessibleMapping.screen(of: notebookDialog(selected: "View")).scanItems()
        #expect(view.map(\.label) == ["View", "Editor", "Show line numbers"])
        #expect(view[0].traits.contains(.selected) && !view[1].traits.contains(.selected))
        let editor = AccessibleMapping.screen(of: notebookDialog(selected: "Editor")).scanItems()
        #expect(editor.map(\.label) == ["View", "Editor", "Enable automatic indentation"])
    }

    @Test("a page tab without an action is selected through its tab list; a browser's tab by its own action")
    func tabTap() throws {
        let gtkTab = try #require(notebookDialog(selected: "View").node(withID: ":1.7/tab/Editor"))
        #expect(AccessibleMapping.selectsThroughTabList(gtkTab))
        let firefoxTab = AccessibleNode(id: ":1.9/tab", role: "page tab", name: "Controls", actions: ["switch"],
                                        children: [AccessibleNode(id: ":1.9/close", role: "push button", name: "Close tab", actions: ["click"])])
        let chromiumTab = AccessibleNode(id: ":1.8/tab", role: "page tab", name: "Controls", actions: ["doDefault", "showContextMenu"])
        #expect(!AccessibleMapping.selectsThroughTabList(firefoxTab))
        #expect(!AccessibleMapping.selectsThroughTabList(chromiumTab))
        #expect(AccessibleMapping.tapAction(of: firefoxTab) == "switch" && AccessibleMapping.tapAction(of: chromiumTab) == "doDefault")
        // A browser's tab holds no page: it is one item, its close button part of it.
        let strip = AccessibleNode(id: ":1.9/strip", role: "page tab list", children: [firefoxTab])
        #expect(AccessibleMapping.element(strip).children.map(\.id) == [":1.9/tab"])
    }
}
