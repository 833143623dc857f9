import AccessibilityModel
import BrailleFormatting
import Testing

/// A leaf element with a label and traits.
func leaf(_ id: ElementID, _ label: String?, value: String? = nil, hint: String? = nil, traits: Traits = []) -> Element {
    Element(id: id, label: label, value: value, hint: hint, traits: traits)
}

/// A button whose id and label are the same.
func buttonNode(_ label: String) -> ScanNode {
    .item(leaf(label, label, traits: .button))
}

/// A segment that routes to an element.
func segment(_ range: Range<Int>, _ id: ElementID) -> BrailleLine.Segment {
    BrailleLine.Segment(range: range, target: .element(id))
}

/// A group node, with or without a label.
func groupNode(_ id: ElementID, label: String? = nil, _ children: [ScanNode]) -> ScanNode {
    .group(Element(id: id, label: label, navigationStyle: .combined), children)
}

@Suite("Braille line text")
struct BrailleFormatterTests {
    let formatter = BrailleFormatter()

    // MARK: docs/braille.md examples

    @Test("docs/braille.md: Volume 50% sldr")
    func volumeSlider() {
        let line = formatter.item(leaf("volume", "Volume", value: "50%", traits: .adjustable))
        #expect(line.text == "Volume 50% sldr")
        #expect(line.segments == [.init(range: 0..<15, target: .element("volume"))])
    }

    @Test("docs/braille.md: Wi-Fi sel btn")
    func wifiSelectedButton() {
        let line = formatter.item(leaf("wifi", "Wi-Fi", traits: [.button, .selected]))
        #expect(line.text == "Wi-Fi sel btn")
        #expect(line.segments == [.init(range: 0..<13, target: .element("wifi"))])
    }

    @Test("docs/braille.md: Test 1, Test 2 grp (combined group without a label)")
    func combinedGroupWithoutLabel() {
        let node = groupNode("test-wrap", [buttonNode("Test 1"), buttonNode("Test 2")])
        let line = formatter.line(for: node)
        #expect(line.text == "Test 1, Test 2 grp")
        #expect(line.segments == [.init(range: 0..<18, target: .element("test-wrap"))])
    }

    // MARK: trait words

    @Test("role and state words in the element's language, else the formatter's (the scene's)")
    func wordsInTheReadersLanguage() {
        let french = Element(id: "ouvrir", label: "Ouvrir", traits: [.button, .selected], language: "fr-FR")
        #expect(BrailleFormatter().item(french).text == "Ouvrir sél bout")
        let chinese = Element(id: "add", label: "添加", traits: [.button])
        #expect(BrailleFormatter(language: "zh-Hans").item(chinese).text == "添加 按钮")
        #expect(BrailleFormatter(language: "en-US").item(chinese).text == "添加 btn")
        let group = Element(id: "g", label: "Réglages")
        #expect(BrailleFormatter(language: "fr").group(group, children: []).text == "Réglages grp")
        #expect(BrailleFormatter(language: "zh").group(group, children: []).text == "Réglages 组")
    }

    @Test("brailleRoleFirst puts the role and state words before the label")
    func roleFirst() {
        let play = Element(id: "play", label: "Play the whole album from the start", traits: [.button])
        #expect(BrailleFormatter(roleFirst: true).item(play).text == "btn Play the whole album from the start")
        #expect(BrailleFormatter().item(play).text == "Play the whole album from the start btn")
    }

    @Test("important custom content follows the value, before the role words and the hint; the rest is not on the line")
    func importantCustomContent() {
        let logo = Element(
            id: "logo", label: "Orange logo", value: "Brand", hint: "Shows the brand.", traits: [.image],
            customContent: [
                CustomContent(label: "date of creation", value: "1988", isImportant: true),
                CustomContent(label: "registered office location", value: "paris"),
                CustomContent(label: "type of company", value: "telecommunications\ncompany", isImportant: true),
            ])
        #expect(BrailleFormatter().item(logo).text == "Orange logo Brand 1988 telecommunications company img")
        #expect(BrailleFormatter(showHints: true).item(logo).text
            == "Orange logo Brand 1988 telecommunications company img Shows the brand.")
        #expect(BrailleFormatter(roleFirst: true).item(logo).text == "img Orange logo Brand 1988 telecommunications company")
        // Without a label or value the line starts with the important content.
        let unnamed = Element(id: "u", traits: [.image], customContent: [CustomContent(label: "year", value: "1988", isImportant: true)])
        #expect(BrailleFormatter().item(unnamed).text == "1988 img")
        // The scanner menu's entry line carries it too.
        #expect(BrailleFormatter().menuEntry("Tap", index: 0, count: 2, for: logo).text
            == "Tap 1/2: Orange logo Brand 1988 telecommunications company img")
    }

    static let traitWordCases: [(String, String)] = [
        ("button", "btn"), ("link", "lnk"), ("header", "h"), ("adjustable", "sldr"),
        ("image", "img"), ("searchField", "srch"), ("keyboardKey", "key"),
        ("selected", "sel"), ("notEnabled", "dim"),
    ]

    @Test("each trait's word", arguments: traitWordCases)
    func traitWord(name: String, word: String) throws {
        let traits = try #require(Traits(name: name))
        #expect(formatter.item(leaf("x", "Item", traits: traits)).text == "Item \(word)")
        #expect(BrailleFormatter.words(for: traits) == [word])
    }

    @Test("traits without a word add nothing",
          arguments: ["playsSound", "staticText", "summaryElement", "updatesFrequently",
                      "startsMediaSession", "allowsDirectInteraction", "causesPageTurn", "tabBar"])
    func traitWithoutWord(name: String) throws {
        let traits = try #require(Traits(name: name))
        #expect(formatter.item(leaf("x", "Item", traits: traits)).text == "Item")
        #expect(BrailleFormatter.words(for: traits) == [])
    }

    @Test("all trait words in VoiceOver's order: sel, roles, dim")
    func traitWordOrder() {
        let all = Traits(Traits.named.map(\.trait))
        #expect(formatter.item(leaf("x", "Item", traits: all)).text == "Item sel btn lnk h sldr img srch key dim")
        #expect(formatter.item(leaf("x", "Play", traits: [.notEnabled, .button, .selected])).text == "Play sel btn dim")
        #expect(BrailleFormatter.traitWords.map(\.word) == ["sel", "btn", "lnk", "h", "sldr", "img", "srch", "key", "dim"])
    }

    // MARK: hints

    @Test("the hint comes last, only when showHints is on")
    func hints() {
        let volume = leaf("volume", "Volume", value: "50%", hint: "Swipe up or down to adjust.", traits: .adjustable)
        #expect(BrailleFormatter(showHints: false).item(volume).text == "Volume 50% sldr")
        let withHints = BrailleFormatter(showHints: true).item(volume)
        #expect(withHints.text == "Volume 50% sldr Swipe up or down to adjust.")
        #expect(withHints.segments == [.init(range: 0..<43, target: .element("volume"))])
        // An empty or blank hint leaves no trailing space.
        #expect(BrailleFormatter(showHints: true).item(leaf("ok", "OK", hint: " ", traits: .button)).text == "OK btn")
        #expect(BrailleFormatter(showHints: true).item(leaf("ok", "OK", traits: .button)).text == "OK btn")
    }

    // MARK: missing label

    @Test("no label: the value, then the trait words; nothing at all: the id")
    func missingLabel() {
        #expect(formatter.item(leaf("slider", nil, value: "50%", traits: .adjustable)).text == "50% sldr")
        #expect(formatter.item(leaf("close", nil, traits: .button)).text == "btn")
        #expect(formatter.item(leaf("close", "", traits: [.button, .notEnabled])).text == "btn dim")
        #expect(formatter.item(leaf("mystery-view", nil)).text == "mystery-view")
        #expect(formatter.item(leaf("mystery-view", "  ", value: "")).text == "mystery-view")
        // The hint alone, when shown, is enough; hidden, the id stands in.
        let hinted = leaf("mystery-view", nil, hint: "Double-tap to open.")
        #expect(BrailleFormatter(showHints: true).item(hinted).text == "Double-tap to open.")
        #expect(formatter.item(hinted).text == "mystery-view")
        #expect(formatter.item(leaf("mystery-view", nil)).segments == [.init(range: 0..<12, target: .element("mystery-view"))])
    }

    @Test("every part is put on one line: whitespace runs become one space, ends trimmed")
    func oneLine() {
        let element = leaf("wifi", "  Wi-Fi\n\tsettings ", value: "On\r\n", traits: .button)
        #expect(formatter.item(element).text == "Wi-Fi settings On btn")
        #expect(BrailleFormatter.oneLine("a\u{0}b\u{2028}c") == "a b c")
        #expect(BrailleFormatter.oneLine(nil) == "")
    }

    // MARK: groups

    @Test("a group with a label shows the label, not its children")
    func labelledGroup() {
        let node = groupNode("controls", label: "Playback controls", [buttonNode("Play"), buttonNode("Stop")])
        let line = formatter.line(for: node)
        #expect(line.text == "Playback controls grp")
        #expect(line.segments == [.init(range: 0..<21, target: .element("controls"))])
    }

    @Test("nested groups give their label, else their own children's names, without grp")
    func nestedGroups() {
        let node = groupNode("outer", [
            buttonNode("A"),
            groupNode("inner", [buttonNode("B"), groupNode("deeper", [buttonNode("C")])]),
            groupNode("row", label: "Row 2", [buttonNode("D"), buttonNode("E")]),
        ])
        #expect(formatter.line(for: node).text == "A, B, C, Row 2 grp")
    }

    @Test("children without a label give their value, else their trait words; unnamed ones are left out")
    func childNames() {
        let node = groupNode("g", [
            .item(leaf("level", nil, value: "3 of 10", traits: .adjustable)),
            .item(leaf("close", nil, traits: .button)),
            .item(leaf("blank", nil)),
            .item(leaf("ok", "OK", traits: .button)),
        ])
        #expect(formatter.line(for: node).text == "3 of 10, btn, OK grp")
        #expect(formatter.line(for: groupNode("empty", [.item(leaf("blank", nil))])).text == "grp")
        #expect(formatter.line(for: groupNode("empty", [])).text == "grp")
    }

    @Test("a large group shows at most groupLabelLimit names, then …, counted through nesting")
    func largeGroup() {
        let seven = groupNode("chunk", (1...7).map { buttonNode("Key \($0)") })
        #expect(formatter.line(for: seven).text == "Key 1, Key 2, Key 3, Key 4, Key 5, … grp")
        let five = groupNode("chunk", (1...5).map { buttonNode("Key \($0)") })
        #expect(formatter.line(for: five).text == "Key 1, Key 2, Key 3, Key 4, Key 5 grp")
        // Names beyond the limit inside nested groups count too.
        let nested = groupNode("rows", [
            groupNode("r1", [buttonNode("Q"), buttonNode("W"), buttonNode("E")]),
            groupNode("r2", [buttonNode("A"), buttonNode("S"), buttonNode("D")]),
        ])
        #expect(formatter.line(for: nested).text == "Q, W, E, A, S, … grp")
        #expect(BrailleFormatter(groupLabelLimit: 2).line(for: nested).text == "Q, W, … grp")
        #expect(BrailleFormatter(groupLabelLimit: 0).line(for: nested).text == "Q, … grp")
        #expect(BrailleFormatter(groupLabelLimit: 6).line(for: nested).text == "Q, W, E, A, S, D grp")
    }

    @Test("routesToGroupChildren: each name routes to its top-level child, the rest to the group")
    func groupChildRouting() {
        let node = groupNode("g", [
            buttonNode("Test 1"),
            groupNode("inner", [buttonNode("B"), buttonNode("C")]),
            buttonNode("D"), buttonNode("E"), buttonNode("F"),
        ])
        let line = BrailleFormatter(routesToGroupChildren: true).line(for: node)
        #expect(line.text == "Test 1, B, C, D, E, … grp")
        let expected: [BrailleLine.Segment] = [
            segment(0..<6, "Test 1"), segment(6..<8, "g"), segment(8..<9, "inner"),
            segment(9..<11, "g"), segment(11..<12, "inner"), segment(12..<14, "g"),
            segment(14..<15, "D"), segment(15..<17, "g"), segment(17..<18, "E"),
            segment(18..<25, "g"),
        ]
        #expect(line.segments == expected)
        // Off (the default): one segment, the group.
        #expect(formatter.line(for: node).segments == [.init(range: 0..<25, target: .element("g"))])
    }

    // MARK: outline

    @Test("a group's outline: exit, then the group's line; all of it routes to the group")
    func outline() {
        let node = groupNode("test-wrap", [buttonNode("Test 1"), buttonNode("Test 2")])
        let line = BrailleFormatter(routesToGroupChildren: true).outline(of: node)
        #expect(line.text == "exit Test 1, Test 2 grp")
        #expect(line.segments == [.init(range: 0..<23, target: .element("test-wrap"))])
        let labelled = groupNode("controls", label: "Playback controls", [buttonNode("Play")])
        #expect(formatter.outline(of: labelled).text == "exit Playback controls grp")
        #expect(formatter.outline(of: .item(leaf("wifi", "Wi-Fi", traits: .button))).text == "exit Wi-Fi btn")
    }

    // MARK: menu entries and messages

    @Test("a menu entry: its title, then menu; routes to its index")
    func menuEntries() {
        let tap = formatter.menuEntry("Tap", index: 0)
        #expect(tap.text == "Tap menu")
        #expect(tap.segments == [.init(range: 0..<8, target: .menuEntry(0))])
        #expect(formatter.menuEntry("Increment", index: 1).text == "Increment menu")
        #expect(formatter.menuEntry("Decrement", index: 2).text == "Decrement menu")
        let custom = formatter.menuEntry("Add to\nFavourites", index: 3)
        #expect(custom.text == "Add to Favourites menu")
        #expect(custom.segments == [.init(range: 0..<22, target: .menuEntry(3))])
        #expect(formatter.menuEntry("Exit menu", index: 4).text == "Exit menu menu")
        // As the scanner shows an open menu: the entry, its position, the element's line (the
        // new value after Increment is there at once), routed to the entry.
        let volume = Element(id: "volume", label: "Volume", value: "60%", traits: [.adjustable])
        let increment = formatter.menuEntry("Increment", index: 1, count: 4, for: volume)
        #expect(increment.text == "Increment 2/4: Volume 60% sldr")
        #expect(increment.segments == [.init(range: 0..<30, target: .menuEntry(1))])
        #expect(formatter.menuEntry("Escape", index: 0, count: 2).text == "Escape 1/2")
        #expect(formatter.status(ScannerWords.scanningStopped(language: "fr-FR")).text == "défilement arrêté")
        #expect(formatter.status(ScannerWords.scanningStopped(language: nil)).text == "scanning stopped")
        #expect(formatter.menuEntry("", index: 5).text == "menu")
        // Without an index the line routes to nothing.
        #expect(formatter.menuEntry("Tap").segments == [.init(range: 0..<8, target: nil)])
    }

    @Test("a flash message is the text itself and routes to nothing")
    func flash() {
        let line = formatter.flash("Page 2 of 5")
        #expect(line.text == "Page 2 of 5")
        #expect(line.segments == [.init(range: 0..<11, target: nil)])
        #expect(line.target(at: 0) == nil)
        #expect(formatter.flash("Saved.\nReturning to the list…").text == "Saved. Returning to the list…")
        #expect(formatter.flash("").segments == [])
        #expect(formatter.flash("").text == "")
    }

    // MARK: the line value

    @Test("segment lookup is bounds-checked")
    func segmentLookup() {
        let line = formatter.item(leaf("wifi", "Wi-Fi", traits: .button))
        #expect(line.count == 9)
        #expect(line.target(at: 0) == .element("wifi"))
        #expect(line.target(at: 8) == .element("wifi"))
        #expect(line.target(at: 9) == nil)
        #expect(line.target(at: -1) == nil)
        #expect(line.ranges(of: .element("wifi")) == [0..<9])
        #expect(line.ranges(of: .element("other")) == [])
    }

    @Test("appending lines shifts the second line's segments; the separator routes to nothing")
    func appending() {
        let line = formatter.menuEntry("Tap", index: 0).appending(formatter.menuEntry("Increment", index: 1))
        #expect(line.text == "Tap menu Increment menu")
        #expect(line.segments == [
            .init(range: 0..<8, target: .menuEntry(0)),
            .init(range: 8..<9, target: nil),
            .init(range: 9..<23, target: .menuEntry(1)),
        ])
        #expect(BrailleLine.empty.appending(formatter.flash("Hi")) == formatter.flash("Hi"))
        #expect(formatter.flash("Hi").appending(.empty) == formatter.flash("Hi"))
    }
}
