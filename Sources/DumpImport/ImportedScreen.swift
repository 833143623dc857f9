/// The two dump formats the import reads.
public enum DumpFormat: String, CaseIterable, Sendable {
    /// Appium's page source of an iOS app (XCUITest / WebDriverAgent XML).
    case ios
    /// Android's UI Automator dump (`uiautomator dump`, Appium's page source on Android).
    case android

    public var title: String {
        switch self {
        case .ios: return "iOS XCUITest page source"
        case .android: return "Android UI Automator dump"
        }
    }
}

/// Why an element of a dump is not in the scene: what a scanner would skip.
public enum SkipReason: String, CaseIterable, Sendable, Comparable {
    case invisible = "invisible"
    case zeroSize = "zero size"
    case offScreen = "off screen"
    case notAccessible = "not accessible"
    case insideItem = "inside an accessibility element"

    public static func < (a: SkipReason, b: SkipReason) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// What the reason means, for the import's summary.
    public var explanation: String {
        switch self {
        case .invisible: return "visible, visible-to-user or displayed is false"
        case .zeroSize: return "width or height is 0"
        case .offScreen: return "the frame lies wholly outside the screen"
        case .notAccessible: return "not an accessibility element, with nothing inside to scan (no text, description or action)"
        case .insideItem: return "inside an element that is itself an item, so no scan reaches it"
        }
    }
}

/// An element left out of the scene, and where it is in the dump.
public struct SkippedElement: Hashable, Sendable {
    public var type: String
    public var position: DumpPosition
    public var reason: SkipReason
}

/// An element of the scene to be, before ids are made unique across the scene.
public struct ImportedElement: Sendable {
    /// The identifier the dump gives (accessibility identifier, resource id), if any.
    public var identifier: String?
    /// The base of a derived id when there is no identifier (`button-log-in`).
    public var derivedID: String
    /// The final id, unique in the scene (set when the scene is written).
    public var id: String = ""
    public var type: String
    public var label: String?
    public var value: String?
    public var hint: String?
    public var traits: [String] = []
    public var frame: (x: Double, y: Double, width: Double, height: Double)
    /// A container (its children are scanned), not an item.
    public var isContainer: Bool
    /// Responds to a tap: written with `activate: []`, where the author adds the effects.
    public var isTappable = false
    /// An alert or sheet: while it shows, the rest of the screen is not scanned.
    public var isModal = false
    public var isAdjustable: Bool { traits.contains("adjustable") }
    public var customActions: [String] = []
    public var children: [ImportedElement] = []
    public var position: DumpPosition
    /// Why the element is in the scene (the attribute or rule that made it an item or a
    /// container), for `import --report`.
    public var keptBecause = ""

    /// Every element of the subtree, depth first.
    public var subtree: [ImportedElement] { [self] + children.flatMap(\.subtree) }
}

/// One dump, converted: a screen of the scene.
public struct ImportedScreen: Sendable {
    public var file: String
    public var format: DumpFormat
    /// The screen's name in the scene (from the file's name; made unique when written).
    public var name: String
    public var size: (width: Double, height: Double)
    public var elements: [ImportedElement]
    public var skipped: [SkippedElement]

    /// How many elements were left out, by reason.
    public var skippedCounts: [(reason: SkipReason, count: Int)] {
        var counts = [SkipReason: Int]()
        for element in skipped { counts[element.reason, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    public var elementCount: Int { elements.reduce(0) { $0 + $1.subtree.count } }

    /// One line per kept element, in scan order: its type, label, place in the dump and why
    /// it is in the scene.
    public var keptLines: [String] {
        elements.flatMap(\.subtree).map { element in
            let label = element.label.map { " '\(DumpConverter.shown($0))'" } ?? ""
            return "\(element.type)\(label) at \(element.position.lineColumn): \(element.keptBecause)"
        }
    }
}
