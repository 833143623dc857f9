import AccessibilityModel
import Testing

@Suite("Geometry")
struct GeometryTests {
    let frame = rect(10, 20, 30, 40)   // x 10..<40, y 20..<60

    @Test("contains is half-open like CGRect.contains", arguments: [
        (Point(x: 10, y: 20), true),        // top-left corner
        (Point(x: 39.999, y: 59.999), true),
        (Point(x: 25, y: 40), true),
        (Point(x: 40, y: 30), false),       // right edge
        (Point(x: 20, y: 60), false),       // bottom edge
        (Point(x: 40, y: 60), false),       // bottom-right corner
        (Point(x: 9.999, y: 30), false),
        (Point(x: 20, y: 19.999), false),
    ])
    func containsHalfOpen(point: Point, inside: Bool) {
        #expect(frame.contains(point) == inside)
    }

    @Test("an empty rectangle contains nothing")
    func emptyContainsNothing() {
        #expect(!rect(10, 10, 0, 10).contains(Point(x: 10, y: 15)))
        #expect(rect(10, 10, 0, 10).isEmpty)
        #expect(rect(10, 10, 0, 10).area == 0)
        #expect(frame.area == 1200)
    }

    @Test("union is the smallest rectangle holding both")
    func union() {
        #expect(rect(0, 0, 10, 10).union(rect(20, 30, 5, 5)) == rect(0, 0, 25, 35))
        #expect(rect(20, 30, 5, 5).union(rect(0, 0, 10, 10)) == rect(0, 0, 25, 35))
        #expect(frame.union(rect(15, 25, 5, 5)) == frame)
        #expect(rect(-10, -5, 10, 5).union(rect(0, 0, 10, 10)) == rect(-10, -5, 20, 15))
    }

    @Test("intersection: the overlap, or nil when the rectangles only touch or are apart")
    func intersection() {
        #expect(rect(0, 0, 10, 10).intersection(rect(5, 5, 10, 10)) == rect(5, 5, 5, 5))
        #expect(frame.intersection(rect(15, 25, 5, 5)) == rect(15, 25, 5, 5))
        #expect(rect(0, 0, 10, 10).intersection(rect(10, 0, 10, 10)) == nil)   // shared edge
        #expect(rect(0, 0, 10, 10).intersection(rect(0, 10, 10, 10)) == nil)
        #expect(rect(0, 0, 10, 10).intersection(rect(50, 50, 10, 10)) == nil)
    }

    @Test("centre and description")
    func centreAndDescription() {
        #expect(frame.center == Point(x: 25, y: 40))
        #expect(frame.description == "[10, 20, 30, 40]")
        #expect(rect(0.5, 0, 1, 2).description == "[0.5, 0, 1, 2]")
        #expect(Point(x: 315.5, y: 121).description == "(315.5, 121)")
    }
}

@Suite("Traits")
struct TraitsTests {
    static let contractNames = [
        "button", "link", "header", "searchField", "image", "selected", "playsSound", "keyboardKey",
        "staticText", "summaryElement", "notEnabled", "updatesFrequently", "startsMediaSession",
        "adjustable", "allowsDirectInteraction", "causesPageTurn", "tabBar",
    ]
    static let contractTraits: [Traits] = [
        .button, .link, .header, .searchField, .image, .selected, .playsSound, .keyboardKey,
        .staticText, .summaryElement, .notEnabled, .updatesFrequently, .startsMediaSession,
        .adjustable, .allowsDirectInteraction, .causesPageTurn, .tabBar,
    ]

    @Test("every contract name gives its trait and back", arguments: zip(contractNames, contractTraits))
    func nameRoundTrip(name: String, trait: Traits) {
        #expect(Traits(name: name) == trait)
        #expect(trait.names == [name])
    }

    @Test("the 17 traits are distinct single bits")
    func distinctTraits() {
        #expect(Self.contractTraits.count == 17)
        #expect(Set(Self.contractTraits.map(\.rawValue)).count == 17)
        #expect(Self.contractTraits.allSatisfy { $0.rawValue.nonzeroBitCount == 1 })
    }

    @Test("none is the empty set; an unknown or miscased name gives nil")
    func noneAndUnknown() {
        #expect(Traits(name: "none") == [])
        #expect(Traits(name: "none")?.names == [])
        #expect(Traits(name: "bogus") == nil)
        #expect(Traits(name: "Button") == nil)
        #expect(Traits(name: "") == nil)
    }

    @Test("names lists a set's traits in the contract's order")
    func namesOrder() {
        let traits: Traits = [.tabBar, .button, .selected, .adjustable]
        #expect(traits.names == ["button", "selected", "adjustable", "tabBar"])
        let all = Self.contractTraits.reduce(into: Traits()) { $0.formUnion($1) }
        #expect(all.names == Self.contractNames)
    }
}
