import AccessibilityModel
import ArgumentParser
import Foundation
import Runtime
import Scanning
import Scenes
import Platform

/// `switchscan settings`: the scanning settings of the configuration folder's settings.yaml,
/// read, and written atomically (checked first; a temporary file renamed over the old one).
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show and change the scanning settings in $XDG_CONFIG_HOME/switchscan/settings.yaml.",
        discussion: """
            switchscan run reads that file when it starts and again whenever it changes, so a \
            setting changed here applies at once to a run in progress. Values are checked before \
            the file is written; the file is written whole to a temporary file and renamed into \
            place, so a run never reads it half-written. Other lines (comments) are kept. A file \
            with errors is repaired, not refused: set replaces the lines of that setting (unset \
            removes them) and keeps every other byte, naming the other bad lines as warnings.
            """,
        subcommands: [List.self, Get.self, Set.self, Unset.self, Path.self])

    struct FileOption: ParsableArguments {
        @Option(name: .customLong("file"), help: ArgumentHelp(
            "The settings file (default: $XDG_CONFIG_HOME/switchscan/settings.yaml, or ~/.config/switchscan/settings.yaml).",
            valueName: "file"), completion: Completions.yamlFiles)
        var file: String?

        var path: String { file ?? ConfigFiles.settingsPath }

        /// The file's settings over the defaults, and the file's own entries.
        func load() throws -> (text: String?, settings: ScanSettings, document: SettingsDocument?) {
            let text = try ConfigFiles.readSettingsText(path)
            guard let text else { return (nil, ScanSettings(), nil) }
            switch SettingsFile.settings(yaml: text, file: path, base: ScanSettings()) {
            case .success(let (settings, document)): return (text, settings, document)
            case .failure(let error):
                for problem in error.problems { printError(problem.description) }
                throw ExitCode.unloadable
            }
        }
    }

    static func text(_ name: String, _ value: StateValue) -> String {
        SettingsDocument.yamlText(value, shape: SettingTable.row(named: name)?.shape ?? .seconds)
    }

    static func checkName(_ name: String) throws {
        guard SettingTable.row(named: name) != nil else {
            throw CommandFailure("unknown setting '\(name)'; settings: \(SettingTable.names.joined(separator: ", "))")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every setting: its value, whether the file sets it, and the values it accepts.")
        @OptionGroup var options: FileOption

        func run() throws {
            let (_, settings, document) = try options.load()
            let set = Swift.Set(document?.entries.map(\.name) ?? [])
            print("# \(options.path)\(document == nil ? " (no file: the defaults)" : "")")
            let rows = SettingTable.rows.map { setting in
                (name: setting.name, value: SettingsDocument.yamlText(setting.value(in: settings), shape: setting.shape),
                 origin: set.contains(setting.name) ? "set" : "default", accepts: setting.expectation)
            }
            // Columns as wide as their widest entry: a value is never cut (`contracted`, `en=en-ueb-g2.ctb`).
            func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
            let nameWidth = rows.map(\.name.count).max() ?? 0
            let valueWidth = rows.map(\.value.count).max() ?? 0
            for row in rows {
                print("\(pad(row.name, nameWidth))  \(pad(row.value, valueWidth))  \(pad(row.origin, 7))  \(row.accepts)")
            }
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one setting's value (the file's, else the default).")
        @Argument(help: "The setting's name.", completion: Completions.settingNames) var name: String
        @OptionGroup var options: FileOption

        func run() throws {
            try SettingsCommand.checkName(name)
            let (_, settings, _) = try options.load()
            print(settings.value(named: name).map { SettingsCommand.text(name, $0) } ?? "")
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set one setting in the file (created if needed); checked, then written atomically.")
        @Argument(help: "The setting's name.", completion: Completions.settingNames) var name: String
        // Collected as unrecognised words so that a negative number is a value, not an option
        // (and is refused for what it is).
        @Argument(parsing: .allUnrecognized, help: "Its value: seconds, a count, true/false, off, or a choice's name.",
                  completion: Completions.settingValue)
        var value: [String] = []
        @OptionGroup var options: FileOption

        func validate() throws {
            guard value.count == 1 else { throw ValidationError("give one value after the setting's name") }
        }

        func run() throws {
            try SettingsCommand.checkName(name)
            try SettingsCommand.write(options, name: name, value: SettingsDocument.value(fromText: value[0]))
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove one setting from the file (its default applies again).")
        @Argument(help: "The setting's name.", completion: Completions.settingNames) var name: String
        @OptionGroup var options: FileOption

        func run() throws {
            try SettingsCommand.checkName(name)
            try SettingsCommand.write(options, name: name, value: nil)
        }
    }

    struct Path: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the settings file's path.")
        @OptionGroup var options: FileOption

        func run() throws { print(options.path) }
    }

    /// Problems of lines a repair kept as they were: `file:line:column: warning: …`.
    static func warn(_ problems: [SceneProblem]) {
        for problem in problems {
            printError("\(problem.location): warning: \(problem.message) (this line is kept as it is)")
        }
    }

    /// The file with `name` set (or removed), written safely (`SafeFileWriter`: the folder
    /// locked against another writer while the file is read again, changed and replaced; a link
    /// followed to its target; mode and owner kept; CRLF kept; no temporary file left).
    static func write(_ options: FileOption, name: String, value: StateValue?) throws {
        struct NothingToDo: Error {}
        let path = options.path
        let written: String
        // Problems of other lines in a file that had errors: kept as they were, said as warnings.
        var kept = [SceneProblem]()
        do {
            written = try SafeFileWriter.update(path, maxBytes: SettingsDocument.limits.maxBytes) { current in
                if let current {
                    switch SettingsFile.settings(yaml: current, file: path, base: ScanSettings()) {
                    case .success(let (_, document)):
                        if value == nil, !document.entries.contains(where: { $0.name == name }) { throw NothingToDo() }
                    case .failure:
                        // A file with errors is repaired line by line: the setting's own line is
                        // replaced (or removed), every other byte kept, so that a helper need
                        // not open an editor to set a value the user needs now.
                        let repair: SettingsFile.Repair
                        do {
                            repair = try SettingsFile.repairing(current, file: path, name: name, value: value)
                        } catch {
                            throw CommandFailure("\(path): \(error)", status: .validationFailure)
                        }
                        kept = repair.remaining
                        if repair.text == current { throw NothingToDo() }
                        return repair.text
                    }
                } else if value == nil {
                    throw NothingToDo()
                }
                do {
                    return try SettingsFile.editing(current, file: path, name: name, value: value)
                } catch {
                    // The value given does not fit the setting: a malformed argument.
                    throw CommandFailure("\(path): \(error)", status: .validationFailure)
                }
            }
        } catch is NothingToDo {
            SettingsCommand.warn(kept)
            print("\(name) is not set in \(path); nothing to do")
            return
        } catch let error as RegularFile.ReadError {
            throw CommandFailure(error.problem(file: path).description, status: .unloadable)
        } catch let error as SafeFileWriter.WriteError {
            throw CommandFailure(error.description)
        }
        SettingsCommand.warn(kept)
        let shown = written == path ? path : "\(path) → \(written)"
        if let value {
            print("\(name): \(SettingsCommand.text(name, value)) (\(shown))")
        } else {
            print("\(name) removed (\(shown)); the default applies")
        }
    }
}
