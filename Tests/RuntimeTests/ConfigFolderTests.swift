import DeviceProfiles
import Foundation
@testable import Runtime
import Scanning
import Testing
@testable import Platform

/// The configuration folder: where it is, a user's switch profile replacing a shipped one of the
/// same name, and the settings file watched with inotify (created with its folder after the
/// start, renamed into place, broken, removed).
@Suite("Configuration folder")
struct ConfigFolderTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Devices/switches").path

    final class Folder {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-config-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test func theFolderComesFromXDGConfigHomeElseHome() {
        #expect(configDirectory(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"]) == "/cfg/switchscan")
        #expect(configDirectory(environment: ["XDG_CONFIG_HOME": "/cfg/", "HOME": "/home/u"]) == "/cfg/switchscan")
        // A relative XDG_CONFIG_HOME is ignored, as the XDG rules say.
        #expect(configDirectory(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/u"]) == "/home/u/.config/switchscan")
        #expect(configDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.config/switchscan")
        #expect(configDirectory(environment: [:]) == nil)
    }

    @Test func aUserProfileReplacesTheShippedOneOfTheSameName() throws {
        let user = try Folder()
        // The user's X-keys interface: programmed to send F13/F14, matched by its name only (the
        // shipped file matches vendor and product, which would otherwise win).
        try """
            name: My X-keys
            match:
              - name: "*X-keys*"
            switches:
              - {id: left, code: KEY_F13, action: select}
              - {id: right, code: KEY_F14, action: next}
            """.write(toFile: user.path + "/xkeys-switch-interface.yaml", atomically: true, encoding: .utf8)
        let loaded = ProfileFiles.loadCatalog(directories: [user.path, Self.shipped])
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        let xkeys = loaded.catalog.profiles.filter { $0.id == "xkeys-switch-interface" }
        #expect(xkeys.count == 1)
        #expect(xkeys.first?.name == "My X-keys")
        let device = DeviceIdentity(name: "P.I. Engineering X-keys", bus: 3, vendor: 0x05f3, product: 0x0232, version: 1,
                                    keyCodes: [183, 184])
        #expect(loaded.catalog.bestMatch(for: device)?.profile.name == "My X-keys")
        // The other shipped profiles are still there.
        #expect(loaded.catalog.profile(named: "generic-keyboard") != nil)

        // A user file with errors is reported, and the shipped profile is used meanwhile.
        try "name: My X-keys\nswitches: []\nmatch: sometimes\n".write(
            toFile: user.path + "/xkeys-switch-interface.yaml", atomically: true, encoding: .utf8)
        let broken = ProfileFiles.loadCatalog(directories: [user.path, Self.shipped])
        #expect(broken.problems.contains { $0.contains("xkeys-switch-interface.yaml:") }, "\(broken.problems)")
        #expect(broken.catalog.profile(named: "xkeys-switch-interface")?.name == "X-keys switch interface")
    }

    /// Waits (in poll, on the watcher's descriptor) for its next changes.
    func changes(_ watcher: SettingsWatcher, timeout: Double = 3) throws -> [SettingsWatcher.Change] {
        let descriptor = try #require(watcher.descriptor)
        let deadline = MonotonicClock.now() + timeout
        while MonotonicClock.now() < deadline {
            let ready = try Poll.readable([descriptor], timeout: deadline - MonotonicClock.now())
            if ready.contains(descriptor) {
                let found = watcher.readable()
                if !found.isEmpty { return found }
            }
        }
        return []
    }

    @Test func theSettingsFileIsWatchedFromBeforeItsFolderExists() throws {
        let home = try Folder()
        let folder = home.path + "/switchscan"
        let path = folder + "/settings.yaml"
        var base = ScanSettings()
        base.scanning = .manual
        let watcher = SettingsWatcher(path: path, initialText: nil, base: base, overrides: [(name: "loops", value: .number(2))])
        #expect(watcher.startupStatus == nil)

        // The folder appears, then the file is renamed into it (as an atomic writer does).
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try "autoScanningTime: 2\nloops: 5\n".write(toFile: folder + "/.settings.tmp", atomically: false, encoding: .utf8)
        try FileSystem.rename(folder + "/.settings.tmp", to: path)
        var found = try changes(watcher)
        guard case .applied(let settings, let status)? = found.last else {
            Issue.record("expected the settings applied: \(found)")
            return
        }
        #expect(settings.autoScanningTime == 2)
        #expect(settings.scanning == .manual, "the base stays under the file")
        #expect(settings.loops == 2, "the overrides win over the file")
        #expect(status == "settings: \(path) applied: autoScanningTime 2, loops 5 (--set loops kept)")

        // Written in place with an error: rejected with its position.
        try "autoScanningTime: 2\nloops: 5\ngroupItems: maybe\n".write(toFile: path, atomically: false, encoding: .utf8)
        found = try changes(watcher)
        #expect(found == [.rejected(status: "settings: \(path):3:13: error: setting 'groupItems' expects true or false; found maybe; the previous settings stay")])

        // Removed: the base and overrides again.
        try FileManager.default.removeItem(atPath: path)
        found = try changes(watcher)
        var expected = base
        expected.loops = 2
        #expect(found == [.applied(expected, status: "settings: \(path) removed; the defaults apply (--set loops kept)")])
        watcher.close()
        #expect(watcher.descriptor == nil)
    }
}
