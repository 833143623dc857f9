import AccessibilityModel
import Atspi
import DeviceProfiles
import Foundation
import LiveTestSupport
import LiveTree
import Runtime
import Scanning
import Testing
import Platform

extension LiveDriver {
    /// Types `text` on the scanning keyboard open over a live field, as a user who makes no
    /// mistakes: each choice reached with Next and entered with Select through the switches.
    mutating func type(_ text: String) throws {
        var wordsChosen = 0
        defer { predictedWordsChosen += wordsChosen }
        for _ in 0..<(text.count * 4 + 10) {
            guard let choice = try nextChoice(toType: text) else { return }
            let keyboard = try #require(session.keyboardContent, "no keyboard is open")
            if case .word = choice { wordsChosen += 1 }
            try choose(try #require(keyboard.elementID(of: choice)))
        }
        Issue.record("'\(text)' was not typed: the field holds '\(session.keyboardContent?.fieldText.text ?? "-")'; last message: \(session.lastAnnouncement ?? "none")")
    }

    /// The next choice towards `text` on the open keyboard. An application may show an edit
    /// later than its read-back (key events: its text, then its caret, updated a while later,
    /// longer on a busy machine), and the keyboard reads the field again when the application
    /// says it changed: a field that is not yet on the way to `text` is waited for, at most
    /// `RealApplication.answerLimit`, and then said with what the application's field holds.
    mutating func nextChoice(toType text: String) throws -> PerfectTypist.Choice? {
        let end = MonotonicClock.now() + RealApplication.answerLimit
        while true {
            let keyboard = try #require(session.keyboardContent, "no keyboard is open")
            do {
                return try PerfectTypist.nextChoice(toType: text, on: keyboard)
            } catch {
                guard MonotonicClock.now() < end else {
                    let application = live.fieldText(of: keyboard.field)
                    throw PerfectTypist.Unreachable(message: "\(error): the keyboard holds '\(keyboard.fieldText.text)' (caret \(keyboard.fieldText.caret)), the application's field '\(application?.text ?? "-")' (caret \(application.map { String($0.caret) } ?? "-"))")
                }
                try pump(timeout: 0.2) { _ in false }
            }
        }
    }

    /// A message on the display ("started program …") is taken off by a press, as a user does
    /// before choosing anything.
    mutating func dismissMessage() {
        if session.engine.flashMessage != nil { press(.next) }
    }

    /// Reaches the keyboard's element `target` with Next, selects it, and (`answered`) lets the
    /// application answer.
    mutating func choose(_ target: ElementID, answered: Bool = true) throws {
        dismissMessage()
        var reached = false
        var seen = [String]()
        for _ in 0..<200 where !reached {
            if seen.count < 40 { seen.append("\(highlightedElement?.id ?? "-")/\(session.engine.flashMessage ?? "")") }
            switch session.perfectMove(toward: target) {
            case .select(let reachesTarget):
                press(.select)
                reached = reachesTarget
            case .next: press(.next)
            case .wait, .stuck: Issue.record("\(target) cannot be reached scanning manually"); return
            }
        }
        try #require(reached, "\(target) was not reached: \(seen); said \(session.lastAnnouncement ?? "-")")
        if answered { try pump(timeout: 0.2) { _ in false } }
    }
}

extension LiveApplicationTests {
    static func shippedLayout(_ name: String) throws -> KeyboardLayout {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Devices/keyboards/\(name).yaml").path
        return try KeyboardLayout.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    // Firefox takes the text only with a window manager (Openbox) giving its window the X input
    // focus: its fields answer EditableText's insertion with success and keep their text, so the
    // keyboard types there with key events, which reach the field the field's selection focused.
    @Test("Firefox ESR under Openbox: Ann typed into a web form's Name field on the scanning keyboard, through the switches; Firefox's field says Ann",
          .enabled(if: RealApplication.isInstalled("/usr/bin/firefox-esr") && RealApplication.isInstalled("/usr/bin/openbox")))
    func firefoxFormTyping() throws {
        let windowManager = try LiveDesktop.shared.get().startWindowManager()
        defer { LiveDesktop.stop(windowManager) }
        let (process, found) = try RealApplication.start("firefox_form.sh", application: "firefox", title: "Contact form", seconds: 90)
        defer { LiveDesktop.stop(process, grace: 10) }
        let live = try #require(found, "Firefox's form never appeared on the accessibility bus")
        var driver = LiveDriver(live: live, settings: DemoWindow.settings())
        driver.session.keyboard = KeyboardOffer(layout: try Self.shippedLayout("english-frequency"))

        // Selecting the field (not its label's text, also named Name) opens the keyboard over it.
        // (The page's objects get their names a while after the window shows, later on a busy
        // machine: the field is waited for.)
        func nameField(_ session: ScanSession) -> AccessibilityModel.Element? {
            RealApplication.items(session).first { $0.label == "Name" && $0.customContent.contains(AccessibleMapping.textFieldContent) }
        }
        try driver.pump(timeout: RealApplication.answerLimit) { nameField($0) != nil }
        let field = try #require(nameField(driver.session),
                                 "no Name field: \(RealApplication.items(driver.session).map { "\($0.label ?? "-") (\($0.hint ?? "-"))" })")
        for _ in RealApplication.items(driver.session) where driver.highlightedElement?.id != field.id { driver.press(.next) }
        #expect(driver.highlightedElement?.id == field.id)
        driver.press(.select)
        try driver.pump(timeout: 0.5) { _ in false }
        #expect(driver.session.screen == "keyboard: Name", "\(driver.session.screen)")
        try driver.type("Ann")
        #expect(driver.session.keyboardContent?.fieldText.text == "Ann")

        // What Firefox holds, read through AT-SPI: its entry's own text.
        let entry = try #require(try RealApplication.object(in: "firefox") {
            try $0.roleName() == "entry" && $0.name() == "Name"
        }, "Firefox has no Name entry")
        #expect(try entry.fieldText()?.text == "Ann")

        // Escape closes the keyboard; the page is scanned again, the field shows its text.
        driver.press(.escape)
        try driver.pump(timeout: 1) { _ in false }
        #expect(driver.session.keyboardContent == nil)
        #expect(RealApplication.items(driver.session).contains { $0.label == "Name" && $0.value == "Ann" },
                "\(RealApplication.items(driver.session).map { "\($0.label ?? "-")=\($0.value ?? "-")" })")

        // The field keeps the keyboard focus: the scanner menu's Keyboard entry opens the keyboard
        // over it again, and delete takes its last letter away (Firefox's field takes BackSpace).
        driver.press(.menu)
        driver.moveMenuFocus(to: "Keyboard")
        #expect(driver.session.menuFocusTitle == "Keyboard", "\(driver.session.menuTitles ?? [])")
        driver.press(.select)
        try driver.pump(timeout: 0.5) { _ in false }
        let keyboard = try #require(driver.session.keyboardContent, "the Keyboard entry did not open the keyboard: \(driver.session.screen)")
        #expect(driver.session.screen == "keyboard: Name")
        // The keyboard shows the field as it is once the key took effect, as soon as the press is
        // handled (key events show in Firefox a while after they are sent: the field is read until
        // it shows the edit), not the text from before the key.
        try driver.choose(try #require(keyboard.elementID(of: .delete)), answered: false)
        #expect(driver.session.keyboardContent?.fieldText == FieldText(text: "An", caret: 2),
                "\(driver.session.keyboardContent.map { "\($0.fieldText)" } ?? "no keyboard")")
        let end = MonotonicClock.now() + 5
        while try entry.fieldText()?.text != "An", MonotonicClock.now() < end { try driver.pump(timeout: 0.2) { _ in false } }
        #expect(try entry.fieldText()?.text == "An")
    }

    @Test("FeatherPad (Qt 5): Hi typed into its text area on the scanning keyboard, through the switches; the editor's own text says Hi",
          .enabled(if: RealApplication.isInstalled("/usr/bin/featherpad")))
    func featherPadTyping() throws {
        let (process, found) = try RealApplication.start("featherpad.sh", application: "featherpad", title: "Untitled")
        defer { LiveDesktop.stop(process) }
        let live = try #require(found, "FeatherPad's window never appeared on the accessibility bus")
        var driver = LiveDriver(live: live, settings: DemoWindow.settings())
        driver.session.keyboard = KeyboardOffer(layout: try Self.shippedLayout("english-frequency"))
        let field = try #require(RealApplication.items(driver.session).first { $0.customContent.contains(AccessibleMapping.textFieldContent) },
                                 "no text field: \(RealApplication.items(driver.session).map { $0.label ?? "-" })")
        for _ in RealApplication.items(driver.session) where driver.highlightedElement?.id != field.id { driver.press(.next) }
        #expect(driver.highlightedElement?.id == field.id)
        driver.press(.select)
        try driver.pump(timeout: 0.5) { _ in false }
        #expect(driver.session.keyboardContent != nil, "the keyboard did not open: \(driver.session.screen)")
        try driver.type("Hi")
        #expect(driver.session.keyboardContent?.fieldText.text == "Hi")
        let editor = try #require(try RealApplication.object(in: "featherpad") { $0.isEditableText })
        #expect(try editor.fieldText()?.text == "Hi")
    }
}

extension LiveApplicationTests {
    /// The item whose label, trimmed, is `label` (GTK menu items carry their accelerator's room
    /// as trailing spaces in their names).
    static func item(_ label: String, in session: ScanSession) -> AccessibilityModel.Element? {
        RealApplication.items(session).first { $0.label?.trimmingCharacters(in: .whitespaces) == label }
    }

    /// Reaches the item `label` names with the switches and selects it; then lets the application answer.
    static func select(_ label: String, _ driver: inout LiveDriver) throws {
        let found = try #require(item(label, in: driver.session), "no \(label): \(RealApplication.items(driver.session).map { $0.label ?? "-" })")
        try driver.choose(found.id)
    }

    /// Pumps the loop until `done` holds, at most `seconds`; whether it did.
    static func wait(_ seconds: Double, _ driver: inout LiveDriver, until done: (ScanSession) -> Bool) throws -> Bool {
        try driver.pump(timeout: seconds, until: done)
    }

    @Test("Mousepad under Openbox: started from the scanner menu, Hello, world. typed with a predicted word through the menu's Keyboard entry, saved through its own Save dialog under a path typed on the keyboard; the file holds the text",
          .enabled(if: RealApplication.isInstalled("/usr/bin/mousepad") && RealApplication.isInstalled("/usr/bin/openbox")))
    func mousepadHelloWorld() throws {
        let desktop = try LiveDesktop.shared.get()
        let windowManager = try desktop.startWindowManager()
        defer { LiveDesktop.stop(windowManager) }
        // The file goes into a folder of this test's own, named by a path typed on the keyboard.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-save-\(CurrentProcess.id)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hello.txt")
        // The prediction's state is kept apart: the dialog's Name field completes a typed path
        // from the folder's entries (a "state" folder there turned the "s" of a name into "state/").
        let stateFolder = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-save-state-\(CurrentProcess.id)")
        defer { try? FileManager.default.removeItem(at: stateFolder) }
        // The run, made in this process, and Mousepad, which it starts, get a home and XDG folders
        // of their own: nothing is written under the runner's HOME.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-mousepad-home-\(CurrentProcess.id)")
        let own = try desktop.ownFolders(in: scratch)
        let restoreEnvironment = try LiveDesktop.setProcessEnvironment(own)
        defer {
            restoreEnvironment()
            try? FileManager.default.removeItem(at: scratch)
        }

        let start = try #require(try DemoWindow.waitForDemo(application: DemoWindow.gtk3.application), "the GTK 3 Demo window never appeared")
        var driver = LiveDriver(live: start, settings: DemoWindow.settings())
        driver.session.keyboard = KeyboardOffer(
            layout: try Self.shippedLayout("english-frequency"),
            predictor: try PresagePrediction(stateFolder: stateFolder.path, learnsWhileTyping: false))
        let began = MonotonicClock.now()

        // Start a program, Mousepad: its window is then scanned.
        driver.press(.menu)
        driver.moveMenuFocus(to: "Start a program")
        #expect(driver.session.menuFocusTitle == "Start a program", "\(driver.session.menuTitles ?? [])")
        driver.press(.select)
        #expect(driver.session.screen == "Programs", "\(driver.session.screen)")
        try Self.select("Mousepad", &driver)
        #expect(try Self.wait(90, &driver) { $0.screen.contains("Mousepad") }, "Mousepad's window was never scanned: \(driver.session.screen); said: \(driver.session.lastAnnouncement ?? "nothing")")
        let mousepad = try #require(try Atspi.desktop().children().first { try $0.name() == "mousepad" }, "no mousepad on the bus")
        let pid = try mousepad.processID()
        defer { if let pid { try? ProcessSignal.send(SIGTERM, to: pid) } }
        let started = try #require(pid.flatMap { try? String(contentsOfFile: "/proc/\($0)/environ", encoding: .utf8) }, "Mousepad's environment cannot be read")
            .split(separator: "\0").map(String.init)
        for name in ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"] {
            let value = started.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
            #expect(value == own[name], "Mousepad started with \(name) \(value ?? "unset")")
        }

        // Its text area is not an item of its own (the page tab holding it is scanned whole): the
        // scanner menu's Keyboard entry opens the keyboard over it, the window's one text field.
        // Hello, world. typed, a predicted word among the choices.
        #expect(try Self.wait(20, &driver) { _ in start.focusedTextField != nil }, "no text field: \((try? RealApplication.window(of: "mousepad", titled: "Mousepad")).flatMap { $0 }.map { RealApplication.all($0).filter { $0.role == "text" }.map { "\($0.role) \($0.states)" } } ?? [])")
        #expect(try Self.wait(5, &driver) { $0.engine.highlight != .none }, "nothing is highlighted")
        driver.dismissMessage()
        driver.press(.menu)
        driver.moveMenuFocus(to: "Keyboard")
        #expect(driver.session.menuFocusTitle == "Keyboard", "\(driver.session.menuTitles ?? []); highlight \(driver.session.engine.highlight)")
        driver.press(.select)
        try driver.pump(timeout: 0.5) { _ in false }
        try #require(driver.session.keyboardContent != nil, "the keyboard did not open: \(driver.session.screen)")
        try driver.type("Hello, world.")
        #expect(driver.predictedWordsChosen >= 1, "no predicted word was chosen")
        // The predicted word's space stayed after the full stop typed behind it: delete takes it.
        if let keyboard = driver.session.keyboardContent, keyboard.fieldText.text == "Hello, world. " {
            try driver.choose(try #require(keyboard.elementID(of: .delete)))
        }
        #expect(driver.session.keyboardContent?.fieldText.text == "Hello, world.", "screen \(driver.session.screen)")
        let editor = try #require(try RealApplication.object(in: "mousepad") {
            try $0.isEditableText && $0.roleName() == "text" && $0.states().contains(.showing)
        })
        #expect(try editor.fieldText()?.text == "Hello, world.")
        let typingPresses = driver.presses, typingWords = driver.predictedWordsChosen
        driver.press(.escape)
        try driver.pump(timeout: 1) { _ in false }
        #expect(driver.session.screen.contains("Mousepad"), "\(driver.session.screen)")

        print("Keyboard tasks: Mousepad started from the menu and Hello, world. typed (\(typingWords) predicted words) in \(typingPresses) presses, \(String(format: "%.1f", MonotonicClock.now() - began)) s")

        // File → Save: the document has no file yet, so Mousepad asks for one in its Save dialog.
        try Self.select("File", &driver)
        #expect(try Self.wait(5, &driver) { Self.item("Save", in: $0) != nil }, "File did not open: \(RealApplication.items(driver.session).map { $0.label ?? "-" })")
        try Self.select("Save", &driver)
        // The scanner follows the dialog.
        #expect(try Self.wait(20, &driver) { $0.screen.contains("Save") }, "no Save dialog was scanned: \(driver.session.screen)")
        // Its Name field takes the file's whole path, typed on the keyboard.
        let name = try #require(RealApplication.items(driver.session).first { $0.customContent.contains(AccessibleMapping.textFieldContent) },
                                "no Name field: \(RealApplication.items(driver.session).map { $0.label ?? "-" })")
        try driver.choose(name.id)
        try #require(driver.session.keyboardContent != nil, "the keyboard did not open on the Name field: \(driver.session.screen)")
        try driver.type(file.path)
        driver.press(.escape)
        try driver.pump(timeout: 1) { _ in false }
        try Self.select("Save", &driver)
        var saved = ""
        let end = MonotonicClock.now() + 10
        while MonotonicClock.now() < end {
            saved = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if !saved.isEmpty { break }
            try driver.pump(timeout: 0.2) { _ in false }
        }
        #expect(saved == "Hello, world." || saved == "Hello, world.\n", "the file holds '\(saved)'")
        print("Keyboard tasks: Hello, world. saved as \(file.path) in \(driver.presses) presses in all, \(String(format: "%.1f", MonotonicClock.now() - began)) s")
    }
}
