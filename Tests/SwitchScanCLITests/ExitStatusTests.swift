import Foundation
import Testing

/// README's exit status table, case by case: 1 the command's own finding or work not done, 2 an
/// input named on the command line that cannot be read or loaded, 64 a usage error (a malformed
/// argument or a number out of range), each with the message a user needs.
@Suite struct ExitStatusTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static let scene = "Scenarios/switch-control-groups.yaml"

    /// `run` refused before it starts: nothing to feed it, no device or display needed.
    func run(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["run", Self.scene, "--no-view", "--duration", "1"] + arguments,
                    environment: ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path])
    }

    @Test("a malformed --set, --braille or --input is a usage error (64) with run's usage")
    func malformedRunArguments() throws {
        for (arguments, message) in [
            (["--set", "autoScanningTime=fast"], "--set autoScanningTime=fast: expected a positive number of seconds, found fast"),
            (["--set", "autoScanningTime=0.01"], "--set autoScanningTime=0.01: expects a number of seconds from 0.1 to 600; found 0.01"),
            (["--set", "noSuchSetting=1"], "--set noSuchSetting=1: unknown setting"),
            (["--braille", "bogus"], "--braille bogus: expected auto, brlapi[:HOST], terminal or none"),
            (["--input", "usb:foo"], "--input usb:foo: expected auto, terminal, evdev:PATH, evemu:FILE or raw:PATH"),
        ] {
            let result = try run(arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("Error: \(message)"), "\(arguments): \(result)")
            #expect(result.stderr.contains("Usage: switchscan run "), "\(arguments): \(result)")
        }
        let cost = try CLI.run(["cost", Self.scene, "--set", "loops=0"])
        #expect(cost.status == 64, "\(cost)")
        #expect(cost.stderr.contains("Usage: switchscan cost "), "\(cost)")
    }

    @Test("a --settings file or a validate argument that does not exist is an input not read (2)")
    func missingInputs() throws {
        let settings = try run(["--settings", "nosuch.yaml"])
        #expect(settings.status == 2, "\(settings)")
        #expect(settings.stderr.contains("--settings nosuch.yaml: no such file"), "\(settings)")
        let tested = try CLI.run(["test", Self.scene, "--settings", "nosuch.yaml"])
        #expect(tested.status == 2, "\(tested)")
        let validated = try CLI.run(["validate", "missing.yaml"])
        #expect(validated.status == 2, "\(validated)")
        #expect(validated.stderr.contains("missing.yaml: no such file or folder"), "\(validated)")
    }

    @Test("a JUnit report that cannot be written is work not done (1), the tests having passed")
    func unwritableJUnit() throws {
        // A regular file where the report's folder should be: not writable, for root as well.
        let notAFolder = try folder.write("file.txt", "text\n")
        let result = try CLI.run(["test", Self.scene, "--junit", notAFolder + "/report.xml"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("--junit: the report was not written"), "\(result)")
        #expect(result.stdout.contains(" passed, 0 failed"), "\(result)")
    }

    @Test("settings list --file of a file that cannot be read exits 2 for every reason, naming the file and why")
    func unreadableSettingsFiles() throws {
        let big = try folder.write("big.yaml", String(repeating: "#", count: 2_000_000))
        let utf16 = folder.url.appendingPathComponent("utf16.yaml").path
        try Data([0xFF, 0xFE] + Array("loops: 2\n".utf8).flatMap { [$0, 0] }).write(to: URL(fileURLWithPath: utf16))
        let isFolder = folder.url.appendingPathComponent("folder.yaml").path
        try FileManager.default.createDirectory(atPath: isFolder, withIntermediateDirectories: true)
        for (path, reason) in [(big, "the file is 2000000 bytes; at most"), (utf16, "not UTF-8"), (isFolder, "it is a folder")] {
            for command in [["settings", "list"], ["settings", "get", "loops"]] {
                let result = try CLI.run(command + ["--file", path])
                #expect(result.status == 2, "\(command) \(path): \(result)")
                #expect(result.stderr.hasPrefix("\(path):1:1: error: "), "\(command) \(path): \(result)")
                #expect(result.stderr.contains(reason), "\(command) \(path): \(result)")
            }
        }
    }

    @Test("a usage error found while a subcommand runs shows that subcommand's usage")
    func subcommandUsage() throws {
        let result = try CLI.run(["inspect", Self.scene, "--screen", "nope"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("Error: scene "), "\(result)")
        #expect(result.stderr.contains("Usage: switchscan inspect <scene>"), "\(result)")
        #expect(result.stderr.contains("See 'switchscan inspect --help'"), "\(result)")
        #expect(!result.stderr.contains("switchscan <subcommand>"), "not the top level's usage: \(result)")
    }

    @Test("a mistyped subcommand or option gets the nearest names suggested (64)")
    func suggestions() throws {
        let runn = try CLI.run(["runn", "x.yaml"])
        #expect(runn.status == 64, "\(runn)")
        #expect(runn.stderr.hasPrefix("Error: 'runn' is not a switchscan command. Did you mean 'run'?\n"), "\(runn)")
        let settings = try CLI.run(["settings", "lst"])
        #expect(settings.status == 64, "\(settings)")
        #expect(settings.stderr.hasPrefix("Error: 'lst' is not a switchscan settings command. Did you mean 'list'?\n"), "\(settings)")
        let far = try CLI.run(["frobnicate"])
        #expect(far.status == 64, "\(far)")
        #expect(far.stderr.contains("(commands: inspect, validate, audit, test, cost, import, run, "), "nothing near: every command named: \(far)")
        let option = try CLI.run(["inspect", Self.scene, "--scren", "main"])
        #expect(option.status == 64, "\(option)")
        #expect(option.stderr.contains("Did you mean '--screen'?"), "\(option)")
        // Words that are arguments, not subcommands, are left alone.
        #expect(try CLI.run(["validate", Self.scene]).status == 0)
    }

    @Test("cost --learned with a selection store that does not load exits 2 and names the store once")
    func unloadableSelectionStore() throws {
        let state = folder.url.appendingPathComponent("state")
        let store = state.appendingPathComponent("switchscan/selections.tsv")
        try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("garbage\n".utf8).write(to: store)
        let result = try CLI.run(["cost", Self.scene, "--learned"], environment: ["XDG_STATE_HOME": state.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.components(separatedBy: store.path).count == 2, "the path once: \(result)")
    }
}
