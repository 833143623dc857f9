import Foundation
import Platform

/// `switchscan run --atspi --app firefox` auto scanning Debian's Firefox ESR as a switch user
/// runs it, nobody pressing anything: Firefox showing Tests/LiveApps/browser.html (a fresh
/// profile, firefox_page.sh) on a desktop of its own, the run's trace and its debug lines
/// (SWITCHSCAN_LIVE_DEBUG) in files of `scratch`, and its standard input (the terminal's keys)
/// a pipe the caller types into. What the Firefox test checks and `switchscan-bench live-browser`
/// measures; `stop()` ends the run, Firefox and the desktop, by PID.
public final class FirefoxAutoScan: @unchecked Sendable {
    public let desktop: LiveDesktop
    public let firefox: Process
    public let run: Process
    public let tracePath: String
    public let debugPath: String
    private let keys = Pipe()

    /// Whether the machine has what it takes (Firefox ESR and the test desktop).
    public static var isAvailable: Bool {
        LiveDesktop.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/firefox-esr")
    }

    /// Starts a desktop and Firefox on it, calls `beforeRun` (to wait for the page, say), then
    /// starts `switchscan` (the executable's path) stepping every `step` seconds.
    public init(switchscan: String, scratch: String, step: Double, beforeRun: (LiveDesktop) throws -> Void = { _ in }) throws {
        desktop = try LiveDesktop(apps: [])
        do {
            firefox = try desktop.launch("firefox_page.sh")
        } catch {
            desktop.stop()
            throw error
        }
        tracePath = scratch + "/trace.jsonl"
        debugPath = scratch + "/debug.txt"
        run = Process()
        do {
            try beforeRun(desktop)
            run.executableURL = URL(fileURLWithPath: switchscan)
            run.arguments = ["run", "--atspi", "--app", "firefox", "--no-view", "--no-overlay",
                             "--settings", "none", "--set", "scanning=auto", "--set", "autoScanningTime=\(step)",
                             "--set", "loops=100", "--set", "groupItems=false", "--input", "terminal", "--braille", "none",
                             "--trace", tracePath]
            run.environment = ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new }
                .merging(["SWITCHSCAN_LIVE_DEBUG": "1"]) { _, new in new }
            run.standardInput = keys
            run.standardOutput = try Self.newFile(scratch + "/output.txt")
            run.standardError = try Self.newFile(debugPath)
            try run.run()
        } catch {
            LiveDesktop.stop(firefox, grace: 10)
            desktop.stop()
            throw error
        }
    }

    private static func newFile(_ path: String) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// The trace so far.
    public var trace: String { (try? String(contentsOfFile: tracePath, encoding: .utf8)) ?? "" }
    /// The run's debug lines so far.
    public var debug: String { (try? String(contentsOfFile: debugPath, encoding: .utf8)) ?? "" }

    /// The trace's highlights so far.
    public var highlights: [RunTrace.Highlight] { RunTrace.highlights(trace) }

    /// How many times the run has read the window whole so far.
    public var windowReads: Int { RunTrace.lastCount("live: window read ", in: debug) }

    /// How many batches of events the run has handled so far.
    public var eventBatches: Int { RunTrace.lastCount("live: batch ", in: debug) }

    /// Types `text` on the run's terminal (a space is Select, `m` the menu key).
    public func type(_ text: String) throws {
        try keys.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Ends the run (its keys closed, then SIGTERM by its PID), Firefox and the desktop.
    public func stop() {
        try? keys.fileHandleForWriting.close()
        LiveDesktop.stop(run)
        LiveDesktop.stop(firefox, grace: 10)
        desktop.stop()
    }
}
