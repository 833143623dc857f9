import AccessibilityModel
import Testing

/// `Element` keeps its attributes behind one shared reference; it must still behave as a value.
@Suite("Element is a value")
struct ElementValueTests {
    static let keyboard = Element(
        id: "keys", label: "Keyboard", frame: Rect(x: 0, y: 0, width: 100, height: 44),
        children: [
            Element(id: "q", label: "Q", traits: [.keyboardKey]),
            Element(id: "w", label: "W", traits: [.keyboardKey]),
        ])

    @Test("Changing a copy, at the top or down in its children, leaves the original as it was")
    func copiesAreIndependent() {
        let original = Self.keyboard
        var copy = original
        copy.label = "Letters"
        copy.children[1].label = "w"
        copy.children[0].traits.insert(.selected)
        copy.children.append(Element(id: "e", label: "E"))

        #expect(original.label == "Keyboard")
        #expect(original.children.map(\.label) == ["Q", "W"])
        #expect(original.children[0].traits == [.keyboardKey])
        #expect(copy.label == "Letters")
        #expect(copy.children.map(\.label) == ["Q", "w", "E"])
        #expect(copy.children[0].traits == [.keyboardKey, .selected])
        #expect(original != copy)
    }

    @Test("Equal attributes are equal and hash alike, whether or not they share storage")
    func equalityFollowsAttributes() {
        let built = Element(
            id: "keys", label: "Keyboard", frame: Rect(x: 0, y: 0, width: 100, height: 44),
            children: [
                Element(id: "q", label: "Q", traits: [.keyboardKey]),
                Element(id: "w", label: "W", traits: [.keyboardKey]),
            ])
        #expect(built == Self.keyboard)
        #expect(Set([built, Self.keyboard]).count == 1)

        var changedBack = Self.keyboard
        changedBack.hint = "Types letters."
        #expect(changedBack != Self.keyboard)
        changedBack.hint = nil
        #expect(changedBack == Self.keyboard)
        #expect(changedBack.hashValue == Self.keyboard.hashValue)
    }
}
