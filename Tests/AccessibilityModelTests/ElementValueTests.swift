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

/// `Element.showing(_:)` (a relabel puts what an element shows in a shared object instead of
/// copying the element): the element must read, compare, hash and change as one built with
/// those attributes.
@Suite("An element showing shared attributes")
struct ElementShowingTests {
    static let key = Element(
        id: "q", label: "Q (3)", value: "off", hint: "Types q.", traits: [.keyboardKey],
        frame: Rect(x: 0, y: 0, width: 40, height: 44),
        customActions: [CustomAction(name: "Clear 3", effects: [])])

    static let relabelled = ShownAttributes(
        label: "Q (4)", value: nil, hint: "Types q.", traits: [.keyboardKey, .selected],
        customActions: [CustomAction(name: "Clear 4", effects: [])], customContent: [])

    /// The same key built with the relabelled attributes.
    static let built = Element(
        id: "q", label: "Q (4)", value: nil, hint: "Types q.", traits: [.keyboardKey, .selected],
        frame: Rect(x: 0, y: 0, width: 40, height: 44),
        customActions: [CustomAction(name: "Clear 4", effects: [])])

    @Test("It reads, compares and hashes as the element built with those attributes")
    func readsAsBuilt() {
        let shown = Self.key.showing(ShownAttributes.Shared(Self.relabelled))
        #expect(shown.label == "Q (4)")
        #expect(shown.value == nil, "a value the new attributes do not have is gone")
        #expect(shown.traits == [.keyboardKey, .selected])
        #expect(shown.customActions.map(\.name) == ["Clear 4"])
        #expect(shown.frame == Self.key.frame)
        #expect(shown.shownAttributes == Self.relabelled)
        #expect(shown == Self.built)
        #expect(Self.built == shown)
        #expect(shown.hashValue == Self.built.hashValue)
        #expect(Set([shown, Self.built]).count == 1)
        #expect(shown != Self.key)
        #expect(Self.key.label == "Q (3)", "the original is unchanged")

        // Two copies given the same object are one element; given equal objects, equal.
        let shared = ShownAttributes.Shared(Self.relabelled)
        #expect(Self.key.showing(shared) == Self.key.showing(shared))
        #expect(Self.key.showing(ShownAttributes.Shared(Self.relabelled)) == Self.key.showing(shared))
        // Showing its own attributes again: equal to itself.
        #expect(Self.key.showing(ShownAttributes.Shared(Self.key.shownAttributes)) == Self.key)
    }

    @Test("A change to it keeps what it shows and leaves its copies alone")
    func changesKeepShown() {
        let shared = ShownAttributes.Shared(Self.relabelled)
        let shown = Self.key.showing(shared)
        var changed = shown
        changed.frame = Rect(x: 10, y: 0, width: 40, height: 44)
        #expect(changed.label == "Q (4)")
        #expect(changed.traits == [.keyboardKey, .selected])
        #expect(changed.frame?.x == 10)
        #expect(shown.frame?.x == 0)
        var relabelled = shown
        relabelled.label = "Q (5)"
        #expect(relabelled.label == "Q (5)")
        #expect(relabelled.customActions.map(\.name) == ["Clear 4"])
        #expect(shown.label == "Q (4)")
        #expect(shared.attributes.label == "Q (4)", "the shared attributes are never written")

        // A container whose children show shared attributes compares by what they show.
        let container = Element(id: "row", children: [shown])
        #expect(container == Element(id: "row", children: [Self.built]))
        #expect(container != Element(id: "row", children: [Self.key]))
    }
}
