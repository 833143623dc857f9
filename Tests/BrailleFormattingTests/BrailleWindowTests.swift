import AccessibilityModel
import BrailleFormatting
import Testing

/// The text of every window, panning right from the first.
func pannedTexts(_ start: BrailleWindow) -> [String] {
    var window = start
    var texts = [window.text]
    while window.panRight() { texts.append(window.text) }
    return texts
}

@Suite("Panning, routing and cursor")
struct BrailleWindowTests {
    /// 100 characters: a link whose value is one 50-character word, with its hint shown.
    static let longLine: BrailleLine = BrailleFormatter(showHints: true).item(leaf(
        "terms", "Terms of service",
        value: "example.com/legal/terms-of-service-2010-09-01.html",
        hint: "Opens the page in Safari now", traits: .link))

    @Test("the long line is 100 characters with a 50-character word")
    func longLineShape() {
        #expect(Self.longLine.text == "Terms of service example.com/legal/terms-of-service-2010-09-01.html lnk Opens the page in Safari now")
        #expect(Self.longLine.count == 100)
        #expect("example.com/legal/terms-of-service-2010-09-01.html".count == 50)
    }

    @Test("40 cells: windows end at the last space that fits; the long word is split hard")
    func pan40() {
        let window = BrailleWindow(line: Self.longLine, width: 40)
        #expect(window.windows == [0..<16, 17..<57, 57..<96, 97..<100])
        #expect(pannedTexts(window) == [
            "Terms of service",
            "example.com/legal/terms-of-service-2010-",
            "09-01.html lnk Opens the page in Safari",
            "now",
        ])
    }

    @Test("80 cells: two windows, broken at the space before the word that does not fit")
    func pan80() {
        let window = BrailleWindow(line: Self.longLine, width: 80)
        #expect(window.windows == [0..<77, 78..<100])
        #expect(pannedTexts(window) == [
            "Terms of service example.com/legal/terms-of-service-2010-09-01.html lnk Opens",
            "the page in Safari now",
        ])
    }

    @Test("18 cells (Refreshabraille 18): a window may end exactly before a space")
    func pan18() {
        let window = BrailleWindow(line: Self.longLine, width: 18)
        #expect(window.windows == [0..<16, 17..<35, 35..<53, 53..<71, 72..<89, 90..<100])
        #expect(pannedTexts(window) == [
            "Terms of service",
            "example.com/legal/",
            "terms-of-service-2",
            "010-09-01.html lnk",
            "Opens the page in",
            "Safari now",
        ])
    }

    @Test("14 cells (Focus 14, Brailliant BI 14)")
    func pan14() {
        let window = BrailleWindow(line: Self.longLine, width: 14)
        #expect(window.windows == [0..<8, 9..<16, 17..<31, 31..<45, 45..<59, 59..<71, 72..<86, 87..<100])
        #expect(pannedTexts(window) == [
            "Terms of", "service", "example.com/le", "gal/terms-of-s", "ervice-2010-09",
            "-01.html lnk", "Opens the page", "in Safari now",
        ])
    }

    @Test("a line that fits has one window; paddedText fills the display")
    func fits() {
        var window = BrailleWindow(line: BrailleFormatter().menuEntry("Tap", index: 0), width: 14)
        #expect(window.windows == [0..<8])
        #expect(window.text == "Tap menu")
        #expect(window.paddedText() == "Tap menu      ")
        #expect(window.paddedText(with: "\u{2800}") == "Tap menu\u{2800}\u{2800}\u{2800}\u{2800}\u{2800}\u{2800}")
        #expect(window.isAtStart && window.isAtEnd)
        #expect(window.panRight() == false)
        #expect(window.panLeft() == false)
        // Exactly the width: still one window.
        #expect(BrailleWindow(line: BrailleFormatter().flash("12345678"), width: 8).windows == [0..<8])
    }

    @Test("pan left and right stop at the ends without moving")
    func panEnds() {
        var window = BrailleWindow(line: Self.longLine, width: 40)
        #expect(window.index == 0 && window.isAtStart && !window.isAtEnd)
        #expect(window.panLeft() == false)
        #expect(window.index == 0)
        #expect(window.text == "Terms of service")
        #expect(window.panRight() && window.panRight() && window.panRight())
        #expect(window.index == 3 && window.isAtEnd && !window.isAtStart)
        #expect(window.panRight() == false)
        #expect(window.index == 3)
        #expect(window.text == "now")
        #expect(window.panLeft() == true)
        #expect(window.text == "09-01.html lnk Opens the page in Safari")
    }

    @Test("pan to the window showing a character")
    func panToCharacter() {
        var window = BrailleWindow(line: Self.longLine, width: 40)
        #expect(window.pan(toCharacter: 70) == true)
        #expect(window.index == 2)
        // A space cut at a window's end is on no window.
        #expect(window.pan(toCharacter: 16) == false)
        #expect(window.index == 2)
        #expect(window.pan(toCharacter: 100) == false)
        #expect(window.pan(toCharacter: 0) == true)
        #expect(window.index == 0)
    }

    @Test("no cells (display not connected): no window, nothing shown or routed")
    func zeroWidth() {
        var window = BrailleWindow(line: Self.longLine, width: 0)
        #expect(window.windows == [])
        #expect(window.text == "")
        #expect(window.paddedText() == "")
        #expect(window.routingTarget(cell: 0) == nil)
        #expect(window.cursorCells(for: .element("terms")) == [])
        #expect(window.panRight() == false)
        #expect(window.panLeft() == false)
        #expect(BrailleWindow(line: Self.longLine, width: -3).windows == [])
    }

    @Test("an empty line has one empty window")
    func emptyLine() {
        let window = BrailleWindow(line: .empty, width: 40)
        #expect(window.windows == [0..<0])
        #expect(window.text == "")
        #expect(window.paddedText().count == 40)
        #expect(window.routingTarget(cell: 0) == nil)
    }

    // MARK: routing

    @Test("routing keys go back to the element, on every window; out of range gives nil")
    func routingToElement() {
        var window = BrailleWindow(line: Self.longLine, width: 40)
        #expect(window.routingTarget(cell: 0) == .element("terms"))
        #expect(window.routingTarget(cell: 15) == .element("terms"))
        #expect(window.characterOffset(cell: 15) == 15)
        // Past the window's text (blank cells), past the display, negative.
        #expect(window.routingTarget(cell: 16) == nil)
        #expect(window.routingTarget(cell: 39) == nil)
        #expect(window.routingTarget(cell: 40) == nil)
        #expect(window.routingTarget(cell: -1) == nil)
        #expect(window.routingTarget(cell: Int.max) == nil)
        #expect(window.routingTarget(cell: Int.min) == nil)
        window.panRight()
        #expect(window.characterOffset(cell: 0) == 17)
        #expect(window.routingTarget(cell: 39) == .element("terms"))
        window.panRight()
        window.panRight()
        #expect(window.characterOffset(cell: 2) == 99)
        #expect(window.routingTarget(cell: 2) == .element("terms"))
        #expect(window.routingTarget(cell: 3) == nil)
    }

    @Test("routing keys go back to the menu entry; a flash message routes nowhere")
    func routingToMenuEntry() {
        let formatter = BrailleFormatter()
        let window = BrailleWindow(line: formatter.menuEntry("Increment", index: 1), width: 14)
        #expect(window.routingTarget(cell: 0) == .menuEntry(1))
        #expect(window.routingTarget(cell: 13) == .menuEntry(1))
        #expect(window.routingTarget(cell: 14) == nil)
        let flash = BrailleWindow(line: formatter.flash("Page 2 of 5"), width: 14)
        #expect(flash.routingTarget(cell: 0) == nil)
        #expect(flash.characterOffset(cell: 0) == 0)
    }

    @Test("routing over a group's line with child routing: the child under the cell")
    func routingToGroupChild() {
        let node = groupNode("g", [buttonNode("Test 1"), buttonNode("Test 2")])
        let line = BrailleFormatter(routesToGroupChildren: true).line(for: node)
        let window = BrailleWindow(line: line, width: 40)
        #expect(window.text == "Test 1, Test 2 grp")
        #expect(window.routingTarget(cell: 0) == .element("Test 1"))
        #expect(window.routingTarget(cell: 6) == .element("g"))
        #expect(window.routingTarget(cell: 8) == .element("Test 2"))
        #expect(window.routingTarget(cell: 17) == .element("g"))
        #expect(window.routingTarget(cell: 18) == nil)
    }

    // MARK: cursor

    @Test("cursor cells: dots 7-8 under the highlighted segment, per window")
    func cursorCells() {
        let formatter = BrailleFormatter()
        let menu = formatter.menuEntry("Tap", index: 0)
            .appending(formatter.menuEntry("Increment", index: 1))
            .appending(formatter.menuEntry("Exit", index: 2))
        #expect(menu.text == "Tap menu Increment menu Exit menu")
        var window = BrailleWindow(line: menu, width: 20)
        #expect(window.windows == [0..<18, 19..<33])
        #expect(window.text == "Tap menu Increment")
        #expect(window.cursorCells(for: .menuEntry(0)) == Set(0..<8))
        #expect(window.cursorCells(for: .menuEntry(1)) == Set(9..<18))
        #expect(window.cursorCells(for: .menuEntry(2)) == [])
        window.panRight()
        // "Increment menu" runs over two windows: its end is marked on the second.
        #expect(window.text == "menu Exit menu")
        #expect(window.cursorCells(for: .menuEntry(1)) == Set(0..<4))
        #expect(window.cursorCells(for: .menuEntry(2)) == Set(5..<14))
        #expect(window.cursorCells(for: .menuEntry(0)) == [])
        #expect(window.cursorCells(characters: 20..<26) == Set(1...6))

        let item = BrailleWindow(line: formatter.item(leaf("wifi", "Wi-Fi", traits: .button)), width: 40)
        #expect(item.cursorCells(for: .element("wifi")) == Set(0..<9))
        #expect(item.cursorCells(characters: 0..<5) == Set(0..<5))
        #expect(item.cursorCells(characters: 50..<60) == [])
    }

    // MARK: translated cells

    @Test("translated cells: windows on cells, U+2800 as a space, routing through the source offsets")
    func translatedCells() throws {
        let line = BrailleFormatter().item(leaf("about", "About this", traits: .button))
        #expect(line.text == "About this btn")
        // Grade 2 style: "ab" for About, "? " for this ... as liblouis' inputPos would give.
        let cells = "⠁⠃⠀⠹⠀⠃⠞⠝"
        let offsets = [0, 0, 5, 6, 10, 11, 12, 13]
        var window = try #require(BrailleWindow(line: line, cells: cells, sourceOffsets: offsets, width: 4))
        #expect(window.windows == [0..<4, 5..<8])
        #expect(window.text == "⠁⠃⠀⠹")
        #expect(window.routingTarget(cell: 3) == .element("about"))
        #expect(window.characterOffset(cell: 3) == 6)
        #expect(window.routingTarget(cell: 4) == nil)
        #expect(window.cursorCells(characters: 0..<5) == [0, 1])
        window.panRight()
        #expect(window.text == "⠃⠞⠝")
        #expect(window.characterOffset(cell: 0) == 11)
        #expect(window.paddedText(with: "\u{2800}") == "⠃⠞⠝⠀")
        // Counts that differ, or offsets outside the line, are refused.
        #expect(BrailleWindow(line: line, cells: cells, sourceOffsets: [0], width: 4) == nil)
        #expect(BrailleWindow(line: line, cells: "⠁", sourceOffsets: [14], width: 4) == nil)
        #expect(BrailleWindow(line: line, cells: "⠁", sourceOffsets: [-1], width: 4) == nil)
    }
}
