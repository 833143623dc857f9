import AccessibilityModel
import DeviceProfiles
import Scanning
import Scenes
import SwitchInput
import Testing

// Scripted `key:` steps go through a switch profile and the session's stabilisation, as a
// device's events do in `switchscan run`: another profile than the generic keyboard (the
// runner's default, or a test's own `profile:`), long-press actions, pulse-only interfaces, and
// what happens when the profile cannot be had.
@Suite struct ScriptProfileTests {
    /// A two-switch interface sending joystick buttons 0 and 1 (`BTN_0`, `BTN_1`).
    static let twoSwitch = SwitchProfile(
        name: "Two-switch interface", matching: .manual,
        switches: [
            .init(id: "jack-1", code: KeyCodes.code(named: "BTN_0")!, action: .select),
            .init(id: "jack-2", code: KeyCodes.code(named: "BTN_1")!, action: .next),
        ],
        file: "profiles/two-switch.yaml")

    /// Keys 1 and 2; key 1 opens the scanner menu when held (with the `longPress` setting on).
    static let longPress = SwitchProfile(
        name: "Keys 1 and 2, long press", matching: .manual,
        switches: [
            .init(id: "key-1", code: KeyCodes.code(named: "KEY_1")!, action: .next, longPressAction: .menu),
            .init(id: "key-2", code: KeyCodes.code(named: "KEY_2")!, action: .select),
        ],
        file: "profiles/long-press.yaml")

    /// A pulse-mode interface: one pulse per press, no release timing.
    static let pulses = SwitchProfile(
        name: "Pulse interface", matching: .manual, pulseOnly: true,
        switches: [.init(id: "key-1", code: KeyCodes.code(named: "KEY_1")!, action: .next)],
        file: "profiles/pulses.yaml")

    /// Runs the scene's only test with `profile` as the runner's default, and `testProfiles`.
    static func run(
        _ tests: String, profile: SwitchProfile = .builtInGenericKeyboard,
        testProfiles: [String: Result<SwitchProfile, ProfileLookupError>] = [:],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> ScriptResult {
        let scene = try RunnerSupport.scene(tests: tests, sourceLocation: sourceLocation)
        try #require(scene.tests.count == 1, sourceLocation: sourceLocation)
        return ScriptRunner(scene: scene, profile: profile, testProfiles: testProfiles).run(scene.tests[0])
    }

    static func expectPass(
        _ result: ScriptResult, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        if let failure = result.failure {
            Issue.record("the test failed:\n\(failure.report)", sourceLocation: sourceLocation)
        }
    }

    @Test("the runner's profile (switchscan test --profile): BTN_0 and BTN_1 of a two-switch interface select and move")
    func runnersProfile() throws {
        let result = try Self.run("""
              - name: jack 2 moves, jack 1 selects
                settings: {scanning: manual, groupItems: false, tapBehavior: alwaysTap}
                steps:
                  - key: {code: BTN_1, value: 1}
                  - wait: 0.1
                  - key: {code: BTN_1, value: 0}
                  - expect: {focus: three}
                  - wait: 0.1
                  - key: {code: BTN_0, value: 1}
                  - wait: 0.1
                  - key: {code: BTN_0, value: 0}
                  - expect: {state: {lastTapped: Three}, announcement: Three tapped, focus: wrap}
                  - press: next
                  - expect: {focus: wrap, braille: "One, Two grp"}
                  - press: next
                  - expect: {focus: three}
            """, profile: Self.twoSwitch)
        Self.expectPass(result)
        let lines = RunnerSupport.lines(result)
        #expect(lines.contains("0.000 input jack-2 down"), "\(lines)")
        #expect(lines.contains("0.200 input jack-1 down"), "\(lines)")
        // The generic keyboard's keys are not switches of this interface.
        let failure = try #require(try Self.run("""
              - name: Space is not a switch here
                steps:
                  - key: {code: KEY_SPACE, value: 1}
            """, profile: Self.twoSwitch).failure)
        #expect(failure.message == """
            inline.yaml:24:9: test "Space is not a switch here": step 1 (key): KEY_SPACE is not a key of the switch profile \
            two-switch (profiles/two-switch.yaml); its keys are BTN_0 (jack-1: select), BTN_1 (jack-2: next)
            """)
    }

    @Test("a test's own profile: wins over the runner's; another test of the scene keeps the runner's")
    func testsOwnProfile() throws {
        let scene = try RunnerSupport.scene(tests: """
              - name: through the two-switch interface
                profile: two-switch.yaml
                settings: {scanning: manual, groupItems: false}
                steps:
                  - key: {code: BTN_1, value: 1}
                  - expect: {focus: three}
              - name: through the generic keyboard
                settings: {scanning: manual, groupItems: false}
                steps:
                  - key: {code: KEY_ENTER, value: 1}
                  - expect: {focus: three}
            """)
        let runner = ScriptRunner(scene: scene, testProfiles: ["two-switch.yaml": .success(Self.twoSwitch)])
        #expect(runner.profileNames == ["two-switch.yaml"])
        let results = runner.runAll()
        #expect(results.count == 2)
        for result in results { Self.expectPass(result) }
        #expect(RunnerSupport.lines(results[0]).contains("0.000 input jack-2 down"))
        #expect(RunnerSupport.lines(results[1]).contains("0.000 input enter down"))
    }

    @Test("a test's profile: that the host could not find or read fails the test at that line, before any step")
    func missingProfile() throws {
        let tests = """
              - name: an interface of no file
                profile: nowhere.yaml
                steps:
                  - key: {code: BTN_1, value: 1}
            """
        let notFound = try #require(try Self.run(
            tests, testProfiles: ["nowhere.yaml": .failure(ProfileLookupError("scenes/nowhere.yaml: no such file"))]).failure)
        #expect(notFound.message == """
            inline.yaml:23:14: test "an interface of no file": profile 'nowhere.yaml': scenes/nowhere.yaml: no such file
            """)
        #expect(notFound.stepIndex == nil)
        // A host that did not look it up at all.
        let notLookedUp = try #require(try Self.run(tests).failure)
        #expect(notLookedUp.message.hasSuffix("profile 'nowhere.yaml': it was not looked up (the host gave no profile by that name)"))
    }

    @Test("profile: is read with its position; an empty one is a load error at its line and column")
    func profileKeyIsRead() throws {
        let scene = try RunnerSupport.scene(tests: """
              - name: own profile
                profile: ../profiles/two-switch.yaml
                steps:
                  - wait: 0
            """)
        let reference = try #require(scene.tests.first?.profile)
        #expect(reference.name == "../profiles/two-switch.yaml")
        #expect(reference.location == Scenes.SourceLocation(file: "inline.yaml", line: 23, column: 14))
        let text = RunnerSupport.base + "\ntests:\n" + """
              - name: empty profile
                profile: ""
                steps:
                  - wait: 0
            """
        do {
            _ = try SceneParser.parse(yaml: text, file: "inline.yaml")
            Issue.record("an empty profile: loaded")
        } catch {
            #expect(error.problems.map(\.description) == [
                "inline.yaml:23:14: error: profile needs a switch profile: a file (relative to the scene file) or a profile's id",
            ])
        }
    }

    @Test("long press from the profile: a short press of key 1 moves, a held one opens the menu (longPress on)")
    func longPressAction() throws {
        let result = try Self.run("""
              - name: key 1 short then long
                settings: {scanning: manual, groupItems: false, longPress: 1.0}
                steps:
                  - key: {code: KEY_1, value: 1}
                  - wait: 0.2
                  - expect: {focus: wrap}
                  - key: {code: KEY_1, value: 0}
                  - expect: {focus: three}
                  - wait: 0.2
                  - key: {code: KEY_1, value: 1}
                  - wait: 0.99
                  - expect: {focus: three}
                  - wait: 0.01
                  - expect: {menu: [Tap, Exit menu], menuFocus: Tap}
                  - wait: 0.5
                  - key: {code: KEY_1, value: 0}
                  - expect: {menu: [Tap, Exit menu]}
            """, profile: Self.longPress)
        Self.expectPass(result)
        // Without the longPress setting, key 1 acts on press.
        let off = try Self.run("""
              - name: key 1 acts on press
                settings: {scanning: manual, groupItems: false}
                steps:
                  - key: {code: KEY_1, value: 1}
                  - expect: {focus: three}
            """, profile: Self.longPress)
        Self.expectPass(off)
    }

    @Test("pulse-only from the profile: key 1 acts on its down, its ups are dropped, holdDuration does not apply; press: still obeys it")
    func pulseOnly() throws {
        let result = try Self.run("""
              - name: pulses
                settings: {scanning: manual, groupItems: false, holdDuration: 0.3}
                steps:
                  - key: {code: KEY_1, value: 1}
                  - expect: {focus: three}
                  - key: {code: KEY_1, value: 0}
                  - wait: 0.1
                  - key: {code: KEY_1, value: 1}
                  - expect: {focus: dial}
                  - press: next
                  - expect: {focus: go}
            """, profile: Self.pulses)
        Self.expectPass(result)
        let lines = RunnerSupport.lines(result)
        #expect(lines.contains("0.000 input key-1 up rejected (pulseRelease)"), "\(lines)")
        // The same key through a profile that is not pulse-only: released before holdDuration.
        var held = Self.pulses
        held.pulseOnly = false
        let notPulse = try Self.run("""
              - name: not pulses
                settings: {scanning: manual, groupItems: false, holdDuration: 0.3}
                steps:
                  - key: {code: KEY_1, value: 1}
                  - wait: 0.1
                  - key: {code: KEY_1, value: 0}
                  - expect: {focus: wrap}
            """, profile: held)
        Self.expectPass(notPulse)
        #expect(RunnerSupport.lines(notPulse).contains("0.100 input key-1 up rejected (releasedBeforeHoldDuration)"))
    }

    @Test("a profile switch named like a virtual switch gets its profile's prefix; press: select still selects")
    func switchIdsDoNotCollide() throws {
        let clash = SwitchProfile(
            name: "Clash", matching: .manual,
            switches: [.init(id: "select", code: KeyCodes.code(named: "KEY_1")!, action: .next)],
            file: "profiles/clash.yaml")
        let result = try Self.run("""
              - name: the profile's select moves, the virtual select selects
                settings: {scanning: manual, groupItems: false}
                steps:
                  - key: {code: KEY_1, value: 1}
                  - wait: 0.1
                  - key: {code: KEY_1, value: 0}
                  - expect: {focus: three}
                  - press: select
                  - expect: {menu: [Tap, Exit menu]}
            """, profile: clash)
        Self.expectPass(result)
        #expect(RunnerSupport.lines(result).contains("0.000 input clash:select down"))
    }
}
