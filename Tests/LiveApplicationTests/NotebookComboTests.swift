import Platform
import AccessibilityModel
import Atspi
import Foundation
import LiveTestSupport
import LiveTree
import Runtime
import Scanning
import Testing

extension LiveApplicationTests {
    @Test("Mousepad's preferences (GTK 3): a notebook tab selected through its Selection, its page scanned; a combo box opened and an option chosen",
          .enabled(if: RealApplication.isInstalled("/usr/bin/mousepad")))
    func mousepadPreferences() throws {
        let (process, found) = try RealApplication.start("mousepad_preferences.sh", application: "mousepad", title: "Preferences")
        defer { LiveDesktop.stop(process) }
        let live = try #require(found, "Mousepad's preferences never appeared on the accessibility bus")
        var driver = LiveDriver(live: live, settings: DemoWindow.settings())
        func labels(_ session: ScanSession) -> [String] { RealApplication.items(session).map { $0.label ?? "" } }
        // The notebook's tabs are items, and the page of the tab in front is scanned; the other
        // tabs' pages (VISIBLE all the same) are not.
        for label in ["View", "Editor", "Window", "File", "Show line numbers"] { #expect(labels(driver.session).contains(label), "\(labels(driver.session))") }
        #expect(!labels(driver.session).contains("Enable automatic indentation"), "\(labels(driver.session))")

        // A GTK 3 combo box: opened, its options the level, Cobalt chosen (a pointer click at its
        // middle); the application's combo box, read back, holds Cobalt (GTK names it after the
        // option's id). Mousepad keeps the choice only where its setting can be written
        // (`LiveDesktop.settingsInMemory`: without it the combo box went back to None at once).
        func colorScheme() throws -> AccessibleObject? {
            try RealApplication.object(in: "mousepad") { object in
                guard try object.roleName() == "combo box" else { return false }
                return try object.children().first?.children().contains { try $0.name() == "Cobalt" } == true
            }
        }
        #expect(try colorScheme()?.name() != "cobalt")
        // (GTK 3 names the combo box after its chosen option's id, and marks no option SELECTED
        // while the popup is closed.)
        #expect(BrowserControls.highlight(&driver) { $0.traits.contains(.button) && $0.label == "none" }, "\(labels(driver.session))")
        driver.press(.select)
        try driver.pump(timeout: 5) { session in labels(session).contains("Cobalt") }
        #expect(labels(driver.session).contains("Cobalt") && labels(driver.session).contains("Tango") && !labels(driver.session).contains("Editor"),
                "\(labels(driver.session))")
        try RealApplication.press("Cobalt", &driver)
        let end = MonotonicClock.now() + 5
        while try colorScheme()?.name() != "cobalt", MonotonicClock.now() < end { try driver.pump(timeout: 0.2) { _ in false } }
        #expect(try colorScheme()?.name() == "cobalt")
        try driver.pump(timeout: 5) { session in RealApplication.items(session).contains { $0.traits.contains(.button) && $0.label == "cobalt" } }
        #expect(RealApplication.items(driver.session).contains { $0.traits.contains(.button) && $0.label == "cobalt" }, "\(labels(driver.session))")
        // The popup closed, and the dialog stayed (an Escape the scanner sent after the click
        // closed the dialog in 2 runs of 3).
        try driver.pump(timeout: 5) { session in labels(session).contains("Editor") }
        #expect(labels(driver.session).contains("Editor") && !labels(driver.session).contains("Tango"), "\(labels(driver.session))")

        // The Editor tab (no action of its own): selected through the notebook's Selection,
        // read back from the application, and its page is what is scanned now.
        func editorTab() throws -> AccessibleObject? {
            try RealApplication.object(in: "mousepad") { try $0.roleName() == "page tab" && $0.name() == "Editor" }
        }
        #expect(try editorTab()?.actionNames().isEmpty == true)
        try RealApplication.press("Editor", &driver)
        let selected = MonotonicClock.now() + 5
        while try editorTab()?.states().contains(.selected) != true, MonotonicClock.now() < selected { try driver.pump(timeout: 0.2) { _ in false } }
        #expect(try editorTab()?.states().contains(.selected) == true)
        try driver.pump(timeout: 5) { session in labels(session).contains("Enable automatic indentation") }
        #expect(labels(driver.session).contains("Enable automatic indentation") && !labels(driver.session).contains("Show line numbers"),
                "\(labels(driver.session))")
    }
}
