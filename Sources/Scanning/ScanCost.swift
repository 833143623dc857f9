import AccessibilityModel
import Scenes

/// The expected cost of reaching and acting on every item of a scan structure, for one switch
/// auto scanning and for two switches scanning manually (`switchscan cost`, issue 3).
///
/// Conventions (`docs/automatic-grouping.md`):
/// - Every item is reached from the start of the screen's scan; the user makes no mistakes.
/// - A *level* is the list of entries of the screen or of an entered group. The highlight starts
///   on a level's first entry; that counts as step 1, so entry p is reached in p steps.
/// - One switch, auto scanning (`autoSteps`, `autoSeconds`): every highlight step, the first
///   included, is one step that lasts `autoScanningTime` (plus `pauseOnFirstItem` on the first
///   entry of every level: a new cycle at the top, or just after entering a group). Every select
///   is one step too (entering each group, then the item); it takes no time of its own, as the
///   press falls within the highlight it ends. Selecting an entry at position p thus costs
///   p + 1 steps and p·autoScanningTime (+ the pause) seconds.
/// - Two switches, manual (`manualSteps`, `manualSeconds`): steps are presses, `next` to move and
///   `select` to act, so entry p costs p presses (p − 1 nexts and a select); seconds are presses ×
///   `pressInterval` (1 s unless given).
/// - Acting, after selecting the item: `tapBehavior: default` opens the scanner menu with `Tap`
///   highlighted first (no pause there), so auto scanning adds 2 steps (the highlight on `Tap`,
///   its select) and `autoScanningTime` seconds, manual adds 1 press (select); `autoTap` adds no
///   step and `autoTapTime` seconds of waiting (in both styles); `alwaysTap` acts on the select.
/// - `*SelectSteps` / `manualSelectPresses`: the same without acting (the steps to select the
///   item), the quantity that automatic grouping minimises and the benchmark reports.
public enum ScanCost {
    /// One item's costs.
    public struct ItemCost: Hashable, Sendable, Encodable {
        public var id: ElementID
        public var label: String?
        /// The ids of the groups entered on the way, outermost first.
        public var path: [ElementID]
        /// The 1-based position on each level: the groups' positions, then the item's.
        public var positions: [Int]
        /// False for `notEnabled` items: reached (shown dimmed) but not activated.
        public var isEnabled: Bool
        /// One switch, auto scanning: steps to reach and select the item.
        public var autoSelectSteps: Int
        /// One switch, auto scanning: steps to reach and act on the item.
        public var autoSteps: Int
        public var autoSeconds: Double
        /// Two switches, manual: presses to reach and select the item.
        public var manualSelectPresses: Int
        /// Two switches, manual: presses to reach and act on the item.
        public var manualSteps: Int
        public var manualSeconds: Double

        /// The positions written as in `switchscan inspect`: `2.1.3`.
        public var positionText: String { positions.map(String.init).joined(separator: ".") }

        enum CodingKeys: String, CodingKey {
            case id, label, path, position, enabled, autoSelectSteps, autoSteps, autoSeconds
            case manualSelectPresses, manualSteps, manualSeconds
        }

        /// The JSON of `switchscan cost --json`: every key present, `label` null when absent.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(label, forKey: .label)
            try container.encode(path, forKey: .path)
            try container.encode(positionText, forKey: .position)
            try container.encode(isEnabled, forKey: .enabled)
            try container.encode(autoSelectSteps, forKey: .autoSelectSteps)
            try container.encode(autoSteps, forKey: .autoSteps)
            try container.encode(autoSeconds, forKey: .autoSeconds)
            try container.encode(manualSelectPresses, forKey: .manualSelectPresses)
            try container.encode(manualSteps, forKey: .manualSteps)
            try container.encode(manualSeconds, forKey: .manualSeconds)
        }
    }

    /// A mean or a worst case of every figure.
    public struct Figures: Hashable, Sendable, Encodable {
        public var autoSelectSteps: Double
        public var autoSteps: Double
        public var autoSeconds: Double
        public var manualSelectPresses: Double
        public var manualSteps: Double
        public var manualSeconds: Double

        public static let zero = Figures(
            autoSelectSteps: 0, autoSteps: 0, autoSeconds: 0, manualSelectPresses: 0, manualSteps: 0, manualSeconds: 0)

        public init(
            autoSelectSteps: Double, autoSteps: Double, autoSeconds: Double,
            manualSelectPresses: Double, manualSteps: Double, manualSeconds: Double
        ) {
            self.autoSelectSteps = autoSelectSteps
            self.autoSteps = autoSteps
            self.autoSeconds = autoSeconds
            self.manualSelectPresses = manualSelectPresses
            self.manualSteps = manualSteps
            self.manualSeconds = manualSeconds
        }

        init(_ item: ItemCost) {
            self.init(
                autoSelectSteps: Double(item.autoSelectSteps), autoSteps: Double(item.autoSteps),
                autoSeconds: item.autoSeconds, manualSelectPresses: Double(item.manualSelectPresses),
                manualSteps: Double(item.manualSteps), manualSeconds: item.manualSeconds)
        }
    }

    /// The costs of every item of a structure, with the mean and the worst over items.
    public struct Report: Hashable, Sendable {
        public var items: [ItemCost]
        public var settings: ScanSettings
        public var pressInterval: Double

        /// The mean over items, all equally likely (zero when there are none).
        public var mean: Figures { weightedMean(Array(repeating: 1, count: items.count)) }

        /// The greatest value of each figure (each may come from a different item).
        public var worst: Figures {
            var worst = Figures.zero
            for item in items {
                let figures = Figures(item)
                worst.autoSelectSteps = max(worst.autoSelectSteps, figures.autoSelectSteps)
                worst.autoSteps = max(worst.autoSteps, figures.autoSteps)
                worst.autoSeconds = max(worst.autoSeconds, figures.autoSeconds)
                worst.manualSelectPresses = max(worst.manualSelectPresses, figures.manualSelectPresses)
                worst.manualSteps = max(worst.manualSteps, figures.manualSteps)
                worst.manualSeconds = max(worst.manualSeconds, figures.manualSeconds)
            }
            return worst
        }

        /// The first item with the greatest value of a figure (auto steps, by default).
        public func worstItem(by figure: (ItemCost) -> Double = { Double($0.autoSteps) }) -> ItemCost? {
            var found: ItemCost?
            for item in items where found == nil || figure(item) > figure(found!) { found = item }
            return found
        }

        /// The mean with the given weights, one per item in scan order (normalised here; e.g.
        /// `ScanCost.zipfWeights`). Fewer weights than items: the rest weigh 0.
        public func weightedMean(_ weights: [Double]) -> Figures {
            var sum = Figures.zero
            var total = 0.0
            for (item, weight) in zip(items, weights) where weight > 0 {
                let figures = Figures(item)
                total += weight
                sum.autoSelectSteps += weight * figures.autoSelectSteps
                sum.autoSteps += weight * figures.autoSteps
                sum.autoSeconds += weight * figures.autoSeconds
                sum.manualSelectPresses += weight * figures.manualSelectPresses
                sum.manualSteps += weight * figures.manualSteps
                sum.manualSeconds += weight * figures.manualSeconds
            }
            guard total > 0 else { return .zero }
            return Figures(
                autoSelectSteps: sum.autoSelectSteps / total, autoSteps: sum.autoSteps / total,
                autoSeconds: sum.autoSeconds / total, manualSelectPresses: sum.manualSelectPresses / total,
                manualSteps: sum.manualSteps / total, manualSeconds: sum.manualSeconds / total)
        }

        /// The mean with weights given by item id (items not listed weigh 0).
        public func weightedMean(_ weights: [ElementID: Double]) -> Figures {
            weightedMean(items.map { weights[$0.id] ?? 0 })
        }
    }

    /// Seconds per press when scanning manually, unless the report is given another.
    public static let defaultPressInterval = 1.0

    /// The costs of every item of `nodes`, the structure the scanner walks (after automatic
    /// grouping when `groupItems` is on: see `report(for:settings:pressInterval:)`).
    public static func report(
        _ nodes: [ScanNode], settings: ScanSettings = ScanSettings(), pressInterval: Double = defaultPressInterval
    ) -> Report {
        var items = [ItemCost]()
        func walk(_ nodes: [ScanNode], path: [ElementID], positions: [Int]) {
            for (index, node) in nodes.enumerated() {
                switch node {
                case .item(let element):
                    items.append(cost(of: element, path: path, positions: positions + [index + 1],
                                      settings: settings, pressInterval: pressInterval))
                case .group(let element, let children):
                    walk(children, path: path + [element.id], positions: positions + [index + 1])
                }
            }
        }
        walk(nodes, path: [], positions: [])
        return Report(items: items, settings: settings, pressInterval: pressInterval)
    }

    /// The costs of every item of a screen as the scanner walks it with `settings`.
    public static func report(
        for screen: Screen, settings: ScanSettings = ScanSettings(), pressInterval: Double = defaultPressInterval
    ) -> Report {
        report(AutomaticGrouping.scanStructure(of: screen, groupItems: settings.groupItems),
               settings: settings, pressInterval: pressInterval)
    }

    /// One item's costs from its positions on each level.
    public static func cost(
        of element: Element, path: [ElementID], positions: [Int], settings: ScanSettings,
        pressInterval: Double = defaultPressInterval
    ) -> ItemCost {
        let step = settings.autoScanningTime
        let pause = settings.pauseOnFirstItem ?? 0
        var autoSelect = 0, autoSeconds = 0.0, manualSelect = 0
        for position in positions {
            autoSelect += position + 1
            autoSeconds += Double(position) * step + pause
            manualSelect += position
        }
        var autoSteps = autoSelect, manualSteps = manualSelect
        var waiting = 0.0
        switch settings.tapBehavior {
        case .default:
            autoSteps += 2
            autoSeconds += step
            manualSteps += 1
        case .autoTap:
            waiting = settings.autoTapTime
        case .alwaysTap:
            break
        }
        return ItemCost(
            id: element.id, label: element.label, path: path, positions: positions,
            isEnabled: !element.traits.contains(.notEnabled),
            autoSelectSteps: autoSelect, autoSteps: autoSteps, autoSeconds: autoSeconds + waiting,
            manualSelectPresses: manualSelect, manualSteps: manualSteps,
            manualSeconds: Double(manualSteps) * pressInterval + waiting)
    }

    /// What the screen's grouping is measured against, in mean steps to select an item (every
    /// item equally likely, acting excluded, as `autoSelectSteps`): the exact optimum over every
    /// tree, groups cutting across rows allowed (`ScanOptimum`), and row-column scanning of the
    /// same entries (each spatial row one group).
    public struct Comparison: Hashable, Sendable, Encodable {
        public var optimum: Double
        public var rowColumn: Double
    }

    /// The comparison for `screen` (its items as scanned with `groupItems` off, app's combined
    /// groups kept).
    public static func comparison(for screen: Screen) -> Comparison {
        let flat = AutomaticGrouping.scanStructure(of: screen, groupItems: false)
        let count = flat.flatMap(\.items).count
        guard count > 0 else { return Comparison(optimum: 0, rowColumn: 0) }
        let rowColumn = AutomaticGrouping.totalSelectSteps(AutomaticGrouping.rowColumnStructure(flat)) / Double(count)
        return Comparison(optimum: AutomaticGrouping.optimalUniformMean(n: count), rowColumn: rowColumn)
    }

    /// The best hierarchical bound on the mean steps to select one of n equally likely items:
    /// min over integer b ≥ 2 of ((b + 1)/2 + 1)·log_b(n), with b ≤ n (for n ≥ 5 the minimum
    /// is at b = 5 whatever n; below, b ≤ n keeps a level from having fewer items than b).
    public static func hierarchicalBound(n: Int) -> Double {
        guard n >= 2 else { return n == 1 ? 2 : 0 }
        var best = Double.infinity
        for b in 2...max(2, min(n, 64)) {
            let value = (Double(b + 1) / 2 + 1) * naturalLog(Double(n)) / naturalLog(Double(b))
            best = min(best, value)
        }
        return best
    }

    /// Linear scanning's mean position of one of n equally likely items: (n + 1)/2.
    public static func linearMean(n: Int) -> Double {
        Double(n + 1) / 2
    }

    /// Zipf weights for `count` items ranked in the given order: 1/rᵉ, normalised to sum 1.
    public static func zipfWeights(count: Int, exponent: Double = 1) -> [Double] {
        guard count > 0 else { return [] }
        let raw = (1...count).map { 1 / power(Double($0), exponent) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    // The module imports no C library: the two functions the bound and Zipf need, to ~1e-15.

    /// ln x for x > 0: x = m·2ᵉ with m in [1, 2), ln m = 2·atanh((m − 1)/(m + 1)).
    static func naturalLog(_ x: Double) -> Double {
        precondition(x > 0, "naturalLog of a non-positive number")
        let e = Double(x.exponent)
        let m = x.significand
        let z = (m - 1) / (m + 1), z2 = z * z
        var term = z, sum = 0.0
        var k = 1.0
        while true {
            let next = sum + term / k
            if next == sum { break }
            sum = next
            term *= z2
            k += 2
        }
        return e * ln2 + 2 * sum
    }

    static let ln2 = 0.693_147_180_559_945_309_417_232_121_458

    /// eˣ: x = k·ln 2 + r with |r| ≤ ln 2 / 2, then a Taylor series for eʳ.
    static func exponential(_ x: Double) -> Double {
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var term = 1.0, sum = 1.0, n = 1.0
        while true {
            term *= r / n
            let next = sum + term
            if next == sum { break }
            sum = next
            n += 1
        }
        return Double(sign: .plus, exponent: Int(k), significand: sum)
    }

    /// xʸ for x > 0.
    static func power(_ x: Double, _ y: Double) -> Double {
        y == 0 ? 1 : exponential(y * naturalLog(x))
    }
}
