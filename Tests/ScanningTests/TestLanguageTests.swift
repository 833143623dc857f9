import AccessibilityModel
@testable import Scanning
import Scenes
import SwitchInput
import Testing

// The test language of issue 13: each check a tester writes in a scene's tests, passing where the
// scene does what is expected, and failing with the message a tester reads (file:line:column,
// the step, what was found and what was expected) where it does not.

enum LanguageSupport {
    static let file = "language.yaml"

    static let base = """
        scene: Test language
        size: [390, 844]
        state: {price: "", loaded: false, ticks: 0}
        start: main
        screens:
          main:
            elements:
              - {id: buy, label: "Price {price}", hint: Buys the item., traits: [button], frame: [20, 100, 350, 44], activationPoint: [30, 110], language: fr-FR, activate: [{set: {loaded: true}}]}
              - {id: send, label: Send, traits: [button, notEnabled], frame: [20, 160, 350, 44], activate: [{set: {loaded: true}}]}
              - {id: status, label: Status, value: "{loaded?Loaded:Loading}", traits: [staticText], frame: [20, 220, 350, 44]}
          score:
            elements:
              - {id: summary, label: Score 13, traits: [summaryElement, staticText], frame: [0, 0, 390, 44]}
              - {id: again, label: Play again, traits: [button], frame: [20, 100, 350, 44]}
          keys:
            elements:
              - {id: k1, label: A, traits: [keyboardKey], frame: [0, 400, 40, 40]}
              - {id: k2, label: B, traits: [keyboardKey], frame: [40, 400, 40, 40]}
              - {id: k3, label: C, traits: [keyboardKey], frame: [80, 400, 40, 40]}
              - {id: k4, label: D, traits: [keyboardKey], frame: [120, 400, 40, 40]}
              - {id: k5, label: E, traits: [keyboardKey], frame: [160, 400, 40, 40]}
              - {id: k6, label: F, traits: [keyboardKey], frame: [200, 400, 40, 40]}
              - {id: k7, label: G, traits: [keyboardKey], frame: [0, 440, 40, 40]}
              - {id: k8, label: H, traits: [keyboardKey], frame: [40, 440, 40, 40]}
              - {id: k9, label: I, traits: [keyboardKey], frame: [80, 440, 40, 40]}
              - {id: k10, label: J, traits: [keyboardKey], frame: [120, 440, 40, 40]}
              - {id: k11, label: K, traits: [keyboardKey], frame: [160, 440, 40, 40]}
              - {id: k12, label: L, traits: [keyboardKey], frame: [200, 440, 40, 40]}
          blank:
            title: Nothing to scan
            elements:
              - {id: picture, frame: [0, 0, 390, 844], isAccessibilityElement: false}
        """

    /// The scene with `tests` after `tests:`.
    static func scene(_ tests: String) throws -> Scene {
        try SceneParser.parse(yaml: base + "\ntests:\n" + tests, file: file)
    }

    /// The line (1-based) of the scene with `tests` on which `marker` first appears.
    static func line(of marker: String, in tests: String) -> Int {
        let lines = (base + "\ntests:\n" + tests).split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.contains(marker) } ?? -1) + 1
    }

    static func run(_ tests: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ScriptResult {
        let scene: Scene
        do { scene = try Self.scene(tests) } catch {
            Issue.record("the scene did not load:\n\(error)", sourceLocation: sourceLocation)
            throw error
        }
        try #require(scene.tests.count == 1, sourceLocation: sourceLocation)
        return ScriptRunner(scene: scene).run(scene.tests[0])
    }

    @discardableResult
    static func expectPass(_ tests: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ScriptResult {
        let result = try run(tests, sourceLocation: sourceLocation)
        if let failure = result.failure { Issue.record("the test failed:\n\(failure.report)", sourceLocation: sourceLocation) }
        return result
    }

    static func expectFailure(_ tests: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ScriptFailure {
        let result = try run(tests, sourceLocation: sourceLocation)
        return try #require(result.failure, "the test passed; expected it to fail", sourceLocation: sourceLocation)
    }

    /// The load errors of the scene with `tests`, as `file:line:column: error: message` lines.
    static func loadErrors(_ tests: String) -> [String] {
        do {
            _ = try scene(tests)
            return []
        } catch let error as SceneLoadError {
            return error.problems.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }
}

@Suite struct TestLanguageTests {
    // MARK: Nothing highlighted

    @Test("highlight: none when the screen has no item, item on an item; the failure says what is highlighted")
    func highlightNone() throws {
        try LanguageSupport.expectPass("""
              - name: nothing to scan
                screen: blank
                steps:
                  - expect: {highlight: none}
            """)
        let tests = """
              - name: something is highlighted
                settings: {scanning: manual, groupItems: false}
                steps:
                  - expect: {highlight: item}
                  - expect: {highlight: none}   # here
            """
        let failure = try LanguageSupport.expectFailure(tests)
        let line = LanguageSupport.line(of: "# here", in: tests)
        #expect(failure.message == """
            language.yaml:\(line):9: test "something is highlighted": step 2 (expect): highlight is item ('buy'), expected none
            """)
    }

    @Test("highlight: menuButton at the end of an alwaysTap cycle, none once the loops ran out")
    func highlightMenuButtonAndStopped() throws {
        try LanguageSupport.expectPass("""
              - name: the menu button, then the scan stops
                settings: {scanning: auto, autoScanningTime: 1, tapBehavior: alwaysTap, groupItems: false, loops: 1}
                steps:
                  - wait: 3
                  - expect: {highlight: menuButton}
                  - wait: 1
                  - expect: {highlight: none, scanning: stopped}
            """)
    }

    // MARK: Substring and pattern

    @Test("braille and announcement: contains and matches (the whole text), passing")
    func textMatches() throws {
        try LanguageSupport.expectPass("""
              - name: parts of the line and of the message
                screen: score
                settings: {scanning: manual, groupItems: false}
                steps:
                  - expect: {announcement: {contains: "13"}}
                  - wait: 5
                  - expect: {braille: {contains: Score}}
                  - expect: {braille: {matches: "Score [0-9]+.*"}}
                  - expect: {announcement: {matches: "Score \\\\d+"}}
            """)
    }

    @Test("a pattern that matches only part of the line fails: matches is anchored at both ends")
    func patternIsAnchored() throws {
        let tests = """
              - name: anchored
                screen: score
                settings: {scanning: manual, groupItems: false}
                steps:
                  - wait: 5
                  - expect: {braille: {matches: "Score"}, announcement: {contains: "Goal"}}   # here
            """
        let failure = try LanguageSupport.expectFailure(tests)
        let line = LanguageSupport.line(of: "# here", in: tests)
        #expect(failure.message.hasPrefix("language.yaml:\(line):9: test \"anchored\": step 2 (expect): braille is 'Score 13"), "\(failure.message)")
        #expect(failure.mismatches.map(\.key) == ["braille", "announcement"])
        #expect(failure.mismatches.first?.expected == "text matching /Score/")
        #expect(failure.mismatches.last == Mismatch(key: "announcement", expected: "text containing 'Goal'", actual: "'Score 13'"))
    }

    @Test("a pattern that is no regular expression, or a match with both keys, is a load error at its position")
    func badPattern() {
        let tests = """
              - name: bad
                steps:
                  - expect: {braille: {matches: "Score ["}}
                  - expect: {announcement: {contains: a, matches: b}}
            """
        let errors = LanguageSupport.loadErrors(tests)
        let line = LanguageSupport.line(of: "Score [", in: tests)
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.first?.hasPrefix("language.yaml:\(line):37: error: matches: 'Score [' is not a regular expression: ") == true, "\(errors)")
        #expect(errors.first?.contains("matches: 'Score [' is not a regular expression") == true, "\(errors)")
        #expect(errors.last?.contains("announcement takes one of contains or matches, not both") == true, "\(errors)")
    }

    @Test("patterns: the documented syntax, matched whole; refused forms name the character")
    func patternSyntax() {
        let cases: [(String, String, Bool)] = [
            ("Score [0-9]+", "Score 13", true), ("Score [0-9]+", "Score 13, 9", false), ("Score", "Score 13", false),
            (".*13", "Score 13", true), ("^Score \\d+$", "Score 13", true), ("(Frame \\d+, )?Score \\d+", "Frame 2, Score 13", true),
            ("(Tap|Exit menu)", "Exit menu", true), ("(?:Tap|Exit menu)", "Tap", true), ("a{2,3}", "aaa", true), ("a{2,3}", "aaaa", false),
            ("a{2}", "aa", true), ("a{2,}", "aaaaa", true), ("[^,]+, [a-z]+", "Tea, euros", true), ("[^,]+", "Tea, euros", false),
            ("\\w+\\s\\W", "ab_1 .", true), ("\\.\\(x\\)\\$", ".(x)$", true), ("[\\d.]+ %", "4.5 %", true), ("a*?b", "aab", true),
            ("(a*)*b", "aab", true), ("", "", true), ("", "x", false), ("é.", "éa", true), ("[à-ÿ]+", "éè", true),
        ]
        for (pattern, text, expected) in cases {
            #expect(TextPattern.problem(pattern) == nil, "\(pattern)")
            #expect(TextPattern.matchesWhole(pattern, text) == expected, "\(pattern) on \(text)")
        }
        #expect(TextPattern.problem("Score [") == "'[' is not closed (character 7)")
        #expect(TextPattern.problem("(a") == "'(' is not closed (character 1)")
        #expect(TextPattern.problem("a)") == "')' closes no group (character 2)")
        #expect(TextPattern.problem("*a") == "'*' repeats nothing (character 1)")
        #expect(TextPattern.problem("a**") == "'*' follows another repetition; group what it repeats: (…)* (character 3)")
        #expect(TextPattern.problem("a{1000}")?.hasPrefix("a repetition's bounds are at most 100") == true)
        #expect(TextPattern.problem("a\\q")?.hasPrefix("'\\q' is not supported") == true)
        #expect(TextPattern.problem("a^b")?.hasPrefix("'^' is allowed only at the pattern's ends") == true)
        #expect(TextPattern.problem("((a{100}){100}){100}")?.hasPrefix("the pattern is too large") == true)
    }

    @Test("patterns that make a backtracking matcher take exponential time match in steps linear in the text")
    func patternTime() throws {
        let long = String(repeating: "a", count: 5000)
        for (pattern, matches) in [("(a|a)*x", false), ("(a*)*x", false), (".*.*.*.*.*.*x", false), ("(a|aa)*", true)] {
            let compiled = try TextPattern(pattern)
            var steps = 0
            #expect(compiled.matchesWhole(long, steps: &steps) == matches, "\(pattern)")
            // Each instruction at most once per character (and once before the first): a
            // backtracking matcher visits them exponentially often on these.
            #expect(steps > 0 && steps <= (long.count + 1) * compiled.size, "\(pattern): \(steps) steps for size \(compiled.size)")
        }
    }

    // MARK: Summary element

    @Test("the summary element's message, flashed when the screen appears, is the announcement")
    func summaryAnnouncement() throws {
        try LanguageSupport.expectPass("""
              - name: the summary first
                screen: score
                settings: {scanning: manual, groupItems: false}
                steps:
                  - expect: {announcement: Score 13, braille: Score 13}
            """)
    }

    @Test("a screen without a summary element announces nothing: the failure says none")
    func noSummaryAnnouncement() throws {
        let tests = """
              - name: no summary here
                settings: {scanning: manual, groupItems: false}
                steps:
                  - expect: {announcement: Score 13}   # here
            """
        let failure = try LanguageSupport.expectFailure(tests)
        let line = LanguageSupport.line(of: "# here", in: tests)
        #expect(failure.message == """
            language.yaml:\(line):9: test "no summary here": step 1 (expect): announcement is none, expected 'Score 13'
            """)
    }

    // MARK: Rejected and ignored presses

    @Test("rejected: bounce for a key up at the same instant as its down; none for a clean press")
    func rejectedBounce() throws {
        try LanguageSupport.expectPass("""
              - name: bounce
                settings: {scanning: manual, groupItems: false}
                steps:
                  - key: {code: KEY_ENTER, value: 1}
                  - key: {code: KEY_ENTER, value: 0}
                  - expect: {rejected: bounce}
                  - wait: 0.1
                  - press: next
                  - expect: {rejected: none, ignored: none}
            """)
        let tests = """
              - name: a clean press is not rejected
                settings: {scanning: manual, groupItems: false}
                steps:
                  - press: next
                  - expect: {rejected: bounce}   # here
            """
        let failure = try LanguageSupport.expectFailure(tests)
        let line = LanguageSupport.line(of: "# here", in: tests)
        #expect(failure.message == """
            language.yaml:\(line):9: test "a clean press is not rejected": step 2 (expect): rejected is none (every edge of step 1 was accepted), expected 'bounce'
            """)
    }

    @Test("rejected: releasedBeforeHoldDuration for a press shorter than holdDuration")
    func rejectedShortHold() throws {
        try LanguageSupport.expectPass("""
              - name: too short
                settings: {scanning: manual, groupItems: false, holdDuration: 0.5}
                steps:
                  - hold: {switch: next, seconds: 0.2}
                  - expect: {rejected: releasedBeforeHoldDuration, focus: buy}
            """)
    }

    @Test("ignored: a tap on a notEnabled element, with its reason; a wrong reason fails naming the real one")
    func ignoredNotEnabled() throws {
        try LanguageSupport.expectPass("""
              - name: Send is not enabled
                settings: {scanning: manual, groupItems: false, tapBehavior: alwaysTap}
                steps:
                  - press: next
                  - expect: {focus: send}
                  - press: select
                  - expect: {ignored: not enabled, state: {loaded: false}, braille: Not enabled}
            """)
        let tests = """
              - name: wrong reason
                settings: {scanning: manual, groupItems: false, tapBehavior: alwaysTap}
                steps:
                  - press: next
                  - press: select
                  - expect: {ignored: nothing is highlighted}   # here
            """
        let failure = try LanguageSupport.expectFailure(tests)
        let line = LanguageSupport.line(of: "# here", in: tests)
        #expect(failure.message == """
            language.yaml:\(line):9: test "wrong reason": step 3 (expect): ignored is ['select: not enabled: 'Send' has the notEnabled trait'] of step 2, expected a reason containing 'nothing is highlighted'
            """)
    }

    @Test("rejected: an unknown reason is a load error with the reasons")
    func unknownRejection() {
        let tests = """
              - name: bad
                steps:
                  - expect: {rejected: bounced}
            """
        let errors = LanguageSupport.loadErrors(tests)
        let line = LanguageSupport.line(of: "bounced", in: tests)
        #expect(errors == [
            "language.yaml:\(line):28: error: rejected is a reason an edge is rejected for (did you mean 'bounce'?): one of autorepeat, bounce, unbound, redundant, releasedBeforeHoldDuration, ignoreRepeat, pulseRelease, or none",
        ])
    }

    // MARK: Attributes

    @Test("element: label, value, hint, traits, frame, language and activation point, as now")
    func attributes() throws {
        try LanguageSupport.expectPass("""
              - name: attributes
                settings: {scanning: manual, groupItems: false, tapBehavior: alwaysTap}
                steps:
                  - expect: {element: {id: buy, label: "Price ", hint: Buys the item., traits: [button], frame: [20, 100, 350, 44], language: fr-FR, activationPoint: [30, 110]}}
                  - expect: {element: {id: status, value: Loading, traits: [staticText], activationPoint: [195, 242], language: en-US}}
                  - expect: {element: {label: "Price "}}
                  - press: select
                  - expect: {element: {id: status, value: Loaded}}
            """)
    }

    @Test("element: every attribute that differs is reported, named by the element")
    func attributesFail() throws {
        let tests = """
              - name: wrong attributes
                steps:
                  - expect: {element: {id: send, traits: [button], frame: [20, 160, 300, 44], activationPoint: [0, 0], language: de-DE}}   # here
            """
        let failure = try LanguageSupport.expectFailure(tests)
        let line = LanguageSupport.line(of: "# here", in: tests)
        #expect(failure.message == """
            language.yaml:\(line):9: test "wrong attributes": step 1 (expect): element send.language is 'en-US', expected 'de-DE'; \
            element send.traits is [button, notEnabled], expected [button]; \
            element send.frame is [20, 160, 350, 44], expected [20, 160, 300, 44]; \
            element send.activationPoint is [195, 182], expected [0, 0]
            """)
    }

    @Test("element: an element not on the current screen fails; an unknown id or trait is a load error")
    func attributesMissing() throws {
        let failure = try LanguageSupport.expectFailure("""
              - name: not here
                steps:
                  - expect: {element: {id: k1, label: A}}
            """)
        #expect(failure.mismatches == [Mismatch(key: "element", expected: "'k1'", actual: "not on the screen 'main' (or not present)")])
        let errors = LanguageSupport.loadErrors("""
              - name: bad
                steps:
                  - expect: {element: {id: nowhere, traits: [buton]}}
            """)
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.contains { $0.contains("element id 'nowhere' is not the id of any element") }, "\(errors)")
        #expect(errors.contains { $0.contains("unknown trait 'buton' (did you mean 'button'?)") }, "\(errors)")
    }

    // MARK: The app changes by itself

    @Test("app: data arrives (set), then a layoutChanged posted with an element moves the highlight there")
    func appEffects() throws {
        let result = try LanguageSupport.expectPass("""
              - name: the price arrives
                settings: {scanning: manual, groupItems: false}
                steps:
                  - wait: 5
                  - app: [{set: {price: 5 euros, loaded: true}}, {post: {notification: layoutChanged, focus: status}}]
                  - expect: {focus: status, braille: "Status Loaded", element: {id: buy, label: Price 5 euros}}
                  - app: {add: {ticks: 1}}
                  - expect: {state: {ticks: 1}, focus: status}
            """)
        let lines = result.trace.map(ScriptRunner.describe)
        #expect(lines.contains("5.000 status the app: set price=5 euros loaded=true, post layoutChanged focus status"), "\(lines)")
    }

    @Test("post: an announcement with no press is flashed and is the announcement; screenChanged goes to its element")
    func postStep() throws {
        try LanguageSupport.expectPass("""
              - name: posted by the app
                settings: {scanning: manual, groupItems: false}
                steps:
                  - wait: 5
                  - post: {notification: announcement, text: Download finished}
                  - expect: {announcement: Download finished, braille: Download finished}
                  - app: [{go: keys}, {post: {notification: screenChanged, focus: k3}}]
                  - expect: {screen: keys, focus: k3}
            """)
    }

    @Test("app: a failing expectation after it names the step; unknown state in it is a load error")
    func appErrors() throws {
        let tests = """
              - name: no price yet
                settings: {scanning: manual, groupItems: false}
                steps:
                  - app: {set: {price: "4"}}
                  - expect: {element: {id: buy, label: Price 5}}   # here
            """
        let failure = try LanguageSupport.expectFailure(tests)
        let line = LanguageSupport.line(of: "# here", in: tests)
        #expect(failure.message == """
            language.yaml:\(line):9: test "no price yet": step 2 (expect): element buy.label is 'Price 4', expected 'Price 5'
            """)
        let errors = LanguageSupport.loadErrors("""
              - name: bad
                steps:
                  - app: {set: {cost: 4}}
            """)
        #expect(errors.count == 1 && errors[0].contains("unknown state name 'cost'"), "\(errors)")
    }

    @Test("a tests file apart from its scene takes the new steps and checks, checked against the scene")
    func testsFile() throws {
        let scene = try LanguageSupport.scene("  []\n")
        let tests = try SceneParser.parseTests(yaml: """
            scene: language.yaml
            tests:
              - name: from a tests file
                settings: {scanning: manual, groupItems: false}
                steps:
                  - app: [{set: {price: 3 euros}}, {go: keys}]
                  - expect: {screen: keys, highlight: item, focus: {groupContaining: k1}}
                  - app: {go: main}
                  - expect: {element: {id: buy, label: Price 3 euros}, braille: {matches: "Price [0-9]+ euros.*"}}
            """, file: "language.tests.yaml", scene: scene)
        var driven = scene
        driven.tests = tests
        let result = ScriptRunner(scene: driven).run(tests[0])
        #expect(result.failure == nil, "\(result.failure?.report ?? "")")
        do {
            _ = try SceneParser.parseTests(yaml: """
                scene: language.yaml
                tests:
                  - name: bad
                    steps:
                      - app: {go: nowhere}
                      - post: {notification: layoutChanged, focus: k99}
                """, file: "language.tests.yaml", scene: scene)
            Issue.record("the tests file loaded")
        } catch {
            #expect(error.problems.map(\.description) == [
                "language.tests.yaml:5:19: error: go names screen 'nowhere', which is not in screens (blank, keys, main, score)",
                "language.tests.yaml:6:52: error: focus 'k99' is not the id of any element in the scene language.yaml",
            ])
        }
    }

    // MARK: Long press

    @Test("press with longPressAction: held past longPress, the long-press action; hold shorter: the short one")
    func longPress() throws {
        let result = try LanguageSupport.expectPass("""
              - name: long and short
                settings: {scanning: manual, groupItems: false, longPress: 1.0}
                steps:
                  - hold: {switch: next, seconds: 0.3, longPressAction: menu}
                  - expect: {focus: send, menu: []}
                  - press: {switch: next, longPressAction: menu}
                  - expect: {focus: send, menuFocus: Tap}
            """)
        let lines = result.trace.map(ScriptRunner.describe)
        #expect(lines.contains { $0.hasSuffix("began menu (next/long-menu)") }, "\(lines)")
    }

    @Test("a long press without the longPress setting fails the step, saying what to add")
    func longPressNeedsSetting() throws {
        let tests = """
              - name: no longPress
                steps:
                  - press: {switch: select, longPressAction: menu}   # here
            """
        let failure = try LanguageSupport.expectFailure(tests)
        let line = LanguageSupport.line(of: "# here", in: tests)
        #expect(failure.message == """
            language.yaml:\(line):9: test "no longPress": step 1 (press): a long press (longPressAction: menu) needs the longPress setting on: add longPress: 1.0 (seconds) to the test's settings
            """)
    }

    // MARK: Automatic groups

    @Test("automatic groups: by auto:first...last (full stops) and by groupContaining a member")
    func automaticGroups() throws {
        try LanguageSupport.expectPass("""
              - name: the first row's group
                screen: keys
                settings: {scanning: manual, groupItems: true}
                steps:
                  - expect: {focus: "auto:k1...k6"}
                  - expect: {focus: "auto:k1…k6"}
                  - expect: {focus: {groupContaining: k3}}
            """)
        let tests = """
              - name: not that group
                screen: keys
                settings: {scanning: manual, groupItems: true}
                steps:
                  - expect: {focus: {groupContaining: k8}}   # here
            """
        let failure = try LanguageSupport.expectFailure(tests)
        let line = LanguageSupport.line(of: "# here", in: tests)
        #expect(failure.message == """
            language.yaml:\(line):9: test "not that group": step 1 (expect): focus is 'auto:k1…k6', expected 'k8' or a group holding it
            """)
    }

    @Test("an automatic group's name with a member that is no element is a load error")
    func automaticGroupTypo() {
        let tests = """
              - name: bad
                steps:
                  - expect: {focus: "auto:k1...k66"}
            """
        let errors = LanguageSupport.loadErrors(tests)
        let line = LanguageSupport.line(of: "k66", in: tests)
        #expect(errors == ["language.yaml:\(line):25: error: focus 'auto:k1…k66': its last item 'k66' is not the id of any element in the scene"], "\(errors)")
    }
}
