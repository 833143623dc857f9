import AccessibilityModel
import ArgumentParser
import Scanning
import Scenes

/// `--set NAME=VALUE` options: scanning settings by their names (`SettingTable`). A malformed one
/// (an unknown name, a value of the wrong kind or out of range) is a usage error (exit 64).
enum SettingOverrides {
    /// The `name=value` texts as names and values, each checked against `ScanSettings.set`.
    static func parse(_ overrides: [String]) throws -> [(name: String, value: StateValue)] {
        var parsed = [(name: String, value: StateValue)]()
        var check = ScanSettings()
        for text in overrides {
            guard let equals = text.firstIndex(of: "=") else { throw ValidationError("--set \(text): expected name=value") }
            let name = String(text[..<equals])
            let value = SettingsDocument.value(fromText: String(text[text.index(after: equals)...]))
            do {
                try check.set(name, value)
            } catch {
                throw ValidationError("--set \(text): \(error.message)\(error.message == "unknown setting" ? " (settings: \(SettingTable.names.joined(separator: ", ")))" : "")")
            }
            parsed.append((name, value))
        }
        return parsed
    }

    /// Settings from `name=value` texts, applied in order through `ScanSettings.set`.
    static func settings(from overrides: [String], base: ScanSettings = ScanSettings()) throws -> ScanSettings {
        var settings = base
        for (name, value) in try parse(overrides) { try? settings.set(name, value) }
        return settings
    }
}
