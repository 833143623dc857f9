import AccessibilityModel
import BrailleFormatting

/// The shape of a setting's value, which says what a settings file, `--set` and a scripted
/// test's `settings:` may write for it.
public enum SettingShape: Sendable, Equatable {
    /// A number of seconds that must be positive.
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

/// One scanning setting: its name, the shape and range of its values, what it does, and the
/// field of `ScanSettings` it reads and writes. Its default is that field's initial value.
public struct Setting: Sendable {
    typealias Field<Value> = WritableKeyPath<ScanSettings, Value> & Sendable

    public let name: String
    public let shape: SettingShape
    /// For a number, the values a person and the scanning loop can honour (a count for
    /// `loops`): below the minimum a scanner would step faster than anyone can react, or spin;
    /// above the maximum the value is a typo. For a time that can be off, 0 (or `off`) is off and
    /// the range applies to the other values. Nil for a setting that is not a number.
    public let range: ClosedRange<Double>?
    /// What it does, in a sentence (`switchscan-settings(5)`).
    public let summary: String
    private let read: @Sendable (ScanSettings) -> StateValue
    private let write: @Sendable (inout ScanSettings, StateValue) throws(ScanSettings.SettingError) -> Void

    /// Its value in `settings`, as a settings file writes it (`off` for a time switched off).
    public func value(in settings: ScanSettings) -> StateValue { read(settings) }

    /// Its value in `ScanSettings()`.
    public var defaultValue: StateValue { read(ScanSettings()) }

    /// Sets it in `settings`; the value's range is checked by `ScanSettings.set` first.
    func apply(_ value: StateValue, to settings: inout ScanSettings) throws(ScanSettings.SettingError) {
        try write(&settings, value)
    }

    /// What it accepts, with its range: `a number of seconds from 0.1 to 600`.
    public var expectation: String {
        guard let range else { return shape.expectation }
        let low = Self.format(range.lowerBound), high = Self.format(range.upperBound)
        switch shape {
        case .seconds: return "a number of seconds from \(low) to \(high)"
        case .count: return "a whole number from \(low) to \(high)"
        case .secondsOrOff: return "a number of seconds from \(low) to \(high), or off (0 is off)"
        case .rate: return "a number of characters per second from \(low) to \(high)"
        default: return shape.expectation
        }
    }

    /// Nil when it accepts `value`; else what it expects.
    public func problem(_ value: StateValue) -> String? {
        func inRange(_ number: Double) -> Bool { range?.contains(number) ?? true }
        switch (shape, value) {
        case (.seconds, .number(let seconds)) where inRange(seconds): return nil
        case (.rate, .number(let rate)) where inRange(rate): return nil
        case (.brailleTables, .string(let text)) where BrailleTableSetting.parse(text) != nil: return nil
        case (.count, .number(let count)) where inRange(count) && count == count.rounded(): return nil
        case (.bool, .bool): return nil
        case (.secondsOrOff, .number(let seconds)) where seconds == 0 || inRange(seconds): return nil
        case (.secondsOrOff, .bool): return nil
        case (.secondsOrOff, .string("off")): return nil
        case (.choice(let options), .string(let option)) where options.contains(option): return nil
        default: return "expects \(expectation); found \(value)"
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    // The kinds of row. Each message names what the setting expects and what it was given.

    /// A positive number of seconds.
    static func seconds(_ name: String, _ field: Field<Double>, range: ClosedRange<Double>, _ summary: String) -> Setting {
        Setting(name: name, shape: .seconds, range: range, summary: summary,
                read: { .number($0[keyPath: field]) },
                write: { settings, value throws(ScanSettings.SettingError) in settings[keyPath: field] = try positiveSeconds(name, value) })
    }

    /// A reading speed; checked as a positive number, as a time is.
    static func rate(_ name: String, _ field: Field<Double>, range: ClosedRange<Double>, _ summary: String) -> Setting {
        Setting(name: name, shape: .rate, range: range, summary: summary,
                read: { .number($0[keyPath: field]) },
                write: { settings, value throws(ScanSettings.SettingError) in settings[keyPath: field] = try positiveSeconds(name, value) })
    }

    /// A time that can be off (nil): `off`, `false` or 0 turn it off; `true` gives `whenOn`
    /// (nil, off, unless the setting has a time that `on` means).
    static func secondsOrOff(_ name: String, _ field: Field<Double?>, range: ClosedRange<Double>, _ summary: String,
                             whenOn: @escaping @Sendable (ScanSettings) -> Double? = { _ in nil }) -> Setting {
        Setting(name: name, shape: .secondsOrOff, range: range, summary: summary,
                read: { settings in settings[keyPath: field].map(StateValue.number) ?? .bool(false) },
                write: { settings, value throws(ScanSettings.SettingError) in
                    switch value {
                    case .bool(true): settings[keyPath: field] = whenOn(settings)
                    case .bool(false): settings[keyPath: field] = nil
                    case .number(let number) where number == 0: settings[keyPath: field] = nil
                    case .number(let number) where number > 0: settings[keyPath: field] = number
                    default: throw ScanSettings.SettingError(name: name, message: "expected a number of seconds or off, found \(value)")
                    }
                })
    }

    /// A whole number of at least 1.
    static func count(_ name: String, _ field: Field<Int>, range: ClosedRange<Double>, _ summary: String) -> Setting {
        Setting(name: name, shape: .count, range: range, summary: summary,
                read: { .number(Double($0[keyPath: field])) },
                write: { settings, value throws(ScanSettings.SettingError) in
                    guard case .number(let count) = value, count >= 1, count == count.rounded(), let whole = Int(exactly: count) else {
                        throw ScanSettings.SettingError(name: name, message: "expected a whole number of at least 1, found \(value)")
                    }
                    settings[keyPath: field] = whole
                })
    }

    static func bool(_ name: String, _ field: Field<Bool>, _ summary: String) -> Setting {
        Setting(name: name, shape: .bool, range: nil, summary: summary,
                read: { .bool($0[keyPath: field]) },
                write: { settings, value throws(ScanSettings.SettingError) in
                    guard case .bool(let flag) = value else {
                        throw ScanSettings.SettingError(name: name, message: "expected true or false, found \(value)")
                    }
                    settings[keyPath: field] = flag
                })
    }

    /// One of an enumeration's cases, by name, in the order the enumeration lists them; `off`
    /// (false) is `whenOff` where the setting has such a case.
    static func choice<Option: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ field: Field<Option>, _ summary: String, whenOff: Option? = nil
    ) -> Setting where Option.RawValue == String {
        let options = Option.allCases.map(\.rawValue)
        return Setting(name: name, shape: .choice(options), range: nil, summary: summary,
                       read: { .string($0[keyPath: field].rawValue) },
                       write: { settings, value throws(ScanSettings.SettingError) in
                           if case .bool(false) = value, let whenOff {
                               settings[keyPath: field] = whenOff
                               return
                           }
                           guard case .string(let text) = value, let option = Option(rawValue: text) else {
                               throw ScanSettings.SettingError(name: name, message: "expected one of \(options.joined(separator: ", ")), found \(value)")
                           }
                           settings[keyPath: field] = option
                       })
    }

    /// Braille tables per language (`BrailleTableSetting`).
    static func brailleTables(_ name: String, _ field: Field<[String: String]>, _ summary: String) -> Setting {
        Setting(name: name, shape: .brailleTables, range: nil, summary: summary,
                read: { .string(BrailleTableSetting.text($0[keyPath: field])) },
                write: { settings, value throws(ScanSettings.SettingError) in
                    guard case .string(let text) = value, let tables = BrailleTableSetting.parse(text) else {
                        throw ScanSettings.SettingError(name: name, message: "expected \(SettingShape.brailleTables.expectation), found \(value)")
                    }
                    settings[keyPath: field] = tables
                })
    }

    private static func positiveSeconds(_ name: String, _ value: StateValue) throws(ScanSettings.SettingError) -> Double {
        guard case .number(let number) = value, number > 0 else {
            throw ScanSettings.SettingError(name: name, message: "expected a positive number of seconds, found \(value)")
        }
        return number
    }
}

/// The one table of scanning settings, read by the scene reader (a scripted test's
/// `settings:`), settings files, `--set`, `switchscan settings` and `switchscan-settings(5)`.
/// Adding a setting is a field of `ScanSettings` and a row here. The order is the order
/// `switchscan settings list` and the manual page show them in. docs/scanning.md says what the
/// scanning settings do, with iOS's names.
public enum SettingTable {
    public static let rows: [Setting] = [
        .choice("scanning", \.scanning,
                "How the highlight moves: auto (it steps by itself every autoScanningTime), manual (the next and previous switches move it) or singleSwitchStep (one switch moves it; staying still for dwellTime selects)."),
        .seconds("autoScanningTime", \.autoScanningTime, range: 0.1...600,
                 "Seconds per step when scanning is auto."),
        // `true` turns it on with one extra step's time, as iOS's switch does.
        .secondsOrOff("pauseOnFirstItem", \.pauseOnFirstItem, range: 0.05...600,
                      "Extra time on the first item of every cycle and after entering a group.",
                      whenOn: { $0.autoScanningTime }),
        .count("loops", \.loops, range: 1...100,
               "Full cycles without a selection before scanning stops (and the highlight hides), or a group is left."),
        .secondsOrOff("moveRepeat", \.moveRepeat, range: 0.05...60,
                      "While the next or previous switch is held, the highlight moves again every this many seconds."),
        .secondsOrOff("longPress", \.longPress, range: 0.1...60,
                      "A press held this long does the switch's long-press action; short presses then act on release.",
                      whenOn: { _ in 1.0 }),
        .secondsOrOff("holdDuration", \.holdDuration, range: 0.01...60,
                      "A press counts only once held this long."),
        .secondsOrOff("ignoreRepeat", \.ignoreRepeat, range: 0.01...60,
                      "Presses within this time after an accepted press are ignored."),
        .choice("tapBehavior", \.tapBehavior,
                "What select does on an item: default (opens the scanner menu), autoTap (taps, unless a second select within autoTapTime opens the menu) or alwaysTap (taps; the menu is reached from its own item)."),
        .seconds("autoTapTime", \.autoTapTime, range: 0.1...60,
                 "With autoTap: the time within which a second select opens the menu instead."),
        .choice("focusedItemAfterTap", \.focusedItemAfterTap,
                "Where scanning resumes after a tap: the first item, or the current one."),
        .bool("groupItems", \.groupItems,
              "Automatic grouping: items are gathered into groups so that any item is reached in fewer steps."),
        .bool("learnSelections", \.learnSelections,
              "Count what the user selects on each screen (in $XDG_STATE_HOME/switchscan/selections.tsv) and group for it."),
        .bool("orderByFrequency", \.orderByFrequency,
              "With learnSelections: put the items selected most often first (faster, but the layout moves as habits change)."),
        .seconds("dwellTime", \.dwellTime, range: 0.1...600,
                 "With singleSwitchStep: staying still this long selects."),
        .secondsOrOff("debounceTime", \.debounceTime, range: 0.001...5,
                      "Switch state changes closer than this to the previous one are contact bounce and ignored."),
        .secondsOrOff("minimumDisplayTime", \.minimumDisplayTime, range: 0.01...60,
                      "A press within this time of the highlight moving is ignored (users press before they perceive the move)."),
        .bool("brailleHints", \.brailleHints,
              "Put elements' hints on the braille line."),
        .seconds("flashDuration", \.flashDuration, range: 0.1...600,
                 "How long an announcement or a page-scrolled message stays on the braille display at the least."),
        .choice("brailleCursor", \.brailleCursor,
                "Dots 7 and 8 on the braille display: none, firstCell (BrlAPI's cursor on the first cell of the highlighted item) or segment (under the whole highlighted part).",
                whenOff: BrailleCursorMarking.none),
        .rate("brailleReadingSpeed", \.brailleReadingSpeed, range: 1...100,
              "The reader's speed in characters per second: a message stays up at least as long as its length takes to read at this speed."),
        .choice("brailleCode", \.brailleCode,
                "The braille code: contracted, uncontracted or computer braille, with the table of each element's language."),
        .bool("brailleRoleFirst", \.brailleRoleFirst,
              "Role and state words before the label (btn Play), so that on a short display they are in the first window."),
        .brailleTables("brailleTables", \.brailleTables,
                       "Braille tables chosen per language, winning over brailleCode for those languages."),
        .choice("keyboardLayout", \.keyboardLayout,
                "The scanning keyboard's layout: auto (the text field's language's, by letter frequency), english-frequency, french-frequency, qwerty or azerty."),
        .seconds("statusPageTime", \.statusPageTime, range: 0.5...60,
                 "In the terminal view, how long each page of a status too long for its rows stays before the next."),
    ]

    public static func row(named name: String) -> Setting? {
        rows.first { $0.name == name }
    }

    /// Every setting's name, in the table's order.
    public static var names: [String] { rows.map(\.name) }
}
