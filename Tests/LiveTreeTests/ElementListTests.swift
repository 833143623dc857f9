import AccessibilityModel
import LiveTree
import Testing

/// A browser window as Firefox publishes it: tool bar, then a document (scrolled: its extents
/// are the part shown, 500 high) holding a heading and `links` links 30 apart; a background
/// tab's document (not SHOWING) holds a link of its own.
private func browserWindow(links: Int, scrolledBy: Double = 0) -> AccessibleNode {
    let shown: AccessibleStates = [.enabled, .sensitive, .visible, .showing]
    var items = [AccessibleNode(id: ":1.9/h1", role: "heading", name: "A page of links", states: shown,
                                extents: Rect(x: 10, y: 110 - scrolledBy, width: 300, height: 30))]
    for number in 1...links {
        items.append(AccessibleNode(id: ":1.9/link\(number)", role: "link", name: "Link \(number)", states: shown,
                                    extents: Rect(x: 10, y: 140 + Double(number) * 30 - scrolledBy, width: 80, height: 20),
                                    actions: ["jump"]))
    }
    items.append(AccessibleNode(id: ":1.9/name", role: "entry", name: "Name", states: shown.union(.editable),
                                extents: Rect(x: 10, y: 140 + Double(links + 1) * 30 - scrolledBy, width: 200, height: 20)))
    return AccessibleNode(
        id: ":1.9/frame", role: "frame", name: "Links", states: shown.union(.active),
        extents: Rect(x: 0, y: 0, width: 800, height: 600),
        children: [
            AccessibleNode(id: ":1.9/toolbar", role: "tool bar", states: shown, extents: Rect(x: 0, y: 0, width: 800, height: 100),
                           children: [AccessibleNode(id: ":1.9/back", role: "push button", name: "Back", states: shown,
                                                     extents: Rect(x: 0, y: 0, width: 40, height: 40), actions: ["press"])]),
            AccessibleNode(id: ":1.9/background", role: "document web", name: "Other tab", states: [.enabled, .visible],
                           extents: Rect(x: 0, y: 100, width: 800, height: 500),
                           children: [AccessibleNode(id: ":1.9/hidden", role: "link", name: "Hidden link", states: shown,
                                                     extents: Rect(x: 10, y: 120, width: 80, height: 20))]),
            AccessibleNode(id: ":1.9/document", role: "document web", name: "Links", states: shown,
                           extents: Rect(x: 0, y: 100, width: 800, height: 500), children: items),
        ])
}

/// Steps a user takes to reach `label` in `nodes` scanning item by item: at each level, a step
/// to each entry before the one holding it, and a select to enter it (or choose it).
private func steps(to label: String, in nodes: [ScanNode]) -> Int? {
    func holds(_ node: ScanNode) -> Bool {
        if case .group(_, let children) = node { return children.contains(where: holds) }
        return node.element.label == label
    }
    guard let index = nodes.firstIndex(where: holds) else { return nil }
    if case .group(_, let children) = nodes[index] {
        return steps(to: label, in: children).map { index + 1 + $0 }
    }
    return index + 1
}

@Suite("Element lists, viewport and the program menu (live desktop, pure)")
struct ElementListTests {
    @Test("the links of the page in front, in order; the background tab's are not listed")
    func linksInOrder() {
        let links = ElementList.items(of: .links, in: browserWindow(links: 150))
        #expect(links.count == 150)
        #expect(links.first?.label == "Link 1" && links.last?.label == "Link 150")
        #expect(!links.contains { $0.label == "Hidden link" })
        #expect(links.allSatisfy { $0.traits.contains(.link) })
        #expect(ElementList.items(of: .headings, in: browserWindow(links: 3)).map(\.label) == ["A page of links"])
        #expect(ElementList.items(of: .formFields, in: browserWindow(links: 3)).map(\.label) == ["Name"])
    }

    @Test("150 links are groups of at most 8 a level, named by their first and last; the 120th costs 17 steps, not 120")
    func groupsOfEight() throws {
        let nodes = ElementList.nodes(ElementList.items(of: .links, in: browserWindow(links: 150)))
        func check(_ level: [ScanNode]) {
            #expect(level.count <= ElementList.groupSize)
            for case .group(_, let children) in level { check(children) }
        }
        check(nodes)
        #expect(nodes.count == 3)
        #expect(nodes.map { $0.element.label } == ["Link 1 … Link 64", "Link 65 … Link 128", "Link 129 … Link 150"])
        let second = nodes[1].children
        #expect(second[6].element.label == "Link 113 … Link 120")
        // Two steps to the second group of groups, seven to the seventh group, eight to the item.
        #expect(try #require(steps(to: "Link 120", in: nodes)) == 17)
        // A list that fits one level is not grouped.
        #expect(ElementList.nodes(Array(ElementList.items(of: .links, in: browserWindow(links: 150)).prefix(8))).allSatisfy {
            if case .item = $0 { return true } else { return false }
        })
    }

    @Test("in view: inside the document's shown part; below it or above it after scrolling; no position: elsewhere")
    func viewport() {
        let window = browserWindow(links: 150)
        #expect(Viewport.place(of: ":1.9/link5", in: window) == .inView)
        #expect(Viewport.place(of: ":1.9/link120", in: window) == .below)
        let scrolled = browserWindow(links: 150, scrolledBy: 3_400)
        #expect(Viewport.place(of: ":1.9/link120", in: scrolled) == .inView)
        #expect(Viewport.place(of: ":1.9/link5", in: scrolled) == .above)
        // The tool bar is not in the document: the window's bounds alone hold it.
        #expect(Viewport.place(of: ":1.9/back", in: scrolled) == .inView)
        #expect(Viewport.place(of: ":1.9/missing", in: window) == nil)
        var gtk3Row = window
        gtk3Row.children[2].children[3].extents = Rect(x: -2_147_483_648, y: -2_147_483_648, width: 80, height: 20)
        #expect(Viewport.place(of: gtk3Row.children[2].children[3].id, in: gtk3Row) == .elsewhere)
        // What Scroll down and Scroll up bring into view.
        #expect(Viewport.items(.below, in: window).first == ":1.9/link16")
        #expect(Viewport.items(.above, in: window).isEmpty)
        #expect(Viewport.items(.above, in: scrolled).last == ":1.9/link111")
    }

    @Test("a window read with screen extents only (as the live run reads objects) is placed as one read in window coordinates, wherever the window is")
    func viewportFromScreenExtents() {
        func onScreen(_ node: AccessibleNode, at origin: (x: Double, y: Double)) -> AccessibleNode {
            var copy = node
            copy.screenExtents = node.extents.map { Rect(x: $0.x + origin.x, y: $0.y + origin.y, width: $0.width, height: $0.height) }
            copy.extents = nil
            copy.children = node.children.map { onScreen($0, at: origin) }
            return copy
        }
        for (window, place) in [(browserWindow(links: 150), [("link5", Viewport.Place.inView), ("link120", .below)]),
                                (browserWindow(links: 150, scrolledBy: 3_400), [("link120", .inView), ("link5", .above)])] {
            let screenOnly = onScreen(window, at: (x: 300, y: 120))
            for (link, expected) in place {
                #expect(Viewport.place(of: ":1.9/\(link)", in: screenOnly) == expected, "\(link)")
            }
            #expect(Viewport.items(.below, in: screenOnly) == Viewport.items(.below, in: window))
            #expect(Viewport.items(.above, in: screenOnly) == Viewport.items(.above, in: window))
        }
    }

    @Test("programs by category, the most used first, categories by their most used program; no main category: Other")
    func programMenu() {
        let programs = [
            ProgramEntry(id: "org.xfce.mousepad.desktop", name: "Mousepad", categories: ["Utility", "TextEditor", "GTK"]),
            ProgramEntry(id: "galculator.desktop", name: "Galculator", categories: ["Utility", "Calculator"]),
            ProgramEntry(id: "firefox-esr.desktop", name: "Firefox ESR", categories: ["Network", "WebBrowser"]),
            ProgramEntry(id: "odd.desktop", name: "Odd", categories: ["X-Odd"]),
        ]
        let fresh = ProgramMenu.categories(programs, uses: [:])
        #expect(fresh.map(\.name) == ["Accessories", "Internet", "Other"])
        #expect(fresh[0].programs.map(\.name) == ["Galculator", "Mousepad"])
        let used = ProgramMenu.categories(programs, uses: ["org.xfce.mousepad.desktop": 2, "firefox-esr.desktop": 5])
        #expect(used.map(\.name) == ["Internet", "Accessories", "Other"])
        #expect(used[1].programs.map(\.name) == ["Mousepad", "Galculator"])
        let nodes = ProgramMenu.nodes(programs, uses: [:])
        #expect(nodes.map { $0.element.label } == ["Accessories", "Internet", "Other"])
        #expect(nodes[0].children.map(\.id) == ["program:galculator.desktop", "program:org.xfce.mousepad.desktop"])
    }
}
