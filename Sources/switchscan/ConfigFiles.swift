import DeviceProfiles
import Foundation
import Scanning
import Scenes

/// The user's configuration folder (`$XDG_CONFIG_HOME/switchscan`, else
/// `~/.config/switchscan`): `settings.yaml`, `switches/`, `braille/`.
enum ConfigFiles {
    static var directory: String {
        var environment = ProcessInfo.processInfo.environment
        if environment["HOME"].map({ !$0.hasPrefix("/") }) ?? true { environment["HOME"] = NSHomeDirectory() }
        return configDirectory(environment: environment) ?? "/.config/switchscan"
    }

    /// `settings.yaml` in the configuration folder.
    static var settingsPath: String {
        (directory as NSString).appendingPathComponent("settings.yaml")
    }

    /// A settings file's text, nil when there is none; a file that cannot be read is an error.
    static func readSettingsText(_ path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("\(path):1:1: error: cannot read the file: \((error as NSError).localizedDescription)")
        }
        guard data.count <= SettingsDocument.limits.maxBytes else {
            throw CommandFailure("\(path):1:1: error: the file is \(data.count) bytes; a settings file is at most \(SettingsDocument.limits.maxBytes)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure("\(path):1:1: error: the file is not UTF-8 text")
        }
        return text
    }
}
