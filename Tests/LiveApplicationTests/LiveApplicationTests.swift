import AccessibilityModel
import Atspi
import Foundation
import LiveTestSupport
import LiveTree
import Runtime
import Scanning
import Testing
import TestTier
import Platform

/// The demo window (Tests/LiveApps: the same window written for GTK 4, GTK 3 and Qt 5), operated
/// through AT-SPI on a desktop of its own: what the scanner shows, and what selecting does in
/// the application. One set of checks; what differs between toolkits is said in `Toolkit`.
struct DemoWindow {
    /// What one toolkit's demo application publishes differently.
    struct Toolkit {
        /// The script in Tests/LiveApps.
        var script: String
        /// Part of its application's name on the bus.
        var application: String
        /// The slider's label: none in any toolkit (GTK 4.8 names it after its class, `GtkScale`,
        /// which is no name; GTK 3 and Qt give it none).
        var sliderLabel: String?
        /// The slider's value after one Increment from 50 in 0…100: GTK 3 and Qt publish their
        /// step (1) as the minimum increment; GTK 4.8 publishes 0, and the scanner steps a tenth
        /// of the range.
        var incremented: String
        /// Its application's whole name on the bus.
        var busName: String
    }

    static let gtk4 = Toolkit(script: "gtk4_demo.py", application: "python", sliderLabel: nil, incremented: "60", busName: "python3")
    static let gtk3 = Toolkit(script: "gtk3_demo.py", application: "gtk3_demo", sliderLabel: nil, incremented: "51", busName: "gtk3_demo.py")
    static let qt5 = Toolkit(script: "qt5_demo.py", application: "qt5_demo", sliderLabel: nil, incremented: "51", busName: "qt5_demo")

    static func settings() -> ScanSettings {
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.groupItems = false
        settings.tapBehavior = .alwaysTap
        settings.debounceTime = nil
        settings.focusedItemAfterTap = .current
        return settings
    }

    /// Waits for the Demo window (a GTK 4 tree appears a second or more after start), at most
    /// `LiveDesktop.startLimit` seconds.
    static func waitForDemo(application: String) throws -> LiveApplication? {
        let end = MonotonicClock.now() + LiveDesktop.startLimit
        while MonotonicClock.now() < end {
            let found = try LiveApplication(target: .init(application: application))
            if found.screenName == "Demo" { return found }
            MonotonicClock.sleep(seconds: 0.2)
        }
        return nil
    }

    /// Scan order, select runs the handler, Increment read back, a changing label keeps the
    /// highlight, a dialog takes it.
    static func operate(_ toolkit: Toolkit) throws {
        let desktop = try LiveDesktop.shared.get()
        func appOutput() -> [String] { desktop.output(of: toolkit.script) }
        let app = try #require(try waitForDemo(application: toolkit.application),
                               "the Demo window never appeared on the accessibility bus")
        var driver = LiveDriver(live: app, settings: settings())
        // (Closures given to `pump` read the session it passes: `driver` is being mutated then.)
        func items(_ session: ScanSession) -> [AccessibilityModel.Element] { session.currentStructure().nodes.flatMap(\.items) }
        let labels = items(driver.session).map { $0.label ?? "" }
        #expect(labels == ["Button 0", "Button 1", "Button 2", toolkit.sliderLabel ?? "", "Wi-Fi", "Count", "Count 0", "Open dialog"])
        #expect(driver.highlightedLabel == "Button 0")

        // Select on Button 1: the application's handler runs.
        driver.press(.next)
        #expect(driver.highlightedLabel == "Button 1")
        driver.press(.select)
        try driver.pump(timeout: 30) { _ in appOutput().contains("clicked Button 1") }
        #expect(appOutput().contains("clicked Button 1"))

        // The slider: Increment from the menu, read back through AT-SPI and reported by the app.
        driver.press(.next); driver.press(.next)
        #expect(driver.highlightedLabel == toolkit.sliderLabel)
        #expect(driver.highlightedElement?.traits.contains(.adjustable) == true)
        driver.press(.menu)
        let menu = driver.session.menuTitles ?? []
        #expect(menu.prefix(3) == ["Tap", "Increment", "Decrement"])
        driver.press(.next)
        #expect(driver.session.menuFocusTitle == "Increment")
        driver.press(.select)
        func sliderValue(_ session: ScanSession) -> String? { items(session).first { $0.traits.contains(.adjustable) }?.value }
        try driver.pump(timeout: 30) { session in sliderValue(session) == toolkit.incremented }
        #expect(sliderValue(driver.session) == toolkit.incremented)
        try driver.pump(timeout: 30) { _ in appOutput().contains("value \(toolkit.incremented)") }
        #expect(appOutput().contains("value \(toolkit.incremented)"))
        // The events the change sends (a value, a state, a text) keep the scanner menu open on
        // Increment: a further step is one more select.
        try driver.pump(timeout: 1) { _ in false }
        #expect(driver.session.menuFocusTitle == "Increment", "the scanner menu closed after Increment")
        if driver.session.menuFocusTitle == "Increment" {
            driver.press(.select)
            let twice = AccessibleValue(current: 50, minimum: 0, maximum: 100, minimumIncrement: toolkit.incremented == "60" ? 0 : 1).stepped(by: 2)
            try driver.pump(timeout: 3) { session in sliderValue(session) == AccessibleMapping.format(twice) }
            #expect(sliderValue(driver.session) == AccessibleMapping.format(twice))
        }
        driver.press(.escape)

        // Count changes the label beside it: the highlight stays on Count.
        while driver.highlightedLabel != "Count", driver.session.menuTitles == nil { driver.press(.next); if driver.time > 20 { break } }
        #expect(driver.highlightedLabel == "Count")
        try driver.pump(timeout: 0.5) { _ in false }
        let readsBefore = app.windowReads
        driver.press(.select)
        try driver.pump(timeout: 30) { session in items(session).contains { $0.label == "Count 1" } }
        #expect(items(driver.session).contains { $0.label == "Count 1" })
        #expect(driver.highlightedLabel == "Count")
        // The label's rename and the relayout it causes are read in place, in one batch: a window
        // read at most (once, each of the relayout's events read the whole window again).
        try driver.pump(timeout: 0.5) { _ in false }
        #expect(app.windowReads - readsBefore <= 1, "the window was read \(app.windowReads - readsBefore) times for one label change")

        // Open dialog: the modal dialog is the screen now, its OK button highlighted.
        driver.press(.next); driver.press(.next)
        #expect(driver.highlightedLabel == "Open dialog")
        driver.press(.select)
        try driver.pump(timeout: 30) { session in session.screen == "Confirm" }
        #expect(driver.session.screen == "Confirm")
        #expect(items(driver.session).map { $0.label ?? "" } == ["Really?", "OK"])
        #expect(["Really?", "OK"].contains(driver.highlightedLabel ?? ""))

        // OK closes it: the window is the screen again (and the application as it started).
        if driver.highlightedLabel != "OK" { driver.press(.next) }
        #expect(driver.highlightedLabel == "OK")
        driver.press(.select)
        try driver.pump(timeout: 30) { session in session.screen == "Demo" }
        #expect(appOutput().contains("dialog OK"))
        #expect(driver.session.screen == "Demo")
        #expect(items(driver.session).first?.label == "Button 0")
    }

    /// The scanner menu lists the other applications' windows; choosing one makes it the screen,
    /// and select then runs that application's handler.
    static func switchApplication(from toolkit: Toolkit, to other: Toolkit) throws {
        let desktop = try LiveDesktop.shared.get()
        let app = try #require(try waitForDemo(application: toolkit.application),
                               "the Demo window never appeared on the accessibility bus")
        var driver = LiveDriver(live: app, settings: settings())
        let wanted = "Switch to Demo (\(other.busName))"
        driver.press(.menu)
        let menu = driver.session.menuTitles ?? []
        #expect(menu.first == "Tap")
        #expect(menu.contains(wanted), "\(menu)")
        #expect(!menu.contains("Switch to Demo (\(toolkit.busName))"), "the window scanned is not offered")
        #expect(menu.last == "Exit menu")
        driver.moveMenuFocus(to: wanted)
        #expect(driver.session.menuFocusTitle == wanted)
        let before = desktop.output(of: toolkit.script).filter { $0 == "clicked Button 0" }.count
        driver.press(.select)
        #expect(app.applicationName == other.busName)
        #expect(driver.session.screen == "Demo")
        #expect(driver.highlightedLabel == "Button 0")
        driver.press(.select)
        try driver.pump(timeout: 30) { _ in desktop.output(of: other.script).contains("clicked Button 0") }
        #expect(desktop.output(of: other.script).contains("clicked Button 0"))
        #expect(desktop.output(of: toolkit.script).filter { $0 == "clicked Button 0" }.count == before)
    }
}

extension DemoWindow {
    /// The focus moved to another application's window by other means: here the test gives
    /// the GTK 3 demo's Button 2 the keyboard focus through AT-SPI, as a click would (GTK 3
    /// presents its window, and X, with no window manager, focuses it: `window:activate`; GTK
    /// does not when it shows a new dialog there). The scanner, on another application's window,
    /// follows it, and select runs the GTK 3 application's handler.
    static func followFocus(from other: Toolkit) throws {
        let desktop = try LiveDesktop.shared.get()
        _ = try #require(try waitForDemo(application: other.application), "the Demo window never appeared on the accessibility bus")
        // The whole desktop (no --app: the command line names no application to keep to), on
        // the other demo's window, chosen with the app switcher if it is not the one shown.
        let app = try LiveApplication(target: .init())
        var driver = LiveDriver(live: app, settings: settings())
        if app.applicationName != other.busName {
            driver.press(.menu)
            driver.moveMenuFocus(to: "Switch to Demo (\(other.busName))")
            #expect(driver.session.menuFocusTitle == "Switch to Demo (\(other.busName))")
            driver.press(.select)
        }
        #expect(app.applicationName == other.busName)

        let gtk3 = try #require(try Atspi.desktop().children().first { try $0.name() == DemoWindow.gtk3.busName })
        func button(_ name: String, in object: AccessibleObject) throws -> AccessibleObject? {
            if try object.name() == name, try object.roleName() == "push button" { return object }
            for child in try object.children() { if let found = try button(name, in: child) { return found } }
            return nil
        }
        let window = try #require(try gtk3.children().first { try $0.name() == "Demo" })
        try #require(!window.states().contains(.active), "the GTK 3 window already has the focus: nothing would move it")
        try #require(try button("Button 2", in: gtk3)).grabFocus()
        try driver.pump(timeout: 30) { _ in app.applicationName == DemoWindow.gtk3.busName }
        #expect(app.applicationName == DemoWindow.gtk3.busName)
        #expect(driver.session.screen == "Demo")
        #expect(driver.highlightedLabel == "Button 0")
        let before = desktop.output(of: DemoWindow.gtk3.script).filter { $0 == "clicked Button 0" }.count
        driver.press(.select)
        try driver.pump(timeout: 30) { _ in desktop.output(of: DemoWindow.gtk3.script).filter { $0 == "clicked Button 0" }.count > before }
        #expect(desktop.output(of: DemoWindow.gtk3.script).filter { $0 == "clicked Button 0" }.count == before + 1)
    }

    static func items(_ session: ScanSession) -> [AccessibilityModel.Element] { session.currentStructure().nodes.flatMap(\.items) }
}

/// One suite, its tests one after the other: they share the one desktop and libatspi's one
/// connection (see `LiveDesktop.shared`); each application is found by its own name.
/// The time limit guards against a hang (a desktop that never answers), not speed: starting Xvfb,
/// the buses and the applications took over a minute once on a machine busy with builds.
@Suite("Live applications", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start an Xvfb desktop"), .serialized, .enabled(if: LiveDesktop.isAvailable), .timeLimit(.minutes(15)))
struct LiveApplicationTests {
    @Test("GTK 4: scan order, select runs the handler, Increment read back, a changing label keeps the highlight, a dialog takes it")
    func gtk4() throws {
        try DemoWindow.operate(DemoWindow.gtk4)
    }

    @Test("GTK 3: the same checks")
    func gtk3() throws {
        try DemoWindow.operate(DemoWindow.gtk3)
    }

    @Test("Qt 5: the same checks", .enabled(if: LiveDesktop.hasPyQt5))
    func qt5() throws {
        try DemoWindow.operate(DemoWindow.qt5)
    }

    @Test("The scanner menu switches to another application's window (the app switcher)")
    func appSwitcher() throws {
        try DemoWindow.switchApplication(from: DemoWindow.gtk3, to: LiveDesktop.hasPyQt5 ? DemoWindow.qt5 : DemoWindow.gtk4)
    }

    @Test("The scanner follows the focus to another application's window (window:activate)")
    func followFocus() throws {
        try DemoWindow.followFocus(from: LiveDesktop.hasPyQt5 ? DemoWindow.qt5 : DemoWindow.gtk4)
    }
}
