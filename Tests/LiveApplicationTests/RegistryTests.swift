import Platform
import Foundation
import LiveTestSupport
import Testing
import TestTier
#if canImport(Glibc)
import Glibc
#endif

/// `switchscan run --atspi` and `snapshot` on a desktop whose AT-SPI registry (at-spi2-registryd)
/// stops answering or is restarted: the registry of the test's own desktop, stopped or killed by
/// the PID that owns its name on that desktop's accessibility bus. What the user would check,
/// read from the run's trace, the demo application's output and AT-SPI: said once, the presses
/// answered, no CPU spent while it is away, and the scan back on the window once a registry runs.
@Suite("The accessibility registry away or restarted", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start an Xvfb desktop"), .serialized, .timeLimit(.minutes(5)),
       .enabled(if: LiveDesktop.isAvailable, "needs scripts/setup --tests (Xvfb, the AT-SPI bus, GTK 3)"))
struct RegistryTests {
    static let away = "the accessibility registry is not running"
    static let back = "the accessibility registry is running again"

    /// A desktop with the GTK 3 demo, and a run scanning it with Button 0 highlighted.
    static func scanning(_ name: String) throws -> (LiveDesktop, WindowManagerTests.Run) {
        let desktop = try LiveDesktop(apps: ["gtk3_demo.py"])
        #expect(desktop.waitUntilReady("gtk3_demo.py"))
        #expect(OverlayTests.waitFor(LiveDesktop.startLimit) { (try? OverlayTests.extents(of: "Button 0", on: desktop)) != nil },
                "the window never appeared on the accessibility bus")
        let run = try WindowManagerTests.Run(desktop, application: "gtk3_demo", name: name, overlay: false)
        #expect(OverlayTests.waitFor(60) { run.highlights.last == "Button 0" }, "highlights \(run.highlights)")
        return (desktop, run)
    }

    /// `switchscan snapshot` on `desktop`, waited for at most `limit` seconds (then stopped by its
    /// PID): its exit status (nil when it had to be stopped), what it printed and said, and how
    /// long it took.
    static func snapshot(_ desktop: LiveDesktop, wait: Int, limit: Double, name: String) throws
        -> (status: Int32?, output: String, errors: String, seconds: Double) {
        let process = Process()
        process.executableURL = try OverlayTests.binary()
        process.arguments = ["snapshot", "--window", "Demo", "--wait", String(wait)]
        process.environment = ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new }
        let outputPath = desktop.appFolder + "/\(name).out", errorPath = desktop.appFolder + "/\(name).err"
        process.standardOutput = try desktop.outputFile("\(name).out")
        process.standardError = try desktop.outputFile("\(name).err")
        let began = Date()
        try process.run()
        let ended = OverlayTests.waitFor(limit) { !process.isRunning }
        if !ended { LiveDesktop.stop(process, grace: 1) }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(began)
        func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return (ended ? process.terminationStatus : nil, read(outputPath), read(errorPath), seconds)
    }

    @Test("registry stopped: said once, no CPU spent, next and tap answered, snapshot --wait 3 ends with status 1 naming the registry; continued: said once")
    func registryStopped() throws {
        let (desktop, run) = try Self.scanning("registry-stopped")
        defer { desktop.stop() }
        func said() -> [String] { FrozenApplicationTests.announcements(run.traceText) }
        let registry = try #require(try desktop.registryProcessID(), "no registry on the desktop's accessibility bus")
        try? ProcessSignal.send(SIGSTOP, to: registry)
        defer { try? ProcessSignal.send(SIGCONT, to: registry) }

        #expect(OverlayTests.waitFor(30) { said().contains(Self.away) }, "announcements \(said())")
        // The window's application answers without the registry: the scan goes on, and a tap
        // reaches it (its handler runs).
        #expect(OverlayTests.waitFor(30) {
            if run.highlights.last != "Button 1" { run.next() }
            return OverlayTests.waitFor(2) { run.highlights.last == "Button 1" }
        }, "highlights \(run.highlights)")
        #expect(OverlayTests.waitFor(30) {
            run.key("t")
            return OverlayTests.waitFor(2) { desktop.output(of: "gtk3_demo.py").contains("clicked Button 1") }
        }, "app printed \(desktop.output(of: "gtk3_demo.py")); announcements \(said())")

        // Idle while the registry stays away: checked once a second, never waited on.
        let seconds = 20.0
        let start = try #require(ProcessStatistics.cpuSeconds(of: run.process.processIdentifier))
        Thread.sleep(forTimeInterval: seconds)
        let used = try #require(ProcessStatistics.cpuSeconds(of: run.process.processIdentifier)) - start
        print("Registry stopped: the run used \(String(format: "%.2f", used)) s of CPU in \(Int(seconds)) s (\(String(format: "%.2f", 100 * used / seconds)) % of a core)")
        #expect(used < LiveRunLoadTests.mostIdleCPU, "the run used \(used) s of CPU in \(seconds) s with the registry stopped")
        #expect(said().filter { $0 == Self.away }.count == 1, "announcements \(said())")

        // snapshot ends at its --wait, with the status of no window found, and says why.
        let result = try Self.snapshot(desktop, wait: 3, limit: 60, name: "snapshot-registry-stopped")
        print("Registry stopped: snapshot --wait 3 ended after \(String(format: "%.1f", result.seconds)) s with status \(result.status.map(String.init) ?? "none (stopped)")")
        #expect(result.status == 1, "snapshot \(result.status.map { "exited \($0)" } ?? "was still waiting after 60 s"): \(result.errors)")
        #expect(result.errors.contains("registry"), "snapshot said: \(result.errors)")

        try? ProcessSignal.send(SIGCONT, to: registry)
        #expect(OverlayTests.waitFor(30) { said().contains(Self.back) }, "announcements \(said())")
        #expect(said().filter { $0 == Self.back }.count == 1, "announcements \(said())")
        #expect(run.quit() == 0)
    }

    @Test("registry killed and a new one started: said once each, the scan back on the window (next, tap), the application on the new registry, snapshot writes the window")
    func registryRestarted() throws {
        let (desktop, run) = try Self.scanning("registry-restarted")
        defer { desktop.stop() }
        func said() -> [String] { FrozenApplicationTests.announcements(run.traceText) }
        let old = try #require(try desktop.registryProcessID(), "no registry on the desktop's accessibility bus")
        try? ProcessSignal.send(SIGKILL, to: old)

        #expect(OverlayTests.waitFor(30) { said().contains(Self.away) }, "announcements \(said())")
        // The bus starts a new one when asked (the run asks it); by hand if it has not within 10 s.
        var byHand: Process?
        if !OverlayTests.waitFor(10, { (try? desktop.registryProcessID()).flatMap { $0 } != nil }) {
            byHand = try desktop.startRegistry()
        }
        defer { if let byHand { LiveDesktop.stop(byHand, grace: 1) } }
        #expect(OverlayTests.waitFor(30) { said().contains(Self.back) }, "announcements \(said())")
        let new = try desktop.registryProcessID()
        #expect(new != nil && new != old, "registry \(old) then \(String(describing: new))")
        print("Registry restarted: by \(byHand == nil ? "the bus" : "hand"), PID \(old) then \(new.map(String.init) ?? "none")")

        // Through AT-SPI: the demo's window is on the new registry's desktop.
        #expect(OverlayTests.waitFor(30) { (try? OverlayTests.extents(of: "Button 0", on: desktop)) != nil },
                "the window is not on the new registry: \(OverlayTests.lastProbeError)")
        // The scan is on the window: next moves, a tap runs the handler.
        let count = run.highlights.count
        #expect(OverlayTests.waitFor(30) {
            run.next()
            return OverlayTests.waitFor(2) { run.highlights.count > count }
        }, "highlights \(run.highlights)")
        let target = try #require(run.highlights.last)
        #expect(OverlayTests.waitFor(30) {
            run.key("t")
            return OverlayTests.waitFor(2) { desktop.output(of: "gtk3_demo.py").contains("clicked \(target)") }
        }, "app printed \(desktop.output(of: "gtk3_demo.py")); announcements \(said())")
        #expect(said().filter { $0 == Self.away }.count == 1 && said().filter { $0 == Self.back }.count == 1, "announcements \(said())")
        #expect(run.quit() == 0)

        // snapshot finds the window through the new registry.
        let result = try Self.snapshot(desktop, wait: 30, limit: 90, name: "snapshot-registry-restarted")
        #expect(result.status == 0, "snapshot \(result.status.map { "exited \($0)" } ?? "was still waiting after 90 s"): \(result.errors)")
        #expect(result.output.contains("Button 0"), "snapshot wrote: \(result.output.prefix(400))")
    }

    @Test("registry stopped before the run starts: the run starts and says so once; continued: said once, and the window is scanned")
    func registryAwayAtStart() throws {
        let desktop = try LiveDesktop(apps: ["gtk3_demo.py"])
        defer { desktop.stop() }
        #expect(desktop.waitUntilReady("gtk3_demo.py"))
        #expect(OverlayTests.waitFor(LiveDesktop.startLimit) { (try? OverlayTests.extents(of: "Button 0", on: desktop)) != nil },
                "the window never appeared on the accessibility bus")
        let registry = try #require(try desktop.registryProcessID(), "no registry on the desktop's accessibility bus")
        try? ProcessSignal.send(SIGSTOP, to: registry)
        defer { try? ProcessSignal.send(SIGCONT, to: registry) }
        let run = try WindowManagerTests.Run(desktop, application: "gtk3_demo", name: "registry-away-at-start", overlay: false)
        func said() -> [String] { FrozenApplicationTests.announcements(run.traceText) }
        #expect(OverlayTests.waitFor(30) { said().contains(Self.away) }, "announcements \(said())")
        #expect(run.highlights.isEmpty, "highlights \(run.highlights)")
        try? ProcessSignal.send(SIGCONT, to: registry)
        #expect(OverlayTests.waitFor(30) { said().contains(Self.back) }, "announcements \(said())")
        #expect(OverlayTests.waitFor(30) { run.highlights.last == "Button 0" }, "highlights \(run.highlights)")
        #expect(said().filter { $0 == Self.away }.count == 1 && said().filter { $0 == Self.back }.count == 1, "announcements \(said())")
        #expect(run.quit() == 0)
    }

    @Test("a desktop whose accessibility bus cannot start: LiveDesktop names what is missing instead of starting applications that cannot register")
    func desktopWithoutRegistry() throws {
        // An accessibility bus launcher that is not there: no bus, so no registry.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-no-registry-\(CurrentProcess.id)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        do {
            let desktop = try LiveDesktop(apps: ["gtk3_demo.py"], environment: ["LIVE_ATSPI_BUS_LAUNCHER": scratch.appendingPathComponent("absent").path])
            desktop.stop()
            Issue.record("the desktop started without an accessibility bus")
        } catch let failure as LiveDesktop.StartFailure {
            #expect(failure.description.contains("accessibility bus"), "\(failure)")
        }
    }
}
