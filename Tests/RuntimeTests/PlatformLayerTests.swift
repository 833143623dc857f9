import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import Runtime
import Testing
@testable import Platform

/// The wrappers of the Platform module that the rest of the program calls instead of libc: typed
/// values in, typed values and `SystemCallError` (with its `Errno`) out.
@Suite("Platform layer: typed wrappers of libc")
struct PlatformLayerTests {
    typealias Folder = RegularFileTests.Folder

    @Test("What is at a path: kind and size, and a missing path is ENOENT by name")
    func status() throws {
        let folder = try Folder()
        let file = folder.path + "/trace.jsonl"
        FileManager.default.createFile(atPath: file, contents: Data("12345".utf8))
        let fifo = folder.path + "/input.fifo"
        try FileSystem.makeFIFO(fifo)
        #expect(try FileSystem.status(file) == FileSystem.Status(kind: .regular, size: 5))
        #expect(try FileSystem.status(folder.path).kind == .directory)
        #expect(try FileSystem.status(fifo).kind == .fifo)
        let missing = folder.path + "/none"
        #expect(throws: SystemCallError(call: "stat", errno: .noSuchFileOrDirectory, subject: missing)) {
            try FileSystem.status(missing)
        }
        let descriptor = try FileIO.open(file, .readOnly)
        defer { FileIO.close(descriptor) }
        #expect(try FileIO.status(descriptor).size == 5)
    }

    @Test("A folder's names, without . and ..; a missing folder is ENOENT")
    func entries() throws {
        let folder = try Folder()
        for name in ["event3", "event10", ".hidden"] {
            FileManager.default.createFile(atPath: folder.path + "/" + name, contents: nil)
        }
        #expect(try FileSystem.entries(ofDirectory: folder.path).sorted() == [".hidden", "event10", "event3"])
        do {
            _ = try FileSystem.entries(ofDirectory: folder.path + "/gone")
            Issue.record("a missing folder was listed")
        } catch {
            #expect(error.call == "opendir")
            #expect(error.errno == .noSuchFileOrDirectory)
        }
    }

    @Test("rename replaces the destination; realpath resolves links")
    func renameAndRealPath() throws {
        let folder = try Folder()
        let source = folder.path + "/new", destination = folder.path + "/old"
        FileManager.default.createFile(atPath: source, contents: Data("new".utf8))
        FileManager.default.createFile(atPath: destination, contents: Data("old".utf8))
        try FileSystem.rename(source, to: destination)
        #expect(FileManager.default.contents(atPath: destination) == Data("new".utf8))
        #expect(!FileManager.default.fileExists(atPath: source))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: destination)
        let real = try #require(FileSystem.realPath(folder.path))
        #expect(FileSystem.realPath(folder.path + "/link") == real + "/old")
        #expect(FileSystem.realPath(folder.path + "/nothing") == nil)
    }

    @Test("A pipe's ends do not block: an empty read end says so instead of waiting")
    func pipeDoesNotBlock() throws {
        let (readEnd, writeEnd) = try FileIO.pipe()
        defer { FileIO.close(readEnd); FileIO.close(writeEnd) }
        #expect(try FileIO.read(readEnd) == nil)
        try FileIO.writeAll(writeEnd, "x")
        #expect(try FileIO.read(readEnd) == [UInt8(ascii: "x")])
        try FileIO.setNonBlocking(readEnd, false)
        try FileIO.setNonBlocking(readEnd, true)
        #expect(try FileIO.read(readEnd) == nil)
    }

    @Test("A watchdog acts when its pipe's write end closes (as at this process's death), not when cancelled")
    func watchdog() throws {
        let folder = try Folder()
        let script = "read -r _\necho \"$1 stopped\" > \"$2\""
        let log = folder.path + "/watchdog.out"
        let released = try Watchdog.start(script: script, name: "test-watchdog", arguments: ["server", folder.path + "/released"], log: log)
        let cancelled = try Watchdog.start(script: script, name: "test-watchdog", arguments: ["server", folder.path + "/cancelled"], log: log)
        // Both wait on their standard input while the write ends are open.
        #expect(ChildProcess.state(of: released.pid, blocking: false) == .running)
        #expect(ChildProcess.state(of: cancelled.pid, blocking: false) == .running)
        cancelled.cancel()
        #expect(ChildProcess.state(of: cancelled.pid, blocking: false) == .notAChild)
        released.release()
        #expect(ChildProcess.wait(released.pid) == .exited(0))
        #expect(FileManager.default.contents(atPath: folder.path + "/released") == Data("server stopped\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/cancelled"))
        #expect(FileManager.default.contents(atPath: log) == Data())
    }

    @Test("A mode set, a symbolic link and (as root) a device node made; a bad mode or device number is EINVAL")
    func modesLinksAndNodes() throws {
        let folder = try Folder()
        let file = folder.write("settings.yaml", Array("loops: 2\n".utf8))
        try FileSystem.setPermissions(file, 0o640)
        #expect(try FileSystem.permissions(file) == 0o640)
        #expect(throws: SystemCallError(call: "chmod", errno: .invalidArgument, subject: file)) { try FileSystem.setPermissions(file, 0o10000) }
        try FileSystem.makeSymbolicLink(folder.path + "/link", to: "settings.yaml")
        #expect(try FileSystem.linkStatus(folder.path + "/link").kind == .symbolicLink)
        #expect(FileSystem.realPath(folder.path + "/link") == FileSystem.realPath(file))
        #expect(throws: SystemCallError(call: "symlink", errno: .fileExists, subject: file)) { try FileSystem.makeSymbolicLink(file, to: "x") }
        let node = folder.path + "/null"
        #expect(throws: SystemCallError(call: "mknod", errno: .invalidArgument, subject: node)) {
            try FileSystem.makeCharacterDevice(node, major: 1, minor: 256)
        }
        if CurrentProcess.isRoot {
            try FileSystem.makeCharacterDevice(node, major: 1, minor: 3)
            #expect(try FileSystem.status(node).kind == .characterDevice)
        } else {
            #expect(throws: SystemCallError(call: "mknod", errno: .notPermitted, subject: node)) {
                try FileSystem.makeCharacterDevice(node, major: 1, minor: 3)
            }
        }
    }

    @Test("A process's CPU time is read from /proc and grows as it works; a PID that is no process has none")
    func cpuTime() throws {
        let before = try #require(ProcessStatistics.cpuSeconds(of: CurrentProcess.id))
        var sum = 0.0
        let start = MonotonicClock.now()
        // Work until the clock-tick counter has moved (100 ticks a second).
        while ProcessStatistics.cpuSeconds(of: CurrentProcess.id) ?? 0 <= before, MonotonicClock.now() - start < 10 {
            for index in 0..<100_000 { sum += Double(index).squareRoot() }
        }
        #expect(try #require(ProcessStatistics.cpuSeconds(of: CurrentProcess.id)) > before, "\(sum)")
        #expect(ProcessStatistics.cpuSeconds(of: 0) == nil)
        #expect(ProcessStatistics.peakResidentKilobytes > 0)
        #expect(CurrentProcess.pageSize == 4096 || CurrentProcess.pageSize == 16384 || CurrentProcess.pageSize == 65536)
    }

    @Test("A short write is cut back to the last whole line")
    func truncateEnd() throws {
        let folder = try Folder()
        let file = folder.path + "/trace.jsonl"
        let descriptor = try FileIO.open(file, .writeOnly, options: [.create, .append])
        defer { FileIO.close(descriptor) }
        #expect(try FileIO.writeOnce(descriptor, Array("line\nhalf".utf8)[...]) == 9)
        #expect(FileIO.truncateEnd(descriptor, by: 4))
        #expect(!FileIO.truncateEnd(descriptor, by: 100))
        #expect(FileManager.default.contents(atPath: file) == Data("line\n".utf8))
    }

    @Test("No signal goes to PID 0 or below (kill(2) would signal the whole process group)")
    func signalNeedsAPid() {
        for pid: Int32 in [0, -1] {
            #expect(throws: SystemCallError(call: "kill", errno: .invalidArgument, subject: "pid \(pid)")) {
                try ProcessSignal.send(0, to: pid)
            }
        }
        #expect(throws: Never.self) { try ProcessSignal.send(0, to: CurrentProcess.id) }
    }

    @Test("The environment: set, then read back")
    func environment() throws {
        let name = "SWITCHSCAN_PLATFORM_TEST_\(CurrentProcess.id)"
        #expect(CurrentProcess.environmentVariable(name) == nil)
        try CurrentProcess.setEnvironmentVariable(name, to: "braille")
        #expect(CurrentProcess.environmentVariable(name) == "braille")
    }

    @Test("The error names the call, what it was about, the errno's message and number")
    func errorDescription() {
        let error = SystemCallError(call: "open", errno: .noSuchFileOrDirectory, subject: "/tmp/x")
        #expect(error.description == "open (/tmp/x): No such file or directory (errno 2)")
        #expect(error.errno.name == "ENOENT")
    }

    @Test("The UTC stamp of the trace's first line")
    func utcStamp() {
        let stamp = WallClock.utcStamp()
        #expect(stamp.count == 20)
        #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
    }
}
