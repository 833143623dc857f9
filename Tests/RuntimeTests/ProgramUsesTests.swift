import Foundation
@testable import Runtime
import Testing

/// The programs started from a live desktop's scanner menu, counted beside the selections.
@Suite struct ProgramUsesTests {
    @Test("starts are counted in programs.tsv and read back; a bad line is skipped, said with its place, and the others kept")
    func countsAndBadLines() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-programs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try #require(ProgramUses.defaultPath(environment: ["XDG_STATE_HOME": folder]))
        #expect(path == folder + "/switchscan/programs.tsv")
        let uses = ProgramUses(path: path)
        #expect(uses.load().uses.isEmpty && uses.load().problem == nil)
        #expect(uses.record("org.xfce.mousepad.desktop") == nil)
        #expect(uses.record("org.xfce.mousepad.desktop") == nil)
        #expect(uses.record("firefox-esr.desktop") == nil)
        let loaded = uses.load()
        #expect((loaded.uses["org.xfce.mousepad.desktop"] ?? 0) > (loaded.uses["firefox-esr.desktop"] ?? 0))
        #expect((loaded.uses["firefox-esr.desktop"] ?? 0) > 0)
        // A line broken by hand: skipped and said, the rest still counted.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text += "programs\tbroken.desktop\tnot-a-number\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let afterDamage = uses.load()
        #expect(afterDamage.problem?.contains("programs.tsv:") == true, "\(afterDamage.problem ?? "nothing said")")
        #expect(afterDamage.uses["org.xfce.mousepad.desktop"] != nil)
    }
}
