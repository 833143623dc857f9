import AccessibilityModel
import Foundation
@testable import Scenes
import Testing

/// docs/scene-format.md is the contract other tools write scenes by: it names every key the
/// reader accepts, so that a key added to the reader is added to the contract too.
@Suite("The scene format's contract page")
struct SceneFormatDocTests {
    static let page = scenariosFolder.deletingLastPathComponent().appendingPathComponent("docs/scene-format.md")

    @Test("docs/scene-format.md names every key, step, expectation, trait and notification the reader accepts")
    func everyKeyIsNamed() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let lists: [(String, [String])] = [
            ("scene", SceneFormatKeys.scene), ("tests file", SceneFormatKeys.testsFile), ("screen", SceneFormatKeys.screen),
            ("element", SceneFormatKeys.element), ("effect", SceneFormatKeys.effects), ("test", SceneFormatKeys.test),
            ("step", SceneFormatKeys.steps), ("expect", SceneReader.expectKeys), ("trait", SceneFormatKeys.traits),
            ("notification", NotificationKind.allCases.map(\.rawValue)),
        ]
        for (what, keys) in lists {
            for key in keys {
                #expect(text.contains("`\(key)`") || text.contains("`\(key):"), "docs/scene-format.md does not name the \(what) key `\(key)`")
            }
        }
    }
}
