import AccessibilityModel
import Documents

/// A settings file: scanning settings by their names (`SettingTable`), one mapping, read by the
/// scene reader with the same checks and messages as a scripted test's `settings:`.
///
///     # ~/.config/switchscan/settings.yaml
///     autoScanningTime: 1.5
///     tapBehavior: autoTap
///     pauseOnFirstItem: off
///
/// An empty file (or one with comments only) sets nothing. It does no I/O: callers read the file.
public struct SettingsDocument: Sendable {
    public struct Entry: Sendable {
        public var name: String
        public var value: StateValue
        /// Where the name is.
        public var keyLocation: SourceLocation
        /// Where the value is (what a wrong value is reported at).
        public var location: SourceLocation
    }

    public var entries: [Entry]

    /// Settings files are small; a larger one is refused before it is read.
    public static let limits = SceneLimits(maxBytes: 1 << 20, maxDepth: 8, maxElements: 0, maxStringLength: 1000, maxNodes: 10_000)

    /// The settings of `text`, or every problem found, each at its line and column.
    public static func parse(yaml text: String, file: String) throws(SceneLoadError) -> SettingsDocument {
        let reader = SceneReader(file: file, limits: limits)
        let entries = reader.readSettingsDocument(text)
        if !reader.problems.isEmpty {
            throw SceneLoadError(problems: reader.sceneProblems)
        }
        return SettingsDocument(entries: entries)
    }

    /// A value written on a command line (`--set name=value`, `switchscan settings set`):
    /// `true`, `false` and `off` (false), a number, else the text (a choice's name).
    public static func value(fromText text: String) -> StateValue {
        switch text {
        case "true": return .bool(true)
        case "false", "off": return .bool(false)
        default:
            if let first = text.first, first.isNumber || first == "-" || first == "+" || first == ".",
               let number = Double(text), number.isFinite {
                return .number(number)
            }
            return .string(text)
        }
    }

    /// The value as a settings file writes it: `off` for a switched-off time, whole numbers
    /// without a fraction, choices by name.
    public static func yamlText(_ value: StateValue, shape: SettingShape) -> String {
        switch value {
        case .bool(let flag):
            if case .secondsOrOff = shape, !flag { return "off" }
            return flag ? "true" : "false"
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .string(let text):
            return text
        }
    }
}

extension SceneReader {
    /// A settings file's entries; problems are reported.
    func readSettingsDocument(_ text: String) -> [SettingsDocument.Entry] {
        guard let root = readDocument(
            text, maxBytes: limits.maxBytes, expected: "settings", emptyAllowed: true) else { return [] }
        return readSettings(root, what: "the settings (a mapping of setting names to values)")
    }

    /// A mapping of setting names to values: each name known, each value of its setting's shape.
    func readSettings(_ node: DocumentNode, what: String = "settings") -> [SettingsDocument.Entry] {
        guard let pairs = mapping(node, what) else { return [] }
        var entries = [SettingsDocument.Entry]()
        for (name, keyNode, valueNode) in pairs {
            guard let setting = SettingTable.row(named: name) else {
                let names = SettingTable.names
                report(keyNode, "unknown setting '\(name)'\(suggestion(name, among: names)); expected one of: \(names.joined(separator: ", "))")
                continue
            }
            if let value = settingValue(valueNode, setting: setting) {
                entries.append(SettingsDocument.Entry(
                    name: name, value: value, keyLocation: location(keyNode), location: location(valueNode)))
            }
        }
        return entries
    }
}
