import AccessibilityModel
import Foundation
import LiveTestSupport
import Testing
import TestTier
import Xcb

/// `switchscan run --atspi` on a desktop with a window manager (openbox): windows are reparented
/// into decorated frames and placed by it, so window and screen coordinates differ (Qt 5 then
/// gives screen coordinates for window ones, GTK 3 window coordinates of its client area). The
/// overlay must still sit on the highlighted widget, as AT-SPI's screen extents say, and the
/// reading order be the visual one.
@Suite("Under a window manager", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start an Xvfb desktop"), .serialized, .timeLimit(.minutes(5)),
       .enabled(if: LiveDesktop.isAvailable && LiveDesktop.hasOpenbox && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/pyatspi"),
                "needs scripts/setup --tests (Xvfb, openbox, the AT-SPI bus, python3-pyatspi)"))
struct WindowManagerTests {
    /// A run of switchscan on `desktop`, scanning manually (Enter is next), with its trace.
    final class Run {
        let process = Process()
        let keys = Pipe()
        let trace: String

        init(_ desktop: LiveDesktop, application: String, name: String, overlay: Bool = true) throws {
            trace = desktop.appFolder + "/\(name).trace.jsonl"
            process.executableURL = try OverlayTests.binary()
            process.arguments = ["run", "--atspi", "--app", application, "--no-view", "--settings", "none",
                                 "--set", "scanning=manual", "--set", "groupItems=false", "--input", "terminal",
                                 "--braille", "none", "--trace", trace] + (overlay ? [] : ["--no-overlay"])
            process.environment = ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new }
            process.standardInput = keys
            process.standardOutput = try desktop.outputFile("\(name).out")
            process.standardError = try desktop.outputFile("\(name).err")
            try process.run()
        }

        func next() { key("\r") }

        /// Types `text` on the run's terminal input.
        func key(_ text: String) { keys.fileHandleForWriting.write(Data(text.utf8)) }

        /// The trace written so far.
        var traceText: String { (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "" }

        /// The labels highlighted so far, in order.
        var highlights: [String] { RunTrace.highlights(traceText).map(\.label) }

        /// Quits (q) and waits for the exit; its status.
        func quit() -> Int32 {
            keys.fileHandleForWriting.write(Data("q".utf8))
            try? keys.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit {
            if process.isRunning {
                try? keys.fileHandleForWriting.close()
                process.waitUntilExit()
            }
        }
    }

    /// Extents "x y width height" the probe printed, as a rectangle.
    static func rect(_ text: String) -> Rect? {
        let numbers = text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard numbers.count == 4, numbers.allSatisfy({ abs($0) < 100_000 }) else { return nil }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    @Test("the frame sits on the highlighted widget's screen extents and follows next, though window coordinates differ",
          arguments: [("qt5_demo.py", "qt5_demo"), ("gtk3_demo.py", "gtk3_demo")])
    func overlayOnWidget(script: String, application: String) throws {
        if script.hasPrefix("qt5") { try #require(LiveDesktop.hasPyQt5, "needs python3-pyqt5") }
        let desktop = try LiveDesktop(apps: [script], windowManager: true)
        defer { desktop.stop() }
        #expect(desktop.waitUntilReady(script))
        var first: Rect?
        _ = try OverlayTests.waitFor(LiveDesktop.startLimit) { first = try OverlayTests.extents(of: "Button 0", on: desktop); return first != nil }
        let button0 = try #require(first, "the window never appeared on the accessibility bus: \(OverlayTests.lastProbeError)")
        let button1 = try #require(try OverlayTests.extents(of: "Button 1", on: desktop))
        // The window manager placed the window away from the screen's corner: window coordinates
        // that were screen ones (Qt 5), or a frame added to them (GTK 3), misplace the frame.
        let windowExtents = try #require(Self.rect(try OverlayTests.probe(desktop, ["window-extents", "Button 0"])))
        let window = try #require(try OverlayTests.extents(of: "Demo", on: desktop))
        #expect(window.x > 0 && window.y > 0, "window at \(window), Button 0 at \(button0) (window coordinates \(windowExtents))")

        let screen = try XcbConnection(display: desktop.display)
        #expect(try !OverlayTests.framed(button0, on: screen).sides)
        let run = try Run(desktop, application: application, name: "overlay-\(application)")
        #expect(try OverlayTests.waitFor(30) { try OverlayTests.framed(button0, on: screen).sides },
                "no frame on Button 0 at \(button0); highlights \(run.highlights)")
        #expect(try !OverlayTests.framed(button1, on: screen).sides)
        run.next()
        #expect(try OverlayTests.waitFor(30) { try OverlayTests.framed(button1, on: screen).sides },
                "no frame on Button 1 at \(button1); highlights \(run.highlights)")
        #expect(try !OverlayTests.framed(button0, on: screen).sides)
        #expect(run.quit() == 0)
    }

    @Test("FeatherPad (Qt 5): the scan starts at the menu bar's File and follows the visual order; the frame is on File")
    func featherPadReadingOrder() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/featherpad"), "needs featherpad")
        let desktop = try LiveDesktop(apps: [], windowManager: true)
        defer { desktop.stop() }
        let featherPad = try desktop.launch("featherpad.sh")
        defer { LiveDesktop.stop(featherPad) }
        var found: Rect?
        _ = try OverlayTests.waitFor(LiveDesktop.startLimit) { found = try OverlayTests.extents(of: "File", on: desktop); return found != nil }
        let file = try #require(found, "FeatherPad never appeared on the accessibility bus: \(OverlayTests.lastProbeError)")
        let edit = try #require(try OverlayTests.extents(of: "Edit", on: desktop))

        let screen = try XcbConnection(display: desktop.display)
        let run = try Run(desktop, application: "featherpad", name: "featherpad")
        #expect(try OverlayTests.waitFor(30) { try OverlayTests.framed(file, on: screen).sides },
                "no frame on File at \(file); highlights \(run.highlights)")
        for _ in 0..<8 {
            let count = run.highlights.count
            run.next()
            _ = OverlayTests.waitFor(10) { run.highlights.count > count }
        }
        let order = run.highlights
        #expect(order.first == "File", "highlights \(order)")
        // The menu bar (at the top) comes before the tab (below it), as on the screen (in Qt's
        // window coordinates the tab was above it); Edit right after File.
        let fileIndex = try #require(order.firstIndex(of: "File"), "highlights \(order)")
        #expect(order.firstIndex(of: "Edit") == fileIndex + 1, "highlights \(order)")
        if let tabIndex = order.firstIndex(of: "Untitled") { #expect(tabIndex > fileIndex, "highlights \(order)") }
        // (File and Edit side by side on the screen, as the order says.)
        #expect(file.minY == edit.minY && file.maxX <= edit.minX, "File \(file), Edit \(edit)")
        #expect(run.quit() == 0)
    }
}
