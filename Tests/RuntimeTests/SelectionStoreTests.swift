import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import Runtime
import Scanning
import Testing
import Platform

/// The selection counts' file (issue 17, part 2): where it is, what it holds, and that a broken
/// file is started afresh with its problem reported.
@Suite struct SelectionStoreTests {
    @Test func thePathComesFromXDGStateHomeElseHome() {
        #expect(SelectionStore.defaultPath(environment: ["XDG_STATE_HOME": "/st", "HOME": "/home/u"]) == "/st/switchscan/selections.tsv")
        #expect(SelectionStore.defaultPath(environment: ["XDG_STATE_HOME": "st", "HOME": "/home/u"]) == "/home/u/.local/state/switchscan/selections.tsv")
        #expect(SelectionStore.defaultPath(environment: [:]) == nil)
    }

    @Test func recordsAreMergedOnDiskAndHoldOnlyIdsAndCounts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = SelectionStore.defaultPath(environment: ["XDG_STATE_HOME": folder])!
        let store = SelectionStore(path: path, halfLife: 1e9)
        #expect(try store.load().get().counts == SelectionCounts(halfLife: 1e9))  // no file yet: empty
        try store.record([(screen: "keyboard", id: "key-a"), (screen: "keyboard", id: "key-a")])
        try store.record([(screen: "keyboard", id: "key-b")])
        let counts = try store.load().get().counts
        #expect(counts.screens["keyboard"]?["key-a"].map { abs($0 - 2) < 1e-6 } == true)
        #expect(counts.screens["keyboard"]?["key-b"].map { abs($0 - 1) < 1e-6 } == true)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 3)  // the header and two ids
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/switchscan") == ["selections.tsv"])

    }

    /// A store in a fresh state folder, and its path.
    func freshStore() -> (SelectionStore, String, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-state-\(UUID().uuidString)").path
        let path = SelectionStore.defaultPath(environment: ["XDG_STATE_HOME": folder])!
        try? FileManager.default.createDirectory(atPath: folder + "/switchscan", withIntermediateDirectories: true)
        return (SelectionStore(path: path, halfLife: 1e9), path, folder)
    }

    @Test func badLinesAreSkippedAndSaidOnceAndEveryOtherScenesCountsKept() throws {
        let (store, path, folder) = freshStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var bytes = Array("switchscan-selections 1\n/a.yaml#main\tk1\t3\n/a.yaml#main\tk2\tnan\n/a.yaml#main\tk3\t-1\n".utf8)
        bytes += Array("/b.yaml#list\tx1\t1e300\n/b.yaml#list\tx2\tx\n/b.yaml#list\tx3\t2.5\n".utf8)
        bytes += [0x2F, 0x63, 0xFF, 0x09, 0x6B, 0x09, 0x31, 0x0A]  // "/c\xFF\tk\t1": not UTF-8
        bytes += Array("/c.yaml#s\tonly two fields\n/c.yaml#s\tc1\t7\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let (counts, skipped) = try store.load().get()
        #expect(counts.screens["/a.yaml#main"] == ["k1": 3])
        #expect(counts.screens["/b.yaml#list"] == ["x3": 2.5])
        #expect(counts.screens["/c.yaml#s"] == ["c1": 7])
        // The first bad line with its place and reason; the others by number.
        #expect(skipped?.description == "\(path):3:17: error: count 'nan' is not a number from 0 to 1e9; the line is skipped, the others are kept (also skipped: lines 4, 5, 6, 8, 9)")

        // A write keeps every good line, of every scene, and drops the bad ones.
        let (written, problem) = try store.record([(screen: "/a.yaml#main", id: "k1")])
        #expect(problem == skipped)
        #expect(written.screens["/a.yaml#main"]?["k1"].map { abs($0 - 4) < 1e-6 } == true)
        #expect(written.screens["/b.yaml#list"] == ["x3": 2.5])
        #expect(written.screens["/c.yaml#s"] == ["c1": 7])
        let again = try store.load().get()
        #expect(again.counts == written)
        #expect(again.skipped == nil)
    }

    @Test func aNewerFormatOrAFileThatIsNotAStoreIsLeftAsItIs() throws {
        let (store, path, folder) = freshStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let newer = "switchscan-selections 2\n/a.yaml#main\tk1\t3\tmore\n"
        try newer.write(toFile: path, atomically: true, encoding: .utf8)
        guard case .failure(let problem) = store.load() else { Issue.record("a newer store loaded"); return }
        #expect(problem.description == "\(path):1:23: error: the file is in format 2, newer than this switchscan reads (1); a newer switchscan wrote it; it is left as it is (nothing read, nothing written; move it away to start afresh)")
        #expect(throws: SelectionStore.Problem.self) { try store.record([(screen: "/a.yaml#main", id: "k1")]) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == newer)

        // The store's name linked to another file (a user's notes): never written.
        let notes = folder + "/notes.txt"
        try "my notes\n".write(toFile: notes, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: notes)
        guard case .failure(let refusal) = store.load() else { Issue.record("notes loaded as a store"); return }
        #expect(refusal.description.contains(":1:1: error: expected the header 'switchscan-selections 1': this is not a selections file"))
        #expect(throws: SelectionStore.Problem.self) { try store.record([(screen: "/a.yaml#main", id: "k1")]) }
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
        // A link to a store is written through, as SafeFileWriter writes every user file.
        try "switchscan-selections 1\n".write(toFile: notes, atomically: true, encoding: .utf8)
        try store.record([(screen: "/a.yaml#main", id: "k1")])
        #expect(try String(contentsOfFile: notes, encoding: .utf8).hasPrefix("switchscan-selections 1\n/a.yaml#main\tk1\t"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == notes)

        // Not a regular file: refused without blocking, and left as it is.
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: Never.self) { try FileSystem.makeFIFO(path) }
        guard case .failure(let fifo) = store.load() else { Issue.record("a FIFO loaded"); return }
        #expect(fifo.description.contains("FIFO"))
        #expect(throws: (any Error).self) { try store.record([(screen: "/a.yaml#main", id: "k1")]) }
        #expect((try? FileSystem.linkStatus(path).kind) == .fifo)
    }

    @Test func theStoreIsBoundedByForgettingTheLeastRecentlyUsedScreens() throws {
        let (store, path, folder) = freshStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 300 screens of 200 ids (60,000 lines, as a store of long use could hold), oldest first.
        var text = "switchscan-selections 1\n"
        for screen in 0..<300 {
            for id in 0..<200 { text += "/s\(screen).yaml#main\tid\(id)\t1\n" }
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (written, _) = try store.record([(screen: "/s0.yaml#main", id: "id0")])
        #expect(written.entryCount <= SelectionCounts().maxEntries)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count - 1 == written.entryCount)
        // The screen just used and the most recently used ones are kept; the oldest go first.
        #expect(written.recent.last == "/s0.yaml#main")
        #expect(written.recent.dropLast().first == "/s219.yaml#main", "\(written.recent.prefix(2))")
        #expect(written.recent.contains("/s299.yaml#main"))
        #expect(!written.recent.contains("/s218.yaml#main"))
    }
}
