import Foundation
import LiveTestSupport
import Testing
import TestTier
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// `switchscan run --atspi` on an application that stops answering: the test's own GTK 3 demo,
/// stopped with SIGSTOP (by the PID the test started), then continued. What the user would
/// check, read from the run's trace and the application's output: each tap on it said pending at
/// once and not done when it stays stopped (nothing else said meanwhile), the scan goes on (the highlight moves), its coming
/// back said once, and then a tap works.
@Suite("An application that stops answering", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start an Xvfb desktop"), .serialized, .timeLimit(.minutes(5)),
       .enabled(if: LiveDesktop.isAvailable, "needs scripts/setup --tests (Xvfb, the AT-SPI bus, GTK 3)"))
struct FrozenApplicationTests {
    static func announcements(_ trace: String) -> [String] {
        trace.split(separator: "\n").compactMap { line in
            line.contains("\"kind\":\"announcement\"") ? RunTrace.field("text", of: line) : nil
        }
    }

    /// The GTK 3 demo on a desktop of its own, its window on the bus showing `label`, and a run
    /// scanning it (`runName`); `body` gets the three, and the demo is continued (it may have been
    /// stopped) and stopped afterwards, then the desktop.
    static func withDemo(showing label: String, runName: String,
                         _ body: (LiveDesktop, Process, WindowManagerTests.Run) throws -> Void) throws {
        let desktop = try LiveDesktop(apps: [])
        defer { desktop.stop() }
        let app = try desktop.launch("gtk3_demo.py")
        defer {
            try? ProcessSignal.send(SIGCONT, to: app.processIdentifier)
            LiveDesktop.stop(app)
        }
        #expect(desktop.waitUntilReady("gtk3_demo.py"))
        #expect(OverlayTests.waitFor(LiveDesktop.startLimit) { (try? OverlayTests.extents(of: label, on: desktop)) != nil },
                "the window never appeared on the accessibility bus")
        let run = try WindowManagerTests.Run(desktop, application: "gtk3_demo", name: runName, overlay: false)
        try body(desktop, app, run)
    }

    @Test("stopped: each tap said pending at once, then not done, nothing else said, the highlight still moves; continued: said once, and a tap runs its handler")
    func stoppedAndContinued() throws {
        try Self.withDemo(showing: "Button 0", runName: "frozen") { desktop, app, run in
            #expect(OverlayTests.waitFor(30) { run.highlights.last == "Button 0" }, "highlights \(run.highlights)")

            try? ProcessSignal.send(SIGSTOP, to: app.processIdentifier)
            // Tap on Button 0: the application is asked first, briefly; it does not answer, and the
            // tap is said pending, then, with no press meanwhile, not done once the bound passed,
            // with which application does not answer.
            let notDone = "not done: gtk3_demo.py is not answering"
            run.key("t")
            #expect(OverlayTests.waitFor(30) { Self.announcements(run.traceText).contains(Self.pending) }, "announcements \(Self.announcements(run.traceText))")
            #expect(OverlayTests.waitFor(30) { Self.announcements(run.traceText).contains(notDone) }, "announcements \(Self.announcements(run.traceText))")
            // The scan goes on: next moves the highlight (a press while a message shows takes the
            // message away first), and a second tap is said pending, then not done too.
            #expect(OverlayTests.waitFor(30) {
                if run.highlights.last != "Button 1" { run.key("\r") }
                return OverlayTests.waitFor(2) { run.highlights.last == "Button 1" }
            }, "highlights \(run.highlights)")
            run.key("t")
            #expect(OverlayTests.waitFor(30) { Self.announcements(run.traceText).filter { $0 == notDone }.count == 2 },
                    "announcements \(Self.announcements(run.traceText))")
            #expect(Self.announcements(run.traceText).filter { $0 == Self.pending }.count == 2, "announcements \(Self.announcements(run.traceText))")
            // Pinged in the background meanwhile (every 2 s): nothing more is said while it stays stopped.
            Thread.sleep(forTimeInterval: 5)
            #expect(Self.announcements(run.traceText).filter { $0.contains("gtk3_demo.py") }.count == 4, "announcements \(Self.announcements(run.traceText))")
            #expect(!desktop.output(of: "gtk3_demo.py").contains { $0.hasPrefix("clicked") })

            // Continued: it answers the next ping, which is said once; a tap runs its handler.
            try? ProcessSignal.send(SIGCONT, to: app.processIdentifier)
            #expect(OverlayTests.waitFor(30) { Self.announcements(run.traceText).contains("gtk3_demo.py answers again") },
                    "announcements \(Self.announcements(run.traceText))")
            let target = try #require(run.highlights.last)
            // (The first press may take the message away.)
            #expect(OverlayTests.waitFor(30) {
                run.key("t")
                return OverlayTests.waitFor(2) { desktop.output(of: "gtk3_demo.py").contains("clicked \(target)") }
            },
                    "app printed \(desktop.output(of: "gtk3_demo.py")); announcements \(Self.announcements(run.traceText))")
            #expect(Self.announcements(run.traceText).filter { $0 == "gtk3_demo.py answers again" }.count == 1)
            #expect(run.quit() == 0)
        }
    }

    /// What a tap on the stopped demo is said at once.
    static let pending = "pending: gtk3_demo.py is slow to answer"

    @Test("stopped, then continued within the bound: the tap said pending at once and carried out (read back through AT-SPI); a press before it is continued drops the tap")
    func continuedWithinTheBound() throws {
        try Self.withDemo(showing: "Count 0", runName: "frozen-held") { desktop, app, run in
            func counted(_ count: Int) -> Bool { (try? OverlayTests.extents(of: "Count \(count)", on: desktop)) != nil }
            func highlightCount() -> Bool {
                OverlayTests.waitFor(60) {
                    if run.highlights.last != "Count" { run.key("\r") }
                    return OverlayTests.waitFor(2) { run.highlights.last == "Count" }
                }
            }
            #expect(OverlayTests.waitFor(60) { run.highlights.last == "Button 0" }, "highlights \(run.highlights)")
            try #require(highlightCount(), "highlights \(run.highlights)")

            // Held, then a press: the tap is dropped, and the continued application does not count.
            try? ProcessSignal.send(SIGSTOP, to: app.processIdentifier)
            let dropped = Self.answerTime(run, "t") { Self.announcements($0).contains(Self.pending) }
            #expect(dropped != nil, "announcements \(Self.announcements(run.traceText))")
            run.key("\r")
            Thread.sleep(forTimeInterval: 1)
            try? ProcessSignal.send(SIGCONT, to: app.processIdentifier)
            Thread.sleep(forTimeInterval: 3)
            #expect(!desktop.output(of: "gtk3_demo.py").contains("count 1"), "app printed \(desktop.output(of: "gtk3_demo.py"))")
            #expect(!counted(1))

            // Held, no press, continued 1 s later: the tap is carried out, the label reads Count 1.
            try #require(highlightCount(), "highlights \(run.highlights)")
            try? ProcessSignal.send(SIGSTOP, to: app.processIdentifier)
            let held = Self.answerTime(run, "t") { Self.announcements($0).filter { $0 == Self.pending }.count == 2 }
            #expect(held != nil, "announcements \(Self.announcements(run.traceText))")
            Thread.sleep(forTimeInterval: 1)
            try? ProcessSignal.send(SIGCONT, to: app.processIdentifier)
            #expect(OverlayTests.waitFor(30) { counted(1) }, "app printed \(desktop.output(of: "gtk3_demo.py")); announcements \(Self.announcements(run.traceText))")
            #expect(!Self.announcements(run.traceText).contains { $0.hasPrefix("not done") }, "announcements \(Self.announcements(run.traceText))")
            print("Stopped application, tap said pending in " + [dropped, held].map { $0.map { String(format: "%.3f s", $0) } ?? "never" }.joined(separator: " and "))
            #expect(run.quit() == 0)
        }
    }

    /// Writes `key` to the run and waits (at most `limit` seconds) until `answered` holds on the
    /// trace; the seconds it took, as the user waits them (nil: no answer).
    static func answerTime(_ run: WindowManagerTests.Run, _ key: String, limit: Double = 30, _ answered: (String) -> Bool) -> Double? {
        let began = Date()
        run.key(key)
        // Looked at every 10 ms: the time printed is the answer's to that.
        while Date().timeIntervalSince(began) < limit {
            if answered(run.traceText) { return Date().timeIntervalSince(began) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    /// The menu lines of a trace: each open menu's focused entry.
    static func menuFocus(_ trace: String) -> [String] {
        trace.split(separator: "\n").compactMap { line in
            line.contains("\"kind\":\"menu\"") ? RunTrace.field("focus", of: line) ?? "" : nil
        }
    }

    @Test("stopped: next, the scanner menu, Switch to another application and tap each answered (next moves, the menu opens, the other window is scanned, the tap said pending); each answer's time printed")
    func stoppedEveryAction() throws {
        let desktop = try LiveDesktop(apps: ["gtk4_demo.py"])
        defer { desktop.stop() }
        let app = try desktop.launch("gtk3_demo.py")
        defer {
            try? ProcessSignal.send(SIGCONT, to: app.processIdentifier)
            LiveDesktop.stop(app)
        }
        #expect(desktop.waitUntilReady("gtk3_demo.py") && desktop.waitUntilReady("gtk4_demo.py"))
        // Both windows on the bus before the run lists the windows it can switch to.
        #expect(OverlayTests.waitFor(LiveDesktop.startLimit) {
            ((try? OverlayTests.probe(desktop, ["windows"])) ?? "").split(separator: "\n").filter { $0.hasSuffix("\tDemo") }.count >= 2
        }, "the windows never appeared on the accessibility bus: \((try? OverlayTests.probe(desktop, ["windows"])) ?? "")")
        let run = try WindowManagerTests.Run(desktop, application: "gtk3_demo", name: "frozen-actions", overlay: false)
        func ids() -> [String] { RunTrace.highlights(run.traceText).map(\.id) }
        #expect(OverlayTests.waitFor(60) { run.highlights.last == "Button 0" }, "highlights \(run.highlights)")
        let stoppedBus = String(try #require(ids().last).prefix { $0 != "/" })

        try? ProcessSignal.send(SIGSTOP, to: app.processIdentifier)
        var times = [String: Double]()
        // Tap: said pending (the press on next drops it).
        times["tap"] = Self.answerTime(run, "t") { Self.announcements($0).contains(Self.pending) }
        #expect(times["tap"] != nil, "announcements \(Self.announcements(run.traceText))")
        // Next: the highlight moves (the first press may take the message away).
        let highlighted = run.highlights.count
        times["next"] = Self.answerTime(run, "\r", limit: 5) { RunTrace.highlights($0).count > highlighted }
            ?? Self.answerTime(run, "\r") { RunTrace.highlights($0).count > highlighted }
        #expect(times["next"] != nil, "highlights \(run.highlights)")
        // The scanner menu opens.
        let menus = Self.menuFocus(run.traceText).count
        times["menu"] = Self.answerTime(run, "m") { Self.menuFocus($0).count > menus }
        #expect(times["menu"] != nil, "the menu did not open: \(run.traceText.suffix(600))")
        // Switch to the other application's window: the menu's entry reached with next, chosen
        // with select; the GTK 4 window is scanned.
        let entry = try #require(run.traceText.split(separator: "\n").last { $0.contains("\"kind\":\"menu\"") }.flatMap { line in
            line.components(separatedBy: "\"").first { $0.hasPrefix("Switch to Demo") }
        }, "no Switch to entry: \(run.traceText.split(separator: "\n").last { $0.contains("\"kind\":\"menu\"") } ?? "")")
        for _ in 0..<40 where Self.menuFocus(run.traceText).last != entry {
            let seen = Self.menuFocus(run.traceText).count
            _ = Self.answerTime(run, "\r", limit: 5) { Self.menuFocus($0).count > seen }
        }
        try #require(Self.menuFocus(run.traceText).last == entry, "menu focus \(Self.menuFocus(run.traceText).suffix(5))")
        times["switch"] = Self.answerTime(run, " ") { text in
            RunTrace.highlights(text).last.map { !$0.id.hasPrefix(stoppedBus + "/") } == true
        }
        #expect(times["switch"] != nil, "highlights \(ids().suffix(5)); trace ends \(run.traceText.suffix(1500))")
        print("Stopped application: answered in " + ["tap", "next", "menu", "switch"].map { name in
            "\(name) \(times[name].map { String(format: "%.3f s", $0) } ?? "never")"
        }.joined(separator: ", "))
        #expect(run.quit() == 0)
    }

    @Test("killed: said once, the scan goes to the other application's window, and the run idles")
    func killed() throws {
        let desktop = try LiveDesktop(apps: ["gtk3_demo.py"])
        defer { desktop.stop() }
        #expect(desktop.waitUntilReady("gtk3_demo.py"))
        let app = try desktop.launch("gtk4_demo.py")
        defer { LiveDesktop.stop(app) }
        #expect(desktop.waitUntilReady("gtk4_demo.py"))
        #expect(OverlayTests.waitFor(LiveDesktop.startLimit) { (try? OverlayTests.probe(desktop, ["extents", "Button 0"]))?.isEmpty == false },
                "the windows never appeared on the accessibility bus")
        Thread.sleep(forTimeInterval: 2)
        // Both applications' names hold "py" (gtk3_demo.py, and python3 for GTK 4): the GTK 4
        // window, active, is scanned.
        let run = try WindowManagerTests.Run(desktop, application: "py", name: "killed", overlay: false)
        func ids() -> [String] { RunTrace.highlights(run.traceText).map(\.id) }
        #expect(OverlayTests.waitFor(60) { run.highlights.last == "Button 0" }, "highlights \(run.highlights)")
        let before = try #require(ids().last)
        try #require(before.contains("Gtk4Demo"), "the GTK 4 window was not the one scanned: \(ids())")
        let killedBus = String(before.prefix { $0 != "/" })

        try? ProcessSignal.send(SIGKILL, to: app.processIdentifier)
        app.waitUntilExit()
        #expect(OverlayTests.waitFor(30) { Self.announcements(run.traceText).contains("python3 has closed") },
                "announcements \(Self.announcements(run.traceText)); highlights \(ids())")
        // The scan is on the GTK 3 window: next moves among its items.
        let count = ids().count
        #expect(OverlayTests.waitFor(30) {
            run.next()
            return OverlayTests.waitFor(2) { ids().count > count && ids().last.map { !$0.hasPrefix(killedBus + "/") } == true }
        }, "highlights \(ids())")
        // Nothing more: said once, and no busy loop on the gone application's objects.
        let start = try #require(ProcessStatistics.cpuSeconds(of: run.process.processIdentifier))
        Thread.sleep(forTimeInterval: 3)
        let used = try #require(ProcessStatistics.cpuSeconds(of: run.process.processIdentifier)) - start
        #expect(used < LiveRunLoadTests.mostIdleCPU, "the run used \(used) s of CPU in 3 s after the kill")
        #expect(Self.announcements(run.traceText).filter { $0.hasSuffix("has closed") }.count == 1, "announcements \(Self.announcements(run.traceText))")
        #expect(run.quit() == 0)
    }
}
