import AccessibilityModel
import BrailleFormatting
import Testing

/// Displays of several rows (BrlAPI's `columns × rows`): the line wraps across the rows, a
/// window is the whole display, cells are numbered row by row.
@Suite("Several display rows")
struct BrailleWindowRowsTests {
    /// The 100-character line of `BrailleWindowTests`: a link with a 50-character value and a hint.
    static let longLine = BrailleWindowTests.longLine

    @Test("40×2: the line wraps into rows as on a 40-cell display; a window shows two rows")
    func twoRowsOf40() {
        let window = BrailleWindow(line: Self.longLine, width: 40, rows: 2)
        #expect(window.lines == [0..<16, 17..<57, 57..<96, 97..<100])
        #expect(window.windowLines == [0..<2, 2..<4])
        #expect(window.windows == [0..<57, 57..<100])
        // Each row but the last is padded to the width, so the second line starts cell 40.
        let first = "Terms of service" + String(repeating: " ", count: 24) + "example.com/legal/terms-of-service-2010-"
        let second = "09-01.html lnk Opens the page in Safari " + "now"
        #expect(pannedTexts(window) == [first, second])
        #expect(window.paddedText().count == 80)
        var last = window
        let moved = last.panRight()
        #expect(moved)
        #expect(last.paddedText() == second + String(repeating: " ", count: 37))
    }

    @Test("3 rows of 18: the rows fill before the window pans; the last window may show fewer rows")
    func threeRowsOf18() {
        let window = BrailleWindow(line: Self.longLine, width: 18, rows: 3)
        #expect(window.lines == [0..<16, 17..<35, 35..<53, 53..<71, 72..<89, 90..<100])
        #expect(window.windowLines == [0..<3, 3..<6])
        var panned = window
        let moved = panned.panRight()
        #expect(moved)
        #expect(panned.shownLines == [53..<71, 72..<89, 90..<100])
        let beyond = panned.panRight()
        #expect(!beyond)
        let short = BrailleWindow(line: BrailleLine(text: "Tap menu", target: .menuEntry(0)), width: 18, rows: 3)
        #expect(short.windows == [0..<8])
        #expect(short.text == "Tap menu")
        #expect(short.paddedText() == "Tap menu" + String(repeating: " ", count: 46))
    }

    @Test("Routing: cell r × width + c is column c of row r; past a row's text nothing")
    func routingAcrossRows() {
        // Two items: "Volume 50% sldr" then, after a message separator, "Wi-Fi sel btn".
        let volume = BrailleLine(text: "Volume 50% sldr", target: .element("volume"))
        let wifi = BrailleLine(text: "Wi-Fi sel btn", target: .element("wifi"))
        let line = volume.appending(wifi, separator: " | ")
        #expect(line.text == "Volume 50% sldr | Wi-Fi sel btn")
        // 20×2: "Volume 50% sldr |" on row 0, "Wi-Fi sel btn" on row 1.
        let window = BrailleWindow(line: line, width: 20, rows: 2)
        #expect(window.lines == [0..<17, 18..<31])
        #expect(window.routingTarget(cell: 0) == .element("volume"))
        #expect(window.routingTarget(cell: 14) == .element("volume"))
        #expect(window.routingTarget(cell: 16) == nil)  // "|": the separator routes to nothing
        #expect(window.routingTarget(cell: 17) == nil)  // past row 0's text
        #expect(window.routingTarget(cell: 19) == nil)
        #expect(window.routingTarget(cell: 20) == .element("wifi"))  // row 1, column 0
        #expect(window.routingTarget(cell: 32) == .element("wifi"))
        #expect(window.routingTarget(cell: 33) == nil)  // past row 1's text
        #expect(window.routingTarget(cell: 40) == nil)  // past the display
        #expect(window.routingTarget(cell: -1) == nil)
        #expect(window.characterOffset(cell: 20) == 18)
        // Dots 7-8 under "Wi-Fi sel btn": cells 20…32 of row 1.
        #expect(window.cursorCells(for: .element("wifi")) == Set(20..<33))
        #expect(window.cursorCells(for: .element("volume")) == Set(0..<15))
        // On one row of 20 the same key numbers mean other cells.
        let single = BrailleWindow(line: line, width: 20)
        #expect(single.routingTarget(cell: 20) == nil)
    }

    @Test("Translated cells: rows wrap at blank cells (U+2800); routing through inputPos")
    func translatedRows() throws {
        // "ab cd" contracted to three cells, one per word and a blank: ⠁⠀⠙.
        let line = BrailleLine(text: "ab cd", segments: [.init(range: 0..<2, target: .element("x")),
                                                          .init(range: 2..<5, target: .element("y"))])
        let window = try #require(BrailleWindow(line: line, cells: "⠁⠀⠙", sourceOffsets: [0, 2, 3], width: 2, rows: 2))
        #expect(window.lines == [0..<1, 2..<3])
        #expect(window.text == "⠁ ⠙")
        #expect(window.routingTarget(cell: 0) == .element("x"))
        #expect(window.routingTarget(cell: 1) == nil)
        #expect(window.routingTarget(cell: 2) == .element("y"))
        #expect(window.cursorCells(for: .element("y")) == [2])
    }

    @Test("No rows or no columns: no window, nothing routes")
    func noCells() {
        let line = BrailleLine(text: "Tap menu", target: .menuEntry(0))
        for window in [BrailleWindow(line: line, width: 40, rows: 0), BrailleWindow(line: line, width: 0, rows: 2)] {
            #expect(window.windows.isEmpty)
            #expect(window.text == "")
            #expect(window.paddedText() == "")
            #expect(window.routingTarget(cell: 0) == nil)
        }
    }

    @Test("The menu button's line routes to the button")
    func menuButtonLine() {
        let line = BrailleFormatter().menuButton()
        #expect(line.text == "Scanner menu")
        #expect(line.segments == [.init(range: 0..<12, target: .menuButton)])
        #expect(BrailleWindow(line: line, width: 40).routingTarget(cell: 3) == .menuButton)
    }
}
