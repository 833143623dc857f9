import Foundation

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
    /// Braille tables chosen per language: `fr=fr-bfu-comp6.utb en=en-ueb-g1.ctb`, or `none`.
    case brailleTables

    public var expectation: String {
        switch self {
        case .seconds: return "a positive number of seconds"
        case .count: return "a whole number of at least 1"
        case .bool: return "true or false"
        case .secondsOrOff: return "a number of seconds, or off"
        case .choice(let options): return "one of " + options.joined(separator: ", ")
        case .rate: return "a number of characters per second"
        case .brailleTables:
            return "LANGUAGE=TABLE pairs separated by spaces (liblouis table names, e.g. fr=fr-bfu-comp6.utb en=en-ueb-g1.ctb), or none"
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
        ("learnSelections", .bool),
        ("orderByFrequency", .bool),
        ("dwellTime", .seconds),
        ("debounceTime", .secondsOrOff),
        ("minimumDisplayTime", .secondsOrOff),
        ("brailleHints", .bool),
        ("flashDuration", .seconds),
        ("brailleCursor", .choice(["none", "firstCell", "segment"])),
        ("brailleReadingSpeed", .rate),
        ("brailleCode", .choice(["contracted", "uncontracted", "computer"])),
        ("brailleRoleFirst", .bool),
        ("brailleTables", .brailleTables),
        ("keyboardLayout", .choice(["auto", "english-frequency", "qwerty", "azerty"])),
    ]

    public static func shape(of name: String) -> SettingShape? {
        shapes.first { $0.name == name }?.shape
    }
}

/// The `brailleTables` setting: a liblouis table (or a comma-separated list of them) per
/// language, which wins over `brailleCode`'s choice for that language. Only table *names* are
/// accepted (letters, digits, `.`, `_`, `-`; no `/`, so nothing outside liblouis's table folder
/// can be named); whether a table exists is checked when `switchscan run` starts.
public enum BrailleTableSetting {
    /// `fr=fr-bfu-comp6.utb en=en-ueb-g1.ctb` → [fr: …, en: …]; `none` or empty → [:]; nil when
    /// a pair is not LANGUAGE=TABLE.
    public static func parse(_ text: String) -> [String: String]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == "none" { return [:] }
        var tables = [String: String]()
        for pair in trimmed.split(whereSeparator: { $0 == " " || $0 == ";" }) where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, isLanguage(parts[0]), isTableList(parts[1]), tables[parts[0]] == nil else { return nil }
            tables[parts[0]] = parts[1]
        }
        return tables
    }

    /// The setting's text for `tables`: pairs sorted by language, or `none`.
    public static func text(_ tables: [String: String]) -> String {
        tables.isEmpty ? "none" : tables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    static func isLanguage(_ text: String) -> Bool {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    static func isTableList(_ text: String) -> Bool {
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
        return !names.isEmpty && names.count <= 8 && names.allSatisfy { name in
            (1...64).contains(name.count) && name != "." && name != ".."
                && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
        }
    }
}
