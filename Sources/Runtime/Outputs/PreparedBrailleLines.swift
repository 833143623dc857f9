import BrailleFormatting
import BrlAPI

/// What a window writes on a display of `cells` cells: its text and cursor
/// (`BrailleWindowRendering`) and the bytes BrlAPI sends, made once.
struct BrailleDisplayWrite {
    let rendering: BrailleWindowRendering
    let cells: BrlAPICells

    init(_ rendering: BrailleWindowRendering, cells: Int) {
        self.rendering = rendering
        self.cells = BrlAPICells(rendering.text, cells: cells)
    }

    var text: String { rendering.text }
    var cursor: Int? { rendering.cursor }
}

/// Lines made ready ahead (`BrailleDisplayOutput.prepare`), the latest `capacity`: each with its
/// translation, first window and write for one display size.
struct PreparedBrailleLines {
    struct Entry {
        let line: BrailleLine
        let language: String?
        let columns: Int
        let rows: Int
        let translation: BrailleTranslation?
        let window: BrailleWindow
        let write: BrailleDisplayWrite
    }

    let capacity: Int
    /// Oldest first.
    private var entries: [Entry] = []

    init(capacity: Int = 32) {
        self.capacity = max(1, capacity)
    }

    /// The entry made for `line` on a display of this size, if it is still kept. Taking one leaves
    /// it there (the highlight comes back to the same items).
    func entry(_ line: BrailleLine, language: String?, columns: Int, rows: Int) -> Entry? {
        // Newest first: the lines about to be shown were prepared last. The text is compared
        // first (cheap, and different for nearly every other line).
        entries.last { $0.line.text == line.text && $0.line == line && $0.language == language
            && $0.columns == columns && $0.rows == rows }
    }

    mutating func add(_ entry: Entry) {
        if entries.count >= capacity { entries.removeFirst() }
        entries.append(entry)
    }
}
