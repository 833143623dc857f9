import AccessibilityModel
import DeviceProfiles
import Foundation
import Scanning
import Scenes
import SwitchInput
import Testing

/// The scanning keyboard: the typing rules, the keyboard as scanned content over a scene's text
/// field, and scripted `type:` steps through the engine's switches.
@Suite struct KeyboardTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func shippedLayout(_ name: String) throws -> KeyboardLayout {
        let path = root.appendingPathComponent("Devices/keyboards/\(name).yaml").path
        return try KeyboardLayout.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    static func formScene() throws -> Scene {
        let path = root.appendingPathComponent("Scenarios/keyboard-form.yaml").path
        return try SceneParser.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    /// Predicts from a fixed list: the words that start with the word being typed.
    struct ListPrediction: WordPredicting {
        var words: [String]
        func predictions(after textBeforeCaret: String) -> [String] {
            let prefix = KeyboardTyping.wordPrefix(of: textBeforeCaret).lowercased()
            return words.filter { $0.hasPrefix(prefix) }
        }
    }

    // MARK: Typing rules

    @Test func aSentenceStartsWithACapitalAndShiftTurnsItTheOtherWay() {
        var typing = KeyboardTyping()
        #expect(typing.edits(for: .character("h"), after: "") == [.insert("H")])
        #expect(typing.edits(for: .character("i"), after: "H") == [.insert("i")])
        #expect(typing.edits(for: .character("s"), after: "Hi. ") == [.insert("S")])
        #expect(typing.edits(for: .shift, after: "Hi. ") == [])
        #expect(typing.edits(for: .character("s"), after: "Hi. ") == [.insert("s")], "shift turned the sentence's capital off")
        #expect(typing.edits(for: .character("o"), after: "Hi. s") == [.insert("o")], "shift lasts one letter")
        #expect(typing.edits(for: .delete, after: "") == [], "nothing to delete in an empty field")
    }

    @Test func aPredictedWordCompletesTheTypedLettersAndPunctuationGoesBeforeItsSpace() {
        var typing = KeyboardTyping()
        #expect(typing.edits(forWord: "thanks", after: "No, Th") == [.insert("anks ")], "the letters typed keep their case")
        #expect(typing.edits(for: .character("."), after: "No, Thanks ") == [.deleteBackward(1), .insert(". ")])
        #expect(typing.edits(forWord: "the", after: "Yes. ") == [.insert("The ")], "a sentence's first word gets its capital")
        #expect(typing.edits(for: .character("."), after: "Yes. The ") == [.deleteBackward(1), .insert(". ")])
        #expect(typing.edits(for: .character("."), after: "x ") == [.insert(".")], "a space the user typed stays")
    }

    @Test func theCaretWindowShowsTheTextAroundTheCaret() {
        #expect(FieldText(text: "Ann").aroundCaret() == "Ann|")
        #expect(FieldText(text: "abcdefghij", caret: 4).aroundCaret(width: 6) == "abcd|ef")
        #expect(FieldText(text: String(repeating: "x", count: 40) + "end").aroundCaret(width: 5) == "xxend|")
    }

    // MARK: The keyboard over a scene's field

    @Test func selectingATextFieldOpensTheKeyboardWhoseRowsAreGroupsAndKeysTypeIntoTheField() throws {
        let layout = try Self.shippedLayout("english-frequency")
        var settings = ScanSettings()
        settings.scanning = .manual
        var session = ScanSession(scene: try Self.formScene(), settings: settings)
        session.keyboard = KeyboardOffer(layout: layout, predictor: ListPrediction(words: ["anne", "and", "any"]))
        _ = session.start()
        #expect(session.focusID == "name")
        _ = session.input(SwitchEdge(switchID: "select", kind: .down, time: 1))
        _ = session.input(SwitchEdge(switchID: "select", kind: .up, time: 1.05))
        #expect(session.menuFocusTitle == "Tap")
        _ = session.input(SwitchEdge(switchID: "select", kind: .down, time: 2))
        _ = session.input(SwitchEdge(switchID: "select", kind: .up, time: 2.05))
        let keyboard = try #require(session.keyboardContent)
        #expect(session.screen == "keyboard: Name")
        // Rows are the groups, in the layout's order: the words first, then the letters' rows.
        let rows = session.currentStructure().nodes
        let allGroups = rows.allSatisfy(\.isGroup)
        #expect(allGroups)
        #expect(rows.first?.children.map { $0.element.label } == ["anne", "and", "any"])
        #expect(rows.dropFirst().first?.children.prefix(3).map { $0.element.label } == ["space", "E", "A"], "capitals at the start")
        #expect(keyboard.fieldText.text == "")
        // Select enters the words' row, select on its first word types it: no scanner menu
        // between (keys are tapped on select, whatever tapBehavior says).
        _ = session.input(SwitchEdge(switchID: "select", kind: .down, time: 3))
        _ = session.input(SwitchEdge(switchID: "select", kind: .up, time: 3.05))
        _ = session.input(SwitchEdge(switchID: "select", kind: .down, time: 4))
        _ = session.input(SwitchEdge(switchID: "select", kind: .up, time: 4.05))
        #expect(session.menuTitles == nil)
        #expect(session.keyboardContent?.fieldText.text == "Anne ")
        #expect(session.state["name"] == .string("Anne "))
    }

    @Test func theKeyboardTypesThroughTheSceneStateAndReadsTheFieldBack() throws {
        let layout = try Self.shippedLayout("english-frequency")
        let scene = try Self.formScene()
        var content = SceneContent(scene: scene)
        let field = try #require(content.currentStructure(groupItems: false).nodes.first { $0.id == "name" }?.element)
        #expect(content.isTextField(field))
        var keyboard = KeyboardContent(over: content, field: field, offer: KeyboardOffer(layout: layout, predictor: ListPrediction(words: ["anne"])))
        _ = keyboard.press(.character("a"))
        _ = keyboard.press(.character("n"))
        #expect(keyboard.fieldText == FieldText(text: "An"))
        _ = keyboard.choose(word: "anne")
        #expect(keyboard.fieldText.text == "Anne ")
        _ = keyboard.press(.delete)
        content = try #require(keyboard.base as? SceneContent)
        #expect(content.state.values["name"] == .string("Anne"), "the field's text is the scene's state, as read back")
    }

    @Test func thePerfectTypistChoosesAWordOnlyWhenItBringsTheFieldFurther() throws {
        let layout = try Self.shippedLayout("english-frequency")
        let keyboard = KeyboardContent(
            over: SceneContent(scene: try Self.formScene()), field: Element(id: "name", label: "Name"),
            offer: KeyboardOffer(layout: layout, predictor: ListPrediction(words: ["ant", "ann"])))
        #expect(try PerfectTypist.nextChoice(toType: "Ann went", on: keyboard) == .word("ann"))
        #expect(try PerfectTypist.nextChoice(toType: "Anna", on: keyboard) == .key(.character("a")),
                "'Ann ' is not the start of 'Anna'")
        #expect(try PerfectTypist.nextChoice(toType: "an", on: keyboard) == .key(.shift), "the capital is turned off first")
        #expect(throws: PerfectTypist.Unreachable.self) { try PerfectTypist.nextChoice(toType: "€", on: keyboard) }
    }

    @Test func thePerfectTypistLeavesTheRowItStayedInForAKeyOfAnotherRow() throws {
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.focusedItemAfterTap = .current
        var session = ScanSession(scene: try Self.formScene(), settings: settings)
        session.keyboard = KeyboardOffer(layout: try Self.shippedLayout("english-frequency"))
        _ = session.start()
        var time = 1.0
        func press(_ action: SwitchAction) {
            _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .down, time: time))
            _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .up, time: time + 0.05))
            time += 1
        }
        press(.select)
        press(.select)
        #expect(session.screen == "keyboard: Name")
        // H (its row is the fourth), then e (the second row): after H the highlight stays on H's row.
        for _ in 0..<100 {
            let keyboard = try #require(session.keyboardContent)
            guard let choice = try PerfectTypist.nextChoice(toType: "He", on: keyboard) else { break }
            let target = try #require(keyboard.elementID(of: choice))
            var reached = false
            for _ in 0..<60 where !reached {
                switch session.perfectMove(toward: target) {
                case .select(let reachesTarget):
                    press(.select)
                    reached = reachesTarget
                case .next: press(.next)
                case .wait, .stuck: Issue.record("\(target) cannot be reached"); return
                }
            }
            try #require(reached, "\(target) was not reached")
        }
        #expect(session.keyboardContent?.fieldText.text == "He")
    }

    // MARK: Scripted tests

    @Test func theScenarioTypesIntoTheFieldThroughTheSwitches() throws {
        let scene = try Self.formScene()
        var runner = ScriptRunner(scene: scene)
        runner.keyboard = KeyboardOffer(layout: try Self.shippedLayout("english-frequency"))
        for result in runner.runAll() {
            #expect(result.failure == nil, "\(result.testName): \(result.failure?.report ?? "")")
        }
    }

    @Test func aTypeStepWithoutAKeyboardFailsSayingSo() throws {
        let scene = try Self.formScene()
        let result = ScriptRunner(scene: scene).run(scene.tests[0])
        let failure = try #require(result.failure)
        #expect(failure.report.contains("no scanning keyboard is open"))
    }
}
