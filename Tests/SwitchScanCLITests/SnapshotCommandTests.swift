import Platform
import BrailleTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LiveTestSupport
import Testing
import TestTier

/// Issue 15: `switchscan snapshot` turns a real window into a scene a tester can check and write
/// scripted tests against: the GTK 4 demo on a desktop of its own (Xvfb, private D-Bus, AT-SPI).
@Suite("switchscan snapshot of a live window", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start an Xvfb desktop"), .serialized,
       .enabled(if: LiveDesktop.isAvailable, "the live desktop's programs are not installed"))
struct SnapshotCommandTests {
    @Test("The GTK 4 demo as a scene: it validates, lists the window's widgets in order with their traits and the slider's value, and a tests file drives it")
    func snapshotOfTheGTK4Demo() throws {
        let desktop = try LiveDesktop(apps: ["gtk4_demo.py"])
        defer { desktop.stop() }
        #expect(desktop.waitUntilReady("gtk4_demo.py"), "the demo never said it was ready")

        let folder = try TemporaryFolder()
        let scene = folder.url.appendingPathComponent("demo.yaml").path
        // (Its wait guards a hang: a window may reach the bus many seconds after `ready` on a busy machine.)
        let snapshot = try CLI.run(["snapshot", "--window", "Demo", "--wait", String(Int(LiveDesktop.startLimit)), "-o", scene],
                                   environment: desktop.environment)
        #expect(snapshot.status == 0, "\(snapshot)")
        let text = try String(contentsOfFile: scene, encoding: .utf8)

        // GTK 4 names the application after the interpreter: a name that matches nothing says
        // what the bus has (the window is on it now), so the tester knows what to give.
        let unwritten = folder.url.appendingPathComponent("unwritten.yaml").path
        let wrong = try CLI.run(["snapshot", "--app", "gtk4_demo", "--wait", "1", "-o", unwritten], environment: desktop.environment)
        #expect(wrong.status == 1, "\(wrong)")
        #expect(wrong.stderr.contains("no window matching --app gtk4_demo within 1 s; windows on the accessibility bus: 'Demo' (application python"),
                "\(wrong)")
        #expect(!FileManager.default.fileExists(atPath: unwritten))

        // Ctrl-C ends the wait for a window at once (an hour's --wait), with 130 (128 + SIGINT)
        // as the README's table says, and nothing written.
        let waiting = Process()
        waiting.executableURL = try CLI.binary()
        waiting.arguments = ["snapshot", "--app", "no-such-application", "--wait", "3600", "-o", unwritten]
        waiting.environment = ProcessInfo.processInfo.environment.merging(desktop.environment) { $1 }
        waiting.standardOutput = try folder.outputFile("waiting-stdout")
        waiting.standardError = try folder.outputFile("waiting-stderr")
        try waiting.run()
        // Signalled once the command takes signals through its reactor's descriptor (before
        // that, SIGINT's default action would end it, and the test would see a signal, not 130).
        #expect(ProcessStat.waitForSignalDescriptor(waiting.processIdentifier), "no signal descriptor: no reactor")
        waiting.interrupt()
        let ended = Date().addingTimeInterval(60)  // guards a hang; the wait itself is an hour
        while waiting.isRunning, Date() < ended { Thread.sleep(forTimeInterval: 0.05) }
        // Still there: SIGINT did not end it (stopped by the PID it has, as nothing else would).
        if waiting.isRunning { try? ProcessSignal.send(SIGKILL, to: waiting.processIdentifier) }
        waiting.waitUntilExit()
        #expect(waiting.terminationReason == .exit && waiting.terminationStatus == 130,
                "\(waiting.terminationReason == .exit ? "exit" : "signal") \(waiting.terminationStatus)")
        #expect(!FileManager.default.fileExists(atPath: unwritten))

        let validate = try CLI.run(["validate", scene])
        #expect(validate.status == 0, "\(validate)\n\(text)")

        // The widgets, in the window's order, as a tester reads them with inspect --json.
        let inspect = try CLI.run(["inspect", scene, "--json"])
        #expect(inspect.status == 0, "\(inspect)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any], "\(inspect)")
        let entries = try #require(object["items"] as? [[String: Any]], "\(inspect)")
        func flatten(_ list: [[String: Any]]) -> [[String: Any]] {
            list.flatMap { entry in [entry] + flatten(entry["items"] as? [[String: Any]] ?? []) }
        }
        let all = flatten(entries)
        let labels = all.compactMap { $0["label"] as? String }
        let wanted = ["Button 0", "Button 1", "Button 2", "Wi-Fi", "Count", "Count 0", "Open dialog"]
        let positions = wanted.compactMap { labels.firstIndex(of: $0) }
        #expect(positions.count == wanted.count && positions == positions.sorted(), "\(labels)\n\(text)")
        let button = try #require(all.first { $0["label"] as? String == "Button 1" }, "\(labels)")
        #expect((button["traits"] as? [String])?.contains("button") == true, "\(button)")
        let slider = try #require(all.first { ($0["traits"] as? [String])?.contains("adjustable") == true }, "no adjustable element: \(text)")
        #expect(slider["value"] as? String == "50", "\(slider)")

        // Scripted tests kept apart from the snapshot, as for an import.
        let tests = try folder.write("demo.tests.yaml", """
            scene: demo.yaml
            tests:
              - name: manual scanning goes through the window's buttons in order
                settings: {scanning: manual, groupItems: false}
                steps:
                  - expect: {braille: {contains: "Button 0"}}
                  - press: next
                  - expect: {braille: {contains: "Button 1"}}
                  - press: next
                  - expect: {braille: {contains: "Button 2"}}
            """)
        let run = try CLI.run(["test", tests])
        #expect(run.status == 0, "\(run)\n\(text)")
        #expect(run.stdout.contains("1 passed, 0 failed"), "\(run)")
    }
}
