/// A line's cells from a braille translator (liblouis): the cells, one `Character` each (U+28xx
/// patterns), and for each cell the offset of the line character it comes from.
public struct BrailleTranslation: Hashable, Sendable {
    public var cells: String
    public var offsets: [Int]

    public init(cells: String, offsets: [Int]) {
        self.cells = cells
        self.offsets = offsets
    }
}

/// The last `capacity` translations, keyed on the text and the table: a translator gives the same
/// cells for the same input (liblouis compiles each table once per process), and while scanning
/// the same few lines come back in turn. A failure (nil) is kept too, so that a table that does
/// not compile is not tried again on every line. The least recently used entry goes when full.
public struct BrailleTranslationCache {
    private struct Key: Hashable {
        let text: String
        let table: String
    }

    public let capacity: Int
    private var entries: [Key: BrailleTranslation?] = [:]
    /// Keys from the oldest use to the latest.
    private var order: [Key] = []

    public init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    public var count: Int { entries.count }

    /// The translation of `text` with `table`: kept from an earlier call, else made by
    /// `translate` (nil: it failed) and kept.
    public mutating func translation(of text: String, table: String, translate: () -> BrailleTranslation?) -> BrailleTranslation? {
        let key = Key(text: text, table: table)
        if let found = entries[key] {
            if order.last != key, let index = order.firstIndex(of: key) {
                order.remove(at: index)
                order.append(key)
            }
            return found
        }
        let made = translate()
        if entries.count >= capacity {
            entries[order.removeFirst()] = nil
        }
        entries[key] = .some(made)
        order.append(key)
        return made
    }
}
