import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Platform

/// Issue 23, items 3 and 6: every file a command writes goes through the one writer, which
/// replaces only a regular file (or makes a new one), writes through a link to the file it
/// names, and refuses a folder, a FIFO, a device node and the file the command reads, exit 1;
/// and a tests file's `scene:` stays inside the tests file's folder, its content never echoed.
@Suite("Output paths: only a regular file is replaced", .serialized)
struct OutputPathTests {
    /// A scene whose tests pass (the test command's own).
    static let scene = TestCommandTests.passing

    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }

    /// What is at `path` itself (not following a link): `.regular`, `.fifo`, …; nil when nothing.
    func kind(_ path: String) -> FileSystem.FileKind? { try? FileSystem.linkStatus(path).kind }

    func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// The two-switch seed recording, as `learn --from-evemu` reads it.
    func recording() throws -> String {
        let seed = CLI.packageRoot.appendingPathComponent("Tests/Fuzz/seeds/two-switches.evemu")
        return try folder.write("switches.evemu", try String(contentsOf: seed, encoding: .utf8))
    }

    // MARK: test --junit

    @Test("test --junit FIFO: the results are printed, the FIFO stays a FIFO, exit 1 saying what it is")
    func junitFIFO() throws {
        let scene = try folder.write("scene.yaml", Self.scene)
        let fifo = path("report.xml")
        #expect(throws: Never.self) { try FileSystem.makeFIFO(fifo) }
        let result = try CLI.run(["test", scene, "--junit", fifo])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutLines.last == "1 passed, 0 failed", "\(result)")
        #expect(result.stderr.contains("\(fifo): it is a FIFO (named pipe), not a regular file; nothing was written"), "\(result)")
        #expect(kind(fifo) == .fifo)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["report.xml", "scene.yaml"])
    }

    @Test("test --junit on a device node (made here with mknod, as /dev/null is): the node stays, exit 1",
          .enabled(if: CurrentProcess.isRoot, "mknod needs root"))
    func junitDeviceNode() throws {
        let scene = try folder.write("scene.yaml", Self.scene)
        let node = path("null")
        // The same device as /dev/null (1, 3), made in the test's own folder.
        try FileSystem.makeCharacterDevice(node, major: 1, minor: 3, permissions: 0o666)
        let result = try CLI.run(["test", scene, "--junit", node])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("\(node): it is a character device, not a regular file; nothing was written"), "\(result)")
        #expect(kind(node) == .characterDevice)
    }

    @Test("test --junit through a link: to a file, the file gets the report and the link stays; to a folder, refused")
    func junitLinks() throws {
        let scene = try folder.write("scene.yaml", Self.scene)
        try FileManager.default.createDirectory(atPath: path("reports"), withIntermediateDirectories: true)
        let target = try folder.write("reports/latest.xml", "old\n")
        let link = path("report.xml")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "reports/latest.xml")
        let written = try CLI.run(["test", scene, "--junit", link])
        #expect(written.status == 0, "\(written)")
        #expect(kind(link) == .symbolicLink, "the link is still a link")
        #expect(text(target)?.contains("<testcase classname=\"\(scene)\" name=\"next moves to B\"") == true, "\(text(target) ?? "")")

        let toFolder = path("folder-link.xml")
        try FileManager.default.createSymbolicLink(atPath: toFolder, withDestinationPath: "reports")
        let refused = try CLI.run(["test", scene, "--junit", toFolder])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("\(toFolder) (→ \(path("reports"))): it is a folder, not a regular file; nothing was written"), "\(refused)")
        #expect(kind(toFolder) == .symbolicLink)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path("reports")) == ["latest.xml"])
    }

    @Test("test S --junit S (or a link to S): the scene is not replaced by the report, exit 1")
    func junitOverTheScene() throws {
        let scene = try folder.write("scene.yaml", Self.scene)
        let same = try CLI.run(["test", scene, "--junit", scene])
        #expect(same.status == 1, "\(same)")
        #expect(same.stderr.contains("\(scene): it is the file this command reads; nothing was written"), "\(same)")
        let link = path("report.xml")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: scene)
        let throughLink = try CLI.run(["test", scene, "--junit", link])
        #expect(throughLink.status == 1, "\(throughLink)")
        #expect(text(scene) == Self.scene)
    }

    @Test("test --junit: a temporary report left by a killed writer is removed by the next, as every writer's")
    func junitStaleTemporary() throws {
        let scene = try folder.write("scene.yaml", Self.scene)
        // No process has PID 4194303 unless pid_max was raised.
        let stale = try folder.write(".report.xml.4194303.9.tmp", "<testsuites")
        let result = try CLI.run(["test", scene, "--junit", path("report.xml")])
        #expect(result.status == 0, "\(result)")
        #expect(kind(stale) == nil, "the stale temporary file is gone")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["report.xml", "scene.yaml"])
    }

    @Test("test --junit in a folder that cannot be made (a file is in its place): exit 1, the results printed")
    func junitUnwritableFolder() throws {
        let scene = try folder.write("scene.yaml", Self.scene)
        let blocker = try folder.write("out", "a file, not a folder\n")
        let result = try CLI.run(["test", scene, "--junit", path("out/report.xml")])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutLines.last == "1 passed, 0 failed")
        #expect(result.stderr.contains("the report was not written"), "\(result)")
        #expect(text(blocker) == "a file, not a folder\n")
    }

    // MARK: learn --output, import -o

    @Test("learn --output FIFO --force, or the recording itself: refused before learning, exit 1, nothing replaced")
    func learnOutputs() throws {
        let recording = try recording()
        let original = text(recording)
        let fifo = path("profile.yaml")
        #expect(throws: Never.self) { try FileSystem.makeFIFO(fifo) }
        let toFIFO = try CLI.run(["learn", "--from-evemu", recording, "--output", fifo, "--force"])
        #expect(toFIFO.status == 1, "\(toFIFO)")
        #expect(toFIFO.stderr.contains("\(fifo): it is a FIFO (named pipe), not a regular file; nothing was written"), "\(toFIFO)")
        #expect(kind(fifo) == .fifo)
        // Without --force it says what the path is, not "exists; use --force".
        let unforced = try CLI.run(["learn", "--from-evemu", recording, "--output", fifo])
        #expect(unforced.stderr.contains("it is a FIFO"), "\(unforced)")

        let overRecording = try CLI.run(["learn", "--from-evemu", recording, "--output", recording, "--force"])
        #expect(overRecording.status == 1, "\(overRecording)")
        #expect(overRecording.stderr.contains("\(recording): it is the file this command reads; nothing was written"), "\(overRecording)")
        #expect(text(recording) == original)
    }

    @Test("learn --output on a device node --force: the node stays", .enabled(if: CurrentProcess.isRoot, "mknod needs root"))
    func learnDeviceNode() throws {
        let recording = try recording()
        let node = path("tty")
        try FileSystem.makeCharacterDevice(node, major: 1, minor: 3)
        let result = try CLI.run(["learn", "--from-evemu", recording, "--output", node, "--force"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("it is a character device, not a regular file"), "\(result)")
        #expect(kind(node) == .characterDevice)
    }

    @Test("import X.xml -o X.xml (or a hard link to it): the dump is not overwritten, exit 1")
    func importOverItsDump() throws {
        let dump = path("ios-login.xml")
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("Scenarios/imported/ios-login.xml"), to: URL(fileURLWithPath: dump))
        let original = text(dump)
        let same = try CLI.run(["import", dump, "-o", dump])
        #expect(same.status == 1, "\(same)")
        #expect(same.stderr.contains("\(dump): it is the file this command reads; nothing was written"), "\(same)")
        #expect(text(dump) == original)
        let hardLink = path("login.yaml")
        #expect(link(dump, hardLink) == 0)
        let throughHardLink = try CLI.run(["import", dump, "-o", hardLink])
        #expect(throughHardLink.status == 1, "\(throughHardLink)")
        #expect(text(dump) == original)
    }

    @Test("run --trace on the scene it runs: refused before the run, exit 1, the scene unchanged")
    func traceOverTheScene() throws {
        let scene = try folder.write("scene.yaml", Self.scene)
        let stream = try folder.write("stream.raw", "")
        let result = try CLI.run([
            "run", scene, "--no-view", "--braille", "none", "--input", "raw:\(stream)", "--duration", "0.3", "--trace", scene,
        ])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("--trace \(scene): it is the file this run reads; nothing was written"), "\(result)")
        #expect(text(scene) == Self.scene)
    }

    // MARK: A tests file's scene:

    @Test("a tests file's scene: that leads out of its folder by a link is refused; nothing of the file is shown")
    func testsFileSceneOutside() throws {
        let elsewhere = try TemporaryFolder()
        let secret = try elsewhere.write("shadow", "root:$y$j9T$SECRETHASH:19000:0:99999:7:::\n")
        try FileManager.default.createDirectory(atPath: path("tests"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path("tests/scene.yaml"), withDestinationPath: secret)
        let tests = try folder.write("tests/drive.tests.yaml", "scene: scene.yaml\ntests: []\n")
        let junit = path("report.xml")
        let result = try CLI.run(["test", tests, "--junit", junit])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains("\(tests):1:8: error: scene 'scene.yaml': the file leads out of the tests file's folder (a symbolic link); name a scene file in the tests file's own folder"), "\(result)")
        let report = text(junit) ?? ""
        for content in ["SECRETHASH", "root:", "19000"] {
            #expect(!result.stdout.contains(content) && !result.stderr.contains(content) && !report.contains(content), "\(content) was echoed: \(result)")
        }
    }

    @Test("a tests file's scene: that is not a scene: counted and placed, never quoted")
    func testsFileSceneNotAScene() throws {
        try folder.write("notes.yaml", "root:$y$j9T$SECRETHASH:19000:0:99999:7:::\n")
        let tests = try folder.write("drive.tests.yaml", "scene: notes.yaml\ntests: []\n")
        let junit = path("report.xml")
        let result = try CLI.run(["test", tests, "--junit", junit])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains("\(tests):1:8: error: scene 'notes.yaml' (\(path("notes.yaml"))) does not load as a scene: "), "\(result)")
        #expect(result.stdout.contains("`switchscan validate \(path("notes.yaml"))` shows them"), "\(result)")
        let report = text(junit) ?? ""
        for content in ["SECRETHASH", "root:", "19000"] {
            #expect(!result.stdout.contains(content) && !result.stderr.contains(content) && !report.contains(content), "\(content) was echoed: \(result)")
        }
    }
}
