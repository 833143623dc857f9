import Scenes
import Testing

/// Tests files (`scene:` + `tests:`): told apart from scenes, their tests read against the scene
/// they name, every problem at the tests file's own line and column.
@Suite struct TestsFileTests {
    static let scene = """
        scene: Two buttons
        size: [390, 844]
        state: {wifi: true}
        start: main
        screens:
          main:
            elements:
              - {id: a, label: A, traits: [button], frame: [20, 100, 350, 44]}
          other:
            elements:
              - {id: b, label: B, traits: [button], frame: [20, 160, 350, 44]}

        """

    func loadedScene() throws -> Scene {
        guard case .scene(let scene) = try SceneParser.parseFile(yaml: Self.scene, file: "s.yaml") else {
            throw TestsFileError.notAScene
        }
        return scene
    }

    enum TestsFileError: Error { case notAScene }

    @Test("a file with scene and tests but no screens is a tests file naming its scene")
    func reference() throws {
        let content = try SceneParser.parseFile(yaml: "# tests\nscene: ../scenes/s.yaml\ntests: []\n", file: "t.yaml")
        guard case .tests(let reference) = content else {
            Issue.record("read as a scene")
            return
        }
        #expect(reference.scenePath == "../scenes/s.yaml")
        #expect(reference.location == SourceLocation(file: "t.yaml", line: 2, column: 8))
        #expect(try loadedScene().title == "Two buttons")
    }

    @Test("its tests are checked against the named scene: screens, state names and ids")
    func checked() throws {
        let scene = try loadedScene()
        let tests = try SceneParser.parseTests(yaml: """
            scene: s.yaml
            tests:
              - name: on the other screen
                screen: other
                steps:
                  - expect: {focus: b, state: {wifi: true}, screen: other}

            """, file: "t.yaml", scene: scene)
        #expect(tests.map(\.name) == ["on the other screen"])
        #expect(tests[0].screen == "other")
        #expect(tests[0].location.file == "t.yaml")

        do {
            _ = try SceneParser.parseTests(yaml: """
                scene: s.yaml
                tests:
                  - name: wrong
                    screen: nowhere
                    steps:
                      - expect: {focus: zzz, state: {volume: 1}}
                size: [1, 1]

                """, file: "t.yaml", scene: scene)
            Issue.record("accepted")
        } catch {
            #expect(error.problems.map(\.description) == [
                "t.yaml:4:13: error: screen 'nowhere' is not in screens (main, other)",
                "t.yaml:6:25: error: focus 'zzz' is not the id of any element in the scene s.yaml",
                "t.yaml:6:38: error: unknown state name 'volume'; declare it under state:",
                "t.yaml:7:1: error: unknown key 'size' in a tests file; expected one of: scene, description, tests",
            ])
        }
    }

    @Test("a tests file without scene: says what scene: is for")
    func missingScene() {
        do {
            _ = try SceneParser.parseFile(yaml: "tests: []\n", file: "t.yaml")
            Issue.record("accepted")
        } catch {
            #expect(error.problems.first?.description.contains("scene") == true)
            #expect(error.problems.first?.location.line == 1)
        }
    }
}
