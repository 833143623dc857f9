import AccessibilityModel
import Scenes
import Testing

/// `SceneAudit.audit` on small inline scenes: one suite per rule, with the cases the rule must
/// leave alone.
@Suite struct AuditTests {}

// MARK: Support

/// A scene with one screen `main`: `elements` are YAML lines already indented for the screen's
/// element list (6 spaces for a top-level `- ` entry).
private func sceneYAML(
    _ elements: [String], state: [String] = [], screenOrder: [String]? = nil, extraScreens: [String] = []
) -> String {
    var lines = ["scene: Audit test", "size: [390, 844]"]
    if !state.isEmpty { lines += ["state:"] + state.map { "  " + $0 } }
    lines += ["start: main", "screens:", "  main:"]
    if let screenOrder { lines.append("    accessibilityElements: [\(screenOrder.joined(separator: ", "))]") }
    lines.append("    elements:")
    lines += elements
    lines += extraScreens
    return lines.joined(separator: "\n") + "\n"
}

private func audit(_ yaml: String) throws -> [AuditFinding] {
    SceneAudit.audit(try SceneParser.parse(yaml: yaml, file: "audit.yaml"))
}

/// 1-based line of the first line of `yaml` containing `fragment`.
private func line(of fragment: String, in yaml: String) -> Int {
    let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    guard let index = lines.firstIndex(where: { $0.contains(fragment) }) else {
        Issue.record("'\(fragment)' is not in the YAML")
        return 0
    }
    return index + 1
}

/// 1-based column of `fragment` in the line containing `lineFragment` (defaults to the same).
private func column(of fragment: String, onLineWith lineFragment: String? = nil, in yaml: String) -> Int {
    let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    guard let text = lines.first(where: { $0.contains(lineFragment ?? fragment) }),
          let range = text.range(of: fragment) else {
        Issue.record("'\(fragment)' is not in the YAML")
        return 0
    }
    return text.distance(from: text.startIndex, to: range.lowerBound) + 1
}

private func rules(_ findings: [AuditFinding], for id: String) -> [String] {
    findings.filter { $0.elementID == id }.map(\.rule)
}

// MARK: label-names-type

extension AuditTests {
    @Suite struct LabelNamesTypeRule {
        @Test func aButtonLabelledAddButtonIsReported() throws {
            let yaml = sceneYAML([
                "      - {id: add, label: Add button, traits: [button], frame: [0, 0, 100, 44]}",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["label-names-type"])
            let finding = try #require(findings.first)
            #expect(finding.elementID == "add")
            #expect(finding.location.file == "audit.yaml")
            #expect(finding.location.line == line(of: "id: add", in: yaml))
            #expect(finding.location.column == column(of: "label:", onLineWith: "id: add", in: yaml))
            #expect(finding.message.contains("'button'"))
            #expect(finding.description.hasPrefix("audit.yaml:\(finding.location.line):\(finding.location.column): warning: "))
            #expect(finding.description.hasSuffix("[label-names-type]"))
        }

        @Test(arguments: [
            ("Btn 1", "[button]"),
            ("Play Button", "[button]"),
            ("Company logo image", "[image]"),
            ("Volume slider", "[adjustable]"),
            ("Chapter 1 heading", "[header]"),
            ("More information link", "[link]"),
            ("Play button", "[]"),        // no type trait at all: still names its type
            ("Accept checkbox", "[]"),
        ])
        func typeWordsThatRepeatTheTraitAreReported(label: String, traits: String) throws {
            let yaml = sceneYAML([
                "      - id: el",
                "        label: \(label)",
                "        traits: \(traits)",
                "        frame: [0, 0, 100, 44]",
                "        increment: []",
                "        decrement: []",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["label-names-type"], "\(label) \(traits)")
            #expect(findings.first?.location.line == line(of: "label:", in: yaml))
        }

        @Test(arguments: [
            ("Add image", "[button]"),          // the button adds an image: content, not its type
            ("New tab", "[button]"),
            ("Link account", "[button]"),
            ("Change icon", "[button]"),
            ("Picture of the day", "[staticText]"),
            ("Buttonhole stitch", "[staticText]"), // not a whole word
            ("Play", "[button]"),
        ])
        func contentWordsAreNotReported(label: String, traits: String) throws {
            let yaml = sceneYAML(["      - {id: el, label: \(label), traits: \(traits), frame: [0, 0, 100, 44]}"])
            #expect(try audit(yaml).isEmpty, "\(label) \(traits)")
        }

        @Test func aTabOfATabBarNamingItsTypeIsReported() throws {
            let yaml = sceneYAML([
                "      - id: bar",
                "        traits: [tabBar]",
                "        elements:",
                "          - {id: home, label: Home tab, traits: [button, selected], frame: [0, 800, 100, 44]}",
                "          - {id: search, label: Search, traits: [button], frame: [100, 800, 100, 44]}",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["label-names-type"])
            #expect(findings.first?.elementID == "home")
            #expect(findings.first?.location.line == line(of: "id: home", in: yaml))
        }

        @Test func everyRenderingOfABoundLabelIsChecked() throws {
            let yaml = sceneYAML(
                ["      - {id: toggle, label: \"{playing?Pause:Play} button\", traits: [button], frame: [0, 0, 100, 44]}"],
                state: ["playing: false"])
            #expect(rules(try audit(yaml), for: "toggle") == ["label-names-type"])
        }
    }
}

// MARK: label-capital

extension AuditTests {
    @Suite struct LabelCapitalRule {
        @Test func aLowercaseLabelIsReported() throws {
            let yaml = sceneYAML(["      - {id: play, label: play, traits: [button], frame: [0, 0, 100, 44]}"])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["label-capital"])
            #expect(findings.first?.elementID == "play")
            #expect(findings.first?.location.line == line(of: "id: play", in: yaml))
            #expect(findings.first?.location.column == column(of: "label:", onLineWith: "id: play", in: yaml))
        }

        @Test func aLowercaseAccentedLetterIsReported() throws {
            let yaml = sceneYAML(["      - {id: ecouter, label: écouter, language: fr, traits: [button], frame: [0, 0, 100, 44]}"])
            #expect(rules(try audit(yaml), for: "ecouter") == ["label-capital"])
        }

        @Test(arguments: [
            "播放音乐",            // Chinese: no case
            "再生",               // Japanese
            "تشغيل",             // Arabic
            "Écouter la musique", // French, capital with an accent
            "« Ouvrir »",         // French quotation marks first
            "3 pièces",           // a digit first
            "iPhone settings",    // a name written with a capital inside
            "eBay",
            "Play",
        ])
        func labelsWhoseFirstCharacterHasNoLowercaseAreNotReported(label: String) throws {
            let yaml = sceneYAML(["      - {id: el, label: \"\(label)\", traits: [button], frame: [0, 0, 100, 44]}"])
            #expect(try audit(yaml).isEmpty, "\(label)")
        }

        @Test func keyboardKeysKeepTheirCharacter() throws {
            let yaml = sceneYAML([
                "      - {id: key-q, label: q, traits: [keyboardKey], frame: [0, 0, 30, 40]}",
                "      - {id: shift-key, label: shift, traits: [keyboardKey], frame: [40, 0, 30, 40]}",
                "      - {id: key-period, label: \".\", traits: [keyboardKey], frame: [80, 0, 30, 40]}",
            ])
            #expect(try audit(yaml).isEmpty)
        }

        @Test func aChoiceIsReportedOnlyWhenBothBranchesAreLowercase() throws {
            let yaml = sceneYAML(
                [
                    "      - {id: letter, label: \"{shift?Q:q}\", traits: [staticText], frame: [0, 0, 30, 40]}",
                    "      - {id: state, label: \"{on?on:off} mode\", traits: [staticText], frame: [0, 50, 30, 40]}",
                    "      - {id: count, label: \"{count} items\", traits: [staticText], frame: [0, 100, 30, 40]}",
                ],
                state: ["shift: false", "on: true", "count: 3"])
            let findings = try audit(yaml)
            #expect(findings.map(\.elementID) == ["state"])
            #expect(findings.map(\.rule) == ["label-capital"])
        }
    }
}

// MARK: label-period

extension AuditTests {
    @Suite struct LabelPeriodRule {
        @Test func aLabelEndingWithAPeriodIsReported() throws {
            let yaml = sceneYAML(["      - {id: play, label: Play., traits: [button], frame: [0, 0, 100, 44]}"])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["label-period"])
            #expect(findings.first?.elementID == "play")
            #expect(findings.first?.location.line == line(of: "id: play", in: yaml))
        }

        @Test func aSentenceIsReported() throws {
            let yaml = sceneYAML([
                "      - id: news",
                "        label: Bowling for babies. Teach your toddler how to bowl.",
                "        traits: [staticText]",
                "        frame: [0, 0, 100, 44]",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["label-period"])
            #expect(findings.first?.location.line == line(of: "label: Bowling", in: yaml))
            #expect(findings.first?.location.column == 9)
        }

        @Test(arguments: ["Apple Inc.", "Dr.", "U.S.", "Michael J.", "Loading...", "Loading…", ".", "Play"])
        func abbreviationsEllipsesAndPunctuationAreNotReported(label: String) throws {
            let yaml = sceneYAML(["      - {id: el, label: \"\(label)\", traits: [staticText], frame: [0, 0, 100, 44]}"])
            #expect(try audit(yaml).isEmpty, "\(label)")
        }
    }
}

// MARK: hint-capital, hint-period, hint-gesture

extension AuditTests {
    @Suite struct HintRules {
        @Test func aLowercaseHintIsReported() throws {
            let yaml = sceneYAML([
                "      - {id: play, label: Play, hint: plays the song., traits: [button], frame: [0, 0, 100, 44]}",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["hint-capital"])
            #expect(findings.first?.elementID == "play")
            #expect(findings.first?.location.line == line(of: "id: play", in: yaml))
            #expect(findings.first?.location.column == column(of: "hint:", onLineWith: "id: play", in: yaml))
        }

        @Test func aHintWithoutAFinalPeriodIsReported() throws {
            let yaml = sceneYAML([
                "      - id: stop",
                "        label: Stop",
                "        hint: Stops the song",
                "        traits: [button]",
                "        frame: [0, 0, 100, 44]",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["hint-period"])
            #expect(findings.first?.elementID == "stop")
            #expect(findings.first?.location.line == line(of: "hint: Stops", in: yaml))
            #expect(findings.first?.location.column == 9)
        }

        @Test func anEmptyHintIsReported() throws {
            let yaml = sceneYAML(["      - {id: stop, label: Stop, hint: \"\", traits: [button], frame: [0, 0, 100, 44]}"])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["hint-period"])
            #expect(findings.first?.message.contains("empty") == true)
        }

        @Test func aHintEndingWithAValueIsNotReported() throws {
            let yaml = sceneYAML(
                ["      - {id: next, label: Next, hint: \"Plays {title}\", traits: [button], frame: [0, 0, 100, 44]}"],
                state: ["title: Song 2."])
            #expect(try audit(yaml).isEmpty)
        }

        @Test func aGestureIsReported() throws {
            let yaml = sceneYAML([
                "      - {id: next, label: Next, hint: Tap to play the next song., traits: [button], frame: [0, 0, 100, 44]}",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["hint-gesture"])
            #expect(findings.first?.elementID == "next")
            #expect(findings.first?.location.line == line(of: "id: next", in: yaml))
            #expect(findings.first?.location.column == column(of: "hint:", onLineWith: "id: next", in: yaml))
            #expect(findings.first?.message.contains("'Tap'") == true)
        }

        @Test(arguments: [
            "Double tap to open the message.",
            "Double Tap to open the message.",
            "Double-tap to open the message.",
            "Swipe up or down to adjust the value.",
            "Plays the song. Press again to stop.",
            "To delete it, swipe left.",
            "Touch and hold to see more options.",
        ])
        func gesturesAreReported(hint: String) throws {
            let yaml = sceneYAML(["      - {id: el, label: Open, hint: \"\(hint)\", traits: [button], frame: [0, 0, 100, 44]}"])
            #expect(try audit(yaml).map(\.rule) == ["hint-gesture"], "\(hint)")
        }

        /// The Apple guide's own bad hints ("do not create hints such as …"), and the gesture in
        /// its other forms.
        @Test(arguments: [
            ("Tap to play the song.", "Tap"),
            ("Tapping purchases the item.", "Tapping"),
            ("Swipe to delete the item.", "Swipe"),
            ("Double-tapping opens the message.", "Double-tapping"),
            ("Swiping left deletes the message.", "Swiping"),
            ("Clicking opens the link.", "Clicking"),
            ("Clicks open the link.", "Clicks"),
            ("Tapped twice, zooms in.", "Tapped"),
            ("Opens the menu when pressed.", "pressed"),
            ("Plays the song. Touching again stops it.", "Touching"),
        ])
        func gesturesInEveryInflectionAreReported(hint: String, word: String) throws {
            let yaml = sceneYAML(["      - {id: buy, label: Buy, hint: \"\(hint)\", traits: [button], frame: [0, 0, 100, 44]}"])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["hint-gesture"], "\(hint)")
            #expect(findings.first?.elementID == "buy")
            #expect(findings.first?.location.line == line(of: "id: buy", in: yaml))
            #expect(findings.first?.message.contains("'\(word)'") == true, "\(findings.first?.message ?? "")")
        }

        @Test(arguments: [
            "Opens the pressing schedule.",
            "Shows the tapped items.",
        ])
        func inflectedGestureWordsUsedAsNounsOrAdjectivesAfterADeterminerAreNotReported(hint: String) throws {
            let yaml = sceneYAML(["      - {id: el, label: Open, hint: \"\(hint)\", traits: [button], frame: [0, 0, 100, 44]}"])
            #expect(try audit(yaml).isEmpty, "\(hint)")
        }

        @Test(arguments: [
            "Opens Touch ID settings.",
            "Opens the press release.",
            "Plays the song.",
            "Shows your taps count.",
        ])
        func gestureWordsUsedAsNounsAreNotReported(hint: String) throws {
            let yaml = sceneYAML(["      - {id: el, label: Open, hint: \"\(hint)\", traits: [button], frame: [0, 0, 100, 44]}"])
            #expect(try audit(yaml).isEmpty, "\(hint)")
        }

        @Test func aGoodLabelAndHintGiveNothing() throws {
            let yaml = sceneYAML([
                "      - {id: play, label: Play, hint: Plays the song., traits: [button], frame: [0, 0, 100, 44]}",
                "      - {id: title, label: Now playing, traits: [header], frame: [0, 50, 100, 44]}",
                "      - {id: photo, label: Sunset over the bay, traits: [image], frame: [0, 100, 100, 44]}",
            ])
            #expect(try audit(yaml).isEmpty)
        }
    }
}

// MARK: missing-label

extension AuditTests {
    @Suite struct MissingLabelRule {
        @Test func anElementWithoutALabelIsReported() throws {
            let yaml = sceneYAML([
                "      - {id: play, label: Play, traits: [button], frame: [0, 0, 100, 44]}",
                "      - id: mystery",
                "        traits: [button]",
                "        frame: [0, 50, 100, 44]",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["missing-label"])
            #expect(findings.first?.elementID == "mystery")
            #expect(findings.first?.location.line == line(of: "id: mystery", in: yaml))
            #expect(findings.first?.location.column == 9)
        }

        @Test(arguments: ["\"\"", "\"   \""])
        func anEmptyLabelIsReported(label: String) throws {
            let yaml = sceneYAML(["      - {id: blank, label: \(label), traits: [button], frame: [0, 0, 100, 44]}"])
            #expect(try audit(yaml).map(\.rule) == ["missing-label"])
        }

        @Test func aContainerNeedsNoLabelButAnAccessibleOneDoes() throws {
            let yaml = sceneYAML([
                "      - id: plain-container",
                "        elements:",
                "          - {id: inner, label: Inner, frame: [0, 0, 100, 44]}",
                "      - id: accessible-container",
                "        isAccessibilityElement: true",
                "        elements:",
                "          - {id: inner-2, label: Inner, frame: [0, 50, 100, 44]}",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.elementID) == ["accessible-container"])
            #expect(findings.map(\.rule) == ["missing-label"])
        }

        @Test func hiddenElementsAreNotReported() throws {
            let yaml = sceneYAML([
                "      - {id: decoration, accessibilityElementsHidden: true, frame: [0, 0, 10, 10]}",
                "      - id: hidden-group",
                "        accessibilityElementsHidden: true",
                "        elements:",
                "          - {id: unlabelled, frame: [0, 20, 10, 10]}",
                "          - {id: bad-text, label: tap here., hint: tap to go, frame: [0, 40, 10, 10]}",
            ])
            #expect(try audit(yaml).isEmpty)
        }

        @Test func childrenOfAnAccessibilityElementAreNotReported() throws {
            // A table cell that speaks for its texts: the texts need no label, and theirs are not read.
            let yaml = sceneYAML([
                "      - id: row",
                "        label: Apple Inc., $125.25, up 1.3%",
                "        isAccessibilityElement: true",
                "        frame: [0, 100, 390, 60]",
                "        elements:",
                "          - {id: name, label: Apple Inc., traits: [staticText], frame: [16, 115, 170, 30]}",
                "          - {id: change, label: up 1.3%, traits: [staticText], frame: [296, 115, 78, 30]}",
                "          - {id: chart, traits: [image], frame: [200, 115, 90, 30]}",
            ])
            #expect(try audit(yaml).isEmpty)
        }
    }
}

// MARK: adjustable-effects

extension AuditTests {
    @Suite struct AdjustableEffectsRule {
        @Test func anAdjustableElementWithoutDecrementIsReported() throws {
            let yaml = sceneYAML(
                [
                    "      - id: volume",
                    "        label: Volume",
                    "        value: \"{level}\"",
                    "        traits: [adjustable]",
                    "        frame: [0, 0, 300, 44]",
                    "        increment: [{add: {level: 1, min: 0, max: 10}}]",
                ],
                state: ["level: 5"])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["adjustable-effects"])
            let finding = try #require(findings.first)
            #expect(finding.elementID == "volume")
            #expect(finding.location.line == line(of: "traits: [adjustable]", in: yaml))
            #expect(finding.location.column == 9)
            #expect(finding.message.contains("decrement"))
            #expect(!finding.message.contains("increment or"))
        }

        @Test func anAdjustableElementWithNeitherIsReportedOnce() throws {
            let yaml = sceneYAML(["      - {id: rating, label: Rating, traits: [adjustable], frame: [0, 0, 300, 44]}"])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["adjustable-effects"])
            #expect(findings.first?.message.contains("increment or decrement") == true)
        }

        @Test func anAdjustableElementWithBothIsFine() throws {
            let yaml = sceneYAML(
                [
                    "      - id: volume",
                    "        label: Volume",
                    "        traits: [adjustable]",
                    "        frame: [0, 0, 300, 44]",
                    "        increment: [{add: {level: 1, min: 0, max: 10}}]",
                    "        decrement: [{add: {level: -1, min: 0, max: 10}}]",
                ],
                state: ["level: 5"])
            #expect(try audit(yaml).isEmpty)
        }
    }
}

// MARK: unreachable

extension AuditTests {
    @Suite struct UnreachableRule {
        @Test func anElementLeftOutOfTheScreensListIsReported() throws {
            let yaml = sceneYAML(
                [
                    "      - {id: listed, label: Listed, traits: [button], frame: [0, 0, 100, 44]}",
                    "      - {id: forgotten, label: Forgotten, traits: [button], frame: [0, 50, 100, 44]}",
                ],
                screenOrder: ["listed"])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["unreachable"])
            let finding = try #require(findings.first)
            #expect(finding.elementID == "forgotten")
            #expect(finding.location.line == line(of: "id: forgotten", in: yaml))
            #expect(finding.location.column == 9)
            #expect(finding.message.contains("screen 'main'"))
        }

        @Test func anElementLeftOutOfAContainersListIsReported() throws {
            let yaml = sceneYAML([
                "      - id: keypad",
                "        accessibilityElements: [key-1]",
                "        elements:",
                "          - {id: key-1, label: \"1\", traits: [button], frame: [0, 0, 100, 44]}",
                "          - {id: key-2, label: \"2\", traits: [button], frame: [100, 0, 100, 44]}",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["unreachable"])
            #expect(findings.first?.elementID == "key-2")
            #expect(findings.first?.location.line == line(of: "id: key-2", in: yaml))
            #expect(findings.first?.message.contains("'keypad'") == true)
        }

        @Test func anElementDeclaredAccessibleInsideAnAccessibilityElementIsReported() throws {
            let yaml = sceneYAML([
                "      - id: red-square",
                "        label: Red square",
                "        isAccessibilityElement: true",
                "        frame: [100, 100, 40, 40]",
                "        elements:",
                "          - {id: yellow-square, label: Yellow square, isAccessibilityElement: true, frame: [110, 110, 10, 10]}",
                "          - {id: blue-square, label: Blue square, frame: [130, 130, 10, 10]}",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["unreachable"])
            #expect(findings.first?.elementID == "yellow-square")
            #expect(findings.first?.location.line == line(of: "id: yellow-square", in: yaml))
            #expect(findings.first?.message.contains("'red-square'") == true)
        }

        @Test func hiddenElementsAreNotReported() throws {
            let yaml = sceneYAML(
                [
                    "      - {id: listed, label: Listed, traits: [button], frame: [0, 0, 100, 44]}",
                    "      - {id: hidden, label: Hidden, accessibilityElementsHidden: true, frame: [0, 50, 100, 44]}",
                    "      - id: hidden-group",
                    "        accessibilityElementsHidden: true",
                    "        elements:",
                    "          - {id: inside-hidden, label: Inside, frame: [0, 100, 100, 44]}",
                ],
                screenOrder: ["listed"])
            #expect(try audit(yaml).isEmpty)
        }

        @Test func elementsWhosePresenceDependsOnStateAreNotReported() throws {
            let yaml = sceneYAML(
                [
                    "      - {id: listed, label: Listed, traits: [button], frame: [0, 0, 100, 44]}",
                    "      - {id: later, label: Later, visible: ready, frame: [0, 50, 100, 44]}",
                    "      - id: panel",
                    "        visible: \"!ready\"",
                    "        elements:",
                    "          - {id: in-panel, label: In panel, frame: [0, 100, 100, 44]}",
                    "      - {id: maybe-hidden, label: Maybe, accessibilityElementsHidden: ready, frame: [0, 150, 100, 44]}",
                    "      - id: maybe-item",
                    "        label: Maybe item",
                    "        isAccessibilityElement: ready",
                    "        elements:",
                    "          - {id: in-maybe-item, label: Inside, frame: [0, 200, 100, 44]}",
                ],
                state: ["ready: false"],
                screenOrder: ["listed", "maybe-item"])
            #expect(try audit(yaml).isEmpty)
        }

        /// Not by this rule: a modal view's siblings are left out on purpose while it is shown;
        /// one shown in every state is `behind-modal`'s.
        @Test func siblingsOfAModalViewAreNotReported() throws {
            let yaml = sceneYAML([
                "      - {id: behind, label: Behind, traits: [staticText], frame: [0, 0, 100, 44]}",
                "      - id: alert",
                "        accessibilityViewIsModal: true",
                "        elements:",
                "          - {id: ok, label: OK, traits: [button], frame: [0, 50, 100, 44]}",
            ])
            #expect(try audit(yaml).isEmpty)
        }

        @Test func everyScreenIsChecked() throws {
            let yaml = sceneYAML(
                ["      - {id: a, label: A, frame: [0, 0, 100, 44]}"],
                extraScreens: [
                    "  second:",
                    "    accessibilityElements: [b]",
                    "    elements:",
                    "      - {id: b, label: B, frame: [0, 0, 100, 44]}",
                    "      - {id: c, label: C, frame: [0, 50, 100, 44]}",
                ])
            let findings = try audit(yaml)
            #expect(findings.map(\.elementID) == ["c"])
            #expect(findings.first?.message.contains("screen 'second'") == true)
        }
    }
}

// MARK: behind-modal

extension AuditTests {
    @Suite struct BehindModalRule {
        /// An alert shown in every state: the buttons beside it, and inside its siblings, are
        /// never reached; text beside it, and the alert's own buttons, are not reported.
        @Test func actionableSiblingsOfAModalShownInEveryStateAreReported() throws {
            let yaml = sceneYAML([
                "      - {id: buy, label: Buy, traits: [button], frame: [0, 0, 100, 44]}",
                "      - {id: caption, label: Price, traits: [staticText], frame: [0, 50, 100, 44]}",
                "      - id: toolbar",
                "        elements:",
                "          - {id: share, label: Share, frame: [0, 100, 100, 44], activate: [{announce: Shared}]}",
                "          - {id: rate, label: Rating, traits: [adjustable], frame: [0, 150, 100, 44], increment: [], decrement: []}",
                "      - id: alert",
                "        accessibilityViewIsModal: true",
                "        elements:",
                "          - {id: ok, label: OK, traits: [button], frame: [0, 300, 100, 44]}",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["behind-modal", "behind-modal", "behind-modal"])
            #expect(findings.map(\.elementID) == ["buy", "share", "rate"])
            #expect(findings.map(\.location.line) == [line(of: "id: buy", in: yaml), line(of: "id: share", in: yaml), line(of: "id: rate", in: yaml)])
            #expect(findings.first?.location.file == "audit.yaml")
            #expect(findings.allSatisfy { $0.message.contains("'alert'") }, "\(findings.map(\.message))")
        }

        @Test(arguments: [
            "        visible: showAlert",
            "        accessibilityElementsHidden: \"!showAlert\"",
        ])
        func aModalViewThatStateCanRemoveIsNotReported(presence: String) throws {
            let yaml = sceneYAML(
                [
                    "      - {id: buy, label: Buy, traits: [button], frame: [0, 0, 100, 44]}",
                    "      - id: alert",
                    "        accessibilityViewIsModal: true",
                    presence,
                    "        elements:",
                    "          - {id: ok, label: OK, traits: [button], frame: [0, 300, 100, 44]}",
                ],
                state: ["showAlert: true"])
            #expect(try audit(yaml).isEmpty)
        }

        @Test func aModalFlagBoundToStateIsNotReported() throws {
            let yaml = sceneYAML(
                [
                    "      - {id: buy, label: Buy, traits: [button], frame: [0, 0, 100, 44]}",
                    "      - id: alert",
                    "        accessibilityViewIsModal: showAlert",
                    "        elements:",
                    "          - {id: ok, label: OK, traits: [button], frame: [0, 300, 100, 44]}",
                ],
                state: ["showAlert: true"])
            #expect(try audit(yaml).isEmpty)
        }

        /// The Orange guide's example 2: A2 modal hides only A1 and A3; Parent B's button, beside
        /// A2's parent, stays reachable.
        @Test func onlyTheModalViewsOwnSiblingsAreBehindIt() throws {
            let yaml = sceneYAML([
                "      - id: parent-a",
                "        elements:",
                "          - {id: a1, label: A1, traits: [button], frame: [0, 0, 100, 44]}",
                "          - {id: a2, label: A2, traits: [staticText], frame: [0, 50, 100, 44], accessibilityViewIsModal: true}",
                "      - id: parent-b",
                "        elements:",
                "          - {id: b1, label: B1, traits: [button], frame: [0, 200, 100, 44]}",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.elementID) == ["a1"])
            #expect(findings.map(\.rule) == ["behind-modal"])
            #expect(findings.first?.message.contains("'a2'") == true)
        }
    }
}

// MARK: hidden-container

extension AuditTests {
    @Suite struct HiddenContainerRule {
        /// The Orange guide's red square with accessibilityElementsHidden: its squares declared
        /// accessible, and a button inside it, are never reached. Plain text inside it, and a
        /// button hidden on its own (Switch Control's hidden Btn 3), are not reported.
        @Test func declaredAndActionableElementsInAnAlwaysHiddenContainerAreReported() throws {
            let yaml = sceneYAML([
                "      - id: red-square",
                "        accessibilityElementsHidden: true",
                "        frame: [100, 100, 40, 40]",
                "        elements:",
                "          - {id: yellow-square, label: Yellow square, isAccessibilityElement: true, frame: [110, 110, 10, 10]}",
                "          - {id: note, label: Note, frame: [110, 120, 10, 10]}",
                "          - id: inner",
                "            elements:",
                "              - {id: close, label: Close, traits: [button], frame: [130, 130, 10, 10]}",
                "      - {id: lone-hidden, label: Hidden, traits: [button], accessibilityElementsHidden: true, frame: [0, 300, 100, 44]}",
                "      - {id: visible, label: Visible, traits: [button], frame: [0, 400, 100, 44]}",
            ])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["hidden-container", "hidden-container"])
            #expect(findings.map(\.elementID) == ["yellow-square", "close"])
            #expect(findings.map(\.location.line) == [line(of: "id: yellow-square", in: yaml), line(of: "id: close", in: yaml)])
            #expect(findings.allSatisfy { $0.message.contains("'red-square'") }, "\(findings.map(\.message))")
            #expect(findings.first?.message.contains("accessibility element 'yellow-square'") == true)
            #expect(findings.last?.message.contains("actionable element 'close'") == true)
        }

        @Test func aContainerHiddenOnlyInSomeStatesIsNotReported() throws {
            let yaml = sceneYAML(
                [
                    "      - id: panel",
                    "        accessibilityElementsHidden: collapsed",
                    "        elements:",
                    "          - {id: close, label: Close, traits: [button], frame: [0, 0, 100, 44]}",
                ],
                state: ["collapsed: true"])
            #expect(try audit(yaml).isEmpty)
        }

        /// The Orange guide's navigation bar: the native bar is hidden, and accessible proxies
        /// with the bar items' frames take the taps to them. Without the proxy, the bar item is
        /// reported.
        @Test(arguments: [true, false])
        func aHiddenItemThatAReachableProxysTapLandsOnIsNotReported(withProxy: Bool) throws {
            var elements = [
                "      - id: nav-bar",
                "        accessibilityElementsHidden: true",
                "        elements:",
                "          - {id: native-back, traits: [button], frame: [8, 47, 44, 44], activate: [{announce: Back}]}",
            ]
            if withProxy {
                elements.append("      - {id: back-proxy, label: Back, traits: [button], frame: [8, 47, 44, 44]}")
            }
            let findings = try audit(sceneYAML(elements))
            #expect(findings.map(\.elementID) == (withProxy ? [] : ["native-back"]))
        }
    }
}

// MARK: The whole audit

extension AuditTests {
    @Suite struct AuditOrder {
        @Test func findingsAreSortedByPositionAndEachRuleAppearsOnce() throws {
            let yaml = sceneYAML(
                [
                    "      - {id: add, label: Add button, traits: [button], frame: [0, 0, 100, 44]}",
                    "      - {id: lower, label: play, traits: [button], frame: [0, 50, 100, 44]}",
                    "      - {id: period, label: Play., traits: [button], frame: [0, 100, 100, 44]}",
                    "      - {id: hint-lower, label: Play, hint: plays the song., traits: [button], frame: [0, 150, 100, 44]}",
                    "      - {id: hint-open, label: Stop, hint: Stops the song, traits: [button], frame: [0, 200, 100, 44]}",
                    "      - {id: gesture, label: Next, hint: Tap to play the next song., traits: [button], frame: [0, 250, 100, 44]}",
                    "      - {id: unnamed, traits: [button], frame: [0, 300, 100, 44]}",
                    "      - {id: slider, label: Volume, traits: [adjustable], increment: [], frame: [0, 350, 100, 44]}",
                    "      - {id: forgotten, label: Forgotten, traits: [button], frame: [0, 400, 100, 44]}",
                ],
                screenOrder: ["add", "lower", "period", "hint-lower", "hint-open", "gesture", "unnamed", "slider"])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == [
                "label-names-type", "label-capital", "label-period", "hint-capital", "hint-period", "hint-gesture",
                "missing-label", "adjustable-effects", "unreachable",
            ])
            #expect(findings.map(\.elementID) == [
                "add", "lower", "period", "hint-lower", "hint-open", "gesture", "unnamed", "slider", "forgotten",
            ])
            for finding in findings {
                #expect(finding.location.line == line(of: "id: \(finding.elementID),", in: yaml))
            }
        }
    }
}

// MARK: The Apple guide's label and hint examples

/// "Crafting Useful Labels and Hints" of the Apple guide (Accessibility Programming Guide for
/// iOS): every example it gives of what not to write is reported by the rule named beside it,
/// and none of the examples it gives as good is reported at all. Each example is the text the
/// guide quotes, on an element of the kind the guide describes.
extension AuditTests {
    @Suite struct AppleGuideExamples {
        /// (label, hint, traits, rule): the guide's "to avoid" examples.
        static let toAvoid: [(label: String, hint: String?, traits: String, rule: String)] = [
            // Labels: "if you include the control type in the label of an Add button, VoiceOver
            // users hear "Add button button"".
            ("Add button", nil, "[button]", "label-names-type"),
            // Hints: "you don't want to tell users to "Play the song"".
            ("Yesterday", "Play the song.", "[staticText]", "hint-command"),
            // "do not create hints such as "Tap to play the song," "Tapping purchases the item,"
            // or "Swipe to delete the item.""
            ("Yesterday", "Tap to play the song.", "[staticText]", "hint-gesture"),
            ("Tea", "Tapping purchases the item.", "[staticText]", "hint-gesture"),
            ("Tea", "Swipe to delete the item.", "[staticText]", "hint-gesture"),
            // "do not create hints such as "Save saves your edits" or "Back returns to the
            // previous screen.""
            ("Save", "Save saves your edits.", "[button]", "hint-names-control"),
            ("Back", "Back returns to the previous screen.", "[button]", "hint-names-control"),
            // "do not create hints such as "Button that adds a name" or "Slider that controls
            // the scale.""
            ("Add name", "Button that adds a name.", "[button]", "hint-names-type"),
            ("Scale", "Slider that controls the scale.", "[adjustable]", "hint-names-type"),
            // "changing "Adds a city" to "Adds city" does not significantly decrease the length
            // of the hint, but does make it sound awkward" (with the final period it asks for).
            ("Weather", "Adds city.", "[button]", "hint-terse"),
        ]

        /// The guide's good examples: the one-word labels ("Add, Play, Delete, Search,
        /// Favorites, or Volume"), the short phrases ("Play music," "Add name," or "Add to
        /// event"), and the hints "Adds a city" and "Plays the song" (written with the final
        /// period the guide asks for: "ending the hint with a period helps VoiceOver").
        static let good: [(label: String, hint: String?, traits: String)] = [
            ("Add", nil, "[button]"), ("Play", nil, "[button]"), ("Delete", nil, "[button]"),
            ("Search", nil, "[searchField]"), ("Favorites", nil, "[button]"), ("Volume", nil, "[adjustable]"),
            ("Play music", nil, "[button]"), ("Add name", nil, "[button]"), ("Add to event", nil, "[button]"),
            ("Weather", "Adds a city.", "[button]"), ("Yesterday", "Plays the song.", "[staticText]"),
        ]

        static func element(_ index: Int, label: String, hint: String?, traits: String) -> String {
            var fields = ["id: e\(index)", "label: \"\(label)\""]
            if let hint { fields.append("hint: \"\(hint)\"") }
            fields += ["traits: \(traits)", "frame: [0, \(index * 50), 200, 44]"]
            if traits.contains("adjustable") { fields += ["increment: []", "decrement: []"] }
            return "      - {" + fields.joined(separator: ", ") + "}"
        }

        @Test("every example the guide says to avoid is reported, by its rule and only that rule")
        func toAvoidIsReported() throws {
            let yaml = sceneYAML(Self.toAvoid.enumerated().map {
                Self.element($0.offset, label: $0.element.label, hint: $0.element.hint, traits: $0.element.traits)
            })
            let findings = try audit(yaml)
            for (index, example) in Self.toAvoid.enumerated() {
                #expect(rules(findings, for: "e\(index)") == [example.rule], "\(example.label) / \(example.hint ?? "")")
            }
            let save = try #require(findings.first { $0.elementID == "e5" })
            #expect(save.message == "hint \"Save saves your edits.\" of 'e5' begins with the control's name ('Save'), which the label already gives")
            #expect(save.location.column == column(of: "hint:", onLineWith: "id: e5,", in: yaml))
            let play = try #require(findings.first { $0.elementID == "e1" })
            #expect(play.message == "hint \"Play the song.\" of 'e1' begins with 'Play', a command; begin with the verb that describes the result ('Plays')")
            let city = try #require(findings.first { $0.elementID == "e9" })
            #expect(city.message == "hint \"Adds city.\" of 'e9' leaves out the article ('Adds a city.'); a hint is a short sentence, and brevity must not cost its grammar")
            let slider = try #require(findings.first { $0.elementID == "e8" })
            #expect(slider.message == "hint \"Slider that controls the scale.\" of 'e8' names the control's type ('Slider'); the trait already says it")
        }

        @Test("none of the guide's good labels and hints is reported")
        func goodIsNotReported() throws {
            let yaml = sceneYAML(Self.good.enumerated().map {
                Self.element($0.offset, label: $0.element.label, hint: $0.element.hint, traits: $0.element.traits)
            })
            #expect(try audit(yaml).map(\.description) == [])
        }

        @Test("a hint is a command only in English; a name is repeated only as whole words at the start")
        func limits() throws {
            let yaml = sceneYAML([
                "      - {id: french, label: Chanson, hint: \"Play the song.\", language: fr-FR, traits: [button], frame: [0, 0, 100, 44]}",
                "      - {id: saved, label: Save, hint: Saves your edits., traits: [button], frame: [0, 50, 100, 44]}",
                "      - {id: a-slider, label: Scale, hint: A slider that controls the scale., traits: [adjustable], increment: [], decrement: [], frame: [0, 100, 100, 44]}",
                "      - {id: bound, label: \"{wifi?Wi-Fi:Offline}\", hint: Offline shows the saved pages., traits: [button], frame: [0, 150, 100, 44]}",
            ], state: ["wifi: true"])
            let findings = try audit(yaml)
            #expect(rules(findings, for: "french") == [])
            #expect(rules(findings, for: "saved") == [])
            #expect(rules(findings, for: "a-slider") == ["hint-names-type"])
            #expect(rules(findings, for: "bound") == ["hint-names-control"])
        }
    }
}

// MARK: none-combined

extension AuditTests {
    /// DISIC: "`UIAccessibilityTraitNone`: The element has no defined behavior. This feature
    /// removes all others (it cannot be used in conjunction with others)."
    @Suite struct NoneCombinedRule {
        @Test func noneBesideAnotherTraitIsReported() throws {
            let yaml = sceneYAML([
                "      - {id: mixed, label: Send, traits: [none, button], frame: [0, 0, 100, 44]}",
                "      - {id: alone, label: Photo, traits: [none], frame: [0, 50, 100, 44]}",
                "      - {id: conditional, label: Mode, traits: [button, {selected: on}], frame: [0, 100, 100, 44]}",
            ], state: ["on: true"])
            let findings = try audit(yaml)
            #expect(findings.map(\.rule) == ["none-combined"])
            let finding = try #require(findings.first)
            #expect(finding.elementID == "mixed")
            #expect(finding.message == "traits of 'mixed' combine none with button; none combines with nothing: remove it, or the other traits")
            #expect(finding.location.column == column(of: "traits:", onLineWith: "id: mixed", in: yaml))
        }
    }
}
