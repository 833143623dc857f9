import AccessibilityModel
import BrailleFormatting
import LiveTree
import Testing

/// What real applications publish (trees as gnome-calculator, galculator, FeatherPad and a
/// browser give them): text read from the Text interface, names as Orca chooses them, never a
/// toolkit class or an object path.
@Suite("Text and names of real applications")
struct TextAndNamesTests {
    private func item(_ node: AccessibleNode) -> Element { AccessibleMapping.element(node) }
    private func line(_ element: Element) -> String { BrailleFormatter().item(element).text }

    @Test("a paragraph with no name reads its text (a browser's <p>), one line, embedded objects left out")
    func paragraphText() {
        let paragraph = AccessibleNode(
            id: ":1.5/org/a11y/atspi/accessible/86", role: "paragraph", text: "The answer\n  is \u{FFFC} forty-two.")
        let element = item(paragraph)
        #expect(element.label == "The answer is forty-two.")
        #expect(line(element) == "The answer is forty-two.")
    }

    @Test("an unnamed display (galculator's, a label with no name) reads its text, not its object path")
    func displayText() {
        let display = AccessibleNode(id: ":1.2/org/a11y/atspi/accessible/80", role: "label", text: "42")
        #expect(item(display).label == "42")
        #expect(!line(item(display)).contains("/org/a11y"))
        // A wordless item with nothing to read says its role, never its object path.
        let empty = AccessibleNode(id: ":1.2/org/a11y/atspi/accessible/81", role: "list item", text: "")
        #expect(line(item(empty)) == "list item")
        // Static text with nothing in it (galculator's spacer, a label named " ") is not scanned.
        let spacer = AccessibleNode(id: "s", role: "label", name: " ", text: " ")
        let window = AccessibleNode(id: "w", role: "frame", name: "galculator", children: [spacer, display])
        #expect(AccessibleMapping.screen(of: window).scanItems().map(\.label) == ["42"])
    }

    @Test("a slider whose value cannot be read (Chromium's resize handles) is an item without a value")
    func sliderWithoutValue() {
        let handle = AccessibleNode(id: "h", role: "slider", name: "Side Panel Resize Handle (draggable)", value: nil)
        let element = item(handle)
        #expect(element.isAccessibilityElementDeclared == true)
        #expect(element.value == nil)
        #expect(!element.traits.contains(.adjustable))
        #expect(line(element) == "Side Panel Resize Handle (draggable)")
    }

    @Test("a text field shows its label, its role and its content; its content is not its label")
    func textFieldContent() {
        let field = AccessibleNode(
            id: "e", role: "text", name: "GtkSourceView", states: [.enabled, .sensitive, .visible, .editable],
            text: "7×6", labelledBy: "Expression")
        let element = item(field)
        #expect(element.label == "Expression")
        #expect(element.value == "7×6")
        #expect(line(element) == "Expression 7×6 text field")
        let unlabelled = AccessibleNode(id: "e2", role: "text", name: "GtkSourceView", states: [.enabled, .sensitive, .visible, .editable], text: "42")
        #expect(item(unlabelled).label == nil)
        #expect(line(item(unlabelled)) == "42 text field")
    }

    @Test("an unnamed, empty text field is not named by its children (FeatherPad's editor and the tooltip of its line-number area): it reads as a text field, as Orca says text")
    func unnamedEditor() {
        let editor = AccessibleNode(
            id: ":1.9/org/a11y/atspi/accessible/2147483676", role: "text", states: [.enabled, .sensitive, .visible, .showing, .editable],
            text: "",
            children: [
                AccessibleNode(id: ":1.9/org/a11y/atspi/accessible/2147483677", role: "filler",
                               children: [AccessibleNode(id: ":1.9/org/a11y/atspi/accessible/2147483678", role: "scroll bar")]),
                AccessibleNode(id: ":1.9/org/a11y/atspi/accessible/2147483679", role: "filler",
                               description: "Double click to center current line"),
            ])
        let element = item(editor)
        #expect(element.label == nil)
        #expect(line(element) == "text field")
    }

    @Test("a long document is read in part: its line says that more follows")
    func cutText() {
        let document = AccessibleNode(id: "d", role: "document text", text: String(repeating: "word ", count: 400), textIsCut: true)
        let label = item(document).label ?? ""
        #expect(label.hasSuffix("word…"))
        #expect(item(document).isAccessibilityElementDeclared == true)
    }

    @Test("names in Orca's order: labelled-by, then the name, then the description (a Qt tooltip), then the text")
    func nameOrder() {
        let labelled = AccessibleNode(id: "s", role: "spin button", name: "count", labelledBy: "Copies")
        #expect(item(labelled).label == "Copies")
        let named = AccessibleNode(id: "b", role: "push button", name: "Save", description: "Save the file", actions: ["Press"])
        #expect(item(named).label == "Save")
        #expect(item(named).hint == "Save the file")
        // A Qt tool button with only a tooltip: the tooltip names it (once: not again as the hint).
        let tooltip = AccessibleNode(id: "q", role: "push button", description: "Open a file", actions: ["Press"])
        #expect(item(tooltip).label == "Open a file")
        #expect(item(tooltip).hint == nil)
        #expect(line(item(tooltip)) == "Open a file btn")
        let textOnly = AccessibleNode(id: "t", role: "label", name: "", text: "Ready")
        #expect(item(textOnly).label == "Ready")
    }

    @Test("a toolkit's class name is no name: GTK 4's unnamed buttons read their children or their role")
    func classNames() {
        for name in ["GtkButton", "GtkImage", "GtkMenuButton", "GtkScrollbar", "GtkListBox", "GtkSourceView", "GtkScale", "QPushButton", "AdwHeaderBar"] {
            #expect(!AccessibleMapping.isRealName(name), "\(name)")
        }
        for name in ["Quit", "QWERTY", "Gtk", "GTK settings", "Question", "π", "x²", "Qt 5"] {
            #expect(AccessibleMapping.isRealName(name), "\(name)")
        }
        let pi = AccessibleNode(id: "pi", role: "push button", name: "GtkButton", actions: ["click"],
                                children: [AccessibleNode(id: "pi/l", role: "label", name: "π")])
        #expect(item(pi).label == "π")
        let clear = AccessibleNode(id: "c", role: "push button", name: "GtkButton", description: "Clear", actions: ["click"],
                                   children: [AccessibleNode(id: "c/i", role: "image", name: "GtkImage")])
        #expect(item(clear).label == "Clear")
        let menu = AccessibleNode(id: "m", role: "toggle button", name: "GtkMenuButton", actions: ["click"],
                                  children: [AccessibleNode(id: "m/i", role: "image", name: "GtkImage")])
        #expect(item(menu).label == nil)
        #expect(line(item(menu)) == "btn")
        let scrollbar = AccessibleNode(id: "s", role: "scroll bar", name: "GtkScrollbar")
        #expect(item(scrollbar).label == "scroll bar")
        // A container named after its class is not an item for it.
        let list = AccessibleNode(id: "l", role: "list box", name: "GtkListBox",
                                  children: [AccessibleNode(id: "l/1", role: "list item", name: "1 + 1 = 2")])
        #expect(AccessibleMapping.element(list).isAccessibilityElementDeclared == false)
    }

    @Test("children's text joined once: a button and its label both saying 7 read 7")
    func childrenOnce() {
        let seven = AccessibleNode(id: "7", role: "push button", actions: ["click"], children: [
            AccessibleNode(id: "7/l", role: "label", name: "7"),
            AccessibleNode(id: "7/l2", role: "label", name: "7"),
        ])
        #expect(item(seven).label == "7")
        let mod = AccessibleNode(id: "mod", role: "push button", actions: ["click"], children: [
            AccessibleNode(id: "mod/box", role: "panel", children: [
                AccessibleNode(id: "mod/l", role: "label", name: "mod"), AccessibleNode(id: "mod/t", role: "label", text: "mod"),
            ]),
        ])
        #expect(item(mod).label == "mod")
        // Different words are all kept, in order.
        let row = AccessibleNode(id: "r", role: "list item", children: [
            AccessibleNode(id: "r/a", role: "label", name: "7 × 6"), AccessibleNode(id: "r/b", role: "label", name: "42"),
        ])
        #expect(item(row).label == "7 × 6 42")
    }

    @Test("a text change read in place updates the item's label")
    func textChangeInPlace() {
        var window = AccessibleNode(id: "w", role: "frame", name: "Calculator", children: [
            AccessibleNode(id: "d", role: "label", text: "7×6"),
        ])
        let found = window.updateProperties(of: "d", from: AccessibleNode(id: "d", role: "label", text: "42"))
        #expect(found)
        #expect(AccessibleMapping.screen(of: window).scanItems().map(\.label) == ["42"])
    }

    @Test("which objects have their text and label relation read")
    func whatIsRead() {
        #expect(AccessibleMapping.readsText(role: "paragraph", name: "Intro"))
        #expect(AccessibleMapping.readsText(role: "label", name: ""))
        #expect(AccessibleMapping.readsText(role: "label", name: "GtkLabel"))
        #expect(!AccessibleMapping.readsText(role: "label", name: "Count"))
        #expect(!AccessibleMapping.readsText(role: "password text", name: ""))
        // A GTK 3 scale's text is its value, said by the Value interface: not its label.
        #expect(!AccessibleMapping.readsText(role: "slider", name: ""))
        // GTK 3 also describes it by its value: no label, no hint, the value once.
        let scale = AccessibleNode(
            id: "s", role: "slider", description: "50", value: AccessibleValue(current: 50, minimum: 0, maximum: 100, minimumIncrement: 1), text: "50")
        #expect(AccessibleMapping.element(scale).label == nil)
        #expect(AccessibleMapping.element(scale).hint == nil)
        #expect(AccessibleMapping.element(scale).value == "50")
        #expect(AccessibleMapping.readsLabelRelation(role: "slider"))
        #expect(!AccessibleMapping.readsLabelRelation(role: "panel"))
    }
}
