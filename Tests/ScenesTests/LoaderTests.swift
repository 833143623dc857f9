import AccessibilityModel
import Scenes
import Testing

// Loading the whole contract (docs/scene-format.md) and our additions
// (docs/scene-format-additions.md) from inline YAML, then resolving screens against states.

/// Helpers for the loader's tests (LoaderTests, LoaderErrorTests, SceneStateTests).
enum LoaderSupport {
    static let file = "inline.yaml"

    /// Loads a scene; a load error fails the test with every problem listed.
    static func load(
        _ yaml: String, limits: SceneLimits = .standard,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> Scene {
        do {
            return try SceneParser.parse(yaml: yaml, file: file, limits: limits)
        } catch {
            Issue.record("the scene did not load:\n\(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    /// The problems a file is rejected with; records an issue if it loads.
    static func problems(
        _ yaml: String, limits: SceneLimits = .standard,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [SceneProblem] {
        do {
            _ = try SceneParser.parse(yaml: yaml, file: file, limits: limits)
            Issue.record("the scene loaded; expected it to be rejected", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.problems
        }
    }

    /// Expects exactly one problem, at `line`:`column`, whose message contains every fragment.
    @discardableResult
    static func expectOnlyProblem(
        _ yaml: String, line: Int, column: Int, _ fragments: String...,
        limits: SceneLimits = .standard,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> SceneProblem? {
        let found = problems(yaml, limits: limits, sourceLocation: sourceLocation)
        guard found.count == 1, let problem = found.first else {
            Issue.record(
                "expected exactly one problem, found \(found.count):\n\(found.map(\.description).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
            return nil
        }
        expect(problem, line: line, column: column, fragments, sourceLocation: sourceLocation)
        return problem
    }

    static func expect(
        _ problem: SceneProblem, line: Int, column: Int, _ fragments: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(problem.location.file == file, sourceLocation: sourceLocation)
        #expect(problem.location.line == line, "\(problem)", sourceLocation: sourceLocation)
        #expect(problem.location.column == column, "\(problem)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(problem.message.contains(fragment), "\(problem)", sourceLocation: sourceLocation)
        }
    }

    /// The element with this id anywhere in the tree, or nil.
    static func find(_ id: ElementID, in element: Element) -> Element? {
        if element.id == id { return element }
        for child in element.children {
            if let found = find(id, in: child) { return found }
        }
        return nil
    }

    static func find(_ id: ElementID, in screen: Screen) -> Element? {
        find(id, in: screen.root)
    }
}

/// A scene that uses every key of the contract and of our additions.
private let everything = """
    scene: Everything
    description: every key of the contract
    size: [390, 844]
    language: en-GB
    state:
      wifi: true
      volume: 5
      name: Ann
      canSend: false
      level: 2.5
    start: main
    screens:
      main:
        title: Main
        accessibilityElements: [title, wrap, slider, dialog, main.4]
        escape: [{go: settings}]
        magicTap: [{announce: "Magic {volume}"}]
        elements:
          - id: title
            label: "Hello {name}"
            value: "Wi-Fi {wifi?on:off}"
            hint: "Volume {volume} of 10, level {level}"
            traits: [header, {selected: wifi}, {notEnabled: "!canSend"}, {playsSound: volume}]
            language: fr-FR
            frame: [20, 40, 350, 44]
            activationPoint: [30, 50]
            isAccessibilityElement: true
            sortPriority: 2
          - id: wrap
            navigationStyle: combined
            shouldGroupAccessibilityChildren: true
            accessibilityElements: [test-2, test-1]
            elements:
              - {id: test-1, label: Test 1, traits: [button], frame: [20, 100, 170, 44]}
              - {id: test-2, label: Test 2, traits: [button], frame: [200, 100, 170, 44]}
              - label: shown without Wi-Fi
                frame: [40, 120, 10, 10]
                visible: "!wifi"
          - id: slider
            label: Volume
            value: "{volume}"
            traits: [adjustable]
            frame: [20, 300, 350, 44]
            increment: [{add: {volume: 1, min: 0, max: 10}}]
            decrement: [{add: {volume: -1, min: 0, max: 10}}]
            activate: [{toggle: wifi}, {set: {canSend: true, name: Bob}}]
            customActions:
              - name: "Mute {name}"
                do: [{set: {volume: 0}}, {announce: "Muted {name}"}]
              - {name: Settings, do: [{go: settings}]}
            customContent:
              - {label: date of creation, value: "1988"}
              - {label: volume, value: "{volume}", important: true}
              - {label: level, value: "{level}", important: false}
          - id: dialog
            visible: wifi
            accessibilityViewIsModal: canSend
            accessibilityElementsHidden: false
            isAccessibilityElement: false
            navigationStyle: separate
            elements:
              - id: status
                label: Status
                frame: [0, 400, 100, 20]
                escape: [{post: {notification: layoutChanged, focus: status}}]
                magicTap:
                  - post: {notification: announcement, text: "Now {volume}"}
                  - post: {notification: screenChanged}
                  - post: {notification: pageScrolled, text: Page 1 of 2}
          - navigationStyle: automatic
            elements:
              - {label: deep, frame: [0, 500, 5, 5]}
              - elements:
                  - {label: deeper, frame: [50, 600, 10, 20]}
      settings:
        title: Settings
        elements:
          - {id: back, label: Back, traits: [button], frame: [0, 0, 44, 44], activate: [{go: main}]}
    tests:
      - name: every step
        settings: {scanning: auto, autoScanningTime: 1.0, tapBehavior: alwaysTap, pauseOnFirstItem: off, loops: 2, groupItems: true, moveRepeat: 0.5}
        steps:
          - expect: {focus: wrap, braille: "Test 2 btn", menu: [Tap, Scroll], menuFocus: Tap, screen: main, state: {wifi: true, volume: 5, name: Ann}, announcement: "Message sent.", scanning: running}
          - press: select
          - hold: {switch: next, seconds: 1.5}
          - wait: 1.0
          - route: 3
          - key: {code: KEY_SPACE, value: 1}
          - expect: {scanning: stopped}
      - name: no settings
        steps: []
    """

@Suite("Loading the scene contract")
struct LoaderTests {
    @Test("scene keys: title, description, size, language, state, start, screens")
    func sceneKeys() throws {
        let scene = try LoaderSupport.load(everything)
        #expect(scene.title == "Everything")
        #expect(scene.description == "every key of the contract")
        #expect(scene.file == LoaderSupport.file)
        #expect(scene.size.width == 390 && scene.size.height == 844)
        #expect(scene.language == "en-GB")
        #expect(scene.stateNames == ["wifi", "volume", "name", "canSend", "level"])
        #expect(scene.initialState == [
            "wifi": .bool(true), "volume": .number(5), "name": .string("Ann"),
            "canSend": .bool(false), "level": .number(2.5),
        ])
        #expect(scene.start == "main")
        #expect(scene.screens.map(\.name) == ["main", "settings"])
        #expect(scene.screenTemplate(named: "settings")?.title == "Settings")
        #expect(scene.startScreen.name == "main")
    }

    @Test("the scene language defaults to en-US, as documented")
    func defaultLanguage() throws {
        let scene = try LoaderSupport.load("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements:
                  - {id: a, label: A, frame: [0, 0, 10, 10]}
            """)
        #expect(scene.language == "en-US")
        #expect(scene.initialState.isEmpty)
        #expect(scene.tests.isEmpty)
        let screen = try #require(scene.screen("main", state: [:]))
        #expect(LoaderSupport.find("a", in: screen)?.language == "en-US")
    }

    @Test("every element key reaches the model")
    func elementKeys() throws {
        let scene = try LoaderSupport.load(everything)
        let screen = scene.startScreen
        #expect(screen.root.id == "screen:main")
        #expect(screen.root.frame == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(screen.root.language == "en-GB")
        #expect(screen.root.isAccessibilityElement == false)
        #expect(screen.elements.map(\.id) == ["title", "wrap", "slider", "dialog", "main.4"])

        let title = try #require(LoaderSupport.find("title", in: screen))
        #expect(title.language == "fr-FR")
        #expect(title.frame == Rect(x: 20, y: 40, width: 350, height: 44))
        #expect(title.activationPoint == Point(x: 30, y: 50))
        #expect(title.isAccessibilityElementDeclared == true)
        #expect(title.sortPriority == 2)
        #expect(title.navigationStyle == .automatic)
        #expect(title.isPresent)

        let wrap = try #require(LoaderSupport.find("wrap", in: screen))
        #expect(wrap.navigationStyle == .combined)
        #expect(wrap.shouldGroupAccessibilityChildren)
        #expect(wrap.accessibilityElements == ["test-2", "test-1"])
        #expect(wrap.isAccessibilityElementDeclared == nil)
        #expect(wrap.isAccessibilityElement == false, "a container is not an item by default")
        #expect(wrap.language == "en-GB", "inherited from the scene")
        #expect(wrap.children.map(\.id) == ["test-1", "test-2", "wrap.2"])
        let test1 = try #require(LoaderSupport.find("test-1", in: screen))
        #expect(test1.isAccessibilityElement, "a leaf is an item by default")
        #expect(test1.traits == .button)
        #expect(test1.label == "Test 1")
        #expect(test1.sortPriority == 0)
        #expect(test1.activationPoint == nil)
        #expect(test1.resolvedActivationPoint == Point(x: 105, y: 122))

        let dialog = try #require(LoaderSupport.find("dialog", in: screen))
        #expect(dialog.isAccessibilityElementDeclared == false)
        #expect(dialog.accessibilityElementsHidden == false)
        #expect(dialog.accessibilityViewIsModal == false, "bound to canSend, which is false")
        #expect(dialog.navigationStyle == .separate)

        let slider = try #require(LoaderSupport.find("slider", in: screen))
        #expect(slider.traits == .adjustable)
        #expect(slider.customActions.map(\.name) == ["Mute Ann", "Settings"])
        #expect(slider.customContent == [
            CustomContent(label: "date of creation", value: "1988", isImportant: false),
            CustomContent(label: "volume", value: "5", isImportant: true),
            CustomContent(label: "level", value: "2.5", isImportant: false),
        ])
    }

    @Test("bindings and conditional traits render against several states")
    func bindingsAgainstStates() throws {
        let scene = try LoaderSupport.load(everything)

        let initial = try #require(scene.screen("main", state: scene.initialState))
        let title = try #require(LoaderSupport.find("title", in: initial))
        #expect(title.label == "Hello Ann")
        #expect(title.value == "Wi-Fi on")
        #expect(title.hint == "Volume 5 of 10, level 2.5")
        #expect(title.traits == [.header, .selected, .notEnabled, .playsSound])
        #expect(LoaderSupport.find("wrap.2", in: initial)?.isPresent == false)
        #expect(LoaderSupport.find("dialog", in: initial)?.isPresent == true)
        #expect(LoaderSupport.find("slider", in: initial)?.value == "5")

        var changed = scene.initialState
        changed["wifi"] = .bool(false)
        changed["canSend"] = .bool(true)
        changed["volume"] = .number(0)
        changed["name"] = .string("Bob")
        changed["level"] = .number(-1)
        let other = try #require(scene.screen("main", state: changed))
        let title2 = try #require(LoaderSupport.find("title", in: other))
        #expect(title2.label == "Hello Bob")
        #expect(title2.value == "Wi-Fi off")
        #expect(title2.hint == "Volume 0 of 10, level -1")
        #expect(title2.traits == .header, "selected needs wifi; notEnabled needs !canSend; playsSound needs volume ≠ 0")
        #expect(LoaderSupport.find("wrap.2", in: other)?.isPresent == true)
        #expect(LoaderSupport.find("dialog", in: other)?.isPresent == false)
        #expect(LoaderSupport.find("dialog", in: other)?.accessibilityViewIsModal == true)
        #expect(LoaderSupport.find("slider", in: other)?.customActions.first?.name == "Mute Bob")
        #expect(LoaderSupport.find("slider", in: other)?.customContent[1].value == "0")

        var third = changed
        third["volume"] = .number(7.25)
        third["wifi"] = .bool(true)
        let screen3 = try #require(scene.screen("main", state: third))
        let title3 = try #require(LoaderSupport.find("title", in: screen3))
        #expect(title3.hint == "Volume 7.25 of 10, level -1")
        #expect(title3.value == "Wi-Fi on")
        #expect(title3.traits == [.header, .selected, .playsSound])

        #expect(scene.screen("nowhere", state: scene.initialState) == nil)
    }

    @Test("a frame defaults to the union of the children's frames")
    func frameUnion() throws {
        let scene = try LoaderSupport.load(everything)
        let screen = scene.startScreen
        let wrap = try #require(LoaderSupport.find("wrap", in: screen))
        #expect(wrap.frame == nil)
        #expect(wrap.resolvedFrame == Rect(x: 20, y: 100, width: 350, height: 44))
        #expect(wrap.resolvedActivationPoint == Point(x: 195, y: 122))
        // Nested: main.4 holds a leaf and a container whose frame is itself a union.
        let outer = try #require(LoaderSupport.find("main.4", in: screen))
        #expect(outer.resolvedFrame == Rect(x: 0, y: 500, width: 60, height: 120))
        #expect(LoaderSupport.find("main.4.1", in: screen)?.resolvedFrame == Rect(x: 50, y: 600, width: 10, height: 20))
    }

    @Test("ids are derived from the path when absent")
    func derivedIDs() throws {
        let scene = try LoaderSupport.load(everything)
        let templates = scene.allElementTemplates
        let byID = Dictionary(uniqueKeysWithValues: templates.map { ($0.id, $0) })
        #expect(byID["wrap.2"]?.hasDeclaredID == false)
        #expect(byID["main.4"]?.hasDeclaredID == false)
        #expect(byID["main.4.0"]?.hasDeclaredID == false)
        #expect(byID["main.4.1.0"]?.label?.constantText == "deeper")
        #expect(byID["wrap"]?.hasDeclaredID == true)
        #expect(templates.map(\.id) == [
            "title", "wrap", "test-1", "test-2", "wrap.2", "slider", "dialog", "status",
            "main.4", "main.4.0", "main.4.1", "main.4.1.0", "back",
        ])
    }

    @Test("template locations point at the element and at each key")
    func templateLocations() throws {
        let scene = try LoaderSupport.load(everything)
        let title = try #require(scene.allElementTemplates.first { $0.id == "title" })
        #expect(title.location == Scenes.SourceLocation(file: LoaderSupport.file, line: 19, column: 9))
        #expect(title.location(of: "label") == Scenes.SourceLocation(file: LoaderSupport.file, line: 20, column: 9))
        #expect(title.location(of: "sortPriority").line == 28)
        let main = try #require(scene.screenTemplate(named: "main"))
        #expect(main.location == Scenes.SourceLocation(file: LoaderSupport.file, line: 14, column: 5))
    }

    @Test("screen-level accessibilityElements, escape and magicTap")
    func screenKeys() throws {
        let scene = try LoaderSupport.load(everything)
        let main = try #require(scene.screenTemplate(named: "main"))
        #expect(main.title == "Main")
        #expect(main.accessibilityElements == ["title", "wrap", "slider", "dialog", "main.4"])
        #expect(main.escape == [.go("settings")])
        #expect(main.magicTap == [.announce("Magic {volume}")])
        let screen = scene.startScreen
        #expect(screen.root.accessibilityElements == ["title", "wrap", "slider", "dialog", "main.4"])
        #expect(screen.root.escape == [.go("settings")])
        #expect(screen.root.magicTap == [.announce("Magic {volume}")])
        let settings = try #require(scene.screen("settings", state: scene.initialState))
        #expect(settings.root.accessibilityElements == nil)
        #expect(settings.root.escape == nil)
    }

    @Test("effects of every kind")
    func effects() throws {
        let scene = try LoaderSupport.load(everything)
        let screen = scene.startScreen
        let slider = try #require(LoaderSupport.find("slider", in: screen))
        #expect(slider.increment == [.add(name: "volume", amount: 1, min: 0, max: 10)])
        #expect(slider.decrement == [.add(name: "volume", amount: -1, min: 0, max: 10)])
        #expect(slider.activate == [.toggle("wifi"), .set([("canSend", .bool(true)), ("name", .string("Bob"))])])
        #expect(slider.customActions[0].effects == [.set([("volume", .number(0))]), .announce("Muted {name}")])
        #expect(slider.customActions[1].effects == [.go("settings")])
        #expect(slider.escape == nil && slider.magicTap == nil)

        let status = try #require(LoaderSupport.find("status", in: screen))
        #expect(status.escape == [.post(AccessibilityNotification(kind: .layoutChanged, focus: "status"))])
        #expect(status.magicTap == [
            .post(AccessibilityNotification(kind: .announcement, text: "Now {volume}")),
            .post(AccessibilityNotification(kind: .screenChanged)),
            .post(AccessibilityNotification(kind: .pageScrolled, text: "Page 1 of 2")),
        ])
        let back = try #require(scene.screen("settings", state: scene.initialState).flatMap { LoaderSupport.find("back", in: $0) })
        #expect(back.activate == [.go("main")])
    }

    @Test("{selected: wifi} and {selected: \"!wifi\"} follow the state; hidden and modal constants")
    func selectedAndNegation() throws {
        let scene = try LoaderSupport.load("""
            scene: T
            size: [100, 100]
            state: {wifi: true}
            start: main
            screens:
              main:
                elements:
                  - {id: on, traits: [button, {selected: wifi}], frame: [0, 0, 10, 10]}
                  - {id: off, traits: [button, {selected: "!wifi"}], frame: [0, 20, 10, 10]}
                  - {id: hidden, accessibilityElementsHidden: true, accessibilityViewIsModal: true, elements: [{id: x}]}
            """)
        let wifiOn = scene.startScreen
        #expect(LoaderSupport.find("on", in: wifiOn)?.traits == [.button, .selected])
        #expect(LoaderSupport.find("off", in: wifiOn)?.traits == .button)
        let wifiOff = try #require(scene.screen("main", state: ["wifi": .bool(false)]))
        #expect(LoaderSupport.find("on", in: wifiOff)?.traits == .button)
        #expect(LoaderSupport.find("off", in: wifiOff)?.traits == [.button, .selected])
        let hidden = try #require(LoaderSupport.find("hidden", in: wifiOn))
        #expect(hidden.accessibilityElementsHidden && hidden.accessibilityViewIsModal)
        #expect(hidden.resolvedFrame == nil, "no frame and no framed children")
    }

    @Test("add without bounds, and with only one bound")
    func addBounds() throws {
        let scene = try LoaderSupport.load("""
            scene: T
            size: [100, 100]
            state: {n: 1}
            start: main
            screens:
              main:
                elements:
                  - id: a
                    frame: [0, 0, 10, 10]
                    activate: [{add: {n: 2}}, {add: {min: -5, n: -0.5}}, {add: {n: 3, max: 4}}]
            """)
        let a = try #require(LoaderSupport.find("a", in: scene.startScreen))
        #expect(a.activate == [
            .add(name: "n", amount: 2, min: nil, max: nil),
            .add(name: "n", amount: -0.5, min: -5, max: nil),
            .add(name: "n", amount: 3, min: nil, max: 4),
        ])
    }

    @Test("scripted tests: settings and every step kind")
    func scriptedTests() throws {
        let scene = try LoaderSupport.load(everything)
        #expect(scene.tests.map(\.name) == ["every step", "no settings"])
        let test = try #require(scene.tests.first)
        #expect(test.location.line == 80)
        #expect(test.settings.map { $0.name } == [
            "scanning", "autoScanningTime", "tapBehavior", "pauseOnFirstItem", "loops", "groupItems", "moveRepeat",
        ])
        #expect(test.settings.map { $0.value } == [
            .string("auto"), .number(1), .string("alwaysTap"), .bool(false), .number(2), .bool(true), .number(0.5),
        ])
        #expect(test.settings[0].location.line == 81)
        #expect(test.steps.count == 7)
        #expect(test.steps.map(\.location.line) == Array(83...89))

        guard case .expect(let first) = test.steps[0].kind else {
            Issue.record("step 1 is \(test.steps[0].kind)")
            return
        }
        #expect(first.focus == "wrap")
        #expect(first.braille == "Test 2 btn")
        #expect(first.menu == ["Tap", "Scroll"])
        #expect(first.menuFocus == "Tap")
        #expect(first.screen == "main")
        #expect(first.state?.map { $0.name } == ["wifi", "volume", "name"])
        #expect(first.state?.map { $0.value } == [.bool(true), .number(5), .string("Ann")])
        #expect(first.announcement == "Message sent.")
        #expect(first.scanning == .running)

        guard case .press(let press, nil) = test.steps[1].kind else { Issue.record("step 2"); return }
        #expect(press == .select)
        guard case .hold(let holdAction, let seconds, nil) = test.steps[2].kind else { Issue.record("step 3"); return }
        #expect(holdAction == .next && seconds == 1.5)
        guard case .wait(let wait) = test.steps[3].kind else { Issue.record("step 4"); return }
        #expect(wait == 1)
        guard case .route(let cell) = test.steps[4].kind else { Issue.record("step 5"); return }
        #expect(cell == 3)
        guard case .key(let code, let value) = test.steps[5].kind else { Issue.record("step 6"); return }
        #expect(code == "KEY_SPACE" && value == 1)
        guard case .expect(let last) = test.steps[6].kind else { Issue.record("step 7"); return }
        #expect(last.scanning == .stopped)
        #expect(last.focus == nil && last.braille == nil && last.menu == nil && last.state == nil)

        #expect(scene.tests[1].settings.isEmpty)
        #expect(scene.tests[1].steps.isEmpty)
    }

    @Test("every switch action can be pressed", arguments: SwitchAction.allCases)
    func switchActions(action: SwitchAction) throws {
        let scene = try LoaderSupport.load("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main: {elements: [{id: a, frame: [0, 0, 10, 10]}]}
            tests:
              - name: t
                steps:
                  - press: \(action.rawValue)
                  - hold: {switch: \(action.rawValue), seconds: 2}
            """)
        guard case .press(let pressed, nil) = scene.tests[0].steps[0].kind,
              case .hold(let held, _, nil) = scene.tests[0].steps[1].kind else {
            Issue.record("unexpected steps")
            return
        }
        #expect(pressed == action && held == action)
    }

    @Test("settings: every shape, including seconds or off")
    func settingShapes() throws {
        let scene = try LoaderSupport.load("""
            scene: T
            size: [100, 100]
            start: main
            screens:
              main: {elements: [{id: a, frame: [0, 0, 10, 10]}]}
            tests:
              - name: t
                settings:
                  scanning: manual
                  longPress: 0.4
                  holdDuration: false
                  ignoreRepeat: 0
                  focusedItemAfterTap: current
                  brailleHints: false
                  dwellTime: 2
                steps: [{wait: 0}]
            """)
        let settings = scene.tests[0].settings
        #expect(settings.map { $0.value } == [
            .string("manual"), .number(0.4), .bool(false), .number(0), .string("current"), .bool(false), .number(2),
        ])
    }

    @Test("JSON is accepted (it is YAML)")
    func json() throws {
        let scene = try LoaderSupport.load("""
            {
              "scene": "From JSON",
              "size": [390, 844],
              "state": {"on": false, "count": 3},
              "start": "main",
              "screens": {
                "main": {
                  "elements": [
                    {"id": "b", "label": "Count {count}", "traits": ["button", {"selected": "on"}],
                     "frame": [0, 0, 100, 44], "activate": [{"toggle": "on"}, {"add": {"count": 1, "max": 3}}]},
                    {"label": "{on?On:Off}", "frame": [0, 50, 100, 44]}
                  ]
                }
              },
              "tests": [{"name": "j", "steps": [{"press": "select"}, {"expect": {"state": {"on": true}}}]}]
            }
            """)
        #expect(scene.title == "From JSON")
        let screen = scene.startScreen
        let b = try #require(LoaderSupport.find("b", in: screen))
        #expect(b.label == "Count 3")
        #expect(b.traits == .button)
        #expect(b.activate == [.toggle("on"), .add(name: "count", amount: 1, min: nil, max: 3)])
        #expect(LoaderSupport.find("main.1", in: screen)?.label == "Off")
        #expect(scene.tests.first?.steps.count == 2)
    }

    @Test("a quoted number or boolean in state is a string")
    func quotedStateValues() throws {
        let scene = try LoaderSupport.load("""
            scene: T
            size: [100, 100]
            state: {a: "true", b: "5", c: 5, d: -2.5e1, e: ""}
            start: main
            screens:
              main: {elements: [{id: a, label: "{a}{b}{c}{d}[{e}]{e?x:y}", frame: [0, 0, 10, 10]}]}
            """)
        #expect(scene.initialState == [
            "a": .string("true"), "b": .string("5"), "c": .number(5), "d": .number(-25), "e": .string(""),
        ])
        #expect(LoaderSupport.find("a", in: scene.startScreen)?.label == "true55-25[]y")
    }

    @Test("a scene exactly at the limits loads")
    func atTheLimits() throws {
        let limits = SceneLimits(maxBytes: 400, maxDepth: 3, maxElements: 4, maxStringLength: 5, maxNodes: 200)
        let yaml = """
            scene: T
            size: [100, 100]
            start: main
            screens:
              main:
                elements:
                  - elements:
                      - elements:
                          - {label: abcde, frame: [0, 0, 1, 1]}
                  - {id: last, frame: [0, 0, 1, 1]}
            """
        #expect(yaml.utf8.count <= 400)
        let scene = try LoaderSupport.load(yaml, limits: limits)
        #expect(scene.allElementTemplates.count == 4)
    }
}
