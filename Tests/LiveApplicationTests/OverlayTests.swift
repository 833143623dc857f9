import AccessibilityModel
import Foundation
import LiveTestSupport
import Runtime
import Testing
import Xcb
import TestTier
import Platform

/// `switchscan run --atspi` on the GTK 4 test application, seen on the Xvfb screen: the frame
/// is drawn on the highlighted widget's extents (as AT-SPI reports them), follows `next`, and
/// lets a click through to the application.
@Suite("Highlight overlay on X11", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start an Xvfb desktop"), .serialized, .timeLimit(.minutes(5)),
       .enabled(if: LiveDesktop.isAvailable && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/pyatspi"),
                "needs scripts/setup --tests (Xvfb, the AT-SPI bus, python3-pyatspi)"))
struct OverlayTests {
    /// The built switchscan beside the test executable, else the package's .build/debug.
    static func binary() throws -> URL {
        var folders = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let executable = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent()) }
        folders.append(LiveDesktop.appsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent("switchscan")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile)
    }

    /// Runs Tests/LiveApps/atspi_probe.py on the desktop (libatspi in this process may still be
    /// connected to another test's desktop): its output.
    static func probe(_ desktop: LiveDesktop, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [LiveDesktop.appsFolder.appendingPathComponent("atspi_probe.py").path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        lastProbeError = String(decoding: said, as: UTF8.self)
        return String(decoding: data, as: UTF8.self)
    }

    /// What the last probe said on its standard error (for a failure's message).
    nonisolated(unsafe) static var lastProbeError = ""

    /// The screen extents of the object named `label`, as AT-SPI reports them.
    static func extents(of label: String, on desktop: LiveDesktop) throws -> Rect? {
        let numbers = try probe(desktop, ["extents", label]).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard numbers.count == 4, numbers.allSatisfy({ abs($0) < 100_000 }), numbers[2] > 0, numbers[3] > 0 else { return nil }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// A button 1 click at a screen position, through the registry (XTest).
    static func click(_ x: Double, _ y: Double, on desktop: LiveDesktop) throws {
        _ = try probe(desktop, ["click", String(Int(x.rounded(.down))), String(Int(y.rounded(.down)))])
    }

    /// Whether the pixels on the four sides of `rect` (one pixel inside each edge, at each
    /// side's middle) are the overlay's colour, and the centre is not.
    static func framed(_ rect: Rect, on screen: XcbConnection) throws -> (sides: Bool, centre: Bool) {
        func pixel(_ x: Double, _ y: Double) throws -> UInt32 {
            try screen.pixels(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)), width: 1, height: 1)[0]
        }
        let color = HighlightOverlay.color
        let sides = try [pixel(rect.minX, rect.midY), pixel(rect.maxX - 1, rect.midY), pixel(rect.midX, rect.minY),
                         pixel(rect.midX, rect.maxY - 1), pixel(rect.minX - 1, rect.midY)]
        return (sides.allSatisfy { $0 == color }, try pixel(rect.midX, rect.midY) == color)
    }

    static func waitFor(_ timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if try condition() { return true }
            MonotonicClock.sleep(seconds: 0.1)
        }
        return try condition()
    }

    @Test("the frame is on the highlighted widget's extents, moves on next, and a click on it reaches the application")
    func frameFollowsHighlight() throws {
        let desktop = try LiveDesktop(apps: ["gtk4_demo.py"])
        defer { desktop.stop() }
        // The tree appears about a second after a GTK 4 application starts.
        var first: Rect?
        _ = try Self.waitFor(LiveDesktop.startLimit) { first = try Self.extents(of: "Button 0", on: desktop); return first != nil }
        let button0 = try #require(first, "the Demo window never appeared on the accessibility bus: \(Self.lastProbeError)")
        let button1 = try #require(try Self.extents(of: "Button 1", on: desktop))
        let screen = try XcbConnection(display: desktop.display)
        // Clicks reach the application before the overlay is there (the pointer's first entry
        // into the window is behind us, too).
        let button2 = try #require(try Self.extents(of: "Button 2", on: desktop))
        try Self.click(button2.midX, button2.midY, on: desktop)
        #expect(Self.waitFor(30) { desktop.output(of: "gtk4_demo.py").contains("clicked Button 2") }, "app printed \(desktop.output(of: "gtk4_demo.py"))")
        // Nothing is drawn there before the run.
        #expect(try !Self.framed(button0, on: screen).sides)

        let run = Process()
        run.executableURL = try Self.binary()
        run.arguments = ["run", "--atspi", "--app", "python", "--no-view", "--settings", "none",
                         "--set", "scanning=manual", "--set", "groupItems=false", "--input", "terminal", "--braille", "none"]
        let keys = Pipe()
        run.environment = ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new }
        run.standardInput = keys
        run.standardOutput = try desktop.outputFile("overlay-run.out")
        let errors = Pipe()
        run.standardError = errors
        try run.run()
        defer {
            try? keys.fileHandleForWriting.close()
            run.waitUntilExit()
        }

        // The first item is highlighted: the frame is on Button 0's extents.
        #expect(try Self.waitFor(30) { try Self.framed(button0, on: screen).sides })
        let atStart = try Self.framed(button0, on: screen)
        #expect(atStart.sides && !atStart.centre)
        #expect(try !Self.framed(button1, on: screen).sides)

        // Enter is next: the frame leaves Button 0 for Button 1.
        keys.fileHandleForWriting.write(Data("\r".utf8))
        #expect(try Self.waitFor(30) { try Self.framed(button1, on: screen).sides })
        #expect(try !Self.framed(button0, on: screen).sides)

        // A pointer click on the frame itself (its left side, inside Button 1) reaches Button 1.
        try Self.click(button1.minX + 1, button1.midY, on: desktop)
        #expect(Self.waitFor(30) { desktop.output(of: "gtk4_demo.py").contains("clicked Button 1") }, "app printed \(desktop.output(of: "gtk4_demo.py"))")
        // Still running (q quits; its exit is checked below).
        #expect(run.isRunning)
        keys.fileHandleForWriting.write(Data("q".utf8))
        run.waitUntilExit()
        #expect(run.terminationStatus == 0)
    }
}
