import Platform
import BrailleFormatting
import BrailleTestSupport
import Foundation
import Runtime
import SpeechTestSupport

/// The real Orca and switchscan on the same widgets of real applications: Orca's focus (or caret)
/// moved to each widget through AT-SPI from outside (`atspi_probe.py present`, as a keyboard
/// would), what Orca then spoke (through a speech-dispatcher whose output module records it),
/// the braille line it made and the part it put on a BRLTTY display (an emulated Baum display
/// through BrlAPI), and, for the same AT-SPI object, switchscan's braille line for its item as a
/// live run reads the window (`LiveApplication`, `BrailleFormatter`).
///
/// It runs on the desktop that this process's libatspi is connected to (`LiveDesktop.shared`, or
/// one whose variables the process was given before its first AT-SPI call).
public final class OrcaComparison: @unchecked Sendable {
    /// How Orca is brought to a widget (`atspi_probe.py present`'s modes).
    public enum Move: String, Sendable { case focus, caret, action, click, tab }

    /// One widget: the first object of `application`'s windows with `role` whose name,
    /// description or text starts with `text`; `key` is what both should carry (a name, a text,
    /// a value), `state` a state word Orca speaks for it (`checked`) and `ourState` the word our
    /// line has for the same state (`sel`).
    public struct Widget: Sendable {
        public var title: String
        public var role: String
        public var text: String
        public var move: Move
        public var key: String
        public var state: String?
        public var ourState: String?
        public init(_ title: String, role: String, text: String, move: Move = .focus, key: String,
                    state: String? = nil, ourState: String? = nil) {
            self.title = title
            self.role = role
            self.text = text
            self.move = move
            self.key = key
            self.state = state
            self.ourState = ourState
        }
    }

    /// An application and its widgets, in the order they are visited; `before` names the
    /// objects (role, name) whose first action runs before a widget (keys pressed, as a user's).
    public struct Application: Sendable {
        public var script: String
        public var arguments: [String]
        /// Its name on the accessibility bus (lower case), and a word of its window's title.
        public var name: String
        public var title: String
        public var label: String
        public var steps: [(before: [(role: String, text: String)], widget: Widget)]
        public init(script: String, arguments: [String] = [], name: String, title: String, label: String,
                    steps: [(before: [(role: String, text: String)], widget: Widget)]) {
            self.script = script
            self.arguments = arguments
            self.name = name
            self.title = title
            self.label = label
            self.steps = steps
        }
    }

    /// What was measured for one widget.
    public struct Row: Sendable {
        public var application: String
        public var widget: Widget
        /// What Orca spoke for the widget: what speech-dispatcher's output module was given, from
        /// the first utterance Orca logged after its focus moved to the widget.
        public var speech: [String]
        /// The object Orca's focus moved to last (`[role | name]`), if it moved.
        public var orcaFocus: String?
        /// The last braille line Orca made after the move, and its part on the display.
        public var brailleLine: String?
        public var brailleVisible: String?
        /// The display's cells then (Unicode braille), when BRLTTY ran.
        public var displayCells: String?
        /// Our braille line for the object's item; nil when it is no item of its own.
        public var ours: String?
        /// Why a row could not be measured (no such object, no window).
        public var problem: String?

        /// Whether Orca's speech, or its braille, carries `text` (case ignored).
        public func orcaCarries(_ text: String) -> Bool {
            (speech + [brailleLine ?? ""]).contains { $0.localizedCaseInsensitiveContains(text) }
        }
        public func oursCarries(_ text: String) -> Bool { ours?.localizedCaseInsensitiveContains(text) ?? false }
    }

    public let desktop: LiveDesktop
    /// Openbox, started on the desktop when installed: GTK 4 reports no focus in a window that no
    /// window manager has made active, and Orca follows the focus.
    public let windowManager: Process?
    public let speech: SpeechDispatcherProcess
    public let orca: OrcaProcess
    public let display: BaumDisplayEmulator?
    public let brltty: BRLTTYProcess?
    /// Why braille went to no display (BRLTTY or its Baum driver missing, or it did not start).
    public private(set) var brailleProblem: String?

    /// Starts Openbox, speech-dispatcher, BRLTTY on an emulated 40-cell Baum display (when it
    /// can) and Orca, all in `directory`, on `desktop`.
    public init(desktop: LiveDesktop, directory: String) throws {
        self.desktop = desktop
        windowManager = FileManager.default.isExecutableFile(atPath: "/usr/bin/openbox") ? try desktop.launch("openbox.sh") : nil
        speech = try SpeechDispatcherProcess(directory: directory + "/speech", secondsPerCharacter: 0.001, minimumSpeakingSeconds: 0.01)
        try speech.start()
        // The desktop's XDG_RUNTIME_DIR: when the runner dies without stopping Orca, the desktop's
        // script stops it with the desktop (it stops every process that carries it).
        var environment = desktop.environment.merging(["SPEECHD_ADDRESS": speech.address, "XDG_RUNTIME_DIR": desktop.appFolder]) { _, new in new }
        var started: (BaumDisplayEmulator, BRLTTYProcess)?
        if BRLTTYProcess.hasBrailleDriver("bm") {
            do {
                let emulator = try BaumDisplayEmulator(cells: 40)
                let process = try BRLTTYProcess(baum: emulator)
                try process.start()
                started = (emulator, process)
            } catch {
                brailleProblem = "BRLTTY did not start: \(error)"
            }
        } else {
            brailleProblem = "BRLTTY with its Baum driver is not installed"
        }
        display = started?.0
        brltty = started?.1
        // Orca's BrlAPI connection: the started BRLTTY, else a host nobody serves (never the
        // machine's own BRLTTY).
        environment["BRLAPI_HOST"] = brltty?.host ?? ":\(Int.random(in: 10_000...19_999))"
        environment["BRLAPI_AUTH"] = "none"
        orca = try OrcaProcess(directory: directory + "/orca")
        do {
            try orca.start(environment: environment)
        } catch {
            stop()
            throw error
        }
    }

    /// Stops what `init` started, each by its PID.
    public func stop() {
        orca.stop()
        brltty?.stop()
        display?.stop()
        speech.stop()
        if let windowManager { LiveDesktop.stop(windowManager) }
    }

    /// Runs `atspi_probe.py` with `arguments` on the desktop; its standard output.
    public func probe(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [LiveDesktop.appsFolder.appendingPathComponent("atspi_probe.py").path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try desktop.outputFile("atspi_probe.err")
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `application`, measures each of its widgets, and stops it (by its PID).
    public func measure(_ application: Application, progress: (String) -> Void = { _ in }) throws -> [Row] {
        let process = try desktop.launch(application.script, arguments: application.arguments)
        defer { LiveDesktop.stop(process) }
        let end = MonotonicClock.now() + 120
        var ready = false
        while !ready, MonotonicClock.now() < end, process.isRunning {
            if let live = try? LiveApplication(target: .init(application: application.name, window: application.title)),
               live.screenName.contains(application.title), !live.currentScreen.scanItems().isEmpty {
                ready = true
            } else {
                MonotonicClock.sleep(seconds: 0.3)
            }
        }
        guard ready else {
            return application.steps.map {
                Row(application: application.label, widget: $0.widget, speech: [], ours: nil,
                    problem: "\(application.script): no window titled \(application.title) within 120 s")
            }
        }
        // Orca's first words on the new window are its own (the window's name); let them pass.
        _ = orca.presentations(after: orca.presentations().count, quiet: 2, timeout: 5)
        var rows = [Row]()
        for (before, widget) in application.steps {
            progress("\(application.label): \(widget.title)")
            for (role, text) in before {
                _ = try probe(["present", application.name, role, text, Move.action.rawValue])
                MonotonicClock.sleep(seconds: 0.3)
            }
            rows.append(try measure(widget, in: application))
        }
        return rows
    }

    func measure(_ widget: Widget, in application: Application) throws -> Row {
        var row = Row(application: application.label, widget: widget, speech: [], ours: nil)
        // Our line: the item of the same object (ids are bus name + object path), the window read
        // as a live run reads it, before Orca's move (a menu that opens is then a level of its own).
        let path = try probe(["find", application.name, widget.role, widget.text])
        guard !path.isEmpty else {
            row.problem = "no \(widget.role) starting with \"\(widget.text)\""
            return row
        }
        let live = try LiveApplication(target: .init(application: application.name, window: application.title))
        if let element = live.currentScreen.scanItems().first(where: { Self.path(of: $0.id) == path }) {
            row.ours = BrailleFormatter().item(element).text
        }
        let mark = orca.presentations().count
        let spokenMark = speech.spoken().count
        _ = try probe(["present", application.name, widget.role, widget.text, widget.move.rawValue])
        // What Orca presented from its last focus move on (Tab presses pass other widgets first;
        // after an action, from its first: a menu opened reads itself, then its first item has
        // the focus); its braille line is the first it made then (a tooltip's flash can follow).
        var presented = orca.presentations(after: mark)
        let moves = presented.indices.filter { presented[$0].kind == .focus }
        if let focus = widget.move == .action ? moves.first : moves.last { presented = Array(presented[focus...]) }
        row.orcaFocus = presented.first { $0.kind == .focus }?.text
        // What speech-dispatcher was given, from the first of those utterances on.
        let logged = presented.filter { $0.kind == .speech }.map(\.text)
        let spoken = speech.spoken().dropFirst(spokenMark).map(\.text)
        if let first = logged.first, let start = spoken.lastIndex(of: first) { row.speech = Array(spoken[start...]) }
        row.brailleLine = presented.first { $0.kind == .brailleLine }?.text
        row.brailleVisible = presented.first { $0.kind == .brailleVisible }?.text
        row.displayCells = display.map { BrailleCells.text($0.cells).replacingOccurrences(of: "⠀", with: " ").trimmingCharacters(in: .whitespaces) }
        return row
    }

    /// The object path in an element id (bus name + path).
    static func path(of id: String) -> String? { id.firstIndex(of: "/").map { String(id[$0...]) } }
}

extension OrcaComparison {
    /// The widgets of docs/live-applications.md's table.
    public static let applications: [Application] = [
        Application(script: "gnome_calculator.sh", name: "gnome-calculator", title: "Calculator", label: "gnome-calculator", steps: [
            // GTK 4.8 gives no focus through AT-SPI, and its keys take none from a click: Tab.
            ([], Widget("7 button", role: "push button", text: "7", move: .tab, key: "7")),
            ([], Widget("π button", role: "push button", text: "Pi", move: .tab, key: "Pi")),
            ([], Widget("x² button", role: "push button", text: "Square", move: .tab, key: "Square")),
            ([("push button", "7"), ("push button", "×"), ("push button", "6"), ("push button", "=")],
             Widget("display after 7 × 6 =", role: "text", text: "", move: .tab, key: "42")),
        ]),
        Application(script: "galculator.sh", name: "galculator", title: "galculator", label: "galculator", steps: [
            ([], Widget("display", role: "text", text: "", key: "0")),
            ([], Widget("View menu (opened)", role: "menu", text: "View", move: .action, key: "View")),
        ]),
        Application(script: "featherpad.sh", name: "featherpad", title: "Untitled", label: "FeatherPad", steps: [
            ([], Widget("text", role: "text", text: "", key: "text")),
            ([], Widget("Options menu (opened)", role: "menu item", text: "Options", move: .action, key: "Options")),
        ]),
        Application(script: "mousepad.sh", name: "mousepad", title: "Untitled", label: "Mousepad", steps: [
            ([], Widget("text", role: "text", text: "", key: "text")),
        ]),
    ] + ["firefox", "chromium"].map { browser in
        Application(script: browser == "firefox" ? "firefox_page.sh" : "chromium_page.sh", arguments: ["widgets.html"],
                    name: browser, title: "Widgets", label: browser == "firefox" ? "Firefox ESR" : "Chromium", steps: [
            ([], Widget("paragraph", role: "paragraph", text: "Switch scanning", move: .caret, key: "Switch scanning reads this paragraph.")),
            ([], Widget("link", role: "link", text: "Next section", key: "Next section")),
            ([], Widget("button", role: "push button", text: "Press me", key: "Press me")),
            ([], Widget("check box (checked)", role: "check box", text: "Subscribe", key: "Subscribe", state: "checked",
                          ourState: ScannerWords.english.selected)),
            ([], Widget("select", role: "combo box", text: "Fruit", key: "Apple")),
            ([], Widget("range input", role: "slider", text: "Volume", key: "5")),
            ([], Widget("text field", role: "entry", text: "Ann", key: "Ann")),
        ])
    }

    /// The rows as a Markdown table: widget, Orca's speech, its braille line (the part on the
    /// display after it when shorter), the display's cells, our line, and whether both carry the
    /// widget's key (and its state).
    public static func table(_ rows: [Row]) -> String {
        func cell(_ text: String?) -> String {
            guard let text, !text.isEmpty else { return "–" }
            return "`" + text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "`", with: "'") + "`"
        }
        var lines = ["| Widget | Orca said (speech-dispatcher) | Orca's braille line (its part on the display) | The 40-cell display (BRLTTY) | Our braille line | Same name, text, value, state? |",
                     "|---|---|---|---|---|---|"]
        for row in rows {
            let widget = "\(row.application): \(row.widget.title)"
            if let problem = row.problem {
                lines.append("| \(widget) | – | – | – | – | not measured: \(problem) |")
                continue
            }
            let said = row.speech.isEmpty ? "(nothing)" : row.speech.map { cell($0) }.joined(separator: " ")
            var braille = cell(row.brailleLine)
            if let visible = row.brailleVisible, visible != row.brailleLine { braille += " (" + cell(visible) + ")" }
            var pairs = [(orca: row.widget.key, ours: row.widget.key)]
            if let state = row.widget.state { pairs.append((state, row.widget.ourState ?? state)) }
            let verdict = pairs.map { pair in
                let words = pair.orca == pair.ours ? "`\(pair.orca)`" : "`\(pair.orca)` (ours `\(pair.ours)`)"
                switch (row.orcaCarries(pair.orca), row.oursCarries(pair.ours)) {
                case (true, true): return "both " + words
                case (true, false): return "Orca only " + words
                case (false, true): return "ours only " + words
                case (false, false): return "neither " + words
                }
            }.joined(separator: ", ")
            lines.append("| \(widget) | \(said) | \(braille) | \(row.displayCells.map { $0.isEmpty ? "(blank)" : $0 } ?? "–") | \(row.ours.map { cell($0) } ?? "(no item of its own)") | \(verdict) |")
        }
        return lines.joined(separator: "\n")
    }
}
