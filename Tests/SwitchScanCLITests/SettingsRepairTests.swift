import Foundation
import Testing

/// `switchscan settings` on the files a helper meets: values longer than a column, a file with
/// bad lines (set and unset repair it without an editor), a byte order mark.
@Suite struct SettingsRepairTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func settings(_ arguments: [String], file: String) throws -> CLI.Result {
        try CLI.run(["settings"] + arguments + ["--file", file])
    }

    func contents(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    @Test("settings list and get print whole values, however long")
    func wholeValues() throws {
        let file = try folder.write("settings.yaml", "brailleCode: uncontracted\nbrailleTables: en=en-ueb-g2.ctb fr=fr-bfu-comp6.utb\n")
        let list = try settings(["list"], file: file)
        #expect(list.status == 0, "\(list)")
        let code = try #require(list.stdoutLines.first { $0.hasPrefix("brailleCode ") }, "\(list)")
        #expect(code.contains(" uncontracted "), "\(code)")
        let tables = try #require(list.stdoutLines.first { $0.hasPrefix("brailleTables ") }, "\(list)")
        #expect(tables.contains(" en=en-ueb-g2.ctb fr=fr-bfu-comp6.utb  set "), "\(tables)")
        // The columns stay aligned: every line's origin starts where the longest value's does.
        let origin = try #require(tables.range(of: "  set  ")).lowerBound.utf16Offset(in: tables) + 2
        for line in list.stdoutLines.dropFirst() {
            let column = String(line.utf16.dropFirst(origin)) ?? ""
            #expect(column.hasPrefix("set ") || column.hasPrefix("default "), "\(line)\n\(list.stdout)")
        }
        let get = try settings(["get", "brailleTables"], file: file)
        #expect(get.stdout == "en=en-ueb-g2.ctb fr=fr-bfu-comp6.utb\n", "\(get)")
    }

    @Test("settings set on a file with bad lines replaces the setting's bad line, keeps every other byte and warns of the others")
    func setRepairs() throws {
        let original = "# the user's settings\nautoScanningTime: fast\r\nloops: 300   # too many\ntapBehavior: autoTap\n"
        let file = try folder.write("settings.yaml", original)
        let result = try settings(["set", "autoScanningTime", "1.5"], file: file)
        #expect(result.status == 0, "\(result)")
        #expect(try contents(file) == "# the user's settings\nautoScanningTime: 1.5\r\nloops: 300   # too many\ntapBehavior: autoTap\n")
        #expect(result.stderr == "\(file):3:8: warning: setting 'loops' expects a whole number from 1 to 100; found 300 (this line is kept as it is)\n", "\(result)")
        // Then the other bad line, and the file loads.
        let second = try settings(["set", "loops", "3"], file: file)
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second)")
        #expect(try contents(file) == "# the user's settings\nautoScanningTime: 1.5\r\nloops: 3\ntapBehavior: autoTap\n")
        let list = try settings(["list"], file: file)
        #expect(list.status == 0, "\(list)")
    }

    @Test("a line that is not YAML (a missing colon) is replaced by settings set of its name")
    func setRepairsASyntaxError() throws {
        let file = try folder.write("settings.yaml", "loops: 2\nautoScanningTime 2\n")
        #expect(try settings(["list"], file: file).status == 2)
        let result = try settings(["set", "autoScanningTime", "2"], file: file)
        #expect(result.status == 0, "\(result)")
        #expect(try contents(file) == "loops: 2\nautoScanningTime: 2\n")
        // A setting the file does not name is added at the end, the bad line kept.
        let other = try folder.write("other.yaml", "autoScanningTime: 0\n# end\n")
        let added = try settings(["set", "loops", "2"], file: other)
        #expect(added.status == 0, "\(added)")
        #expect(try contents(other) == "autoScanningTime: 0\n# end\nloops: 2\n")
        #expect(added.stderr.hasPrefix("\(other):1:19: warning: "), "\(added)")
    }

    @Test("settings unset removes a bad line of that name, and only it")
    func unsetRepairs() throws {
        let file = try folder.write("settings.yaml", "# keep me\ntapBehavior: sometimes\nloops: 2\n")
        let result = try settings(["unset", "tapBehavior"], file: file)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("tapBehavior removed"), "\(result)")
        #expect(try contents(file) == "# keep me\nloops: 2\n")
        // A name the broken file does not have: nothing written, the problem said.
        let broken = try folder.write("broken.yaml", "loops: 0\n")
        let nothing = try settings(["unset", "tapBehavior"], file: broken)
        #expect(nothing.status == 0, "\(nothing)")
        #expect(nothing.stdout.contains("nothing to do"), "\(nothing)")
        #expect(nothing.stderr.hasPrefix("\(broken):1:8: warning: "), "\(nothing)")
        #expect(try contents(broken) == "loops: 0\n")
    }

    @Test("a value that does not fit the setting is a usage error, and the file is not touched")
    func badValueLeavesTheFile() throws {
        let file = try folder.write("settings.yaml", "loops: 0\n")
        let result = try settings(["set", "autoScanningTime", "fast"], file: file)
        #expect(result.status == 64, "\(result)")
        #expect(try contents(file) == "loops: 0\n")
    }

    @Test("a settings file or scene starting with a byte order mark before a key loads, and is edited keeping the mark")
    func byteOrderMark() throws {
        let mark = "\u{FEFF}"
        let file = try folder.write("settings.yaml", mark + "autoScanningTime: 2\nloops: 3\n")
        let list = try settings(["list"], file: file)
        #expect(list.status == 0, "\(list)")
        #expect(list.stdoutLines.contains { $0.hasPrefix("loops ") && $0.contains(" 3 ") && $0.contains(" set ") }, "\(list)")
        let set = try settings(["set", "loops", "4"], file: file)
        #expect(set.status == 0, "\(set)")
        #expect(try contents(file) == mark + "autoScanningTime: 2\nloops: 4\n")
        let broken = try folder.write("broken.yaml", mark + "autoScanningTime: 0\n")
        #expect(try settings(["set", "autoScanningTime", "2"], file: broken).status == 0)
        #expect(try contents(broken) == mark + "autoScanningTime: 2\n")

        let scene = try folder.write("scene.yaml", mark + """
            scene: Marked
            size: [320, 480]
            start: main
            screens:
              main:
                elements:
                  - {id: ok, label: OK, traits: [button], frame: [0, 0, 100, 44]}
            """ + "\n")
        let validated = try CLI.run(["validate", scene])
        #expect(validated.status == 0, "\(validated)")
        // An error's place is counted without the mark.
        let wrong = try folder.write("wrong.yaml", mark + "scene: Wrong\nsize: [320, 480]\nstart: main\nscreens: 3\n")
        let report = try CLI.run(["validate", wrong])
        #expect(report.stdout.contains("\(wrong):4:10: error: "), "\(report)")
    }
}
