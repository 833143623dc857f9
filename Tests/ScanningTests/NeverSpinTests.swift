import AccessibilityModel
import Scanning
import Scenes
import Testing

/// Defence in depth behind the settings' ranges: a time that slipped through (set directly
/// here, as no file or option can) never keeps the session or a scripted test spinning.
@Suite("The session never spins")
struct NeverSpinTests {
    /// Two buttons, and `tests` (the `tests:` list's lines).
    static func scene(tests: String) -> String {
        """
        scene: Spin
        size: [100, 100]
        start: main
        screens:
          main:
            elements:
              - {id: a, label: A, traits: [button], frame: [0, 0, 50, 50]}
              - {id: b, label: B, traits: [button], frame: [50, 0, 50, 50]}
        tests:
        \(tests)

        """
    }

    static let yaml = scene(tests: """
          - name: waits ten seconds
            steps:
              - wait: 10
              - expect: {scanning: running}
        """)

    static func tinySteps() -> ScanSettings {
        var settings = ScanSettings()
        settings.autoScanningTime = 1e-6
        settings.loops = 1_000_000_000
        return settings
    }

    @Test("one advance fires at most maxTimersPerAdvance timers, then gives control back")
    func advanceIsBounded() throws {
        let scene = try SceneParser.parse(yaml: Self.yaml, file: "spin.yaml")
        var session = ScanSession(scene: scene, settings: Self.tinySteps())
        _ = session.start()
        let trace = session.advance(to: 10)
        #expect(session.timerLimitReached)
        #expect(session.time < 1, "stopped after 100000 steps of 1 µs, not at the 10 s asked for")
        #expect(trace.count < 4 * ScanSession.maxTimersPerAdvance)
    }

    @Test("a scripted test under such a setting fails, saying why, instead of running for ever")
    func scriptedTestFails() throws {
        let scene = try SceneParser.parse(yaml: Self.yaml, file: "spin.yaml")
        var runner = ScriptRunner(scene: scene)
        runner.baseSettings = Self.tinySteps()
        let result = runner.runAll()
        let failure = try #require(result.first?.failure)
        #expect(failure.stepNumber == 1)
        #expect(failure.cause == .step("more than 100000 timers fired at once; the scanner cannot honour timers this close together (a time setting too small?)"))
    }

    @Test("settings given by name are range-checked before they reach the engine (ScanSettings.set)")
    func setChecksRanges() {
        var settings = ScanSettings()
        func refusal(_ name: String, _ value: Double) -> String? {
            do {
                try settings.set(name, .number(value))
                return nil
            } catch {
                return error.description
            }
        }
        #expect(refusal("loops", 1e300) == "setting 'loops': expects a whole number from 1 to 100; found 1e+300")
        #expect(refusal("autoScanningTime", 1e-6) == "setting 'autoScanningTime': expects a number of seconds from 0.1 to 600; found 1e-06")
        #expect(settings.loops == 4 && settings.autoScanningTime == 1, "the previous values stay")
    }
}

@Suite("A scripted test's trace is bounded")
struct TraceBoundTests {
    @Test("a test of many long holds with a fast move repeat fails past maxTraceEvents, at the step that passed it")
    func manyHolds() throws {
        // Each hold: an hour of moves every 0.05 s, 72 000 events; 15 of them pass a million.
        let steps = Array(repeating: "      - hold: {switch: next, seconds: 3600}", count: 20).joined(separator: "\n")
        let yaml = NeverSpinTests.scene(tests: """
              - name: holds
                settings: {scanning: manual, moveRepeat: 0.05, groupItems: false}
                steps:
            \(steps)
            """)
        let scene = try SceneParser.parse(yaml: yaml, file: "holds.yaml")
        let result = ScriptRunner(scene: scene).runAll()
        let failure = try #require(result.first?.failure)
        #expect(failure.cause == .step("the test's trace passed 1000000 events; split it into shorter tests"))
        #expect((failure.stepNumber ?? 0) > 1 && (failure.stepNumber ?? 99) < 20, "stopped at the step that passed the bound: \(failure.stepNumber ?? 0)")
        #expect(result.first!.trace.count <= ScriptRunner.maxTraceEvents + 100_000)
    }
}
