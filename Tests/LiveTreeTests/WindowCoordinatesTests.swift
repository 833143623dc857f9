import AccessibilityModel
import LiveTree
import Testing

/// Frames from the extents the toolkits actually gave under Xvfb with openbox (Debian 12: Qt
/// 5.15.8, GTK 3.24, GTK 4.8), read with pyatspi in both coordinate types.
@Suite("Window and screen coordinates")
struct WindowCoordinatesTests {
    private func node(
        _ id: String, _ role: String, _ name: String = "", window: Rect?, screen: Rect?, children: [AccessibleNode] = []
    ) -> AccessibleNode {
        AccessibleNode(id: id, role: role, name: name, extents: window, screenExtents: screen,
                       actions: role == "push button" || role == "check box" || role == "menu item" ? ["Press"] : [],
                       children: children)
    }

    /// FeatherPad (Qt 5) under openbox: its window coordinates are nonsense (the frame's
    /// (0, -263, 1022, 1026) for a 700 × 500 window, a tab at y = -263 above the menu bar, a
    /// negative height), its screen coordinates right.
    private func featherPad() -> AccessibleNode {
        node(":1.9/frame", "frame", "Untitled", window: Rect(x: 0, y: -263, width: 1022, height: 1026),
             screen: Rect(x: 322, y: 263, width: 700, height: 500), children: [
                node(":1.9/menubar", "menu bar", window: Rect(x: 0, y: -263, width: 1022, height: 548),
                     screen: Rect(x: 322, y: 263, width: 700, height: 22), children: [
                        node(":1.9/file", "menu item", "File", window: Rect(x: 6, y: -257, width: 352, height: 542),
                             screen: Rect(x: 328, y: 263, width: 30, height: 22)),
                     ]),
                node(":1.9/toolbar", "tool bar", window: Rect(x: 0, y: 0, width: 700, height: 30),
                     screen: Rect(x: 322, y: 287, width: 700, height: 36), children: [
                        // The pair: window (72, 72, 33, -14) against screen (72, 26, 33, 32).
                        node(":1.9/save", "push button", "Save", window: Rect(x: 72, y: 72, width: 33, height: -14),
                             screen: Rect(x: 394, y: 289, width: 33, height: 32)),
                     ]),
                node(":1.9/tabs", "page tab list", window: Rect(x: 0, y: -263, width: 1022, height: 620),
                     screen: Rect(x: 322, y: 325, width: 700, height: 32), children: [
                        node(":1.9/tab", "page tab", "Untitled", window: Rect(x: 0, y: -263, width: 423, height: 620),
                             screen: Rect(x: 322, y: 325, width: 101, height: 32)),
                     ]),
                node(":1.9/bar", "panel", window: Rect(x: 0, y: -263, width: 1022, height: 998),
                     screen: Rect(x: 322, y: 710, width: 700, height: 25), children: [
                        node(":1.9/next", "push button", "Next", window: Rect(x: 560, y: 297, width: 346, height: 437),
                             screen: Rect(x: 882, y: 711, width: 24, height: 23)),
                        node(":1.9/case", "check box", "Match case", window: Rect(x: 620, y: 357, width: 346, height: 377),
                             screen: Rect(x: 942, y: 711, width: 24, height: 23)),
                        // Hidden: (0, 0, 0, 0) on the screen, (-322, -585, 322, 585) in the window.
                        node(":1.9/left", "push button", "Scroll Left", window: Rect(x: -322, y: -585, width: 322, height: 585),
                             screen: Rect(x: 0, y: 0, width: 0, height: 0)),
                     ]),
             ])
    }

    @Test("Qt 5's screen extents are used: reading order is the visual order, frames are on the window, and on the screen where the widgets are")
    func qtUsesScreenExtents() throws {
        let window = featherPad()
        let screen = AccessibleMapping.screen(of: window)
        let items = screen.scanItems()
        // In window coordinates the tab (y = -263) came before File (y = -257), and Save (negative
        // height: no frame) after everything.
        #expect(items.map(\.label) == ["File", "Save", "Untitled", "Next", "Match case"])
        #expect(items.first { $0.label == "Save" }?.frame == Rect(x: 72, y: 26, width: 33, height: 32))
        #expect(screen.root.frame == Rect(x: 0, y: 0, width: 700, height: 500))
        let coordinates = WindowCoordinates(window: window)
        for item in items {
            let reported = try #require(window.node(withID: item.id)?.screenExtents)
            #expect(coordinates.screenRect(of: try #require(item.frame)) == reported, "\(item.label ?? item.id)")
        }
        // A hidden button (no size on the screen) is not scanned.
        #expect(!items.contains { $0.label == "Scroll Left" })
    }

    @Test("Qt 5 under a window manager gives screen coordinates as window coordinates: frames are relative to the window's corner")
    func qtDemoMovedByWindowManager() throws {
        // qt5_demo.py placed by openbox at (512, 191): both kinds of extents say the same.
        let window = node(":1.7/demo", "filler", "Demo", window: Rect(x: 512, y: 191, width: 320, height: 400),
                          screen: Rect(x: 512, y: 191, width: 320, height: 400), children: [
                            node(":1.7/b0", "push button", "Button 0", window: Rect(x: 523, y: 202, width: 298, height: 25),
                                 screen: Rect(x: 523, y: 202, width: 298, height: 25)),
                          ])
        let button = try #require(AccessibleMapping.screen(of: window).scanItems().first)
        #expect(button.frame == Rect(x: 11, y: 11, width: 298, height: 25))
        #expect(WindowCoordinates(window: window).screenRect(of: try #require(button.frame)) == Rect(x: 523, y: 202, width: 298, height: 25))
    }

    @Test("GTK 3 under a window manager: window coordinates are the client area's, the window object sits on its decoration; both agree")
    func gtk3Decorated() throws {
        let window = node(":1.4/frame", "frame", "Demo", window: Rect(x: -1, y: -20, width: 322, height: 425),
                          screen: Rect(x: 0, y: 343, width: 322, height: 425), children: [
                            node(":1.4/filler", "filler", window: Rect(x: 0, y: 0, width: 320, height: 400),
                                 screen: Rect(x: 1, y: 363, width: 320, height: 400), children: [
                                    node(":1.4/b0", "push button", "Button 0", window: Rect(x: 0, y: 0, width: 320, height: 34),
                                         screen: Rect(x: 1, y: 363, width: 320, height: 34)),
                                    node(":1.4/b1", "push button", "Button 1", window: Rect(x: 0, y: 38, width: 320, height: 34),
                                         screen: Rect(x: 1, y: 401, width: 320, height: 34)),
                                 ]),
                          ])
        let coordinates = WindowCoordinates(window: window)
        let items = AccessibleMapping.screen(of: window).scanItems()
        #expect(items.map(\.label) == ["Button 0", "Button 1"])
        #expect(items.map(\.frame) == [Rect(x: 1, y: 20, width: 320, height: 34), Rect(x: 1, y: 58, width: 320, height: 34)])
        // Where the overlay draws: on the button, below the title bar (not on the decoration).
        #expect(coordinates.screenRect(of: try #require(items[0].frame)) == Rect(x: 1, y: 363, width: 320, height: 34))
        // Without screen extents the window coordinates, shifted the same way, give the same frame.
        var windowOnly = window
        windowOnly.screenExtents = nil
        windowOnly.children[0].children[1].screenExtents = nil
        #expect(WindowCoordinates(window: windowOnly).frame(of: windowOnly.children[0].children[1]) == Rect(x: 1, y: 58, width: 320, height: 34))
    }

    @Test("GTK 4 gives window coordinates for both: frames as given, the window at the screen's corner")
    func gtk4WindowCoordinatesOnly() throws {
        let window = node(":1.3/frame", "frame", "Demo", window: Rect(x: 0, y: 0, width: 320, height: 400),
                          screen: Rect(x: 0, y: 0, width: 320, height: 400), children: [
                            node(":1.3/b0", "push button", "Button 0", window: Rect(x: 17, y: 5, width: 286, height: 24),
                                 screen: Rect(x: 17, y: 5, width: 286, height: 24)),
                          ])
        let button = try #require(AccessibleMapping.screen(of: window).scanItems().first)
        #expect(button.frame == Rect(x: 17, y: 5, width: 286, height: 24))
        #expect(WindowCoordinates(window: window).screenRect(of: try #require(button.frame)) == Rect(x: 17, y: 5, width: 286, height: 24))
    }

    @Test("extents no screen has (G_MININT, negative or enormous sizes, not finite) give no frame")
    func unusableExtents() {
        let window = node(":1.2/w", "frame", window: Rect(x: 0, y: 0, width: 300, height: 300),
                          screen: Rect(x: 10, y: 10, width: 300, height: 300))
        let coordinates = WindowCoordinates(window: window)
        for bad in [Rect(x: -2_147_483_648, y: -2_147_483_648, width: 10, height: 10), Rect(x: 5, y: 5, width: 10, height: -14),
                    Rect(x: .nan, y: 5, width: 10, height: 10), Rect(x: 5, y: 5, width: .infinity, height: 10),
                    Rect(x: 5, y: 5, width: 1e12, height: 10)] {
            #expect(coordinates.frame(of: node(":1.2/x", "push button", window: bad, screen: bad)) == nil, "\(bad)")
        }
    }

    @Test("a window moved on the screen with its children unread is read again with its subtree")
    func movedWindowRereadsSubtree() {
        var window = featherPad()
        var moved = window
        moved.children = []
        moved.screenExtents = Rect(x: 100, y: 50, width: 700, height: 500)
        let result = window.updateProperties(from: [moved.id: moved])
        #expect(result.movedContainers == [moved.id])
    }

    @Test("a list whose size changed is read again with its rows (GTK 4.8 adds a row with no children-changed); another container only resized is not")
    func grownListRereadsRows() {
        let row = node(":1.6/row0", "list item", window: nil, screen: Rect(x: 0, y: 0, width: 200, height: 30),
                       children: [node(":1.6/row0/label", "label", "7×6", window: nil, screen: Rect(x: 0, y: 0, width: 50, height: 30))])
        var window = node(":1.6/w", "frame", window: Rect(x: 0, y: 0, width: 400, height: 400), screen: Rect(x: 0, y: 0, width: 400, height: 400), children: [
            node(":1.6/history", "list", window: nil, screen: Rect(x: 0, y: 0, width: 200, height: 30), children: [row]),
            node(":1.6/keys", "panel", window: nil, screen: Rect(x: 0, y: 100, width: 200, height: 30), children: [row]),
        ])
        var grown = window.children[0]
        grown.children = []
        grown.screenExtents = Rect(x: 0, y: 0, width: 200, height: 60)
        var resized = window.children[1]
        resized.children = []
        resized.screenExtents = Rect(x: 0, y: 100, width: 200, height: 60)
        let result = window.updateProperties(from: [grown.id: grown, resized.id: resized])
        #expect(result.found == [grown.id, resized.id])
        #expect(result.movedContainers == [grown.id])
    }
}
