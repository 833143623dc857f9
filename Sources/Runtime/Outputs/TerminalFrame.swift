import AccessibilityModel
import Scanning

/// What the terminal shows, drawn as text: the screen's layout scaled to the terminal with the
/// highlight, the open menu, the braille line (cells and the text under them), and the keys.
/// Pure: it turns a snapshot into lines; `TerminalView` writes them.
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
        public var status: String?

        public init(
            title: String, screen: String, sceneSize: (width: Double, height: Double), items: [Element],
            highlighted: Set<ElementID>, highlightNote: String?, menu: (entries: [String], focus: Int)?,
            brailleText: String, brailleCells: String?, scanning: Bool, status: String?
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
            self.status = status
        }

        public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool {
            lhs.title == rhs.title && lhs.screen == rhs.screen && lhs.sceneSize == rhs.sceneSize
                && lhs.items == rhs.items && lhs.highlighted == rhs.highlighted && lhs.highlightNote == rhs.highlightNote
                && lhs.menu?.entries == rhs.menu?.entries && lhs.menu?.focus == rhs.menu?.focus
                && lhs.brailleText == rhs.brailleText && lhs.brailleCells == rhs.brailleCells
                && lhs.scanning == rhs.scanning && lhs.status == rhs.status
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

    public var columns: Int
    public var rows: Int
    private var cells: [[Cell]]

    /// Lines under the layout: the highlight note, the braille cells, the braille text, the keys.
    static let footerRows = 5

    public init(_ snapshot: Snapshot, columns: Int, rows: Int, help: String) {
        self.columns = max(20, columns)
        self.rows = max(10, rows)
        cells = Array(repeating: Array(repeating: Cell(), count: self.columns), count: self.rows)

        let state = snapshot.scanning ? "scanning" : "stopped"
        put("\(snapshot.title) — screen \(snapshot.screen) — \(state)", row: 0, column: 0, bold: true)

        // The layout: the scene's points scaled to the rows between the title and the footer.
        let top = 1, layoutRows = self.rows - 1 - TerminalFrame.footerRows
        let scaleX = Double(self.columns) / max(1, snapshot.sceneSize.width)
        let scaleY = Double(layoutRows) / max(1, snapshot.sceneSize.height)
        for element in snapshot.items {
            guard let frame = element.resolvedFrame else { continue }
            // Clamped as Doubles before converting: a frame far off the screen must not trap.
            func cell(_ value: Double, _ limit: Int) -> Int {
                value.isNaN ? 0 : Int(min(max(value, 0), Double(max(0, limit))))
            }
            let row = top + cell(frame.midY * scaleY, layoutRows - 1)
            let column = cell(frame.minX * scaleX, self.columns - 1)
            let width = max(3, cell((frame.width * scaleX).rounded(.down), self.columns))
            let name = element.label ?? element.value ?? element.id
            let text = "[" + TerminalFrame.truncate(name, to: max(1, width - 2)) + "]"
            put(text, row: row, column: column, reverse: snapshot.highlighted.contains(element.id))
        }

        // The menu, at the right, over the layout.
        if let menu = snapshot.menu {
            let width = min(self.columns - 2, max(12, (menu.entries.map { TerminalFrame.width(of: $0) }.max() ?? 0) + 4))
            let left = self.columns - width - 1
            put("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: left)
            for (index, entry) in menu.entries.enumerated() where top + 1 + index < top + layoutRows - 1 {
                let text = TerminalFrame.pad(" " + TerminalFrame.truncate(entry, to: width - 4) + " ", to: width - 2)
                put("│", row: top + 1 + index, column: left)
                put(text, row: top + 1 + index, column: left + 1, reverse: index == menu.focus)
                put("│", row: top + 1 + index, column: left + width - 1)
            }
            put("└" + String(repeating: "─", count: width - 2) + "┘", row: top + 1 + menu.entries.count, column: left)
        }

        let footer = self.rows - TerminalFrame.footerRows
        put(String(repeating: "─", count: self.columns), row: footer, column: 0)
        if let note = snapshot.highlightNote { put(note, row: footer + 1, column: 0) }
        put("braille: " + (snapshot.brailleCells ?? ""), row: footer + 2, column: 0)
        put("   text: " + snapshot.brailleText, row: footer + 3, column: 0, bold: true)
        put(snapshot.status ?? help, row: footer + 4, column: 0)
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

    private mutating func put(_ text: String, row: Int, column: Int, reverse: Bool = false, bold: Bool = false) {
        guard row >= 0, row < rows else { return }
        var x = column
        for character in text {
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
