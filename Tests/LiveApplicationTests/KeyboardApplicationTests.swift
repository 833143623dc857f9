import AccessibilityModel
import Atspi
import DeviceProfiles
import Foundation
import LiveTestSupport
import LiveTree
import Runtime
import Scanning
import Testing

extension LiveDriver {
    /// Types `text` on the scanning keyboard open over a live field, as a user who makes no
    /// mistakes: each choice reached with Next and entered with Select through the switches.
    mutating func type(_ text: String) throws {
        var wordsChosen = 0
        defer { predictedWordsChosen += wordsChosen }
        for _ in 0..<(text.count * 4 + 10) {
            let keyboard = try #require(session.keyboardContent, "no keyboard is open")
            guard let choice = try PerfectTypist.nextChoice(toType: text, on: keyboard) else { return }
            if case .word = choice { wordsChosen += 1 }
            try choose(try #require(keyboard.elementID(of: choice)))
        }
        Issue.record("'\(text)' was not typed: the field holds '\(session.keyboardContent?.fieldText.text ?? "-")'; last message: \(session.lastAnnouncement ?? "none")")
    }

    /// Reaches the keyboard's element `target` with Next, selects it, and lets the application answer.
    mutating func choose(_ target: ElementID) throws {
        var reached = false
        for _ in 0..<200 where !reached {
            switch session.perfectMove(toward: target) {
            case .select(let reachesTarget):
                press(.select)
                reached = reachesTarget
            case .next: press(.next)
            case .wait, .stuck: Issue.record("\(target) cannot be reached scanning manually"); return
            }
        }
        try #require(reached, "\(target) was not reached")
        try pump(timeout: 0.2) { _ in false }
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
        let windowManager = try LiveDesktop.shared.get().launch("openbox.sh")
        defer { LiveDesktop.stop(windowManager) }
        let (process, found) = try RealApplication.start("firefox_form.sh", application: "firefox", title: "Contact form", seconds: 90)
        defer { LiveDesktop.stop(process, grace: 10) }
        let live = try #require(found, "Firefox's form never appeared on the accessibility bus")
        var driver = LiveDriver(live: live, settings: DemoWindow.settings())
        driver.session.keyboard = KeyboardOffer(layout: try Self.shippedLayout("english-frequency"))

        // Selecting the field (not its label's text, also named Name) opens the keyboard over it.
        let field = try #require(RealApplication.items(driver.session).first {
            $0.label == "Name" && $0.customContent.contains(AccessibleMapping.textFieldContent)
        }, "no Name field: \(RealApplication.items(driver.session).map { "\($0.label ?? "-") (\($0.hint ?? "-"))" })")
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
        try driver.choose(try #require(keyboard.elementID(of: .delete)))
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
