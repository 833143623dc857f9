import Foundation
@testable import Runtime
import Scanning
import Testing

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
        #expect(try store.load().get() == SelectionCounts(halfLife: 1e9))  // no file yet: empty
        try store.record([(screen: "keyboard", id: "key-a"), (screen: "keyboard", id: "key-a")])
        try store.record([(screen: "keyboard", id: "key-b")])
        let counts = try store.load().get()
        #expect(counts.screens["keyboard"]?["key-a"].map { abs($0 - 2) < 1e-6 } == true)
        #expect(counts.screens["keyboard"]?["key-b"].map { abs($0 - 1) < 1e-6 } == true)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 3)  // the header and two ids
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/switchscan") == ["selections.tsv"])

        try "not counts\n".write(toFile: path, atomically: true, encoding: .utf8)
        if case .success = store.load() { Issue.record("a broken file loaded") }
        let (written, problem) = try store.record([(screen: "main", id: "ok")])
        #expect(problem != nil)
        #expect(written.screens.keys.sorted() == ["main"])
    }
}
