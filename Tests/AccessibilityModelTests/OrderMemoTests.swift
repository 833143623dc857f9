import AccessibilityModel
import Testing

// Reusing the ordered nodes of unchanged top-level units gives what a full ordering gives, over a
// sequence of screens that differ in one part at a time, and whatever the memo held before.

@Suite("Order memo")
struct OrderMemoTests {
    static func key(_ id: String, _ x: Double, _ y: Double, label: String? = nil) -> Element {
        Element(id: id, label: label ?? id, frame: rect(x, y, 40, 40))
    }

    static func box(_ id: String, y: Double, hiddenKey: Bool = false, label: String = "k", style: NavigationStyle = .automatic) -> Element {
        Element(id: id, shouldGroupAccessibilityChildren: true, navigationStyle: style, children: [
            key("\(id)-a", 0, y, label: label), key("\(id)-b", 50, y),
            Element(id: "\(id)-c", label: "c", frame: rect(100, y, 40, 40), isPresent: !hiddenKey),
            key("\(id)-d", 0, y + 50),
        ])
    }

    /// Variants of one screen, each differing from the one before in one place.
    static let variants: [[Element]] = {
        let base = [key("title", 0, 0), box("one", y: 100), box("two", y: 300), box("three", y: 500), key("side", 300, 0)]
        var list = [base]
        var changed = base
        changed[2] = box("two", y: 300, hiddenKey: true)           // a key inside a unit disappears
        list.append(changed)
        changed[1] = box("one", y: 100, label: "renamed")           // a label inside a unit changes
        list.append(changed)
        changed.append(Element(id: "banner", label: "Banner", frame: rect(0, 50, 390, 40)))  // a unit appears
        list.append(changed)
        changed[3] = box("three", y: 500, style: .separate)         // a unit's navigation style changes
        list.append(changed)
        changed[0].sortPriority = -1                                // a priority moves a unit last
        list.append(changed)
        var modal = changed
        modal.append(Element(id: "sheet", accessibilityViewIsModal: true, children: [key("ok", 0, 700)]))
        list.append(modal)                                          // a modal sibling hides the rest
        list.append(changed)                                        // and goes away again
        var hidden = changed
        hidden[2].accessibilityElementsHidden = true                // a unit is hidden
        list.append(hidden)
        list.append(changed + [Element(id: "plain", children: [key("loose", 200, 0)])])  // a transparent container
        return list
    }()

    @Test(arguments: [true, false])
    func everyVariantOrdersAsAFullOrdering(groupAutomatic: Bool) {
        var memo = OrderMemo()
        for (index, elements) in Self.variants.enumerated() {
            let screen = Screen(name: "main", size: rect(0, 0, 390, 844), elements: elements)
            #expect(screen.scanNodes(groupAutomatic: groupAutomatic, memo: &memo) == screen.scanNodes(groupAutomatic: groupAutomatic),
                    "variant \(index)")
        }
        // Backwards, from a memo full of later variants.
        for (index, elements) in Self.variants.enumerated().reversed() {
            let screen = Screen(name: "main", size: rect(0, 0, 390, 844), elements: elements)
            #expect(screen.scanNodes(groupAutomatic: groupAutomatic, memo: &memo) == screen.scanNodes(groupAutomatic: groupAutomatic),
                    "variant \(index), backwards")
        }
    }

    @Test func anExplicitOrderIsOrderedInFull() {
        var memo = OrderMemo()
        for order in [["two-a", "one-b"], ["one-b", "two-a", "title"]] {
            let screen = Screen(name: "main", elements: Self.variants[0], accessibilityElements: order)
            let nodes = screen.scanNodes(groupAutomatic: true, memo: &memo)
            #expect(nodes == screen.scanNodes(groupAutomatic: true))
            #expect(nodes.map(\.id) == order)
        }
    }
}
