import AccessibilityModel
import Testing

/// `accessibilityNavigationStyle` resolved into the groups Switch Control walks.
@Suite("Navigation style")
struct NavigationGroupingTests {
    /// The Orange guide's Switch Control example: three UIAccessibilityElement groups listed in
    /// the view's `accessibilityElements`; Btn 3 and Btn 4 are hidden.
    static func orangeSwitchControl(hideButtons3And4: Bool = true) -> Screen {
        func plainButton(_ id: ElementID, _ frame: Rect) -> Element {
            var element = button(id, frame)
            element.accessibilityElementsHidden = hideButtons3And4
            return element
        }
        return screen([
            Element(id: "test-wrap", frame: rect(20, 100, 350, 44), navigationStyle: .combined,
                    accessibilityElements: ["test-1", "test-2"], children: [
                        button("test-1", rect(20, 100, 170, 44)),
                        button("test-2", rect(200, 100, 170, 44)),
                    ]),
            Element(id: "btns-parent", children: [
                Element(id: "second-group", frame: rect(20, 200, 350, 44), navigationStyle: .separate,
                        accessibilityElements: ["btn-1", "btn-2"], children: [
                            button("btn-1", rect(20, 200, 170, 44)),
                            button("btn-2", rect(200, 200, 170, 44)),
                        ]),
                plainButton("btn-3", rect(20, 260, 170, 44)),
                plainButton("btn-4", rect(200, 260, 170, 44)),
                Element(id: "third-group", frame: rect(20, 320, 350, 44), navigationStyle: .combined,
                        accessibilityElements: ["btn-5", "btn-6"], children: [
                            button("btn-5", rect(20, 320, 170, 44)),
                            button("btn-6", rect(200, 320, 170, 44)),
                        ]),
            ]),
        ], accessibilityElements: ["test-wrap", "second-group", "third-group"])
    }

    @Test("Orange example: combined test-wrap, separate second-group, combined third-group")
    func orangeExample() {
        let s = Self.orangeSwitchControl()
        #expect(outline(s.scanNodes()) == ["test-wrap[test-1, test-2]", "btn-1", "btn-2", "third-group[btn-5, btn-6]"])
        // Combined groups do not depend on the scanner's groupItems setting.
        #expect(outline(s.scanNodes(groupAutomatic: false)) == outline(s.scanNodes(groupAutomatic: true)))
        #expect(itemIDs(s) == ["test-1", "test-2", "btn-1", "btn-2", "btn-5", "btn-6"])
    }

    @Test("Orange example, UIKit variant: Btn 3 and Btn 4 are not hidden but unlisted, so still unreachable")
    func orangeExampleUnlisted() {
        let s = Self.orangeSwitchControl(hideButtons3And4: false)
        #expect(outline(s.scanNodes()) == ["test-wrap[test-1, test-2]", "btn-1", "btn-2", "third-group[btn-5, btn-6]"])
    }

    @Test("the same groups without the root's list follow spatial order, Btn 3 and 4 still hidden")
    func orangeExampleSpatial() {
        var s = Self.orangeSwitchControl()
        s.root.accessibilityElements = nil
        #expect(outline(s.scanNodes()) == ["test-wrap[test-1, test-2]", "btn-1", "btn-2", "third-group[btn-5, btn-6]"])
    }

    static func toolbarScreen() -> Screen {
        screen([
            Element(id: "toolbar", shouldGroupAccessibilityChildren: true, children: [
                button("bold", rect(0, 50, 60, 44)),
                button("italic", rect(70, 50, 60, 44)),
            ]),
            button("send", rect(0, 700, 390, 44)),
        ])
    }

    @Test("an automatic container is a group when groupAutomatic is true")
    func automaticIsGroupWhenGrouping() {
        #expect(outline(Self.toolbarScreen().scanNodes(groupAutomatic: true)) == ["toolbar[bold, italic]", "send"])
    }

    @Test("an automatic container is spliced into its parent when groupAutomatic is false")
    func automaticIsSplicedWithoutGrouping() {
        #expect(outline(Self.toolbarScreen().scanNodes(groupAutomatic: false)) == ["bold", "italic", "send"])
    }

    @Test("a separate container's children join the parent's sequence whatever groupAutomatic says")
    func separateIsSpliced() {
        var s = Self.toolbarScreen()
        s.root.children[0].navigationStyle = .separate
        #expect(outline(s.scanNodes(groupAutomatic: true)) == ["bold", "italic", "send"])
        #expect(outline(s.scanNodes(groupAutomatic: false)) == ["bold", "italic", "send"])
    }

    static func nestedScreen() -> Screen {
        screen([
            Element(id: "outer", navigationStyle: .combined, children: [
                Element(id: "inner", navigationStyle: .combined, children: [
                    button("x", rect(20, 100, 170, 44)),
                    button("y", rect(200, 100, 170, 44)),
                ]),
                Element(id: "pair", shouldGroupAccessibilityChildren: true, navigationStyle: .separate, children: [
                    button("p", rect(20, 150, 170, 44)),
                    button("q", rect(200, 150, 170, 44)),
                ]),
                Element(id: "auto", shouldGroupAccessibilityChildren: true, children: [
                    button("a1", rect(20, 200, 170, 44)),
                    button("a2", rect(200, 200, 170, 44)),
                ]),
                button("z", rect(20, 250, 350, 44)),
            ]),
            button("after", rect(20, 400, 350, 44)),
        ])
    }

    @Test("combined groups nest; separate and automatic children resolve inside them")
    func nestedCombinedGroups() {
        let s = Self.nestedScreen()
        #expect(outline(s.scanNodes(groupAutomatic: true))
            == ["outer[inner[x, y], p, q, auto[a1, a2], z]", "after"])
        #expect(outline(s.scanNodes(groupAutomatic: false))
            == ["outer[inner[x, y], p, q, a1, a2, z]", "after"])
    }

    @Test("no group is left with the separate style after resolving")
    func noSeparateGroupRemains() {
        func groups(_ nodes: [ScanNode]) -> [ScanNode] {
            nodes.flatMap { $0.isGroup ? [$0] + groups($0.children) : [] }
        }
        let all = groups(Self.nestedScreen().scanNodes()) + groups(Self.orangeSwitchControl().scanNodes())
        #expect(all.map(\.id) == ["outer", "inner", "auto", "test-wrap", "third-group"])
        #expect(all.allSatisfy { $0.element.navigationStyle != .separate })
    }

    @Test("empty groups are dropped: all children hidden, only decoration, or only empty groups")
    func emptyGroupsDropped() {
        let s = screen([
            Element(id: "all-hidden", navigationStyle: .combined, children: [
                Element(id: "h1", label: "h1", frame: rect(0, 100, 50, 44), accessibilityElementsHidden: true),
                Element(id: "h2", label: "h2", frame: rect(60, 100, 50, 44), isPresent: false),
            ]),
            Element(id: "decoration-only", shouldGroupAccessibilityChildren: true, children: [
                Element(id: "divider", frame: rect(0, 150, 390, 1), isAccessibilityElement: false),
            ]),
            Element(id: "outer", navigationStyle: .combined, children: [
                Element(id: "inner", navigationStyle: .combined, children: [
                    Element(id: "h3", label: "h3", frame: rect(0, 200, 50, 44), accessibilityElementsHidden: true),
                ]),
            ]),
            Element(id: "listed-hidden", accessibilityElements: ["h4"], children: [
                Element(id: "h4", label: "h4", frame: rect(0, 250, 50, 44), accessibilityElementsHidden: true),
            ]),
            button("only", rect(0, 300, 390, 44)),
        ])
        #expect(outline(s.scanNodes()) == ["only"])
        #expect(outline(s.scanNodes(groupAutomatic: false)) == ["only"])
    }

    @Test("ScanNode.items lists a group's items depth first")
    func scanNodeItems() {
        let nodes = Self.nestedScreen().scanNodes()
        #expect(nodes.first?.items.map(\.id) == ["x", "y", "p", "q", "a1", "a2", "z"])
        #expect(nodes.first?.children.count == 5)
        #expect(nodes.last?.children.isEmpty == true)
        #expect(nodes.last?.isGroup == false)
    }
}
