extension BrailleLine {
    /// What the line shows, for routing keys and the cursor: the target of its last routable
    /// segment (an item's or menu entry's whole line; a group's `grp`).
    public var highlightedTarget: Target? {
        segments.last { $0.target != nil }?.target
    }
}

extension BrailleWindow {
    /// The window a display of `columns` × `rows` shows first for `line`: with `translation`'s
    /// cells, or with the text itself when there is none or it does not fit the line (then the
    /// translation used is nil), panned to the highlighted segment. On a display of several rows
    /// the line wraps across them, and a window is the whole display.
    public static func first(of line: BrailleLine, translation: BrailleTranslation?, columns: Int, rows: Int)
        -> (window: BrailleWindow, translation: BrailleTranslation?) {
        var built: BrailleWindow
        var used = translation
        if let translation, let translated = BrailleWindow(line: line, cells: translation.cells, sourceOffsets: translation.offsets,
                                                           width: columns, rows: rows) {
            built = translated
        } else {
            used = nil
            built = BrailleWindow(line: line, width: columns, rows: rows)
        }
        if let target = line.highlightedTarget, let start = line.ranges(of: target).first?.lowerBound {
            built.pan(toCharacter: start)
        }
        return (built, used)
    }
}

/// What a display is given for a window: one character per cell, row by row (rows padded), and
/// BrlAPI's cursor (a 1-based cell; nil: none), with the highlighted segment marked as
/// `BrailleCursorMarking` asks: dots 7-8 under each of its cells (translated cells only: a line
/// written as text, for BRLTTY's text table, gets the cursor on its first cell instead), or the
/// cursor on its first cell.
public struct BrailleWindowRendering: Hashable, Sendable {
    public var text: String
    public var cursor: Int?

    public init(text: String, cursor: Int?) {
        self.text = text
        self.cursor = cursor
    }

    /// `window` as written; `translated`: its cells are U+28xx patterns from a translation.
    public init(_ window: BrailleWindow, translated: Bool, marking: BrailleCursorMarking) {
        if marking == .none {
            self.init(text: window.text, cursor: nil)
            return
        }
        let marked = window.line.highlightedTarget.map { window.cursorCells(for: $0) } ?? []
        guard marking == .segment, translated else {
            self.init(text: window.text, cursor: marked.min().map { $0 + 1 })
            return
        }
        var scalars = String.UnicodeScalarView()
        for (index, cell) in window.text.enumerated() {
            guard let scalar = cell.unicodeScalars.first, cell.unicodeScalars.count == 1,
                  (0x2800...0x28FF).contains(scalar.value),
                  let dotted = Unicode.Scalar(marked.contains(index) ? scalar.value | 0xC0 : scalar.value)
            else {
                scalars.append(contentsOf: cell.unicodeScalars)
                continue
            }
            scalars.append(dotted)
        }
        self.init(text: String(scalars), cursor: nil)
    }
}
