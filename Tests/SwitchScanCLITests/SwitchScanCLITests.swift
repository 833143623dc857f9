import Foundation
import Testing

/// The `switchscan` executable run as a subprocess: output and exit status of inspect, validate
/// and audit.

// MARK: inspect

@Suite struct InspectCommandTests {
    @Test func textReportOfSwitchControlGroups() throws {
        let result = try CLI.run(["inspect", "Scenarios/switch-control-groups.yaml"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        let expected = """
            Switch Control groups — screen main \"Switch Control groups (UIKit)\" (390×844)
            4 scan entries, 6 items
            1 group test-wrap (combined)  frame [20, 100, 350, 44]
              1.1 test-1  label "Test 1"  traits [button]  frame [20, 100, 170, 44]
              1.2 test-2  label "Test 2"  traits [button]  frame [200, 100, 170, 44]
            2 btn-1  label "Btn 1"  traits [button]  frame [20, 180, 350, 44]
            3 btn-2  label "Btn 2"  traits [button]  frame [20, 232, 350, 44]
            4 group third-group (combined)  frame [20, 388, 350, 96]
              4.1 btn-5  label "Btn 5"  traits [button]  frame [20, 388, 350, 44]
              4.2 btn-6  label "Btn 6"  traits [button]  frame [20, 440, 350, 44]

            """
        #expect(result.stdout == expected)
    }

    @Test func textReportOfAnotherScreen() throws {
        let result = try CLI.run(["inspect", "Scenarios/switch-control-groups.yaml", "--screen", "hidden"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.first == "Switch Control groups — screen hidden \"Switch Control groups (no root list; Btn 3 and Btn 4 hidden)\" (390×844)")
        #expect(lines.dropFirst().first == "4 scan entries, 6 items")
        // Entries and their children, by id, in scan order.
        let ids = lines.dropFirst(2).map { line -> String in
            let words = line.split(separator: " ")
            return String(words[1] == "group" ? words[2] : words[1])
        }
        #expect(ids == [
            "hidden-test-wrap", "hidden-test-1", "hidden-test-2", "hidden-btn-1", "hidden-btn-2",
            "hidden-third-group", "hidden-btn-5", "hidden-btn-6",
        ])
    }

    /// One entry of the JSON report, read strictly: every key must be present (null when absent).
    struct Entry: Equatable, CustomStringConvertible {
        var kind: String
        var id: String
        var label: String?
        var value: String?
        var traits: [String]
        var frame: [Double]?
        var group: String?
        var items: [Entry]?

        init(kind: String = "item", id: String, label: String? = nil, value: String? = nil, traits: [String] = [],
             frame: [Double]?, group: String? = nil, items: [Entry]? = nil) {
            self.kind = kind
            self.id = id
            self.label = label
            self.value = value
            self.traits = traits
            self.frame = frame
            self.group = group
            self.items = items
        }

        init(json: Any) throws {
            let object = try #require(json as? [String: Any], "an entry is an object")
            for key in ["kind", "id", "label", "value", "hint", "traits", "frame", "group", "customActions"] {
                #expect(object.keys.contains(key), "entry \(object["id"] ?? "?") has no key '\(key)'")
            }
            func optionalString(_ key: String) throws -> String? {
                if object[key] is NSNull || object[key] == nil { return nil }
                return try #require(object[key] as? String, "\(key) is a string or null")
            }
            kind = try #require(object["kind"] as? String)
            id = try #require(object["id"] as? String)
            label = try optionalString("label")
            value = try optionalString("value")
            group = try optionalString("group")
            traits = try #require(object["traits"] as? [String])
            if object["frame"] is NSNull { frame = nil } else {
                let numbers = try #require(object["frame"] as? [Any])
                frame = try numbers.map { try #require(($0 as? NSNumber)?.doubleValue) }
            }
            if let nested = object["items"] {
                items = try #require(nested as? [Any]).map { try Entry(json: $0) }
            } else {
                items = nil
            }
        }

        var description: String { "\(kind) \(id) \(label ?? "-") \(traits) \(frame ?? []) group \(group ?? "-") \(items ?? [])" }
    }

    @Test func jsonReportOfSwitchControlGroups() throws {
        let result = try CLI.run(["inspect", "--json", "Scenarios/switch-control-groups.yaml"])
        #expect(result.status == 0, "\(result)")
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "the report is an object")
        #expect(root["scene"] as? String == "Switch Control groups")
        #expect(root["screen"] as? String == "main")
        #expect(root["file"] as? String == "Scenarios/switch-control-groups.yaml")
        #expect((root["size"] as? [NSNumber])?.map(\.doubleValue) == [390, 844])
        let items = try #require(root["items"] as? [Any]).map { try Entry(json: $0) }

        let expected = [
            Entry(kind: "group", id: "test-wrap", frame: [20, 100, 350, 44], items: [
                Entry(id: "test-1", label: "Test 1", traits: ["button"], frame: [20, 100, 170, 44], group: "test-wrap"),
                Entry(id: "test-2", label: "Test 2", traits: ["button"], frame: [200, 100, 170, 44], group: "test-wrap"),
            ]),
            Entry(id: "btn-1", label: "Btn 1", traits: ["button"], frame: [20, 180, 350, 44]),
            Entry(id: "btn-2", label: "Btn 2", traits: ["button"], frame: [20, 232, 350, 44]),
            Entry(kind: "group", id: "third-group", frame: [20, 388, 350, 96], items: [
                Entry(id: "btn-5", label: "Btn 5", traits: ["button"], frame: [20, 388, 350, 44], group: "third-group"),
                Entry(id: "btn-6", label: "Btn 6", traits: ["button"], frame: [20, 440, 350, 44], group: "third-group"),
            ]),
        ]
        #expect(items.count == expected.count)
        for (found, wanted) in zip(items, expected) {
            #expect(found == wanted)
        }
        // Groups say how they are navigated; items do not.
        let rawItems = try #require(root["items"] as? [[String: Any]])
        #expect(rawItems.map { $0["navigationStyle"] as? String } == ["combined", nil, nil, "combined"])
    }

    @Test func jsonCarriesTitleAndLanguage() throws {
        let result = try CLI.run(["inspect", "--json", "Scenarios/french-label.yaml"])
        #expect(result.status == 0, "\(result)")
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "the report is an object")
        let items = try #require(root["items"] as? [[String: Any]])
        let languages = Dictionary(uniqueKeysWithValues: items.map { ($0["id"] as? String ?? "", $0["language"] as? String ?? "") })
        #expect(languages["my-label"] == "fr")
        #expect(languages["open-button"] == "en-US")
        #expect(root.keys.contains("title"))
    }

    @Test func jsonIsDecodable() throws {
        struct Report: Decodable {
            struct Item: Decodable {
                var id: String
                var label: String?
                var group: String?
                var items: [Item]?
            }
            var scene: String
            var items: [Item]
        }
        let result = try CLI.run(["inspect", "--json", "Scenarios/switch-control-groups.yaml"])
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        #expect(report.items.map(\.id) == ["test-wrap", "btn-1", "btn-2", "third-group"])
        #expect(report.items.first?.items?.map(\.label) == ["Test 1", "Test 2"])
        #expect(report.items.last?.items?.map(\.group) == ["third-group", "third-group"])
    }

    @Test func aMissingScreenFailsAndListsTheScreens() throws {
        let result = try CLI.run(["inspect", "Scenarios/switch-control-groups.yaml", "--screen", "nowhere"])
        #expect(result.status != 0, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.contains("nowhere"))
        #expect(result.stderr.contains("main, hidden"), "\(result.stderr)")
    }

    @Test func aStateOverrideChangesABoundLabel() throws {
        let initial = try CLI.run(["inspect", "Scenarios/grouped-label-and-switch.yaml"])
        #expect(initial.status == 0, "\(initial)")
        #expect(initial.stdout.contains("1 wrap  label \"the switch control is off\""), "\(initial.stdout)")

        let on = try CLI.run(["inspect", "Scenarios/grouped-label-and-switch.yaml", "--state", "isOn=true"])
        #expect(on.status == 0, "\(on)")
        #expect(on.stdout.contains("1 wrap  label \"the switch control is on\""), "\(on.stdout)")
        #expect(!on.stdout.contains("is off"))
    }

    @Test func stateOverridesCombineWithScreenAndJSON() throws {
        let result = try CLI.run([
            "inspect", "Scenarios/grouped-label-and-switch.yaml", "--screen", "swiftui", "--state", "isChecked=true", "--json",
        ])
        #expect(result.status == 0, "\(result)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let items = try #require(root["items"] as? [[String: Any]])
        #expect(items.count == 1)
        #expect(items.first?["id"] as? String == "hstack")
        #expect(items.first?["label"] as? String == "Some text: enabled, Test")
        #expect(items.first?["value"] as? String == "on")
    }

    @Test func bigKeyLabelsFollowShift() throws {
        let lower = try CLI.run(["inspect", "Scenarios/bigkey-keyboard.yaml"])
        let upper = try CLI.run(["inspect", "Scenarios/bigkey-keyboard.yaml", "--state", "shift=true"])
        #expect(lower.status == 0 && upper.status == 0, "\(lower)\n\(upper)")
        #expect(lower.stdout.contains("key-q  label \"q\""))
        #expect(upper.stdout.contains("key-q  label \"Q\""))
        #expect(upper.stdout.contains("traits [selected, keyboardKey]"), "the shift key is selected while shift is on")
    }

    @Test func badOverridesAreRefused() throws {
        let wrongType = try CLI.run(["inspect", "Scenarios/grouped-label-and-switch.yaml", "--state", "isOn=maybe"])
        #expect(wrongType.status != 0)
        #expect(wrongType.stderr.contains("true or false"), "\(wrongType.stderr)")

        let unknown = try CLI.run(["inspect", "Scenarios/grouped-label-and-switch.yaml", "--state", "volume=3"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("isOn, isChecked"), "the message lists the state names: \(unknown.stderr)")

        let noEquals = try CLI.run(["inspect", "Scenarios/grouped-label-and-switch.yaml", "--state", "isOn"])
        #expect(noEquals.status != 0)
        #expect(noEquals.stderr.contains("name=value"), "\(noEquals.stderr)")
    }

    /// The Orange guide's logo with custom content (one entry made important) and a grouped
    /// label and switch whose activation point lies on the switch.
    static let pointAndContent = """
        scene: Point and content
        size: [390, 844]
        start: main
        screens:
          main:
            elements:
              - id: logo
                label: Orange logo
                traits: [image]
                frame: [20, 100, 100, 100]
                customContent:
                  - {label: date of creation, value: "1988", important: true}
                  - {label: registered office location, value: paris}
              - id: wrap
                label: Wi-Fi
                isAccessibilityElement: true
                activationPoint: [330, 262]
                frame: [20, 240, 350, 44]

        """

    @Test func jsonShowsActivationPointsAndCustomContent() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("point.yaml", Self.pointAndContent)
        let result = try CLI.run(["inspect", "--json", path])
        #expect(result.status == 0, "\(result)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let items = try #require(root["items"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0["id"] as? String ?? "", $0) })
        // No activation point declared: the frame's centre, where a tap lands.
        #expect((byID["logo"]?["activationPoint"] as? [NSNumber])?.map(\.doubleValue) == [70, 150])
        #expect((byID["wrap"]?["activationPoint"] as? [NSNumber])?.map(\.doubleValue) == [330, 262])
        let content = try #require(byID["logo"]?["customContent"] as? [[String: Any]])
        #expect(content.map { $0["label"] as? String } == ["date of creation", "registered office location"])
        #expect(content.map { $0["value"] as? String } == ["1988", "paris"])
        #expect(content.map { $0["important"] as? Bool } == [true, false])
        #expect((byID["wrap"]?["customContent"] as? [Any])?.isEmpty == true)
    }

    @Test func textShowsADeclaredActivationPointAndMarksImportantContent() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("point.yaml", Self.pointAndContent)
        let result = try CLI.run(["inspect", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.contains(
            "1 logo  label \"Orange logo\"  traits [image]  frame [20, 100, 100, 100]  content [date of creation: 1988 (important); registered office location: paris]"),
            "\(result.stdout)")
        #expect(result.stdoutLines.contains("2 wrap  label \"Wi-Fi\"  frame [20, 240, 350, 44]  activationPoint (330, 262)"), "\(result.stdout)")
    }

    @Test func aBrokenSceneIsReportedWithItsProblems() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("broken.yaml", "scene: Broken\nsize: [390, 844]\nstart: main\nscreens:\n  main:\n    elements:\n      - {id: a, lable: A}\n")
        let result = try CLI.run(["inspect", path])
        #expect(result.status == 2, "\(result)")  // an input that does not load
        #expect(result.stdout == "")
        #expect(result.stderr.contains("\(path):7:17: error: unknown key 'lable'"), "\(result.stderr)")
    }
}

// MARK: validate

@Suite struct ValidateCommandTests {
    /// The scene files of Scenarios/, as `validate` names them.
    static func scenarioFiles() throws -> [String] {
        // Subfolders too (Scenarios/imported), in the order `validate Scenarios` lists them.
        try FileManager.default.subpathsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("Scenarios").path)
            .filter { ["yaml", "yml", "json"].contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
            .map { "Scenarios/" + $0 }
    }

    @Test func everySeedSceneIsValid() throws {
        let files = try Self.scenarioFiles()
        #expect(!files.isEmpty)
        let result = try CLI.run(["validate", "Scenarios"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.count == files.count + 1, "\(result.stdout)")
        for (line, file) in zip(lines, files) {
            #expect(line.hasPrefix("\(file): ok ("), "\(line)")
        }
        #expect(lines.last == "\(files.count) files checked, 0 with problems, 0 problems")
    }

    static let broken = """
        scene: Broken
        size: [390, -1]
        start: nowhere
        screens:
          main:
            elements:
              - {id: a, label: A, traits: [buton], frame: [0, 0, 10, 10]}
              - {id: a, lable: B, frame: [0, 20, 10, 10]}
              - {id: c, label: "{missing}", visible: nothing, frame: [0, 40, 10, 10]}
              - {id: d, label: D, activate: [{go: elsewhere}], frame: [0, 60, 10, 10]}

        """

    @Test func aBrokenFileReportsEveryProblemWithItsPosition() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("broken.yaml", Self.broken)
        let result = try CLI.run(["validate", path])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutLines
        let problems = Array(lines.dropLast())
        // Every problem, in file order, each as file:line:column: error: message.
        let expected: [(position: String, fragment: String)] = [
            ("2:7", "size must be positive"),
            ("3:8", "start names screen 'nowhere'"),
            ("7:36", "unknown trait 'buton'"),
            ("8:14", "duplicate id 'a'"),
            ("8:17", "unknown key 'lable'"),
            ("9:24", "unknown state name 'missing'"),
            ("9:46", "unknown state name 'nothing'"),
            ("10:43", "screen 'elsewhere'"),
        ]
        #expect(problems.count == expected.count, "\(result.stdout)")
        for (line, wanted) in zip(problems, expected) {
            #expect(line.hasPrefix("\(path):\(wanted.position): error: "), "\(line)")
            #expect(line.contains(wanted.fragment), "\(line)")
        }
        #expect(lines.last == "1 files checked, 1 with problems, \(expected.count) problems")
    }

    @Test func aFolderWithOneBrokenFileFailsAndStillChecksTheOthers() throws {
        let folder = try TemporaryFolder()
        let good = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Scenarios/switch-control-groups.yaml"), encoding: .utf8)
        try folder.write("a-good.yaml", good)
        try folder.write("b-broken.yml", "scene: Broken\nsize: [390, 844]\nstart: main\n")
        try folder.write("notes.txt", "not a scene")
        let result = try CLI.run(["validate", folder.url.path])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.first?.hasPrefix(folder.url.appendingPathComponent("a-good.yaml").path + ": ok (2 screens") == true, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix(folder.url.appendingPathComponent("b-broken.yml").path + ":1:1: error: missing 'screens'") },
                "\(result.stdout)")
        #expect(lines.last == "2 files checked, 1 with problems, 1 problems")
    }

    @Test func invalidYAMLIsReportedWithItsPosition() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("bad.yaml", "scene: Bad\nsize: [390, 844\nstart: main\n")
        let result = try CLI.run(["validate", path])
        #expect(result.status == 1, "\(result)")
        let first = try #require(result.stdoutLines.first)
        #expect(first.hasPrefix(path + ":"), "\(first)")
        #expect(first.contains(": error: invalid YAML"), "\(first)")
    }

    @Test func aMissingPathIsAClearError() throws {
        let result = try CLI.run(["validate", "Scenarios/no-such-scene.yaml"])
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("Scenarios/no-such-scene.yaml: no such file or folder"), "\(result.stderr)")
    }

    @Test func noPathIsAUsageError() throws {
        let result = try CLI.run(["validate"])
        #expect(result.status != 0 && result.status != 1, "a usage error, not a problem report: \(result)")
        #expect(result.stderr.contains("Usage"), "\(result.stderr)")
    }
}

// MARK: audit

@Suite struct AuditCommandTests {
    /// One violation of each rule, one element a line.
    static let violations = """
        scene: Violations
        size: [390, 844]
        state:
          level: 5
        start: main
        screens:
          main:
            accessibilityElements: [add, lower, period, hint-lower, hint-open, gesture, unnamed, slider]
            elements:
              - {id: add, label: Add button, traits: [button], frame: [0, 0, 100, 44]}
              - {id: lower, label: play, traits: [button], frame: [0, 50, 100, 44]}
              - {id: period, label: Play., traits: [button], frame: [0, 100, 100, 44]}
              - {id: hint-lower, label: Play, hint: plays the song., traits: [button], frame: [0, 150, 100, 44]}
              - {id: hint-open, label: Stop, hint: Stops the song, traits: [button], frame: [0, 200, 100, 44]}
              - {id: gesture, label: Next, hint: Tap to play the next song., traits: [button], frame: [0, 250, 100, 44]}
              - {id: unnamed, traits: [button], frame: [0, 300, 100, 44]}
              - {id: slider, label: Volume, traits: [adjustable], increment: [{add: {level: 1, min: 0, max: 10}}], frame: [0, 350, 100, 44]}
              - {id: forgotten, label: Forgotten, traits: [button], frame: [0, 400, 100, 44]}

        """

    /// Where each finding must point: the element's line, and the column of the key concerned.
    static func expectedFindings() -> [(line: Int, column: Int, rule: String, id: String)] {
        let lines = violations.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func at(_ id: String, _ key: String, _ rule: String) -> (Int, Int, String, String) {
            let index = lines.firstIndex { $0.contains("{id: \(id),") }!
            let text = lines[index]
            let column = text.distance(from: text.startIndex, to: text.range(of: key)!.lowerBound) + 1
            return (index + 1, column, rule, id)
        }
        return [
            at("add", "label:", "label-names-type"),
            at("lower", "label:", "label-capital"),
            at("period", "label:", "label-period"),
            at("hint-lower", "hint:", "hint-capital"),
            at("hint-open", "hint:", "hint-period"),
            at("gesture", "hint:", "hint-gesture"),
            at("unnamed", "id:", "missing-label"),
            at("slider", "traits:", "adjustable-effects"),
            at("forgotten", "{", "unreachable"),
        ]
    }

    @Test func oneViolationOfEachRule() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("violations.yaml", Self.violations)
        let result = try CLI.run(["audit", path])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutLines
        let expected = Self.expectedFindings()
        #expect(lines.count == expected.count + 1, "\(result.stdout)")
        for (line, wanted) in zip(lines, expected) {
            #expect(line.hasPrefix("\(path):\(wanted.line):\(wanted.column): warning: "), "\(line) (expected \(wanted))")
            #expect(line.hasSuffix("[\(wanted.rule)]"), "\(line) (expected \(wanted))")
            #expect(line.contains("'\(wanted.id)'"), "\(line) (expected \(wanted))")
        }
        #expect(lines.last == "1 files audited, \(expected.count) findings")
    }

    /// What the seeds warn against beyond one attribute: the Apple guide's "Tapping purchases the
    /// item.", a button behind a modal view that is never dismissed, and a button in a container
    /// hidden in every state. Each finding as the user reads it, with where it points.
    @Test func gestureFormsModalViewsAndHiddenContainers() throws {
        let folder = try TemporaryFolder()
        let text = """
            scene: Hidden for good
            size: [390, 844]
            start: shop
            screens:
              shop:
                elements:
                  - {id: buy, label: Buy, hint: Tapping purchases the item., traits: [button], frame: [0, 0, 100, 44]}
                  - id: cookie-banner
                    accessibilityViewIsModal: true
                    frame: [0, 600, 390, 244]
                    elements:
                      - {id: accept, label: Accept, traits: [button], frame: [0, 700, 390, 44]}
              drawer:
                elements:
                  - id: drawer-panel
                    accessibilityElementsHidden: true
                    elements:
                      - {id: drawer-close, label: Close, traits: [button], frame: [0, 0, 100, 44], activate: [{go: shop}]}
                  - {id: drawer-title, label: Menu, traits: [header], frame: [0, 100, 390, 44]}

            """
        let path = try folder.write("hidden.yaml", text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func at(_ fragment: String, _ key: String) -> String {
            let index = lines.firstIndex { $0.contains(fragment) }!
            let column = lines[index].distance(from: lines[index].startIndex, to: lines[index].range(of: key)!.lowerBound) + 1
            return "\(path):\(index + 1):\(column)"
        }
        let result = try CLI.run(["audit", path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutLines == [
            "\(at("{id: buy,", "{")): warning: actionable element 'buy' is behind modal view 'cookie-banner', which is shown in every state (accessibilityViewIsModal: true, never hidden), so no scan reaches it [behind-modal]",
            "\(at("{id: buy,", "hint:")): warning: hint \"Tapping purchases the item.\" of 'buy' names a gesture ('Tapping'); describe the result instead [hint-gesture]",
            "\(at("{id: drawer-close,", "{")): warning: actionable element 'drawer-close' is inside 'drawer-panel', which has accessibilityElementsHidden: true in every state, so no scan reaches it [hidden-container]",
            "1 files audited, 3 findings",
        ], "\(result.stdout)")
    }

    @Test func aCleanFilePasses() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("clean.yaml", """
            scene: Clean
            size: [390, 844]
            state:
              level: 5
            start: main
            screens:
              main:
                elements:
                  - {id: play, label: Play, hint: Plays the song., traits: [button], frame: [0, 0, 100, 44]}
                  - {id: title, label: Now playing, traits: [header], frame: [0, 50, 390, 44]}
                  - id: volume
                    label: Volume
                    value: "{level}"
                    traits: [adjustable]
                    frame: [0, 100, 390, 44]
                    increment: [{add: {level: 1, min: 0, max: 10}}]
                    decrement: [{add: {level: -1, min: 0, max: 10}}]
                  - {id: decoration, accessibilityElementsHidden: true, frame: [0, 150, 10, 10]}

            """)
        let result = try CLI.run(["audit", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "1 files audited, 0 findings\n")
    }

    @Test func anUnloadableFileExitsTwo() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("broken.yaml", "scene: Broken\nsize: [390, 844]\nstart: main\nscreens:\n  main:\n    elements:\n      - {id: a, lable: A}\n")
        let result = try CLI.run(["audit", path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains("\(path):7:17: error: unknown key 'lable'"), "\(result.stdout)")
        #expect(result.stdoutLines.last == "1 files audited, 0 findings, 1 file not loaded")
    }

    @Test func aMissingPathIsAFileThatCannotBeLoaded() throws {
        // As `test`: exit 2, the file's message, counted on the last line.
        let result = try CLI.run(["audit", "no-such-folder"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdoutLines == [
            "no-such-folder:1:1: error: cannot read the file: No such file or directory",
            "1 files audited, 0 findings, 1 file not loaded",
        ], "\(result)")
    }
}
