import ArgumentParser
import DeviceProfiles
import Foundation
import Runtime
import Scanning
import Scenes
import Platform

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run the scripted tests (tests:) of scene files in virtual time.",
        discussion: """
            Prints one line per test, PASS or FAIL with the file and the test's name; a failure is \
            followed by its message (file:line:column of the step, what was expected and what was \
            found) and the last trace lines. The last line is "N passed, M failed".

            key: steps go through a switch profile and the same stabilisation as a real device: \
            the test's own profile: (a file relative to the scene file, or a profile's id), else \
            --profile, else the shipped generic keyboard profile \
            (Devices/switches/generic-keyboard.yaml: KEY_SPACE select, KEY_ENTER next).

            --junit writes through switchscan's one file writer: only a regular file (or a new \
            one) is replaced, a symbolic link is written through to its file, and a file the run \
            reads is never the report.

            Exits 0 when every test passed, 1 when a test fails or the report cannot be written, \
            2 when a file cannot be loaded \
            (a missing one too; its problems are printed and the last line counts it), --profile \
            or --settings cannot be read, or --filter matches no test. Step semantics: \
            docs/scene-format-additions.md, "Scripted tests".
            """)

    @Argument(help: "Scene files or folders (searched for .yaml, .yml and .json files).", completion: Completions.scenesAndTests)
    var paths: [String]

    @Option(help: ArgumentHelp("Also write the results as JUnit XML to this file.", valueName: "file"), completion: .file(extensions: ["xml"]))
    var junit: String?

    @Option(help: ArgumentHelp("Run only the tests whose name contains this text (ignoring case).", valueName: "text"))
    var filter: String?

    @Option(help: ArgumentHelp(
        "The switch profile key: steps go through in tests with no profile: of their own: a file, or a profile's id or name (as switchscan devices lists them). Default: the shipped generic keyboard profile.",
        valueName: "file"), completion: Completions.profiles)
    var profile: String?

    @Option(name: .customLong("settings"), help: ArgumentHelp(
        "Start every test from this settings file's settings (as switchscan run reads them) instead of the defaults; a test's own settings still win. The configuration folder's settings.yaml is never read by tests.",
        valueName: "file"), completion: Completions.yamlFiles)
    var settingsFile: String?

    func run() throws {
        var baseSettings = ScanSettings()
        if let settingsFile {
            guard let text = try ConfigFiles.readSettingsText(settingsFile) else {
                throw CommandFailure("--settings \(settingsFile): no such file", status: .unloadable)
            }
            switch SettingsFile.settings(yaml: text, file: settingsFile, base: ScanSettings()) {
            case .success(let (settings, _)): baseSettings = settings
            case .failure(let error):
                for problem in error.problems { printError(problem.description) }
                throw ExitCode.unloadable
            }
        }
        // A path that does not exist is a file that cannot be loaded (exit 2, counted), as the
        // docs say, not a failure of the command line before any test runs.
        let files = try SceneFiles.expandKeepingMissing(paths)
        var profiles = TestProfiles()
        let defaultProfile: SwitchProfile
        switch profiles.defaultProfile(profile) {
        case .success(let found): defaultProfile = found
        case .failure(let error):
            printError("switchscan test: \(error.message)")
            throw ExitCode(2)
        }
        // Text fields open the scanning keyboard of the scene's language; tests type without
        // prediction, so that what they type does not depend on words presage learnt.
        let keyboards = KeyboardLayouts(folders: KeyboardLayouts.folders())
        for problem in keyboards.problems { printError("switchscan test: keyboard layout left out: \(problem)") }
        var suites = [JUnitReport.Suite]()
        var passed = 0, failed = 0, unloadable = 0, testsSeen = 0
        var filesRead = files
        for file in files {
            let started = Date()
            let loaded = SceneFiles.loadEntry(file)
            if case .success(let entry) = loaded, let scene = entry.testsFor { filesRead.append(scene) }
            switch loaded.map(\.scene) {
            case .failure(let error):
                unloadable += 1
                for problem in error.problems { print(problem) }
                suites.append(JUnitReport.Suite(
                    name: file, cases: [], loadError: error.problems.map(\.description).joined(separator: "\n"),
                    loadLine: error.problems.first?.location.line ?? 1, timestamp: started))
            case .success(let scene):
                testsSeen += scene.tests.count
                var runner = ScriptRunner(scene: scene, profile: defaultProfile)
                for name in runner.profileNames {
                    runner.testProfiles[name] = profiles.resolve(name, sceneFile: file)
                }
                runner.baseSettings = baseSettings
                runner.keyboard = keyboards.layout(for: scene.language, chosen: baseSettings.keyboardLayout.layoutID)
                    .map { KeyboardOffer(layout: $0) }
                var cases = [JUnitReport.Case]()
                for test in scene.tests where matches(test.name) {
                    let clock = ContinuousClock()
                    var result: ScriptResult?
                    let elapsed = clock.measure { result = runner.run(test) }
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                    if let failure = result!.failure {
                        failed += 1
                        print("FAIL \(file): \(test.name)")
                        for line in failure.report.split(separator: "\n", omittingEmptySubsequences: false) {
                            print("  " + line)
                        }
                        cases.append(JUnitReport.Case(
                            name: test.name, file: test.location.file, line: test.location.line, seconds: seconds,
                            failureMessage: failure.message, failureText: failure.report))
                    } else {
                        passed += 1
                        print("PASS \(file): \(test.name)")
                        cases.append(JUnitReport.Case(
                            name: test.name, file: test.location.file, line: test.location.line, seconds: seconds,
                            failureMessage: nil, failureText: nil))
                    }
                }
                if !cases.isEmpty { suites.append(JUnitReport.Suite(name: file, cases: cases, loadError: nil, timestamp: started)) }
            }
        }
        print("\(passed) passed, \(failed) failed" + SceneFiles.notLoaded(unloadable))
        // A filter that matches nothing is a mistake in the command, not a pass: CI would
        // otherwise report success for tests that never ran.
        let filterMatchedNothing = filter.map { !$0.isEmpty } == true && passed + failed == 0 && testsSeen > 0
        if filterMatchedNothing, let filter {
            printError("switchscan test: --filter '\(filter)' matches the name of none of the \(testsSeen) test\(testsSeen == 1 ? "" : "s") found; nothing was run")
        } else if filter.map({ !$0.isEmpty }) == true, passed + failed == 0, unloadable == 0, let filter {
            printError("switchscan test: --filter '\(filter)': the files hold no tests; nothing was run")
        }
        var reportWritten = true
        if let junit {
            // Never over a file the run read: the scenes, tests files, settings and profile.
            let inputs = filesRead + profiles.filesRead + [settingsFile, profile].compactMap { $0 }
            do {
                try SafeFileWriter.write(JUnitReport.xml(suites), to: junit, replace: true, inputs: inputs)
            } catch {
                printError("switchscan test: --junit: the report was not written: \(error)")
                reportWritten = false
            }
        }
        if unloadable > 0 { throw ExitCode(2) }
        if failed > 0 { throw ExitCode(1) }
        if filter.map({ !$0.isEmpty }) == true, passed == 0 { throw ExitCode(2) }
        if !reportWritten { throw ExitCode(1) }
    }

    func matches(_ name: String) -> Bool {
        guard let filter, !filter.isEmpty else { return true }
        return name.range(of: filter, options: .caseInsensitive) != nil
    }
}

/// The switch profiles of scripted tests: the default one (`--profile`, else the shipped generic
/// keyboard profile), and those tests name with `profile:`. Reading files is the only I/O here;
/// the profiles are parsed by DeviceProfiles, as `switchscan run` reads them.
struct TestProfiles {
    private var loaded: SwitchProfileFiles.Loaded?
    private var found: [String: Result<SwitchProfile, ProfileLookupError>] = [:]
    /// The profile files tests named (which the JUnit report never replaces).
    private(set) var filesRead: [String] = []

    /// The profiles of the user's folder and the repository's, read once when first needed.
    private mutating func catalog() -> SwitchProfileFiles.Loaded {
        if let loaded { return loaded }
        let catalog = SwitchProfileFiles.loadCatalog()
        loaded = catalog
        return catalog
    }

    /// `--profile` (a file, else an id or name), or the repository's
    /// `Devices/switches/generic-keyboard.yaml`, or the same profile built in when the repository's
    /// folder is not found (an installed binary). The shipped file rather than a user's own
    /// `generic-keyboard`: a scene's tests give the same results on every machine.
    mutating func defaultProfile(_ argument: String?) -> Result<SwitchProfile, ProfileLookupError> {
        if let argument {
            return lookUp(argument, file: argument, option: "--profile \(argument)")
        }
        if let folder = SwitchProfileFiles.repositoryDirectory {
            let path = (folder as NSString).appendingPathComponent(SwitchProfile.genericKeyboardID + ".yaml")
            if FileManager.default.fileExists(atPath: path) {
                return SwitchProfileFiles.load(path).mapError { error in
                    ProfileLookupError("the generic keyboard profile has errors:\n" + error.problems.map(\.description).joined(separator: "\n"))
                }
            }
        }
        return .success(.builtInGenericKeyboard)
    }

    /// A test's `profile:` value: a file when it names one (a path with a `/`, or a `.yaml`/`.yml`
    /// name), inside the scene file's own folder only (`ContainedPath`: no absolute path, no
    /// `..`, no symbolic link out of it); otherwise a profile's id or name (shipped or the user's).
    mutating func resolve(_ name: String, sceneFile: String) -> Result<SwitchProfile, ProfileLookupError> {
        let isPath = name.contains("/") || name.hasSuffix(".yaml") || name.hasSuffix(".yml")
        let key = isPath ? "\(sceneFile)\u{0}\(name)" : name
        if let known = found[key] { return known }
        let result: Result<SwitchProfile, ProfileLookupError>
        if isPath {
            switch ContainedPath.resolve(name, besideFile: sceneFile) {
            case .success(let path):
                filesRead.append(path)
                result = loadFile(path, named: name)
            case .failure(let refusal): result = .failure(ProfileLookupError(refusal.message))
            }
        } else {
            result = lookUp(name, file: nil, option: nil)
        }
        found[key] = result
        return result
    }

    /// A profile file a scene names. Its problems are counted and placed, never quoted: a
    /// scene must not be able to make the program print a file's content (in the terminal or
    /// the JUnit report). `--profile FILE` shows them in full.
    private func loadFile(_ path: String, named name: String) -> Result<SwitchProfile, ProfileLookupError> {
        SwitchProfileFiles.load(path).mapError { error in
            let count = error.problems.count
            let first = error.problems.first.map { " (the first at line \($0.line), column \($0.column))" } ?? ""
            return ProfileLookupError(
                "\(path) is not a usable switch profile: \(count) problem\(count == 1 ? "" : "s")\(first); `switchscan test --profile \(path)` shows them")
        }
    }

    /// `file` when it exists, else an id or name in the catalog.
    private mutating func lookUp(_ name: String, file: String?, option: String?) -> Result<SwitchProfile, ProfileLookupError> {
        if let file, FileManager.default.fileExists(atPath: file) {
            return SwitchProfileFiles.load(file).mapError { error in
                ProfileLookupError("\(option ?? file) has errors:\n" + error.problems.map(\.description).joined(separator: "\n"))
            }
        }
        let loaded = catalog()
        if let profile = loaded.catalog.profile(named: name) { return .success(profile) }
        let known = loaded.catalog.profiles.map(\.id)
        let what = option.map { "\($0): no such file, and no" } ?? "no"
        return .failure(ProfileLookupError(
            "\(what) profile in \(loaded.directories.joined(separator: ", ")) has that id or name (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"))
    }
}

/// JUnit XML, as CI servers read it: `testsuites` > one `testsuite` per scene file > one
/// `testcase` per test, with a `failure` for a failed test. A file that cannot be loaded is a
/// suite with `errors="1"` and one `testcase` named `(load)` holding an `error` with its problems.
enum JUnitReport {
    struct Case {
        var name: String
        /// The file and line where the test is declared (a tests file's, for its tests).
        var file: String
        var line: Int
        var seconds: Double
        var failureMessage: String?
        var failureText: String?
    }

    struct Suite {
        var name: String
        var cases: [Case]
        var loadError: String?
        /// The line of the first load problem.
        var loadLine: Int = 1
        /// When the file's tests started (its loading).
        var timestamp: Date

        var testCount: Int { cases.count + (loadError == nil ? 0 : 1) }
        var failureCount: Int { cases.filter { $0.failureMessage != nil }.count }
        var errorCount: Int { loadError == nil ? 0 : 1 }
        var seconds: Double { cases.map(\.seconds).reduce(0, +) }
    }

    static func xml(_ suites: [Suite]) -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        let tests = suites.map(\.testCount).reduce(0, +)
        let failures = suites.map(\.failureCount).reduce(0, +)
        let errors = suites.map(\.errorCount).reduce(0, +)
        let time = suites.map(\.seconds).reduce(0, +)
        lines.append(#"<testsuites name="switchscan test" tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" time="\#(format(time))">"#)
        for suite in suites {
            let name = attribute(suite.name)
            lines.append(#"  <testsuite name="\#(name)" tests="\#(suite.testCount)" failures="\#(suite.failureCount)" errors="\#(suite.errorCount)" skipped="0" time="\#(format(suite.seconds))" timestamp="\#(timestamp(suite.timestamp))">"#)
            if let loadError = suite.loadError {
                lines.append(#"    <testcase classname="\#(name)" name="(load)" file="\#(name)" line="\#(suite.loadLine)" time="0.000">"#)
                let first = loadError.split(separator: "\n").first.map(String.init) ?? loadError
                lines.append(#"      <error message="\#(attribute(first))" type="load">\#(text(loadError))</error>"#)
                lines.append("    </testcase>")
            }
            for test in suite.cases {
                let opening = #"    <testcase classname="\#(name)" name="\#(attribute(test.name))" file="\#(attribute(test.file))" line="\#(test.line)" time="\#(format(test.seconds))""#
                if let message = test.failureMessage {
                    lines.append(opening + ">")
                    lines.append(#"      <failure message="\#(attribute(message))" type="expectation">\#(text(test.failureText ?? message))</failure>"#)
                    lines.append("    </testcase>")
                } else {
                    lines.append(opening + "/>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    /// JUnit's `timestamp`: ISO 8601 in UTC, to the second, without a zone (`2026-11-25T21:04:05`),
    /// as the JUnit schema's xs:dateTime pattern for it asks.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// Character data: `&`, `<`, `>` escaped; characters XML 1.0 cannot hold become U+FFFD.
    static func text(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(allowed(scalar) ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    /// An attribute value in double quotes: also `"` and `'`, and line breaks and tabs as
    /// character references so that they survive attribute normalisation.
    static func attribute(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(allowed(scalar) ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    /// XML 1.0's Char production.
    static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
