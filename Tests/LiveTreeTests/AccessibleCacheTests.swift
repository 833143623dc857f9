import AccessibilityModel
import LiveTree
import Testing

/// A (so) reference.
private func reference(_ bus: String, _ path: String) -> BusValue { .structure([.string(bus), .string(path)]) }

/// One GetItems item, as GTK 3's bridge sends it: ((so)(so)(so)iiassusau).
private func item(
    _ path: String, parent: String, index: Int64 = 0, children: Int64 = 0, name: String = "", role: UInt64 = 29,
    states: [UInt64] = [0x4300_0100, 0], interfaces: [String] = ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component"]
) -> BusValue {
    .structure([
        reference(":1.5", path), reference(":1.5", "/org/a11y/atspi/accessible/root"), reference(":1.5", parent),
        .integer(index), .integer(children), .array(interfaces.map { .string($0) }), .string(name), .unsigned(role),
        .string(""), .array(states.map { .unsigned($0) }),
    ])
}

@Suite("The AT-SPI cache's GetItems reply, checked")
struct AccessibleCacheTests {
    @Test("each item gives its object, parent, place, children count, interfaces, name, role and states")
    func wellFormed() {
        let reply = CacheReply.parse([.array([
            item("/org/a11y/atspi/accessible/1", parent: "/org/a11y/atspi/accessible/root", index: 0, children: 1, name: "Long list", role: 23),
            item("/org/a11y/atspi/accessible/2", parent: "/org/a11y/atspi/accessible/1", index: 0, children: 0, name: "OK", role: 43),
        ])])
        #expect(reply.problems.isEmpty)
        #expect(reply.items.count == 2)
        let button = reply.items[1]
        #expect(button.id == ":1.5/org/a11y/atspi/accessible/2")
        #expect(button.parentID == ":1.5/org/a11y/atspi/accessible/1")
        #expect(button.indexInParent == 0)
        #expect(button.childCount == 0)
        #expect(button.name == "OK")
        #expect(button.role == 43)
        #expect(button.interfaces.contains("org.a11y.atspi.Component"))
        // 0x43000100: ENABLED (8), SENSITIVE (24), SHOWING (25), VISIBLE (30).
        #expect(button.states == [.enabled, .sensitive, .showing, .visible])
    }

    @Test("a list that manages its descendants (GTK 3's list box, child count -1 or the state set) has no child count")
    func managesDescendants() {
        let reply = CacheReply.parse([.array([
            item("/a/list", parent: "/a/frame", children: 10_000, states: [0xC300_0000, 0]),
            item("/a/other", parent: "/a/frame", index: -1, children: -1),
        ])])
        #expect(reply.items.map(\.childCount) == [nil, nil])
        #expect(reply.items[1].indexInParent == nil)
        #expect(reply.items[0].states == [.sensitive, .showing, .visible, .managesDescendants])
    }

    @Test("a malformed item costs that item, and is said; the others are read")
    func malformedItems() {
        var wrongRole = item("/a/3", parent: "/a/1")
        if case .structure(var fields) = wrongRole { fields[7] = .string("button"); wrongRole = .structure(fields) }
        var hugeCount = item("/a/4", parent: "/a/1")
        if case .structure(var fields) = hugeCount { fields[4] = .integer(Int64(Int32.max)); hugeCount = .structure(fields) }
        var badPath = item("/a/5", parent: "/a/1")
        if case .structure(var fields) = badPath { fields[0] = .structure([.string(":1.5"), .string("no-slash")]); badPath = .structure(fields) }
        var bigState = item("/a/6", parent: "/a/1")
        if case .structure(var fields) = bigState { fields[9] = .array([.unsigned(1 << 40)]); bigState = .structure(fields) }
        var shortItem = item("/a/7", parent: "/a/1")
        if case .structure(let fields) = shortItem { shortItem = .structure(Array(fields.prefix(8))) }
        let reply = CacheReply.parse([.array([
            item("/a/2", parent: "/a/1", name: "kept"), wrongRole, hugeCount, badPath, bigState, shortItem, .string("not an item"),
            item("/a/8", parent: "/a/1", index: 1, name: "kept too"),
        ])])
        #expect(reply.items.map(\.name) == ["kept", "kept too"])
        #expect(reply.problems.count == 6)
        #expect(reply.problems[0].hasPrefix("GetItems item 1: the role 'button'"))
        #expect(reply.problems[1].hasPrefix("GetItems item 2: child count 2147483647"))
        #expect(reply.problems[5] == "GetItems item 6: not a structure")
    }

    @Test("a reply that is not one array is said, and gives nothing")
    func wrongReply() {
        #expect(CacheReply.parse([]).problems.count == 1)
        #expect(CacheReply.parse([.string("a"), .array([])]).items.isEmpty)
        #expect(CacheReply.parse([.integer(3)]).problems.first?.contains("not one array") == true)
    }

    @Test("the window's part of the cache in order of the children's places; a list whose rows are not in it is named")
    func windowTree() {
        let reply = CacheReply.parse([.array([
            item("/a/frame", parent: "/org/a11y/atspi/accessible/root", children: 2),
            item("/a/list", parent: "/a/frame", index: 1, children: -1),
            item("/a/label", parent: "/a/frame", index: 0),
            item("/a/elsewhere", parent: "/a/other"),
        ])])
        let tree = reply.tree(under: ":1.5/a/frame")
        #expect(tree.ids == [":1.5/a/frame", ":1.5/a/label", ":1.5/a/list"])
        #expect(tree.incomplete == [":1.5/a/list"])
    }
}

@Suite("A row appended to a big list")
struct AttachedRowTests {
    private let window = AccessibleNode(id: "w", role: "frame", children: [
        AccessibleNode(id: "list", role: "list box", children: [AccessibleNode(id: "row0", role: "list item")]),
    ])

    @Test("a parent change of an object not read (GTK 3's new row's label) names it to be placed; one already read reads nothing")
    func parentChange() {
        let plan = ChangePlan.plan([
            ChangeEvent(type: "object:property-change:accessible-parent", sourceID: "label1"),
            ChangeEvent(type: "object:state-changed:showing", sourceID: "label1"),
            ChangeEvent(type: "object:property-change:accessible-parent", sourceID: "label1"),
            ChangeEvent(type: "object:property-change:accessible-parent", sourceID: "row0"),
        ], in: window)
        #expect(plan.attached == ["label1"])
        #expect(plan.readInPlace.isEmpty)
        #expect(plan.ignored == 3)
        #expect(!plan.isEmpty)
    }

    @Test("rows read later, rows read again and a row put at its place go where they belong")
    func treeEdits() {
        var tree = window
        let placed1 = tree.placeChildren([AccessibleNode(id: "row2", role: "list item")], from: 1, in: "list")
        #expect(placed1)
        let placed2 = tree.insertChild(AccessibleNode(id: "row1", role: "list item"), at: 1, in: "list")
        #expect(placed2)
        let placed3 = tree.insertChild(AccessibleNode(id: "row9", role: "list item"), at: 99, in: "list")
        #expect(placed3)
        let placed4 = tree.placeChildren([], from: 0, in: "nowhere")
        #expect(!placed4)
        #expect(tree.node(withID: "list")?.children.map(\.id) == ["row0", "row1", "row2", "row9"])
        // Rows read again take the places of those read before; the ones past them are added.
        let placed5 = tree.placeChildren(["new2", "new9", "row10"].map { AccessibleNode(id: $0, role: "list item") }, from: 2, in: "list")
        #expect(placed5)
        #expect(tree.node(withID: "list")?.children.map(\.id) == ["row0", "row1", "new2", "new9", "row10"])
    }
}

@Suite("A scroll in a big list")
struct BigListScrollTests {
    /// A window holding a list of `rows` rows, each a list item with a label; the rows in
    /// `inView` have a frame, the others GTK 3's G_MININT position (out of view).
    static func window(rows: Int, inView: Range<Int>, managesDescendants: Bool = true) -> AccessibleNode {
        let offScreen = Rect(x: -2_147_483_648, y: -2_147_483_648, width: 200, height: 20)
        let list = AccessibleNode(
            id: "list", role: "list box", states: managesDescendants ? [.enabled, .visible, .showing, .managesDescendants] : [.enabled, .visible, .showing],
            children: (0..<rows).map { row in
                let frame = inView.contains(row) ? Rect(x: 10, y: Double(20 * (row - inView.lowerBound)), width: 200, height: 20) : offScreen
                return AccessibleNode(id: "row\(row)", role: "list item", screenExtents: frame, children: [
                    AccessibleNode(id: "label\(row)", role: "label", name: "Row \(row)", screenExtents: frame),
                ])
            })
        let across = AccessibleValue(current: 0, minimum: 0, maximum: 0, minimumIncrement: 1)
        let down = AccessibleValue(current: 0, minimum: 0, maximum: Double(20 * rows - 400), minimumIncrement: 1)
        return AccessibleNode(id: "w", role: "frame", screenExtents: Rect(x: 0, y: 0, width: 300, height: 400), children: [
            AccessibleNode(id: "bar", role: "scroll bar"),
            AccessibleNode(id: "pane", role: "scroll pane", children: [
                AccessibleNode(id: "viewport", role: "viewport", children: [list]),
                AccessibleNode(id: "across", role: "scroll bar", value: across), AccessibleNode(id: "down", role: "scroll bar", value: down),
            ]),
        ])
    }

    @Test("the big list and row holding an object: only a list that manages its descendants and holds more rows than are read at once")
    func listRow() {
        let window = Self.window(rows: 100, inView: 0..<20)
        func place(_ id: String) -> String? { window.bigListRow(holding: id, rowsReadAtOnce: 60).map { "\($0.listID) \($0.row)" } }
        #expect(place("label97") == "list 97")
        #expect(place("row3") == "list 3")
        #expect(window.bigListRow(holding: "list", rowsReadAtOnce: 60) == nil)
        #expect(window.bigListRow(holding: "bar", rowsReadAtOnce: 60) == nil)
        #expect(window.bigListRow(holding: "label97", rowsReadAtOnce: 100) == nil, "a list of 100 rows when 100 are read at once")
        #expect(Self.window(rows: 100, inView: 0..<20, managesDescendants: false).bigListRow(holding: "label97", rowsReadAtOnce: 60) == nil,
                "a list that does not manage its descendants (a page's list of links) is read whole, never in part")
    }

    @Test("a scroll to a row reads the rows around it and those that were in view, each with its label; no other object")
    func rowsMoved() {
        let window = Self.window(rows: 1_000, inView: 0..<20)
        let ids = window.rowsMovedByScroll(in: "list", to: 900, reach: 60)
        let rows = Set(ids.filter { $0.hasPrefix("row") }.map { Int($0.dropFirst(3))! })
        #expect(rows == Set(0..<20).union(840..<961))
        #expect(ids.count == 2 * rows.count, "each row with its label")
        // The last row: the rows before it only; none when the list is not in the window.
        #expect(Set(window.rowsMovedByScroll(in: "list", to: 999, reach: 60).filter { $0.hasPrefix("row") }) == Set((Array(0..<20) + Array(939..<1_000)).map { "row\($0)" }))
        #expect(window.rowsMovedByScroll(in: "nowhere", to: 3, reach: 60).isEmpty)
    }

    @Test("the list's scroll bar is the one beside it with a range; its value for a row puts the row in view")
    func scrollBar() throws {
        let window = Self.window(rows: 1_000, inView: 0..<20)
        let bar = try #require(window.scrollBar(of: "list"))
        #expect(bar.id == "down", "the horizontal bar (no range) or the window's bar (no value) was taken")
        let value = try #require(bar.value)
        #expect(AccessibleNode.scrollValue(showing: 0, of: 1_000, on: value) == 0)
        #expect(AccessibleNode.scrollValue(showing: 999, of: 1_000, on: value) == value.maximum)
        // Row 500 at most a view's height (400) above the view's top: in view.
        let middle = AccessibleNode.scrollValue(showing: 500, of: 1_000, on: value)
        #expect(middle <= 500 * 20 && middle > 500 * 20 - 400)
        #expect(AccessibleNode.scrollValue(showing: 5_000, of: 1_000, on: value) == value.maximum)
        #expect(window.scrollBar(of: "nowhere") == nil)
    }

    @Test("rows reported outside the window after a scroll lose their frames (the list's order), those inside keep them")
    func framesOutside() {
        var window = Self.window(rows: 100, inView: 0..<20)
        window.dropFramesOutside(Rect(x: 0, y: 100, width: 300, height: 400), inList: "list")
        let list = window.node(withID: "list")!
        // Rows 0..19 are at y = 0, 20, … 380: those wholly above y = 100 (rows 0 to 4) lose theirs.
        #expect(list.children.filter { WindowCoordinates.usable($0.screenExtents) != nil }.map(\.id) == (5..<20).map { "row\($0)" })
        #expect(list.children[2].children[0].screenExtents == nil, "a row's label keeps a frame outside the window")
        #expect(list.children[7].children[0].screenExtents != nil)
    }
}
