/// A braille line on a display of `width` cells: the pan positions (windows) of a long line,
/// the current one, routing keys back to what the line shows, and the cursor cells.
///
/// Windows are cut as BRLTTY's and Orca's word wrap cut them: a window ends at the last space
/// that fits, so no word is cut, unless a word alone is longer than the display, which is then
/// split hard at the display width. The spaces where a window ends are shown on neither window
/// (the next window starts at the next word). A line that fits has one window; an empty line has
/// one empty window; a display of no cells (width below 1, e.g. BrlAPI's 0×0 "not connected
/// yet") has no window, shows nothing and routes nothing.
///
/// `text` is not padded: cells past it are blank and route to nothing; `paddedText(with:)` gives
/// exactly `width` cells for writers that need the whole region.
///
/// Cells are `Character`s. Without translation each character of the line is one cell. After
/// translation (contracted braille, liblouis' `inputPos`), pass the cells and, for each cell, the
/// offset of the line character it comes from; `U+2800` counts as a space there.
public struct BrailleWindow: Hashable, Sendable {
    public let line: BrailleLine
    /// Display width in cells.
    public let width: Int
    /// What is written to the display, one `Character` per cell.
    public let cells: [Character]
    /// For each cell, the offset of the line character it shows.
    public let sourceOffsets: [Int]
    /// The pan positions, as ranges of `cells`, in order.
    public let windows: [Range<Int>]
    /// The current window's index in `windows`.
    public private(set) var index: Int = 0

    /// Computer braille: one cell per character of the line.
    public init(line: BrailleLine, width: Int) {
        let cells = Array(line.text)
        self.line = line
        self.width = width
        self.cells = cells
        self.sourceOffsets = Array(cells.indices)
        self.windows = Self.windows(cells: cells, width: width)
    }

    /// Translated cells with the line offset each comes from; nil when the counts differ or an
    /// offset lies outside the line.
    public init?(line: BrailleLine, cells: String, sourceOffsets: [Int], width: Int) {
        let cellArray = Array(cells)
        let count = line.count
        guard cellArray.count == sourceOffsets.count,
              sourceOffsets.allSatisfy({ $0 >= 0 && $0 < count }) else { return nil }
        self.line = line
        self.width = width
        self.cells = cellArray
        self.sourceOffsets = sourceOffsets
        self.windows = Self.windows(cells: cellArray, width: width)
    }

    /// The pan positions of a row of cells on a display `width` cells wide (see the type).
    public static func windows(cells: [Character], width: Int) -> [Range<Int>] {
        guard width >= 1 else { return [] }
        let count = cells.count
        var windows: [Range<Int>] = []
        var start = 0
        while true {
            if count - start <= width {
                windows.append(start..<count)
                break
            }
            // The line goes on past this window: end it at the last space that fits, i.e. at a
            // space at most `width` cells after the start (the space itself is not shown).
            var end = start + width
            if !isSpace(cells[end]) {
                var space = end - 1
                while space > start, !isSpace(cells[space]) { space -= 1 }
                if space > start { end = space }
            }
            while end > start + 1, isSpace(cells[end - 1]) { end -= 1 }
            windows.append(start..<end)
            start = end
            while start < count, isSpace(cells[start]) { start += 1 }
            if start >= count { break }
        }
        return windows
    }

    /// A blank cell, where a window may end.
    public static func isSpace(_ cell: Character) -> Bool {
        cell == "\u{2800}" || cell.isWhitespace
    }

    /// The current window's cells (empty when there is no window).
    public var range: Range<Int> {
        windows.indices.contains(index) ? windows[index] : 0..<0
    }

    /// The current window's text, not padded.
    public var text: String { String(cells[range]) }

    /// The current window's text padded with `pad` to exactly `width` cells.
    public func paddedText(with pad: Character = " ") -> String {
        let shown = text
        return shown + String(repeating: pad, count: max(0, width - range.count))
    }

    public var isAtStart: Bool { index == 0 }
    public var isAtEnd: Bool { index >= windows.count - 1 }

    /// Moves to the next window; false (and no move) on the last one.
    @discardableResult
    public mutating func panRight() -> Bool {
        guard index + 1 < windows.count else { return false }
        index += 1
        return true
    }

    /// Moves to the previous window; false (and no move) on the first one.
    @discardableResult
    public mutating func panLeft() -> Bool {
        guard index > 0 else { return false }
        index -= 1
        return true
    }

    /// Moves to the first window showing the line character at `offset` (e.g. the start of
    /// the highlighted segment); false (and no move) when no window shows it.
    @discardableResult
    public mutating func pan(toCharacter offset: Int) -> Bool {
        guard let found = windows.firstIndex(where: { window in
            window.contains { sourceOffsets[$0] == offset }
        }) else { return false }
        index = found
        return true
    }

    /// The line character under a 0-based cell of the current window; nil past its text.
    public func characterOffset(cell: Int) -> Int? {
        let window = range
        guard cell >= 0, cell < window.count else { return nil }
        return sourceOffsets[window.lowerBound + cell]
    }

    /// What a routing key over a 0-based cell of the current window acts on: the element or
    /// menu entry under it; nil past the window's text, over a message, or with no window.
    public func routingTarget(cell: Int) -> BrailleLine.Target? {
        characterOffset(cell: cell).flatMap(line.target(at:))
    }

    /// The cells of the current window (0-based) that show `target`: where dots 7-8 go.
    public func cursorCells(for target: BrailleLine.Target) -> Set<Int> {
        cursorCells { line.target(at: $0) == target }
    }

    /// The cells of the current window (0-based) that show line characters in `characters`.
    public func cursorCells(characters: Range<Int>) -> Set<Int> {
        cursorCells { characters.contains($0) }
    }

    private func cursorCells(where marked: (Int) -> Bool) -> Set<Int> {
        let window = range
        var result = Set<Int>()
        for cell in window where marked(sourceOffsets[cell]) {
            result.insert(cell - window.lowerBound)
        }
        return result
    }
}
