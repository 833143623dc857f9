import AccessibilityModel
import Testing

/// `accessibilityViewIsModal` and its sibling rule: the Orange guide's "Modal view" section.
///
/// main view
/// ├─ Parent A (A1, A2, A3)                    a column at the top
/// └─ Parent B
///    ├─ B1 (B1.1, B1.2)                       a row
///    └─ B2 (B2.1, B2.2, B2.3)                 a column
@Suite("Modal view (sibling rule)")
struct ModalViewTests {
    struct Options {
        var modal: ElementID?
        var hidden: Set<ElementID> = []
        var absent: Set<ElementID> = []
    }

    static func mainView(_ options: Options) -> Screen {
        func node(_ id: ElementID, _ frame: Rect? = nil, _ children: [Element] = []) -> Element {
            Element(
                id: id, label: children.isEmpty ? id : nil, frame: frame,
                accessibilityElementsHidden: options.hidden.contains(id),
                accessibilityViewIsModal: options.modal == id,
                isPresent: !options.absent.contains(id),
                children: children)
        }
        return screen([
            node("parentA", rect(20, 100, 350, 150), [
                node("A1", rect(20, 100, 350, 44)),
                node("A2", rect(20, 150, 350, 44)),
                node("A3", rect(20, 200, 350, 44)),
            ]),
            node("parentB", rect(20, 300, 350, 250), [
                node("B1", rect(20, 300, 350, 44), [
                    node("B1.1", rect(20, 300, 170, 44)),
                    node("B1.2", rect(200, 300, 170, 44)),
                ]),
                node("B2", rect(20, 360, 350, 150), [
                    node("B2.1", rect(20, 360, 350, 44)),
                    node("B2.2", rect(20, 410, 350, 44)),
                    node("B2.3", rect(20, 460, 350, 44)),
                ]),
            ]),
        ])
    }

    @Test("without a modal view every element is read, top to bottom")
    func noModal() {
        #expect(itemIDs(Self.mainView(Options()))
            == ["A1", "A2", "A3", "B1.1", "B1.2", "B2.1", "B2.2", "B2.3"])
    }

    @Test("example 1: Parent A modal hides its sibling Parent B")
    func example1() {
        #expect(itemIDs(Self.mainView(Options(modal: "parentA"))) == ["A1", "A2", "A3"])
    }

    @Test("example 2: A2 modal hides A1 and A3, but Parent B is still read (the problem)")
    func example2Problem() {
        #expect(itemIDs(Self.mainView(Options(modal: "A2")))
            == ["A2", "B1.1", "B1.2", "B2.1", "B2.2", "B2.3"])
    }

    @Test("example 2 fixed: hiding Parent B leaves only A2")
    func example2Fixed() {
        #expect(itemIDs(Self.mainView(Options(modal: "A2", hidden: ["parentB"]))) == ["A2"])
    }

    @Test("example 3: B1.1 modal hides only its sibling B1.2")
    func example3Problem() {
        #expect(itemIDs(Self.mainView(Options(modal: "B1.1")))
            == ["A1", "A2", "A3", "B1.1", "B2.1", "B2.2", "B2.3"])
    }

    @Test("example 3 fixed: hiding Parent A and B2 leaves only B1.1")
    func example3Fixed() {
        #expect(itemIDs(Self.mainView(Options(modal: "B1.1", hidden: ["parentA", "B2"]))) == ["B1.1"])
    }

    @Test("a modal view that is not visible has no effect")
    func absentModalHasNoEffect() {
        #expect(itemIDs(Self.mainView(Options(modal: "A2", absent: ["A2"])))
            == ["A1", "A3", "B1.1", "B1.2", "B2.1", "B2.2", "B2.3"])
        #expect(itemIDs(Self.mainView(Options(modal: "parentA", hidden: ["parentA"])))
            == ["B1.1", "B1.2", "B2.1", "B2.2", "B2.3"])
    }

    @Test("of several modal siblings the last one (on top) wins")
    func lastModalSiblingWins() {
        let s = screen([
            Element(id: "sheet", accessibilityViewIsModal: true, children: [button("sheet-ok", rect(0, 400, 390, 44))]),
            Element(id: "alert", accessibilityViewIsModal: true, children: [button("alert-ok", rect(100, 300, 190, 44))]),
            button("background", rect(0, 100, 390, 44)),
        ])
        #expect(itemIDs(s) == ["alert-ok"])
        #expect(Visibility.applyModalSiblingRule(s.elements).map(\.id) == ["alert"])
    }
}

/// SwiftUI's `isModal` trait: the Orange guide's example 2 in its SwiftUI tab,
/// `Text("A2").accessibilityAddTraits(.isModal)`: "By default in SwiftUI, views parent A and
/// parent B are not accessible and hidden, no need to hide like with UIKit."
@Suite("isModal trait (hides the whole screen but the modal element)")
struct ModalTraitTests {
    /// `grouped`: the parents group their children (each top-level unit is then ordered on its
    /// own, and kept between builds by the screen's order memo).
    static func mainView(modal: Set<ElementID>, hidden: Set<ElementID> = [], grouped: Bool = false) -> Screen {
        func node(_ id: ElementID, _ frame: Rect? = nil, _ children: [Element] = []) -> Element {
            Element(
                id: id, label: children.isEmpty ? id : nil, traits: modal.contains(id) ? [.staticText, .isModal] : [.staticText],
                frame: frame, accessibilityElementsHidden: hidden.contains(id),
                shouldGroupAccessibilityChildren: grouped && id.hasPrefix("parent"), children: children)
        }
        return screen([
            node("parentA", rect(20, 100, 350, 150), [
                node("A1", rect(20, 100, 350, 44)),
                node("A2", rect(20, 150, 350, 44)),
                node("A3", rect(20, 200, 350, 44)),
            ]),
            node("parentB", rect(20, 300, 350, 250), [
                node("B1", rect(20, 300, 350, 44), [
                    node("B1.1", rect(20, 300, 170, 44)),
                    node("B1.2", rect(200, 300, 170, 44)),
                ]),
                node("B2", rect(20, 360, 350, 150), [node("B2.1", rect(20, 360, 350, 44))]),
            ]),
        ])
    }

    @Test("example 2 in SwiftUI: A2 with isModal is the only element read, Parent B included in what goes")
    func example2() {
        #expect(itemIDs(Self.mainView(modal: ["A2"])) == ["A2"])
    }

    @Test("a container with isModal keeps its whole subtree; the last of two modal elements wins")
    func containerAndLast() {
        #expect(itemIDs(Self.mainView(modal: ["B1"])) == ["B1.1", "B1.2"])
        #expect(itemIDs(Self.mainView(modal: ["A2", "B1.2"])) == ["B1.2"])
    }

    @Test("a hidden modal element hides nothing")
    func hiddenModal() {
        #expect(itemIDs(Self.mainView(modal: ["B1.1"], hidden: ["parentB"])) == ["A1", "A2", "A3"])
    }

    @Test("the screen's order memo gives the same as the full order while a modal element is there")
    func memo() {
        let screen = Self.mainView(modal: ["A3"], grouped: true)
        #expect(itemIDs(screen) == ["A3"])
        var memo = OrderMemo()
        #expect(outline(screen.scanNodes(groupAutomatic: false, memo: &memo)) == ["A3"])
    }
}

