import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Platform

/// `switchscan settings set` and `learn` write the user's files as a careful editor would:
/// concurrent writers both land, a symbolic link stays a link, the mode stays, CRLF stays, and
/// no temporary file is left behind (issue 11, "files written safely").
@Suite("Writing the user's files safely", .serialized)
struct SafeWritingTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func settings(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["settings"] + arguments, environment: ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path])
    }

    func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// The CLI started as a process, not waited for.
    func spawn(_ arguments: [String]) throws -> pid_t {
        let binary = try CLI.binary()
        return try ChildProcess.spawn(binary.path, arguments: [binary.path] + arguments)
    }

    /// Its exit status (128 + N after signal N).
    func wait(_ pid: pid_t) -> Int32 {
        switch ChildProcess.wait(pid) {
        case .exited(let code): return code
        case .signalled(let signal): return 128 + signal
        case nil: return -1
        }
    }

    func entries(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)) ?? []
    }

    @Test func twoWritersAtOnceBothLand() throws {
        let path = try folder.write("settings.yaml", "# mine\n")
        // Eight rounds of two `settings set` processes started together, each a different
        // setting: every change must be in the file afterwards.
        for round in 0..<8 {
            let seconds = "\(1 + round)"
            let loops = "\(2 + round)"
            // Both started before either is waited for.
            let first = try spawn(["settings", "set", "autoScanningTime", seconds, "--file", path])
            let second = try spawn(["settings", "set", "loops", loops, "--file", path])
            #expect(wait(first) == 0)
            #expect(wait(second) == 0)
            let written = try #require(text(path))
            #expect(written.contains("autoScanningTime: \(seconds)\n"), "round \(round): \(written)")
            #expect(written.contains("loops: \(loops)\n"), "round \(round): \(written)")
            #expect(written.hasPrefix("# mine\n"), "the comment is kept: \(written)")
        }
        #expect(entries(path).filter { $0.hasSuffix(".tmp") }.isEmpty, "\(entries(path))")
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsWritten() throws {
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("dotfiles"), withIntermediateDirectories: true)
        let target = try folder.write("dotfiles/switchscan-settings.yaml", "loops: 2\n")
        let link = folder.url.appendingPathComponent("settings.yaml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "dotfiles/switchscan-settings.yaml")
        let result = try settings(["set", "loops", "3", "--file", link])
        #expect(result.status == 0, "\(result)")
        let attributes = try FileManager.default.attributesOfItem(atPath: link)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link is still a link")
        #expect(text(target) == "loops: 3\n")
        #expect(result.stdout.contains("→ \(target)"), "it says which file it wrote: \(result)")
    }

    @Test func theModeIsKept() throws {
        let path = try folder.write("private.yaml", "loops: 2\n")
        try FileSystem.setPermissions(path, 0o600)
        #expect(try settings(["set", "loops", "4", "--file", path]).status == 0)
        let mode = try FileSystem.permissions(path)
        #expect(mode == 0o600, "mode \(String(mode, radix: 8))")
        #expect(text(path) == "loops: 4\n")

        // A new file gets 0644 less the umask (the test runner's umask is 022 or stricter).
        let fresh = folder.url.appendingPathComponent("new/settings.yaml").path
        #expect(try settings(["set", "loops", "5", "--file", fresh]).status == 0)
        let freshMode = try FileSystem.permissions(fresh)
        #expect(freshMode & 0o077 & 0o022 == 0, "not group- or world-writable: \(String(freshMode, radix: 8))")
    }

    @Test func aCRLFFileIsEditedAndKeepsItsLineEnds() throws {
        let path = try folder.write("windows.yaml", "# from an editor on Windows\r\nloops: 2\r\nscanning: manual\r\n")
        let set = try settings(["set", "loops", "6", "--file", path])
        #expect(set.status == 0, "\(set)")
        #expect(text(path) == "# from an editor on Windows\r\nloops: 6\r\nscanning: manual\r\n")
        let unset = try settings(["unset", "scanning", "--file", path])
        #expect(unset.status == 0, "\(unset)")
        #expect(text(path) == "# from an editor on Windows\r\nloops: 6\r\n")
        #expect(try settings(["get", "loops", "--file", path]).stdout == "6\n")
    }

    @Test func aTemporaryFileLeftByAKilledWriterIsRemovedByTheNext() throws {
        let path = try folder.write("settings.yaml", "loops: 2\n")
        // A writer killed by SIGKILL leaves `.settings.yaml.PID.N.tmp`; no process has PID
        // 4194303 (above the kernel's default pid_max of 4194304 - 1 only when raised).
        let stale = folder.url.appendingPathComponent(".settings.yaml.4194303.77.tmp").path
        #expect(FileManager.default.createFile(atPath: stale, contents: Data("half".utf8)))
        // One of a live process (this test runner) is left alone: it may be writing right now.
        let live = folder.url.appendingPathComponent(".settings.yaml.\(CurrentProcess.id).78.tmp").path
        #expect(FileManager.default.createFile(atPath: live, contents: Data("busy".utf8)))
        #expect(try settings(["set", "loops", "3", "--file", path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale), "the stale temporary file is gone")
        #expect(FileManager.default.fileExists(atPath: live), "a live writer's file is kept")
        #expect(text(path) == "loops: 3\n")
    }

    @Test func aWriterStoppedBySIGTERMWhileWritingLeavesNoTemporaryFile() throws {
        // Many writers, each sent SIGTERM at a different moment of its run: whatever moment the
        // signal lands, no temporary file may remain, and the file is either the old or the new.
        let path = try folder.write("settings.yaml", "loops: 2\n")
        for attempt in 0..<20 {
            let pid = try spawn(["settings", "set", "loops", "\(3 + attempt % 5)", "--file", path])
            MonotonicClock.sleep(seconds: 0.001 * Double(attempt * 3))
            try? ProcessSignal.send(SIGTERM, to: pid)
            _ = wait(pid)
        }
        #expect(entries(path).filter { $0.hasSuffix(".tmp") }.isEmpty, "\(entries(path))")
        let written = try #require(text(path))
        #expect(["loops: 2\n", "loops: 3\n", "loops: 4\n", "loops: 5\n", "loops: 6\n", "loops: 7\n"].contains(written), "\(written)")
    }
}
