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

/// A GTK 3 list of 10,000 rows (Tests/LiveApps/gtk3_long_list.py, 20,000 objects) scanned in
/// the test process: its first screenful is read with the window and the other rows between
/// loop turns; every row becomes an item, the last one is reached, and a row the application
/// appends (GTK 3 sends no children-changed for it) becomes an item without the list being read
/// again. How fast is the benchmark's (`switchscan-bench live`), not this test's.
// In the "Live applications" suite, whose tests run one at a time: this test reads through
// libatspi in the test process, which is not made for two threads; as a suite of its own it ran
// beside that suite's in-process reads, and two full runs lost rows, one of them crashing in GLib.
extension LiveApplicationTests {
    static let bigListRows = 10_000

    @Test("a 10,000-row GTK 3 list: every row scannable, the last one reached; an appended row becomes an item", .timeLimit(.minutes(15)))
    func longList() throws {
        let desktop = try LiveDesktop.shared.get()
        let app = try desktop.launch("gtk3_long_list.py", environment: ["LONG_LIST_OBJECTS": String(2 * Self.bigListRows)])
        defer { LiveDesktop.stop(app) }
        let end = MonotonicClock.now() + LiveDesktop.startLimit
        while !desktop.output(of: "gtk3_long_list.py").contains(where: { $0.hasPrefix("ready ") }), MonotonicClock.now() < end { MonotonicClock.sleep(seconds: 0.1) }
        var live: LiveApplication?
        while MonotonicClock.now() < end {
            let found = try LiveApplication(target: .init(window: "Long list"))
            if found.screenName == "Long list" { live = found; break }
            MonotonicClock.sleep(seconds: 0.2)
        }
        let application = try #require(live, "the Long list window never appeared on the accessibility bus")
        var driver = LiveDriver(live: application, settings: DemoWindow.settings())
        func rowLabels(_ session: ScanSession) -> [String] {
            session.currentStructure().nodes.flatMap(\.items).compactMap(\.label).filter { $0.hasPrefix("Row ") || $0.hasPrefix("Appended ") }
        }
        // The application's cache (GetItems, one call) holds the window but not the list's rows:
        // GTK 3's list box manages its descendants, and the cache leaves them out (libatspi reads
        // the same cache itself; the rows are read object by object, the first screenful first).
        let bus = try #require(try Atspi.desktop().children().first { (try? $0.name()) == "gtk3_long_list.py" }?.busName)
        let cache = try Atspi.cacheItems(busName: bus)
        #expect(cache.problems.isEmpty)
        let frame = try #require(cache.items.first { $0.name == "Long list" })
        let part = cache.tree(under: frame.id)
        #expect(part.incomplete.count == 1, "the list box is not the one object whose children the cache leaves out")
        #expect(part.ids.count < 2 * Self.bigListRows)

        // Its first row is highlighted before the rest of the list is read.
        #expect(driver.highlightedLabel == "Row 0")

        // The rest comes between loop turns (a guard against a read that never ends, not a speed target).
        try driver.pump(timeout: 600) { _ in application.isReadWhole }
        #expect(application.isReadWhole, "the list's rows were not all read")
        let labels = rowLabels(driver.session)
        #expect(labels.count == Self.bigListRows)
        #expect(labels.first == "Row 0")
        #expect(labels.last == "Row \(Self.bigListRows - 1)")
        #expect(Set(labels).count == Self.bigListRows, "a row is scanned twice")

        // The last row is reached (Previous from the first item goes round to the end).
        for _ in 0..<3 where driver.highlightedLabel != "Row \(Self.bigListRows - 1)" { driver.press(.previous) }
        #expect(driver.highlightedLabel == "Row \(Self.bigListRows - 1)")

        // A row appended: an item, placed after the last row from the event that says its label's
        // new parent (not by a window read).
        let placedBefore = application.placedObjects
        try ProcessSignal.send(SIGUSR2, to: app.processIdentifier)
        try driver.pump(timeout: 60) { session in rowLabels(session).last == "Appended 1" }
        #expect(rowLabels(driver.session).last == "Appended 1")
        #expect(rowLabels(driver.session).count == Self.bigListRows + 1)
        #expect(application.placedObjects == placedBefore + 1, "the appended row was not placed from its event")
        for _ in 0..<3 where driver.highlightedLabel != "Appended 1" { driver.press(.next) }
        #expect(driver.highlightedLabel == "Appended 1")

        // As a user reaches the last row with automatic groups (the default): Previous goes round
        // to the level's last entry, select enters the group that holds the row, down to the row,
        // in a bounded number of presses. The row, out of view, is scrolled to as the run does
        // when it is highlighted, and then has a frame in the window (the overlay is drawn on it);
        // the scroll reads the rows around it again, not the window's 20,000 objects.
        try reachLastRow("Appended 1", of: application)
    }

    /// Most presses the last row may cost with automatic groups.
    static let mostPressesForLastRow = 40

    func reachLastRow(_ last: String, of application: LiveApplication) throws {
        var settings = DemoWindow.settings()
        settings.groupItems = true
        var user = LiveDriver(live: application, settings: settings)
        let windowReads = application.windowReads, frameReads = application.frameReads
        func barValue(_ session: ScanSession) -> Double {
            session.currentStructure().nodes.flatMap(\.items).filter { $0.traits.contains(.adjustable) }.compactMap { $0.value.flatMap(Double.init) }.max() ?? 0
        }
        let barBefore = barValue(user.session)
        for _ in 0..<Self.mostPressesForLastRow {
            guard case .entry(let node) = user.session.engine.highlight else {
                user.press(.previous)
                continue
            }
            if !node.isGroup, node.element.label == last { break }
            user.press(node.isGroup && node.items.contains { $0.label == last } ? .select : .previous)
            // What the run does with each highlight shown: a row out of view is scrolled to.
            application.highlightShown(user.session.engine.highlight)
            try user.pump(timeout: 0.3) { _ in false }
        }
        // The scroll's update (a layout change) taken by the session: the list's scroll bar moved.
        try user.pump(timeout: 10) { session in barValue(session) > barBefore }
        #expect(user.highlightedLabel == last, "the last row was not reached in \(Self.mostPressesForLastRow) presses")
        print("Big windows: the last row reached with automatic groups in \(user.presses) presses")
        #expect(application.windowReads == windowReads, "scrolling to the last row read the window again")
        #expect(application.frameReads > frameReads, "the last row was not scrolled to")
        // The list scrolled down to the row (the bar at its end), as the user sees it. (GTK 3
        // then gives the row its place in the whole list, about y = 197,000, not on the screen:
        // the overlay is not drawn on it.)
        #expect(barValue(user.session) > barBefore, "the list's scroll bar did not move: the row was not scrolled into view")
        print("Big windows: the scroll bar at \(barValue(user.session)), the row's frame \(user.highlightedElement?.frame.map { "\($0)" } ?? "none")")
    }
}
