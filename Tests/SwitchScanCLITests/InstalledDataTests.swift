import Foundation
import Testing

/// Issue 14: a program installed away from its source tree finds its shipped profiles
/// (`BIN/../share/switchscan/…`, then `$XDG_DATA_DIRS`), and without them says what it searched.
@Suite("Shipped data found where it is installed", .serialized)
struct InstalledDataTests {
    /// A prefix with `bin/switchscan` (a copy of the built program) and, when `share`, the
    /// profiles in `share/switchscan/{switches,braille}`; a work folder with one seed scene.
    func install(share: Bool) throws -> (folder: TemporaryFolder, binary: String, work: URL) {
        let folder = try TemporaryFolder()
        let prefix = folder.url.appendingPathComponent("prefix")
        let bin = prefix.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let binary = bin.appendingPathComponent("switchscan").path
        // Copied by cp, not by this process: a file this process held open for writing would be
        // inherited by whatever another test forks meanwhile (a tmux server lives on), and
        // running the copy would fail with ETXTBSY for as long as that child lives.
        let copied = try CLI.runProgram("/bin/cp", [try CLI.binary().path, binary])
        try #require(copied.status == 0, "\(copied)")
        if share {
            let data = prefix.appendingPathComponent("share/switchscan")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            for kind in ["switches", "braille"] {
                try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Devices/\(kind)"),
                                                 to: data.appendingPathComponent(kind))
            }
        }
        let work = folder.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Scenarios/switch-control-groups.yaml"),
                                         to: work.appendingPathComponent("scene.yaml"))
        return (folder, binary, work)
    }

    func run(_ binary: String, _ arguments: [String], in work: URL, home: URL, dataDirs: String) throws -> CLI.Result {
        try CLI.runProgram(binary, arguments, in: work, environment: [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_DIRS": dataDirs, "PATH": "/usr/bin:/bin",
        ])
    }

    @Test func anInstalledProgramFindsItsProfilesBesideIt() throws {
        let (folder, binary, work) = try install(share: true)
        let home = folder.url.appendingPathComponent("home")
        // The scene's Tapio test uses the shipped profile origin-tapio, by id.
        let result = try run(binary, ["test", "scene.yaml", "--filter", "Tapio"], in: work, home: home, dataDirs: "/nonexistent")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("1 passed, 0 failed"), "\(result)")
    }

    @Test func XDGDataDirsIsSearchedNext() throws {
        let (folder, binary, work) = try install(share: false)
        let data = folder.url.appendingPathComponent("data/switchscan")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Devices/switches"),
                                         to: data.appendingPathComponent("switches"))
        let result = try run(binary, ["test", "scene.yaml", "--filter", "Tapio"], in: work,
                             home: folder.url.appendingPathComponent("home"), dataDirs: "/nonexistent:" + folder.url.appendingPathComponent("data").path)
        #expect(result.status == 0, "\(result)")
    }

    @Test func withoutShippedDataTheShippedProfileIsNotFoundAndTheCurrentFolderIsNotSearched() throws {
        let (folder, binary, work) = try install(share: false)
        // A Devices/ folder in the current folder is not taken for shipped data.
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Devices"), to: work.appendingPathComponent("Devices"))
        let result = try run(binary, ["test", "scene.yaml", "--filter", "Tapio"], in: work,
                             home: folder.url.appendingPathComponent("home"), dataDirs: "/nonexistent")
        #expect(result.status != 0, "\(result)")
        #expect(result.stdout.contains("profile 'origin-tapio'"), "\(result)")
    }
}

extension InstalledDataTests {
    @Test func versionIsPrinted() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0, "\(result)")
        // Built in a clone: the release, then the commit its .git names (read without git).
        let head = try CLI.runProgram("/usr/bin/git", ["rev-parse", "HEAD"])
        #expect(head.status == 0, "\(head)")
        let hash = head.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.stdout == "0.3.0 (source tree at commit \(hash.prefix(12)))\n", "\(result)")
    }
}
