import AccessibilityModel
import Foundation
import Scenes
import Testing

// Every kind of problem the loader reports, each at its exact line and column (1-based, as
// editors count), with the part of the message that says what was expected.

/// Scenes with one element `a` whose extra keys start at line 10, column 9:
///
///     1 scene: T
///     2 size: [100, 100]
///     3 state: {wifi: true, volume: 5, name: Ann}
///     4 start: main
///     5 screens:
///     6   main:
///     7     elements:
///     8       - id: a          (the element's mapping is at 8:9, its id value at 8:13)
///     9         label: A
///    10         <lines…>       (each line indented to column 9)
private func element(_ lines: String...) -> String {
    """
    scene: T
    size: [100, 100]
    state: {wifi: true, volume: 5, name: Ann}
    start: main
    screens:
      main:
        elements:
          - id: a
            label: A

    """ + lines.map { "        " + $0 }.joined(separator: "\n") + "\n"
}

/// A scene with one test whose steps start at line 12, column 9 (after `      - `):
///
///     9 tests:
///    10   - name: t
///    11     steps:
///    12       - <step>
func step(_ steps: String...) -> String {
    """
    scene: T
    size: [100, 100]
    state: {wifi: true, volume: 5, name: Ann}
    start: main
    screens:
      main:
        elements:
          - {id: a, frame: [0, 0, 10, 10]}
    tests:
      - name: t
        steps:

    """ + steps.map { "      - " + $0 }.joined(separator: "\n") + "\n"
}

private func only(
    _ yaml: String, _ line: Int, _ column: Int, _ fragments: String...,
    limits: SceneLimits = .standard, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let found = LoaderSupport.problems(yaml, limits: limits, sourceLocation: sourceLocation)
    guard found.count == 1, let problem = found.first else {
        Issue.record(
            "expected exactly one problem, found \(found.count):\n\(found.map(\.description).joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        return
    }
    LoaderSupport.expect(problem, line: line, column: column, fragments, sourceLocation: sourceLocation)
}

@Suite("Loader errors: the file as a whole")
struct FileErrorTests {
    @Test("the helpers' base scenes load")
    func baseScenesLoad() throws {
        _ = try LoaderSupport.load(element("hint: fine"))
        _ = try LoaderSupport.load(step("press: select"))
    }

    @Test("a YAML syntax error is reported where the parser found it")
    func yamlSyntax() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements:
                  - label: "not closed
            """, 7, 27, "invalid YAML", "found unexpected end of stream", "while scanning a quoted scalar at line 7, column 16")
        only("""
            scene: T
              size: [100, 100]
            """, 2, 7, "invalid YAML", "mapping values are not allowed")
    }

    @Test("an empty file, or one with only comments")
    func emptyFile() {
        only("", 1, 1, "the file is empty", "expected a scene")
        only("# nothing here\n\n", 1, 1, "the file is empty")
    }

    @Test("the root must be a mapping")
    func rootNotMapping() {
        only("- scene\n- size\n", 1, 1, "expected a mapping for the scene, found a list")
        only("\n\njust words\n", 3, 1, "expected a mapping for the scene, found 'just words'")
    }

    @Test("each required scene key", arguments: ["scene", "size", "start", "screens"])
    func missingKey(key: String) {
        let lines = [
            "description: first line, so the root mapping starts at 1:1",
            "scene: T",
            "size: [100, 100]",
            "start: main",
            "screens: {main: {elements: [{id: a, frame: [0, 0, 1, 1]}]}}",
        ]
        let yaml = lines.filter { !$0.hasPrefix(key + ":") }.joined(separator: "\n")
        only(yaml, 1, 1, "missing '\(key)'", "expected")
    }

    @Test("unknown key in a scene, with a suggestion")
    func unknownSceneKey() {
        only("""
            scene: T
            descripton: typo
            size: [100, 100]
            start: main
            screens: {main: {elements: []}}
            """, 2, 1, "unknown key 'descripton' in a scene", "(did you mean 'description'?)", "expected one of: scene, description")
    }

    @Test("unknown key in a screen, with a suggestion")
    func unknownScreenKey() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                titel: Main
                elements: []
            """, 6, 5, "unknown key 'titel' in a screen", "(did you mean 'title'?)")
    }

    @Test("unknown key in a test, with a suggestion")
    func unknownTestKey() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens: {main: {elements: []}}
            tests:
              - name: t
                steps: []
                setings: {}
            """, 8, 5, "unknown key 'setings' in a test", "(did you mean 'settings'?)")
    }

    @Test("an unknown key far from any known one gets no suggestion")
    func noSuggestion() {
        let problem = LoaderSupport.expectOnlyProblem(element("zzzzzz: 1"), line: 10, column: 9, "unknown key 'zzzzzz' in an element")
        #expect(problem?.message.contains("did you mean") == false)
    }

    @Test("size must be two positive numbers")
    func badSize() {
        only("""
            scene: T
            size: big
            start: main
            screens: {main: {elements: []}}
            """, 2, 7, "expected a list for size [width, height], found 'big'")
        only("""
            scene: T
            size: [0, 100]
            start: main
            screens: {main: {elements: []}}
            """, 2, 7, "size must be positive, found [0, 100]")
    }

    @Test("screens must not be empty, and screen names are names")
    func badScreens() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens: {}
            """, 4, 10, "screens is empty")
        let problems = LoaderSupport.problems("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main: {elements: []}
              2nd: {elements: []}
            """)
        #expect(problems.count == 1)
        if let problem = problems.first {
            LoaderSupport.expect(problem, line: 6, column: 3, ["screen name '2nd' must start with a letter"])
        }
    }

    @Test("start must name a screen")
    func startNamesMissingScreen() {
        only("""
            scene: T
            size: [100, 100]
            start: mian
            screens:
              main: {elements: []}
              settings: {elements: []}
            """, 3, 8, "start names screen 'mian', which is not in screens (main, settings)")
    }

    @Test("state values are scalars with valid names")
    func badState() {
        only("""
            scene: T
            size: [100, 100]
            state:
              ok: true
              list: [1, 2]
            start: main
            screens: {main: {elements: []}}
            """, 5, 9, "expected true/false, a number or a string for state value 'list', found a list")
        only("""
            scene: T
            size: [100, 100]
            state:
              "has space": 1
            start: main
            screens: {main: {elements: []}}
            """, 4, 3, "state name 'has space' must start with a letter")
    }

    @Test("a duplicate YAML key is reported at its second occurrence, naming the first")
    func duplicateYAMLKey() {
        only(element("label: B"), 10, 9, "duplicate key 'label' in one mapping (first at line 9); each key may appear once")
    }

    @Test("a non-scalar mapping key")
    func nonScalarKey() {
        only(element("[x]: 1"), 10, 9, "a key in an element must be a plain name, found a list")
    }
}

@Suite("Loader errors: elements")
struct ElementErrorTests {
    @Test("unknown key in an element, with a suggestion")
    func unknownElementKey() {
        only(element("lable: Hi"), 10, 9, "unknown key 'lable' in an element", "(did you mean 'label'?)", "expected one of: id, label")
    }

    @Test("unknown key in a custom action, with a suggestion")
    func unknownCustomActionKey() {
        only(element(
            "customActions:",
            "  - name: Mute",
            "    do: []",
            "    doo: []"), 13, 13, "unknown key 'doo' in a custom action", "(did you mean 'do'?)")
    }

    @Test("a custom action needs a name and effects")
    func customActionMissingKeys() {
        let problems = LoaderSupport.problems(element("customActions: [{}]"))
        #expect(problems.map(\.message).count == 2)
        for problem in problems {
            LoaderSupport.expect(problem, line: 10, column: 25, [])
        }
        #expect(problems.contains { $0.message.contains("missing 'name'") })
        #expect(problems.contains { $0.message.contains("missing 'do'") })
    }

    @Test("unknown key in custom content, and a custom content entry without value")
    func customContentKeys() {
        only(element("customContent: [{label: L, value: V, importance: high}]"), 10, 46,
             "unknown key 'importance' in a custom content entry", "(did you mean 'important'?)")
        only(element("customContent: [{label: L}]"), 10, 25, "missing 'value'")
    }

    @Test("a string where a list is expected")
    func stringForList() {
        only(element("traits: button"), 10, 17, "expected a list for traits, found 'button'")
        only(element("elements: b"), 10, 19, "expected a list for elements, found 'b'")
        only(element("customActions: mute"), 10, 24, "expected a list for customActions, found 'mute'")
        only(element("activate: {toggle: wifi}"), 10, 19, "expected a list for activate, found a mapping")
    }

    @Test("a mapping as a label")
    func mappingAsLabel() {
        only(element("hint: {a: 1}"), 10, 15, "expected a string for hint, found a mapping")
        only(element("value: ~"), 10, 16, "expected a string for value, found nothing (null)")
    }

    @Test("a frame with 3 numbers")
    func frameWithThreeNumbers() {
        only(element("frame: [0, 0, 10]"), 10, 16, "frame has 3 numbers; expected 4: [x, y, width, height]")
        only(element("activationPoint: [1, 2, 3]"), 10, 26, "activationPoint has 3 numbers; expected 2: [x, y]")
    }

    @Test("a frame with a negative size")
    func negativeFrame() {
        only(element("frame: [0, 0, -10, 10]"), 10, 16, "frame width and height must not be negative")
    }

    @Test("a frame with something that is not a number")
    func nonNumberInFrame() {
        only(element("frame: [0, 0, ten, 10]"), 10, 23, "expected a number for frame [x, y, width, height], found 'ten'")
        only(element("frame: [0, 0, \"10\", 10]"), 10, 23, "expected a number for frame", "found '10'")
        only(element("sortPriority: high"), 10, 23, "expected a number for sortPriority, found 'high'")
    }

    @Test("a boolean field given a number")
    func boolGivenNumber() {
        only(element(
            "customContent:",
            "  - label: L",
            "    value: V",
            "    important: 1"), 13, 24, "expected true or false for important, found '1'")
        only(element("isAccessibilityElement: 1"), 10, 33,
             "expected true, false or a state condition (name or !name) for isAccessibilityElement, found '1'")
        only(element("accessibilityViewIsModal: [true]"), 10, 35,
             "expected true, false or a state condition (name or !name) for accessibilityViewIsModal, found a list")
    }

    @Test("an id must have no spaces")
    func idWithSpaces() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements:
                  - {id: "two words"}
            """, 7, 14, "id 'two words' must be non-empty and contain no spaces")
    }

    @Test("a duplicate id names the first location")
    func duplicateID() {
        only(element(
            "elements:",
            "  - {id: a, label: child}"), 11, 18,
             "duplicate id 'a'", "already used at line 8, column 13")
    }

    @Test("a declared id that equals another element's derived id")
    func duplicateDerivedID() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements:
                  - {id: main.1, label: first}
                  - {label: second}
            """, 8, 9, "duplicate id 'main.1'", "already used at line 7, column 14")
    }

    @Test("duplicate ids across screens")
    func duplicateIDAcrossScreens() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements: [{id: ok}]
              other:
                elements: [{id: ok}]
            """, 8, 21, "duplicate id 'ok'", "line 6, column 21")
    }

    @Test("element accessibilityElements lists an id outside its subtree")
    func elementOrderOutsideSubtree() {
        let yaml = """
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements:
                  - id: box
                    accessibilityElements: [inner, outer, ghost]
                    elements:
                      - {id: inner}
                  - {id: outer}
            """
        let problems = LoaderSupport.problems(yaml)
        #expect(problems.count == 2)
        guard problems.count == 2 else { return }
        LoaderSupport.expect(problems[0], line: 8, column: 40, ["accessibilityElements of element 'box' lists 'outer', which is not in its subtree"])
        LoaderSupport.expect(problems[1], line: 8, column: 47, ["accessibilityElements of element 'box' lists 'ghost', which is not in its subtree"])
    }

    @Test("screen accessibilityElements lists an id that is not on the screen")
    func screenOrderOutsideSubtree() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                accessibilityElements: [a, b]
                elements: [{id: a}]
              other:
                elements: [{id: b}]
            """, 6, 32, "accessibilityElements of screen 'main' lists 'b', which is not in its subtree")
    }

    @Test("accessibilityElements lists an id twice")
    func orderListsTwice() {
        only(element(
            "accessibilityElements: [b, c, b]",
            "elements: [{id: b}, {id: c}]"), 10, 39, "accessibilityElements of element 'a' lists 'b' twice")
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                accessibilityElements:
                  - a
                  - a
                elements: [{id: a}]
            """, 8, 9, "accessibilityElements of screen 'main' lists 'a' twice")
    }

    @Test("unknown state name in a binding, with a suggestion")
    func unknownStateInBinding() {
        only(element("hint: \"Hi {nmae}\""), 10, 15, "hint reads unknown state name 'nmae'", "(did you mean 'name'?)", "declare it under state:")
        only(element("value: \"{wifi?on:off} {volum}\""), 10, 16, "value reads unknown state name 'volum'", "(did you mean 'volume'?)")
        only(element("customContent: [{label: L, value: \"{zzz}\"}]"), 10, 43, "value reads unknown state name 'zzz'")
        only(element("customActions: [{name: \"{zzz}\", do: []}]"), 10, 32, "name reads unknown state name 'zzz'")
    }

    @Test("unknown state name in visible")
    func unknownStateInVisible() {
        only(element("visible: \"!wfi\""), 10, 18, "visible reads unknown state name 'wfi'", "(did you mean 'wifi'?)")
        only(element("visible: wfi"), 10, 18, "visible reads unknown state name 'wfi'")
    }

    @Test("unknown state name in a conditional trait")
    func unknownStateInTrait() {
        only(element("traits: [button, {selected: wfi}]"), 10, 37,
             "the condition of trait 'selected' reads unknown state name 'wfi'", "(did you mean 'wifi'?)")
        only(element("traits: [{notEnabled: \"!canSend\"}]"), 10, 31, "reads unknown state name 'canSend'")
    }

    @Test("unknown state name in a boolean attribute bound to state")
    func unknownStateInBoolBinding() {
        only(element("accessibilityViewIsModal: wfi"), 10, 35, "accessibilityViewIsModal reads unknown state name 'wfi'")
    }

    @Test("unknown traits, with a suggestion")
    func unknownTrait() {
        only(element("traits: [buton]"), 10, 18, "unknown trait 'buton'", "(did you mean 'button'?)", "expected one of: none button link")
        only(element("traits: [{selectd: wifi}]"), 10, 19, "unknown trait 'selectd'", "(did you mean 'selected'?)")
        only(element("traits: [{selected: wifi, button: wifi}]"), 10, 18, "a conditional trait has exactly one key")
    }

    @Test("unknown navigationStyle")
    func unknownNavigationStyle() {
        only(element("navigationStyle: combine"), 10, 26, "navigationStyle 'combine' is unknown; expected automatic, separate or combined")
    }

    @Test("bad template syntax: unclosed '{', lone '}', choice without ':'")
    func badTemplates() {
        only(element("hint: \"a {wifi\""), 10, 15, "hint: '{' is not closed by '}' at character 3 of \"a {wifi\"")
        only(element("hint: \"a } b\""), 10, 15, "hint: a lone '}'", "at character 3")
        only(element("hint: \"x {wifi?on}\""), 10, 15, "a choice needs both branches", "at character 3")
        only(element("hint: \"{wifi?on:off\""), 10, 15, "'{wifi?' is not closed by '}'")
        only(element("hint: \"{1st}\""), 10, 15, "does not name a state value")
        only(element("activate: [{announce: \"{wifi\"}]"), 10, 31, "announce: '{' is not closed")
    }
}

@Suite("Loader errors: effects")
struct EffectErrorTests {
    @Test("go to a missing screen")
    func goToMissingScreen() {
        only(element("activate: [{go: nowhere}]"), 10, 25, "go names screen 'nowhere', which is not in screens (main)")
    }

    @Test("unknown state names in set, toggle and add")
    func unknownStateInEffects() {
        only(element("activate: [{set: {wfi: true}}]"), 10, 27, "unknown state name 'wfi'", "(did you mean 'wifi'?)")
        only(element("activate: [{toggle: wfi}]"), 10, 29, "unknown state name 'wfi'", "(did you mean 'wifi'?)")
        only(element("increment: [{add: {volme: 1}}]"), 10, 28, "unknown state name 'volme'", "(did you mean 'volume'?)")
    }

    @Test("set gives the wrong type")
    func setWrongType() {
        only(element("activate: [{set: {wifi: 3}}]"), 10, 33, "state 'wifi' is a boolean; set gives it a number")
        only(element("activate: [{set: {volume: \"5\"}}]"), 10, 35, "state 'volume' is a number; set gives it a string")
    }

    @Test("toggle on a number")
    func toggleNumber() {
        only(element("activate: [{toggle: volume}]"), 10, 29, "toggle needs a boolean state; 'volume' is a number")
    }

    @Test("add on a boolean")
    func addBoolean() {
        only(element("activate: [{add: {wifi: 1}}]"), 10, 27, "add needs a number state; 'wifi' is a boolean")
    }

    @Test("add with min above max")
    func addMinAboveMax() {
        only(element("activate: [{add: {volume: 1, min: 5, max: 2}}]"), 10, 26, "add has min 5 above max 2")
    }

    @Test("add with no target, two targets, or a non-number amount")
    func addShapes() {
        only(element("activate: [{add: {min: 0}}]"), 10, 26, "add names no state value")
        only(element("activate: [{add: {volume: 1, volume2: 1}}]"), 10, 38, "add steps one state value")
        only(element("activate: [{add: {volume: up}}]"), 10, 35, "expected a number for 'volume' in add, found 'up'")
    }

    @Test("unknown effect, with a suggestion")
    func unknownEffect() {
        only(element("activate: [{tggle: wifi}]"), 10, 21, "unknown effect 'tggle'", "(did you mean 'toggle'?)", "expected one of: set, toggle, add, go, announce, post")
    }

    @Test("an effect mapping with two keys")
    func effectWithTwoKeys() {
        only(element("activate: [{toggle: wifi, go: main}]"), 10, 20, "an effect is a mapping with one key")
        only(element("activate: [toggle]"), 10, 20, "expected a mapping for an effect", "found 'toggle'")
    }

    @Test("unknown key in post, with a suggestion")
    func unknownPostKey() {
        only(element(
            "activate:",
            "  - post:",
            "      notification: layoutChanged",
            "      focsu: a"), 13, 15, "unknown key 'focsu' in post", "(did you mean 'focus'?)")
    }

    @Test("pause and resume of an assistive technology name it; technology belongs to them only")
    func pauseTechnology() {
        only(element("activate: [{post: {notification: pauseAssistiveTechnology}}]"), 10, 27,
             "post pauseAssistiveTechnology needs technology: the assistive technology it is for (switchControl, voiceOver)")
        only(element("activate: [{post: {notification: resumeAssistiveTechnology, technology: talkBack}}]"), 10, 81,
             "technology 'talkBack' is unknown; expected one of: switchControl, voiceOver")
        only(element("activate: [{post: {notification: layoutChanged, technology: voiceOver}}]"), 10, 69,
             "technology is the argument of pauseAssistiveTechnology and resumeAssistiveTechnology, not of layoutChanged")
    }

    @Test("focus hooks take effects; a placeholder is a template")
    func focusHooksAndPlaceholder() {
        only(element("didBecomeFocused: [{toggle: wfi}]"), 10, 37, "unknown state name 'wfi'")
        only(element("didLoseFocus: go"), 10, 23, "didLoseFocus")
        only(element("placeholder: \"{nme}\""), 10, 22, "placeholder reads unknown state name 'nme'")
    }

    @Test("unknown notification")
    func unknownNotification() {
        only(element("activate: [{post: {notification: layoutChange}}]"), 10, 42,
             "notification 'layoutChange' is unknown; expected one of: screenChanged, layoutChanged, announcement, pageScrolled")
        only(element("activate: [{post: {focus: a}}]"), 10, 27, "missing 'notification'")
    }

    @Test("post announcement (or pageScrolled) without text")
    func postWithoutText() {
        only(element("activate: [{post: {notification: announcement}}]"), 10, 27, "post announcement needs text")
        only(element("activate: [{post: {notification: pageScrolled, focus: a}}]"), 10, 27, "post pageScrolled needs text")
    }

    @Test("post focus names an element that does not exist")
    func postFocusUnknown() {
        only(element("activate: [{post: {notification: layoutChanged, focus: ghost}}]"), 10, 64,
             "focus 'ghost' is not the id of any element in the scene")
    }

    @Test("a bad template in post text")
    func postBadText() {
        only(element("activate: [{post: {notification: announcement, text: \"}\"}}]"), 10, 62, "text: a lone '}'")
    }

    @Test("screen-level escape with an unknown effect")
    func screenEffects() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements: []
                escape: [{og: main}]
            """, 7, 15, "unknown effect 'og'")
    }
}

@Suite("Loader errors: scripted tests")
struct TestErrorTests {
    @Test("unknown step, with a suggestion")
    func unknownStep() {
        only(step("presss: select"), 12, 9, "unknown step 'presss'", "(did you mean 'press'?)", "expected one of: press, hold, wait, route, key, app, post, type, expect")
        only(step("{press: select, wait: 1}"), 12, 9, "a step is a mapping with one key")
        only(step("select"), 12, 9, "expected a mapping for a step", "found 'select'")
    }

    @Test("unknown switch action, with a suggestion")
    func unknownSwitchAction() {
        only(step("press: selct"), 12, 16, "unknown switch action 'selct'", "(did you mean 'select'?)", "expected one of: select, next, previous, menu, tap, escape, stop")
        only(step("hold: {switch: nxt, seconds: 1}"), 12, 24, "unknown switch action 'nxt'", "(did you mean 'next'?)")
    }

    @Test("a test's starting screen must exist")
    func testScreenMustExist() {
        let yaml = """
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements:
                  - {id: a, frame: [0, 0, 10, 10]}
            tests:
              - name: t
                screen: mian
                steps: []
            """
        only(yaml, 10, 13, "screen 'mian' is not in screens (main)")
    }

    @Test("hold needs a switch and positive seconds; wait needs seconds ≥ 0")
    func holdAndWait() {
        only(step("hold: {switch: select}"), 12, 15, "missing 'seconds'")
        only(step("hold: {switch: select, seconds: 0}"), 12, 41, "hold needs a number of seconds above 0 and at most 3600; found 0")
        only(step("hold: {switch: select, seconds: 1, secs: 2}"), 12, 44, "unknown key 'secs' in hold")
        only(step("wait: -1"), 12, 15, "wait needs a number of seconds from 0 to 3600; found -1")
        only(step("wait: soon"), 12, 15, "expected a number for wait, found 'soon'")
    }

    @Test("route with a negative or fractional cell")
    func routeNegative() {
        only(step("route: -1"), 12, 16, "route needs a cell number from 0 to 9999 (0 is the first cell); found -1")
        only(step("route: 1.5"), 12, 16, "route needs a cell number from 0 to 9999 (0 is the first cell); found 1.5")
    }

    @Test("key step with a bad code or value")
    func badKey() {
        only(step("key: {code: SPACE, value: 1}"), 12, 21, "code 'SPACE' is not an evdev key name (KEY_… or BTN_…)")
        only(step("key: {code: KEY_SPACE, value: 3}"), 12, 39, "value must be 0 (release), 1 (press) or 2 (repeat)")
        only(step("key: {code: KEY_SPACE}"), 12, 14, "missing 'value'")
        only(step("key: {code: KEY_SPACE, value: 1, vlaue: 2}"), 12, 42, "unknown key 'vlaue' in key", "(did you mean 'value'?)")
    }

    @Test("unknown state name in expect state, and a wrong type")
    func expectState() {
        only(step("expect: {state: {wfi: true}}"), 12, 26, "unknown state name 'wfi'", "(did you mean 'wifi'?)")
        only(step("expect: {state: {wifi: 1}}"), 12, 32, "state 'wifi' is a boolean; the expectation gives a number")
    }

    @Test("expect: unknown key, screen, focus and scanning status")
    func expectOtherKeys() {
        only(step("expect: {focsu: a}"), 12, 18, "unknown key 'focsu' in expect", "(did you mean 'focus'?)")
        only(step("expect: {screen: settings}"), 12, 26, "screen 'settings' is not in screens (main)")
        only(step("expect: {focus: ghost}"), 12, 25, "focus 'ghost' is not the id of any element in the scene")
        only(step("expect: {scanning: paused}"), 12, 28, "scanning is running or stopped, not 'paused'")
        only(step("expect: {menu: Tap}"), 12, 24, "expected a list for menu, found 'Tap'")
    }

    @Test("unknown setting, with a suggestion")
    func unknownSetting() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens: {main: {elements: []}}
            tests:
              - name: t
                settings: {scaning: auto}
                steps: []
            """, 7, 16, "unknown setting 'scaning'", "(did you mean 'scanning'?)", "expected one of: scanning, autoScanningTime")
    }

    @Test("bad setting values", arguments: [
        ("autoScanningTime: -1", 25, "setting 'autoScanningTime' expects a number of seconds from 0.1 to 600; found -1"),
        ("scanning: fast", 17, "setting 'scanning' expects one of auto, manual, singleSwitchStep; found fast"),
        ("loops: 1.5", 14, "setting 'loops' expects a whole number from 1 to 100; found 1.5"),
        ("groupItems: yes", 19, "setting 'groupItems' expects true or false; found yes"),
        ("pauseOnFirstItem: never", 25, "setting 'pauseOnFirstItem' expects a number of seconds from 0.05 to 600, or off (0 is off); found never"),
        ("tapBehavior: [autoTap]", 20, "expected true/false, a number or a string for setting 'tapBehavior', found a list"),
    ])
    func badSettingValue(setting: String, column: Int, message: String) {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens: {main: {elements: []}}
            tests:
              - name: t
                settings:
                  \(setting)
                steps: []
            """, 8, column, message)
    }

    @Test("a test needs a name and steps")
    func testMissingKeys() {
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens: {main: {elements: []}}
            tests:
              - steps: []
            """, 6, 5, "missing 'name'")
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens: {main: {elements: []}}
            tests:
              - name: t
            """, 6, 5, "missing 'steps'")
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens: {main: {elements: []}}
            tests: {name: t}
            """, 5, 8, "expected a list for tests, found a mapping")
    }
}

@Suite("Loader errors: several at once")
struct SeveralProblemsTests {
    @Test("every problem in a file is reported, sorted by position")
    func severalProblems() {
        let yaml = """
            scene: T
            size: [100, 100]
            state: {wifi: true}
            start: nowhere
            screens:
              main:
                elements:
                  - id: a
                    activate: [{post: {notification: layoutChanged, focus: ghost}}]
                    traits: [buton]
                  - id: a
            tests:
              - name: t
                steps: [{press: selct}]
            bogus: 1
            """
        let problems = LoaderSupport.problems(yaml)
        let positions = problems.map { "\($0.location.line):\($0.location.column)" }
        #expect(positions == ["4:8", "9:64", "10:18", "11:13", "14:21", "15:1"])
        guard problems.count == 6 else { return }
        #expect(problems[0].message.contains("start names screen 'nowhere'"))
        #expect(problems[1].message.contains("focus 'ghost' is not the id of any element"))
        #expect(problems[2].message.contains("unknown trait 'buton'"))
        #expect(problems[3].message.contains("duplicate id 'a'"))
        #expect(problems[4].message.contains("unknown switch action 'selct'"))
        #expect(problems[5].message.contains("unknown key 'bogus' in a scene"))
        #expect(problems.allSatisfy { $0.location.file == LoaderSupport.file })
    }

    @Test("the error's description lists every problem as file:line:column: error: message")
    func description() {
        do {
            _ = try SceneParser.parse(yaml: element("lable: x", "hint: \"{zzz}\""), file: "dir/scene.yaml")
            Issue.record("loaded")
        } catch {
            let lines = error.description.split(separator: "\n").map(String.init)
            #expect(lines.count == 2)
            #expect(lines.first?.hasPrefix("dir/scene.yaml:10:9: error: unknown key 'lable' in an element") == true)
            #expect(lines.last?.hasPrefix("dir/scene.yaml:11:15: error: hint reads unknown state name 'zzz'") == true)
        }
    }

    @Test("problems on one line are sorted by column")
    func sameLine() {
        let yaml = element("traits: [buton, {selectd: wifi}, headr]")
        let found = LoaderSupport.problems(yaml)
        #expect(found.map(\.location.column) == [18, 26, 42])
    }
}

@Suite("Loader limits")
struct LimitTests {
    @Test("elements nested deeper than maxDepth")
    func depth() {
        let limits = SceneLimits(maxDepth: 2)
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements:
                  - elements:
                      - elements:
                          - {label: too deep}
            """, 9, 15, "elements are nested more than 2 deep", limits: limits)
    }

    @Test("the standard depth limit (64) stops deep nesting")
    func standardDepth() {
        let depth = 70
        var nested = "{label: leaf}"
        for _ in 0..<depth { nested = "{elements: [\(nested)]}" }
        let yaml = "scene: T\nsize: [100, 100]\nstart: main\nscreens:\n  main:\n    elements: [\(nested)]\n"
        let problems = LoaderSupport.problems(yaml)
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("elements are nested more than 64 deep") == true)
        #expect(problems.first?.location.line == 6)
    }

    @Test("more elements than maxElements")
    func elementCount() {
        let limits = SceneLimits(maxElements: 3)
        only("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements: [{id: a}, {id: b}]
              other:
                elements: [{id: c}, {id: d}, {id: e}]
            """, 8, 25, "the scene has more than 3 elements", limits: limits)
    }

    @Test("a string longer than maxStringLength")
    func stringLength() {
        let limits = SceneLimits(maxStringLength: 10)
        only(element("hint: abcdefghijk"), 10, 15, "hint is 11 characters long; at most 10 are accepted", limits: limits)
        only("""
            scene: T
            size: [100, 100]
            state: {s: abcdefghijk}
            start: main
            screens: {main: {elements: []}}
            """, 3, 12, "state value 's' is 11 characters long", limits: limits)
        // The standard limit is 10 000 characters.
        only(element("hint: " + String(repeating: "x", count: 10_001)), 10, 15,
             "hint is 10001 characters long; at most 10000 are accepted")
    }

    @Test("a file larger than maxBytes")
    func fileSize() {
        let yaml = element("hint: " + String(repeating: "y", count: 200))
        let size = yaml.utf8.count
        only(yaml, 1, 1, "the file is \(size) bytes; at most 256 are accepted", limits: SceneLimits(maxBytes: 256))
    }

    /// `levels` levels of ten aliases each: 10^levels elements if expanded.
    static func aliasBomb(levels: Int, leaf: String = "{label: boom}") -> String {
        var lines = [
            "scene: Bomb",
            "size: [100, 100]",
            "start: main",
            "screens:",
            "  main:",
            "    elements:",
            "      - &l0 \(leaf)",
        ]
        for level in 1...levels {
            let refs = Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ")
            lines.append("      - &l\(level) {elements: [\(refs)]}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // No wall-clock bounds here (speed is for benchmarks): a bomb that were expanded would not
    // come back at all (10^9 elements), and the position line 1, column 1 shows the file was
    // refused before any element was read.
    @Test("an alias bomb is stopped by a small maxNodes before any element is read")
    func aliasBombSmallLimit() {
        let problems = LoaderSupport.problems(Self.aliasBomb(levels: 9), limits: SceneLimits(maxNodes: 10_000))
        #expect(problems.count == 1)
        if let problem = problems.first {
            LoaderSupport.expect(problem, line: 1, column: 1, [
                "the file has more than 10000 YAML nodes (aliases count each time they are used;",
                "at most 10000); it is refused",
            ])
        }
    }

    @Test("an alias bomb (10^9 elements) is stopped by the node budget its own size gives")
    func aliasBombStandardLimits() {
        let yaml = Self.aliasBomb(levels: 9)
        let budget = yaml.utf8.count + 10_000
        let problems = LoaderSupport.problems(yaml)
        #expect(problems.count == 1)
        if let problem = problems.first {
            LoaderSupport.expect(problem, line: 1, column: 1, [
                "the file has more than \(budget) YAML nodes (aliases count each time they are used; a file's nodes are bounded by its size in bytes plus 10000, at most 20000000); it is refused",
            ])
        }
    }

    @Test("a bomb just under maxNodes is stopped by the element count as it is read")
    func aliasBombUnderNodeLimit() {
        // 10^3 leaves ≈ 4 × 10^3 nodes: under the node budget (size + 10 000), over maxElements.
        let problems = LoaderSupport.problems(Self.aliasBomb(levels: 3), limits: SceneLimits(maxElements: 500, maxNodes: 100_000))
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("the scene has more than 500 elements") == true)
    }

    @Test("a large file without aliases is stopped by maxNodes as it is read")
    func nodeLimitWithoutAliases() {
        let elements = (0..<40).map { "      - {id: e\($0), label: L}" }.joined(separator: "\n")
        let yaml = "scene: T\nsize: [100, 100]\nstart: main\nscreens:\n  main:\n    elements:\n" + elements + "\n"
        let problems = LoaderSupport.problems(yaml, limits: SceneLimits(maxNodes: 50))
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("the file has more than 50 YAML nodes") == true)
        #expect((problems.first?.location.line ?? 0) > 7)
    }

    @Test("an alias bomb whose every copy has a problem stops after 1000 problems")
    func aliasBombOfProblems() {
        // 1111 copies of an element with an unknown key: under every limit, but 1111 problems.
        let yaml = Self.aliasBomb(levels: 3, leaf: "{lable: boom}")
        let problems = LoaderSupport.problems(yaml)
        #expect(problems.count == 1001)
        #expect(problems.first?.message.contains("unknown key 'lable' in an element (did you mean 'label'?)") == true)
        #expect(problems.last?.message == "more than 1000 problems; the rest of the file was not checked")
    }

    @Test("aliases used sensibly load, and '*' in text is harmless")
    func sensibleAliases() throws {
        let scene = try LoaderSupport.load("""
            scene: Aliases
            size: [100, 100]
            state: {wifi: true}
            start: main
            screens:
              main:
                elements:
                  - {id: a, label: "5* hotel", frame: &f [0, 0, 10, 10], activate: &fx [{toggle: wifi}, {announce: "*"}]}
                  - {id: b, label: "**", frame: *f, activate: *fx}
            """)
        let b = try #require(LoaderSupport.find("b", in: scene.startScreen))
        #expect(b.frame == Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(b.activate == [.toggle("wifi"), .announce("*")])
    }
}
