import ArgumentParser
import DeviceProfiles
import Foundation
import Runtime
import Scanning
import Scenes
import Platform

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

    /// A settings file's text, nil when there is none; a file that cannot be read (too big, not
    /// UTF-8, not a regular file, no permission) is an input that does not load: its problem is
    /// said as `file:line:column: error: …` and the command exits 2.
    static func readSettingsText(_ path: String) throws -> String? {
        switch RegularFile.readText(path, maxBytes: SettingsDocument.limits.maxBytes) {
        case .success(let text): return text
        case .failure(let failure) where failure.isMissing: return nil
        case .failure(let failure):
            printError(failure.problem(file: path).description)
            throw ExitCode.unloadable
        }
    }
}
