import AccessibilityModel
import LiveTree
import Testing

/// A GTK 3 window as galculator publishes it: a menu bar with File and View (each a `menu`
/// holding its items, VISIBLE always, SHOWING only while popped up) above a keypad.
private func calculatorWindow(viewOpen: Bool = false, submenuOpen: Bool = false) -> AccessibleNode {
    let closed: AccessibleStates = [.enabled, .sensitive, .visible]
    func item(_ id: String, _ name: String, role: String = "menu item", shown: Bool, y: Double) -> AccessibleNode {
        AccessibleNode(
            id: ":1.2/\(id)", role: role, name: name, states: shown ? closed.union(.showing) : closed,
            extents: shown ? Rect(x: 40, y: y, width: 120, height: 20) : nil, actions: ["click"])
    }
    var units = AccessibleNode(
        id: ":1.2/units", role: "menu", name: "Units", states: viewOpen ? closed.union(.showing) : closed, actions: ["click"],
        children: [item("degrees", "Degrees", role: "radio menu item", shown: submenuOpen, y: 100)])
    units.extents = viewOpen ? Rect(x: 40, y: 80, width: 120, height: 20) : nil
    return AccessibleNode(
        id: ":1.2/frame", role: "frame", name: "galculator", states: closed.union([.showing, .active]),
        extents: Rect(x: 0, y: 0, width: 300, height: 300),
        children: [
            AccessibleNode(
                id: ":1.2/menubar", role: "menu bar",
                extents: Rect(x: 0, y: 0, width: 300, height: 20),
                children: [
                    AccessibleNode(
                        id: ":1.2/file", role: "menu", name: "File", extents: Rect(x: 0, y: 0, width: 40, height: 20), actions: ["click"],
                        children: [item("quit", "Quit", shown: false, y: 20)]),
                    AccessibleNode(
                        id: ":1.2/view", role: "menu", name: "View", extents: Rect(x: 40, y: 0, width: 40, height: 20), actions: ["click"],
                        children: [
                            item("basic", "Basic mode", role: "radio menu item", shown: viewOpen, y: 20),
                            item("scientific", "Scientific mode", role: "radio menu item", shown: viewOpen, y: 40),
                            AccessibleNode(id: ":1.2/separator", role: "separator", states: viewOpen ? closed.union(.showing) : closed),
                            units,
                        ]),
                ]),
            AccessibleNode(
                id: ":1.2/seven", role: "push button", name: "7", extents: Rect(x: 0, y: 100, width: 40, height: 40), actions: ["click"]),
            AccessibleNode(
                id: ":1.2/eight", role: "push button", name: "8", extents: Rect(x: 40, y: 100, width: 40, height: 40), actions: ["click"]),
        ])
}

@Suite("Menus and combo boxes: closed popups not scanned, an open one a modal level")
struct PopupTests {
    @Test("a menu bar's menus are items; the items of closed menus (Quit) are not scanned")
    func closedMenus() {
        let screen = AccessibleMapping.screen(of: calculatorWindow())
        #expect(screen.scanItems().map(\.label) == ["File", "View", "7", "8"])
        let view = screen.scanItems().first { $0.label == "View" }
        #expect(view?.traits.contains(.button) == true)
        #expect(view?.frame == Rect(x: 40, y: 0, width: 40, height: 20))
        #expect(Popups.openPopup(in: calculatorWindow()) == nil)
    }

    @Test("an open menu is a modal level: only its items are scanned, and escape is handled there")
    func openMenu() throws {
        let window = calculatorWindow(viewOpen: true)
        #expect(Popups.openPopup(in: window)?.id == ":1.2/view")
        let screen = AccessibleMapping.screen(of: window)
        #expect(screen.scanItems().map(\.label) == ["Basic mode", "Scientific mode", "Units"])
        let level = try #require(screen.root.children.last)
        #expect(level.id == ":1.2/view" + Popups.levelSuffix)
        #expect(level.accessibilityViewIsModal)
        #expect(level.escape != nil)
        #expect(Popups.openerID(ofLevel: level.id) == ":1.2/view")
        // The window's own items are still in the tree, under the level: the menu closed, the
        // scan is back on them.
        #expect(AccessibleMapping.screen(of: calculatorWindow()).scanItems().count == 4)
    }

    @Test("a submenu opened from an open menu is the level, not the menu that holds it")
    func openSubmenu() {
        let window = calculatorWindow(viewOpen: true, submenuOpen: true)
        #expect(Popups.openPopup(in: window)?.id == ":1.2/units")
        #expect(AccessibleMapping.screen(of: window).scanItems().map(\.label) == ["Degrees"])
    }

    @Test("a web <select>: one item while closed (its chosen option showing); expanded, its options (under a menu) are the level")
    func webSelect() {
        func page(expanded: Bool, menuShowsWhileClosed: Bool = false) -> AccessibleNode {
            var states: AccessibleStates = [.enabled, .sensitive, .visible, .showing, .expandable]
            if expanded { states.insert(.expanded) }
            // Chromium: the chosen option SHOWING while the popup is closed, all of them once open.
            let options = ["Apple", "Banana", "Cherry"].enumerated().map { index, name in
                AccessibleNode(
                    id: ":1.5/option\(index)", role: "menu item", name: name,
                    states: (index == 0 || expanded ? AccessibleStates([.enabled, .sensitive, .visible, .showing]) : [.enabled, .sensitive])
                        .union(index == 0 ? AccessibleStates.selected : []),
                    actions: ["select"])
            }
            return AccessibleNode(
                id: ":1.5/document", role: "document web", name: "Page",
                children: [
                    AccessibleNode(id: ":1.5/link", role: "link", name: "Next section", actions: ["jump"]),
                    AccessibleNode(
                        id: ":1.5/fruit", role: "combo box", name: "Fruit", states: states, actions: ["open"],
                        children: [AccessibleNode(
                            id: ":1.5/menu", role: "menu", states: expanded || menuShowsWhileClosed ? [.enabled, .visible, .showing] : [.enabled],
                            children: options)]),
                ])
        }
        // Firefox ESR keeps the closed <select>'s menu VISIBLE and SHOWING: closed all the same
        // (not EXPANDED), one item; the window was once scanned as that popup, its chosen option alone.
        #expect(AccessibleMapping.screen(of: page(expanded: false, menuShowsWhileClosed: true)).scanItems().map(\.label) == ["Next section", "Fruit"])
        #expect(AccessibleMapping.screen(of: page(expanded: true, menuShowsWhileClosed: true)).scanItems().map(\.label) == ["Apple", "Banana", "Cherry"])
        // Chromium's open one as the scanner's libatspi may read it: not EXPANDED, its menu
        // SHOWING as an event said; open.
        var unsaid = page(expanded: true)
        unsaid.children[1].states.remove(.expanded)
        #expect(AccessibleMapping.screen(of: unsaid).scanItems().map(\.label) == ["Next section", "Fruit"])
        #expect(Popups.expandedOpeners(shown: [], in: unsaid).isEmpty)
        #expect(Popups.expandedOpeners(shown: [":1.5/link"], in: unsaid).isEmpty)
        unsaid.markExpanded(Popups.expandedOpeners(shown: [":1.5/menu"], in: unsaid))
        #expect(AccessibleMapping.screen(of: unsaid).scanItems().map(\.label) == ["Apple", "Banana", "Cherry"])
        #expect(AccessibleMapping.screen(of: page(expanded: false)).scanItems().map(\.label) == ["Next section", "Fruit"])
        // The combo box says its chosen option (SELECTED), as Orca does.
        #expect(AccessibleMapping.screen(of: page(expanded: false)).scanItems().last?.value == "Apple")
        let open = AccessibleMapping.screen(of: page(expanded: true))
        #expect(open.scanItems().map(\.label) == ["Apple", "Banana", "Cherry"])
        #expect(open.scanItems().map(\.id) == [":1.5/option0", ":1.5/option1", ":1.5/option2"])
    }

    @Test("a web <select> in Firefox ESR 153: its menu SHOWING while closed (the chosen option shows in it); closed, one item, the page scanned")
    func firefoxClosedSelect() {
        func page(expanded: Bool) -> AccessibleNode {
            var states: AccessibleStates = [.enabled, .sensitive, .visible, .showing, .expandable]
            if expanded { states.insert(.expanded) }
            let shown: AccessibleStates = [.enabled, .sensitive, .visible, .showing]
            let options = ["Apple", "Banana"].enumerated().map { index, name in
                AccessibleNode(
                    id: ":1.3/option\(index)", role: "menu item", name: name,
                    states: index == 0 || expanded ? shown.union(index == 0 ? .selected : []) : [.enabled, .sensitive, .visible],
                    actions: ["select"])
            }
            return AccessibleNode(
                id: ":1.3/document", role: "document web", name: "Widgets", states: shown,
                children: [
                    AccessibleNode(id: ":1.3/link", role: "link", name: "Next section", states: shown, actions: ["jump"]),
                    AccessibleNode(
                        id: ":1.3/fruit", role: "combo box", name: "Fruit", states: states, actions: ["open"],
                        children: [AccessibleNode(id: ":1.3/menu", role: "menu", states: shown, children: options)]),
                ])
        }
        // Before, the closed select was taken for an open popup: the page read as one item, Apple.
        #expect(AccessibleMapping.screen(of: page(expanded: false)).scanItems().map(\.label) == ["Next section", "Fruit"])
        #expect(AccessibleMapping.screen(of: page(expanded: true)).scanItems().map(\.label) == ["Apple", "Banana"])
    }

    @Test("Qt: a menu bar entry holding a popup menu is one item; the popup SHOWING is the level, its items only")
    func qtMenu() {
        func editor(open: Bool) -> AccessibleNode {
            let shown: AccessibleStates = open ? [.enabled, .sensitive, .visible, .showing] : [.enabled, .sensitive]
            func entry(_ id: String, _ name: String, y: Double) -> AccessibleNode {
                AccessibleNode(id: ":1.9/\(id)", role: "menu item", name: name, states: shown, extents: Rect(x: 80, y: y, width: 150, height: 20), actions: ["Press"])
            }
            return AccessibleNode(
                id: ":1.9/frame", role: "frame", name: "Untitled",
                children: [
                    AccessibleNode(
                        id: ":1.9/menubar", role: "menu bar",
                        children: [AccessibleNode(
                            id: ":1.9/options", role: "menu item", name: "Options", extents: Rect(x: 80, y: 0, width: 60, height: 20), actions: ["ShowMenu"],
                            children: [AccessibleNode(
                                id: ":1.9/popup", role: "popup menu", states: shown,
                                children: [entry("lines", "Line Numbers", y: 20), entry("wrap", "Wrap Lines", y: 40)])])]),
                    AccessibleNode(id: ":1.9/text", role: "text", name: "Document", extents: Rect(x: 0, y: 30, width: 400, height: 300)),
                ])
        }
        #expect(AccessibleMapping.screen(of: editor(open: false)).scanItems().map(\.label) == ["Options", "Document"])
        #expect(Popups.openPopup(in: editor(open: true))?.id == ":1.9/options")
        #expect(AccessibleMapping.screen(of: editor(open: true)).scanItems().map(\.label) == ["Line Numbers", "Wrap Lines"])
    }
}
