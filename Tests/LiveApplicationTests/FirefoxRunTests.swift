import Foundation
import LiveTestSupport
import Testing
import Platform

/// `switchscan run --atspi` auto-scanning Debian's Firefox ESR (Tests/LiveApps/firefox_page.sh,
/// a fresh profile showing browser.html) as a switch user runs it, read back from the run's trace
/// and its debug lines: the highlight moves at every step, the window is read whole a handful of
/// times, a scanner menu stays open until the user closes it, a row the page appends is reached,
/// and once a second tab is in front the first tab's links are never highlighted. Firefox once
/// made the run read the window about 20 times a second: each read met objects Firefox had
/// replaced, libatspi answered each such call with an `object:state-changed:defunct` event of its
/// own (a listener that calls nothing sees none), and each of those read the window again.
@Suite("Firefox", .serialized, .timeLimit(.minutes(5)),
       .enabled(if: FirefoxAutoScan.isAvailable))
struct FirefoxRunTests {
    /// Seconds of auto scanning measured (CPU, steps, window reads).
    static let measuredSeconds = 60.0
    /// The auto scanning step of the run.
    static let step = 0.5
    /// Most of a core the run may use while scanning Firefox: a guard against a spin, not a speed test.
    static let mostCPUShare = 0.5
    /// Most whole-window reads while nothing in the window changes but the page's own churn.
    static let mostWindowReads = 5

    @Test("auto scanning Firefox: the highlight moves every step, few window reads, a menu stays open, an appended row is reached, a background tab is not scanned")
    func firefox() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-firefox-\(CurrentProcess.id)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let scan = try FirefoxAutoScan(switchscan: OverlayTests.binary().path, scratch: scratch.path, step: Self.step) { desktop in
            #expect(OverlayTests.waitFor(90) { (try? OverlayTests.probe(desktop, ["extents", "Add row"]))?.isEmpty == false },
                    "Firefox's page never appeared on the accessibility bus")
        }
        defer { scan.stop() }
        let desktop = scan.desktop, run = scan.run
        func traceText() -> String { scan.trace }
        func debugText() -> String { scan.debug }
        func labels(after count: Int) -> [String] { scan.highlights.dropFirst(count).map(\.label) }

        try #require(OverlayTests.waitFor(30) { labels(after: 0).contains("Add row") },
                     "the page's button was never highlighted: \(traceText().suffix(2000))")

        // Auto scanning, the user pressing nothing: every highlight row is a step to another item.
        let before = scan.highlights.count
        let readsBefore = scan.windowReads
        let cpuBefore = try #require(ProcessStatistics.cpuSeconds(of: run.processIdentifier))
        MonotonicClock.sleep(seconds: Self.measuredSeconds)
        let cpu = try #require(ProcessStatistics.cpuSeconds(of: run.processIdentifier)) - cpuBefore
        let steps = scan.highlights.dropFirst(before)
        let reads = scan.windowReads - readsBefore
        print("Firefox: \(cpu) s of CPU in \(Self.measuredSeconds) s of auto scanning (\(cpu / Self.measuredSeconds * 100) % of a core), \(steps.count) highlights, \(reads) window reads")
        #expect(cpu < Self.mostCPUShare * Self.measuredSeconds, "\(cpu) s of CPU in \(Self.measuredSeconds) s: \(debugText().suffix(3000))")
        // One highlight a step (a few steps of slack for a loaded machine), never the same twice in a row.
        let expected = Int(Self.measuredSeconds / Self.step)
        #expect(steps.count >= expected * 3 / 4 && steps.count <= expected + 4, "\(steps.count) highlights in \(Self.measuredSeconds) s")
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.id != $1.id }, "the highlight stood still")
        #expect(reads <= Self.mostWindowReads, "\(reads) window reads")

        // A row the page appends (a children change of its list) is reached by the scan.
        #expect(try OverlayTests.probe(desktop, ["action", "Add row"]).contains("done"))
        let afterAdd = scan.highlights.count
        #expect(OverlayTests.waitFor(30) { labels(after: afterAdd).contains { $0.contains("Row 2") } },
                "the appended row was never highlighted: \(Set(labels(after: afterAdd)))")

        // Select opens the scanner menu; it stays open while the page goes on, until the menu key.
        try scan.type(" ")
        #expect(OverlayTests.waitFor(5) { traceText().contains("\"kind\":\"menu\",\"entries\":[\"") })
        let opened = traceText().count
        MonotonicClock.sleep(seconds: 3.0)
        #expect(!traceText().dropFirst(opened).contains("\"kind\":\"menu\",\"entries\":[]"), "the menu closed by itself")
        try scan.type("m")
        #expect(OverlayTests.waitFor(5) { traceText().dropFirst(opened).contains("\"kind\":\"menu\",\"entries\":[]") })

        // A second tab in front: its link is scanned, the first tab's items never again.
        #expect(try OverlayTests.probe(desktop, ["action", "Open second tab"]).contains("done"))
        let afterTab = scan.highlights.count
        #expect(OverlayTests.waitFor(30) { labels(after: afterTab).contains("Second page link") },
                "the second tab's link was never highlighted: \(Set(labels(after: afterTab)))")
        let inFront = scan.highlights.count
        MonotonicClock.sleep(seconds: 10.0)
        let firstTab = Set(["Add row", "Press me", "Open second tab"])
        #expect(!labels(after: inFront).contains { firstTab.contains($0) || $0.contains("Row ") }, "\(labels(after: inFront))")
        #expect(run.isRunning)
    }
}
