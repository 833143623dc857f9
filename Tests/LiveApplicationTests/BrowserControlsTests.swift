import Platform
import AccessibilityModel
import Atspi
import Foundation
import LiveTestSupport
import LiveTree
import Runtime
import Scanning
import Testing

/// A web page's controls (Tests/LiveApps/controls.html) operated through the switches in Debian's
/// Firefox ESR and Chromium, each result read back through AT-SPI from the browser itself (the
/// page's handlers write what happened into its title, the window's name): a paragraph on the
/// braille line, a button pressed, a check box toggled, a `<select>` option chosen, a range
/// input moved by Increment, a background tab never scanned, the first tab brought back through
/// the browser's tab strip, and a link followed.
enum BrowserControls {
    struct Browser: Sendable {
        let script: String
        let application: String
        /// Whether a tab's name (first) is that of the tab showing a page titled so (second):
        /// Chromium adds the page's memory use after the title.
        let names: @Sendable (String, String) -> Bool
    }

    static let firefox = Browser(script: "firefox_page.sh", application: "firefox") { $0 == $1 }
    static let chromium = Browser(script: "chromium_page.sh", application: "chromium") { $0.hasPrefix($1 + " - ") }

    static let paragraph = "Switch scanning reads this paragraph."
    static let firstTabLabels: Set = ["Press me", "Agree", "Open second tab", "Go to the second page"]

    static func labels(_ session: ScanSession) -> [String] { RealApplication.items(session).map { $0.label ?? "" } }

    /// Moves the highlight to the first item that `matches` (Next, once round at most).
    static func highlight(_ driver: inout LiveDriver, _ matches: (AccessibilityModel.Element) -> Bool) -> Bool {
        let count = RealApplication.items(driver.session).count
        for _ in 0...count where !(driver.highlightedElement.map(matches) ?? false) { driver.press(.next) }
        return driver.highlightedElement.map(matches) ?? false
    }

    /// Pumps the loop until the browser's window is titled `title` (read through AT-SPI).
    static func waitForTitle(_ title: String, _ browser: Browser, _ driver: inout LiveDriver, seconds: Double = 10) throws -> Bool {
        let end = MonotonicClock.now() + seconds
        while try RealApplication.window(of: browser.application, titled: title) == nil, MonotonicClock.now() < end {
            try driver.pump(timeout: 0.3) { _ in false }
        }
        return try RealApplication.window(of: browser.application, titled: title) != nil
    }

    static func operate(_ browser: Browser) throws {
        let (process, found) = try RealApplication.start(browser.script, arguments: ["controls.html"], application: browser.application, title: "Controls", seconds: 90)
        defer { LiveDesktop.stop(process, grace: 10) }
        let live = try #require(found, "\(browser.application)'s window never appeared on the accessibility bus")
        var driver = LiveDriver(live: live, settings: DemoWindow.settings())
        try driver.pump(timeout: 20) { session in labels(session).contains("Go to the second page") && labels(session).contains(paragraph) }

        // The paragraph's text is its label, shown on the braille line when highlighted.
        #expect(RealApplication.highlight(paragraph, &driver), "\(labels(driver.session))")
        #expect(driver.session.brailleText.contains(paragraph), "\(driver.session.brailleText)")

        // A <select>: the combo box (not the label beside it) opens, its options are the level,
        // Banana chosen. Firefox's window is not always active yet here (no window manager on this
        // desktop): the combo box's keyboard focus did not make it active, and its `open` action
        // made it active without showing the popup (a second `open` did not show it either).
        try withKnownIssue("Firefox opens no <select> popup while its new window is not active", isIntermittent: true) {
            #expect(highlight(&driver) { $0.label == "Fruit" && $0.traits.contains(.button) }, "\(labels(driver.session))")
            driver.press(.select)
            try driver.pump(timeout: 15) { session in labels(session).contains("Banana") }
            #expect(Set(labels(driver.session)) == ["Apple", "Banana", "Cherry"], "\(labels(driver.session))")
            try RealApplication.press("Banana", &driver)
            #expect(try waitForTitle("Chose Banana", browser, &driver))
        } when: {
            browser.application == "firefox"
        }
        try driver.pump(timeout: 5) { session in labels(session).contains("Press me") }
        #expect(!labels(driver.session).contains("Cherry"), "\(labels(driver.session))")

        // A button: its handler runs.
        try RealApplication.press("Press me", &driver)
        #expect(try waitForTitle("Pressed", browser, &driver))

        // A check box: checked, as the browser says of it.
        func agree() throws -> AccessibleObject? {
            try RealApplication.object(in: browser.application) { try $0.roleName() == "check box" && $0.name() == "Agree" }
        }
        #expect(try agree()?.states().contains(.checked) == false)
        #expect(highlight(&driver) { $0.label == "Agree" && $0.traits.contains(.button) }, "\(labels(driver.session))")
        driver.press(.select)
        #expect(try waitForTitle("Agreed", browser, &driver))
        #expect(try agree()?.states().contains(.checked) == true)
        try driver.pump(timeout: 5) { session in RealApplication.items(session).contains { $0.label == "Agree" && $0.traits.contains(.selected) } }
        #expect(RealApplication.items(driver.session).contains { $0.label == "Agree" && $0.traits.contains(.selected) })

        // A range input: Increment from the scanner menu moves it one step (50 → 60).
        #expect(highlight(&driver) { $0.label == "Volume" && $0.traits.contains(.adjustable) }, "\(labels(driver.session))")
        driver.press(.menu)
        driver.moveMenuFocus(to: "Increment")
        #expect(driver.session.menuFocusTitle == "Increment", "\(driver.session.menuTitles ?? [])")
        driver.press(.select)
        #expect(try waitForTitle("Volume 60", browser, &driver))
        let volume = try RealApplication.object(in: browser.application) { try $0.roleName() == "slider" && $0.name() == "Volume" }
        #expect(try volume?.value()?.current == 60)
        if driver.session.menuTitles != nil { driver.press(.escape) }

        // A second tab in front: its link is scanned, and nothing of the first tab while the
        // browser goes on sending that tab's events.
        try RealApplication.press("Open second tab", &driver)
        try driver.pump(timeout: 30) { session in labels(session).contains("Second page link") }
        #expect(labels(driver.session).contains("Second page link"), "\(labels(driver.session))")
        var seen = Set<String>()
        let end = MonotonicClock.now() + 5
        while MonotonicClock.now() < end {
            try driver.pump(timeout: 0.25) { _ in false }
            seen.formUnion(labels(driver.session))
        }
        #expect(seen.isDisjoint(with: firstTabLabels), "\(seen.intersection(firstTabLabels))")

        // The browser's tab strip: the first tab brought back through the switches.
        // (The first tab is named after its page's title, which the range input's handler set last.)
        let firstTab = "Volume 60"
        #expect(highlight(&driver) { browser.names($0.label ?? "", firstTab) && !$0.traits.contains(.selected) }, "\(labels(driver.session))")
        driver.press(.select)
        func firstTabSelected() throws -> Bool {
            try RealApplication.object(in: browser.application) { try $0.roleName() == "page tab" && browser.names($0.name(), firstTab) }?
                .states().contains(.selected) == true
        }
        let back = MonotonicClock.now() + 10
        while try !firstTabSelected(), MonotonicClock.now() < back { try driver.pump(timeout: 0.3) { _ in false } }
        #expect(try firstTabSelected())
        try driver.pump(timeout: 15) { session in labels(session).contains("Press me") && !labels(session).contains("Second page link") }
        #expect(labels(driver.session).contains("Press me") && !labels(driver.session).contains("Second page link"), "\(labels(driver.session))")

        // A link followed: the second page in this tab.
        try RealApplication.press("Go to the second page", &driver)
        #expect(try waitForTitle("Second", browser, &driver))
        try driver.pump(timeout: 15) { session in labels(session).contains("Second page link") && !labels(session).contains("Press me") }
        #expect(labels(driver.session).contains("Second page link") && !labels(driver.session).contains("Press me"), "\(labels(driver.session))")
    }
}

extension LiveApplicationTests {
    @Test("Firefox ESR: paragraph on the braille line, button, check box, <select>, range Increment, background tab, tab strip, link",
          .enabled(if: RealApplication.isInstalled("/usr/bin/firefox-esr")))
    func firefoxControls() throws { try BrowserControls.operate(BrowserControls.firefox) }

    @Test("Chromium: paragraph on the braille line, button, check box, <select>, range Increment, background tab, tab strip, link",
          .enabled(if: RealApplication.isInstalled("/usr/bin/chromium")))
    func chromiumControls() throws { try BrowserControls.operate(BrowserControls.chromium) }
}
