import AccessibilityModel
import DeviceProfiles
@testable import Scanning
import Scenes
import SwitchInput
import Testing

// ScriptRunner: scene tests run in virtual time on a fresh ScanSession. Passing scripts for every
// step kind, and mistaken expectations that must fail with the exact message.

enum RunnerSupport {
    static let file = "inline.yaml"

    /// A scene of 20 lines; the tests given follow `tests:` on line 21, so a test's first line
    /// (`  - name: …`) is line 22, its `settings` line 23, `steps:` line 24 and its first step
    /// line 25 (column 9, where the step's key starts).
    static let base = """
        scene: Runner
        description: the script runner's scene
        size: [390, 844]
        state: {lastTapped: "", level: 5}
        start: main
        screens:
          main:
            elements:
              - id: wrap
                frame: [20, 100, 350, 44]
                navigationStyle: combined
                elements:
                  - {id: one, label: One, traits: [button], frame: [20, 100, 170, 44], activate: [{set: {lastTapped: One}}]}
                  - {id: two, label: Two, traits: [button], frame: [200, 100, 170, 44], activate: [{set: {lastTapped: Two}}]}
              - {id: three, label: Three, traits: [button], frame: [20, 180, 350, 44], activate: [{set: {lastTapped: Three}}, {announce: Three tapped}]}
              - {id: dial, label: Level, value: "{level}", traits: [adjustable], frame: [20, 240, 350, 44], increment: [{add: {level: 1, max: 10}}], decrement: [{add: {level: -1, min: 0}}]}
              - {id: go, label: Go, traits: [button], frame: [20, 300, 350, 44], activate: [{go: other}]}
          other:
            elements:
              - {id: back, label: Back, traits: [button], frame: [20, 100, 350, 44], activate: [{go: main}]}
        """

    /// The scene with `tests` (YAML list entries, indented by two spaces) after `tests:`.
    static func scene(
        tests: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> Scene {
        let text = base + "\ntests:\n" + tests
        do {
            return try SceneParser.parse(yaml: text, file: file)
        } catch {
            Issue.record("the scene did not load:\n\(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    /// Runs the scene's only test.
    static func run(_ tests: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ScriptResult {
        let scene = try scene(tests: tests, sourceLocation: sourceLocation)
        try #require(scene.tests.count == 1, sourceLocation: sourceLocation)
        return ScriptRunner(scene: scene).run(scene.tests[0])
    }

    /// Runs the scene's only test and expects it to pass (its failure report is the issue).
    @discardableResult
    static func expectPass(_ tests: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ScriptResult {
        let result = try run(tests, sourceLocation: sourceLocation)
        if let failure = result.failure {
            Issue.record("the test failed:\n\(failure.report)", sourceLocation: sourceLocation)
        }
        return result
    }

    /// Runs the scene's only test and returns its failure (an issue when it passes).
    static func expectFailure(_ tests: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ScriptFailure {
        let result = try run(tests, sourceLocation: sourceLocation)
        return try #require(result.failure, "the test passed; expected it to fail", sourceLocation: sourceLocation)
    }

    static func lines(_ result: ScriptResult) -> [String] {
        result.trace.map(ScriptRunner.describe)
    }
}

@Suite struct ScriptRunnerTests {
    // MARK: Passing scripts

    @Test("auto scanning: a combined group is entered, its second item tapped (the contract's example)")
    func autoScanningCombinedGroup() throws {
        let result = try RunnerSupport.expectPass("""
              - name: a combined group is entered, then Two is tapped
                settings: {scanning: auto, autoScanningTime: 1.0, tapBehavior: alwaysTap, groupItems: false}
                steps:
                  - expect: {focus: wrap, braille: "One, Two grp", scanning: running, screen: main}
                  - press: select
                  - expect: {focus: one, braille: One btn}
                  - wait: 1.0
                  - expect: {focus: two, braille: Two btn}
                  - press: select
                  - expect: {state: {lastTapped: Two}, focus: wrap, screen: main}
            """)
        #expect(result.passed)
        #expect(result.testName == "a combined group is entered, then Two is tapped")
        #expect(result.location == Scenes.SourceLocation(file: "inline.yaml", line: 22, column: 5))
        #expect(abs(result.endTime - 1.1) < 1e-9, "0.05 s press, 1 s wait, 0.05 s press")
        let lines = RunnerSupport.lines(result)
        #expect(lines.first == "0.000 screen main")
        #expect(lines.contains("1.000 highlight two \"Two\""))
        #expect(lines.contains("1.050 perform activate on two"))
    }

    @Test("the runner drives the session through its public API only: the same trace as by hand")
    func sameTraceAsDrivingTheSessionByHand() throws {
        let scene = try RunnerSupport.scene(tests: """
              - name: by hand
                settings: {scanning: auto, tapBehavior: alwaysTap, groupItems: false}
                steps:
                  - press: select
                  - wait: 1.0
                  - press: select
            """)
        let result = ScriptRunner(scene: scene).run(scene.tests[0])
        var settings = ScanSettings()
        try settings.set("scanning", .string("auto"))
        try settings.set("tapBehavior", .string("alwaysTap"))
        try settings.set("groupItems", .bool(false))
        var session = ScanSession(scene: scene, settings: settings)
        let released = 0.0 + 0.05, waited = released + 1.0
        var trace = session.start()
        trace += session.input(SwitchEdge(switchID: "select", kind: .down, time: 0))
        trace += session.input(SwitchEdge(switchID: "select", kind: .up, time: released))
        trace += session.advance(to: waited)
        trace += session.input(SwitchEdge(switchID: "select", kind: .down, time: waited))
        trace += session.input(SwitchEdge(switchID: "select", kind: .up, time: waited + 0.05))
        #expect(result.trace == trace)
        #expect(result.passed)
    }

    @Test("manual scanning: the menu, its focus, Tap, and the announcement it flashes")
    func menuAndAnnouncement() throws {
        try RunnerSupport.expectPass("""
              - name: Three is tapped from the menu
                settings: {scanning: manual, groupItems: false}
                steps:
                  - press: next
                  - expect: {focus: three, braille: Three btn}
                  - press: select
                  - expect: {menu: [Tap, Exit menu], menuFocus: Tap, braille: "Tap 1/2: Three btn", focus: three}
                  - press: next
                  - expect: {menuFocus: Exit menu}
                  - press: previous
                  - expect: {menuFocus: Tap}
                  - press: select
                  - expect: {announcement: Three tapped, braille: Three tapped, state: {lastTapped: Three}, focus: wrap}
                  - wait: 4
                  - expect: {braille: "One, Two grp", announcement: Three tapped}
            """)
    }

    @Test("an adjustable element's menu stays open after Increment; the menu switch closes it")
    func adjustableMenu() throws {
        try RunnerSupport.expectPass("""
              - name: the level is raised twice
                settings: {scanning: manual, groupItems: false}
                steps:
                  - press: next
                  - press: next
                  - expect: {focus: dial, braille: Level 5 sldr}
                  - press: select
                  - expect: {menu: [Tap, Increment, Decrement, Exit menu], menuFocus: Tap}
                  - press: next
                  - press: select
                  - press: select
                  - expect: {state: {level: 7}, menuFocus: Increment, braille: "Increment 2/4: Level 7 sldr"}
                  - press: menu
                  - expect: {focus: dial, scanning: running}
            """)
    }

    /// An Increment in the open menu refreshes the structure: the highlighted node must be the
    /// updated element once the menu closes (this once showed the old value, `Level 5 sldr`).
    @Test("a test may start on another screen than the scene's start")
    func startsOnTheTestsScreen() throws {
        try RunnerSupport.expectPass("""
              - name: starts on other
                screen: other
                settings: {scanning: manual}
                steps:
                  - expect: {screen: other, focus: back, braille: Back btn}
            """)
    }

    @Test("after adjusting in the menu and closing it, the braille line shows the new value")
    func adjustedValueAfterTheMenuCloses() throws {
        let result = try RunnerSupport.run("""
              - name: the new level is shown
                settings: {scanning: manual, groupItems: false}
                steps:
                  - press: next
                  - press: next
                  - press: select
                  - press: next
                  - press: select
                  - press: menu
                  - expect: {focus: dial, state: {level: 6}, braille: Level 6 sldr}
            """)
        #expect(result.failure == nil, "\(result.failure?.report ?? "")")
    }

    @Test("a press of the same switch right after another is not contact bounce: it starts when the window ends")
    func consecutivePressesAreNotBounce() throws {
        let result = try RunnerSupport.expectPass("""
              - name: two moves
                settings: {scanning: manual, groupItems: false}
                steps:
                  - press: next
                  - press: next
                  - expect: {focus: dial}
            """)
        let lines = RunnerSupport.lines(result)
        #expect(!lines.contains { $0.contains("rejected") }, "\(lines)")
        #expect(lines.contains("0.000 input next down"))
        #expect(lines.contains("0.050 input next up"))
        #expect(lines.contains("0.075 input next down"), "25 ms (debounceTime) after the release")
        #expect(abs(result.endTime - 0.125) < 1e-9)
    }

    @Test("tap on a button that goes to another screen")
    func screenChange() throws {
        try RunnerSupport.expectPass("""
              - name: Go opens the other screen
                settings: {scanning: manual, groupItems: false}
                steps:
                  - press: next
                  - press: next
                  - press: next
                  - expect: {focus: go}
                  - press: tap
                  - expect: {screen: other, focus: back, braille: Back btn}
            """)
    }

    @Test("hold: timers fire while the switch is down (moveRepeat)")
    func holdWithMoveRepeat() throws {
        let result = try RunnerSupport.expectPass("""
              - name: holding next moves twice
                settings: {scanning: manual, groupItems: false, moveRepeat: 0.5}
                steps:
                  - hold: {switch: next, seconds: 0.7}
                  - expect: {focus: dial}
            """)
        let lines = RunnerSupport.lines(result)
        #expect(lines.contains("0.000 highlight three \"Three\""))
        #expect(lines.contains("0.500 highlight dial \"Level\""))
        #expect(lines.contains("0.700 input next up"))
        #expect(abs(result.endTime - 0.7) < 1e-9)
    }

    @Test("with holdDuration, a short hold does nothing and a press lasts holdDuration + 0.05 s")
    func holdDuration() throws {
        let result = try RunnerSupport.expectPass("""
              - name: a brush is filtered, a press counts
                settings: {scanning: manual, groupItems: false, holdDuration: 0.3}
                steps:
                  - hold: {switch: next, seconds: 0.2}
                  - expect: {focus: wrap}
                  - press: next
                  - expect: {focus: three}
            """)
        let lines = RunnerSupport.lines(result)
        #expect(lines.contains("0.200 input next up rejected (releasedBeforeHoldDuration)"), "\(lines)")
        var settings = ScanSettings()
        #expect(ScriptRunner.pressDuration(for: settings) == 0.05)
        settings.holdDuration = 0.3
        #expect(abs(ScriptRunner.pressDuration(for: settings) - 0.35) < 1e-12)
        // The press starts at 0.225 (the debounce window after the release at 0.2) and lasts 0.35 s.
        #expect(abs(result.endTime - 0.575) < 1e-9)
    }

    @Test("key: raw evdev events through the generic keyboard profile and the stabiliser; autorepeat is dropped")
    func keys() throws {
        let result = try RunnerSupport.expectPass("""
              - name: Enter moves, Space selects, Enter moves in the menu, Space leaves it
                settings: {scanning: manual, groupItems: false}
                steps:
                  - key: {code: KEY_ENTER, value: 1}
                  - expect: {focus: three}
                  - wait: 0.5
                  - key: {code: KEY_ENTER, value: 2}
                  - expect: {focus: three}
                  - wait: 0.1
                  - key: {code: KEY_ENTER, value: 0}
                  - wait: 0.1
                  - key: {code: KEY_SPACE, value: 1}
                  - expect: {menu: [Tap, Exit menu], menuFocus: Tap}
                  - wait: 0.1
                  - key: {code: KEY_SPACE, value: 0}
                  - key: {code: KEY_ENTER, value: 1}
                  - expect: {menuFocus: Exit menu}
                  - wait: 0.1
                  - key: {code: KEY_ENTER, value: 0}
                  - key: {code: KEY_SPACE, value: 1}
                  - wait: 0.1
                  - key: {code: KEY_SPACE, value: 0}
                  - expect: {focus: three}
            """)
        let lines = RunnerSupport.lines(result)
        // The profile's own switch ids, as `switchscan run` shows a device's.
        #expect(lines.contains("0.000 input enter down"), "\(lines)")
        #expect(lines.contains("0.500 input enter repeat rejected (autorepeat)"), "\(lines)")
        #expect(lines.contains("0.700 input space down"), "\(lines)")
        #expect(lines.contains("0.900 menu closed"), "\(lines)")
    }

    @Test("key: a down and its up at the same instant is contact bounce, as from a device")
    func keyBounce() throws {
        let result = try RunnerSupport.expectPass("""
              - name: the up is accepted when the debounce window ends
                settings: {scanning: manual, groupItems: false}
                steps:
                  - key: {code: KEY_ENTER, value: 1}
                  - key: {code: KEY_ENTER, value: 0}
                  - wait: 0.1
                  - key: {code: KEY_ENTER, value: 1}
                  - expect: {focus: dial}
            """)
        let lines = RunnerSupport.lines(result)
        #expect(lines.contains("0.000 input enter up rejected (bounce)"), "\(lines)")
        #expect(lines.contains("0.100 input enter down"), "\(lines)")
    }

    @Test("route: a routing key within the braille line selects what is highlighted")
    func route() throws {
        try RunnerSupport.expectPass("""
              - name: routing enters the group, then taps One
                settings: {scanning: auto, tapBehavior: alwaysTap, groupItems: false}
                steps:
                  - expect: {braille: "One, Two grp"}
                  - route: 11
                  - expect: {focus: one, braille: One btn}
                  - route: 0
                  - expect: {state: {lastTapped: One}}
            """)
    }

    @Test("scanning stops after its loops, and any switch starts it again; the stop switch pauses")
    func scanningStatus() throws {
        try RunnerSupport.expectPass("""
              - name: loops run out
                settings: {scanning: auto, loops: 1, groupItems: false}
                steps:
                  - wait: 3.5
                  - expect: {focus: go, scanning: running}
                  - wait: 1
                  - expect: {scanning: stopped, braille: scanning stopped}
                  - press: next
                  - expect: {scanning: running, focus: wrap}
                  - press: stop
                  - expect: {scanning: stopped, focus: wrap}
                  - wait: 5
                  - expect: {focus: wrap}
                  - press: stop
                  - expect: {scanning: running}
            """)
    }

    @Test("runAll runs every test of a scene, each on a fresh session")
    func runAll() throws {
        let scene = try RunnerSupport.scene(tests: """
              - name: first
                settings: {scanning: manual, groupItems: false}
                steps:
                  - press: next
                  - expect: {focus: three}
              - name: second starts afresh
                settings: {groupItems: false}
                steps:
                  - expect: {focus: wrap, state: {lastTapped: ""}}
            """)
        let results = ScriptRunner(scene: scene).runAll()
        #expect(results.map(\.testName) == ["first", "second starts afresh"])
        #expect(results.allSatisfy { $0.passed }, "\(results.compactMap(\.failure))")
    }

    // MARK: Failures

    @Test("a mistaken focus fails with file:line:column, the step's number and kind, found and expected")
    func mistakenFocus() throws {
        let failure = try RunnerSupport.expectFailure("""
              - name: a combined group is entered
                settings: {scanning: auto, autoScanningTime: 1.0, tapBehavior: alwaysTap, groupItems: false}
                steps:
                  - expect: {focus: wrap}
                  - press: select
                  - expect: {focus: one}
                  - wait: 0.5
                  - expect: {focus: two, braille: Two btn}
                  - press: select
            """)
        #expect(failure.message == """
            inline.yaml:29:9: test "a combined group is entered": step 5 (expect): focus is 'one', expected 'two'; \
            braille is 'One btn', expected 'Two btn'
            """)
        #expect(failure.stepIndex == 4)
        #expect(failure.stepNumber == 5)
        #expect(failure.stepKind == "expect")
        #expect(failure.location == Scenes.SourceLocation(file: "inline.yaml", line: 29, column: 9))
        #expect(failure.mismatches == [
            Mismatch(key: "focus", expected: "'two'", actual: "'one'"),
            Mismatch(key: "braille", expected: "'Two btn'", actual: "'One btn'"),
        ])
        // The trace up to the failure: the select that entered the group, and nothing after.
        #expect(failure.recentTrace.count <= 10)
        #expect(failure.recentTrace.contains("0.000 highlight one \"One\""), "\(failure.recentTrace)")
        #expect(failure.recentTrace.suffix(2) == ["0.050 input select up", "0.050 ended select (select)"])
        #expect(failure.report.hasPrefix(failure.message + "\n  recent trace:\n    "))
        #expect(failure.report.split(separator: "\n").count == failure.recentTrace.count + 2)
    }

    @Test("every mismatch of one expect step is reported together, in the order of the keys")
    func allMismatches() throws {
        let failure = try RunnerSupport.expectFailure("""
              - name: everything is wrong
                steps:
                  - expect: {focus: three, braille: Three btn, menu: [Tap, Exit menu], menuFocus: Tap, screen: other, state: {lastTapped: Nobody, level: 6}, announcement: hi, scanning: stopped}
            """)
        #expect(failure.message == """
            inline.yaml:24:9: test "everything is wrong": step 1 (expect): focus is 'wrap', expected 'three'; \
            braille is 'One, Two grp', expected 'Three btn'; menu is not open, expected ['Tap', 'Exit menu']; \
            menuFocus is none (no menu is open), expected 'Tap'; screen is 'main', expected 'other'; \
            state.lastTapped is '', expected 'Nobody'; state.level is 5, expected 6; \
            announcement is none, expected 'hi'; scanning is running, expected stopped
            """)
        #expect(failure.mismatches.map(\.key) == [
            "focus", "braille", "menu", "menuFocus", "screen", "state.lastTapped", "state.level", "announcement", "scanning",
        ])
    }

    @Test("a wrong menu, and a focus expected while the scanner menu button is highlighted")
    func wrongMenuAndMenuButton() throws {
        let menu = try RunnerSupport.expectFailure("""
              - name: the menu has no Increment
                settings: {scanning: manual, groupItems: false}
                steps:
                  - press: next
                  - press: select
                  - expect: {menu: [Tap, Increment, Exit menu], menuFocus: Exit menu}
            """)
        #expect(menu.message == """
            inline.yaml:27:9: test "the menu has no Increment": step 3 (expect): \
            menu is ['Tap', 'Exit menu'], expected ['Tap', 'Increment', 'Exit menu']; menuFocus is 'Tap', expected 'Exit menu'
            """)
        let button = try RunnerSupport.expectFailure("""
              - name: the cycle ends on the menu button
                settings: {scanning: auto, tapBehavior: alwaysTap, groupItems: false}
                steps:
                  - wait: 4
                  - expect: {focus: go}
            """)
        #expect(button.message == """
            inline.yaml:26:9: test "the cycle ends on the menu button": step 2 (expect): \
            focus is none (the scanner menu button is highlighted), expected 'go'
            """)
    }

    @Test("menu: [] expects no menu open, and fails with the entries of one that is")
    func noMenuOpen() throws {
        let failure = try RunnerSupport.expectFailure("""
              - name: the menu is open
                settings: {scanning: manual, groupItems: false}
                steps:
                  - expect: {menu: []}
                  - press: next
                  - press: select
                  - expect: {menu: []}
            """)
        #expect(failure.stepIndex == 3, "the first expect passed: \(failure.message)")
        #expect(failure.mismatches == [Mismatch(key: "menu", expected: "not open", actual: "['Tap', 'Exit menu']")])
    }

    @Test("route beyond the braille line fails, saying how long the line is")
    func routeBeyondTheLine() throws {
        let failure = try RunnerSupport.expectFailure("""
              - name: routing off the line
                steps:
                  - route: 12
            """)
        #expect(failure.message == """
            inline.yaml:24:9: test "routing off the line": step 1 (route): cell 12 is beyond the braille line: \
            the braille line has 12 cells ('One, Two grp'); cells are numbered from 0
            """)
        #expect(failure.mismatches.isEmpty)
        #expect(failure.cause == .step("cell 12 is beyond the braille line: the braille line has 12 cells ('One, Two grp'); cells are numbered from 0"))

        let empty = try RunnerSupport.expectFailure("""
              - name: routing while scanning is stopped
                settings: {scanning: auto, loops: 1, groupItems: false}
                steps:
                  - wait: 10
                  - route: 16
            """)
        // Stopped, the display says so (never blank, which reads as a dead display).
        #expect(empty.message == """
            inline.yaml:26:9: test "routing while scanning is stopped": step 2 (route): cell 16 is beyond the braille line: \
            the braille line has 16 cells ('scanning stopped'); cells are numbered from 0
            """)
    }

    @Test("a key code that the profile does not have fails, naming the step and the profile's keys")
    func unknownKey() throws {
        let failure = try RunnerSupport.expectFailure("""
              - name: a key of no switch
                steps:
                  - key: {code: KEY_A, value: 1}
            """)
        #expect(failure.message == """
            inline.yaml:24:9: test "a key of no switch": step 1 (key): KEY_A is not a key of the switch profile \
            generic-keyboard (built in); its keys are KEY_SPACE (space: select), KEY_ENTER (enter: next)
            """)
        let notAKey = try RunnerSupport.expectFailure("""
              - name: a name no key has
                steps:
                  - key: {code: KEY_NOSUCHKEY, value: 1}
            """)
        #expect(notAKey.message.hasPrefix("""
            inline.yaml:24:9: test "a name no key has": step 1 (key): KEY_NOSUCHKEY is not an evdev key name this program \
            knows; the switch profile generic-keyboard (built in) has KEY_SPACE (space: select), KEY_ENTER (enter: next)
            """), "\(notAKey.message)")
    }

    @Test("a setting that cannot be applied fails the test at the setting, before any step")
    func settingErrors() throws {
        let scene = try RunnerSupport.scene(tests: """
              - name: settings
                settings: {scanning: manual}
                steps:
                  - press: next
            """)
        var test = scene.tests[0]
        let at = Scenes.SourceLocation(file: "inline.yaml", line: 23, column: 25)
        test.settings.append((name: "autoScanningTime", value: .number(-1), location: at))
        var result = ScriptRunner(scene: scene).run(test)
        var failure = try #require(result.failure)
        #expect(failure.message == """
            inline.yaml:23:25: test "settings": setting 'autoScanningTime': expects a number of seconds from 0.1 to 600; found -1
            """)
        #expect(failure.stepIndex == nil)
        #expect(failure.stepNumber == nil)
        #expect(failure.location == at)
        #expect(failure.cause == .setting(name: "autoScanningTime", message: "expects a number of seconds from 0.1 to 600; found -1"))
        #expect(failure.recentTrace.isEmpty)
        #expect(failure.report == failure.message)
        #expect(result.trace.isEmpty, "no session was started")

        test = scene.tests[0]
        test.settings.insert((name: "bogus", value: .bool(true), location: at), at: 0)
        result = ScriptRunner(scene: scene).run(test)
        failure = try #require(result.failure)
        #expect(failure.message == "inline.yaml:23:25: test \"settings\": setting 'bogus': unknown setting")
    }

    @Test("trace lines")
    func traceLines() {
        let events: [(TraceEvent.Kind, String)] = [
            (.screen(name: "main"), "screen main"),
            (.highlight(id: "one", label: "One"), "highlight one \"One\""),
            (.highlight(id: "x", label: nil), "highlight x"),
            (.highlight(id: nil, label: nil), "highlight none"),
            (.menu(entries: ["Tap", "Exit menu"], focus: 1), "menu ['Tap', 'Exit menu'] focus 'Exit menu'"),
            (.menu(entries: [], focus: nil), "menu closed"),
            (.perform(id: "one", action: "activate"), "perform activate on one"),
            (.perform(id: nil, action: "escape"), "perform escape on the screen"),
            (.announcement(text: "Saved"), "announcement 'Saved'"),
            (.braille(text: "One btn"), "braille 'One btn'"),
            (.input(switchID: "select", edge: "down", accepted: true, reason: nil), "input select down"),
            (.input(switchID: "select", edge: "up", accepted: false, reason: "bounce"), "input select up rejected (bounce)"),
            (.ignored(action: "escape", reason: "nothing here handles escape"), "ignored escape: nothing here handles escape"),
            (.scanning(running: false), "scanning stopped"),
        ]
        for (kind, text) in events {
            #expect(ScriptRunner.describe(TraceEvent(time: 1.05, kind: kind)) == "1.050 " + text)
        }
        #expect(ScriptRunner.describe(TraceEvent(time: 12.3456, kind: .screen(name: "a"))) == "12.346 screen a")
        #expect(ScriptRunner.describe(TraceEvent(time: 0, kind: .screen(name: "a"))) == "0.000 screen a")
    }
}
