import AccessibilityModel
import LiveTree
import Testing

/// The window the design notes measured under GTK 4.8: three buttons, a slider, a check box.
private func demoWindow(checked: Bool = false, sliderIncrement: Double = 0) -> AccessibleNode {
    func button(_ n: Int) -> AccessibleNode {
        AccessibleNode(
            id: ":1.5/button\(n)", role: "push button", name: "Button \(n)",
            extents: Rect(x: 10, y: 10 + 40 * Double(n), width: 100, height: 30), actions: ["click"],
            children: [AccessibleNode(id: ":1.5/button\(n)/label", role: "label", name: "Button \(n)")])
    }
    var checkStates: AccessibleStates = [.enabled, .sensitive, .visible]
    if checked { checkStates.insert(.checked) }
    return AccessibleNode(
        id: ":1.5/frame", role: "frame", name: "Demo", states: [.enabled, .sensitive, .visible, .active],
        extents: Rect(x: 0, y: 0, width: 300, height: 400), actions: ["window.close", "default.activate"],
        children: [AccessibleNode(
            id: ":1.5/panel", role: "panel",
            children: [
                button(0), button(1), button(2),
                AccessibleNode(
                    id: ":1.5/slider", role: "slider", name: "Volume", description: "Loudness of the speaker",
                    extents: Rect(x: 10, y: 130, width: 200, height: 20), actions: ["activate"],
                    value: AccessibleValue(current: 50, minimum: 0, maximum: 100, minimumIncrement: sliderIncrement)),
                AccessibleNode(
                    id: ":1.5/wifi", role: "check box", name: "Wi-Fi", states: checkStates,
                    extents: Rect(x: 10, y: 160, width: 80, height: 20),
                    children: [AccessibleNode(id: ":1.5/wifi/label", role: "label", name: "Wi-Fi")]),
            ])])
}

@Suite("AT-SPI objects to elements")
struct AccessibleMappingTests {
    @Test("a window scans its buttons, slider and check box in reading order, labels from names")
    func scanOrder() {
        let screen = AccessibleMapping.screen(of: demoWindow())
        #expect(screen.name == "Demo")
        #expect(screen.scanItems().map(\.label) == ["Button 0", "Button 1", "Button 2", "Volume", "Wi-Fi"])
        #expect(screen.scanItems().map(\.id) == [":1.5/button0", ":1.5/button1", ":1.5/button2", ":1.5/slider", ":1.5/wifi"])
    }

    @Test("a name change updates one node in place: its label changes, its children and the other items stay")
    func updateInPlace() {
        var window = demoWindow()
        let renamed = AccessibleNode(
            id: ":1.5/button1", role: "push button", name: "Send", states: [.visible],
            extents: Rect(x: 10, y: 50, width: 100, height: 30), actions: ["click"])
        let found = window.updateProperties(of: ":1.5/button1", from: renamed)
        let missing = window.updateProperties(of: ":1.5/gone", from: renamed)
        #expect(found)
        #expect(!missing)
        #expect(window.node(withID: ":1.5/button1")?.children.map(\.id) == [":1.5/button1/label"])
        let items = AccessibleMapping.screen(of: window).scanItems()
        #expect(items.map(\.label) == ["Button 0", "Send", "Button 2", "Volume", "Wi-Fi"])
        // Neither sensitive nor enabled any more: not enabled, as a full read would map it.
        #expect(items[1].traits.contains(.notEnabled))
    }

    @Test("objects off screen (GTK 3 gives them x = y = G_MININT) have no frame: a list scans from its first row")
    func offScreenRows() {
        let rows = (0..<40).map { n in
            AccessibleNode(id: ":1.0/row\(n)", role: "list item",
                           extents: n < 29 ? Rect(x: 0, y: 21 * Double(n), width: 400, height: 21)
                                           : Rect(x: -2_147_483_648, y: -2_147_483_648, width: 400, height: 21),
                           children: [AccessibleNode(id: ":1.0/label\(n)", role: "label", name: "Row \(n)")])
        }
        let window = AccessibleNode(id: ":1.0/window", role: "frame", name: "Long list",
                                    extents: Rect(x: 0, y: 0, width: 400, height: 600),
                                    children: [AccessibleNode(id: ":1.0/list", role: "list box", extents: Rect(x: 0, y: 0, width: 400, height: 840), children: rows)])
        let items = AccessibleMapping.screen(of: window).scanItems()
        #expect(items.map(\.label) == (0..<40).map { "Row \($0)" })
        #expect(items[29].frame == nil)
        #expect(items[28].frame == Rect(x: 0, y: 588, width: 400, height: 21))
    }

    @Test("a relayout's changes in one walk: each node found is updated; a container that moved is named, one only resized is not")
    func updateManyInPlace() {
        var window = demoWindow()
        func properties(_ id: String, _ name: String, _ frame: Rect) -> AccessibleNode {
            AccessibleNode(id: id, role: "push button", name: name, extents: frame, actions: ["click"])
        }
        // Button 0 grows (same origin), Button 2 moves down; a label (no children) moves too.
        let result = window.updateProperties(from: [
            ":1.5/button0": properties(":1.5/button0", "Button 0", Rect(x: 10, y: 10, width: 140, height: 30)),
            ":1.5/button2": properties(":1.5/button2", "Button 2", Rect(x: 10, y: 130, width: 100, height: 30)),
            ":1.5/button1/label": AccessibleNode(id: ":1.5/button1/label", role: "label", name: "One", extents: Rect(x: 12, y: 52, width: 20, height: 10)),
            ":1.5/gone": properties(":1.5/gone", "Gone", Rect(x: 0, y: 0, width: 1, height: 1)),
        ])
        #expect(result.found == [":1.5/button0", ":1.5/button2", ":1.5/button1/label"])
        #expect(result.movedContainers == [":1.5/button2"])
        #expect(window.node(withID: ":1.5/button0")?.extents?.width == 140)
        #expect(window.node(withID: ":1.5/button2")?.children.map(\.id) == [":1.5/button2/label"])
        #expect(window.node(withID: ":1.5/button1/label")?.name == "One")
    }

    @Test("roles and states give traits: button, adjustable, selected when checked, not enabled when insensitive")
    func traits() {
        let items = AccessibleMapping.screen(of: demoWindow(checked: true)).scanItems()
        #expect(items[0].traits == .button)
        #expect(items[3].traits == .adjustable)
        #expect(items[4].traits == [.button, .selected])
        var dimmed = AccessibleNode(id: "x", role: "push button", name: "Send", states: [.visible], actions: ["click"])
        #expect(AccessibleMapping.element(dimmed).traits == [.button, .notEnabled])
        dimmed.states = [.visible, .enabled, .sensitive, .pressed]
        #expect(AccessibleMapping.element(dimmed).traits == [.button, .selected])
        #expect(AccessibleMapping.element(AccessibleNode(id: "h", role: "heading", name: "Network")).traits == .header)
        #expect(AccessibleMapping.element(AccessibleNode(id: "l", role: "label", name: "Hello")).traits == .staticText)
        #expect(AccessibleMapping.element(AccessibleNode(id: "i", role: "image", name: "Logo")).traits == .image)
        #expect(AccessibleMapping.element(AccessibleNode(id: "a", role: "link", name: "Help", actions: ["jump"])).traits == .link)
    }

    @Test("description is the hint, the Value interface the value")
    func hintAndValue() {
        let slider = AccessibleMapping.screen(of: demoWindow()).scanItems()[3]
        #expect(slider.hint == "Loudness of the speaker")
        #expect(slider.value == "50")
    }

    @Test("the default action is the tap; other named actions are custom actions")
    func actions() {
        let node = AccessibleNode(id: "r", role: "list item", name: "Mail", actions: ["expand", "activate", "delete"])
        #expect(AccessibleMapping.tapAction(of: node) == "activate")
        #expect(AccessibleMapping.element(node).customActions.map(\.name) == ["expand", "delete"])
        #expect(AccessibleMapping.tapAction(of: AccessibleNode(id: "c", role: "check box", name: "Wi-Fi")) == nil)
    }

    @Test("the step is the minimum increment, else a tenth of the range (GTK 4.8 reports 0)")
    func step() {
        #expect(AccessibleValue(current: 50, minimum: 0, maximum: 100, minimumIncrement: 0).step == 10)
        #expect(AccessibleValue(current: 50, minimum: 0, maximum: 100, minimumIncrement: 5).step == 5)
        #expect(AccessibleValue(current: 95, minimum: 0, maximum: 100, minimumIncrement: 0).stepped(by: 1) == 100)
        #expect(AccessibleValue(current: 0, minimum: 0, maximum: 0, minimumIncrement: .nan).step == 1)
    }

    @Test("VISIBLE decides presence (SHOWING is ignored: GTK 4.8 clears it on screen); MODAL makes a modal view")
    func presenceAndModal() {
        let hidden = AccessibleNode(id: "h", role: "push button", name: "Hidden", states: [.enabled, .sensitive], actions: ["click"])
        let shownNotShowing = AccessibleNode(id: "s", role: "push button", name: "Shown", states: [.enabled, .sensitive, .visible], actions: ["click"])
        let dialog = AccessibleNode(
            id: "d", role: "dialog", name: "Confirm", states: [.visible, .modal],
            children: [AccessibleNode(id: "ok", role: "push button", name: "OK", actions: ["click"])])
        let window = AccessibleNode(id: "w", role: "frame", name: "Main", children: [hidden, shownNotShowing, dialog])
        #expect(AccessibleMapping.screen(of: window).scanItems().map(\.label) == ["OK"])
        let withoutDialog = AccessibleNode(id: "w", role: "frame", name: "Main", children: [hidden, shownNotShowing])
        #expect(AccessibleMapping.screen(of: withoutDialog).scanItems().map(\.label) == ["Shown"])
    }

    @Test("a button with no name of its own reads its children's text; containers hold their children")
    func namesAndContainers() {
        let button = AccessibleNode(
            id: "b", role: "push button", actions: ["click"],
            children: [AccessibleNode(id: "b/l", role: "label", name: "Save")])
        let toolbar = AccessibleNode(id: "t", role: "tool bar", children: [button])
        let element = AccessibleMapping.element(toolbar)
        #expect(element.isAccessibilityElementDeclared == false)
        #expect(element.children.map(\.label) == ["Save"])
        #expect(element.children[0].children.isEmpty)
    }

    @Test("a text field is an item whose hint says that select gives it the focus")
    func textField() {
        let field = AccessibleNode(id: "e", role: "text", name: "Name", states: [.enabled, .sensitive, .visible, .editable])
        #expect(AccessibleMapping.isTextField(field))
        #expect(AccessibleMapping.element(field).hint == "text field: select gives it the keyboard focus")
    }
}
