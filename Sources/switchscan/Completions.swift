import ArgumentParser
import Foundation
import Scanning
import Scenes

/// What the shells complete for arguments and option values (the completion scripts of
/// `switchscan --generate-completion-script bash|zsh|fish` call the program back for the
/// `.custom` kinds). Setting names and values come from the one settings table
/// (`SettingTable`: names, shapes, ranges and defaults), never a copy of it.
enum Completions {
    /// Scene files (and folders, for the commands that search them).
    static let scenes = CompletionKind.file(extensions: ["yaml", "yml", "json"])
    /// Scene files and tests files (`NAME.tests.yaml` ends in `.yaml` too).
    static let scenesAndTests = CompletionKind.file(extensions: ["yaml", "yml", "json"])
    /// Accessibility dumps (XCUITest page sources, uiautomator dumps).
    static let dumps = CompletionKind.file(extensions: ["xml"])
    /// Settings files, switch profiles, evemu recordings as files.
    static let yamlFiles = CompletionKind.file(extensions: ["yaml", "yml"])

    /// `--braille`: its kinds (`brlapi:` takes a host after it).
    static let brailleOutputs = CompletionKind.list(["auto", "brlapi", "brlapi:", "brlapi::0", "brlapi::1", "terminal", "none"])
    /// `--braille-auth`: BrlAPI's methods.
    static let brailleAuth = CompletionKind.list(["none", "keyfile:", "polkit"])
    /// `--speech`: its kinds (the addresses take a path, a host and port after them).
    static let speechOutputs = CompletionKind.list(["auto", "none", "unix_socket:", "inet_socket:"])
    /// `--speech-voice`: the voice kinds every synthesizer maps (a synthesis voice's name is typed).
    static let speechVoices = CompletionKind.list(["male1", "male2", "male3", "female1", "female2", "female3", "child_male", "child_female"])

    /// `--input`: the kinds, then after `evdev:` the device nodes, after `evemu:` and `raw:` files.
    static let inputs = CompletionKind.custom { _, _, prefix in inputSources(prefix) }
    /// `--set NAME=VALUE`: the names (with `=`), then after `NAME=` the values it accepts.
    static let settingAssignments = CompletionKind.custom { _, _, prefix in settingAssignments(prefix) }
    /// A setting's name (`settings get|set|unset NAME`).
    static let settingNames = CompletionKind.list(SettingTable.names)
    /// `settings set NAME VALUE`: the values of the name before it.
    static let settingValue = CompletionKind.custom { words, index, prefix in
        // The name is the word before the value (`settings set NAME VALUE`).
        guard index >= 1, index - 1 < words.count else { return [] }
        return settingValues(words[index - 1]).filter { $0.hasPrefix(prefix) }
    }
    /// `learn --device`: the evdev nodes.
    static let devices = CompletionKind.custom { _, _, prefix in
        inputSources("evdev:" + prefix).compactMap { $0 == "evdev:auto" ? nil : String($0.dropFirst(6)) }
    }
    /// `--profile`: the ids of the switch profiles found (yours, then shipped), and files.
    static let profiles = CompletionKind.custom { _, _, prefix in profileCandidates(prefix) }

    /// The values a setting accepts worth offering: a choice's names, true/false, off, and for a
    /// number its default and the ends of its range.
    static func settingValues(_ name: String) -> [String] {
        guard let setting = SettingTable.row(named: name) else { return [] }
        let shape = setting.shape
        let defaultText = SettingsDocument.yamlText(setting.defaultValue, shape: shape)
        var values: [String]
        switch shape {
        case .choice(let options): values = options
        case .bool: values = ["true", "false"]
        case .brailleTables: values = ["none"]
        case .seconds, .count, .rate, .secondsOrOff:
            values = [defaultText]
            if let range = setting.range { values += [number(range.lowerBound), number(range.upperBound)] }
            if case .secondsOrOff = shape { values.append("off") }
        }
        var seen = Set<String>()
        return ([defaultText] + values).filter { seen.insert($0).inserted }
    }

    static func settingAssignments(_ prefix: String) -> [String] {
        guard let equals = prefix.firstIndex(of: "=") else {
            return SettingTable.names.map { $0 + "=" }.filter { $0.hasPrefix(prefix) }
        }
        let name = String(prefix[..<equals])
        return settingValues(name).map { name + "=" + $0 }.filter { $0.hasPrefix(prefix) }
    }

    static func inputSources(_ prefix: String, deviceFolder: String = "/dev/input") -> [String] {
        let kinds = ["auto", "terminal", "evdev:", "evemu:", "raw:"]
        if prefix.hasPrefix("evdev:") {
            let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: deviceFolder)) ?? [])
                .filter { $0.hasPrefix("event") && Int($0.dropFirst(5)) != nil }
                .sorted { Int($0.dropFirst(5)) ?? 0 < Int($1.dropFirst(5)) ?? 0 }
                .map { "evdev:" + (deviceFolder as NSString).appendingPathComponent($0) }
            let paths = nodes + filePaths(String(prefix.dropFirst(6))).map { "evdev:" + $0 }
            var seen = Set<String>()
            return (["evdev:auto"] + paths).filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
        }
        for kind in ["evemu:", "raw:"] where prefix.hasPrefix(kind) {
            return filePaths(String(prefix.dropFirst(kind.count))).map { kind + $0 }
        }
        return kinds.filter { $0.hasPrefix(prefix) }
    }

    static func profileCandidates(_ prefix: String) -> [String] {
        var ids = [String]()
        for folder in ProfileSources.switchFolders() where folder.exists {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                ids.append((name as NSString).deletingPathExtension)
            }
        }
        var seen = Set<String>()
        let files = prefix.contains("/") || prefix.hasPrefix(".") ? filePaths(prefix, extensions: ["yaml", "yml"]) : []
        return (ids.filter { $0.hasPrefix(prefix) } + files).filter { seen.insert($0).inserted }
    }

    /// The entries of the folder `prefix` names (up to its last `/`) whose names start with the
    /// rest; folders end in `/`; files filtered by `extensions` when given; hidden entries only
    /// when the prefix asks for them.
    static func filePaths(_ prefix: String, extensions: [String] = []) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folderPart = slash.map { String(prefix[...$0]) } ?? ""
        let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        let folder = folderPart.isEmpty ? "." : folderPart
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var found = [String]()
        for name in names.sorted() where name.hasPrefix(start) && (start.hasPrefix(".") || !name.hasPrefix(".")) {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(name), isDirectory: &isFolder)
            if isFolder.boolValue {
                found.append(folderPart + name + "/")
            } else if extensions.isEmpty || extensions.contains((name as NSString).pathExtension) {
                found.append(folderPart + name)
            }
        }
        return found
    }

    private static func number(_ value: Double) -> String {
        SettingsDocument.yamlText(.number(value), shape: .seconds)
    }
}
