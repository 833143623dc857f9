import Foundation
import LiveTestSupport
import Testing
import Platform

/// Whole tasks at the desktop with a window manager (Openbox) running, as a switch user does
/// them: `switchscan run --atspi` driven through its switch input (the terminal's Enter = next,
/// Space = select, written by the test as a switch interface sends its presses), each press
/// taken only once the run has answered the one before, and the outcome read through AT-SPI
/// from outside: on Firefox's page of 150 links, "Link 120" reached through the scanner menu's
/// Links list, in view (its extents inside the window) and followed; then Mousepad started from
/// the menu's programs, its window scanned, and closed from the menu.
@Suite("Desktop tasks", .serialized, .timeLimit(.minutes(10)),
       .enabled(if: LiveDesktop.isAvailable && ["/usr/bin/firefox-esr", "/usr/bin/openbox", "/usr/bin/mousepad"].allSatisfy {
           FileManager.default.isExecutableFile(atPath: $0)
       }))
struct DesktopTaskTests {
    /// Most presses the 120th link may cost (issue 27).
    static let mostPressesForLink = 40

    /// A run of switchscan on the test desktop, its switch presses counted and its trace read.
    final class SwitchRun {
        let process = Process()
        let keys = Pipe()
        let tracePath: String
        private(set) var presses = 0

        init(desktop: LiveDesktop, scratch: URL, arguments: [String]) throws {
            tracePath = scratch.appendingPathComponent("trace.jsonl").path
            let debugPath = scratch.appendingPathComponent("debug.txt").path
            FileManager.default.createFile(atPath: debugPath, contents: nil)
            FileManager.default.createFile(atPath: scratch.appendingPathComponent("output.txt").path, contents: nil)
            process.executableURL = try OverlayTests.binary()
            process.arguments = ["run", "--atspi", "--no-view", "--no-overlay", "--settings", "none", "--input", "terminal",
                                 "--braille", "none", "--trace", tracePath] + arguments
            // What the run starts (a program from the menu) gets the desktop's folder as its
            // runtime folder (stopped with the desktop) and settings of its own, never the user's.
            let own = try desktop.ownFolders(in: scratch).merging(["GTK_A11Y": "atspi", "SWITCHSCAN_LIVE_DEBUG": "1"]) { _, new in new }
            process.environment = ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new }
                .merging(own) { _, new in new }
            process.standardInput = keys
            process.standardOutput = try FileHandle(forWritingTo: scratch.appendingPathComponent("output.txt"))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: debugPath))
            try process.run()
        }

        func stop() {
            try? keys.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        var trace: String { (try? String(contentsOfFile: tracePath, encoding: .utf8)) ?? "" }
        var lines: [Substring] { trace.split(separator: "\n") }

        /// The last highlight's label (nil before the first).
        var highlighted: String? {
            lines.last { $0.contains("\"kind\":\"highlight\"") }.flatMap { RunTrace.field("label", of: $0) }
        }

        /// The last highlight's id (nil before the first).
        var highlightedID: String? {
            lines.last { $0.contains("\"kind\":\"highlight\"") }.flatMap { RunTrace.field("id", of: $0) }
        }

        /// The open menu's focused entry (nil while no menu is open).
        var menuFocus: String? {
            guard let line = lines.last(where: { $0.contains("\"kind\":\"menu\"") || $0.contains("\"kind\":\"highlight\"") }),
                  line.contains("\"kind\":\"menu\"") else { return nil }
            return RunTrace.field("focus", of: line)
        }

        /// Presses a switch (Enter: next, Space: select) and waits until the run has answered
        /// (a highlight, a menu, a screen or an action in the trace after the press).
        func press(_ key: String) throws {
            let before = lines.count
            try keys.fileHandleForWriting.write(contentsOf: Data(key.utf8))
            presses += 1
            _ = OverlayTests.waitFor(10) {
                lines.dropFirst(before).contains {
                    ["\"kind\":\"highlight\"", "\"kind\":\"menu\"", "\"kind\":\"screen\"", "\"kind\":\"perform\""].contains(where: $0.contains)
                }
            }
            // Answers that come in parts (a screen, then its highlight) are all in.
            MonotonicClock.sleep(seconds: 0.3)
        }

        /// Select into the automatic groups down to an item, and select to open its menu.
        func openItemMenu() throws {
            for _ in 0..<8 where highlightedID?.hasPrefix("auto:") == true { try select() }
            try select()
        }

        func next() throws { try press("\n") }
        func select() throws { try press(" ") }

        /// Next until the highlight's label satisfies `wanted` (at most `most` presses); true if it does.
        func highlight(most: Int, _ wanted: (String) -> Bool) throws -> Bool {
            for _ in 0..<most where !(highlighted.map(wanted) ?? false) { try next() }
            return highlighted.map(wanted) ?? false
        }

        /// Next until the menu's focus is on an entry starting with `title`, then select it.
        func choose(_ title: String, most: Int = 20) throws -> Bool {
            for _ in 0..<most where !(menuFocus?.hasPrefix(title) ?? false) { try next() }
            guard menuFocus?.hasPrefix(title) == true else { return false }
            try select()
            return true
        }
    }

    /// Whether a list group's label (`Link 113 … Link 120`) or an item's holds link `number`.
    static func holdsLink(_ label: String, _ number: Int) -> Bool {
        let numbers = label.components(separatedBy: "Link ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        if numbers.count == 2 { return numbers[0] <= number && number <= numbers[1] }
        return numbers == [number]
    }

    /// The extents "x y width height" the probe prints, as numbers.
    static func rect(_ text: String) -> [Double]? {
        let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        return numbers.count == 4 ? numbers : nil
    }

    @Test("on a page of 150 links, Link 120 is reached through the Links list, in view, and followed; Mousepad is started from the menu, scanned, and closed from the menu")
    func linksAndPrograms() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-desktop-\(CurrentProcess.id)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let desktop = try LiveDesktop(apps: [])
        defer { desktop.stop() }
        let windowManager = try desktop.startWindowManager()
        defer { LiveDesktop.stop(windowManager) }
        let firefox = try desktop.launch("firefox_page.sh", arguments: ["links.html"])
        defer { LiveDesktop.stop(firefox, grace: 10) }
        #expect(OverlayTests.waitFor(120) { (try? OverlayTests.probe(desktop, ["extents", "Link 150"]))?.isEmpty == false },
                "Firefox's page never appeared on the accessibility bus")

        let run = try SwitchRun(desktop: desktop, scratch: scratch, arguments: ["--app", "firefox", "--set", "scanning=manual"])
        defer { run.stop() }
        try #require(OverlayTests.waitFor(60) { run.highlightedID != nil }, "nothing was highlighted: \(run.trace.suffix(2000))")

        // Link 120: select enters the page's automatic groups down to an item, and opens its
        // menu; its Links entry lists the page's links in groups.
        let start = Date()
        try jump(to: 120, run)
        let link = try #require(Self.rect(try OverlayTests.probe(desktop, ["extents", "Link 120"])), "Link 120 has no extents")
        let window = try #require(Self.rect(try OverlayTests.probe(desktop, ["app-window-extents", "Firefox"])), "no Firefox window")
        #expect(link[0] >= window[0] && link[1] >= window[1] && link[0] + link[2] <= window[0] + window[2] && link[1] + link[3] <= window[1] + window[3],
                "Link 120 at \(link) is outside the window \(window)")
        // Followed: select on it, Tap; the page says so (its handler retitles the window).
        try run.openItemMenu()
        #expect(try run.choose("Tap"))
        #expect(OverlayTests.waitFor(20) { (try? OverlayTests.probe(desktop, ["windows"]))?.contains("Followed Link 120") == true },
                "the link was not followed: \((try? OverlayTests.probe(desktop, ["windows"])) ?? "")")
        let linkSeconds = Date().timeIntervalSince(start)
        let linkPresses = run.presses
        print("Desktop tasks: Link 120 reached and followed in \(linkPresses) presses, \(String(format: "%.1f", linkSeconds)) s")
        #expect(linkPresses <= Self.mostPressesForLink)

        // Scroll up from the menu, on Link 120 again (the tap's highlight went to the window's
        // first item, and the page with it): the page moves down by about a window (Link 120
        // out of view below), the highlight stays. Next then highlights another row of the
        // same group, out of view too: it is scrolled into view.
        let scrollStart = Date(), pressesBeforeScroll = run.presses
        try jump(to: 120, run)
        try run.openItemMenu()
        #expect(try run.choose("Scroll up"), "no Scroll up: \(run.lines.suffix(3))")
        var moved: [Double]?
        #expect(OverlayTests.waitFor(10) {
            moved = Self.rect((try? OverlayTests.probe(desktop, ["extents", "Link 120"])) ?? "")
            return (moved?[1] ?? 0) >= window[1] + window[3]
        }, "the page did not scroll up: Link 120 at \(moved ?? []), was \(link), the window \(window)")
        let rowsBefore = run.lines.count
        // The rows come one by one, or in an automatic group of rows, which is entered.
        for _ in 0..<8 where !(run.lines.dropFirst(rowsBefore).contains { $0.contains("\"kind\":\"highlight\"") && $0.contains("Link 1") }) {
            if run.highlightedID?.hasPrefix("auto:") == true, run.highlighted == nil { try run.select() } else { try run.next() }
        }
        // The row highlighted (after the scroll the window is read again and regrouped: the
        // highlight may then be on the group of rows that holds it).
        let rowLabels = run.lines.dropFirst(rowsBefore).filter { $0.contains("\"kind\":\"highlight\"") }
            .compactMap { RunTrace.field("label", of: $0) }.filter { $0.contains("Link ") }
        let reached = try #require(rowLabels.last.flatMap { label in label.range(of: "Link ").map { String(label[$0.lowerBound...]) } },
                                   "no row highlighted: \(run.lines.suffix(3))")
        #expect(OverlayTests.waitFor(10) {
            guard let now = Self.rect((try? OverlayTests.probe(desktop, ["extents", reached])) ?? "") else { return false }
            return now[1] >= window[1] && now[1] + now[3] <= window[1] + window[3]
        }, "\(reached), highlighted, is not in view: \(run.lines.suffix(3))")
        print("Desktop tasks: Scroll up and a row out of view highlighted into view in \(run.presses - pressesBeforeScroll) presses, \(String(format: "%.1f", Date().timeIntervalSince(scrollStart))) s")

        // Mousepad from the menu's programs: Accessories, Mousepad, Tap; its window is then scanned.
        let programsStart = Date(), pressesBefore = run.presses
        try run.openItemMenu()
        #expect(try run.choose("Start a program"))
        #expect(try run.highlight(most: 20) { $0 == "Accessories" || $0.hasPrefix("Accessories") || Self.groupHolds($0, "Accessories") },
                "no Accessories: \(run.lines.suffix(5))")
        try run.select()
        #expect(try run.highlight(most: 20) { $0 == "Mousepad" }, "no Mousepad: \(run.lines.suffix(5))")
        try run.select()
        #expect(try run.choose("Tap"))
        #expect(OverlayTests.waitFor(90) { run.lines.last { $0.contains("\"kind\":\"screen\"") }?.contains("Mousepad") == true },
                "Mousepad's window was never scanned: \(run.trace.suffix(3000))")
        #expect(OverlayTests.waitFor(10) { run.lines.last { $0.contains("\"kind\":\"screen\"") }.map { line in
            run.lines.reversed().prefix { $0 != line }.contains { $0.contains("\"kind\":\"highlight\"") }
        } ?? false }, "nothing in Mousepad's window was highlighted")
        let startSeconds = Date().timeIntervalSince(programsStart)
        let startPresses = run.presses - pressesBefore
        print("Desktop tasks: Mousepad started and scanned in \(startPresses) presses, \(String(format: "%.1f", startSeconds)) s")
        let uses = (try? String(contentsOf: scratch.appendingPathComponent("state/switchscan/programs.tsv"), encoding: .utf8)) ?? ""
        #expect(uses.contains("mousepad"), "the start was not counted: \(uses)")

        // Closed from the menu: the window manager closes it, the scanner is back on Firefox.
        let closeStart = Date(), pressesBeforeClose = run.presses
        try run.openItemMenu()
        #expect(try run.choose("Close window"))
        let closed = OverlayTests.waitFor(20) { (try? OverlayTests.probe(desktop, ["windows"]))?.contains("ousepad") == false }
        let closeSeconds = Date().timeIntervalSince(closeStart)
        print("Desktop tasks: Mousepad closed in \(run.presses - pressesBeforeClose) presses, \(String(format: "%.1f", closeSeconds)) s; said: \(run.lines.filter { $0.contains("Alt+F4") || $0.contains("close action") }.suffix(1))")
        #expect(closed, "Mousepad's window is still there: \((try? OverlayTests.probe(desktop, ["windows"])) ?? "")")
        #expect(OverlayTests.waitFor(20) { run.lines.last { $0.contains("\"kind\":\"screen\"") }?.contains("Firefox") == true },
                "the scanner did not go back to Firefox: \(run.lines.suffix(5))")
        if let pid = Int32((try? OverlayTests.probe(desktop, ["pid", "mousepad"]))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") {
            try? ProcessSignal.send(SIGTERM, to: pid)
        }
        #expect(run.process.isRunning)
    }

    /// Through the item's menu and its Links list, the highlight back on the page on link `number`.
    func jump(to number: Int, _ run: SwitchRun) throws {
        try run.openItemMenu()
        #expect(try run.choose("Links ("), "no Links entry: \(run.lines.suffix(3))")
        for _ in 0..<3 where !(run.highlighted == "Link \(number)") {
            try #require(try run.highlight(most: 9) { Self.holdsLink($0, number) }, "no group holds Link \(number): \(run.lines.suffix(5))")
            if run.highlighted == "Link \(number)" { break }
            try run.select()
        }
        try #require(run.highlighted == "Link \(number)", "\(run.lines.suffix(5))")
        // Chosen in the list: back on the page, the highlight on the link's row, scrolled into view.
        try run.select()
        #expect(try run.choose("Tap"))
        #expect(OverlayTests.waitFor(10) {
            run.highlighted?.hasSuffix("Link \(number)") == true
                && run.lines.last { $0.contains("\"kind\":\"screen\"") }?.contains("\"name\":\"Links\"") == false
        }, "not back on the page's Link \(number): \(run.lines.suffix(4))")
    }

    /// Whether a group of categories' label (`Accessories … Internet`) spans `name`.
    static func groupHolds(_ label: String, _ name: String) -> Bool {
        let parts = label.components(separatedBy: " … ")
        return parts.count == 2 && parts[0].lowercased() <= name.lowercased() && name.lowercased() <= parts[1].lowercased()
    }
}
