import AccessibilityModel
import Testing

/// Reading order: explicit `accessibilityElements`, the documented row rule, `sortPriority`,
/// and `shouldGroupAccessibilityChildren` (the Orange guide's "Reading order" section).
@Suite("Reading order")
struct ReadingOrderTests {
    // MARK: - Explicit accessibilityElements

    static func form(order: [ElementID], hidden: Set<ElementID> = []) -> Screen {
        func field(_ id: ElementID, _ frame: Rect) -> Element {
            Element(id: id, label: id, frame: frame, accessibilityElementsHidden: hidden.contains(id))
        }
        return screen([
            Element(id: "form", accessibilityElements: order, children: [
                Element(id: "identity", accessibilityElementsHidden: hidden.contains("identity"), children: [
                    Element(id: "names", children: [
                        field("first-name", rect(20, 100, 170, 44)),
                        field("last-name", rect(200, 100, 170, 44)),
                    ]),
                    field("email", rect(20, 150, 350, 44)),
                ]),
                field("footnote", rect(20, 200, 350, 30)),
                Element(id: "actions", children: [button("submit", rect(20, 250, 350, 44))]),
            ]),
            text("outside", rect(20, 400, 350, 44)),
        ])
    }

    @Test("accessibilityElements gives the order, with ids deep in the subtree")
    func explicitOrderDeepIDs() {
        let s = Self.form(order: ["submit", "email", "last-name", "first-name", "footnote"])
        #expect(itemIDs(s) == ["submit", "email", "last-name", "first-name", "footnote", "outside"])
    }

    @Test("elements not listed in accessibilityElements are not reached")
    func unlistedAreUnreachable() {
        let s = Self.form(order: ["email", "submit"])
        #expect(itemIDs(s) == ["email", "submit", "outside"])
    }

    @Test("a listed element that is hidden is skipped")
    func listedHiddenIsSkipped() {
        let s = Self.form(order: ["first-name", "email", "submit"], hidden: ["email"])
        #expect(itemIDs(s) == ["first-name", "submit", "outside"])
        // Hiding an ancestor of a listed element skips it as well.
        let t = Self.form(order: ["first-name", "email", "submit"], hidden: ["identity"])
        #expect(itemIDs(t) == ["submit", "outside"])
    }

    @Test("a listed container is reached as a group of its own ordered children")
    func listedContainerIsAGroup() {
        let s = Self.form(order: ["names", "submit"])
        #expect(outline(s.scanNodes()) == ["form[names[first-name, last-name], submit]", "outside"])
    }

    // MARK: - The keypad (Orange guide, "Reading order")

    /// Key `n` of the 3×3 keypad whose columns are (1, 2, 3), (4, 5, 6), (7, 8, 9).
    static func key(_ n: Int, sortPriority: Double = 0) -> Element {
        let column = Double((n - 1) / 3), row = Double((n - 1) % 3)
        return Element(
            id: "\(n)", label: "\(n)", traits: .keyboardKey,
            frame: rect(45 + column * 100, 300 + row * 100, 100, 100), sortPriority: sortPriority,
            activate: [.announce("\(n)")])
    }

    @Test("keypad as an HStack of VStacks reads by rows: 1 4 7 2 5 8 3 6 9")
    func keypadSpatial() {
        let s = screen([
            Element(id: "keypad", children: [
                Element(id: "column-1", children: [Self.key(1), Self.key(2), Self.key(3)]),
                Element(id: "column-2", children: [Self.key(4), Self.key(5), Self.key(6)]),
                Element(id: "column-3", children: [Self.key(7), Self.key(8), Self.key(9)]),
            ]),
        ])
        #expect(itemIDs(s) == ["1", "4", "7", "2", "5", "8", "3", "6", "9"])
    }

    @Test("keypad, UIKit: grey column grouped, blue block [6, 8, 9, 5] reads 1 2 3 4 7 6 8 9 5")
    func keypadUIKit() {
        let s = screen([
            Element(id: "keypad", children: [
                Element(id: "grey-column", shouldGroupAccessibilityChildren: true,
                        children: [Self.key(1), Self.key(2), Self.key(3)]),
                Self.key(4),
                Self.key(7),
                Element(id: "blue-block", isAccessibilityElement: false, accessibilityElements: ["6", "8", "9", "5"], children: [
                    Element(id: "blue-column-2", children: [Self.key(5), Self.key(6)]),
                    Element(id: "blue-column-3", children: [Self.key(8), Self.key(9)]),
                ]),
            ]),
        ])
        #expect(itemIDs(s) == ["1", "2", "3", "4", "7", "6", "8", "9", "5"])
        #expect(outline(s.scanNodes(groupAutomatic: true))
            == ["grey-column[1, 2, 3]", "4", "7", "blue-block[6, 8, 9, 5]"])
    }

    @Test("keypad, UIKit, without the grey column's grouping: the column no longer reads first")
    func keypadUIKitWithoutGrouping() {
        let s = screen([
            Element(id: "grey-column", children: [Self.key(1), Self.key(2), Self.key(3)]),
            Self.key(4),
            Self.key(7),
            Element(id: "blue-block", accessibilityElements: ["6", "8", "9", "5"], children: [
                Self.key(5), Self.key(6), Self.key(8), Self.key(9),
            ]),
        ])
        // Keys 2 and 3 now share rows with the blue block (top 400) and come before or after it.
        #expect(itemIDs(s) == ["1", "4", "7", "2", "6", "8", "9", "5", "3"])
    }

    @Test("keypad, SwiftUI: sortPriority 1000 on column 1, then 900…400 gives 1 2 3 4 7 6 8 9 5")
    func keypadSwiftUI() {
        let s = screen([
            Element(id: "hstack", children: [
                Element(id: "column-1", shouldGroupAccessibilityChildren: true, sortPriority: 1000,
                        children: [Self.key(1), Self.key(2), Self.key(3)]),
                Element(id: "column-2", children: [
                    Self.key(4, sortPriority: 900), Self.key(5, sortPriority: 400), Self.key(6, sortPriority: 700),
                ]),
                Element(id: "column-3", children: [
                    Self.key(7, sortPriority: 800), Self.key(8, sortPriority: 600), Self.key(9, sortPriority: 500),
                ]),
            ]),
        ])
        #expect(itemIDs(s) == ["1", "2", "3", "4", "7", "6", "8", "9", "5"])
    }

    // MARK: - The row rule

    @Test("navigation bar: items of different heights with misaligned tops read left to right")
    func navigationBarRow() {
        let s = screen([
            Element(id: "title", label: "Settings", traits: .header, frame: rect(150, 58, 90, 22)),
            button("edit", rect(320, 50, 54, 38)),
            button("back", rect(8, 47, 70, 44)),
            text("first-row", rect(16, 110, 358, 44)),
        ])
        #expect(itemIDs(s) == ["back", "title", "edit", "first-row"])
    }

    /// `a` sits at the right of a row (top 100, middle 120); `b` is at the left with its top at
    /// `top`. Sharing the row, `b` is read first; on the next row, after `a`.
    @Test("a unit starts a new row when its top is at or below the middle of a row member",
          arguments: [
            (101.0, ["b", "a"]), (119.0, ["b", "a"]), (120.0, ["a", "b"]), (121.0, ["a", "b"]), (140.0, ["a", "b"]),
          ])
    func rowBoundary(top: Double, expected: [ElementID]) {
        let s = screen([
            text("a", rect(200, 100, 100, 40)),
            text("b", rect(0, top, 100, 40)),
        ])
        #expect(itemIDs(s) == expected)
    }

    @Test("a unit above the middle of the first row member but below another member's starts a new row")
    func rowLimitIsTheHighestMiddle() {
        let s = screen([
            Element(id: "tall", label: "tall", frame: rect(200, 100, 50, 300)),   // middle 250
            text("short", rect(300, 100, 50, 40)),                                 // middle 120
            text("left", rect(0, 130, 50, 40)),                                    // top 130
        ])
        #expect(itemIDs(s) == ["tall", "short", "left"])
    }

    @Test("units at the same place keep declaration order")
    func samePlaceDeclarationOrder() {
        let s = screen([
            text("first", rect(0, 100, 100, 40)),
            text("second", rect(0, 100, 100, 40)),
            text("third", rect(0, 100, 100, 40)),
        ])
        #expect(itemIDs(s) == ["first", "second", "third"])
    }

    @Test("elements without any frame come last, in declaration order")
    func framelessLast() {
        let s = screen([
            text("no-frame-1", nil),
            text("bottom", rect(0, 300, 100, 40)),
            Element(id: "frameless-box", children: [text("no-frame-2", nil)]),
            text("top", rect(0, 100, 100, 40)),
            text("no-frame-3", nil),
        ])
        #expect(itemIDs(s) == ["top", "bottom", "no-frame-1", "no-frame-2", "no-frame-3"])
    }

    @Test("higher sortPriority comes first; equal priorities keep spatial order")
    func sortPriorityHigherFirst() {
        let s = screen([
            text("a", rect(0, 100, 80, 40)),
            text("b", rect(100, 100, 80, 40), sortPriority: 2),
            text("c", rect(200, 100, 80, 40), sortPriority: 1),
            text("d", rect(300, 100, 80, 40), sortPriority: 2),
            text("e", rect(0, 200, 80, 40), sortPriority: -1),
            text("f", rect(0, 50, 80, 40)),
        ])
        #expect(itemIDs(s) == ["b", "d", "c", "f", "a", "e"])
    }

    @Test("sortPriority orders the units of each container; a grouped container's children keep theirs inside")
    func sortPriorityInsideGroupedContainer() {
        let s = screen([
            text("late", rect(0, 50, 100, 40)),
            Element(id: "panel", shouldGroupAccessibilityChildren: true, sortPriority: 5, children: [
                text("p-low", rect(0, 300, 100, 40)),
                text("p-high", rect(0, 400, 100, 40), sortPriority: 1),
            ]),
        ])
        #expect(itemIDs(s) == ["p-high", "p-low", "late"])
    }

    static func twoColumns(groupLeft: Bool) -> Screen {
        screen([
            Element(id: "left", shouldGroupAccessibilityChildren: groupLeft, children: [
                text("L1", rect(20, 100, 170, 44)),
                text("L2", rect(20, 150, 170, 44)),
                text("L3", rect(20, 200, 170, 44)),
            ]),
            Element(id: "right", children: [
                text("R1", rect(200, 100, 170, 44)),
                text("R2", rect(200, 150, 170, 44)),
            ]),
        ])
    }

    @Test("a plain container is transparent: its items interleave by rows with its siblings'")
    func transparentContainersInterleave() {
        #expect(itemIDs(Self.twoColumns(groupLeft: false)) == ["L1", "R1", "L2", "R2", "L3"])
    }

    @Test("shouldGroupAccessibilityChildren keeps a container's children together")
    func groupedContainerKeepsChildrenTogether() {
        #expect(itemIDs(Self.twoColumns(groupLeft: true)) == ["L1", "L2", "L3", "R1", "R2"])
    }

    @Test("a combined container also keeps its children together")
    func combinedContainerKeepsChildrenTogether() {
        let s = screen([
            Element(id: "left", navigationStyle: .combined, children: [
                text("L1", rect(20, 100, 170, 44)),
                text("L2", rect(20, 150, 170, 44)),
            ]),
            text("R1", rect(200, 100, 170, 44)),
            text("R2", rect(200, 150, 170, 44)),
        ])
        #expect(itemIDs(s) == ["L1", "L2", "R1", "R2"])
    }

    @Test("ReadingOrder.nodes works on an already filtered tree and returns groups only for kept-together containers")
    func nodesOfTree() {
        let root = Element(id: "root", children: [
            Element(id: "plain", children: [text("x", rect(0, 0, 10, 10))]),
            Element(id: "kept", shouldGroupAccessibilityChildren: true, children: [text("y", rect(0, 20, 10, 10))]),
        ])
        #expect(outline(ReadingOrder.nodes(of: Visibility.accessibilityTree(root))) == ["x", "kept[y]"])
    }
}
