import Foundation
import Testing

/// What goes wrong in the middle of a run is said as the run's status (the status line, the
/// trace, and standard error when no screen is drawn), once: written straight to standard error,
/// it would be drawn over by the terminal view.
@Suite("switchscan run: statuses said mid-run")
struct StatusLineTests {
    @Test("Word prediction that cannot start when the keyboard opens is a status of the run: in the trace and on standard error, once each")
    func predictionFailingIsARunStatus() throws {
        let folder = try TemporaryFolder()
        // A state folder that cannot be made (its parent is a file): presage cannot keep the
        // user's words, so prediction is off.
        let notAFolder = try folder.write("state-is-a-file", "")
        let trace = folder.url.appendingPathComponent("trace.jsonl").path
        // One Space: with alwaysTap and manual scanning it taps the Name field, which opens the
        // keyboard; a file (not a pipe) as the keys, so the run reads the key, then its end.
        let keys = try folder.write("keys", " ")
        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["run", "Scenarios/keyboard-form.yaml", "--no-view", "--input", "terminal", "--trace", trace,
                             "--set", "scanning=manual", "--set", "tapBehavior=alwaysTap"]
        process.currentDirectoryURL = CLI.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging([
            "XDG_STATE_HOME": notAFolder, "XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path,
        ]) { $1 }
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: keys))
        process.standardOutput = try folder.outputFile("stdout")
        let errPath = folder.url.appendingPathComponent("stderr").path
        process.standardError = try folder.outputFile("stderr")
        try process.run()
        process.waitUntilExit()
        let stderr = try String(contentsOfFile: errPath, encoding: .utf8)
        #expect(process.terminationStatus == 0, "\(stderr)")

        let events = try RunCommandTests.traceEvents(trace)
        #expect(events.contains { $0["kind"] as? String == "perform" && $0["id"] as? String == "name" },
                "the Name field was never tapped: \(events)")
        let statuses = events.filter {
            $0["kind"] as? String == "status" && ($0["text"] as? String)?.hasPrefix("word prediction is off: ") == true
        }
        #expect(statuses.count == 1, "\(events)")
        let said = stderr.split(separator: "\n").filter { $0.hasPrefix("switchscan run: word prediction is off: ") }
        #expect(said.count == 1, "\(stderr)")
    }
}
