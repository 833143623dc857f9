import Foundation
import Testing
import Platform

/// Issue 11's classes end to end: what the user sees from `switchscan` when a file is not a
/// file, too large, not UTF-8, or names a profile outside its folder; and a run whose settings
/// file holds a number out of range.
@Suite("Reading files: what switchscan says")
struct ReadingLayerTests {
    static let scene = """
        scene: T
        size: [100, 100]
        start: main
        screens:
          main:
            elements:
              - {id: a, label: A, traits: [button], frame: [0, 0, 50, 50]}

        """

    @Test("validate refuses a FIFO at once, a 200 MB file before reading it, and names the first byte that is not UTF-8")
    func notFiles() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("scene.yaml").path
        #expect(throws: Never.self) { try FileSystem.makeFIFO(fifo) }
        let huge = try folder.write("huge.yaml", "")
        #expect(truncate(huge, 200 << 20) == 0)
        let latin = folder.url.appendingPathComponent("latin.yaml").path
        FileManager.default.createFile(atPath: latin, contents: Data(Array("scene: T\nsize: [1, 1]\nstart: caf".utf8) + [0xE9, 0x0A]))
        let result = try CLI.run(["validate", fifo, huge, latin])
        #expect(result.status == 1)
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "\(fifo):1:1: error: it is a FIFO (named pipe), not a regular file; give a regular file",
            "\(huge):1:1: error: the file is 209715200 bytes; at most 134217728 are accepted",
            "\(latin):3:11: error: the file is not UTF-8 text: byte 0xE9 starts a character that byte 2 of it does not continue; save the file as UTF-8",
            "3 files checked, 3 with problems, 3 problems",
        ])
    }

    @Test("a test's profile: is a profile id or a file in the scene's folder; a file's content is never shown")
    func profilePaths() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("link.yaml").path, withDestinationPath: "/etc/passwd")
        try folder.write("secret.yaml", "password: hunter2\n")
        var text = Self.scene + "tests:\n"
        for (name, profile) in [("absolute", "/etc/passwd"), ("up", "../../etc/passwd"), ("link", "link.yaml"), ("secret", "secret.yaml"), ("id", "origin-tapio")] {
            text += "  - name: \(name)\n    profile: \(profile)\n    steps: [{key: {code: KEY_1, value: 1}}]\n"
        }
        let scene = try folder.write("scene.yaml", text)
        let junit = folder.url.appendingPathComponent("junit.xml").path
        let result = try CLI.run(["test", scene, "--junit", junit])
        let failures = result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  ") }
        #expect(failures == [
            "  \(scene):10:14: test \"absolute\": profile '/etc/passwd': an absolute path is not accepted; name a file in the scene's own folder, or a profile's id",
            "  \(scene):13:14: test \"up\": profile '../../etc/passwd': a path with '..' is not accepted; name a file in the scene's own folder, or a profile's id",
            "  \(scene):16:14: test \"link\": profile 'link.yaml': the file leads out of the scene's folder (a symbolic link); name a file in the scene's own folder, or a profile's id",
            "  \(scene):19:14: test \"secret\": profile 'secret.yaml': \(folder.url.path)/secret.yaml is not a usable switch profile: 3 problems (the first at line 1, column 1); `switchscan test --profile \(folder.url.path)/secret.yaml` shows them",
        ], "\(result)")
        #expect(result.stdout.contains("PASS \(scene): id"), "a profile by id still works: \(result)")
        let report = try String(contentsOfFile: junit, encoding: .utf8)
        for content in ["hunter2", "password", "root:", "/bin/"] {
            #expect(!result.stdout.contains(content) && !result.stderr.contains(content) && !report.contains(content), "\(content) was echoed")
        }
    }

    @Test("a settings.yaml with loops: 1e300 is reported and the run goes on with the defaults, ending at --duration")
    func runWithBadNumbers() throws {
        let config = try TemporaryFolder()
        try FileManager.default.createDirectory(at: config.url.appendingPathComponent("switchscan"), withIntermediateDirectories: true)
        let settings = try config.write("switchscan/settings.yaml", "loops: 1e300\nautoScanningTime: 1e-6\n")
        let trace = config.url.appendingPathComponent("trace.jsonl").path
        let result = try CLI.run(
            ["run", "Scenarios/bowler.yaml", "--no-view", "--braille", "none", "--input", "raw:/dev/null", "--duration", "0.3", "--trace", trace],
            environment: ["XDG_CONFIG_HOME": config.url.path])
        #expect(result.status == 0, "\(result)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(lines.contains("\"text\":\"settings: \(settings):1:8: error: setting 'loops' expects a whole number from 1 to 100; found 1e300; running with the defaults until the file is corrected\""), "\(lines)")
    }
}
