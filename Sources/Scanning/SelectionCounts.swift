import AccessibilityModel

/// What the user selects, per screen (issue 17, part 2): ids and decayed counts, nothing else.
/// Pure: `Runtime` would read and write it (the text of `encoded()`) under
/// `$XDG_STATE_HOME/switchscan/`; the grouping takes `weights(screen:)`.
///
/// Every selection on a screen multiplies that screen's counts by `decay` (a half-life of
/// `halfLife` selections) before adding 1, so old habits fade; a screen keeps at most
/// `maxItemsPerScreen` ids (the smallest counts go first) and the whole at most `maxScreens`
/// screens (the least recently used go first).
public struct SelectionCounts: Sendable, Equatable {
    /// Per screen, its counts (decayed), by id.
    public var screens: [String: [ElementID: Double]] { stored.mapValues(\.counts) }
    /// The order screens were last used in, oldest first.
    public private(set) var recent: [String] = []
    public var halfLife: Double
    public var maxItemsPerScreen: Int
    public var maxScreens: Int

    /// Each screen's counts in units of its `scale`: a selection multiplies the scale by `decay`
    /// instead of every count, so recording one costs the same on a screen of 4,096 ids as on one
    /// of 4 (it walked every id before).
    private var stored: [String: Scaled] = [:]

    private struct Scaled: Sendable {
        var units: [ElementID: Double] = [:]
        var scale = 1.0

        var counts: [ElementID: Double] {
            scale == 1 ? units : units.mapValues { $0 * scale }
        }

        mutating func record(_ id: ElementID, decay: Double, limit: Int) {
            scale *= decay
            if scale < 1e-200 {
                // Far below any count's precision: the units are made counts again.
                units = counts
                scale = 1
            }
            units[id, default: 0] += 1 / scale
            if units.count > limit {
                // Drop the smallest (ties: the greater id, so the result is deterministic); one
                // scale for the whole screen keeps the counts' order.
                let sorted = units.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                units = Dictionary(uniqueKeysWithValues: sorted.prefix(limit).map { ($0.key, $0.value) })
            }
        }
    }

    /// Ids kept over all screens: past it, the least recently used screens are forgotten whole
    /// (the file stays under about a megabyte, read in milliseconds as a run starts).
    public var maxEntries: Int
    /// The ids kept now, over all screens.
    public private(set) var entryCount = 0

    public init(halfLife: Double = 500, maxItemsPerScreen: Int = 4096, maxScreens: Int = 256, maxEntries: Int = 16384) {
        self.halfLife = max(1, halfLife)
        self.maxItemsPerScreen = max(1, maxItemsPerScreen)
        self.maxScreens = max(1, maxScreens)
        self.maxEntries = max(1, maxEntries)
    }

    /// Forgets the least recently used screens while there are more than `maxScreens` of them or
    /// more than `maxEntries` ids (the screen used last is always kept).
    private mutating func prune() {
        while recent.count > 1, recent.count > maxScreens || entryCount > maxEntries {
            let screen = recent.removeFirst()
            entryCount -= stored[screen]?.units.count ?? 0
            stored[screen] = nil
        }
    }

    /// 2^(−1/halfLife): what one selection leaves of every older count on its screen.
    public var decay: Double { ScanCost.exponential(-ScanCost.ln2 / halfLife) }

    /// The counts of one screen (nil: nothing selected there, or forgotten).
    public func counts(screen: String) -> [ElementID: Double]? { stored[screen]?.counts }

    public mutating func record(_ id: ElementID, screen: String) {
        let before = stored[screen]?.units.count ?? 0
        stored[screen, default: Scaled()].record(id, decay: decay, limit: maxItemsPerScreen)
        entryCount += (stored[screen]?.units.count ?? 0) - before
        if recent.last != screen {
            recent.removeAll { $0 == screen }
            recent.append(screen)
        }
        prune()
    }

    /// Equal counts (as counts, however they are kept), screens in the same order, same limits.
    public static func == (lhs: SelectionCounts, rhs: SelectionCounts) -> Bool {
        lhs.recent == rhs.recent && lhs.halfLife == rhs.halfLife && lhs.maxItemsPerScreen == rhs.maxItemsPerScreen
            && lhs.maxScreens == rhs.maxScreens && lhs.maxEntries == rhs.maxEntries && lhs.screens == rhs.screens
    }

    /// Each item's weight for the grouping: its count plus `prior` (so an item never chosen still
    /// weighs something, and few selections do not overturn the layout).
    public func weights(screen: String, items: [ElementID], prior: Double = 0.5) -> [ElementID: Double] {
        let counts = self.counts(screen: screen) ?? [:]
        var result = [ElementID: Double]()
        for id in items { result[id] = (counts[id] ?? 0) + prior }
        return result
    }

    /// A line-based text: a header, then `screen<TAB>id<TAB>count` lines, screens in the order
    /// they were last used. Tabs and line breaks cannot occur in what is written (ids and screen
    /// names holding them are left out).
    public func encoded() -> String {
        var lines = ["switchscan-selections 1"]
        for screen in recent where !screen.contains(where: \.isNewline) && !screen.contains("\t") {
            for (id, count) in (counts(screen: screen) ?? [:]).sorted(by: { $0.key < $1.key })
            where !id.contains(where: \.isNewline) && !id.contains("\t") {
                lines.append("\(screen)\t\(id)\t\(count)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The format `encoded()` writes, in its header line `switchscan-selections 1`.
    public static let format = 1
    static let headerWord = "switchscan-selections"

    /// A line that could not be read, or a header that makes the whole file unreadable.
    public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var message: String
        public init(line: Int, column: Int = 1, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }
        public var description: String { "line \(line): \(message)" }
    }

    /// What `read` made of a file: the counts of every good line, and the lines it skipped.
    public struct Reading: Sendable {
        public var counts: SelectionCounts
        /// The first few lines skipped (`reportedSkips`), in file order.
        public var skipped: [DecodeError] = []
        /// Every line skipped.
        public var skippedCount = 0
    }

    /// Skipped lines kept in a `Reading` to be named; the others are counted.
    public static let reportedSkips = 8

    /// Reads `encoded()`'s text line by line (bytes: a line that is not UTF-8 is one bad line,
    /// not a bad file). A good line is kept; a bad one (not three tab-separated fields, a count
    /// that is not a finite number from 0 to 10⁹, not UTF-8) is skipped and named in the
    /// result. Only the header is thrown: a file with a newer format's header, or with none, is
    /// not read at all (it is left as it is by the store). Then pruned to the limits, keeping
    /// the screens used last (the file lists them oldest first).
    public static func read(_ bytes: [UInt8], halfLife: Double = 500) throws(DecodeError) -> Reading {
        var reading = Reading(counts: SelectionCounts(halfLife: halfLife))
        let newline = UInt8(ascii: "\n")
        var lineStart = 0
        var lineNumber = 0
        func skip(_ error: DecodeError) {
            if reading.skipped.count < reportedSkips { reading.skipped.append(error) }
            reading.skippedCount += 1
        }
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: newline) ?? bytes.count
            defer { lineStart = lineEnd + 1 }
            lineNumber += 1
            let line = bytes[lineStart..<lineEnd]
            if lineNumber == 1 {
                try checkHeader(line)
                continue
            }
            if line.isEmpty { continue }
            guard let text = String(validating: line, as: UTF8.self) else {
                skip(DecodeError(line: lineNumber, message: "the line is not UTF-8 text"))
                continue
            }
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, !fields[0].isEmpty, !fields[1].isEmpty else {
                skip(DecodeError(line: lineNumber, message: "expected screen, id and count separated by tabs"))
                continue
            }
            guard !fields[0].contains(where: \.isNewline), !fields[1].contains(where: \.isNewline) else {
                // `encoded()` could not write it back (a CR, a form feed, U+2028 …).
                skip(DecodeError(line: lineNumber, message: "the screen or the id holds a line break"))
                continue
            }
            guard let count = Double(fields[2]), count.isFinite, count >= 0, count <= 1e9 else {
                let column = fields[0].count + fields[1].count + 3
                let shown = fields[2].count > 40 ? fields[2].prefix(40) + "…" : fields[2]
                skip(DecodeError(line: lineNumber, column: column, message: "count '\(shown)' is not a number from 0 to 1e9"))
                continue
            }
            let screen = String(fields[0])
            if reading.counts.stored[screen] == nil { reading.counts.recent.append(screen) }
            let before = reading.counts.stored[screen]?.units.count ?? 0
            reading.counts.stored[screen, default: Scaled()].units[String(fields[1])] = count
            reading.counts.entryCount += (reading.counts.stored[screen]?.units.count ?? 0) - before
        }
        if lineNumber == 0 { try checkHeader([]) }
        reading.counts.prune()
        return reading
    }

    /// `switchscan-selections 1`; a greater number is a newer format, anything else not this file.
    static func checkHeader(_ line: ArraySlice<UInt8>) throws(DecodeError) {
        let expected = "\(headerWord) \(format)"
        if line.elementsEqual(expected.utf8) { return }
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        if words.count == 2, words[0] == headerWord, let version = Int(words[1]), version > format {
            throw DecodeError(line: 1, column: headerWord.count + 2, message: "the file is in format \(version), newer than this switchscan reads (\(format)); a newer switchscan wrote it")
        }
        throw DecodeError(line: 1, message: "expected the header '\(expected)': this is not a selections file")
    }
}
