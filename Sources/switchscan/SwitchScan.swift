import ArgumentParser
import Runtime

@main
struct SwitchScan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchscan",
        abstract: "Switch Control item-mode scanning of accessibility scenes, on Linux.",
        discussion: """
            A scene is an interface described as an accessibility tree (labels, values, hints, \
            traits, frames, containers, groups, custom actions, adjustable elements) with its \
            behaviour, in a YAML file. Examples: the seed scenes, in \
            /usr/share/switchscan/examples when installed, Scenarios/ in the source tree. Each \
            command has a manual page (man switchscan-run, …) and its own --help.

            Exit status, for every command: 0 done, nothing failed; 1 the command's own finding (a \
            test failed, audit findings, validate found problems) or work that could not be done; 2 an \
            input named on the command line could not be read or loaded (problems as \
            file:line:column); 64 a usage error; 128+N ended by signal N (run, learn and snapshot \
            restore the terminal and devices first).
            """,
        version: SwitchScan.version,
        subcommands: [InspectCommand.self, ValidateCommand.self, AuditCommand.self, TestCommand.self, CostCommand.self, ImportCommand.self, RunCommand.self, SnapshotCommand.self, SettingsCommand.self, DevicesCommand.self, LearnCommand.self, ManualPagesCommand.self])
}

extension SwitchScan {
    /// The release number; `scripts/package` takes the Debian package's version from it.
    static let release = "0.3.0"

    /// `switchscan --version`: the release, and the commit when it can be told (an installed
    /// package's build-info, or the clone's `.git` for a program built in one): `0.3.0 (commit
    /// 308388d1a2b3, built 2026-11-25)`. The first word is always the release alone.
    static var version: String {
        guard !CommandLine.arguments.contains("--experimental-dump-help") else { return release }
        return release + (BuildInfo.commit().map { " (\($0.description))" } ?? "")
    }
}

extension SwitchScan {
    /// ArgumentParser's `main`, with three things it does not do: a word that is no subcommand
    /// gets the nearest ones suggested (`runn` → `run`); a usage error found while a subcommand
    /// runs (a screen the scene does not have) shows that subcommand's usage, not the top
    /// level's; a `CommandFailure` exits with its own status (README's table).
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = CommandNames.unknownSubcommand(in: arguments, root: SwitchScan.self) {
            printError("Error: \(unknown.message)\nUsage: \(usageString(for: unknown.parent))\n  See '\(CommandNames.path(of: unknown.parent, root: SwitchScan.self)) --help' for more information.")
            exit(withError: ExitCode.validationFailure)
        }
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
        } catch let failure as CommandFailure {
            printError("Error: \(failure.description)")
            exit(withError: failure.status)
        } catch let failure as ValidationError {
            let subcommand = type(of: command)
            printError("Error: \(failure.message)\nUsage: \(usageString(for: subcommand))\n  See '\(CommandNames.path(of: subcommand, root: SwitchScan.self)) --help' for more information.")
            exit(withError: ExitCode.validationFailure)
        } catch {
            exit(withError: error)
        }
    }
}

/// Subcommand names: the words a command line names them by, and suggestions for a mistyped one.
enum CommandNames {
    struct Unknown {
        /// The command whose subcommand was mistyped.
        var parent: ParsableCommand.Type
        var message: String
    }

    /// The first word of `arguments` that stands where a subcommand must and names none (a
    /// command with subcommands and no arguments of its own), with the nearest names offered.
    /// Options end the walk: ArgumentParser reports those itself (with its own suggestion).
    static func unknownSubcommand(in arguments: [String], root: ParsableCommand.Type) -> Unknown? {
        var current = root
        for word in arguments {
            let subcommands = current.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-"), word != "help" else { return nil }
            var names = [String]()
            var next: ParsableCommand.Type?
            for subcommand in subcommands {
                let name = commandName(subcommand)
                names.append(name)
                if name == word || aliases(subcommand).contains(word) { next = subcommand }
            }
            if let next {
                current = next
                continue
            }
            let near = suggestions(for: word, among: names)
            let path = self.path(of: current, root: root)
            var message = "'\(word)' is not a \(path) command"
            if near.count == 1 {
                message += ". Did you mean '\(near[0])'?"
            } else if !near.isEmpty {
                message += ". Did you mean one of these? \(near.map { "'\($0)'" }.joined(separator: ", "))"
            } else {
                message += " (commands: \(names.joined(separator: ", ")))"
            }
            return Unknown(parent: current, message: message)
        }
        return nil
    }

    static func commandName(_ command: ParsableCommand.Type) -> String { command._commandName }
    static func aliases(_ command: ParsableCommand.Type) -> [String] { command.configuration.aliases }

    /// The names within a small edit distance of `word` (as git's "did you mean"), or that
    /// start with it, nearest first.
    static func suggestions(for word: String, among names: [String]) -> [String] {
        let scored = names.map { (name: $0, distance: editDistance(word.lowercased(), $0.lowercased())) }
        let limit = max(1, min(3, word.count / 3 + 1))
        let near = scored.filter { $0.distance <= limit || ($0.name.hasPrefix(word) && word.count >= 2) }
        let best = near.map(\.distance).min()
        return near.filter { $0.distance == best || $0.name.hasPrefix(word) }.map(\.name)
    }

    /// Damerau–Levenshtein distance (optimal string alignment): a swap of neighbours is one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// `switchscan settings set`: the words that name `command` below `root`.
    static func path(of command: ParsableCommand.Type, root: ParsableCommand.Type) -> String {
        func search(_ current: ParsableCommand.Type, _ names: [String]) -> [String]? {
            if ObjectIdentifier(current) == ObjectIdentifier(command) { return names }
            for sub in current.configuration.subcommands {
                if let found = search(sub, names + [commandName(sub)]) { return found }
            }
            return nil
        }
        return (search(root, [commandName(root)]) ?? [commandName(root), commandName(command)]).joined(separator: " ")
    }
}
