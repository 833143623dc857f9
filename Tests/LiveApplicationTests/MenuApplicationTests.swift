import AccessibilityModel
import Atspi
import Foundation
import LiveTestSupport
import LiveTree
import Runtime
import Scanning
import Testing
import Platform

extension LiveApplicationTests {
    @Test("galculator (GTK 3): its menus are items, File opens and escape closes it, View → Scientific mode changes the mode",
          .enabled(if: RealApplication.isInstalled("/usr/bin/galculator")))
    func galculatorMenus() throws {
        let (process, found) = try RealApplication.start("galculator.sh", application: "galculator", title: "galculator")
        defer { LiveDesktop.stop(process) }
        let live = try #require(found, "galculator's window never appeared on the accessibility bus")
        var driver = LiveDriver(live: live, settings: DemoWindow.settings())
        func labels(_ session: ScanSession) -> [String] { RealApplication.items(session).map { $0.label ?? "" } }
        // The menu bar's menus are items; what their closed menus hold is not scanned.
        #expect(labels(driver.session).contains("File") && labels(driver.session).contains("View"), "\(labels(driver.session))")
        #expect(!labels(driver.session).contains("Quit"), "\(labels(driver.session))")

        // File opens: its popup is the level, the keypad is not scanned under it.
        try RealApplication.press("File", &driver)
        try driver.pump(timeout: 5) { session in labels(session).contains("Quit") }
        #expect(labels(driver.session).contains("Quit"), "\(labels(driver.session))")
        #expect(!labels(driver.session).contains("7"), "\(labels(driver.session))")
        // Escape closes it (the application's menu, read back: its items no longer SHOWING) and
        // the highlight is back on File.
        driver.press(.escape)
        try driver.pump(timeout: 5) { session in labels(session).contains("7") }
        #expect(labels(driver.session).contains("7") && !labels(driver.session).contains("Quit"), "\(labels(driver.session))")
        #expect(driver.highlightedLabel == "File")
        let quit = try #require(try RealApplication.object(in: "galculator") { try $0.roleName().contains("menu item") && $0.name() == "Quit" })
        #expect(!quit.states().contains(.showing))

        // View → Scientific mode: the application's radio menu item, read back, is checked.
        func scientific() throws -> AccessibleObject? {
            try RealApplication.object(in: "galculator") { try $0.roleName().contains("menu item") && $0.name().contains("Scientific") }
        }
        let item = try #require(try scientific(), "galculator has no Scientific menu item")
        #expect(!item.states().contains(.checked))
        try RealApplication.press("View", &driver)
        try driver.pump(timeout: 5) { session in labels(session).contains { $0.contains("Scientific") } }
        let choice = try #require(labels(driver.session).first { $0.contains("Scientific") }, "\(labels(driver.session))")
        try RealApplication.press(choice, &driver)
        let end = MonotonicClock.now() + 5
        while try scientific()?.states().contains(.checked) != true, MonotonicClock.now() < end { try driver.pump(timeout: 0.2) { _ in false } }
        #expect(try scientific()?.states().contains(.checked) == true)
        // The menu closed with the choice: the window is scanned again.
        try driver.pump(timeout: 5) { session in labels(session).contains("7") }
        #expect(labels(driver.session).contains("7") && !labels(driver.session).contains(choice), "\(labels(driver.session))")
    }

    @Test("FeatherPad (Qt 5): Options opens, its popup is the level, Line Numbers toggled through the switches",
          .enabled(if: RealApplication.isInstalled("/usr/bin/featherpad")))
    func featherPadMenu() throws {
        let (process, found) = try RealApplication.start("featherpad.sh", application: "featherpad", title: "Untitled")
        defer { LiveDesktop.stop(process) }
        let live = try #require(found, "FeatherPad's window never appeared on the accessibility bus")
        var driver = LiveDriver(live: live, settings: DemoWindow.settings())
        func labels(_ session: ScanSession) -> [String] { RealApplication.items(session).map { $0.label ?? "" } }
        #expect(labels(driver.session).contains("Options") && !labels(driver.session).contains("Line Numbers"), "\(labels(driver.session))")
        func lineNumbers() throws -> AccessibleObject? {
            try RealApplication.object(in: "featherpad") { try $0.roleName() == "menu item" && $0.name() == "Line Numbers" }
        }
        let before = try #require(try lineNumbers(), "FeatherPad has no Line Numbers menu item").states().contains(.checked)
        try RealApplication.press("Options", &driver)
        try driver.pump(timeout: 5) { session in labels(session).contains("Line Numbers") }
        #expect(labels(driver.session).contains("Line Numbers") && !labels(driver.session).contains("Options"), "\(labels(driver.session))")
        try RealApplication.press("Line Numbers", &driver)
        let end = MonotonicClock.now() + 5
        while try lineNumbers()?.states().contains(.checked) == before, MonotonicClock.now() < end { try driver.pump(timeout: 0.2) { _ in false } }
        #expect(try lineNumbers()?.states().contains(.checked) == !before)
        // The popup closed with the choice: the window is scanned again.
        try driver.pump(timeout: 5) { session in labels(session).contains("Options") }
        #expect(labels(driver.session).contains("Options"), "\(labels(driver.session))")
    }

    @Test("Chromium: a web <select> opens, its options are the level, Banana chosen through the switches",
          .enabled(if: RealApplication.isInstalled("/usr/bin/chromium")))
    func chromiumSelect() throws {
        let (process, found) = try RealApplication.start("chromium_page.sh", application: "chromium", title: "Page", seconds: 90)
        defer { LiveDesktop.stop(process, grace: 10) }
        let live = try #require(found, "Chromium's window never appeared on the accessibility bus")
        var driver = LiveDriver(live: live, settings: DemoWindow.settings())
        func labels(_ session: ScanSession) -> [String] { RealApplication.items(session).map { $0.label ?? "" } }
        try driver.pump(timeout: 20) { session in labels(session).contains("Fruit") }
        #expect(labels(driver.session).contains("Fruit") && !labels(driver.session).contains("Banana"), "\(labels(driver.session))")
        // The combo box, not the page's label "Fruit" beside it (static text of the same name).
        let count = RealApplication.items(driver.session).count
        for _ in 0...count where !(driver.highlightedLabel == "Fruit" && driver.highlightedElement?.traits.contains(.button) == true) {
            driver.press(.next)
        }
        try #require(driver.highlightedElement?.traits.contains(.button) == true, "no Fruit combo box: \(labels(driver.session))")
        driver.press(.select)
        try driver.pump(timeout: 5) { session in labels(session).contains("Banana") }
        #expect(Set(labels(driver.session)) == ["Apple", "Banana", "Cherry"], "\(labels(driver.session))")
        try RealApplication.press("Banana", &driver)
        // The page's combo box, read back through AT-SPI: Banana is its chosen option, the page's
        // handler ran, and the popup is closed.
        func banana() throws -> AccessibleObject? {
            try RealApplication.object(in: "chromium") { try $0.roleName() == "menu item" && $0.name() == "Banana" }
        }
        let end = MonotonicClock.now() + 10
        while try RealApplication.window(of: "chromium", titled: "Chose Banana") == nil, MonotonicClock.now() < end {
            try driver.pump(timeout: 0.3) { _ in false }
        }
        #expect(try RealApplication.window(of: "chromium", titled: "Chose Banana") != nil)
        #expect(try banana()?.states().contains(.selected) == true)
        try driver.pump(timeout: 5) { session in labels(session).contains("Press me") }
        #expect(labels(driver.session).contains("Press me") && !labels(driver.session).contains("Cherry"), "\(labels(driver.session))")
        // The scanner's combo box item says the chosen option, as Orca reads it.
        func fruit(_ session: ScanSession) -> AccessibilityModel.Element? {
            RealApplication.items(session).first { $0.label == "Fruit" && $0.traits.contains(.button) }
        }
        try driver.pump(timeout: 5) { session in fruit(session)?.value == "Banana" }
        #expect(fruit(driver.session)?.value == "Banana")
    }

    @Test("Chromium: a web <select> in a window another window has taken the focus from opens (the window is made active first)",
          .enabled(if: RealApplication.isInstalled("/usr/bin/chromium")))
    func chromiumSelectInInactiveWindow() throws {
        let (process, found) = try RealApplication.start("chromium_page.sh", application: "chromium", title: "Page", seconds: 90)
        defer { LiveDesktop.stop(process, grace: 10) }
        let live = try #require(found, "Chromium's window never appeared on the accessibility bus")
        var driver = LiveDriver(live: live, settings: DemoWindow.settings())
        func labels(_ session: ScanSession) -> [String] { RealApplication.items(session).map { $0.label ?? "" } }
        try driver.pump(timeout: 20) { session in labels(session).contains("Fruit") }
        // Another window appears and takes the focus, as a user's new window or a dialog does;
        // the scanner goes on scanning Chromium's. (Chromium closes a popup that opens in a
        // window that is not active: EXPANDED set and cleared at once.)
        let other = try LiveDesktop.shared.get().launch("gtk4_other_window.py")
        defer { LiveDesktop.stop(other, grace: 5) }
        func chromiumActive() throws -> Bool { try RealApplication.window(of: "chromium", titled: "Page")?.states.contains(.active) == true }
        let end = MonotonicClock.now() + 60
        while try chromiumActive(), MonotonicClock.now() < end { try driver.pump(timeout: 0.3) { _ in false } }
        try #require(try !chromiumActive(), "the other window never took the focus from Chromium's")
        let count = RealApplication.items(driver.session).count
        for _ in 0...count where !(driver.highlightedLabel == "Fruit" && driver.highlightedElement?.traits.contains(.button) == true) {
            driver.press(.next)
        }
        try #require(driver.highlightedElement?.traits.contains(.button) == true, "no Fruit combo box: \(labels(driver.session))")
        driver.press(.select)
        try driver.pump(timeout: 5) { session in labels(session).contains("Banana") }
        #expect(Set(labels(driver.session)) == ["Apple", "Banana", "Cherry"], "\(labels(driver.session))")
        #expect(try chromiumActive())
        try RealApplication.press("Banana", &driver)
        let chosen = MonotonicClock.now() + 10
        while try RealApplication.window(of: "chromium", titled: "Chose Banana") == nil, MonotonicClock.now() < chosen {
            try driver.pump(timeout: 0.3) { _ in false }
        }
        #expect(try RealApplication.window(of: "chromium", titled: "Chose Banana") != nil)
    }
}
