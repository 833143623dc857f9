import BrailleTestSupport
import Foundation
import LiveTestSupport
import Testing
import TestTier

/// `switchscan run --atspi --braille brlapi:HOST` against the GTK 3 demo window on a desktop of
/// its own (Tests/LiveApps) and a real BRLTTY driving an emulated Baum display: the exact dots of
/// the highlighted live widget, as they are for a scene's (`BrailleRunTests`).
@Suite("switchscan run --atspi on a braille display", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start BRLTTY and an Xvfb desktop"), .serialized,
       .enabled(if: BRLTTYProcess.hasBrailleDriver("bm") && LiveDesktop.isAvailable,
                "BRLTTY with its Baum driver, or the live desktop's programs, are not installed"))
struct LiveBrailleRunTests {
    /// Cells from dot numbers, one string per cell ("" blank).
    static func cells(_ dots: [String]) -> [UInt8] {
        dots.map { $0.reduce(UInt8(0)) { $0 | UInt8(1 << ($1.wholeNumberValue! - 1)) } }
    }

    /// `Button 0 btn` in UEB grade 2 (liblouis en-ueb-g2.ctb, as the scene lines): capital ⠠,
    /// b u t t o n letter by letter, number sign ⠼ + ⠚ (0), btn.
    static let button0 = cells(["6", "12", "136", "2345", "2345", "135", "1345", "", "3456", "245", "",
                                "12", "2345", "1345"])
    /// `Button 1 btn`: ⠼⠁ for 1.
    static let button1 = cells(["6", "12", "136", "2345", "2345", "135", "1345", "", "3456", "1", "",
                                "12", "2345", "1345"])

    @Test("The highlighted widget of a live GTK 3 window reaches the display as exact dots, and follows Next")
    func exactDots() throws {
        let desktop = try LiveDesktop(apps: ["gtk3_demo.py"])
        defer { desktop.stop() }
        let rig = try DisplayRig(cells: 40)
        // The window is on the bus a moment after the application starts: the run takes the
        // newest window then, so wait for the application's own word that it is shown.
        #expect(desktop.waitUntilReady("gtk3_demo.py"), "the demo never said it was ready")
        let run = try ScanRun(["--atspi", "--app", "gtk3_demo", "--set", "scanning=manual", "--set", "groupItems=false",
                               "--braille", "brlapi:\(rig.brltty.host)"], environment: desktop.environment)
        try rig.expect(Self.button0, "Button 0, the window's first item", run: run, timeout: LiveDesktop.startLimit)
        run.type("\r")
        try rig.expect(Self.button1, "Button 1 after Enter (next)", run: run)
        #expect(run.finish() == 0, "\(run.stderr)")
        // The trace says the same: the highlight on the window's Button 0, then Button 1.
        // (A layout change while the window settles says the highlight again where it is: the
        // same label twice in a row is one place.)
        let highlights = run.events.filter { $0["kind"] as? String == "highlight" }.compactMap { $0["label"] as? String }
        let places = highlights.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(places.prefix(2) == ["Button 0", "Button 1"], "\(highlights)")
    }
}
