import Documents
import Foundation
import Presentation
@testable import Runtime
import Scanning
import Testing
@testable import Platform

/// The one reading layer: regular files only, opened without blocking, the size checked before
/// a byte is read; and paths a scene names kept inside the scene's folder.
@Suite("Reading files: RegularFile and ContainedPath")
struct RegularFileTests {
    final class Folder {
        let path: String
        init() throws {
            path = NSTemporaryDirectory() + "switchscan-regular-file-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        @discardableResult
        func write(_ name: String, _ bytes: [UInt8]) -> String {
            let file = path + "/" + name
            FileManager.default.createFile(atPath: file, contents: Data(bytes))
            return file
        }
    }

    func failure(_ path: String, maxBytes: Int = 1 << 20) -> RegularFile.ReadError? {
        do {
            _ = try RegularFile.read(path, maxBytes: maxBytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("a FIFO is refused at once instead of blocking the reader")
    func fifo() throws {
        let folder = try Folder()
        let path = folder.path + "/settings.yaml"
        #expect(throws: Never.self) { try FileSystem.makeFIFO(path) }
        #expect(failure(path)?.message == "it is a FIFO (named pipe), not a regular file; give a regular file")
    }

    @Test("a folder and a device are not files")
    func notFiles() throws {
        let folder = try Folder()
        #expect(failure(folder.path)?.message == "it is a folder, not a regular file; give a regular file")
        #expect(failure("/dev/null")?.message == "it is a character device, not a regular file; give a regular file")
    }

    @Test("the size is checked before reading: a 200 MB profile is refused without being read")
    func sizeFirst() throws {
        let folder = try Folder()
        let path = folder.write("huge.yaml", [])
        // Sparse: 200 MB by its size, no byte on the disk.
        #expect(truncate(path, 200 << 20) == 0)
        #expect(failure(path)?.message == "the file is 209715200 bytes; at most 1048576 are accepted")
        let small = folder.write("small.yaml", Array("name: x\n".utf8))
        #expect(failure(small, maxBytes: 4)?.message == "the file is 8 bytes; at most 4 are accepted")
        #expect((try? RegularFile.read(small, maxBytes: 8)) == Array("name: x\n".utf8))
    }

    @Test("a missing file says so, and is told apart from one that cannot be read")
    func missing() throws {
        let folder = try Folder()
        let error = failure(folder.path + "/nothing.yaml")
        #expect(error?.isMissing == true)
        #expect(error?.message == "cannot read the file: No such file or directory")
        #expect(failure(folder.path)?.isMissing == false)
    }

    @Test("text that is not UTF-8 is refused with the line and column of the first bad byte")
    func notUTF8() throws {
        let folder = try Folder()
        let path = folder.write("latin1.yaml", Array("name: x\nlabel: caf".utf8) + [0xE9, 0x0A])
        guard case .failure(let error) = RegularFile.readText(path, maxBytes: 1 << 20) else {
            Issue.record("read as text")
            return
        }
        #expect(error.problem(file: "latin1.yaml").description
            == "latin1.yaml:2:11: error: the file is not UTF-8 text: byte 0xE9 starts a character that byte 2 of it does not continue; save the file as UTF-8")
    }

    @Test("a path a scene names stays inside the scene's folder")
    func containedPaths() throws {
        let folder = try Folder()
        let scene = folder.write("scene.yaml", Array("scene: x\n".utf8))
        folder.write("mine.yaml", Array("name: x\n".utf8))
        try FileManager.default.createDirectory(atPath: folder.path + "/profiles", withIntermediateDirectories: true)
        folder.write("profiles/two.yaml", Array("name: y\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/inside.yaml", withDestinationPath: folder.path + "/mine.yaml")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/outside.yaml", withDestinationPath: "/etc/passwd")

        func resolve(_ name: String) -> String {
            switch ContainedPath.resolve(name, besideFile: scene) {
            case .success(let path): return path
            case .failure(let error): return "refused: \(error.message)"
            }
        }
        #expect(resolve("mine.yaml") == folder.path + "/mine.yaml")
        #expect(resolve("profiles/two.yaml") == folder.path + "/profiles/two.yaml")
        #expect(resolve("inside.yaml") == folder.path + "/inside.yaml")
        #expect(resolve("/etc/passwd") == "refused: an absolute path is not accepted; name a file in the scene's own folder, or a profile's id")
        #expect(resolve("../../etc/passwd") == "refused: a path with '..' is not accepted; name a file in the scene's own folder, or a profile's id")
        #expect(resolve("profiles/../../x.yaml") == "refused: a path with '..' is not accepted; name a file in the scene's own folder, or a profile's id")
        #expect(resolve("outside.yaml") == "refused: the file leads out of the scene's folder (a symbolic link); name a file in the scene's own folder, or a profile's id")
        #expect(resolve("absent.yaml") == "refused: \(folder.path)/absent.yaml: no such file")
    }

    /// Waits for the watcher's descriptor, then what it says.
    func changes(_ watcher: SettingsWatcher) throws -> [SettingsWatcher.Change] {
        let descriptor = try #require(watcher.descriptor)
        let ready = try Poll.readable([descriptor], timeout: 5)
        #expect(ready == [descriptor], "no inotify event within 5 s")
        return watcher.readable()
    }

    @Test("a running scanner keeps its settings when the file gets a number out of range, or becomes a FIFO")
    func watcherKeepsSettings() throws {
        let folder = try Folder()
        let path = folder.write("settings.yaml", Array("loops: 2\n".utf8))
        let watcher = SettingsWatcher(path: path, initialText: "loops: 2\n", base: ScanSettings(), overrides: [])
        defer { watcher.close() }

        try Data("loops: 1e300\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try changes(watcher) == [.rejected(status:
            "settings: \(path):1:8: error: setting 'loops' expects a whole number from 1 to 100; found 1e300; the previous settings stay")])

        try Data("autoScanningTime: 9223372036854775808\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try changes(watcher) == [.rejected(status:
            "settings: \(path):1:19: error: setting 'autoScanningTime' expects a number of seconds from 0.1 to 600; found 9223372036854775808; the previous settings stay")])

        // A FIFO moved into place (as an editor or a script would replace the file).
        let fifo = folder.path + "/new-settings"
        try FileSystem.makeFIFO(fifo)
        try FileSystem.rename(fifo, to: path)
        #expect(try changes(watcher) == [.rejected(status:
            "settings: \(path):1:1: error: it is a FIFO (named pipe), not a regular file; give a regular file; the previous settings stay")])
    }

    @Test("times from a stream's clock, however far, never trap the trace or the poll")
    func farTimes() throws {
        let event = TraceEvent(time: 9.3e18, kind: .status(text: "x"))
        #expect(TraceFormat.jsonLine(event) == "{\"time\":9.3e+18,\"kind\":\"status\",\"text\":\"x\"}")
        #expect(TraceFormat.jsonLine(TraceEvent(time: .infinity, kind: .status(text: "x"))).hasPrefix("{\"time\":null,"))
        #expect(TraceFormat.jsonLine(TraceEvent(time: 1.5, kind: .status(text: "x"))).hasPrefix("{\"time\":1.5,"))
        let (readEnd, writeEnd) = try FileIO.pipe()
        defer { FileIO.close(readEnd); FileIO.close(writeEnd) }
        try FileIO.writeAll(writeEnd, "x")
        for timeout in [1e300, Double.infinity, 9.3e18, -5] {
            #expect(try Poll.readable([readEnd], timeout: timeout) == [readEnd])
        }
    }
}
