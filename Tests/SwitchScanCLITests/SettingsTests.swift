import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Platform

/// Settings as the person setting up a switch user meets them: `switchscan settings`, the
/// configuration folder's settings.yaml read by `switchscan run`, `--settings FILE` under
/// `--set`, and a file edited while the run goes on (applied at once; a bad edit said once with
/// its line and column, the settings in effect kept).
@Suite("switchscan settings and run --settings", .serialized)
struct SettingsTests {
    let folder: TemporaryFolder
    init() throws {
        ProcessSignal.ignore(SIGPIPE)  // keys typed to a run that refused to start fail instead
        folder = try TemporaryFolder()
    }

    var config: String { folder.url.appendingPathComponent("config").path }
    var environment: [String: String] { ["XDG_CONFIG_HOME": config] }
    var defaultFile: String { config + "/switchscan/settings.yaml" }

    func settings(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["settings"] + arguments, environment: environment)
    }

    func fileText(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    // MARK: switchscan settings

    @Test func setGetListAndUnsetWriteTheConfigurationFolderFile() throws {
        #expect(try settings(["path"]).stdout == defaultFile + "\n")
        #expect(try settings(["get", "autoScanningTime"]).stdout == "1\n", "the default, with no file")

        let set = try settings(["set", "autoScanningTime", "1.5"])
        #expect(set.status == 0, "\(set)")
        #expect(try settings(["set", "tapBehavior", "autoTap"]).status == 0)
        #expect(try settings(["set", "pauseOnFirstItem", "off"]).status == 0)
        #expect(fileText(defaultFile) == "autoScanningTime: 1.5\ntapBehavior: autoTap\npauseOnFirstItem: off\n")
        #expect(try settings(["get", "autoScanningTime"]).stdout == "1.5\n")

        // A setting already there is changed on its own line; the others stay in place.
        #expect(try settings(["set", "autoScanningTime", "2"]).status == 0)
        #expect(try settings(["unset", "tapBehavior"]).status == 0)
        #expect(fileText(defaultFile) == "autoScanningTime: 2\npauseOnFirstItem: off\n")

        let list = try settings(["list"])
        #expect(list.status == 0, "\(list)")
        let lines = list.stdoutLines
        #expect(lines.first == "# \(defaultFile)")
        #expect(lines.contains { $0.hasPrefix("autoScanningTime ") && $0.contains(" 2 ") && $0.contains(" set ") }, "\(list)")
        #expect(lines.contains { $0.hasPrefix("tapBehavior ") && $0.contains(" default ") && $0.contains(" default ") }, "\(list)")
        #expect(lines.contains { $0.hasPrefix("brailleCursor ") && $0.contains(" default ") }, "\(list)")
        #expect(lines.count == 1 + 26, "one line per setting (19 scanning settings, 5 braille ones, the keyboard's layout, the status page time): \(list)")
        #expect(lines.contains { $0.hasPrefix("statusPageTime ") && $0.contains(" 4 ") && $0.contains(" default ") }, "\(list)")
        #expect(lines.contains { $0.hasPrefix("learnSelections ") && $0.contains(" true ") && $0.contains(" default ") }, "\(list)")
        #expect(lines.contains { $0.hasPrefix("orderByFrequency ") && $0.contains(" false ") && $0.contains(" default ") }, "\(list)")
        // Every setting shows its value (brailleCursor showed `?` before).
        #expect(lines.contains { $0.hasPrefix("brailleCursor ") && $0.contains(" none ") }, "\(list)")
        #expect(!lines.dropFirst().contains { $0.split(separator: " ").dropFirst().first == "?" }, "\(list)")
        #expect(try settings(["get", "brailleCursor"]).stdout == "none\n")
        #expect(try settings(["get", "brailleReadingSpeed"]).stdout == "10\n")
    }

    @Test func aWrongValueIsRefusedAndTheFileIsLeftAsItWas() throws {
        let path = try folder.write("mine.yaml", "# my settings\nscanning: manual  # one switch at a time\nloops: 2\n")
        let before = fileText(path)
        let wrong = try settings(["set", "tapBehavior", "alwaysTapp", "--file", path])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("setting 'tapBehavior' expects one of default, autoTap, alwaysTap; found alwaysTapp"), "\(wrong)")
        let negative = try settings(["set", "autoScanningTime", "-1", "--file", path])
        #expect(negative.status != 0)
        #expect(negative.stderr.contains("setting 'autoScanningTime' expects a number of seconds from 0.1 to 600; found -1"), "\(negative)")
        let unknown = try settings(["set", "autoScanTime", "2", "--file", path])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("unknown setting 'autoScanTime'"), "\(unknown)")
        #expect(fileText(path) == before)

        // Comments stay; a new setting goes at the end.
        #expect(try settings(["set", "loops", "3", "--file", path]).status == 0)
        #expect(try settings(["set", "dwellTime", "2.5", "--file", path]).status == 0)
        #expect(fileText(path) == "# my settings\nscanning: manual  # one switch at a time\nloops: 3\ndwellTime: 2.5\n")
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") } == [])

        // A file with errors: a wrong value is refused and the file left as it was; a right one
        // replaces the bad line (SettingsRepairTests has the rest).
        let broken = try folder.write("broken.yaml", "scanning: manual\nloops: many\n")
        let refused = try settings(["set", "loops", "0", "--file", broken])
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("setting 'loops' expects a whole number from 1 to 100; found 0"), "\(refused)")
        #expect(fileText(broken) == "scanning: manual\nloops: many\n")
        let repaired = try settings(["set", "loops", "2", "--file", broken])
        #expect(repaired.status == 0, "\(repaired)")
        #expect(fileText(broken) == "scanning: manual\nloops: 2\n")
    }

    // MARK: switchscan test --settings

    static let sceneWithTests = """
        scene: Two buttons
        size: [390, 844]
        start: main
        screens:
          main:
            elements:
              - {id: ok, label: OK, traits: [button], frame: [20, 100, 350, 44]}
              - {id: cancel, label: Cancel, traits: [button], frame: [20, 200, 350, 44]}
        tests:
          - name: select opens the menu
            settings: {scanning: manual}
            steps:
              - press: select
              - expect: {menu: [Tap, Exit menu]}
          - name: select opens the menu with the default tap behaviour
            settings: {scanning: manual, tapBehavior: default}
            steps:
              - press: select
              - expect: {menu: [Tap, Exit menu]}

        """

    @Test func testStartsFromTheSettingsFileAndATestsOwnSettingsWin() throws {
        let scene = try folder.write("two.yaml", Self.sceneWithTests)
        #expect(try CLI.run(["test", scene]).stdoutLines.last == "2 passed, 0 failed")
        let alwaysTap = try folder.write("always-tap.yaml", "tapBehavior: alwaysTap\n")
        let result = try CLI.run(["test", scene, "--settings", alwaysTap])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("FAIL \(scene): select opens the menu\n"), "\(result)")
        #expect(result.stdout.contains("PASS \(scene): select opens the menu with the default tap behaviour"), "\(result)")
        #expect(result.stdoutLines.last == "1 passed, 1 failed")

        let bad = try folder.write("bad.yaml", "tapBehavior: sometimes\n")
        // The file's problems are diagnostics: on standard error (stdout is the tests' report),
        // with the exit status of an input that cannot be loaded.
        let refused = try CLI.run(["test", scene, "--settings", bad])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("bad.yaml:1:14: error: setting 'tapBehavior' expects one of default, autoTap, alwaysTap; found sometimes"), "\(refused)")
        #expect(refused.stdout.isEmpty, "\(refused)")
    }

    // MARK: switchscan run

    /// `switchscan run` on the groups scene with Enter (next) then Space (select) typed: with
    /// the default tap behaviour the item's menu opens; with `alwaysTap` it is tapped.
    func enterThenSpace(_ arguments: [String]) throws -> (result: CLI.Result, trace: [[String: Any]]) {
        let trace = folder.url.appendingPathComponent("trace-\(UUID().uuidString.prefix(6)).jsonl").path
        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["run", "Scenarios/switch-control-groups.yaml", "--no-view", "--trace", trace] + arguments
        process.currentDirectoryURL = CLI.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errURL = folder.url.appendingPathComponent("stderr-\(UUID().uuidString.prefix(6))")
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardError = err
        process.standardOutput = try folder.outputFile("stdout-1")
        let input = Pipe()
        process.standardInput = input
        try process.run()
        for key in ["\r", " "] {
            try? input.fileHandleForWriting.write(contentsOf: Data(key.utf8))
            Thread.sleep(forTimeInterval: 0.15)
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try err.close()
        let events = FileManager.default.fileExists(atPath: trace) ? try RunCommandTests.traceEvents(trace) : []
        return (CLI.Result(status: process.terminationStatus, stdout: "",
                           stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)), events)
    }

    static func tapped(_ events: [[String: Any]]) -> Bool {
        events.contains { $0["kind"] as? String == "perform" && $0["id"] as? String == "btn-1" && $0["action"] as? String == "activate" }
    }

    static func menuOpened(_ events: [[String: Any]]) -> Bool {
        events.contains { $0["kind"] as? String == "menu" && ($0["entries"] as? [String])?.isEmpty == false }
    }

    @Test func runReadsTheConfigurationFolderFileAndSettingsFileAndSetWinInThatOrder() throws {
        // No file: the default (the menu opens).
        let plain = try enterThenSpace(["--set", "scanning=manual"])
        #expect(plain.result.status == 0, "\(plain.result)")
        #expect(Self.menuOpened(plain.trace) && !Self.tapped(plain.trace))

        // The configuration folder's settings.yaml.
        try FileManager.default.createDirectory(atPath: config + "/switchscan", withIntermediateDirectories: true)
        try Data("scanning: manual\ntapBehavior: alwaysTap\n".utf8).write(to: URL(fileURLWithPath: defaultFile))
        let fromFolder = try enterThenSpace([])
        #expect(fromFolder.result.status == 0, "\(fromFolder.result)")
        #expect(Self.tapped(fromFolder.trace) && !Self.menuOpened(fromFolder.trace), "\(fromFolder.trace)")

        // --settings FILE replaces it; --set wins over both.
        let other = try folder.write("other.yaml", "scanning: manual\ntapBehavior: default\n")
        #expect(Self.menuOpened(try enterThenSpace(["--settings", other]).trace))
        let overridden = try enterThenSpace(["--settings", other, "--set", "tapBehavior=alwaysTap"])
        #expect(Self.tapped(overridden.trace) && !Self.menuOpened(overridden.trace))
        // --settings none: no file at all.
        #expect(Self.menuOpened(try enterThenSpace(["--settings", "none", "--set", "scanning=manual"]).trace))
    }

    @Test func aSettingsFileWithErrorsIsReportedWithItsPosition() throws {
        let bad = try folder.write("bad.yaml", "scanning: manual\nautoScaningTime: 2\n")
        let given = try enterThenSpace(["--settings", bad])
        #expect(given.result.status == 2)
        #expect(given.result.stderr.contains("bad.yaml:2:1: error: unknown setting 'autoScaningTime' (did you mean 'autoScanningTime'?)"), "\(given.result)")
        #expect(given.trace.isEmpty, "nothing ran")
        let missing = try enterThenSpace(["--settings", folder.url.appendingPathComponent("nothing.yaml").path])
        #expect(missing.result.status != 0)
        #expect(missing.result.stderr.contains("nothing.yaml: no such file"), "\(missing.result)")

        // The configuration folder's file with an error: said, and the run goes on with the
        // defaults (and --set).
        try FileManager.default.createDirectory(atPath: config + "/switchscan", withIntermediateDirectories: true)
        try Data("tapBehavior: alwaysTap\nloops: 0\n".utf8).write(to: URL(fileURLWithPath: defaultFile))
        let run = try enterThenSpace(["--set", "scanning=manual"])
        #expect(run.result.status == 0, "\(run.result)")
        let message = "settings.yaml:2:8: error: setting 'loops' expects a whole number from 1 to 100; found 0"
        #expect(run.result.stderr.contains(message), "\(run.result)")
        let statuses = run.trace.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String }
        #expect(statuses.contains { $0.contains(message) && $0.hasSuffix("running with the defaults until the file is corrected") }, "\(statuses)")
        #expect(Self.menuOpened(run.trace) && !Self.tapped(run.trace), "the defaults: \(run.trace)")
    }

    @Test func anEditDuringTheRunAppliesAtOnceAndABadOneIsSaidOnceAndIgnored() throws {
        let path = try folder.write("live.yaml", "# switch user: one switch\nscanning: manual\n")
        let run = try ScanRun(["Scenarios/switch-control-groups.yaml", "--settings", path])
        func statuses() -> [String] {
            run.events.filter { $0["kind"] as? String == "status" }.compactMap { $0["text"] as? String }.filter { $0.hasPrefix("settings:") }
        }
        func waitForStatus(_ count: Int) -> Bool { run.waitForTrace(timeout: 5) { _ in statuses().count >= count } }
        #expect(run.waitForTrace(timeout: 5) { $0.contains { $0["kind"] as? String == "highlight" } })
        run.type("\r")
        #expect(run.waitForTrace(timeout: 3) { $0.contains { $0["id"] as? String == "btn-1" } })

        // Written by `switchscan settings set` (a temporary file renamed over it).
        let set = try settings(["set", "tapBehavior", "alwaysTap", "--file", path])
        #expect(set.status == 0, "\(set)")
        #expect(waitForStatus(1))
        #expect(statuses().first == "settings: \(path) applied: scanning manual, tapBehavior alwaysTap", "\(statuses())")
        run.type(" ")
        #expect(run.waitForTrace(timeout: 3) { Self.tapped($0) }, "alwaysTap taps at once: \(run.events)")

        // A bad edit in place (the file rewritten, as an editor saving it does), twice: said once.
        let badText = "# switch user: one switch\nscanning: manual\ntapBehavior: default\nautoScanningTime: -1\n"
        try Data(badText.utf8).write(to: URL(fileURLWithPath: path))
        #expect(waitForStatus(2))
        // The previous settings hold: after the tap the highlight is back on the first group;
        // select enters it, and select on Test 1 taps it at once.
        run.type(" ")
        #expect(run.waitForTrace(timeout: 3) { $0.contains { $0["kind"] as? String == "highlight" && $0["id"] as? String == "test-1" } })
        run.type(" ")
        #expect(run.waitForTrace(timeout: 3) { $0.contains { $0["kind"] as? String == "perform" && $0["id"] as? String == "test-1" } },
                "\(run.events)")
        #expect(!Self.menuOpened(run.events))
        try Data(badText.utf8).write(to: URL(fileURLWithPath: path))
        // Corrected: applied, and nothing was said in between.
        Thread.sleep(forTimeInterval: 0.2)
        let good = "# switch user: one switch\nscanning: manual\ntapBehavior: default\n"
        try Data(good.utf8).write(to: URL(fileURLWithPath: path))
        #expect(waitForStatus(3))
        let said = statuses()
        try #require(said.count == 3, "\(said)")
        #expect(said[1] == "settings: \(path):4:19: error: setting 'autoScanningTime' expects a number of seconds from 0.1 to 600; found -1; the previous settings stay", "\(said)")
        #expect(said[2] == "settings: \(path) applied: scanning manual, tapBehavior default")

        // Now select opens the menu (after entering the group again).
        let performs = run.events.filter { $0["kind"] as? String == "perform" }.count
        run.type(" ")
        Thread.sleep(forTimeInterval: 0.15)
        run.type(" ")
        #expect(run.waitForTrace(timeout: 3) { Self.menuOpened($0) }, "\(run.events)")
        #expect(run.events.filter { $0["kind"] as? String == "perform" }.count == performs)
        #expect(run.finish() == 0, "\(run.stderr)")
    }
}
