import AccessibilityModel
import Foundation
import Scanning
import Scenes
import SwitchInput
import Testing

/// What the live run does with an edited settings file (`ScanSession.updateSettings`), in
/// virtual time: the scanner keeps its place, timers follow the new times, and a switch held
/// while the input settings change is released first.
@Suite("Settings changed during a run")
struct SettingsUpdateTests {
    static func scene() throws -> Scene {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/switch-control-groups.yaml").path
        return try SceneParser.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    static func settings(_ pairs: [(String, StateValue)]) throws -> ScanSettings {
        var settings = ScanSettings()
        for (name, value) in pairs { try settings.set(name, value) }
        return settings
    }

    @Test func autoToManualStopsTheStepsAndBackToAutoStartsThemWithTheNewTime() throws {
        var session = ScanSession(scene: try Self.scene(), settings: try Self.settings([("autoScanningTime", .number(1))]))
        _ = session.start()
        _ = session.advance(to: 1.0)
        #expect(session.focusID == "btn-1")
        _ = session.advance(to: 1.5)
        _ = session.updateSettings(try Self.settings([("scanning", .string("manual"))]))
        #expect(session.nextDeadline == nil, "manual: no step pending")
        _ = session.advance(to: 10)
        #expect(session.focusID == "btn-1", "the highlight stayed")

        _ = session.updateSettings(try Self.settings([("autoScanningTime", .number(0.5))]))
        #expect(session.nextDeadline == 10.5, "the step starts again from the change, with the new time")
        _ = session.advance(to: 10.5)
        #expect(session.focusID == "btn-2")
        #expect(session.settings.autoScanningTime == 0.5)
    }

    @Test func theSameSettingsChangeNothing() throws {
        let settings = try Self.settings([("scanning", .string("manual"))])
        var session = ScanSession(scene: try Self.scene(), settings: settings)
        _ = session.start()
        #expect(session.updateSettings(settings).isEmpty)
    }

    @Test func aSwitchHeldWhileTheInputSettingsChangeIsReleasedAndTheNewFilterApplies() throws {
        var session = ScanSession(scene: try Self.scene(), settings: try Self.settings([("scanning", .string("manual"))]))
        _ = session.start()
        _ = session.input(SwitchEdge(switchID: "next", kind: .down, time: 1.0))
        #expect(session.focusID == "btn-1")
        // holdDuration 0.5 s from now on: the held switch is released at the change.
        let trace = session.updateSettings(try Self.settings([("scanning", .string("manual")), ("holdDuration", .number(0.5))]))
        #expect(session.settings.holdDuration == 0.5)
        // Its release comes later and is not a second press.
        _ = session.input(SwitchEdge(switchID: "next", kind: .up, time: 1.2))
        #expect(session.focusID == "btn-1", "\(trace)")
        // A short press no longer counts; one held 0.5 s does.
        _ = session.input(SwitchEdge(switchID: "next", kind: .down, time: 2.0))
        _ = session.input(SwitchEdge(switchID: "next", kind: .up, time: 2.2))
        #expect(session.focusID == "btn-1")
        _ = session.input(SwitchEdge(switchID: "next", kind: .down, time: 3.0))
        _ = session.advance(to: 3.6)
        #expect(session.focusID == "btn-2")
    }
}
