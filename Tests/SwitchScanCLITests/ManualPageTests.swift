import Foundation
import Scenes
import Testing

/// Issue 24: the manual pages scripts/package installs (written by `switchscan manual-pages`
/// from the built program), rendered as a reader sees them at 80 columns: no warning from man,
/// no identifier or path broken by a hyphenation, no empty section, every section a page of a
/// command needs, the exit statuses of README.md, and switchscan-settings(5) with every setting
/// as `switchscan settings list` gives it.
@Suite("Manual pages", .serialized)
struct ManualPageTests {
    static let written: Result<URL, CLIError> = {
        do {
            // Kept for the suite's life: a folder under the build folder, made again each run.
            let folder = CLI.packageRoot.appendingPathComponent(".build/manual-page-tests")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let dump = try CLI.run(["--experimental-dump-help"])
            guard dump.status == 0 else { return .failure(CLIError("--experimental-dump-help: \(dump)")) }
            let info = folder.appendingPathComponent("tool-info.json")
            try Data(dump.stdout.utf8).write(to: info)
            let pages = folder.appendingPathComponent("man")
            let written = try CLI.run(["manual-pages", "--tool-info", info.path, "--scene-format", "docs/scene-format-additions.md",
                                       "--output-directory", pages.path, "--date", "2026-11-28"])
            guard written.status == 0 else { return .failure(CLIError("manual-pages: \(written)")) }
            return .success(pages)
        } catch {
            return .failure(CLIError("\(error)"))
        }
    }()

    static func pages() throws -> [URL] {
        let folder = try written.get()
        var pages = [URL]()
        for section in ["man1", "man5"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(section).path).sorted()
            pages += names.map { folder.appendingPathComponent(section).appendingPathComponent($0) }
        }
        return pages
    }

    /// The page as `MANWIDTH=80 man --warnings -l` shows it in a UTF-8 locale (overstrike
    /// removed), and what man said there and in the C locale (ASCII output, where a character
    /// groff cannot show is a warning and is dropped).
    static func render(_ page: URL) throws -> (text: String, warnings: String) {
        var text = ""
        var warnings = ""
        for locale in ["C", "C.UTF-8"] {
            let result = try CLI.runProgram("/usr/bin/man", ["--warnings", "-l", page.path], environment: [
                "MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LANG": locale, "MAN_KEEP_FORMATTING": "0",
            ])
            #expect(result.status == 0, "\(page.lastPathComponent): \(result)")
            warnings += result.stderr.isEmpty ? "" : "LANG=\(locale): \(result.stderr)"
            text = ""
            for character in result.stdout {
                if character == "\u{8}" { _ = text.popLast() } else { text.append(character) }
            }
        }
        return (text, warnings)
    }

    /// Section name → its text, in order of the rendered page (headings start in column 0).
    static func sections(_ text: String) -> [(name: String, body: String)] {
        var sections = [(name: String, body: String)]()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in lines.dropFirst().dropLast(2) {
            if let first = line.first, first != " ", !line.isEmpty {
                sections.append((line, ""))
            } else if !sections.isEmpty {
                sections[sections.count - 1].body += line + "\n"
            }
        }
        return sections
    }

    /// The text with its lines joined, so that wrapped sentences read whole.
    static func flat(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func everyPageRendersWithoutWarningsHyphenationsOrEmptySections() throws {
        let pages = try Self.pages()
        #expect(pages.count >= 17, "\(pages.map(\.lastPathComponent))")
        for page in pages {
            let (text, warnings) = try Self.render(page)
            #expect(warnings.isEmpty, "\(page.lastPathComponent): man --warnings: \(warnings)")
            for (number, line) in text.split(separator: "\n").enumerated() {
                // A word cut at the end of a line: `au‐` / `toScanningTime`, `/usr/bin/switch‐` / `scan`.
                #expect(line.range(of: #"[A-Za-z0-9_.$/][-\x{2010}]$"#, options: .regularExpression) == nil,
                        "\(page.lastPathComponent):\(number + 1): a word is hyphenated: '\(line)'")
            }
            for section in Self.sections(text) {
                #expect(!section.body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                        "\(page.lastPathComponent): section \(section.name) is empty")
            }
            // whatis reads the NAME line; its description is plain text, not a quoted string.
            let whatis = try CLI.runProgram("/usr/bin/lexgrog", [page.path])
            #expect(whatis.status == 0 && !whatis.stdout.contains("parse failed"), "\(page.lastPathComponent): \(whatis)")
            #expect(!whatis.stdout.contains(" - \""), "\(page.lastPathComponent): \(whatis.stdout)")
        }
    }

    @Test func commandPagesHaveEverySectionAndTheExitStatusTable() throws {
        let pages = try Self.pages().filter { $0.pathExtension == "1" }
        for page in pages {
            let (text, _) = try Self.render(page)
            let names = Self.sections(text).map(\.name)
            for needed in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXAMPLES", "FILES", "ENVIRONMENT", "EXIT STATUS", "SEE ALSO"] {
                #expect(names.contains(needed), "\(page.lastPathComponent) has no \(needed): \(names)")
            }
            let status = Self.flat(Self.sections(text).first { $0.name == "EXIT STATUS" }?.body ?? "")
            // README.md's table, not the generic "exits 0 on success, and >0 if an error occurs".
            for row in ["0 Done; nothing failed.", "1 The command's own finding", "2 An input named on the command line could not be read",
                        "64 Usage:", "128+N Ended by signal N"] {
                #expect(status.contains(row), "\(page.lastPathComponent): EXIT STATUS lacks '\(row)': \(status)")
            }
            #expect(!text.contains(">0 if an error occurs"), "\(page.lastPathComponent)")
            // Every command that can end by a signal is named: those that take it, and the rest.
            for named in ["switchscan run", "switchscan learn", "switchscan snapshot", "Every other command is ended by the signal itself"] {
                #expect(status.contains(named), "\(page.lastPathComponent): EXIT STATUS does not name '\(named)': \(status)")
            }
        }
        // The page of `switchscan run` shows the command as typed, its options, and examples to copy.
        let run = try Self.render(try #require(pages.first { $0.lastPathComponent == "switchscan-run.1" })).text
        #expect(Self.flat(run).contains("switchscan run [scene] [--atspi]"), "\(run.prefix(900))")
        #expect(Self.flat(run).contains("switchscan run scene.yaml --set autoScanningTime=0.8"), "\(run)")
        let help = try Self.render(try #require(pages.first { $0.lastPathComponent == "switchscan-help.1" })).text
        #expect(Self.flat(help).contains("switchscan help settings set"), "\(help)")
    }

    /// switchscan-settings(5) has every row of the settings table with what it accepts and its
    /// default, as `switchscan settings list` says them.
    @Test func theSettingsPageHasEverySettingWithItsRangeAndDefault() throws {
        let page = try #require(try Self.pages().first { $0.lastPathComponent == "switchscan-settings.5" })
        let text = Self.flat(try Self.render(page).text)
        let folder = try TemporaryFolder()
        let list = try CLI.run(["settings", "list", "--file", folder.url.appendingPathComponent("none.yaml").path])
        #expect(list.status == 0, "\(list)")
        let rows = list.stdoutLines.filter { !$0.hasPrefix("#") }
        #expect(rows.map { String($0.prefix { $0 != " " }) } == SettingTable.names, "\(list)")
        for row in rows {
            // `name  value  default  accepts…`: the value column is cut at 8 characters, so the
            // default is asked for on its own (`settings get`).
            let fields = row.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true).map(String.init)
            try #require(fields.count == 4, "\(row)")
            let accepts = fields[3].trimmingCharacters(in: .whitespaces)
            let value = try CLI.run(["settings", "get", fields[0], "--file", folder.url.appendingPathComponent("none.yaml").path])
            #expect(value.status == 0, "\(value)")
            let defaultValue = value.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(text.contains("\(fields[0]) "), "no \(fields[0]) in switchscan-settings(5)")
            #expect(text.contains("Accepts \(accepts). Default: \(defaultValue)."), "\(fields[0]): '\(accepts)', default \(defaultValue) not in the page")
        }
        for setting in SettingTable.rows {
            #expect(text.contains("\(setting.name) \(Self.flat(setting.summary))"), "\(setting.name)'s summary is not in switchscan-settings(5)")
        }
    }

    /// switchscan-scene(5) loses no section of docs/scene-format-additions.md and lists the keys.
    @Test func theScenePageHasTheFormatsSections() throws {
        let page = try #require(try Self.pages().first { $0.lastPathComponent == "switchscan-scene.5" })
        let (text, _) = try Self.render(page)
        let names = Self.sections(text).map(\.name)
        let markdown = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/scene-format-additions.md"), encoding: .utf8)
        for heading in markdown.split(separator: "\n").filter({ $0.hasPrefix("## ") }) {
            let name = heading.dropFirst(3).replacingOccurrences(of: "`", with: "").uppercased()
            #expect(names.contains(name), "'\(heading)' is not a section of switchscan-scene(5): \(names)")
        }
        let keys = Self.flat(Self.sections(text).first { $0.name == "KEYS" }?.body ?? "")
        for key in ["accessibilityViewIsModal", "customActions", "magicTap", "expect", "summaryElement"] {
            #expect(keys.contains(key), "KEYS lacks \(key): \(keys)")
        }
    }
}
