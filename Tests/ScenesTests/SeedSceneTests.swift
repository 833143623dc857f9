import AccessibilityModel
import Scenes
import Testing
import Foundation

/// Every seed example as a scene: its scan structure per screen, and its behaviour through the
/// model's activation rule and the scene's effects.
@Suite("Seed scenes")
struct SeedSceneTests {
    struct Expected: CustomTestStringConvertible, Sendable {
        var file: String
        var screen: String
        var state: [String: StateValue] = [:]
        /// With `groupItems` off: combined groups only.
        var items: String
        var testDescription: String { "\(file) \(screen)" }
    }

    static let expected: [Expected] = [
        .init(file: "switch-control-groups.yaml", screen: "main",
              items: "[test-wrap: test-1, test-2], btn-1, btn-2, [third-group: btn-5, btn-6]"),
        .init(file: "switch-control-groups.yaml", screen: "hidden",
              items: "[hidden-test-wrap: hidden-test-1, hidden-test-2], hidden-btn-1, hidden-btn-2, [hidden-third-group: hidden-btn-5, hidden-btn-6]"),
        .init(file: "grouped-label-and-switch.yaml", screen: "uikit", items: "wrap"),
        .init(file: "grouped-label-and-switch.yaml", screen: "swiftui", items: "hstack"),
        .init(file: "activation-point.yaml", screen: "main", items: "regrouping-elements"),
        .init(file: "activation-point.yaml", screen: "default-point", items: "default-point-regrouping-elements"),
        .init(file: "reading-order-keypad.yaml", screen: "uikit",
              items: "key-1, key-2, key-3, key-4, key-7, key-6, key-8, key-9, key-5"),
        .init(file: "reading-order-keypad.yaml", screen: "swiftui",
              items: "swiftui-key-1, swiftui-key-2, swiftui-key-3, swiftui-key-4, swiftui-key-7, swiftui-key-6, swiftui-key-8, swiftui-key-9, swiftui-key-5"),
        .init(file: "reading-order-keypad.yaml", screen: "plain",
              items: "plain-key-1, plain-key-4, plain-key-7, plain-key-2, plain-key-5, plain-key-8, plain-key-3, plain-key-6, plain-key-9"),
        .init(file: "modal-views.yaml", screen: "initial", items: "a1, a2, a3, b1-1, b1-2, b2-1, b2-2, b2-3"),
        .init(file: "modal-views.yaml", screen: "example1", items: "example1-a1, example1-a2, example1-a3"),
        .init(file: "modal-views.yaml", screen: "example2",
              items: "example2-a2, example2-b1-1, example2-b1-2, example2-b2-1, example2-b2-2, example2-b2-3"),
        .init(file: "modal-views.yaml", screen: "example2-fixed", items: "example2-fixed-a2"),
        .init(file: "modal-views.yaml", screen: "example3",
              items: "example3-a1, example3-a2, example3-a3, example3-b1-1, example3-b2-1, example3-b2-2, example3-b2-3"),
        .init(file: "modal-views.yaml", screen: "example3-fixed", items: "example3-fixed-b1-1"),
        .init(file: "hidden-squares.yaml", screen: "container", items: "yellow-square, blue-square"),
        .init(file: "hidden-squares.yaml", screen: "accessible-container", items: "accessible-container-red-square"),
        .init(file: "hidden-squares.yaml", screen: "hidden", items: ""),
        .init(file: "adjustable-stepper.yaml", screen: "grouped", items: "stepper-wrapper"),
        .init(file: "adjustable-stepper.yaml", screen: "separate",
              items: "separate-stepper-value, separate-stepper-decrement, separate-stepper-increment"),
        .init(file: "custom-actions.yaml", screen: "uikit", items: "perso-elt"),
        .init(file: "custom-actions.yaml", screen: "uikit", state: ["deleted": .bool(true)], items: ""),
        .init(file: "custom-actions.yaml", screen: "swiftui", items: "custom-actions-view"),
        .init(file: "custom-content.yaml", screen: "main", items: "orange-logo"),
        .init(file: "navigation-bar-order.yaml", screen: "custom",
              items: "left-bar-item, title, label-1, label-2, label-3, action-button, label-4, label-5, right-bar-item"),
        .init(file: "navigation-bar-order.yaml", screen: "default",
              items: "default-left-bar-item, default-title, default-right-bar-item, default-label-1, default-label-2, default-label-3, default-action-button, default-label-4, default-label-5"),
        .init(file: "table-cells.yaml", screen: "separate",
              items: "separate-apple-name, separate-apple-price, separate-apple-change, separate-dow-name, separate-dow-price, separate-dow-change, separate-weather-city, separate-weather-temp"),
        .init(file: "table-cells.yaml", screen: "combined", items: "apple-row, dow-row, current-weather"),
        .init(file: "bigkey-keyboard.yaml", screen: "keyboard",
              items: "key-q, key-w, key-e, key-r, key-t, key-y, key-u, key-i, key-o, key-p, key-a, key-s, key-d, key-f, key-g, key-h, key-j, key-k, key-l, shift-key, key-z, key-x, key-c, key-v, key-b, key-n, key-m, delete-key, more-numbers-key, space-key, return-key"),
        .init(file: "bigkey-keyboard.yaml", screen: "keyboard", state: ["numbers": .bool(true)],
              items: "key-1, key-2, key-3, key-4, key-5, key-6, key-7, key-8, key-9, key-0, key-hyphen, key-slash, key-colon, key-semicolon, key-open-parenthesis, key-close-parenthesis, key-dollar, key-ampersand, key-at, key-quote, key-period, key-comma, key-question-mark, key-exclamation-mark, key-apostrophe, delete-key, more-letters-key, space-key, return-key"),
        .init(file: "star-rating.yaml", screen: "rating", items: "rating-view"),
        .init(file: "spelled-out-labels.yaml", screen: "raw",
              items: "raw-date-label, raw-time-label, raw-number-label, raw-phone-label"),
        .init(file: "spelled-out-labels.yaml", screen: "spelled-out", items: "date-label, time-label, number-label, phone-label"),
        .init(file: "french-label.yaml", screen: "main", items: "open-button, ouvrir-button, my-label"),
        .init(file: "bowler.yaml", screen: "game",
              items: "frame-1, frame-2, frame-3, bowling-ball, settings-button, score-label, news-button"),
        .init(file: "bowler.yaml", screen: "settings",
              items: "settings-title, settings-done, high-score, ball-color, blue-ball-color, red-ball-color, yellow-ball-color"),
        .init(file: "bowler.yaml", screen: "news", items: "news-title, news-done, news-cell-1, more-information"),
        .init(file: "chinese-labels.yaml", screen: "main",
              items: "add-button, play-button, delete-button, search-button, favorite-button, volume-button, play-music-button, add-name-button, add-event-button"),
        .init(file: "attribute-examples.yaml", screen: "attributes", items: "speed-slider, email-field, to-multi-faceted, to-songs"),
        .init(file: "attribute-examples.yaml", screen: "multi-faceted",
              items: "multi-faceted-element-1, multi-faceted-element-2, multi-faceted-back"),
        .init(file: "attribute-examples.yaml", screen: "songs", items: "songs-play, songs-title, songs-back"),
        .init(file: "disic-examples.yaml", screen: "main", items: "framed-component, play-sound, to-products, to-layout"),
        .init(file: "disic-examples.yaml", screen: "products", items: "product-coffee, product-tea, products-back"),
        .init(file: "disic-examples.yaml", screen: "layout", items: "layout-price, layout-show-total, layout-back"),
        .init(file: "disic-examples.yaml", screen: "layout", state: ["showTotal": .bool(true)],
              items: "layout-price, layout-show-total, layout-total, layout-back"),
        // Not a seed: the test language's examples (docs/scene-format-additions.md).
        .init(file: "test-language.yaml", screen: "shop", items: "buy, send, status"),
        .init(file: "test-language.yaml", screen: "score", items: "summary, again"),
        .init(file: "test-language.yaml", screen: "keys", items: "k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12"),
        .init(file: "test-language.yaml", screen: "empty", items: ""),
        // Issue 13's seed examples with no scene (Scenarios/EXPECTED-part4.md).
        .init(file: "custom-views.yaml", screen: "custom", items: "subclass-view, instantiated-view, to-before"),
        .init(file: "custom-views.yaml", screen: "before", items: "before-back"),
        .init(file: "english-labels-hints.yaml", screen: "labels",
              items: "add-button, play-button, delete-button, search-button, favorites-button, volume-button, play-music-button, add-name-button, add-to-event-button, to-accounts, to-traits, to-avoid, to-text-field"),
        .init(file: "english-labels-hints.yaml", screen: "accounts",
              items: "accounts-back, accounts-title, accounts-add, accounts-count, accounts-to-comments"),
        .init(file: "english-labels-hints.yaml", screen: "comments",
              items: "comments-back, comments-title, comments-add, comments-count"),
        .init(file: "english-labels-hints.yaml", screen: "traits",
              items: "traits-image-link, traits-chime, traits-back"),
        .init(file: "english-labels-hints.yaml", screen: "to-avoid",
              items: "avoid-type-in-label, avoid-gesture-tap, avoid-gesture-tapping, avoid-gesture-swipe, avoid-name-save, avoid-name-back, avoid-type-button, avoid-type-slider, avoid-terse, avoid-command, avoid-back"),
        .init(file: "english-labels-hints.yaml", screen: "text-field", items: "name-field, name-fill, text-field-back"),
        // SwiftUI's isModal on A2 (the Orange guide's example 2): Parent B goes too, unlike
        // modal-views.yaml's example2; without the trait every text is back.
        .init(file: "swiftui-modal.yaml", screen: "main", items: "a2-text, a2-dismiss"),
        .init(file: "swiftui-modal.yaml", screen: "main", state: ["modal": .bool(false)],
              items: "a1, a2-text, a2-dismiss, a3, b1-1, b1-2, b2-1, b2-2, b2-3"),
        .init(file: "media-pause.yaml", screen: "player", items: "title, play, captions"),
        .init(file: "focus-hooks.yaml", screen: "main", items: "myAccessibleElt, bowling-ball, settings"),
        .init(file: "none-trait.yaml", screen: "main", items: "status, send"),
        .init(file: "orange-traits.yaml", screen: "traits",
              items: "settings-header, page-control, send-view, search-view, news-header, quantity-view, to-change-traits, to-text-alternatives"),
        .init(file: "orange-traits.yaml", screen: "change-traits",
              items: "one-page-button, changed-page-control, change-traits-button, change-traits-back"),
        .init(file: "orange-traits.yaml", screen: "text-alternatives",
              items: "my-label, my-progress-view, text-alternatives-back"),
        .init(file: "orange-notifications.yaml", screen: "vocalization",
              items: "speak-button, to-appearing, to-content-change, to-focus, to-focus-area"),
        .init(file: "orange-notifications.yaml", screen: "appearing", items: "appearing-title, appearing-back"),
        .init(file: "orange-notifications.yaml", screen: "content-change",
              items: "content-title, content-my-label, content-tap-here, content-clic, content-back"),
        .init(file: "orange-notifications.yaml", screen: "focus",
              items: "my-accessible-elt, focus-text-field, focus-main-content, focus-priority, focus-quiet, focus-back"),
        .init(file: "orange-notifications.yaml", screen: "focus", state: ["notificationText": .string("Your parcel has arrived")],
              items: "my-accessible-elt, focus-text-field, focus-notification, focus-main-content, focus-priority, focus-quiet, focus-back"),
        .init(file: "orange-notifications.yaml", screen: "focus-area",
              items: "focus-area-label, focus-area-tap-here, focus-area-clic, focus-area-back"),
        .init(file: "orange-notifications.yaml", screen: "focus-area", state: ["enlarged": .bool(true)],
              items: "focus-area-label-enlarged, focus-area-tap-here, focus-area-clic, focus-area-back"),
        .init(file: "navigation-bar-items.yaml", screen: "home", items: "home-title, home-details"),
        .init(file: "navigation-bar-items.yaml", screen: "details",
              items: "details-back, details-title, details-text, details-to-custom"),
        .init(file: "navigation-bar-items.yaml", screen: "custom-bar",
              items: "custom-left, custom-title, custom-right, custom-text"),
        .init(file: "large-content-viewer.yaml", screen: "viewer", items: "thumbs-up-button, to-tab-bar"),
        .init(file: "large-content-viewer.yaml", screen: "tab-bar", items: "tab-content, home-tab, orange-tab"),
        .init(file: "custom-rotor.yaml", screen: "rotor", items: "rotor-title, up-label, down-label"),
        .init(file: "wwdc-session-examples.yaml", screen: "traits",
              items: "weather-text, sunset-image, play-media-button, volume-slider, to-attributes, to-albums, to-month"),
        .init(file: "wwdc-session-examples.yaml", screen: "attributes",
              items: "to-field, attributes-play, temperature-view, temperature-refresh, attributes-book, attributes-back"),
        .init(file: "wwdc-session-examples.yaml", screen: "albums",
              items: "albums-title, album-first, album-second, albums-back"),
        .init(file: "wwdc-session-examples.yaml", screen: "album",
              items: "album-title, album-artist, album-price, album-back"),
        .init(file: "wwdc-session-examples.yaml", screen: "month",
              items: "month-title, october-1, october-2, october-3, october-4, october-5, october-6, october-7, october-8, october-9, october-10, october-11, october-12, october-13, october-14, october-15, october-16, october-17, october-18, october-19, october-20, october-21, october-22, october-23, october-24, october-25, october-26, october-27, october-28, october-29, october-30, october-31, month-back"),
        .init(file: "wwdc-session-examples.yaml", screen: "book", items: "book-text, book-page-control, book-back"),
        .init(file: "disic-traits.yaml", screen: "notes",
              items: "notes-summary, add-note, notes-header, search-notes, email-field, send-button, fill-button, notes-chart, delete-notes, to-media, notes-tab, archive-tab"),
        .init(file: "disic-traits.yaml", screen: "notes", state: ["confirmDelete": .bool(true)],
              items: "alert-title, alert-cancel, alert-delete"),
        .init(file: "disic-traits.yaml", screen: "media",
              items: "stopwatch, stopwatch-start, play-video, signature-area, book-page, media-back"),
        .init(file: "bowler-before.yaml", screen: "game", items: "settings-button, score-label, news-button"),
        .init(file: "bowler-before.yaml", screen: "game", state: ["newsShown": .bool(true)],
              items: "news-title, news-done, rss-button, settings-button, score-label, news-button"),
        .init(file: "bowler-before.yaml", screen: "settings",
              items: "settings-title, settings-done, high-score, ball-color"),
        .init(file: "orange-text-and-speech.yaml", screen: "text-size",
              items: "font-headline, font-footnote, to-truncation, to-speech"),
        .init(file: "orange-text-and-speech.yaml", screen: "truncation", items: "long-word-label, truncation-back"),
        .init(file: "orange-text-and-speech.yaml", screen: "speech",
              items: "text-label, pause-button, resume-button, speech-back"),
        .init(file: "grouped-label-and-switch.yaml", screen: "swiftui-plain", items: "plain-hstack"),
        .init(file: "hidden-squares.yaml", screen: "swiftui-contain", items: "contain-yellow, contain-blue"),
        .init(file: "hidden-squares.yaml", screen: "swiftui-ignore", items: "ignore-vstack"),
        .init(file: "hidden-squares.yaml", screen: "swiftui-combine", items: "combine-vstack"),
        .init(file: "spelled-out-labels.yaml", screen: "swiftui-date", items: "swiftui-date-text"),
        .init(file: "table-cells.yaml", screen: "controls", items: "alarm-description, alarm-switch, alarm-volume"),
        // Issue 27: a text field the scanning keyboard types into.
        .init(file: "keyboard-form.yaml", screen: "form", items: "name, send"),
    ]

    @Test("scan order of every seed screen", arguments: expected)
    func scanOrder(_ expected: Expected) throws {
        let scene = try loadSeedScene(expected.file)
        let screen = try resolved(scene, expected.screen, expected.state)
        #expect(outline(screen.scanNodes(groupAutomatic: false)) == expected.items)
    }

    @Test("every screen of every seed scene is covered by the table above")
    func everyScreenCovered() throws {
        let files = try FileManagerList.sceneFiles()
        #expect(files.count >= 16)
        for file in files {
            let scene = try loadSeedScene(file)
            for screen in scene.screens where !["previous-page", "next-page"].contains(screen.name) {
                #expect(Self.expected.contains { $0.file == file && $0.screen == screen.name },
                        "\(file) screen \(screen.name) has no expected scan order")
            }
        }
    }

    @Test("containers kept together become automatic groups when groupItems is on")
    func keypadAutomaticGroups() throws {
        let scene = try loadSeedScene("reading-order-keypad.yaml")
        #expect(outline(try resolved(scene, "uikit").scanNodes()) ==
                "{grey-column: key-1, key-2, key-3}, key-4, key-7, {blue-block: key-6, key-8, key-9, key-5}")
        #expect(outline(try resolved(scene, "plain").scanNodes()) ==
                "plain-key-1, plain-key-4, plain-key-7, plain-key-2, plain-key-5, plain-key-8, plain-key-3, plain-key-6, plain-key-9")
    }

    @Test("table cells read as one combined label, as in Apple's Stocks example")
    func stocksLabel() throws {
        let scene = try loadSeedScene("table-cells.yaml")
        let items = try resolved(scene, "combined").scanItems()
        #expect(items.first?.label == "Apple Inc., $125.25, up 1.3%")
    }

    @Test("the activation point on the switch toggles the switch; the default centre does nothing")
    func activationPoint() throws {
        let scene = try loadSeedScene("activation-point.yaml")
        var state = SceneState(scene: scene)
        try activate("regrouping-elements", in: scene, state: &state)
        #expect(state.values["isOn"] == .bool(true))
        try activate("regrouping-elements", in: scene, state: &state)
        #expect(state.values["isOn"] == .bool(false))

        var other = SceneState(scene: scene)
        other.screen = "default-point"
        try activate("default-point-regrouping-elements", in: scene, state: &other)
        #expect(other.values["isOn"] == .bool(false))
    }

    @Test("the grouped label and switch relabels itself when activated")
    func groupedLabelAndSwitch() throws {
        let scene = try loadSeedScene("grouped-label-and-switch.yaml")
        var state = SceneState(scene: scene)
        #expect(try resolved(scene, "uikit").scanItems().first?.label == "the switch control is off")
        try activate("wrap", in: scene, state: &state)
        #expect(state.resolvedScreen(in: scene)?.scanItems().first?.label == "the switch control is on")
    }

    @Test("the adjustable stepper steps within its bounds")
    func stepper() throws {
        let scene = try loadSeedScene("adjustable-stepper.yaml")
        var state = SceneState(scene: scene)
        state.screen = "grouped"
        let element = try #require(state.resolvedScreen(in: scene)?.scanItems().first)
        #expect(element.traits.contains(.adjustable))
        #expect(element.value == "Value = 0.0")
        _ = state.perform(try #require(element.decrement))
        #expect(state.values["value"] == .number(0))
        _ = state.perform(try #require(element.increment))
        _ = state.perform(element.increment!)
        #expect(state.resolvedScreen(in: scene)?.scanItems().first?.value == "Value = 2.0")
    }

    @Test("custom actions are offered by name and act on the scene")
    func customActions() throws {
        let scene = try loadSeedScene("custom-actions.yaml")
        var state = SceneState(scene: scene)
        let element = try #require(state.resolvedScreen(in: scene)?.scanItems().first)
        #expect(element.customActions.map(\.name) == ["more", "flag", "delete"])
        #expect(state.perform(element.customActions[0].effects) == [AccessibilityNotification(kind: .announcement, text: "more")])
        _ = state.perform(element.customActions[1].effects)
        #expect(state.resolvedScreen(in: scene)?.scanItems().first?.value == "flagged")
        let posted = state.perform(element.customActions[2].effects)
        #expect(posted.map(\.kind) == [.announcement, .layoutChanged])
        #expect(state.resolvedScreen(in: scene)?.scanItems().isEmpty == true)
    }

    @Test("custom content of the Orange logo")
    func customContent() throws {
        let scene = try loadSeedScene("custom-content.yaml")
        let logo = try #require(scene.startScreen.scanItems().first)
        #expect(logo.label == "Orange logo")
        #expect(logo.traits.contains(.image))
        #expect(logo.customContent.count == 3)
    }

    @Test("BigKey: shift relabels the keys and posts layoutChanged")
    func bigKeyShift() throws {
        let scene = try loadSeedScene("bigkey-keyboard.yaml")
        var state = SceneState(scene: scene)
        #expect(state.resolvedScreen(in: scene)?.scanItems().first?.label == "q")
        let posted = try activate("shift-key", in: scene, state: &state)
        #expect(posted.map(\.kind) == [.layoutChanged])
        let items = try #require(state.resolvedScreen(in: scene)?.scanItems())
        #expect(items.first?.label == "Q")
        #expect(items.first { $0.id == "shift-key" }?.traits.contains(.selected) == true)
    }

    @Test("Bowler: the ball's selected trait, screen changes and ball colours")
    func bowler() throws {
        let scene = try loadSeedScene("bowler.yaml")
        var state = SceneState(scene: scene)
        func item(_ id: String) -> Element? { state.resolvedScreen(in: scene)?.scanItems().first { $0.id == id } }
        #expect(item("bowling-ball")?.traits.contains(.selected) == false)
        try activate("bowling-ball", in: scene, state: &state)
        #expect(item("bowling-ball")?.traits.contains(.selected) == true)
        #expect(try activate("settings-button", in: scene, state: &state).map(\.kind) == [.screenChanged])
        #expect(state.screen == "settings")
        #expect(item("red-ball-color")?.traits.contains(.selected) == true)
        try activate("blue-ball-color", in: scene, state: &state)
        #expect(item("blue-ball-color")?.traits.contains(.selected) == true)
        #expect(item("red-ball-color")?.traits.contains(.selected) == false)
        try activate("settings-done", in: scene, state: &state)
        #expect(state.screen == "game")
    }

    @Test("the French label carries its language")
    func frenchLanguage() throws {
        let scene = try loadSeedScene("french-label.yaml")
        let items = scene.startScreen.scanItems()
        #expect(items.contains { $0.language == "fr" })
        #expect(items.contains { $0.language != "fr" })
    }
}

enum FileManagerList {
    static func sceneFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scenariosFolder.path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
    }
}

extension SeedSceneTests {
    /// The audit of the seed scenes: what it reports are the seeds' own departures from their
    /// guidelines (lower-case labels and hints, "tap" in hints, "Btn" labels, elements replaced
    /// by a group or hidden with their container), kept on purpose so that the scenes stay faithful. A change here is either a
    /// scene that drifted from its seed or an audit rule that changed: look at which.
    @Test("the audit reports exactly the seeds' own guideline departures")
    func auditOfSeedScenes() throws {
        var found = Set<String>()
        for file in try FileManagerList.sceneFiles() {
            for finding in SceneAudit.audit(try loadSeedScene(file)) {
                found.insert("\(file) \(finding.rule) \(finding.elementID)")
            }
        }
        let expected: Set<String> = [
        "chinese-labels.yaml hint-period add-button",
        "activation-point.yaml hint-capital default-point-regrouping-elements",
        "activation-point.yaml hint-capital regrouping-elements",
        "activation-point.yaml hint-gesture default-point-regrouping-elements",
        "activation-point.yaml hint-gesture regrouping-elements",
        "activation-point.yaml hint-period default-point-regrouping-elements",
        "activation-point.yaml hint-period regrouping-elements",
        "activation-point.yaml label-capital default-point-regrouping-elements",
        "activation-point.yaml label-capital regrouping-elements",
        "activation-point.yaml label-names-type default-point-my-button",
        "activation-point.yaml label-names-type my-button",
        "activation-point.yaml missing-label default-point-my-switch",
        "activation-point.yaml missing-label my-switch",
        "activation-point.yaml unreachable default-point-my-button",
        "activation-point.yaml unreachable default-point-my-label",
        "activation-point.yaml unreachable default-point-my-switch",
        "activation-point.yaml unreachable my-button",
        "activation-point.yaml unreachable my-label",
        "activation-point.yaml unreachable my-switch",
        "adjustable-stepper.yaml label-capital stepper-wrapper",
        "custom-content.yaml hint-capital orange-logo",
        "custom-content.yaml hint-period orange-logo",
        "french-label.yaml label-period my-label",
        "grouped-label-and-switch.yaml hint-capital wrap",
        "grouped-label-and-switch.yaml hint-gesture wrap",
        "grouped-label-and-switch.yaml hint-period hstack",
        "grouped-label-and-switch.yaml label-capital wrap",
        // The guide's own point: "won't be accessible even if they're defined as such".
        "hidden-squares.yaml hidden-container hidden-blue-square",
        "hidden-squares.yaml hidden-container hidden-yellow-square",
        "hidden-squares.yaml unreachable accessible-container-blue-square",
        "hidden-squares.yaml unreachable accessible-container-yellow-square",
        "navigation-bar-order.yaml label-capital default-left-bar-item",
        "navigation-bar-order.yaml label-capital default-right-bar-item",
        "navigation-bar-order.yaml label-capital default-title",
        "navigation-bar-order.yaml label-capital left-bar-item",
        "navigation-bar-order.yaml label-capital next-page-back",
        "navigation-bar-order.yaml label-capital previous-page-next",
        "navigation-bar-order.yaml label-capital right-bar-item",
        "navigation-bar-order.yaml label-capital title",
        "spelled-out-labels.yaml label-capital date-label",
        "spelled-out-labels.yaml label-capital number-label",
        "spelled-out-labels.yaml label-capital phone-label",
        "switch-control-groups.yaml label-names-type btn-1",
        "switch-control-groups.yaml label-names-type btn-2",
        "switch-control-groups.yaml label-names-type btn-3",
        "switch-control-groups.yaml label-names-type btn-4",
        "switch-control-groups.yaml label-names-type btn-5",
        "switch-control-groups.yaml label-names-type btn-6",
        "switch-control-groups.yaml label-names-type hidden-btn-1",
        "switch-control-groups.yaml label-names-type hidden-btn-2",
        "switch-control-groups.yaml label-names-type hidden-btn-5",
        "switch-control-groups.yaml label-names-type hidden-btn-6",
        "switch-control-groups.yaml unreachable btn-3",
        "switch-control-groups.yaml unreachable btn-4",
        "table-cells.yaml label-capital separate-apple-change",
        "table-cells.yaml label-capital separate-dow-change",
        // Issue 13's scenes: the seeds' own strings (lowercase labels, "BTN" image names, a
        // label without text as in the seed), and english-labels-hints' screen 'to-avoid', the
        // Apple guide's examples of what not to write.
        "bowler-before.yaml label-capital news-button",
        "bowler-before.yaml label-capital settings-button",
        "bowler-before.yaml label-names-type news-button",
        "bowler-before.yaml label-names-type rss-button",
        "bowler-before.yaml label-names-type settings-button",
        "english-labels-hints.yaml hint-gesture avoid-gesture-swipe",
        "english-labels-hints.yaml hint-command avoid-command",
        "english-labels-hints.yaml hint-names-control avoid-name-back",
        "english-labels-hints.yaml hint-names-control avoid-name-save",
        "english-labels-hints.yaml hint-names-type avoid-type-button",
        "english-labels-hints.yaml hint-names-type avoid-type-slider",
        // The Orange guide's own hint is a command: "use the rotor item entitled more content …".
        "custom-content.yaml hint-command orange-logo",
        // DISIC: None "cannot be used in conjunction with others"; the scene shows the mistake.
        "none-trait.yaml none-combined send",
        "english-labels-hints.yaml hint-gesture avoid-gesture-tap",
        "english-labels-hints.yaml hint-gesture avoid-gesture-tapping",
        "english-labels-hints.yaml hint-period avoid-terse",
        "english-labels-hints.yaml hint-terse avoid-terse",
        "english-labels-hints.yaml label-names-type avoid-type-in-label",
        "grouped-label-and-switch.yaml hint-period plain-hstack",
        "navigation-bar-items.yaml label-capital custom-left",
        "navigation-bar-items.yaml label-capital custom-right",
        "navigation-bar-items.yaml label-capital custom-title",
        "navigation-bar-items.yaml label-capital details-back",
        "navigation-bar-items.yaml label-names-type details-back",
        "orange-notifications.yaml label-period focus-main-content",
        "orange-text-and-speech.yaml label-capital long-word-label",
        "orange-text-and-speech.yaml label-period text-label",
        "orange-traits.yaml label-capital my-label",
        "orange-traits.yaml missing-label changed-page-control",
        "orange-traits.yaml missing-label page-control",
        ]
        #expect(found.subtracting(expected).sorted() == [], "unexpected findings")
        #expect(expected.subtracting(found).sorted() == [], "findings no longer reported")
    }
}
