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
            file:line:column); 64 a usage error; 128+N run ended by signal N.
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
