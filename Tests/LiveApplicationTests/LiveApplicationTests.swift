import Foundation
import Runtime
import Scanning
import Testing

/// A GTK 4 application (Tests/LiveApps/gtk4_demo.py) operated through AT-SPI on a desktop of
/// its own: what the scanner shows, and what selecting does in the application.
@Suite("Live GTK 4 application", .serialized, .enabled(if: LiveDesktop.isAvailable), .timeLimit(.minutes(1)))
struct LiveApplicationTests {
    static func settings() -> ScanSettings {
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.groupItems = false
        settings.tapBehavior = .alwaysTap
        settings.debounceTime = nil
        settings.focusedItemAfterTap = .current
        return settings
    }

    @Test("scan order, select runs the handler, Increment read back, a dialog takes the highlight, a changing label keeps it")
    func operateWindow() throws {
        let desktop = try LiveDesktop(app: "gtk4_demo.py")
        defer { desktop.stop() }
        // The tree appears about a second after a GTK 4 application starts: wait for it.
        var live: LiveApplication?
        let end = MonotonicClock.now() + 15
        while MonotonicClock.now() < end {
            let found = try LiveApplication(target: .init(application: "python"))
            if found.screenName == "Demo" { live = found; break }
            usleep(200_000)
        }
        let app = try #require(live, "the Demo window never appeared on the accessibility bus")
        var driver = LiveDriver(live: app, settings: Self.settings())
        let labels = driver.session.currentStructure().nodes.flatMap(\.items).map { $0.label ?? "" }
        #expect(labels == ["Button 0", "Button 1", "Button 2", "GtkScale", "Wi-Fi", "Count", "Count 0", "Open dialog"])
        #expect(driver.highlightedLabel == "Button 0")

        // Select on Button 1: the application's handler runs.
        driver.press(.next)
        #expect(driver.highlightedLabel == "Button 1")
        driver.press(.select)
        try driver.pump(timeout: 3) { _ in desktop.appOutput.contains("clicked Button 1") }
        #expect(desktop.appOutput.contains("clicked Button 1"))

        // The slider: Increment from the menu sets 50 + a tenth of 0…100, read back through AT-SPI.
        driver.press(.next); driver.press(.next)
        #expect(driver.highlightedLabel == "GtkScale")
        driver.press(.menu)
        let menu = driver.session.menuTitles ?? []
        #expect(menu.prefix(3) == ["Tap", "Increment", "Decrement"])
        driver.press(.next)
        #expect(driver.session.menuFocusTitle == "Increment")
        driver.press(.select)
        try driver.pump(timeout: 3) { session in
            session.currentStructure().nodes.flatMap(\.items).first { $0.label == "GtkScale" }?.value == "60"
        }
        #expect(driver.session.currentStructure().nodes.flatMap(\.items).first { $0.label == "GtkScale" }?.value == "60")
        #expect(desktop.appOutput.contains("value 60"))
        driver.press(.escape)

        // Count changes the label beside it: the highlight stays on Count.
        while driver.highlightedLabel != "Count", driver.session.menuTitles == nil { driver.press(.next); if driver.time > 20 { break } }
        #expect(driver.highlightedLabel == "Count")
        driver.press(.select)
        try driver.pump(timeout: 3) { session in session.currentStructure().nodes.flatMap(\.items).contains { $0.label == "Count 1" } }
        #expect(driver.session.currentStructure().nodes.flatMap(\.items).contains { $0.label == "Count 1" })
        #expect(driver.highlightedLabel == "Count")

        // Open dialog: the modal dialog is the screen now, its OK button highlighted.
        driver.press(.next); driver.press(.next)
        #expect(driver.highlightedLabel == "Open dialog")
        driver.press(.select)
        try driver.pump(timeout: 5) { session in session.screen == "Confirm" }
        #expect(driver.session.screen == "Confirm")
        #expect(driver.session.currentStructure().nodes.flatMap(\.items).map { $0.label ?? "" } == ["Really?", "OK"])
        #expect(["Really?", "OK"].contains(driver.highlightedLabel ?? ""))
    }
}
