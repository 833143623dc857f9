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

    public init(halfLife: Double = 500, maxItemsPerScreen: Int = 4096, maxScreens: Int = 256) {
        self.halfLife = max(1, halfLife)
        self.maxItemsPerScreen = max(1, maxItemsPerScreen)
        self.maxScreens = max(1, maxScreens)
    }

    /// 2^(−1/halfLife): what one selection leaves of every older count on its screen.
    public var decay: Double { ScanCost.exponential(-ScanCost.ln2 / halfLife) }

    /// The counts of one screen (nil: nothing selected there, or forgotten).
    public func counts(screen: String) -> [ElementID: Double]? { stored[screen]?.counts }

    public mutating func record(_ id: ElementID, screen: String) {
        stored[screen, default: Scaled()].record(id, decay: decay, limit: maxItemsPerScreen)
        if recent.last != screen {
            recent.removeAll { $0 == screen }
            recent.append(screen)
        }
        while recent.count > maxScreens {
            stored[recent.removeFirst()] = nil
        }
    }

    /// Equal counts (as counts, however they are kept), screens in the same order, same limits.
    public static func == (lhs: SelectionCounts, rhs: SelectionCounts) -> Bool {
        lhs.recent == rhs.recent && lhs.halfLife == rhs.halfLife && lhs.maxItemsPerScreen == rhs.maxItemsPerScreen
            && lhs.maxScreens == rhs.maxScreens && lhs.screens == rhs.screens
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

    public struct DecodeError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Reads `encoded()`'s text; a count must be a finite number from 0 to 10⁹.
    public static func decode(_ text: String, halfLife: Double = 500) throws -> SelectionCounts {
        var result = SelectionCounts(halfLife: halfLife)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == "switchscan-selections 1" else {
            throw DecodeError(line: 1, message: "expected the header 'switchscan-selections 1'")
        }
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, !fields[0].isEmpty, !fields[1].isEmpty else {
                throw DecodeError(line: index + 1, message: "expected screen, id and count separated by tabs")
            }
            guard let count = Double(fields[2]), count.isFinite, count >= 0, count <= 1e9 else {
                throw DecodeError(line: index + 1, message: "count '\(fields[2])' is not a number from 0 to 1e9")
            }
            let screen = String(fields[0])
            if result.stored[screen] == nil { result.recent.append(screen) }
            result.stored[screen, default: Scaled()].units[String(fields[1])] = count
        }
        return result
    }
}
