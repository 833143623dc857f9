import DeviceProfiles
import Foundation
import Runtime
import Scanning
import Scenes
import Testing

/// Where the scanning keyboard's layout comes from: the user's folder first, a broken file of
/// theirs named and the shipped one used meanwhile, the `keyboardLayout` setting, the field's
/// language.
@Suite struct KeyboardLayoutsTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Devices/keyboards").path

    @Test func yoursReplaceTheShippedOnesAndABrokenOneIsNamedWhileTheShippedOneIsUsed() throws {
        let yours = FileManager.default.temporaryDirectory.appendingPathComponent("keyboards-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: yours, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: yours) }
        try "name: My QWERTY\nrows:\n  - [q, w, e, space, delete]\n".write(toFile: yours + "/qwerty.yaml", atomically: true, encoding: .utf8)
        try "name: Broken\nrows:\n  - [a, a]\n".write(toFile: yours + "/azerty.yaml", atomically: true, encoding: .utf8)

        let layouts = KeyboardLayouts(folders: [yours, Self.shipped])
        #expect(layouts.layout(named: "qwerty")?.name == "My QWERTY")
        #expect(layouts.layout(named: "azerty")?.name == "AZERTY", "the shipped one, while yours has errors")
        #expect(layouts.problems == ["\(yours)/azerty.yaml:3:9: error: 'a' is already on the keyboard (line 3, column 6)"])
    }

    @Test func theSettingChoosesElseTheFieldsLanguageElseEnglish() {
        let layouts = KeyboardLayouts(folders: [Self.shipped])
        #expect(layouts.layout(for: "en-GB")?.id == "english-frequency")
        #expect(layouts.layout(for: "fr-FR")?.id == "french-frequency")
        #expect(layouts.layout(for: "de")?.id == "english-frequency")
        #expect(layouts.layout(for: "en", chosen: KeyboardLayoutChoice.qwerty.layoutID)?.id == "qwerty")
        #expect(layouts.layout(for: "fr", chosen: KeyboardLayoutChoice.auto.layoutID)?.id == "french-frequency")
        #expect(layouts.layout(for: "fr", chosen: KeyboardLayoutChoice.azerty.layoutID)?.id == "azerty")
    }

    @Test func theSettingIsReadFromASettingsFile() {
        guard case .success(let (settings, _)) = SettingsFile.settings(yaml: "keyboardLayout: qwerty\n", file: "s.yaml", base: ScanSettings()) else {
            Issue.record("keyboardLayout: qwerty was refused")
            return
        }
        #expect(settings.keyboardLayout == .qwerty)
        guard case .failure(let error) = SettingsFile.settings(yaml: "keyboardLayout: dvorak\n", file: "s.yaml", base: ScanSettings()) else {
            Issue.record("keyboardLayout: dvorak was taken")
            return
        }
        #expect(error.problems.map(\.description).joined().contains("s.yaml:1:17"), "\(error.problems)")
    }
}
