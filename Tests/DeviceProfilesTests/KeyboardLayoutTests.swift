import DeviceProfiles
import Foundation
import Testing

/// Keyboard layout files (`Devices/keyboards/*.yaml`): the shipped ones load, and a wrong file
/// is refused with every problem at its line and column.
@Suite struct KeyboardLayoutTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Devices/keyboards")

    @Test func everyShippedLayoutLoadsWithEveryLetterOnce() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(Set(files) == ["english-frequency.yaml", "french-frequency.yaml", "qwerty.yaml", "azerty.yaml"])
        for file in files {
            let path = Self.folder.appendingPathComponent(file).path
            let layout = try KeyboardLayout.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path)
            #expect(layout.id == String(file.dropLast(5)))
            let keys = layout.rows.flatMap { row -> [KeyboardLayout.Key] in
                if case .keys(let keys) = row { return keys } else { return [] }
            }
            for letter in "abcdefghijklmnopqrstuvwxyz" {
                #expect(keys.contains(.character(String(letter))), "\(file) has no \(letter)")
            }
            for key in [KeyboardLayout.Key.space, .delete, .return, .shift, .close] {
                #expect(keys.contains(key), "\(file) has no \(key)")
            }
        }
    }

    @Test func theFrequencyLayoutPutsTheCommonestCharactersFirst() throws {
        let path = Self.folder.appendingPathComponent("english-frequency.yaml").path
        let layout = try KeyboardLayout.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path)
        #expect(layout.rows.first == .predictions)
        #expect(layout.predictions == 5)
        #expect(layout.rows.dropFirst().first == .keys([.space, .character("e"), .character("a"), .character("n"),
                                                       .character("d"), .character("w"), .character("v"), .character(".")]))
    }

    @Test func theFrenchLayoutPlacesFrenchLettersByFrequencyAndHasTheAccents() throws {
        let path = Self.folder.appendingPathComponent("french-frequency.yaml").path
        let layout = try KeyboardLayout.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path)
        #expect(layout.language == "fr")
        // Row-column scanning's cost of a key: its row's place plus its place in the row.
        var cost: [KeyboardLayout.Key: Int] = [:]
        for (row, keys) in layout.rows.enumerated() {
            guard case .keys(let keys) = keys else { continue }
            for (column, key) in keys.enumerated() { cost[key] = row + column + 2 }
        }
        // French letters from the commonest (e, s, a, i, t, n, r, u, l, o, d, c, p, m, é, v…).
        let byFrequency = ["e", "s", "a", "i", "t", "n", "r", "u", "l", "o", "d", "c", "p", "m", "é", "v", "q", "f", "b", "g"]
        let costs = byFrequency.map { cost[.character($0)] ?? Int.max }
        #expect(costs == costs.sorted(), "\(zip(byFrequency, costs).map { "\($0)=\($1)" })")
        #expect(cost[.space] == 2)
        for accent in ["é", "è", "ê", "à", "ç", "ù", "â", "î", "ô", "û", "ë", "ï"] {
            #expect(cost[.character(accent)] != nil, "no \(accent)")
        }
    }

    @Test func everyProblemIsNamedAtItsLineAndColumn() {
        let text = """
        name: Broken
        rows:
          - [a, b, spaec]
          - [c, a]
          - predictions
          - [" "]
        colour: red
        """
        #expect {
            _ = try KeyboardLayout.parse(yaml: text, file: "broken.yaml")
        } throws: { error in
            let lines = (error as? ProfileLoadError)?.problems.map(\.description) ?? []
            return lines == [
                "broken.yaml:3:12: error: a key is one character or one of space, delete, return, shift, close, found 'spaec' (did you mean 'space'?)",
                "broken.yaml:4:9: error: 'a' is already on the keyboard (line 3, column 6)",
                "broken.yaml:6:6: error: a key's character must be visible (write `space` or `return` for those keys)",
                "broken.yaml:7:1: error: unknown key 'colour' in a keyboard layout; expected one of: name, description, language, predictions, rows",
            ]
        }
    }

    @Test func aPredictionsRowNeedsItsCount() {
        #expect(throws: ProfileLoadError.self) {
            _ = try KeyboardLayout.parse(yaml: "name: No count\nrows:\n  - predictions\n  - [a]\n", file: "x.yaml")
        }
        #expect(throws: ProfileLoadError.self) {
            _ = try KeyboardLayout.parse(yaml: "name: Too many\npredictions: 11\nrows:\n  - predictions\n  - [a]\n", file: "x.yaml")
        }
        #expect(throws: ProfileLoadError.self) {
            _ = try KeyboardLayout.parse(yaml: "name: Empty\nrows: []\n", file: "x.yaml")
        }
    }
}
