import AccessibilityModel
import Scanning
import Scenes

/// `--set NAME=VALUE` options: scanning settings by their `scanning.md` names.
enum SettingOverrides {
    /// Settings from `name=value` texts, applied in order through `ScanSettings.set`.
    static func settings(from overrides: [String], base: ScanSettings = ScanSettings()) throws -> ScanSettings {
        var settings = base
        for text in overrides {
            guard let equals = text.firstIndex(of: "=") else { throw CommandFailure("--set \(text): expected name=value") }
            let name = String(text[..<equals]), raw = String(text[text.index(after: equals)...])
            let value: StateValue
            switch raw {
            case "true": value = .bool(true)
            case "false", "off": value = .bool(false)
            default: value = Double(raw).map(StateValue.number) ?? .string(raw)
            }
            do {
                try settings.set(name, value)
            } catch {
                throw CommandFailure("--set \(text): \(error.message)\(error.message == "unknown setting" ? " (settings: \(SettingNames.shapes.map(\.name).joined(separator: ", ")))" : "")")
            }
        }
        return settings
    }
}
