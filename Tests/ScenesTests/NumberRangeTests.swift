import AccessibilityModel
import Scenes
import Testing

/// Every number read from a file is range-checked where it is read, with the file, line and
/// column and the accepted range: settings (times a person and the loop can honour, counts that
/// fit), scripted test steps, geometry. None reaches a conversion that could trap.
@Suite("Numbers from files: range-checked where read")
struct NumberRangeTests {
    func settingsProblems(_ text: String) -> [String] {
        do {
            _ = try SettingsDocument.parse(yaml: text, file: "settings.yaml")
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("settings outside their range are refused with the range", arguments: [
        ("loops: 1e300", "settings.yaml:1:8: error: setting 'loops' expects a whole number from 1 to 100; found 1e300"),
        ("loops: 9223372036854775808", "settings.yaml:1:8: error: setting 'loops' expects a whole number from 1 to 100; found 9223372036854775808"),
        ("loops: 101", "settings.yaml:1:8: error: setting 'loops' expects a whole number from 1 to 100; found 101"),
        ("autoScanningTime: 1e-6", "settings.yaml:1:19: error: setting 'autoScanningTime' expects a number of seconds from 0.1 to 600; found 1e-6"),
        ("autoScanningTime: 601", "settings.yaml:1:19: error: setting 'autoScanningTime' expects a number of seconds from 0.1 to 600; found 601"),
        ("moveRepeat: 0.000001", "settings.yaml:1:13: error: setting 'moveRepeat' expects a number of seconds from 0.05 to 60, or off (0 is off); found 0.000001"),
        ("dwellTime: 1e-6", "settings.yaml:1:12: error: setting 'dwellTime' expects a number of seconds from 0.1 to 600; found 1e-6"),
        ("pauseOnFirstItem: 1e300", "settings.yaml:1:19: error: setting 'pauseOnFirstItem' expects a number of seconds from 0.05 to 600, or off (0 is off); found 1e300"),
        ("debounceTime: 0.0001", "settings.yaml:1:15: error: setting 'debounceTime' expects a number of seconds from 0.001 to 5, or off (0 is off); found 0.0001"),
        ("holdDuration: 100", "settings.yaml:1:15: error: setting 'holdDuration' expects a number of seconds from 0.01 to 60, or off (0 is off); found 100"),
        ("longPress: 0.01", "settings.yaml:1:12: error: setting 'longPress' expects a number of seconds from 0.1 to 60, or off (0 is off); found 0.01"),
        ("ignoreRepeat: -1", "settings.yaml:1:15: error: setting 'ignoreRepeat' expects a number of seconds from 0.01 to 60, or off (0 is off); found -1"),
        ("autoTapTime: 0.05", "settings.yaml:1:14: error: setting 'autoTapTime' expects a number of seconds from 0.1 to 60; found 0.05"),
        ("minimumDisplayTime: 61", "settings.yaml:1:21: error: setting 'minimumDisplayTime' expects a number of seconds from 0.01 to 60, or off (0 is off); found 61"),
        ("flashDuration: 1e-9", "settings.yaml:1:16: error: setting 'flashDuration' expects a number of seconds from 0.1 to 600; found 1e-9"),
    ])
    func settingOutOfRange(line: String, message: String) {
        #expect(settingsProblems(line + "\n") == [message])
    }

    @Test("every range's own ends are accepted, and 0 still means off")
    func rangeEnds() {
        for setting in SettingTable.rows {
            guard let range = setting.range else { continue }
            for end in [range.lowerBound, range.upperBound] {
                #expect(settingsProblems("\(setting.name): \(end)\n").isEmpty, "\(setting.name): \(end)")
            }
        }
        #expect(settingsProblems("moveRepeat: 0\ndebounceTime: off\n").isEmpty)
    }

    @Test("scripted test steps past what a test can mean are refused", arguments: [
        ("route: 9223372036854775808", "inline.yaml:12:16: error: route needs a cell number from 0 to 9999 (0 is the first cell); found 9223372036854775808"),
        ("route: 1e300", "inline.yaml:12:16: error: route needs a cell number from 0 to 9999 (0 is the first cell); found 1e300"),
        ("wait: 1e300", "inline.yaml:12:15: error: wait needs a number of seconds from 0 to 3600; found 1e300"),
        ("hold: {switch: select, seconds: 1e300}", "inline.yaml:12:41: error: hold needs a number of seconds above 0 and at most 3600; found 1e300"),
        ("key: {code: KEY_SPACE, value: 1e300}", "inline.yaml:12:39: error: value must be 0 (release), 1 (press) or 2 (repeat); found 1e300"),
    ])
    func stepOutOfRange(stepText: String, message: String) {
        #expect(LoaderSupport.problems(step(stepText)).map(\.description) == [message])
    }

    @Test("geometry far past any screen is refused before it is scaled")
    func geometry() {
        let yaml = step("wait: 1").replacingOccurrences(of: "frame: [0, 0, 10, 10]", with: "frame: [0, 0, 1e300, 10]")
        #expect(LoaderSupport.problems(yaml).map(\.description) == [
            "inline.yaml:8:31: error: a number of frame [x, y, width, height] must be from -1000000 to 1000000; found 1e300",
        ])
    }

    /// Ten aliases per level: 10^levels elements if expanded.
    static func nestedAliases(levels: Int, width: Int = 10) -> String {
        var lines = ["scene: B", "size: [9, 9]", "start: m", "screens:", "  m:", "    elements:", "      - &l0 {label: x}"]
        for level in 1...levels {
            lines.append("      - &l\(level) {elements: [\(Array(repeating: "*l\(level - 1)", count: width).joined(separator: ","))]}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("a small nested-alias scene and a 156 KB one are refused from their own size, before a node is expanded")
    func aliasBombs() {
        for text in [Self.nestedAliases(levels: 8), Self.nestedAliases(levels: 8, width: 5000)] {
            let budget = text.utf8.count + 10_000
            #expect(LoaderSupport.problems(text).map(\.description) == [
                "inline.yaml:1:1: error: the file has more than \(budget) YAML nodes (aliases count each time they are used; a file's nodes are bounded by its size in bytes plus 10000, at most 20000000); it is refused",
            ])
        }
        #expect(Self.nestedAliases(levels: 8).utf8.count < 700)
        #expect(Self.nestedAliases(levels: 8, width: 5000).utf8.count > 150_000)
    }

    @Test("brailleTables: LANGUAGE=TABLE pairs of liblouis table names only")
    func brailleTablesSetting() {
        #expect(BrailleTableSetting.parse("fr=fr-bfu-comp6.utb en-GB=en-ueb-g1.ctb,braille-patterns.cti") ==
                ["fr": "fr-bfu-comp6.utb", "en-GB": "en-ueb-g1.ctb,braille-patterns.cti"])
        #expect(BrailleTableSetting.parse("none") == [:])
        #expect(BrailleTableSetting.parse("fr=../../etc/passwd") == nil, "no path")
        #expect(BrailleTableSetting.parse("fr=/usr/share/liblouis/tables/x.ctb") == nil, "no path")
        #expect(BrailleTableSetting.parse("fr") == nil)
        #expect(BrailleTableSetting.parse("fr=a.ctb fr=b.ctb") == nil, "one table per language")
        #expect(BrailleTableSetting.text(["fr": "a.ctb", "en": "b.ctb"]) == "en=b.ctb fr=a.ctb")
        #expect(SettingTable.row(named: "brailleTables")?.problem(.string("fr=x y")) != nil)
    }
}
