import Foundation
import Testing

/// `switchscan import` end to end (files read, the scene written, the summary and report), and
/// tests files that drive an imported scene from beside it.
@Suite struct ImportCommandTests {
    static let examples = CLI.packageRoot.appendingPathComponent("Scenarios/imported")

    /// A folder with copies of the example dumps.
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for name in ["ios-login.xml", "ios-home.xml", "android-settings.xml"] {
            try FileManager.default.copyItem(at: examples.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        return folder
    }

    @Test("two dumps → one scene of two screens, written with -o; the summary counts what was left out and why")
    func multiScreen() throws {
        let folder = try Self.folder()
        let result = try CLI.run(["import", "ios-login.xml", "ios-home.xml", "-o", "shop.yaml"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.first == "ios-login.xml (ios) → screen 'ios-login': 9 elements kept, 4 left out: 1 invisible, 1 zero size, 1 off screen, 1 not accessible")
        #expect(result.stdout.contains("  invisible (visible, visible-to-user or displayed is false): Button at 19:9"))
        #expect(result.stdout.contains("wrote shop.yaml: 2 screens, 20 elements"))
        let validate = try CLI.run(["validate", "shop.yaml"], in: folder.url)
        #expect(validate.stdoutLines.first == "shop.yaml: ok (2 screens, 20 elements, 0 tests)", "\(validate)")
        let inspect = try CLI.run(["inspect", "shop.yaml", "--screen", "ios-home"], in: folder.url)
        #expect(inspect.stdout.contains("2 product-1  label \"Tea, 4 euros\""), "\(inspect)")
    }

    @Test("without -o the scene is standard output and the summary standard error; the format is guessed")
    func standardOutput() throws {
        let folder = try Self.folder()
        let result = try CLI.run(["import", "android-settings.xml"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("# Written by switchscan import from: android-settings.xml (Android UI Automator dump)."))
        #expect(result.stderr.hasPrefix("android-settings.xml (android) → screen 'android-settings': 13 elements kept"), "\(result)")
        let wrong = try CLI.run(["import", "android-settings.xml", "--format", "ios"], in: folder.url)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("android-settings.xml:4:1: error: --format ios was given, but the file is an Android UI Automator dump"), "\(wrong)")
    }

    @Test("--report: each screen's mean and worst cost, and the audit's findings")
    func report() throws {
        let folder = try Self.folder()
        let result = try CLI.run(["import", "ios-login.xml", "-o", "login.yaml", "--report"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("  ios-login: 8 items; mean "), "\(result)")
        #expect(result.stdout.contains("worst "))
        #expect(result.stdout.contains("audit: 2 findings"))
        #expect(result.stdout.contains("warning: label \"Help button\" of 'help-button' names its type ('button')"))
        #expect(result.stdout.contains("[missing-label]"))
        // The same figures as `cost` gives for the written scene.
        let cost = try CLI.run(["cost", "login.yaml"], in: folder.url)
        let meanLine = try #require(cost.stdoutLines.first { $0.hasPrefix("mean") })
        let numbers = meanLine.split(separator: " ").filter { Double($0) != nil }.map(String.init)
        #expect(result.stdout.contains("mean \(numbers[0]) steps / \(numbers[1]) s auto, \(numbers[2]) presses / \(numbers[3]) s manual"), "\(meanLine)\n\(result.stdout)")
    }

    @Test("--report says why each element was kept, in scan order, as the summary says why others were left out")
    func keptReasons() throws {
        let folder = try Self.folder()
        try FileManager.default.copyItem(at: Self.examples.appendingPathComponent("ios-settings-keyboards.xml"), to: folder.url.appendingPathComponent("keyboards.xml"))
        let result = try CLI.run(["import", "keyboards.xml", "-o", "keyboards.yaml", "--report"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("  kept, and why:\n    NavigationBar at 8:11: NavigationBar: a container by default (no accessible attribute) with 2 elements inside to scan\n"), "\(result)")
        #expect(result.stdout.contains("    Cell 'Auto-Capitalization' at 38:15: Cell: an accessibility element by default (no accessible attribute, as UIKit decides); with the state of the switch inside it\n"), "\(result)")
        #expect(result.stdout.contains("    Cell 'Enable Dictation' at 74:15: Cell: an accessibility element by default (no accessible attribute, as UIKit decides); scrolled out of view inside a scroll view, where VoiceOver scrolls to it; with the state of the switch inside it\n"), "\(result)")
        let login = try CLI.run(["import", "ios-login.xml", "-o", "login.yaml", "--report"], in: folder.url)
        #expect(login.stdout.contains(": accessible=\"true\"\n"), "\(login)")
    }

    @Test("a dump of which nothing would be scanned: exit 2 at its root, what was left out, no scene written")
    func nothingKept() throws {
        let folder = try Self.folder()
        try folder.write("blank.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <AppiumAUT>
              <XCUIElementTypeApplication type="XCUIElementTypeApplication" enabled="true" visible="true" x="0" y="0" width="390" height="844" name="Blank" label="Blank">
                <XCUIElementTypeWindow type="XCUIElementTypeWindow" enabled="true" visible="true" x="0" y="0" width="390" height="844">
                  <XCUIElementTypeOther type="XCUIElementTypeOther" enabled="true" visible="true" x="0" y="0" width="390" height="844"/>
                  <XCUIElementTypeButton type="XCUIElementTypeButton" enabled="true" visible="false" x="10" y="100" width="100" height="44" name="Later" label="Later"/>
                </XCUIElementTypeWindow>
              </XCUIElementTypeApplication>
            </AppiumAUT>
            """)
        let result = try CLI.run(["import", "blank.xml", "-o", "blank.yaml"], in: folder.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("blank.xml:2:1: error: no element of this iOS XCUITest page source would be scanned (3 left out: 1 invisible, 2 not accessible); nothing is imported from it"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("blank.yaml").path))
    }

    @Test("a broken dump: its line and column, exit 2 (an input that does not load), nothing written")
    func broken() throws {
        let folder = try Self.folder()
        try folder.write("cut.xml", String(try String(contentsOf: Self.examples.appendingPathComponent("ios-home.xml"), encoding: .utf8).prefix(1500)))
        let result = try CLI.run(["import", "cut.xml", "-o", "cut.yaml"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("cut.xml:"), "\(result)")
        #expect(result.stderr.contains("error: the file ends before the XML is complete"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("cut.yaml").path))
        let missing = try CLI.run(["import", "nothing.xml"], in: folder.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nothing.xml:1:1: error: cannot read the file"), "\(missing)")
        let folderGiven = try CLI.run(["import", "."], in: folder.url)
        #expect(folderGiven.stderr.contains("not a regular file"), "\(folderGiven)")
    }

    @Test("importing again replaces the scene, but never a scene that holds tests")
    func neverOverwritesTests() throws {
        let folder = try Self.folder()
        #expect(try CLI.run(["import", "ios-login.xml", "-o", "login.yaml"], in: folder.url).status == 0)
        #expect(try CLI.run(["import", "ios-login.xml", "-o", "login.yaml"], in: folder.url).status == 0)
        let withTests = try String(contentsOf: folder.url.appendingPathComponent("login.yaml"), encoding: .utf8) + """
            tests:
              - name: starts on the header
                steps:
                  - expect: {focus: statictext-sign-in}

            """
        try folder.write("login.yaml", withTests)
        let refused = try CLI.run(["import", "ios-login.xml", "-o", "login.yaml"], in: folder.url)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("login.yaml holds scripted tests, which importing again would lose"), "\(refused)")
        #expect(try String(contentsOf: folder.url.appendingPathComponent("login.yaml"), encoding: .utf8) == withTests)
    }

    @Test("a tests file drives the imported scene and survives a re-import; its errors name its own lines")
    func testsFile() throws {
        let folder = try Self.folder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("imported"), withIntermediateDirectories: true)
        #expect(try CLI.run(["import", "ios-login.xml", "ios-home.xml", "-o", "imported/shop.yaml"], in: folder.url).status == 0)
        try folder.write("imported/shop.tests.yaml", """
            scene: shop.yaml
            tests:
              - name: login starts on the header
                settings: {scanning: manual, groupItems: false}
                steps:
                  - expect: {focus: statictext-sign-in}
                  - press: next
                  - expect: {focus: close-button}
              - name: home lists the products
                screen: ios-home
                settings: {scanning: manual, groupItems: false}
                steps:
                  - press: next
                  - expect: {focus: product-1, braille: "Tea, 4 euros"}

            """)
        let run = try CLI.run(["test", "imported/shop.tests.yaml"], in: folder.url)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutLines == [
            "PASS imported/shop.tests.yaml: login starts on the header", "PASS imported/shop.tests.yaml: home lists the products", "2 passed, 0 failed",
        ])
        // Importing again leaves the tests as they are, and they still pass.
        #expect(try CLI.run(["import", "ios-login.xml", "ios-home.xml", "-o", "imported/shop.yaml"], in: folder.url).status == 0)
        #expect(try CLI.run(["test", "imported/shop.tests.yaml"], in: folder.url).status == 0)
        let validate = try CLI.run(["validate", "imported/shop.tests.yaml"], in: folder.url)
        #expect(validate.stdoutLines.first == "imported/shop.tests.yaml: ok (2 tests of imported/shop.yaml)", "\(validate)")

        try folder.write("imported/bad.tests.yaml", """
            scene: shop.yaml
            tests:
              - name: names what the scene lacks
                screen: settings
                steps:
                  - expect: {focus: no-such-button}

            """)
        let bad = try CLI.run(["validate", "imported/bad.tests.yaml"], in: folder.url)
        #expect(bad.status == 1)
        #expect(bad.stdoutLines.prefix(2) == [
            "imported/bad.tests.yaml:4:13: error: screen 'settings' is not in screens (ios-home, ios-login)",
            "imported/bad.tests.yaml:6:25: error: focus 'no-such-button' is not the id of any element in the scene imported/shop.yaml",
        ], "\(bad)")

        try folder.write("imported/missing.tests.yaml", "scene: gone.yaml\ntests: []\n")
        let missing = try CLI.run(["test", "imported/missing.tests.yaml"], in: folder.url)
        #expect(missing.status == 2)
        #expect(missing.stdout.contains("imported/missing.tests.yaml:1:8: error: scene 'gone.yaml': imported/gone.yaml: no such file"), "\(missing)")
        try folder.write("imported/absolute.tests.yaml", "scene: /etc/passwd.yaml\ntests: []\n")
        let absolute = try CLI.run(["validate", "imported/absolute.tests.yaml"], in: folder.url)
        #expect(absolute.stdout.contains("imported/absolute.tests.yaml:1:8: error: scene '/etc/passwd.yaml': an absolute path is not accepted; name a scene file in the tests file's own folder"), "\(absolute)")
        // A tests file in another folder cannot reach the scene with `..`.
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("tests"), withIntermediateDirectories: true)
        try folder.write("tests/shop.yaml", "scene: ../imported/shop.yaml\ntests: []\n")
        let above = try CLI.run(["test", "tests/shop.yaml"], in: folder.url)
        #expect(above.status == 2)
        #expect(above.stdout.contains("tests/shop.yaml:1:8: error: scene '../imported/shop.yaml': a path with '..' is not accepted; name a scene file in the tests file's own folder"), "\(above)")
    }
}
