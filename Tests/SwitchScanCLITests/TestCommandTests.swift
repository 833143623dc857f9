import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `switchscan test`: PASS/FAIL lines, the summary, exit status, --filter, and the JUnit report.
@Suite struct TestCommandTests {
    static let passing = """
        scene: Two buttons
        size: [390, 844]
        start: main
        screens:
          main:
            elements:
              - {id: a, label: A, traits: [button], frame: [20, 100, 350, 44]}
              - {id: b, label: B, traits: [button], frame: [20, 160, 350, 44]}
        tests:
          - name: next moves to B
            settings: {scanning: manual, groupItems: false}
            steps:
              - expect: {focus: a}
              - press: next
              - expect: {focus: b, braille: B btn}

        """

    /// Its second test expects the wrong focus (step 2, line 18, column 9); its name needs XML escaping.
    static let failing = """
        scene: Two buttons
        size: [390, 844]
        start: main
        screens:
          main:
            elements:
              - {id: a, label: A, traits: [button], frame: [20, 100, 350, 44]}
              - {id: b, label: B, traits: [button], frame: [20, 160, 350, 44]}
        tests:
          - name: starts on A
            settings: {groupItems: false}
            steps:
              - expect: {focus: a, scanning: running}
          - name: "next stays on <A> & 'A'"
            settings: {scanning: manual, groupItems: false}
            steps:
              - press: next
              - expect: {focus: a}

        """

    static let failureMessage = #"scenes/fail.yaml:18:9: test "next stays on <A> & 'A'": step 2 (expect): focus is 'b', expected 'a'"#

    /// A folder `scenes` with the given files, inside a fresh temporary folder.
    static func folder(_ files: [String: String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("scenes"), withIntermediateDirectories: true)
        for (name, text) in files { try folder.write("scenes/" + name, text) }
        return folder
    }

    @Test("a passing and a failing scene: PASS and FAIL lines, the failure indented, the summary, exit 1")
    func passAndFail() throws {
        let folder = try Self.folder(["pass.yaml": Self.passing, "fail.yaml": Self.failing])
        let result = try CLI.run(["test", "scenes"], in: folder.url)
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.first == "PASS scenes/fail.yaml: starts on A", "\(result)")
        #expect(lines.dropFirst().first == "FAIL scenes/fail.yaml: next stays on <A> & 'A'")
        #expect(lines.dropFirst(2).first == "  " + Self.failureMessage)
        #expect(lines.dropFirst(3).first == "    recent trace:")
        let trace = lines.dropFirst(4).prefix { $0.hasPrefix("      ") }
        #expect(!trace.isEmpty && trace.count <= 10)
        #expect(trace.first?.hasPrefix("      0.000 ") == true)
        #expect(trace.contains("      0.000 highlight b \"B\""), "\(trace)")
        #expect(Array(lines.suffix(2)) == ["PASS scenes/pass.yaml: next moves to B", "2 passed, 1 failed"])
        #expect(lines.count == 4 + trace.count + 2)
    }

    @Test("only passing tests: exit 0")
    func onlyPassing() throws {
        let folder = try Self.folder(["pass.yaml": Self.passing])
        let result = try CLI.run(["test", "scenes/pass.yaml"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == ["PASS scenes/pass.yaml: next moves to B", "1 passed, 0 failed"])
        #expect(result.stderr == "")
    }

    @Test("--filter runs only the tests whose name contains the text, ignoring case")
    func filter() throws {
        let folder = try Self.folder(["pass.yaml": Self.passing, "fail.yaml": Self.failing])
        let result = try CLI.run(["test", "scenes", "--filter", "STARTS"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == ["PASS scenes/fail.yaml: starts on A", "1 passed, 0 failed"])
    }

    @Test("a file that cannot be loaded: its problems, the other files' tests, exit 2")
    func unloadable() throws {
        let folder = try Self.folder(["bad.yaml": "scene: Broken\nsize: [390, 844]\n", "pass.yaml": Self.passing])
        let junit = folder.url.appendingPathComponent("report.xml")
        let result = try CLI.run(["test", "scenes", "--junit", junit.path], in: folder.url)
        #expect(result.status == 2, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.first?.hasPrefix("scenes/bad.yaml:") == true, "\(result)")
        #expect(lines.first?.contains("error:") == true)
        #expect(Array(lines.suffix(2)) == ["PASS scenes/pass.yaml: next moves to B", "1 passed, 0 failed, 1 file not loaded"])
        let report = try JUnit.read(junit)
        #expect(report.root == ["tests": "2", "failures": "0", "errors": "1"])
        #expect(report.suites.map(\.name) == ["scenes/bad.yaml", "scenes/pass.yaml"])
        #expect(report.suites.first?.errors == "1")
        #expect(report.suites.first?.cases.map(\.name) == ["(load)"])
        #expect(report.suites.first?.cases.first?.error?.hasPrefix("scenes/bad.yaml:") == true)
        #expect(report.suites.first?.cases.first?.file == "scenes/bad.yaml")
        #expect(report.suites.first?.cases.first?.line == "1")
    }

    @Test("a file that does not exist is a file that cannot be loaded: its message, counted on the last line, exit 2")
    func missingFile() throws {
        let folder = try Self.folder(["pass.yaml": Self.passing])
        let alone = try CLI.run(["test", "scenes/missing.yaml"], in: folder.url)
        #expect(alone.status == 2, "\(alone)")
        #expect(alone.stdoutLines == [
            "scenes/missing.yaml:1:1: error: cannot read the file: No such file or directory", "0 passed, 0 failed, 1 file not loaded",
        ])
        let junit = folder.url.appendingPathComponent("report.xml")
        let both = try CLI.run(["test", "scenes/pass.yaml", "nowhere.yaml", "gone.yaml", "--junit", junit.path], in: folder.url)
        #expect(both.status == 2, "\(both)")
        #expect(both.stdoutLines.last == "1 passed, 0 failed, 2 files not loaded", "\(both)")
        let report = try JUnit.read(junit)
        #expect(report.suites.map(\.name) == ["scenes/pass.yaml", "nowhere.yaml", "gone.yaml"])
        #expect(report.root == ["tests": "3", "failures": "0", "errors": "2"])
    }

    @Test("--junit: a tests file's cases carry the tests file and its lines, not the scene's")
    func junitTestsFile() throws {
        let scene = Self.passing.components(separatedBy: "tests:\n").first!
        let tests = """
            scene: scene.yaml
            tests:
              - name: from the tests file
                settings: {scanning: manual, groupItems: false}
                steps:
                  - expect: {focus: a}

            """
        let folder = try Self.folder(["scene.yaml": scene, "drive.tests.yaml": tests])
        let junit = folder.url.appendingPathComponent("report.xml")
        let result = try CLI.run(["test", "scenes/drive.tests.yaml", "--junit", junit.path], in: folder.url)
        #expect(result.status == 0, "\(result)")
        let report = try JUnit.read(junit)
        let test = try #require(report.suites.first?.cases.first)
        #expect(test.name == "from the tests file")
        #expect(test.file == "scenes/drive.tests.yaml")
        #expect(test.line == "3")
    }

    @Test("--filter that matches no test's name: nothing runs, a message says so, exit 2")
    func filterMatchingNothing() throws {
        let folder = try Self.folder(["pass.yaml": Self.passing, "fail.yaml": Self.failing])
        let result = try CLI.run(["test", "scenes", "--filter", "no such test"], in: folder.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdoutLines == ["0 passed, 0 failed"])
        #expect(result.stderr == "switchscan test: --filter 'no such test' matches the name of none of the 3 tests found; nothing was run\n")
    }

    @Test("a tab in a scene: the message says tab, at its line and column; the file is not loaded (exit 2)")
    func tabInScene() throws {
        let text = Self.passing.replacingOccurrences(of: "      - expect: {focus: a}", with: "    \t- expect: {focus: a}")
        #expect(text != Self.passing)
        let folder = try Self.folder(["tab.yaml": text])
        let result = try CLI.run(["test", "scenes/tab.yaml"], in: folder.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdoutLines == [
            "scenes/tab.yaml:13:5: error: a tab character: YAML indents with spaces only; replace the tab with spaces",
            "0 passed, 0 failed, 1 file not loaded",
        ])
    }

    @Test("--junit writes a report that parses, with a suite per file, a case per test, the failure")
    func junit() throws {
        let folder = try Self.folder(["pass.yaml": Self.passing, "fail.yaml": Self.failing])
        let junit = folder.url.appendingPathComponent("out/report.xml")
        try FileManager.default.createDirectory(at: junit.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("old contents".utf8).write(to: junit)
        let result = try CLI.run(["test", "scenes", "--junit", "out/report.xml"], in: folder.url)
        #expect(result.status == 1, "\(result)")
        let report = try JUnit.read(junit)
        #expect(report.root == ["tests": "3", "failures": "1", "errors": "0"])
        #expect(report.suites.map(\.name) == ["scenes/fail.yaml", "scenes/pass.yaml"])
        #expect(report.suites.map(\.tests) == ["2", "1"])
        #expect(report.suites.map(\.failures) == ["1", "0"])
        let failCases = try #require(report.suites.first?.cases)
        #expect(failCases.map(\.name) == ["starts on A", "next stays on <A> & 'A'"])
        #expect(failCases.map(\.classname) == ["scenes/fail.yaml", "scenes/fail.yaml"])
        #expect(failCases[0].failureMessage == nil)
        #expect(failCases[1].failureMessage == Self.failureMessage)
        #expect(failCases[1].failureText?.hasPrefix(Self.failureMessage + "\n  recent trace:\n") == true)
        #expect(report.suites.last?.cases.map(\.name) == ["next moves to B"])
        #expect(report.suites.last?.cases.first?.failureMessage == nil)
        // Each case where its test is declared; each suite when it ran (UTC, to the second).
        #expect(failCases.map(\.file) == ["scenes/fail.yaml", "scenes/fail.yaml"])
        #expect(failCases.map(\.line) == ["10", "14"])
        #expect(report.suites.last?.cases.first?.line == "10")
        for suite in report.suites {
            let stamp = try #require(suite.timestamp)
            #expect(stamp.wholeMatch(of: /20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]/) != nil, "\(stamp)")
        }
        // Written by rename: no temporary file is left beside it.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: junit.deletingLastPathComponent().path)
        #expect(leftovers == ["report.xml"])
    }
}

/// `switchscan test` with switch profiles: `key:` steps go through `--profile`, a test's own
/// `profile:` (a file beside the scene, or a profile's id), or the shipped generic keyboard
/// profile, and through the same stabilisation as a device (long press, pulse-only).
@Suite struct TestCommandProfileTests {
    /// Two buttons and a test pressing the jacks of a two-switch interface (BTN_0, BTN_1).
    static let twoSwitchScene = """
        scene: Two buttons
        size: [390, 844]
        start: main
        screens:
          main:
            elements:
              - {id: a, label: A, traits: [button], frame: [20, 100, 350, 44]}
              - {id: b, label: B, traits: [button], frame: [20, 160, 350, 44]}
        tests:
          - name: jack 2 moves, jack 1 opens the menu
            settings: {scanning: manual, groupItems: false}
            steps:
              - key: {code: BTN_1, value: 1}
              - wait: 0.1
              - key: {code: BTN_1, value: 0}
              - expect: {focus: b}
              - wait: 0.1
              - key: {code: BTN_0, value: 1}
              - expect: {menu: [Tap, Exit menu]}

        """

    /// BTN_0 selects; BTN_1 moves and, held, opens the menu.
    static let twoSwitchProfile = """
        name: Two-switch interface
        switches:
          - {id: jack-1, code: BTN_0, action: select}
          - {id: jack-2, code: BTN_1, action: next, longPressAction: menu}

        """

    /// The same scene's tests with their own profiles: long press through --profile's, pulses
    /// through a profile file next to the scene.
    static let ownProfiles = """
        scene: Two buttons
        size: [390, 844]
        start: main
        screens:
          main:
            elements:
              - {id: a, label: A, traits: [button], frame: [20, 100, 350, 44]}
              - {id: b, label: B, traits: [button], frame: [20, 160, 350, 44]}
        tests:
          - name: jack 2 held opens the menu
            settings: {scanning: manual, groupItems: false, longPress: 0.5}
            steps:
              - key: {code: BTN_1, value: 1}
              - wait: 0.6
              - expect: {menu: [Tap, Exit menu]}
              - key: {code: BTN_1, value: 0}
          - name: a pulse interface acts on its down however short
            profile: pulses.yaml
            settings: {scanning: manual, groupItems: false, holdDuration: 0.5}
            steps:
              - key: {code: KEY_2, value: 1}
              - expect: {focus: b}
              - key: {code: KEY_2, value: 0}
          - name: a profile of no file
            profile: missing.yaml
            steps:
              - key: {code: KEY_2, value: 1}

        """

    static let pulsesProfile = """
        name: Pulse interface
        pulseOnly: true
        switches:
          - {id: two, code: KEY_2, action: next}

        """

    @Test("--profile FILE: the scene's BTN_0/BTN_1 steps pass; without it they fail naming the generic keyboard's keys")
    func profileOption() throws {
        let folder = try TestCommandTests.folder(["two.yaml": Self.twoSwitchScene, "two-switch.yaml": Self.twoSwitchProfile])
        let passing = try CLI.run(["test", "scenes/two.yaml", "--profile", "scenes/two-switch.yaml"], in: folder.url)
        #expect(passing.status == 0, "\(passing)")
        #expect(passing.stdoutLines == ["PASS scenes/two.yaml: jack 2 moves, jack 1 opens the menu", "1 passed, 0 failed"], "\(passing)")

        let failing = try CLI.run(["test", "scenes/two.yaml"], in: folder.url)
        #expect(failing.status == 1, "\(failing)")
        let message = try #require(failing.stdoutLines.dropFirst().first, "\(failing)")
        #expect(message.hasPrefix(#"  scenes/two.yaml:13:9: test "jack 2 moves, jack 1 opens the menu": step 1 (key): BTN_1 is not a key of the switch profile generic-keyboard ("#), "\(message)")
        #expect(message.contains("Devices/switches/generic-keyboard.yaml); its keys are KEY_SPACE (space: select), KEY_ENTER (enter: next)"), "\(message)")
    }

    @Test("--profile by id, a long press from the profile, a test's own pulse-only profile file, and a missing one")
    func testsOwnProfiles() throws {
        let folder = try TestCommandTests.folder([
            "own.yaml": Self.ownProfiles, "pulses.yaml": Self.pulsesProfile, "two-switch.yaml": Self.twoSwitchProfile,
        ])
        let result = try CLI.run(["test", "scenes/own.yaml", "--profile", "scenes/two-switch.yaml"], in: folder.url)
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.first == "PASS scenes/own.yaml: jack 2 held opens the menu", "\(result)")
        #expect(lines.dropFirst().first == "PASS scenes/own.yaml: a pulse interface acts on its down however short", "\(result)")
        #expect(lines.dropFirst(2).first == "FAIL scenes/own.yaml: a profile of no file", "\(result)")
        #expect(lines.dropFirst(3).first == #"  scenes/own.yaml:25:14: test "a profile of no file": profile 'missing.yaml': scenes/missing.yaml: no such file"#, "\(result)")
        #expect(lines.last == "2 passed, 1 failed")
    }

    @Test("a test's profile: by id from the repository's profiles (origin-tapio: KEY_1 select, KEY_2 next)")
    func profileByID() throws {
        let scene = Self.twoSwitchScene
            .replacingOccurrences(of: "    settings: {scanning: manual, groupItems: false}", with: "    profile: origin-tapio\n    settings: {scanning: manual, groupItems: false}")
            .replacingOccurrences(of: "BTN_1", with: "KEY_2").replacingOccurrences(of: "BTN_0", with: "KEY_1")
        let folder = try TestCommandTests.folder(["tapio.yaml": scene])
        let result = try CLI.run(["test", "scenes"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.last == "1 passed, 0 failed", "\(result)")
    }

    @Test("--profile that is neither a file nor a known id, or a profile file with errors: exit 2 with the reason")
    func badProfileOption() throws {
        let folder = try TestCommandTests.folder(["two.yaml": Self.twoSwitchScene, "bad.yaml": "name: Bad\nswitches:\n  - {id: a, code: BTN_0, action: selct}\n"])
        let unknown = try CLI.run(["test", "scenes/two.yaml", "--profile", "no-such-profile"], in: folder.url)
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("switchscan test: --profile no-such-profile: no such file, and no profile in "), "\(unknown)")
        #expect(unknown.stderr.contains("origin-tapio"), "the known ids are listed: \(unknown)")
        let bad = try CLI.run(["test", "scenes/two.yaml", "--profile", "scenes/bad.yaml"], in: folder.url)
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("scenes/bad.yaml:3:34: error: unknown action 'selct' (did you mean 'select'?)"), "\(bad)")
    }
}

/// A JUnit report read back with XMLParser.
final class JUnit: NSObject, XMLParserDelegate {
    struct Case {
        var name: String
        var classname: String
        var file: String? = nil
        var line: String? = nil
        var failureMessage: String?
        var failureText: String?
        var error: String?
    }

    struct Suite {
        var name: String
        var tests: String
        var failures: String
        var errors: String
        var timestamp: String? = nil
        var cases: [Case] = []
    }

    var root: [String: String] = [:]
    var suites: [Suite] = []
    private var text = ""
    private var parseError: Error?

    static func read(_ url: URL) throws -> JUnit {
        let data = try Data(contentsOf: url)
        let parser = XMLParser(data: data)
        let report = JUnit()
        parser.delegate = report
        guard parser.parse() else {
            throw CLIError("the JUnit report does not parse: \(String(describing: parser.parserError))\n\(String(decoding: data, as: UTF8.self))")
        }
        return report
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        text = ""
        switch elementName {
        case "testsuites":
            root = ["tests": attributes["tests"] ?? "", "failures": attributes["failures"] ?? "", "errors": attributes["errors"] ?? ""]
        case "testsuite":
            suites.append(Suite(
                name: attributes["name"] ?? "", tests: attributes["tests"] ?? "", failures: attributes["failures"] ?? "",
                errors: attributes["errors"] ?? "", timestamp: attributes["timestamp"]))
        case "testcase":
            suites[suites.count - 1].cases.append(Case(
                name: attributes["name"] ?? "", classname: attributes["classname"] ?? "", file: attributes["file"],
                line: attributes["line"]))
        case "failure":
            modifyLastCase { $0.failureMessage = attributes["message"] }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        switch elementName {
        case "failure": modifyLastCase { [text] in $0.failureText = text }
        case "error": modifyLastCase { [text] in $0.error = text }
        default: break
        }
    }

    private func modifyLastCase(_ change: (inout Case) -> Void) {
        guard !suites.isEmpty, !suites[suites.count - 1].cases.isEmpty else { return }
        let suite = suites.count - 1
        change(&suites[suite].cases[suites[suite].cases.count - 1])
    }
}
