import Foundation
import LiveTestSupport
import Testing
import TestTier
import Platform

/// `switchscan run --atspi` on the GTK 3 list (Tests/LiveApps/gtk3_long_list.py, 200 objects) as
/// a user runs it: idle costs (next to) nothing, a rename of the highlighted row shows at once,
/// and the run is idle again after it; the first highlight is the list's first row. Once the run turned at once, without waiting, for as long
/// as events it had taken in were waiting (each relayout's dozen events): a busy core after the
/// window appeared and after each change, the change shown only when the bus sent something more.
@Suite("Live run load", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start an Xvfb desktop"), .serialized, .timeLimit(.minutes(5)), .enabled(if: LiveDesktop.isAvailable))
struct LiveRunLoadTests {
    /// Most CPU a run may use over `idleSeconds` seconds with nothing happening: generous (a slow,
    /// shared machine), yet a run turning without waiting uses most of a core.
    static let idleSeconds = 3.0
    static let mostIdleCPU = 0.6

    @Test("a 200-object GTK 3 list: idle, a rename of the highlighted row shown within seconds, idle again after it")
    func renameOnList() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-load-\(CurrentProcess.id)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let changeFile = scratch.appendingPathComponent("row").path
        let trace = scratch.appendingPathComponent("trace.jsonl").path
        let desktop = try LiveDesktop(apps: ["gtk3_long_list.py"], environment: ["LONG_LIST_OBJECTS": "200", "LONG_LIST_CHANGE_FILE": changeFile])
        defer { desktop.stop() }
        var appPID: Int32 = 0
        _ = OverlayTests.waitFor(LiveDesktop.startLimit) {
            guard let line = desktop.output(of: "gtk3_long_list.py").first(where: { $0.hasPrefix("ready ") }) else { return false }
            let fields = line.split(separator: " ")
            appPID = fields.count == 3 ? Int32(fields[2]) ?? 0 : 0
            return appPID > 0
        }
        try #require(appPID > 0, "the long list application did not start")

        let run = Process()
        run.executableURL = try OverlayTests.binary()
        run.arguments = ["run", "--atspi", "--window", "Long list", "--no-view", "--no-overlay", "--settings", "none",
                         "--set", "scanning=manual", "--set", "groupItems=false", "--input", "terminal", "--braille", "none",
                         "--trace", trace]
        let keys = Pipe()
        run.environment = ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new }
        run.standardInput = keys
        run.standardOutput = try desktop.outputFile("load-run.out")
        run.standardError = try desktop.outputFile("load-run.err")
        try run.run()
        defer {
            try? keys.fileHandleForWriting.close()
            run.waitUntilExit()
        }
        func traceText() -> String { (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "" }

        // The first highlight: a row of the list.
        var label = ""
        _ = OverlayTests.waitFor(30) {
            guard let line = traceText().split(separator: "\n").first(where: { $0.contains("\"kind\":\"highlight\",\"id\":\"") }),
                  let range = line.range(of: "\"label\":\"Row ") else { return false }
            label = String(line[range.upperBound...].prefix { $0.isNumber })
            return true
        }
        let row = try #require(Int(label), "no row of the list was highlighted: \(traceText().suffix(2000))")
        // The window's first row, as Orca starts (rows scrolled out of view have no position and
        // come after those on screen, in the list's order; once their G_MININT frames sorted first).
        #expect(row == 0, "the first highlight is Row \(row)")
        try String(row).write(toFile: changeFile, atomically: true, encoding: .utf8)

        // The events of the window's first relayout settle; then nothing happens: idle.
        MonotonicClock.sleep(seconds: 2.0)
        let idleStart = try #require(ProcessStatistics.cpuSeconds(of: run.processIdentifier))
        MonotonicClock.sleep(seconds: Self.idleSeconds)
        let idle = try #require(ProcessStatistics.cpuSeconds(of: run.processIdentifier)) - idleStart
        #expect(idle < Self.mostIdleCPU, "the run used \(idle) s of CPU in \(Self.idleSeconds) s with nothing happening")

        // The application renames the highlighted row: shown within seconds.
        try? ProcessSignal.send(SIGUSR1, to: appPID)
        let expected = "Row \(row), change 1"
        // (The braille line: the label, then the traits: "Row 0, change 1 sel" on the selected row.)
        #expect(OverlayTests.waitFor(30) { ["\"", " "].contains { traceText().contains("\"text\":\"\(expected)\($0)") } },
                "'\(expected)' never reached the trace: \(traceText().suffix(2000))")
        // And idle again.
        MonotonicClock.sleep(seconds: 1.0)
        let afterStart = try #require(ProcessStatistics.cpuSeconds(of: run.processIdentifier))
        MonotonicClock.sleep(seconds: Self.idleSeconds)
        let after = try #require(ProcessStatistics.cpuSeconds(of: run.processIdentifier)) - afterStart
        #expect(after < Self.mostIdleCPU, "the run used \(after) s of CPU in \(Self.idleSeconds) s after the rename")
        #expect(run.isRunning)
    }
}
