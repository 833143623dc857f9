import AccessibilityModel
import Scenes
import Testing

// SceneState.perform: what each effect does to the state and the screen, and what it posts.

@Suite("SceneState.perform")
struct SceneStateTests {
    static let initial: [String: StateValue] = [
        "wifi": .bool(true), "volume": .number(5), "name": .string("Ann"),
    ]

    func state() -> SceneState {
        SceneState(values: Self.initial, screen: "main")
    }

    @Test("set assigns every value, in order, and posts nothing")
    func set() {
        var state = state()
        let posted = state.perform([.set([("wifi", .bool(false)), ("volume", .number(2)), ("volume", .number(3))])])
        #expect(posted.isEmpty)
        #expect(state.values == ["wifi": .bool(false), "volume": .number(3), "name": .string("Ann")])
        #expect(state.screen == "main")
    }

    @Test("toggle flips a boolean, twice back again")
    func toggle() {
        var state = state()
        #expect(state.perform([.toggle("wifi")]).isEmpty)
        #expect(state.values["wifi"] == .bool(false))
        _ = state.perform([.toggle("wifi")])
        #expect(state.values["wifi"] == .bool(true))
    }

    @Test("add steps a number and clamps it to min and max")
    func addClamps() {
        var state = state()
        #expect(state.perform([.add(name: "volume", amount: 1, min: 0, max: 10)]).isEmpty)
        #expect(state.values["volume"] == .number(6))
        _ = state.perform(Array(repeating: .add(name: "volume", amount: 3, min: 0, max: 10), count: 3))
        #expect(state.values["volume"] == .number(10), "clamped to max")
        _ = state.perform([.add(name: "volume", amount: -25, min: 0, max: 10)])
        #expect(state.values["volume"] == .number(0), "clamped to min")
        _ = state.perform([.add(name: "volume", amount: -2.5, min: nil, max: nil)])
        #expect(state.values["volume"] == .number(-2.5), "no bounds")
        _ = state.perform([.add(name: "volume", amount: 100, min: -3, max: nil)])
        #expect(state.values["volume"] == .number(97.5), "only a minimum")
    }

    @Test("go switches the screen and posts screenChanged")
    func go() {
        var state = state()
        let posted = state.perform([.go("settings")])
        #expect(state.screen == "settings")
        #expect(posted == [AccessibilityNotification(kind: .screenChanged)])
        #expect(state.values == Self.initial)
    }

    @Test("announce renders its bindings at the time it runs")
    func announceRendersAtThatTime() {
        var state = state()
        let posted = state.perform([
            .announce("Hello {name}, volume {volume}"),
            .set([("name", .string("Bob"))]),
            .add(name: "volume", amount: 0.5, min: nil, max: nil),
            .announce("Hello {name}, volume {volume}, Wi-Fi {wifi?on:off}"),
            .toggle("wifi"),
            .announce("Wi-Fi {wifi?on:off}; {{literal}}"),
        ])
        #expect(posted == [
            AccessibilityNotification(kind: .announcement, text: "Hello Ann, volume 5"),
            AccessibilityNotification(kind: .announcement, text: "Hello Bob, volume 5.5, Wi-Fi on"),
            AccessibilityNotification(kind: .announcement, text: "Wi-Fi off; {literal}"),
        ])
    }

    @Test("post passes focus and text, with the text's bindings rendered")
    func post() {
        var state = state()
        let posted = state.perform([
            .post(AccessibilityNotification(kind: .layoutChanged, focus: "status")),
            .post(AccessibilityNotification(kind: .announcement, text: "Volume {volume}")),
            .add(name: "volume", amount: 1, min: nil, max: nil),
            .post(AccessibilityNotification(kind: .pageScrolled, text: "Page {volume} of 9")),
            .post(AccessibilityNotification(kind: .screenChanged)),
        ])
        #expect(posted == [
            AccessibilityNotification(kind: .layoutChanged, focus: "status"),
            AccessibilityNotification(kind: .announcement, text: "Volume 5"),
            AccessibilityNotification(kind: .pageScrolled, text: "Page 6 of 9"),
            AccessibilityNotification(kind: .screenChanged),
        ])
        #expect(state.screen == "main", "posting screenChanged does not itself change the screen")
    }

    @Test("effects run in order, notifications come back in order")
    func order() {
        var state = state()
        let posted = state.perform([.announce("first"), .go("other"), .announce("on {name}"), .go("main")])
        #expect(posted.map(\.kind) == [.announcement, .screenChanged, .announcement, .screenChanged])
        #expect(posted[2].text == "on Ann")
        #expect(state.screen == "main")
        #expect(state.perform([]).isEmpty)
    }

    @Test("effects loaded from a scene, run on its state, change the resolved screen")
    func fromAScene() throws {
        let scene = try LoaderSupport.load("""
            scene: Wi-Fi
            size: [390, 844]
            state: {wifi: false, volume: 9}
            start: main
            screens:
              main:
                elements:
                  - id: switch
                    label: Wi-Fi
                    value: "{wifi?on:off}"
                    traits: [button, {selected: wifi}]
                    frame: [0, 0, 390, 44]
                    activate:
                      - toggle: wifi
                      - announce: "Wi-Fi {wifi?on:off}"
                      - post: {notification: layoutChanged, focus: status}
                  - id: status
                    label: "Volume {volume}"
                    visible: wifi
                    frame: [0, 50, 390, 44]
                    traits: [adjustable]
                    increment: [{add: {volume: 1, min: 0, max: 10}}]
                    decrement: [{add: {volume: -1, min: 0, max: 10}}]
                    customActions:
                      - {name: Settings, do: [{go: settings}]}
              settings:
                elements: [{id: back, label: Back, frame: [0, 0, 44, 44], activate: [{go: main}]}]
            """)
        var state = SceneState(scene: scene)
        #expect(state.screen == "main")
        #expect(state.values == scene.initialState)

        let before = try #require(state.resolvedScreen(in: scene))
        #expect(LoaderSupport.find("switch", in: before)?.value == "off")
        #expect(LoaderSupport.find("status", in: before)?.isPresent == false)

        let toggleSwitch = try #require(LoaderSupport.find("switch", in: before)?.activate)
        let posted = state.perform(toggleSwitch)
        #expect(posted == [
            AccessibilityNotification(kind: .announcement, text: "Wi-Fi on"),
            AccessibilityNotification(kind: .layoutChanged, focus: "status"),
        ])
        let after = try #require(state.resolvedScreen(in: scene))
        #expect(LoaderSupport.find("switch", in: after)?.value == "on")
        #expect(LoaderSupport.find("switch", in: after)?.traits == [.button, .selected])
        let status = try #require(LoaderSupport.find("status", in: after))
        #expect(status.isPresent)

        _ = state.perform(try #require(status.increment))
        _ = state.perform(try #require(status.increment))
        #expect(state.values["volume"] == .number(10), "9 + 1 + 1 clamped to 10")
        #expect(LoaderSupport.find("status", in: try #require(state.resolvedScreen(in: scene)))?.label == "Volume 10")

        let go = state.perform(status.customActions[0].effects)
        #expect(go == [AccessibilityNotification(kind: .screenChanged)])
        #expect(state.screen == "settings")
        #expect(state.resolvedScreen(in: scene)?.elements.map(\.id) == ["back"])
    }

    @Test("SceneState is a value: copies are independent")
    func valueSemantics() {
        let original = state()
        var copy = original
        _ = copy.perform([.toggle("wifi"), .go("x")])
        #expect(original.values["wifi"] == .bool(true))
        #expect(original.screen == "main")
        #expect(copy != original)
    }
}
