import ArgumentParser

@main
struct SwitchScan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchscan",
        abstract: "Switch Control item-mode scanning of accessibility scenes, on Linux.",
        discussion: """
            A scene is an interface described as an accessibility tree (labels, values, hints, \
            traits, frames, containers, groups, custom actions, adjustable elements) with its \
            behaviour, in a YAML file. Examples are under Scenarios/.
            """,
        version: SwitchScan.version,
        subcommands: [InspectCommand.self, ValidateCommand.self, AuditCommand.self, TestCommand.self, CostCommand.self, ImportCommand.self, RunCommand.self, SnapshotCommand.self, SettingsCommand.self, DevicesCommand.self, LearnCommand.self])
}

extension SwitchScan {
    /// `switchscan --version`: the release number (the commit is not in it yet: a build step that
    /// writes it without a network is issue 14's packaging work).
    static let version = "0.3.0"
}
