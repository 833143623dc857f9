import AccessibilityModel
import Testing

/// `accessibilityActivate`, activation points and hit testing.
@Suite("Activation and hit testing")
struct ActivationTests {
    static let switchFrame = rect(290, 106, 51, 31)

    /// The Orange guide's grouping example 2: a button, a label and a switch regrouped in one
    /// accessibility element whose activation point is the switch's centre.
    static func regroupingScreen(
        controlsHidden: Bool = false, switchPresent: Bool = true, activationPoint: Point? = nil
    ) -> Screen {
        let regroup = Element(
            id: "regroup", label: "regrouping elements",
            hint: "double tap to change the switch control status",
            frame: rect(20, 100, 321, 44),
            activationPoint: activationPoint ?? switchFrame.center)
        return screen([
            Element(id: "controls", accessibilityElementsHidden: controlsHidden, children: [
                Element(id: "my-button", label: "Button", traits: .button, frame: rect(20, 100, 100, 44),
                        activate: [.announce("button tapped")]),
                Element(id: "my-label", label: "Label", traits: .staticText, frame: rect(130, 100, 140, 44)),
                Element(id: "my-switch", label: "Switch", traits: .button, frame: switchFrame,
                        isPresent: switchPresent, activate: [.toggle("setting")]),
            ]),
            regroup,
        ], accessibilityElements: controlsHidden ? nil : ["regroup"])
    }

    static func element(_ id: ElementID, in screen: Screen) -> Element? {
        func find(_ element: Element) -> Element? {
            if element.id == id { return element }
            return element.children.lazy.compactMap(find).first
        }
        return find(screen.root)
    }

    @Test("an element with activate is its own target")
    func activateIsOwnTarget() throws {
        let s = Self.regroupingScreen()
        let target = Activation.target(of: try #require(Self.element("my-button", in: s)), in: s.root)
        #expect(target?.id == "my-button")
        // Even when its activation point lies on another element that responds.
        var row = button("row", rect(0, 0, 390, 60))
        row.activationPoint = Point(x: 315.5, y: 121.5)
        #expect(Activation.target(of: row, in: s.root)?.id == "row")
    }

    @Test("Orange grouping example 2: activating the regrouping element toggles the switch")
    func regroupTargetsSwitch() throws {
        let s = Self.regroupingScreen()
        #expect(itemIDs(s) == ["regroup"])
        let regroup = try #require(s.scanItems().first)
        #expect(regroup.activate == nil)
        let target = Activation.target(of: regroup, in: s.root)
        #expect(target?.id == "my-switch")
        #expect(target?.activate == [.toggle("setting")])
    }

    @Test("with the default activation point (frame centre, on the label) nothing responds")
    func regroupDefaultPointHitsNothing() throws {
        let s = Self.regroupingScreen(activationPoint: rect(20, 100, 321, 44).center)
        let regroup = try #require(s.scanItems().first)
        #expect(regroup.resolvedActivationPoint == Point(x: 180.5, y: 122))
        #expect(Activation.target(of: regroup, in: s.root) == nil)
    }

    @Test("elements hidden from accessibility still receive taps")
    func hiddenElementsStillReceiveTaps() throws {
        let s = Self.regroupingScreen(controlsHidden: true)
        #expect(itemIDs(s) == ["regroup"])
        let regroup = try #require(s.scanItems().first)
        #expect(Activation.target(of: regroup, in: s.root)?.id == "my-switch")
    }

    @Test("elements that are not present (visible false) receive no taps")
    func absentElementsReceiveNoTaps() throws {
        let s = Self.regroupingScreen(switchPresent: false)
        let regroup = try #require(s.scanItems().first)
        #expect(Activation.target(of: regroup, in: s.root) == nil)
    }

    @Test("later siblings are on top and win")
    func laterSiblingWins() {
        let overlap = Point(x: 150, y: 50)
        let aThenB = Element(id: "root", children: [button("a", rect(0, 0, 200, 100)), button("b", rect(100, 0, 200, 100))])
        let bThenA = Element(id: "root", children: [button("b", rect(100, 0, 200, 100)), button("a", rect(0, 0, 200, 100))])
        #expect(HitTesting.deepestElement(at: overlap, in: aThenB) { $0.activate != nil }?.id == "b")
        #expect(HitTesting.deepestElement(at: overlap, in: bThenA) { $0.activate != nil }?.id == "a")
        // Outside the overlap each button takes its own taps.
        #expect(HitTesting.deepestElement(at: Point(x: 50, y: 50), in: aThenB) { $0.activate != nil }?.id == "a")
        #expect(HitTesting.deepestElement(at: Point(x: 250, y: 50), in: bThenA) { $0.activate != nil }?.id == "b")
    }

    @Test("a deeper element wins over its ancestor; the ancestor takes taps elsewhere")
    func deeperWinsOverAncestor() {
        let root = Element(id: "root", children: [
            Element(id: "row", label: "Wi-Fi", frame: rect(0, 100, 390, 60), children: [
                Element(id: "row-switch", frame: rect(320, 115, 51, 31), activate: [.toggle("wifi")]),
            ], activate: [.go("wifi")]),
        ])
        let probe = Element(id: "probe", frame: rect(320, 115, 51, 31))   // centre on the switch
        #expect(Activation.target(of: probe, in: root)?.id == "row-switch")
        var elsewhere = probe
        elsewhere.activationPoint = Point(x: 100, y: 130)
        #expect(Activation.target(of: elsewhere, in: root)?.id == "row")
        #expect(HitTesting.deepestElement(at: Point(x: 345, y: 130), in: root) { $0.activate != nil }?.id == "row-switch")
    }

    @Test("hit testing skips elements that do not match and ignores points outside every frame")
    func hitTestingMisses() {
        let root = Element(id: "root", children: [
            button("target", rect(0, 0, 100, 100)),
            Element(id: "overlay-label", label: "Overlay", frame: rect(0, 0, 100, 100)),
        ])
        #expect(HitTesting.deepestElement(at: Point(x: 50, y: 50), in: root) { $0.activate != nil }?.id == "target")
        #expect(HitTesting.deepestElement(at: Point(x: 50, y: 50), in: root) { _ in true }?.id == "overlay-label")
        #expect(HitTesting.deepestElement(at: Point(x: 150, y: 50), in: root) { $0.activate != nil } == nil)
    }

    @Test("frame edges are half-open: a tap on the shared edge goes to the right-hand button")
    func sharedEdge() {
        let root = Element(id: "root", children: [button("left", rect(0, 0, 100, 44)), button("right", rect(100, 0, 100, 44))])
        #expect(HitTesting.deepestElement(at: Point(x: 100, y: 20), in: root) { $0.activate != nil }?.id == "right")
        #expect(HitTesting.deepestElement(at: Point(x: 99.5, y: 20), in: root) { $0.activate != nil }?.id == "left")
        #expect(HitTesting.deepestElement(at: Point(x: 200, y: 20), in: root) { $0.activate != nil } == nil)
    }

    @Test("the default activation point is the centre of the frame, and it is what gets tapped")
    func defaultActivationPointIsCentre() {
        let probe = Element(id: "probe", frame: rect(10, 20, 100, 50))
        #expect(probe.resolvedActivationPoint == Point(x: 60, y: 45))
        #expect(Element(id: "nothing").resolvedActivationPoint == nil)
        let declared = Element(id: "probe", frame: rect(10, 20, 100, 50), activationPoint: Point(x: 1, y: 2))
        #expect(declared.resolvedActivationPoint == Point(x: 1, y: 2))

        let root = Element(id: "root", children: [button("centre-button", rect(50, 40, 20, 10))])
        #expect(Activation.target(of: probe, in: root)?.id == "centre-button")
        #expect(Activation.target(of: Element(id: "frameless"), in: root) == nil)
    }

    @Test("a container's frame defaults to the union of its children's frames")
    func containerFrameIsUnion() {
        let container = Element(id: "box", children: [
            Element(id: "a", frame: rect(0, 0, 10, 10)),
            Element(id: "nested", children: [Element(id: "b", frame: rect(50, 20, 10, 10))]),
            Element(id: "frameless"),
        ])
        #expect(container.resolvedFrame == rect(0, 0, 60, 30))
        #expect(container.resolvedActivationPoint == Point(x: 30, y: 15))
        var declared = container
        declared.frame = rect(5, 5, 1, 1)
        #expect(declared.resolvedFrame == rect(5, 5, 1, 1))
        #expect(Element(id: "empty", children: [Element(id: "frameless")]).resolvedFrame == nil)
    }

    @Test("a container with activate and no frame takes taps anywhere in its children's union")
    func containerTakesTapsInUnion() {
        let card = Element(id: "card", children: [
            Element(id: "card-title", label: "Title", frame: rect(0, 100, 100, 20)),
            Element(id: "card-price", label: "Price", frame: rect(200, 140, 100, 20)),
        ], activate: [.go("detail")])
        let root = Element(id: "root", children: [card])
        // In the gap between the two labels, but inside their union.
        #expect(HitTesting.deepestElement(at: Point(x: 150, y: 130), in: root) { $0.activate != nil }?.id == "card")
        #expect(HitTesting.deepestElement(at: Point(x: 150, y: 170), in: root) { $0.activate != nil } == nil)
    }
}
