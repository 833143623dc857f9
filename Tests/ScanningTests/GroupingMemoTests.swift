import AccessibilityModel
import Testing

@testable import Scanning

// Reusing the arrangement of unchanged automatic containers gives what grouping from scratch
// gives, when containers change, appear, go, or keep their id with other content.

@Suite struct GroupingMemoTests {
    static func container(_ id: String, keys count: Int, top: Double, label: String = "k") -> Element {
        let keys = GroupingFixture.keys(count, perRow: 10, prefix: "\(id)-", top: top).map { key -> Element in
            var key = key
            key.label = "\(label) \(key.id)"
            return key
        }
        return Element(id: id, shouldGroupAccessibilityChildren: true, children: keys)
    }

    @Test func everyCallGroupsAsFromScratch() {
        let base = (0..<12).map { Self.container("box\($0)", keys: 30 + $0 * 7, top: Double($0) * 600) }
        var variants = [base]
        var changed = base
        changed[3] = Self.container("box3", keys: 12, top: 1800)                  // fewer keys, same id
        variants.append(changed)
        changed[5] = Self.container("box5", keys: 65, top: 3000, label: "renamed") // other labels
        variants.append(changed)
        changed.remove(at: 7)                                               // a container goes
        variants.append(changed)
        changed.insert(Self.container("new", keys: 40, top: 9000), at: 0)        // one appears
        variants.append(changed)
        changed += GroupingFixture.keys(9, prefix: "loose", top: 20_000)    // loose items around
        variants.append(changed)
        variants.append(base)
        var memo = GroupingMemo()
        for (index, elements) in variants.enumerated() {
            let nodes = GroupingFixture.gridScreen(elements).scanNodes(groupAutomatic: true)
            let remembered = AutomaticGrouping.group(nodes, memo: &memo)
            #expect(remembered == AutomaticGrouping.group(nodes), "variant \(index)")
            #expect(remembered.flatMap(\.items).map(\.id) == nodes.flatMap(\.items).map(\.id))
        }
    }
}
