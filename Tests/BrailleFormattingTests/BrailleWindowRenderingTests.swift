import BrailleFormatting
import Testing

/// What a display is given for a line, decided without a display: the first window panned to the
/// highlighted segment, and the cursor marking of `brailleCursor`.
@Suite("Window rendering")
struct BrailleWindowRenderingTests {
    /// "Tap 1/2: Send btn": a message part, then the menu entry the line shows.
    static let menuLine = BrailleLine(text: "Tap 1/2: Send btn", segments: [
        BrailleLine.Segment(range: 0..<9, target: nil),
        BrailleLine.Segment(range: 9..<17, target: .menuEntry(1)),
    ])

    /// One cell per character of `text`: the letters a to z as their dots 1-6 patterns, a space
    /// blank, anything else dots 3-4-5-6; offsets one to one (a stand-in for a translator's output).
    static func cells(_ text: String) -> BrailleTranslation {
        let letters: [UInt32] = [0x01, 0x03, 0x09, 0x19, 0x11, 0x0B, 0x1B, 0x13, 0x0A, 0x1A, 0x05, 0x07, 0x0D,
                                 0x1D, 0x15, 0x0F, 0x1F, 0x17, 0x0E, 0x1E, 0x25, 0x27, 0x3A, 0x2D, 0x3D, 0x35]
        let scalars = text.lowercased().unicodeScalars.map { scalar -> Character in
            let index = Int(scalar.value) - Int(UnicodeScalar("a").value)
            let dots: UInt32 = scalar == " " ? 0 : letters.indices.contains(index) ? letters[index] : 0x3C
            return Character(Unicode.Scalar(0x2800 + dots)!)
        }
        return BrailleTranslation(cells: String(scalars), offsets: Array(0..<text.count))
    }

    @Test("The highlighted target is the last routable segment's")
    func highlightedTarget() {
        #expect(Self.menuLine.highlightedTarget == .menuEntry(1))
        #expect(BrailleLine(text: "Page 2 of 3", target: nil).highlightedTarget == nil)
        #expect(BrailleLine.empty.highlightedTarget == nil)
    }

    @Test("The first window of a long line is the one with the highlighted segment, on one row and on two")
    func firstWindowIsPannedToTheHighlight() {
        let one = BrailleWindow.first(of: Self.menuLine, translation: nil, columns: 10, rows: 1)
        #expect(one.window.text == "Send btn")
        #expect(one.window.index == 1)
        #expect(one.translation == nil)
        let two = BrailleWindow.first(of: Self.menuLine, translation: nil, columns: 10, rows: 2)
        #expect(two.window.index == 0, "the whole line fits two rows of 10")
        #expect(two.window.text == "Tap 1/2:  Send btn")
    }

    @Test("Translated cells are used when they fit the line; a translation that does not is dropped for the text")
    func translationUsedOrDropped() {
        let fitting = BrailleWindow.first(of: Self.menuLine, translation: Self.cells(Self.menuLine.text), columns: 40, rows: 1)
        #expect(fitting.translation == Self.cells(Self.menuLine.text))
        #expect(fitting.window.text == Self.cells(Self.menuLine.text).cells)
        let broken = BrailleTranslation(cells: "⠁⠃", offsets: [0, 99])
        let dropped = BrailleWindow.first(of: Self.menuLine, translation: broken, columns: 40, rows: 1)
        #expect(dropped.translation == nil)
        #expect(dropped.window.text == Self.menuLine.text)
    }

    @Test("No marking: the window's text, no cursor")
    func noMarking() {
        let window = BrailleWindow.first(of: Self.menuLine, translation: Self.cells(Self.menuLine.text), columns: 40, rows: 1).window
        #expect(BrailleWindowRendering(window, translated: true, marking: .none)
            == BrailleWindowRendering(text: window.text, cursor: nil))
    }

    @Test("First cell, and segment on a line written as text (liblouis failed): BrlAPI's cursor (1-based) on the highlighted segment's first cell",
          arguments: [BrailleCursorMarking.firstCell, .segment])
    func cursorOnTheFirstCell(marking: BrailleCursorMarking) {
        let window = BrailleWindow.first(of: Self.menuLine, translation: nil, columns: 40, rows: 1).window
        #expect(BrailleWindowRendering(window, translated: false, marking: marking)
            == BrailleWindowRendering(text: "Tap 1/2: Send btn", cursor: 10))
    }

    @Test("Segment: dots 7-8 under every translated cell of the highlighted segment, and no cursor")
    func segmentDots() {
        let translation = Self.cells(Self.menuLine.text)
        let window = BrailleWindow.first(of: Self.menuLine, translation: translation, columns: 40, rows: 1).window
        let rendering = BrailleWindowRendering(window, translated: true, marking: .segment)
        #expect(rendering.cursor == nil)
        let written = rendering.text.unicodeScalars.map(\.value)
        let plain = translation.cells.unicodeScalars.map(\.value)
        #expect(written.count == plain.count)
        for (index, value) in written.enumerated() {
            #expect(value == (index >= 9 ? plain[index] | 0xC0 : plain[index]), "cell \(index)")
        }
    }

    @Test("Segment on two rows of 10: the marked cells are counted row by row")
    func segmentOnTwoRows() {
        let translation = Self.cells(Self.menuLine.text)
        let window = BrailleWindow.first(of: Self.menuLine, translation: translation, columns: 10, rows: 2).window
        let rendering = BrailleWindowRendering(window, translated: true, marking: .segment)
        let marked = rendering.text.unicodeScalars.enumerated().filter { $0.element.value & 0xC0 == 0xC0 }.map(\.offset)
        #expect(marked == Array(10..<18), "\(rendering.text)")
    }
}
