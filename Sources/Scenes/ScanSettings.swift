import AccessibilityModel
import BrailleFormatting

/// Switch Control's scanning settings (docs/scanning.md), typed. Times in seconds; nil means
/// the option is off. Each field has its row in `SettingTable`, which names, checks, reads and
/// writes it; the initial values here are the defaults.
public struct ScanSettings: Hashable, Sendable {
    public enum Style: String, Hashable, Sendable, CaseIterable { case auto, manual, singleSwitchStep }
    public enum TapBehavior: String, Hashable, Sendable, CaseIterable { case `default`, autoTap, alwaysTap }
    public enum FocusAfterTap: String, Hashable, Sendable, CaseIterable { case first, current }

    public var scanning: Style = .auto
    /// Seconds per step in `auto`.
    public var autoScanningTime: Double = 1.0
    /// Extra time on the first item of every cycle and after entering a group.
    public var pauseOnFirstItem: Double?
    /// Full cycles before scanning stops (and the highlight hides).
    public var loops: Int = 4
    /// While next/previous is held, repeat every N seconds.
    public var moveRepeat: Double?
    /// A press held this long performs the switch's long-press action; short presses then act on release.
    public var longPress: Double?
    /// A press counts only once held this long.
    public var holdDuration: Double?
    /// Presses within this time after an accepted press are ignored.
    public var ignoreRepeat: Double?
    public var tapBehavior: TapBehavior = .default
    /// Window for `autoTap`: a second select within it opens the menu.
    public var autoTapTime: Double = 0.75
    public var focusedItemAfterTap: FocusAfterTap = .first
    /// Automatic grouping on/off.
    public var groupItems: Bool = true
    /// Learn what the user selects (issue 17, part 2): `switchscan run` on a scene records each
    /// item acted on, per screen, in `$XDG_STATE_HOME/switchscan/selections.tsv` (ids and counts
    /// only), and with `groupItems` on groups for the expected steps under those counts (the
    /// weighted contiguous optimum, reading order kept). Scripted tests start with it off; a
    /// test that sets it learns from empty counts, in memory only.
    public var learnSelections: Bool = true
    /// With `learnSelections`: also put the items most often selected first (faster, but the
    /// layout moves as habits change).
    public var orderByFrequency: Bool = false
    /// `singleSwitchStep`: staying still this long selects.
    public var dwellTime: Double = 2.0
    /// State flips closer than this to the previous edge are contact bounce.
    public var debounceTime: Double? = 0.025
    /// A press within this time of the highlight moving is ignored (users press before they perceive).
    public var minimumDisplayTime: Double?
    /// Include hints on the braille line.
    public var brailleHints: Bool = false
    /// How long an announcement or page-scrolled message stays on the display at the least.
    public var flashDuration: Double = 4.0
    /// A braille reader's speed, in characters per second: a message stays up at least as long
    /// as its length takes to read at this speed (a 79-character message 7.9 s at 10), however
    /// short `flashDuration` is. Screen readers' message timeouts are one number; on a 14- or
    /// 40-cell display a long message spans windows, so its time must grow with it.
    public var brailleReadingSpeed: Double = 10
    /// The braille code: contracted (default), uncontracted or computer braille, with the table
    /// of each element's language (`BrailleTableChoice`).
    public var brailleCode: BrailleCode = .contracted
    /// Role and state words before the label (`btn Play`): on a 14-cell display the words after
    /// a long label fall in a later window.
    public var brailleRoleFirst: Bool = false
    /// Tables chosen per language (`brailleTables`), winning over `brailleCode` for them.
    public var brailleTables: [String: String] = [:]

    /// How long `message` stays on the display: `flashDuration`, or longer for a long message.
    public func flashTime(for message: String) -> Double {
        max(flashDuration, Double(message.count) / brailleReadingSpeed)
    }
    /// Dots 7-8 on a braille display: none, firstCell (BrlAPI's cursor), segment (under the
    /// whole highlighted segment). `off` is none.
    public var brailleCursor: BrailleCursorMarking = .none
    /// The scanning keyboard's layout (`Devices/keyboards`): auto takes the text field's language's.
    public var keyboardLayout: KeyboardLayoutChoice = .auto
    /// In the terminal view, how long each page of a status too long for its rows stays before
    /// the next: a reader who reads slowly, or who looks away, needs it longer.
    public var statusPageTime: Double = 4.0

    public init() {}

    /// An error in a named setting, for reports that add the file and line.
    public struct SettingError: Error, Hashable, Sendable, CustomStringConvertible {
        public var name: String
        public var message: String
        public var description: String { "setting '\(name)': \(message)" }
    }

    /// Applies a setting by its name (`SettingTable`). Values are those the scene loader accepts:
    /// numbers in seconds, booleans, `off` (read as false), choice names.
    public mutating func set(_ name: String, _ value: StateValue) throws(SettingError) {
        guard let setting = SettingTable.row(named: name) else { throw SettingError(name: name, message: "unknown setting") }
        // Numbers within the setting's range only: a time too small for a person or the loop to
        // honour, or a count that does not fit, never reaches the engine.
        if case .number = value, let problem = setting.problem(value) {
            throw SettingError(name: name, message: problem)
        }
        try setting.apply(value, to: &self)
    }

    /// A setting's value by its name, as a settings file writes it (`off` for a time switched
    /// off); nil for an unknown name.
    public func value(named name: String) -> StateValue? {
        SettingTable.row(named: name)?.value(in: self)
    }
}
