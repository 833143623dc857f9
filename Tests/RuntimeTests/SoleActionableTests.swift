import AccessibilityModel
import LiveTree
@testable import Runtime
import Testing

/// A tap on an item with no action of its own: a page's list row holding one link follows the
/// link (a click at the row's middle, beside the link's text, did nothing).
@Suite struct SoleActionableTests {
    static func row(links: Int) -> AccessibleNode {
        AccessibleNode(
            id: ":1.4/row", role: "list item", extents: Rect(x: 0, y: 0, width: 600, height: 20),
            children: [AccessibleNode(id: ":1.4/marker", role: "static", name: "120.")]
                + (0..<links).map { AccessibleNode(id: ":1.4/link\($0)", role: "link", name: "Link \($0)", actions: ["jump"]) })
    }

    @Test("a row holding one link: the link; two links or none: nothing (the pointer click stays)")
    func oneLinkOnly() {
        #expect(LiveApplication.soleActionable(in: Self.row(links: 1))?.id == ":1.4/link0")
        #expect(LiveApplication.soleActionable(in: Self.row(links: 2)) == nil)
        #expect(LiveApplication.soleActionable(in: Self.row(links: 0)) == nil)
    }
}
