import ArgumentParser
import Foundation
import Runtime
import Scanning
import Scenes
import Platform

/// `switchscan manual-pages` (hidden; run by scripts/package): the manual pages, written by
/// the program from its own definitions: one page per command from the argument parser's
/// description of the commands (`switchscan --experimental-dump-help`), with the examples,
/// files, environment and exit statuses of `ManualExtras`; `switchscan-settings(5)` from the
/// settings table (names, ranges, defaults, summaries); `switchscan-scene(5)` from the scene
/// reader's keys and docs/scene-format-additions.md.
struct ManualPagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manual-pages",
        abstract: "Write the manual pages (for packaging).",
        shouldDisplay: false)

    @Option(help: ArgumentHelp("The commands' description: the output of switchscan --experimental-dump-help.", valueName: "file"))
    var toolInfo: String

    @Option(help: ArgumentHelp("docs/scene-format-additions.md, for switchscan-scene(5).", valueName: "file"))
    var sceneFormat: String

    @Option(help: ArgumentHelp("The folder to write man1/ and man5/ in.", valueName: "folder"))
    var outputDirectory: String

    @Option(help: ArgumentHelp("The pages' date (YYYY-MM-DD).", valueName: "date"))
    var date: String

    func validate() throws {
        guard date.count == 10, date.allSatisfy({ $0.isNumber || $0 == "-" }) else {
            throw ValidationError("--date takes YYYY-MM-DD; found '\(date)'")
        }
    }

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(toolInfo, maxBytes: 4 << 20)
        } catch {
            printError(error.problem(file: toolInfo).description)
            throw ExitCode.unloadable
        }
        guard let info = try? JSONDecoder().decode(DumpedTool.self, from: Data(bytes)) else {
            printError("\(toolInfo):1:1: error: not the output of switchscan --experimental-dump-help")
            throw ExitCode.unloadable
        }
        let markdown: String
        switch RegularFile.readText(sceneFormat, maxBytes: 1 << 20) {
        case .success(let text): markdown = text
        case .failure(let error):
            printError(error.problem(file: sceneFormat).description)
            throw ExitCode.unloadable
        }
        let version = SwitchScan.release
        var pages = [(file: String, text: String)]()
        for command in info.command.flattened() where command.shouldDisplay {
            pages.append(("man1/\(command.pageName).1", ManualPage.ascii(ManualPage.command(command, date: date, version: version))))
        }
        pages.append(("man5/switchscan-settings.5", ManualPage.ascii(try ManualPage.settings(date: date, version: version))))
        pages.append(("man5/switchscan-scene.5", ManualPage.ascii(ManualPage.scene(markdown: markdown, date: date, version: version))))
        for page in pages {
            let path = (outputDirectory as NSString).appendingPathComponent(page.file)
            do {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                _ = try SafeFileWriter.write(page.text, to: path, replace: true)
            } catch {
                throw CommandFailure("\(path): \(error)")
            }
            print(path)
        }
    }
}

/// The parts of `--experimental-dump-help`'s JSON the pages use.
struct DumpedTool: Decodable {
    var command: DumpedCommand
}

struct DumpedCommand: Decodable {
    var superCommands: [String]?
    var commandName: String
    var abstract: String?
    var discussion: String?
    var shouldDisplay: Bool = true
    var subcommands: [DumpedCommand]?
    var arguments: [DumpedArgument]?

    enum CodingKeys: String, CodingKey { case superCommands, commandName, abstract, discussion, shouldDisplay, subcommands, arguments }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        superCommands = try container.decodeIfPresent([String].self, forKey: .superCommands)
        commandName = try container.decode(String.self, forKey: .commandName)
        abstract = try container.decodeIfPresent(String.self, forKey: .abstract)
        discussion = try container.decodeIfPresent(String.self, forKey: .discussion)
        shouldDisplay = try container.decodeIfPresent(Bool.self, forKey: .shouldDisplay) ?? true
        subcommands = try container.decodeIfPresent([DumpedCommand].self, forKey: .subcommands)
        arguments = try container.decodeIfPresent([DumpedArgument].self, forKey: .arguments)
    }

    /// `["switchscan", "settings", "set"]`.
    var path: [String] { (superCommands ?? []) + [commandName] }
    /// `switchscan settings set`: as typed.
    var typed: String { path.joined(separator: " ") }
    /// `switchscan-settings-set`: the page's name (as `git-commit`), which whatis can parse.
    var pageName: String { path.joined(separator: "-") }

    /// This command and every command under it, depth first.
    func flattened() -> [DumpedCommand] {
        [self] + (subcommands ?? []).flatMap { $0.flattened() }
    }
}

struct DumpedArgument: Decodable {
    struct Name: Decodable {
        var kind: String
        var name: String
        var typed: String { kind == "short" ? "-" + name : kind == "longWithSingleDash" ? "-" + name : "--" + name }
    }
    var kind: String
    var shouldDisplay: Bool
    var isOptional: Bool
    var isRepeating: Bool
    var names: [Name]?
    var preferredName: Name?
    var valueName: String?
    var defaultValue: String?
    var abstract: String?
    var discussion: String?
}

/// What the argument parser does not describe: each command's examples, the files and
/// environment variables it reads, and its own exit statuses (the table is the same for all).
enum ManualExtras {
    struct Entry {
        var term: String
        var text: String
    }

    static let settingsFile = Entry(term: "$XDG_CONFIG_HOME/switchscan/settings.yaml",
                                    text: "The scanning settings (switchscan-settings(5)); ~/.config/switchscan/settings.yaml when XDG_CONFIG_HOME is not set.")
    static let userSwitches = Entry(term: "$XDG_CONFIG_HOME/switchscan/switches/",
                                    text: "Your switch profiles (written by switchscan learn); a file replaces the shipped file of the same name.")
    static let shippedSwitches = Entry(term: "/usr/share/switchscan/switches/",
                                       text: "The shipped switch profiles (share/switchscan/switches beside the program; else each $XDG_DATA_DIRS/switchscan/switches). Their format: /usr/share/doc/switchscan/switch-profiles.md.gz.")
    static let userBraille = Entry(term: "$XDG_CONFIG_HOME/switchscan/braille/",
                                   text: "Your braille display profiles; a file replaces the shipped file of the same name.")
    static let shippedBraille = Entry(term: "/usr/share/switchscan/braille/",
                                      text: "The shipped braille display profiles. Their format: /usr/share/doc/switchscan/braille-display-profiles.md.gz.")
    static let examples = Entry(term: "/usr/share/switchscan/examples/",
                                text: "Example scenes, with scripted tests (also in /usr/share/doc/switchscan/examples/ where documentation is installed).")
    static let selections = Entry(term: "$XDG_STATE_HOME/switchscan/selections.tsv",
                                  text: "What the user selected, per scene and screen (learnSelections); ~/.local/state/switchscan/selections.tsv when XDG_STATE_HOME is not set.")
    static let eventNodes = Entry(term: "/dev/input/event*", text: "The input devices (evdev) switches are read from.")
    static let udevRule = Entry(term: "/lib/udev/rules.d/70-switchscan.rules",
                                text: "Gives the user of the active local session access to known switch interfaces, without the input group.")
    static let userUnit = Entry(term: "/usr/lib/systemd/user/switchscan.service",
                                text: "The systemd user unit that runs switchscan run at login (not enabled by the package).")
    static let documentation = Entry(term: "/usr/share/doc/switchscan/",
                                     text: "The README and the documents it cites (docs/), compressed.")

    static let configHome = Entry(term: "XDG_CONFIG_HOME", text: "The configuration folder's parent (default ~/.config).")
    static let dataDirs = Entry(term: "XDG_DATA_DIRS", text: "Searched for switchscan/switches and switchscan/braille when the program has no share/switchscan beside it.")
    static let stateHome = Entry(term: "XDG_STATE_HOME", text: "Where selections.tsv is kept (default ~/.local/state).")
    static let brlapiHost = Entry(term: "BRLAPI_HOST", text: "BrlAPI's host, for --braille auto (default :0).")
    static let brlapiAuth = Entry(term: "BRLAPI_AUTH", text: "BrlAPI's authentication, when --braille-auth is not given.")
    static let speechdAddress = Entry(term: "SPEECHD_ADDRESS", text: "speech-dispatcher's address, for --speech auto (default: the user's socket, $XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock).")
    static let display = Entry(term: "DISPLAY", text: "The X11 display the highlight is drawn on with --atspi (nothing is drawn without it, or on Wayland).")
    static let dbus = Entry(term: "DBUS_SESSION_BUS_ADDRESS", text: "The session bus through which the accessibility (AT-SPI) bus is found, with --atspi.")

    struct Page {
        var examples: [(comment: String, command: String)]
        var files: [Entry] = []
        var environment: [Entry] = []
        /// What this command's statuses 1 and 2 mean, before the table.
        var exitStatus: String
    }

    static let scene = "/usr/share/switchscan/examples/switch-control-groups.yaml"

    static func page(_ typed: String) -> Page {
        switch typed {
        case "switchscan":
            return Page(examples: [
                ("Operate an example scene with the terminal keyboard as switches:", "switchscan run \(scene)"),
                ("Run a scene's scripted tests:", "switchscan test \(scene)"),
                ("Set the user's scanning speed, for every run:", "switchscan settings set autoScanningTime 1.5"),
            ], files: [settingsFile, userSwitches, shippedSwitches, examples, documentation],
               environment: [configHome, dataDirs, stateHome],
               exitStatus: "Each command's page says what its statuses mean.")
        case "switchscan help":
            return Page(examples: [
                ("The help of switchscan run, as switchscan run --help prints it:", "switchscan help run"),
                ("The help of a subcommand's subcommand:", "switchscan help settings set"),
            ], files: [documentation], environment: [],
               exitStatus: "0 when the help was printed; 64 for a command that does not exist.")
        case "switchscan inspect":
            return Page(examples: [
                ("The start screen's items in scan order:", "switchscan inspect \(scene)"),
                ("Another screen, with a state value changed, as JSON:", "switchscan inspect scene.yaml --screen settings --state wifi=false --json"),
            ], files: [examples], environment: [],
               exitStatus: "2 when the scene cannot be read or has errors; 64 for a screen or state the scene does not have.")
        case "switchscan validate":
            return Page(examples: [
                ("Check one scene:", "switchscan validate scene.yaml"),
                ("Check every scene in a folder:", "switchscan validate /usr/share/switchscan/examples"),
            ], files: [examples], environment: [],
               exitStatus: "1 when any file has a problem (reporting them is its job); 2 when a file named cannot be read.")
        case "switchscan audit":
            return Page(examples: [
                ("Report guideline findings in a scene:", "switchscan audit scene.yaml"),
            ], files: [examples], environment: [],
               exitStatus: "1 when there are findings; 2 when a scene cannot be read or has errors.")
        case "switchscan test":
            return Page(examples: [
                ("Run an example scene's scripted tests:", "switchscan test \(scene)"),
                ("Only the tests whose name contains menu, with a JUnit report:", "switchscan test scene.yaml --filter menu --junit results.xml"),
                ("Under a user's settings and switch profile:", "switchscan test scene.yaml --settings ~/.config/switchscan/settings.yaml --profile origin-tapio"),
            ], files: [examples, shippedSwitches, userSwitches], environment: [configHome, dataDirs],
               exitStatus: "1 when a test fails; 2 when a file cannot be loaded, --profile or --settings cannot be read, or --filter matches no test.")
        case "switchscan cost":
            return Page(examples: [
                ("Steps and seconds to every item of the start screen:", "switchscan cost \(scene)"),
                ("Manual scanning at one press a second, as JSON:", "switchscan cost scene.yaml --set scanning=manual --press-interval 1 --json"),
                ("As the next run will group it, with what was learnt:", "switchscan cost scene.yaml --learned"),
            ], files: [selections], environment: [stateHome],
               exitStatus: "2 when the scene cannot be read or has errors; 64 for a screen, state or setting value it does not accept.")
        case "switchscan import":
            return Page(examples: [
                ("An XCUITest page source and a uiautomator dump, as one scene of two screens:", "switchscan import home.xml settings.xml -o phone.yaml"),
                ("With each screen's scan cost and audit findings:", "switchscan import screen.xml --report"),
            ], files: [], environment: [],
               exitStatus: "1 when the scene cannot be written; 2 when a dump cannot be read or converted.")
        case "switchscan run":
            return Page(examples: [
                ("Operate an example scene; the terminal keyboard and every switch a profile fits are the switches:", "switchscan run \(scene)"),
                ("Faster steps, taps without the menu:", "switchscan run scene.yaml --set autoScanningTime=0.8 --set tapBehavior=autoTap"),
                ("One switch interface only, with a given profile:", "switchscan run scene.yaml --input evdev:/dev/input/event5 --profile origin-tapio"),
                ("Unattended, with a trace (as the user unit runs it):", "switchscan run ~/.config/switchscan/scene.yaml --input evdev:auto --braille auto --no-view --trace trace.jsonl"),
                ("A running application, through AT-SPI:", "switchscan run --atspi --app gedit"),
            ], files: [settingsFile, userSwitches, shippedSwitches, userBraille, shippedBraille, selections, eventNodes, udevRule, userUnit],
               environment: [configHome, dataDirs, stateHome, brlapiHost, brlapiAuth, speechdAddress, display, dbus],
               exitStatus: "0 after q, the end of piped input or --duration; 1 when, without the terminal, every switch input failed; 2 when the scene or a --settings file cannot be read or has errors; 128+N after signal N (130 for Ctrl-C, 143 for SIGTERM), after restoring the terminal, the devices and the display.")
        case "switchscan snapshot":
            return Page(examples: [
                ("The focused application's active window, as a scene:", "switchscan snapshot -o window.yaml"),
                ("A given application's window, waiting for it:", "switchscan snapshot --app gedit --wait 20 -o gedit.yaml"),
            ], files: [], environment: [dbus],
               exitStatus: "1 when no window was found or the file cannot be written.")
        case "switchscan settings", "switchscan settings list", "switchscan settings get", "switchscan settings set",
             "switchscan settings unset", "switchscan settings path":
            return Page(examples: [
                ("Every setting, its value, set or default, and what it accepts:", "switchscan settings list"),
                ("One setting:", "switchscan settings get autoScanningTime"),
                ("Change it (checked, then written atomically; a run in progress applies it at once):", "switchscan settings set autoScanningTime 1.5"),
                ("Back to the default:", "switchscan settings unset pauseOnFirstItem"),
                ("Another file:", "switchscan settings set loops 2 --file other.yaml"),
            ], files: [settingsFile], environment: [configHome],
               exitStatus: "1 when the file cannot be written; 2 when it cannot be read or has errors (printed at their line and column); 64 for an unknown setting or a value it does not accept.")
        case "switchscan devices":
            return Page(examples: [
                ("The input devices and the profile that fits each:", "switchscan devices"),
                ("As JSON, with another profile folder searched first:", "switchscan devices --json --profiles ./profiles"),
            ], files: [eventNodes, userSwitches, shippedSwitches, udevRule], environment: [configHome, dataDirs],
               exitStatus: "2 when the folder of device nodes cannot be read.")
        case "switchscan learn":
            return Page(examples: [
                ("Press each of two switches in turn (select, then next):", "switchscan learn --device /dev/input/event5 --switches 2"),
                ("Three switches with chosen actions, from a recording:", "switchscan learn --from-evemu presses.evemu --actions select,next,menu --name \"My switches\""),
            ], files: [eventNodes, userSwitches], environment: [configHome],
               exitStatus: "1 when no switch was pressed or the profile cannot be written (an existing one is never replaced without --force); 2 when the device or recording cannot be read.")
        default:
            return Page(examples: [("Its help:", typed + " --help")], exitStatus: "See switchscan(1).")
        }
    }

    /// The exit statuses every command uses (README.md, "Exit status").
    static let exitTable: [(String, String)] = [
        ("0", "Done; nothing failed."),
        ("1", "The command's own finding (a scripted test failed, guideline findings, problems found by validate), or the work could not be done (a file could not be written, no switch was pressed, every switch input failed, no window found)."),
        ("2", "An input named on the command line could not be read or loaded: a scene, tests file, settings file, profile or dump (its problems on standard error as file:line:column: error: ...), or test --filter matched no test."),
        ("64", "Usage: an unknown option or subcommand, a missing or malformed argument (a screen or state the scene does not have, a number out of range)."),
        ("128+N", "Ended by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP). switchscan run (once its scene or window is loaded), switchscan learn while it waits for presses on a device, and switchscan snapshot while it waits for a window take SIGINT, SIGTERM and SIGHUP and exit with 128+N after restoring the terminal, the devices and the display; learn and snapshot then write nothing, and snapshot, once it has found the window, writes it to the end. Every other command is ended by the signal itself, which the shell reports as the same 128+N; a file it was replacing is then the old one or the new one, whole."),
    ]
}

/// man(7) pages: hyphenation off (`.nh`) and lines not justified (`.ad l`), every `-` written
/// `\-` so that options, identifiers and paths are never broken or changed and copy as typed.
enum ManualPage {
    /// Text as roff: backslashes and hyphens escaped, a leading `.` or `'` made literal.
    static func escape(_ text: String) -> String {
        var out = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// Punctuation beyond ASCII as groff's own glyphs, which every output device can show (`--`
    /// for an em dash, `->` for an arrow where there is no UTF-8).
    static let glyphs: [Character: String] = [
        "\u{2026}": "...", "\u{2014}": "\\(em", "\u{2013}": "\\(en", "\u{2192}": "\\(->", "\u{2190}": "\\(<-",
        "\u{00D7}": "\\(mu", "\u{00B7}": "\\(pc", "\u{2018}": "\\(oq", "\u{2019}": "\\(cq", "\u{201C}": "\\(lq",
        "\u{201D}": "\\(rq", "\u{2265}": "\\(>=", "\u{2264}": "\\(<=", "\u{2260}": "\\(!=", "\u{00A0}": "\\~",
    ]

    /// The page in ASCII: punctuation as groff glyphs, any other character as `\[uXXXX]` with a
    /// fallback (`<U+XXXX>`) declared for devices that lack it (man in the C locale), so that man
    /// warns about nothing and no character is dropped.
    static func ascii(_ page: String) -> String {
        var out = ""
        var fallbacks = [String]()
        for character in page {
            if character.isASCII { out.append(character); continue }
            if let glyph = glyphs[character] { out += glyph; continue }
            for scalar in character.unicodeScalars {
                let code = String(scalar.value, radix: 16, uppercase: true)
                let name = "u" + String(repeating: "0", count: max(0, 4 - code.count)) + code
                out += "\\[\(name)]"
                let declaration = ".if !c\\[\(name)] .char \\[\(name)] <U+\(name.dropFirst())>"
                if !fallbacks.contains(declaration) { fallbacks.append(declaration) }
            }
        }
        guard !fallbacks.isEmpty, let header = out.range(of: "\n.TH ") else { return out }
        let endOfLine = out[header.upperBound...].firstIndex(of: "\n") ?? out.endIndex
        out.insert(contentsOf: "\n" + fallbacks.joined(separator: "\n"), at: endOfLine)
        return out
    }

    /// Lines of already-escaped text, each made safe at its start.
    static func lines(_ escaped: String) -> String {
        escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    static func header(_ name: String, section: Int, date: String, version: String, title: String) -> String {
        """
        .\\" Written by switchscan manual-pages from the program's own definitions; do not edit.
        .TH \(escape(name.uppercased())) \(section) "\(date)" "switchscan \(version)" "\(title)"
        .nh
        .ad l

        """
    }

    /// Help text paragraphs: blank lines separate paragraphs; a line starting with spaces is
    /// kept on its own line.
    static func paragraphs(_ text: String) -> String {
        text.components(separatedBy: "\n\n").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }.map { paragraph in
            ".PP\n" + paragraph.split(separator: "\n").map { line in
                line.hasPrefix(" ") ? ".br\n" + lines(escape(line.trimmingCharacters(in: .whitespaces))) : lines(escape(String(line)))
            }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static func synopsis(_ command: DumpedCommand) -> String {
        var words = ["\\fB\(escape(command.typed))\\fR"]
        for argument in command.arguments ?? [] where argument.shouldDisplay {
            let name = argument.preferredName.map { "\\fB\(escape($0.typed))\\fR" }
            let value = "\\fI\(escape(argument.valueName ?? "value"))\\fR"
            var word: String
            switch argument.kind {
            case "positional": word = value
            case "flag": word = name ?? value
            default: word = [name, value].compactMap { $0 }.joined(separator: " ")
            }
            if argument.isRepeating { word += " ..." }
            if argument.isOptional { word = "[" + word + "]" }
            words.append(word)
        }
        if !(command.subcommands ?? []).filter(\.shouldDisplay).isEmpty { words.append("\\fIsubcommand\\fR") }
        return words.joined(separator: " ")
    }

    static func command(_ command: DumpedCommand, date: String, version: String) -> String {
        let extras = ManualExtras.page(command.typed)
        var page = header(command.pageName, section: 1, date: date, version: version, title: "SwitchScan Manual")
        page += ".SH NAME\n\(escape(command.pageName)) \\- \(escape(summary(command)))\n"
        page += ".SH SYNOPSIS\n\(synopsis(command))\n"
        page += ".SH DESCRIPTION\n" + paragraphs([command.abstract, command.discussion].compactMap { $0 }.joined(separator: "\n\n")) + "\n"
        if command.commandName == "help" && (command.superCommands ?? []).count == 1 {
            page += paragraphs("switchscan help COMMAND prints what switchscan COMMAND --help prints: the command's usage, its arguments and options. The same is in the command's manual page (man switchscan-COMMAND).") + "\n"
        }
        let subcommands = (command.subcommands ?? []).filter(\.shouldDisplay)
        if !subcommands.isEmpty {
            page += ".SH COMMANDS\n"
            for subcommand in subcommands {
                page += ".TP\n\\fB\(escape(subcommand.typed))\\fR\n\(escape(subcommand.abstract ?? "")) See \\fB\(escape(subcommand.pageName))\\fR(1).\n"
            }
        }
        let arguments = (command.arguments ?? []).filter(\.shouldDisplay)
        page += ".SH OPTIONS\n"
        if arguments.isEmpty { page += "None.\n" }
        for argument in arguments {
            var term: String
            let value = "\\fI\(escape(argument.valueName ?? "value"))\\fR"
            switch argument.kind {
            case "positional": term = value
            case "flag": term = (argument.names ?? []).map { "\\fB\(escape($0.typed))\\fR" }.joined(separator: ", ")
            default: term = (argument.names ?? []).map { "\\fB\(escape($0.typed))\\fR " + value }.joined(separator: ", ")
            }
            var text = [argument.abstract, argument.discussion].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            if text.isEmpty, command.commandName == "help" { text = "The command, and its subcommand, whose help is printed." }
            if let value = argument.defaultValue, !value.isEmpty, argument.kind != "flag", !text.contains("efault") {
                text += " Default: \(value)."
            }
            page += ".TP\n\(term)\n\(lines(escape(text)))\n"
        }
        page += ".SH EXAMPLES\n"
        for example in extras.examples {
            page += ".PP\n\(lines(escape(example.comment)))\n.PP\n.RS 4\n.nf\n\(lines(escape(example.command)))\n.fi\n.RE\n"
        }
        page += ".SH FILES\n"
        page += extras.files.isEmpty ? "\(escape(command.typed)) reads only the files named on its command line.\n" : entries(extras.files)
        page += ".SH ENVIRONMENT\n"
        page += extras.environment.isEmpty ? "\(escape(command.typed)) reads no environment variables of its own.\n" : entries(extras.environment)
        page += ".SH \"EXIT STATUS\"\n\(lines(escape(extras.exitStatus)))\n"
        for (status, meaning) in ManualExtras.exitTable {
            page += ".TP\n\\fB\(status)\\fR\n\(lines(escape(meaning)))\n"
        }
        page += ".SH \"SEE ALSO\"\n" + seeAlso(command) + "\n"
        return page
    }

    /// The NAME line's description: the abstract without its final full stop.
    static func summary(_ command: DumpedCommand) -> String {
        var text = command.abstract ?? ""
        if command.commandName == "help", (command.superCommands ?? []).count == 1 { text = "Show the help of a switchscan command" }
        if text.hasSuffix(".") { text.removeLast() }
        return text.isEmpty ? command.typed : text
    }

    static func entries(_ list: [ManualExtras.Entry]) -> String {
        list.map { ".TP\n\\fB\(escape($0.term))\\fR\n\(lines(escape($0.text)))\n" }.joined()
    }

    static func seeAlso(_ command: DumpedCommand) -> String {
        var pages = [String]()
        if command.path.count > 1 { pages.append(command.path.dropLast().joined(separator: "-") + "(1)") }
        if command.path.count == 1 {
            pages += ["switchscan-run(1)", "switchscan-test(1)", "switchscan-settings(1)", "switchscan-devices(1)"]
        }
        pages += (command.subcommands ?? []).filter(\.shouldDisplay).map { $0.pageName + "(1)" }
        pages += ["switchscan-settings(5)", "switchscan-scene(5)", "brltty(1)"]
        var seen = Set<String>()
        return pages.filter { seen.insert($0).inserted && $0 != command.pageName + "(1)" }.map { page in
            let open = page.firstIndex(of: "(")!
            return ".BR \(escape(String(page[..<open]))) \(page[open...])"
        }.joined(separator: " ,\n")
    }

    /// `switchscan-settings(5)`: every setting of the one settings table, with what it does,
    /// what it accepts (its range) and its default.
    static func settings(date: String, version: String) throws -> String {
        var page = header("switchscan-settings", section: 5, date: date, version: version, title: "SwitchScan File Formats")
        page += ".SH NAME\nswitchscan\\-settings \\- the scanning settings of SwitchScan\n"
        page += ".SH SYNOPSIS\n\\fB$XDG_CONFIG_HOME/switchscan/settings.yaml\\fR\n"
        page += paragraphs("""
            A settings file is a YAML mapping of setting names to values. switchscan run reads \
            the configuration folder's settings.yaml when it starts and again whenever it changes \
            (a change applies at once to a run in progress; a change with an error is reported \
            with its line and column and the settings in effect stay). switchscan settings set \
            checks a value and writes the file atomically; switchscan run --set NAME=VALUE and \
            switchscan cost --set take the same names and values, and a scripted test's \
            settings: too.

            Precedence: the defaults, then the settings file, then --set. Every number is checked \
            against the range below; a time that can be off takes off (or 0) to turn it off.
            """).replacingOccurrences(of: ".PP\n", with: ".SH DESCRIPTION\n", options: .anchored) + "\n"
        page += ".SH SETTINGS\n"
        for setting in SettingTable.rows {
            let value = SettingsDocument.yamlText(setting.defaultValue, shape: setting.shape)
            page += ".TP\n\\fB\(escape(setting.name))\\fR\n\(lines(escape(setting.summary)))\n.br\nAccepts \(lines(escape(setting.expectation))).\n.br\nDefault: \\fB\(escape(value))\\fR.\n"
        }
        page += ".SH EXAMPLES\n.PP\n.RS 4\n.nf\n" + lines(escape("""
            # ~/.config/switchscan/settings.yaml
            scanning: auto              # auto, manual, singleSwitchStep
            autoScanningTime: 1.5       # seconds per step
            pauseOnFirstItem: off       # seconds, or off
            tapBehavior: autoTap        # default, autoTap, alwaysTap
            debounceTime: 0.04
            """)) + "\n.fi\n.RE\n"
        page += ".PP\nThe same from the command line:\n.PP\n.RS 4\n.nf\n" + lines(escape("""
            switchscan settings set autoScanningTime 1.5
            switchscan settings set pauseOnFirstItem off
            switchscan run scene.yaml --set tapBehavior=autoTap
            """)) + "\n.fi\n.RE\n"
        page += ".SH FILES\n" + entries([ManualExtras.settingsFile, ManualExtras.selections])
        page += ".SH ENVIRONMENT\n" + entries([ManualExtras.configHome, ManualExtras.stateHome])
        page += ".SH \"SEE ALSO\"\n.BR switchscan\\-settings (1) ,\n.BR switchscan\\-run (1) ,\n.BR switchscan\\-test (1) ,\n.BR switchscan\\-scene (5)\n"
        return page
    }

    /// `switchscan-scene(5)`: the keys the reader accepts at each level, then the format's
    /// additions (docs/scene-format-additions.md, from its first section on).
    static func scene(markdown: String, date: String, version: String) -> String {
        var page = header("switchscan-scene", section: 5, date: date, version: version, title: "SwitchScan File Formats")
        page += ".SH NAME\nswitchscan\\-scene \\- scene files: interfaces as accessibility trees, with behaviour and scripted tests\n"
        page += ".SH SYNOPSIS\n\\fINAME\\fB.yaml\\fR, \\fINAME\\fB.json\\fR, \\fINAME\\fB.tests.yaml\\fR\n"
        page += paragraphs("""
            A scene describes an interface as an accessibility tree, as UIAccessibility does on iOS: \
            screens of elements with labels, values, hints, traits, frames, containers, groups, \
            custom actions and adjustable elements, named state the labels and values can show, \
            behaviour (effects on state and screens when an element is activated) and scripted \
            scanning tests. It is a YAML (or JSON) file. A tests file holds the scripted tests of \
            a scene kept beside it.
            """).replacingOccurrences(of: ".PP\n", with: ".SH DESCRIPTION\n", options: .anchored) + "\n"
        page += ".SH KEYS\n"
        let lists: [(String, [String])] = [
            ("A scene", SceneFormatKeys.scene), ("A tests file", SceneFormatKeys.testsFile), ("A screen", SceneFormatKeys.screen),
            ("An element", SceneFormatKeys.element), ("Effects", SceneFormatKeys.effects), ("A test", SceneFormatKeys.test),
            ("Test steps", SceneFormatKeys.steps), ("Traits", SceneFormatKeys.traits),
        ]
        for (what, keys) in lists {
            page += ".TP\n\(what)\n\(keys.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", "))\n"
        }
        page += MarkdownToRoff.convert(markdown)
        page += ".SH EXAMPLES\n.PP\nCheck a scene, list its start screen's items, run its tests:\n.PP\n.RS 4\n.nf\n" + lines(escape("""
            switchscan validate scene.yaml
            switchscan inspect scene.yaml
            switchscan test scene.yaml
            """)) + "\n.fi\n.RE\n"
        page += ".SH FILES\n" + entries([ManualExtras.examples])
        page += ".SH \"SEE ALSO\"\n.BR switchscan\\-validate (1) ,\n.BR switchscan\\-inspect (1) ,\n.BR switchscan\\-test (1) ,\n.BR switchscan\\-import (1) ,\n.BR switchscan\\-settings (5)\n"
        return page
    }
}

/// The Markdown of docs/ as man(7): `##` sections, `###` subsections, paragraphs, lists, tables
/// (a row per entry, its first cell the term), fenced code, `code` in bold, links as their text.
/// The document's opening (before its first `##`) is left out: the page has its own.
enum MarkdownToRoff {
    static func convert(_ markdown: String) -> String {
        var out = [String]()
        var paragraph = [String]()
        var inCode = false
        var started = false
        var header: [String]?

        func flush() {
            if !paragraph.isEmpty { out.append(".PP\n" + inline(paragraph.joined(separator: " "))) }
            paragraph = []
        }

        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if !started {
                if raw.hasPrefix("## ") { started = true } else { continue }
            }
            if raw.hasPrefix("```") {
                flush()
                out.append(inCode ? ".fi\n.RE" : ".PP\n.RS 4\n.nf")
                inCode.toggle()
                continue
            }
            if inCode { out.append(ManualPage.lines(ManualPage.escape(raw))); continue }
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("|") {
                flush()
                let cells = line.trimmingCharacters(in: CharacterSet(charactersIn: "|")).components(separatedBy: "|")
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                if cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) { continue }
                guard let names = header else { header = cells; continue }
                var text = cells.count > 1 ? inline(cells[1]) : ""
                for (index, cell) in cells.enumerated().dropFirst(2) where !cell.isEmpty {
                    text += "\n.br\n" + inline((index < names.count ? names[index] + ": " : "") + cell)
                }
                out.append(".TP\n" + inline(cells[0]) + "\n" + text)
                continue
            }
            header = nil
            if line.isEmpty { flush(); continue }
            if raw.hasPrefix("### ") {
                flush()
                out.append(".SS \"" + plain(String(raw.dropFirst(4))) + "\"")
            } else if raw.hasPrefix("## ") {
                flush()
                out.append(".SH \"" + plain(String(raw.dropFirst(3))).uppercased() + "\"")
            } else if let item = listItem(raw) {
                flush()
                out.append(".IP \\(bu 2\n" + inline(item))
            } else if raw.hasPrefix("  "), let last = out.last, last.hasPrefix(".IP"), paragraph.isEmpty {
                out[out.count - 1] = last + "\n" + inline(line)
            } else {
                paragraph.append(line)
            }
        }
        flush()
        if inCode { out.append(".fi\n.RE") }
        return out.joined(separator: "\n") + "\n"
    }

    static func listItem(_ line: String) -> String? {
        for marker in ["- ", "* "] where line.hasPrefix(marker) { return String(line.dropFirst(2)) }
        if let dot = line.firstIndex(of: "."), line[..<dot].allSatisfy(\.isNumber), !line[..<dot].isEmpty,
           line[line.index(after: dot)...].hasPrefix(" ") {
            return String(line[line.index(dot, offsetBy: 2)...])
        }
        return nil
    }

    /// A heading's text for a quoted macro argument: no markup, no double quotes.
    static func plain(_ text: String) -> String {
        ManualPage.escape(text.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "\"", with: "'"))
    }

    /// `code` bold, **strong** bold, [text](target) as text, the rest escaped.
    static func inline(_ text: String) -> String {
        var linked = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            guard let close = rest[open...].firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix("("),
                  let end = rest[close...].firstIndex(of: ")") else { break }
            linked += rest[..<open] + rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: end)...]
        }
        linked += rest
        var out = ""
        var bold = false
        var index = linked.startIndex
        var plainRun = ""
        func emitPlain() { out += ManualPage.escape(plainRun); plainRun = "" }
        while index < linked.endIndex {
            if linked[index] == "`" || linked[index...].hasPrefix("**") {
                emitPlain()
                out += bold ? "\\fR" : "\\fB"
                bold.toggle()
                index = linked.index(index, offsetBy: linked[index] == "`" ? 1 : 2)
                continue
            }
            plainRun.append(linked[index])
            index = linked.index(after: index)
        }
        emitPlain()
        if bold { out += "\\fR" }
        return ManualPage.lines(out)
    }
}
