/// The scanning settings a scene test (and later a configuration file) may set, with the shape
/// of their values. Names are those of `shared/design/scanning.md`.
public enum SettingShape: Sendable, Equatable {
    /// A number of seconds (or a count) that must be positive.
    case seconds
    /// A whole number ≥ 1.
    case count
    case bool
    /// `off` (or false) to disable, or a number of seconds.
    case secondsOrOff
    case choice([String])
    /// A reading speed, in characters per second.
    case rate

    public var expectation: String {
        switch self {
        case .seconds: return "a positive number of seconds"
        case .count: return "a whole number of at least 1"
        case .bool: return "true or false"
        case .secondsOrOff: return "a number of seconds, or off"
        case .choice(let options): return "one of " + options.joined(separator: ", ")
        case .rate: return "a number of characters per second"
        }
    }
}

public enum SettingNames {
    public static let shapes: [(name: String, shape: SettingShape)] = [
        ("scanning", .choice(["auto", "manual", "singleSwitchStep"])),
        ("autoScanningTime", .seconds),
        ("pauseOnFirstItem", .secondsOrOff),
        ("loops", .count),
        ("moveRepeat", .secondsOrOff),
        ("longPress", .secondsOrOff),
        ("holdDuration", .secondsOrOff),
        ("ignoreRepeat", .secondsOrOff),
        ("tapBehavior", .choice(["default", "autoTap", "alwaysTap"])),
        ("autoTapTime", .seconds),
        ("focusedItemAfterTap", .choice(["first", "current"])),
        ("groupItems", .bool),
        ("dwellTime", .seconds),
        ("debounceTime", .secondsOrOff),
        ("minimumDisplayTime", .secondsOrOff),
        ("brailleHints", .bool),
        ("flashDuration", .seconds),
        ("brailleCursor", .choice(["none", "firstCell", "segment"])),
        ("brailleReadingSpeed", .rate),
        ("brailleCode", .choice(["contracted", "uncontracted", "computer"])),
        ("brailleRoleFirst", .bool),
    ]

    public static func shape(of name: String) -> SettingShape? {
        shapes.first { $0.name == name }?.shape
    }
}
