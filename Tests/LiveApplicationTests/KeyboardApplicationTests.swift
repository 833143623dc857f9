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
        for _ in 0..<(text.count * 4 + 10) {
            let keyboard = try #require(session.keyboardContent, "no keyboard is open")
            guard let choice = try PerfectTypist.nextChoice(toType: text, on: keyboard) else { return }
            let target = try #require(keyboard.elementID(of: choice))
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
        Issue.record("'\(text)' was not typed: the field holds '\(session.keyboardContent?.fieldText.text ?? "-")'; last message: \(session.lastAnnouncement ?? "none")")
    }
}

extension LiveApplicationTests {
    static func shippedLayout(_ name: String) throws -> KeyboardLayout {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Devices/keyboards/\(name).yaml").path
        return try KeyboardLayout.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    // Disabled: on the test desktop (Xvfb, no window manager) the text never reaches Firefox's
    // field: atspi_editable_text_insert_text answers true and the field's Text still reads "",
    // and key events sent through atspi_generate_keyboard_event do not arrive either, even after a
    // pointer click on the field. The keyboard opens over the field and types through the same
    // code as in scenes; what Firefox needs is not found yet.
    @Test("Firefox ESR: Ann typed into a web form's Name field on the scanning keyboard, through the switches; Firefox's field says Ann",
          .disabled("the text does not reach Firefox's field on the test desktop (see the comment above)"),
          .enabled(if: RealApplication.isInstalled("/usr/bin/firefox-esr")))
    func firefoxFormTyping() throws {
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
