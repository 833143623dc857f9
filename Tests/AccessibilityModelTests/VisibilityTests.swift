import AccessibilityModel
import Testing

/// `isAccessibilityElement`, `accessibilityElementsHidden` and the `visible` binding (`isPresent`).
@Suite("Visibility")
struct VisibilityTests {
    @Test("a leaf is an accessibility element by default, a container is not")
    func isAccessibilityElementDefaults() {
        let leaf = Element(id: "leaf")
        let container = Element(id: "box", children: [Element(id: "inner")])
        #expect(leaf.isAccessibilityElement)
        #expect(!container.isAccessibilityElement)
        #expect(!Element(id: "leaf", isAccessibilityElement: false).isAccessibilityElement)
        #expect(Element(id: "box", isAccessibilityElement: true, children: [Element(id: "inner")]).isAccessibilityElement)
    }

    @Test("scan items: leaves are items, plain containers are passed through, declarations override")
    func declaredOverridesInScanItems() {
        let s = screen([
            text("title", rect(20, 60, 350, 30)),
            Element(id: "decoration", frame: rect(20, 100, 350, 2), isAccessibilityElement: false),
            Element(id: "row", children: [
                button("ok", rect(20, 120, 170, 44)),
                button("cancel", rect(200, 120, 170, 44)),
            ]),
            Element(id: "card", label: "Card", frame: rect(20, 200, 350, 100), isAccessibilityElement: true, children: [
                text("card-title", rect(30, 210, 330, 30)),
                button("card-button", rect(30, 250, 330, 44)),
            ]),
        ])
        #expect(itemIDs(s) == ["title", "ok", "cancel", "card"])
    }

    @Test("an accessible container is one item and its children are not reached")
    func accessibleContainerIsOneItem() {
        let s = screen([
            Element(id: "cell", label: "Wi-Fi, on", frame: rect(0, 100, 390, 44), isAccessibilityElement: true,
                    shouldGroupAccessibilityChildren: true, navigationStyle: .combined, children: [
                        text("cell-label", rect(16, 100, 200, 44)),
                        button("cell-switch", rect(320, 106, 51, 31)),
                    ]),
        ])
        #expect(outline(s.scanNodes()) == ["cell"])
        #expect(itemIDs(s) == ["cell"])
    }

    @Test("accessibilityElementsHidden hides the element and its whole subtree")
    func hiddenHidesSubtree() {
        let s = screen([
            button("visible-1", rect(20, 100, 350, 44)),
            Element(id: "panel", accessibilityElementsHidden: true, children: [
                button("panel-1", rect(20, 150, 350, 44)),
                Element(id: "panel-row", children: [button("panel-2", rect(20, 200, 350, 44))]),
            ]),
            Element(id: "hidden-leaf", label: "x", frame: rect(20, 250, 350, 44), accessibilityElementsHidden: true),
            button("visible-2", rect(20, 300, 350, 44)),
        ])
        #expect(itemIDs(s) == ["visible-1", "visible-2"])
        #expect(descendantIDs(Visibility.accessibilityTree(s.root)) == ["visible-1", "visible-2"])
        // Hidden from accessibility only: still on screen.
        #expect(descendantIDs(Visibility.presentTree(s.root))
            == ["visible-1", "panel", "panel-1", "panel-row", "panel-2", "hidden-leaf", "visible-2"])
    }

    @Test("a hidden container stays hidden even when a child declares itself accessible")
    func hiddenBeatsDeclaredChild() {
        let s = screen([
            Element(id: "panel", accessibilityElementsHidden: true, children: [
                Element(id: "inner", label: "Inner", frame: rect(0, 0, 10, 10), isAccessibilityElement: true),
            ]),
            text("after", rect(0, 20, 10, 10)),
        ])
        #expect(itemIDs(s) == ["after"])
    }

    @Test("visible false removes the subtree from both the present tree and the accessibility tree")
    func notPresentRemovesSubtree() {
        let s = screen([
            text("header", rect(20, 60, 350, 30)),
            Element(id: "banner", isPresent: false, children: [
                text("banner-text", rect(20, 100, 300, 44)),
                button("banner-close", rect(330, 100, 44, 44)),
            ]),
            Element(id: "list", children: [
                button("item-1", rect(20, 150, 350, 44)),
                Element(id: "item-2", label: "Item 2", frame: rect(20, 200, 350, 44), isPresent: false),
                button("item-3", rect(20, 250, 350, 44)),
            ]),
        ])
        #expect(descendantIDs(Visibility.presentTree(s.root)) == ["header", "list", "item-1", "item-3"])
        #expect(descendantIDs(Visibility.accessibilityTree(s.root)) == ["header", "list", "item-1", "item-3"])
        #expect(itemIDs(s) == ["header", "item-1", "item-3"])
    }

    @Test("isExposed: present and not hidden")
    func isExposed() {
        #expect(Visibility.isExposed(Element(id: "a")))
        #expect(!Visibility.isExposed(Element(id: "a", accessibilityElementsHidden: true)))
        #expect(!Visibility.isExposed(Element(id: "a", isPresent: false)))
    }

    @Test("a container whose children are all hidden does not become an item")
    func emptiedContainerIsNoItem() {
        let s = screen([
            Element(id: "toolbar", children: [
                Element(id: "t1", label: "T1", frame: rect(0, 0, 50, 44), accessibilityElementsHidden: true),
                Element(id: "t2", label: "T2", frame: rect(60, 0, 50, 44), isPresent: false),
            ]),
            Element(id: "grouped", shouldGroupAccessibilityChildren: true, children: [
                Element(id: "g1", label: "G1", frame: rect(0, 100, 50, 44), accessibilityElementsHidden: true),
            ]),
            text("content", rect(0, 200, 390, 44)),
        ])
        let tree = Visibility.accessibilityTree(s.root)
        let toolbar = tree.children.first { $0.id == "toolbar" }
        #expect(toolbar?.children.isEmpty == true)
        #expect(toolbar?.isAccessibilityElement == false)
        #expect(outline(s.scanNodes()) == ["content"])
        #expect(itemIDs(s) == ["content"])
    }

    @Test("a container emptied only by the visible binding is no item in the present tree either")
    func emptiedContainerInPresentTree() {
        let root = Element(id: "root", children: [
            Element(id: "box", children: [Element(id: "gone", frame: rect(0, 0, 10, 10), isPresent: false)]),
        ])
        let box = Visibility.presentTree(root).children.first
        #expect(box?.id == "box")
        #expect(box?.isAccessibilityElement == false)
    }
}
