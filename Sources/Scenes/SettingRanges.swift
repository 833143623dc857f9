import AccessibilityModel

extension SettingNames {
    /// The values a person and the scanning loop can honour, in seconds (a count for `loops`):
    /// below the minimum a scanner would step faster than anyone can react, or spin; above the
    /// maximum the value is a typo. For a time that can be off, 0 (or `off`) is off and the range
    /// applies to the other values. Documented in README.md, "Settings".
    public static let ranges: [String: ClosedRange<Double>] = [
        "autoScanningTime": 0.1...600,
        "pauseOnFirstItem": 0.05...600,
        "loops": 1...100,
        "moveRepeat": 0.05...60,
        "longPress": 0.1...60,
        "holdDuration": 0.01...60,
        "ignoreRepeat": 0.01...60,
        "autoTapTime": 0.1...60,
        "dwellTime": 0.1...600,
        "debounceTime": 0.001...5,
        "minimumDisplayTime": 0.01...60,
        "flashDuration": 0.1...600,
        "brailleReadingSpeed": 1...100,
    ]

    /// A number setting's range; a setting not listed gets a bound that still keeps timers
    /// apart and values convertible.
    public static func range(of name: String) -> ClosedRange<Double> {
        if let range = ranges[name] { return range }
        return shape(of: name) == .count ? 1...100 : 0.01...3600
    }

    /// What a setting accepts, with its range: `a number of seconds from 0.1 to 600`.
    public static func expectation(of name: String) -> String {
        guard let shape = shape(of: name) else { return "a known setting" }
        let range = range(of: name)
        let low = format(range.lowerBound), high = format(range.upperBound)
        switch shape {
        case .seconds: return "a number of seconds from \(low) to \(high)"
        case .count: return "a whole number from \(low) to \(high)"
        case .secondsOrOff: return "a number of seconds from \(low) to \(high), or off (0 is off)"
        case .rate: return "a number of characters per second from \(low) to \(high)"
        default: return shape.expectation
        }
    }

    /// Nil when `value` is one `name` accepts; else what it expects.
    public static func problem(name: String, value: StateValue) -> String? {
        guard let shape = shape(of: name) else { return "unknown setting" }
        let range = range(of: name)
        switch (shape, value) {
        case (.seconds, .number(let seconds)) where range.contains(seconds): return nil
        case (.rate, .number(let rate)) where range.contains(rate): return nil
        case (.count, .number(let count)) where range.contains(count) && count == count.rounded(): return nil
        case (.bool, .bool): return nil
        case (.secondsOrOff, .number(let seconds)) where seconds == 0 || range.contains(seconds): return nil
        case (.secondsOrOff, .bool): return nil
        case (.secondsOrOff, .string("off")): return nil
        case (.choice(let options), .string(let option)) where options.contains(option): return nil
        default: return "expects \(expectation(of: name)); found \(value)"
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
