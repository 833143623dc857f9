/// What dots 7-8 (the cursor) mark on a display: the scanner's `brailleCursor` setting.
public enum BrailleCursorMarking: String, Hashable, Sendable, CaseIterable {
    /// No cursor (the default).
    case none
    /// BrlAPI's cursor (dots 7-8 of one cell, as BRLTTY shows it) on the first cell of the
    /// highlighted segment in the window.
    case firstCell
    /// Dots 7-8 under every cell of the highlighted segment in the window.
    case segment
}

/// A braille line on a display of `width` cells in each of `rows` rows: the pan positions
/// (windows) of a long line, the current one, routing keys back to what the line shows, and the
/// cursor cells.
///
/// The line is first wrapped into display rows (`lines`) as BRLTTY's and Orca's word wrap cut
/// them: a row ends at the last space that fits, so no word is cut, unless a word alone is
/// longer than the display, which is then split hard at the display width. The spaces where a
/// row ends are shown on neither row (the next row starts at the next word). A window shows
/// `rows` consecutive lines, one per display row, and panning moves by a whole window. A line
/// that fits has one window; an empty line has one empty window; a display of no cells (width
/// or rows below 1, e.g. BrlAPI's 0×0 "not connected yet") has no window, shows nothing and
/// routes nothing.
///
/// Display cells are numbered row by row, as BrlAPI numbers them (its write region and the
/// ROUTE argument of a display with several rows): cell `r * width + c` is column `c` of row
/// `r`, all 0-based here. `text` is not padded at its end: cells past it are blank and route to
/// nothing; rows before the last are padded to `width` so that each line starts its own row.
/// `paddedText(with:)` gives exactly `width * rows` cells for writers that need the whole region.
///
/// Cells are `Character`s. Without translation each character of the line is one cell. After
/// translation (contracted braille, liblouis' `inputPos`), pass the cells and, for each cell, the
/// offset of the line character it comes from; `U+2800` counts as a space there.
public struct BrailleWindow: Hashable, Sendable {
    public let line: BrailleLine
    /// Cells in each display row.
    public let width: Int
    /// Display rows (1 for most displays).
    public let rows: Int
    /// What is written to the display, one `Character` per cell, before wrapping.
    public let cells: [Character]
    /// For each cell, the offset of the line character it shows.
    public let sourceOffsets: [Int]
    /// The line wrapped into display rows, as ranges of `cells`, in order.
    public let lines: [Range<Int>]
    /// The pan positions, as ranges of `cells` (from the first shown line's start to the last
    /// one's end), in order.
    public let windows: [Range<Int>]
    /// For each window, the indices in `lines` of the lines it shows.
    public let windowLines: [Range<Int>]
    /// The current window's index in `windows`.
    public private(set) var index: Int = 0

    /// Computer braille: one cell per character of the line.
    public init(line: BrailleLine, width: Int, rows: Int = 1) {
        self.init(line: line, checkedCells: Array(line.text), sourceOffsets: Array(0..<line.count), width: width, rows: rows)
    }

    /// Translated cells with the line offset each comes from; nil when the counts differ or an
    /// offset lies outside the line.
    public init?(line: BrailleLine, cells: String, sourceOffsets: [Int], width: Int, rows: Int = 1) {
        let cellArray = Array(cells)
        let count = line.count
        guard cellArray.count == sourceOffsets.count,
              sourceOffsets.allSatisfy({ $0 >= 0 && $0 < count }) else { return nil }
        self.init(line: line, checkedCells: cellArray, sourceOffsets: sourceOffsets, width: width, rows: rows)
    }

    private init(line: BrailleLine, checkedCells cells: [Character], sourceOffsets: [Int], width: Int, rows: Int) {
        self.line = line
        self.width = width
        self.rows = rows
        self.cells = cells
        self.sourceOffsets = sourceOffsets
        let lines = rows >= 1 ? Self.windows(cells: cells, width: width) : []
        self.lines = lines
        let groups = stride(from: 0, to: lines.count, by: max(rows, 1)).map { $0..<min($0 + max(rows, 1), lines.count) }
        self.windowLines = groups
        self.windows = groups.map { lines[$0.lowerBound].lowerBound..<lines[$0.upperBound - 1].upperBound }
    }

    /// A row of cells wrapped into lines of at most `width` cells (see the type): the windows
    /// of a one-row display.
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

    /// The current window's cells (empty when there is no window): from its first line's
    /// start to its last line's end.
    public var range: Range<Int> {
        windows.indices.contains(index) ? windows[index] : 0..<0
    }

    /// The lines the current window shows, one per display row from the top.
    public var shownLines: [Range<Int>] {
        windowLines.indices.contains(index) ? windowLines[index].map { lines[$0] } : []
    }

    /// The current window's text, row by row: each row but the last shown padded with spaces
    /// to `width`, the last not padded.
    public var text: String {
        let shown = shownLines
        var result = ""
        for (row, line) in shown.enumerated() {
            result += String(cells[line])
            if row < shown.count - 1 { result += String(repeating: " ", count: max(0, width - line.count)) }
        }
        return result
    }

    /// The current window's text padded with `pad` to exactly `width * rows` cells (none
    /// without a window).
    public func paddedText(with pad: Character = " ") -> String {
        let shown = shownLines
        guard !shown.isEmpty else { return "" }
        var result = ""
        for row in 0..<rows {
            let line = row < shown.count ? shown[row] : 0..<0
            result += String(cells[line]) + String(repeating: pad, count: max(0, width - line.count))
        }
        return result
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

    /// The line character under a 0-based display cell of the current window (row `cell /
    /// width`, column `cell % width`); nil past the text of its row or outside the display.
    public func characterOffset(cell: Int) -> Int? {
        guard cell >= 0, width >= 1 else { return nil }
        let shown = shownLines
        let row = cell / width, column = cell % width
        guard row < shown.count, column < shown[row].count else { return nil }
        return sourceOffsets[shown[row].lowerBound + column]
    }

    /// What a routing key over a 0-based display cell of the current window acts on: the element or
    /// menu entry under it; nil past the window's text, over a message, or with no window.
    public func routingTarget(cell: Int) -> BrailleLine.Target? {
        characterOffset(cell: cell).flatMap(line.target(at:))
    }

    /// The display cells of the current window (0-based, row by row) that show `target`: where
    /// dots 7-8 go.
    public func cursorCells(for target: BrailleLine.Target) -> Set<Int> {
        cursorCells { line.target(at: $0) == target }
    }

    /// The display cells of the current window (0-based, row by row) that show line characters
    /// in `characters`.
    public func cursorCells(characters: Range<Int>) -> Set<Int> {
        cursorCells { characters.contains($0) }
    }

    private func cursorCells(where marked: (Int) -> Bool) -> Set<Int> {
        var result = Set<Int>()
        for (row, line) in shownLines.enumerated() {
            for cell in line where marked(sourceOffsets[cell]) {
                result.insert(row * width + cell - line.lowerBound)
            }
        }
        return result
    }
}
