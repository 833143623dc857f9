import AccessibilityModel
import Scanning

/// What the terminal shows, drawn as text: the screen's layout scaled to the terminal with the
/// highlight, the open menu, the braille line (cells and the text under them), the status and
/// the keys. Pure: a snapshot and the terminal's size in, lines out; `LiveRun` writes them.
///
/// It degrades with the size instead of drawing over itself: down to 40×10 (and 20×6) every
/// part keeps its own rows (`allocateRows`), items never overlap (when the scaled layout would
/// put two on one place, they are listed in scan order instead), the status is wrapped (a page
/// at a time if it is still too long), and the quit key is always on the last row.
public struct TerminalFrame: Hashable, Sendable {
    public struct Snapshot: Hashable, Sendable {
        public var title: String
        public var screen: String
        public var sceneSize: (width: Double, height: Double)
        /// Every scan item, with its frame.
        public var items: [Element]
        /// Ids to draw highlighted (the item, or every item of a highlighted group).
        public var highlighted: Set<ElementID>
        /// A line about the highlight, e.g. `group Test 1, Test 2 (select enters)`.
        public var highlightNote: String?
        public var menu: (entries: [String], focus: Int)?
        public var brailleText: String
        /// The braille cells (U+28xx) when a translation exists.
        public var brailleCells: String?
        public var scanning: Bool
        /// Scanning was paused by the stop switch (not running, highlight kept).
        public var paused: Bool
        /// A line for the user; wrapped to the width.
        public var status: String?

        public init(
            title: String, screen: String, sceneSize: (width: Double, height: Double), items: [Element],
            highlighted: Set<ElementID>, highlightNote: String?, menu: (entries: [String], focus: Int)?,
            brailleText: String, brailleCells: String?, scanning: Bool, status: String?, paused: Bool = false
        ) {
            self.title = title
            self.screen = screen
            self.sceneSize = sceneSize
            self.items = items
            self.highlighted = highlighted
            self.highlightNote = highlightNote
            self.menu = menu
            self.brailleText = brailleText
            self.brailleCells = brailleCells
            self.scanning = scanning
            self.paused = paused
            self.status = status
        }

        public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool {
            lhs.title == rhs.title && lhs.screen == rhs.screen && lhs.sceneSize == rhs.sceneSize
                && lhs.items == rhs.items && lhs.highlighted == rhs.highlighted && lhs.highlightNote == rhs.highlightNote
                && lhs.menu?.entries == rhs.menu?.entries && lhs.menu?.focus == rhs.menu?.focus
                && lhs.brailleText == rhs.brailleText && lhs.brailleCells == rhs.brailleCells
                && lhs.scanning == rhs.scanning && lhs.paused == rhs.paused && lhs.status == rhs.status
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(screen)
            hasher.combine(brailleText)
            hasher.combine(highlighted)
        }
    }

    /// One character cell: the character and whether it is drawn in reverse video.
    struct Cell: Hashable {
        var character: Character = " "
        var reverse = false
        var bold = false
        /// The second half of a wide character.
        var continuation = false
    }

    public let columns: Int
    public let rows: Int
    private var cells: [[Cell]]
    /// How many pages the status has at this size: more than one when its wrapped lines do not
    /// fit the rows it gets, and then `statusPage` chooses the page shown (the caller turns them).
    public private(set) var statusPageCount = 1

    /// Below this the frame only says that the window is too small, and how to quit.
    public static let minimumColumns = 20
    public static let minimumRows = 6
    /// A terminal's size is two 16-bit numbers: beyond these the frame is drawn this big (in its
    /// top left corner) rather than held in memory cell by cell.
    public static let maximumColumns = 1000
    public static let maximumRows = 500
    /// From this height on, the note and status rows are kept even when empty, so the layout
    /// does not move when a status appears.
    static let roomyRows = 16

    /// The rows each part gets, top to bottom after the title: the layout, a rule, the
    /// highlight's note, the braille cells, the braille text, the status, the keys.
    public struct Rows: Hashable, Sendable {
        public var layout = 0, rule = 0, note = 0, cells = 0, text = 0, status = 0, keys = 0
        public var total: Int { 1 + layout + rule + note + cells + text + status + keys }
    }

    /// How `total` rows are shared out (pure). The keys (with `q quit`), the braille text and
    /// two layout rows come first; then a status line, the note, a third layout row, the rest of
    /// the status (up to a third of the rows), the rest of the keys, the braille cells, the
    /// rule; the layout gets what is left.
    public static func allocateRows(total: Int, statusLines: Int, keyLines: Int, hasNote: Bool, hasCells: Bool) -> Rows {
        var free = max(0, total - 1)  // the title
        func take(_ wanted: Int) -> Int {
            let granted = max(0, min(wanted, free))
            free -= granted
            return granted
        }
        let roomy = total >= roomyRows
        var rows = Rows()
        rows.keys = take(1)
        rows.text = take(1)
        rows.layout = take(2)
        rows.status = take(statusLines > 0 || roomy ? 1 : 0)
        rows.note = take(hasNote || roomy ? 1 : 0)
        rows.layout += take(1)
        rows.status += take(min(statusLines, max(3, total / 3)) - rows.status)
        rows.keys += take(keyLines - 1)
        rows.cells = take(hasCells ? 1 : 0)
        rows.rule = take(1)
        rows.layout += take(free)
        return rows
    }

    /// Lays out `snapshot` on a terminal of `columns` × `rows`: exactly `rows` lines, none wider
    /// than `columns`. `keys` are the key help items; the last (quit) is always shown.
    public init(_ snapshot: Snapshot, columns: Int, rows: Int, keys: [String], statusPage: Int = 0) {
        self.columns = min(max(1, columns), TerminalFrame.maximumColumns)
        self.rows = min(max(1, rows), TerminalFrame.maximumRows)
        cells = Array(repeating: Array(repeating: Cell(), count: self.columns), count: self.rows)
        guard self.columns >= TerminalFrame.minimumColumns, self.rows >= TerminalFrame.minimumRows else {
            drawTooSmall(snapshot, quit: keys.last ?? "q quit")
            return
        }
        let width = self.columns

        let allKeyLines = TerminalFrame.wrapItems(keys, width: width, maxLines: .max)
        let statusLines = snapshot.status.map { TerminalFrame.wrap($0, width: width) } ?? []
        let share = TerminalFrame.allocateRows(
            total: self.rows, statusLines: statusLines.count, keyLines: allKeyLines.count,
            hasNote: snapshot.highlightNote != nil, hasCells: snapshot.brailleCells != nil)

        put(TerminalFrame.titleLine(snapshot, width: width), row: 0, column: 0, bold: true)
        var row = 1
        drawLayout(snapshot, top: row, rows: share.layout)
        row += share.layout
        if share.rule > 0 { put(String(repeating: "─", count: width), row: row, column: 0) }
        row += share.rule
        if share.note > 0, let note = snapshot.highlightNote { put(TerminalFrame.truncate(note, to: width), row: row, column: 0) }
        row += share.note
        if share.cells > 0 { put(TerminalFrame.truncate("braille: " + (snapshot.brailleCells ?? ""), to: width), row: row, column: 0) }
        row += share.cells
        put(TerminalFrame.truncate("   text: " + snapshot.brailleText, to: width), row: row, column: 0, bold: true)
        row += share.text
        if share.status > 0, let status = snapshot.status {
            let page = pageOfStatus(status, lines: statusLines, rows: share.status, page: statusPage)
            for (index, line) in page.enumerated() { put(line, row: row + index, column: 0) }
        }
        row += share.status
        let keyLines = TerminalFrame.wrapItems(keys, width: width, maxLines: share.keys)
        for (index, line) in keyLines.enumerated() { put(line, row: row + index, column: 0) }
    }

    /// A window smaller than the frame can be laid out in: what it needs, the braille text, the
    /// quit key.
    private mutating func drawTooSmall(_ snapshot: Snapshot, quit: String) {
        put(TerminalFrame.truncate(quit, to: columns), row: rows - 1, column: 0, bold: true)
        if rows >= 2 {
            put(TerminalFrame.truncate("window \(columns)×\(rows) is too small (40×10 or more)", to: columns), row: 0, column: 0)
        }
        if rows >= 3 { put(TerminalFrame.truncate("text: " + snapshot.brailleText, to: columns), row: 1, column: 0) }
    }

    /// `title — screen NAME — scanning`; on a narrow terminal the title is shortened first, then
    /// the screen's name left out: the state stays.
    static func titleLine(_ snapshot: Snapshot, width: Int) -> String {
        let state = snapshot.scanning ? "scanning" : snapshot.paused ? "paused" : "stopped"
        let full = "\(snapshot.title) — screen \(snapshot.screen) — \(state)"
        if TerminalFrame.width(of: full) <= width { return full }
        for suffix in [" — screen \(snapshot.screen) — \(state)", " — \(state)"] {
            let room = width - TerminalFrame.width(of: suffix)
            if room >= min(8, TerminalFrame.width(of: snapshot.title)) {
                return TerminalFrame.truncate(snapshot.title, to: room) + suffix
            }
        }
        return TerminalFrame.truncate(state, to: width)
    }

    /// The page of the status shown: all its lines when they fit; else `rows` lines of it
    /// wrapped a little narrower, the last ending in ` (page/pages)`.
    private mutating func pageOfStatus(_ status: String, lines: [String], rows: Int, page: Int) -> [String] {
        guard lines.count > rows else { return lines }
        var pages = (lines.count + rows - 1) / rows
        var wrapped = lines
        for _ in 0..<3 {
            let marker = 4 + 2 * String(pages).count  // " (p/n)"
            wrapped = TerminalFrame.wrap(status, width: max(1, columns - marker))
            let count = (wrapped.count + rows - 1) / rows
            if count == pages { break }
            pages = count
        }
        statusPageCount = pages
        let shown = ((page % pages) + pages) % pages
        var text = Array(wrapped.dropFirst(shown * rows).prefix(rows))
        if !text.isEmpty { text[text.count - 1] += " (\(shown + 1)/\(pages))" }
        return text
    }

    // MARK: The layout

    /// One item placed: its text (`[label]`, maybe shortened) where it goes.
    struct Placed: Hashable {
        var row: Int
        var column: Int
        var text: String
        var reverse: Bool
    }

    /// The items in the layout rows, then the menu over them.
    private mutating func drawLayout(_ snapshot: Snapshot, top: Int, rows layoutRows: Int) {
        guard layoutRows > 0 else { return }
        let placed = TerminalFrame.scaledPlacement(snapshot, rows: layoutRows, columns: columns)
            ?? TerminalFrame.flowPlacement(snapshot, rows: layoutRows, columns: columns)
        for item in placed { put(item.text, row: top + item.row, column: item.column, reverse: item.reverse) }
        if let menu = snapshot.menu { drawMenu(menu, top: top, rows: layoutRows) }
    }

    static func name(_ element: Element) -> String { element.label ?? element.value ?? element.id }

    /// Each item at its frame's place, the scene scaled to the layout rows (the row of its middle,
    /// the column of its left edge), its label whole (a long one may be cut at the next item in
    /// its row, to no less than a sixth of the width). An item whose place is taken goes one row
    /// down, or up. Nil when that cannot show every item in the scene's order: an item without a
    /// frame, no row left for one, or an item moved past another above or below it.
    static func scaledPlacement(_ snapshot: Snapshot, rows: Int, columns: Int) -> [Placed]? {
        let scaleX = Double(columns) / max(1, snapshot.sceneSize.width)
        let scaleY = Double(rows) / max(1, snapshot.sceneSize.height)
        // Clamped as Doubles before converting: a frame far off the screen must not trap.
        func cell(_ value: Double, _ limit: Int) -> Int {
            value.isNaN ? 0 : Int(min(max(value, 0), Double(max(0, limit))))
        }
        var wanted = [(row: Int, column: Int, element: Element)]()
        for element in snapshot.items {
            guard let frame = element.resolvedFrame else { return nil }
            wanted.append((cell(frame.midY * scaleY, rows - 1), cell(frame.minX * scaleX, columns - 1), element))
        }
        let order = wanted.indices.sorted { (wanted[$0].row, wanted[$0].column, $0) < (wanted[$1].row, wanted[$1].column, $1) }
        // Per row, the columns taken, each with the space after it.
        var taken = [[Range<Int>]](repeating: [], count: rows)
        var placed = [Placed]()
        for index in order {
            let item = wanted[index]
            let label = name(item.element)
            let full = width(of: label) + 2
            let least = min(full, max(12, columns / 6))
            let column = min(item.column, max(0, columns - least))  // pulled in from the right edge
            let candidates = [item.row, item.row + 1, item.row - 1]
            var done = false
            for row in candidates where row >= 0 && row < rows {
                guard !taken[row].contains(where: { $0.contains(column) }) else { continue }
                let next = taken[row].map(\.lowerBound).filter { $0 > column }.min() ?? columns + 1
                let shown = min(full, columns - column, next - 1 - column)
                guard shown >= least else { continue }
                taken[row].append(column..<(column + shown + 1))
                placed.append(Placed(
                    row: row, column: column, text: "[" + truncate(label, to: shown - 2) + "]",
                    reverse: snapshot.highlighted.contains(item.element.id)))
                done = true
                break
            }
            if !done { return nil }
        }
        // Moved rows must keep the scene's order: of two items one above the other (columns
        // shared), the upper one stays above. Items left in their rows keep it among themselves.
        var shown = [(wanted: Int, row: Int, columns: Range<Int>)]()
        for (position, index) in order.enumerated() {
            let item = placed[position]
            shown.append((wanted[index].row, item.row, item.column..<(item.column + width(of: item.text))))
        }
        for moved in shown where moved.row != moved.wanted {
            for other in shown where other.columns.overlaps(moved.columns) && other.wanted != moved.wanted {
                if (moved.wanted < other.wanted) != (moved.row < other.row) { return nil }
            }
        }
        return placed.sorted { ($0.row, $0.column) < ($1.row, $1.column) }
    }

    /// The items in scan order, left to right and row after row, each label shortened to a
    /// third of the width (at least 12 columns) when longer. When they do not all fit, the
    /// first highlighted item is shown, with `(N before)` and `(N more)` for the rest.
    static func flowPlacement(_ snapshot: Snapshot, rows: Int, columns: Int) -> [Placed] {
        let items = snapshot.items
        let longest = min(columns, max(12, columns / 3))
        let texts = items.map { "[" + truncate(name($0), to: longest - 2) + "]" }
        let first = items.firstIndex { snapshot.highlighted.contains($0.id) } ?? 0
        // The most items from `start` that fit with their markers (a binary search on the count).
        func most(from start: Int) -> (placed: [Placed], count: Int) {
            var low = 0, high = items.count - start
            var best: (placed: [Placed], count: Int) = ([], 0)
            while low <= high {
                let count = (low + high) / 2
                if let placed = flow(texts, items, start: start, count: count, rows: rows, columns: columns,
                                     highlighted: snapshot.highlighted) {
                    best = (placed, count)
                    low = count + 1
                } else {
                    high = count - 1
                }
            }
            return best
        }
        let fromTop = most(from: 0)
        if first < fromTop.count || items.isEmpty { return fromTop.placed }
        return most(from: first).placed
    }

    /// `count` items from `start`, with their markers, placed greedily; nil when they do not fit.
    private static func flow(_ texts: [String], _ items: [Element], start: Int, count: Int, rows: Int, columns: Int,
                             highlighted: Set<ElementID>) -> [Placed]? {
        var tokens = [(text: String, reverse: Bool)]()
        if start > 0 { tokens.append(("(\(start) before)", false)) }
        for index in start..<(start + count) { tokens.append((texts[index], highlighted.contains(items[index].id))) }
        let after = texts.count - start - count
        if after > 0 { tokens.append(("(\(after) more)", false)) }
        var placed = [Placed]()
        var row = 0, column = 0
        for token in tokens {
            let tokenWidth = width(of: token.text)
            if tokenWidth > columns { return nil }
            if column > 0, column + tokenWidth > columns {
                row += 1
                column = 0
            }
            if row >= rows { return nil }
            placed.append(Placed(row: row, column: column, text: token.text, reverse: token.reverse))
            column += tokenWidth + 1
        }
        return placed
    }

    /// The open menu at the right of the layout, over the items: a box when there are three
    /// rows or more, its entries scrolled to keep the focused one in view (▲ ▼ say more).
    private mutating func drawMenu(_ menu: (entries: [String], focus: Int), top: Int, rows layoutRows: Int) {
        guard !menu.entries.isEmpty else { return }
        let boxed = layoutRows >= 3
        let border = boxed ? 2 : 0
        let widest = menu.entries.map { TerminalFrame.width(of: $0) }.max() ?? 0
        let width = min(columns, max(12, widest + 2 + border))
        let left = max(0, columns - width - 1)
        let visible = min(menu.entries.count, layoutRows - border)
        guard visible > 0 else { return }
        let focus = min(max(0, menu.focus), menu.entries.count - 1)
        let first = min(max(0, focus - visible / 2), menu.entries.count - visible)
        let inner = width - border
        var row = top
        if boxed {
            let more = first > 0 ? "▲" : "─"
            put("┌" + String(repeating: "─", count: max(0, inner - 1)) + more + "┐", row: row, column: left)
            row += 1
        }
        for index in first..<(first + visible) {
            let text = TerminalFrame.pad(" " + TerminalFrame.truncate(menu.entries[index], to: inner - 2) + " ", to: inner)
            if boxed { put("│", row: row, column: left) }
            put(text, row: row, column: left + border / 2, reverse: index == focus)
            if boxed { put("│", row: row, column: left + width - 1) }
            row += 1
        }
        if boxed {
            let more = first + visible < menu.entries.count ? "▼" : "─"
            put("└" + String(repeating: "─", count: max(0, inner - 1)) + more + "┘", row: row, column: left)
        }
    }

    /// `text` in lines of at most `width` columns, broken at spaces (a word longer than a line
    /// is broken where the line ends); line breaks in `text` are kept.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines = [String]()
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = "", used = 0
            for word in paragraph.split(separator: " ") {
                var word = String(word)
                var wordWidth = self.width(of: word)
                if used > 0, used + 1 + wordWidth <= width {
                    line += " " + word
                    used += 1 + wordWidth
                    continue
                }
                if used > 0 { lines.append(line) }
                line = ""
                used = 0
                while wordWidth > width {
                    var piece = "", pieceWidth = 0
                    for character in word {
                        let w = isWide(character) ? 2 : 1
                        if pieceWidth + w > width { break }
                        piece.append(character)
                        pieceWidth += w
                    }
                    if piece.isEmpty { break }  // a wide character in a one-column width
                    lines.append(piece)
                    word = String(word.dropFirst(piece.count))
                    wordWidth = self.width(of: word)
                }
                line = word
                used = wordWidth
            }
            lines.append(line)
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// `items` joined by ` · ` in lines of at most `width` columns, never split inside an item.
    /// When they take more than `maxLines`, items are left out from the end, but the last one
    /// (quit) is always kept, after `…`.
    public static func wrapItems(_ items: [String], width: Int, maxLines: Int) -> [String] {
        guard maxLines > 0, width > 0, let last = items.last else { return [] }
        func greedy(_ items: [String]) -> [String] {
            var lines = [String](), line = ""
            for item in items {
                let piece = truncate(item, to: width)
                if line.isEmpty {
                    line = piece
                } else if self.width(of: line) + 3 + self.width(of: piece) <= width {
                    line += " · " + piece
                } else {
                    lines.append(line)
                    line = piece
                }
            }
            if !line.isEmpty { lines.append(line) }
            return lines
        }
        let all = greedy(items)
        if all.count <= maxLines { return all }
        var kept = Array(items.dropLast())
        while !kept.isEmpty {
            kept.removeLast()
            let lines = greedy(kept + ["…", last])
            if lines.count <= maxLines { return lines }
        }
        return Array(greedy([last]).prefix(maxLines))
    }

    /// The frame as lines of plain text (for tests).
    public var plainLines: [String] {
        cells.map { row in String(row.filter { !$0.continuation }.map(\.character)).trimmingTrailingSpaces() }
    }

    /// The frame as terminal output: home, each line with its attributes, cleared to the end.
    public var ansi: String {
        var output = "\u{1B}[H"
        for (index, row) in cells.enumerated() {
            var attributes = (reverse: false, bold: false)
            for cell in row where !cell.continuation {
                if cell.reverse != attributes.reverse || cell.bold != attributes.bold {
                    output += "\u{1B}[0m" + (cell.reverse ? "\u{1B}[7m" : "") + (cell.bold ? "\u{1B}[1m" : "")
                    attributes = (cell.reverse, cell.bold)
                }
                output.append(cell.character)
            }
            output += "\u{1B}[0m\u{1B}[K"
            if index < cells.count - 1 { output += "\r\n" }
        }
        return output
    }

    /// Writes `text` from `column`, cut at the right edge. A control character (a line break, an
    /// escape in a label from a live application) is drawn as `�`: written out, it would move
    /// the cursor or start an escape sequence and wreck the frame.
    private mutating func put(_ text: String, row: Int, column: Int, reverse: Bool = false, bold: Bool = false) {
        guard row >= 0, row < rows else { return }
        var x = column
        for var character in text {
            if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { character = "\u{FFFD}" }
            let wide = TerminalFrame.isWide(character)
            guard x >= 0, x + (wide ? 1 : 0) < columns else { break }
            cells[row][x] = Cell(character: character, reverse: reverse, bold: bold)
            if wide { cells[row][x + 1] = Cell(character: " ", reverse: reverse, bold: bold, continuation: true) }
            x += wide ? 2 : 1
        }
    }

    /// East Asian wide characters take two columns.
    static func isWide(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        return (0x1100...0x115F).contains(scalar) || (0x2E80...0xA4CF).contains(scalar)
            || (0xAC00...0xD7A3).contains(scalar) || (0xF900...0xFAFF).contains(scalar)
            || (0xFE30...0xFE4F).contains(scalar) || (0xFF00...0xFF60).contains(scalar)
            || (0xFFE0...0xFFE6).contains(scalar) || (0x1F300...0x1FAFF).contains(scalar)
    }

    static func width(of text: String) -> Int { text.reduce(0) { $0 + (isWide($1) ? 2 : 1) } }

    static func truncate(_ text: String, to width: Int) -> String {
        var result = "", used = 0
        for character in text {
            let w = isWide(character) ? 2 : 1
            if used + w > width { return result.isEmpty ? result : String(result.dropLast()) + "…" }
            result.append(character)
            used += w
        }
        return result
    }

    static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - self.width(of: text)))
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
