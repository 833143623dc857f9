import Foundation
import LiveTestSupport
import Testing

/// The real Orca (Debian's) on the test desktop, its speech going to a speech-dispatcher that
/// records it and its braille to BRLTTY, moved to widgets of real applications through AT-SPI;
/// switchscan's braille line for the same objects carries the same name, text, value and state
/// as Orca's reading (docs/live-applications.md has the whole table, from
/// `switchscan-bench orca`).
extension LiveApplicationTests {
    /// Widgets where both should agree: a calculator key and its result, a paragraph's text, a link's
    /// name, a check box's name and state.
    static let orcaAgreement: [(application: String, widgets: [String])] = [
        ("gnome-calculator", ["7 button", "display after 7 × 6 ="]),
        ("chromium", ["paragraph", "link", "check box (checked)"]),
    ]

    @Test("The real Orca and our braille line read the same text, name and state: gnome-calculator's result 42, a web page's paragraph, link and checked check box",
          .enabled(if: OrcaProcess.isInstalled, "Debian's orca is not installed (apt-get install orca)"),
          .enabled(if: RealApplication.isInstalled("/usr/bin/gnome-calculator") && RealApplication.isInstalled("/usr/bin/chromium"),
                   "gnome-calculator or chromium is not installed (scripts/setup --tests)"))
    func orcaAgreement() throws {
        let desktop = try LiveDesktop.shared.get()
        let comparison = try OrcaComparison(desktop: desktop, directory: desktop.appFolder + "/orca-agreement")
        defer { comparison.stop() }
        for (name, titles) in Self.orcaAgreement {
            var application = try #require(OrcaComparison.applications.first { $0.name == name })
            // The steps up to the last widget wanted (the keys 7 × 6 = come with the result's).
            application.steps = application.steps.filter { titles.contains($0.widget.title) }
            let rows = try comparison.measure(application)
            #expect(rows.count == titles.count)
            for row in rows {
                let what = "\(row.application) \(row.widget.title): Orca said \(row.speech), brailled \(row.brailleLine ?? "nothing"); ours \(row.ours ?? "no item")"
                #expect(row.problem == nil, "\(what): \(row.problem ?? "")")
                #expect(row.orcaCarries(row.widget.key), "\(what): Orca without \(row.widget.key)")
                #expect(row.oursCarries(row.widget.key), "\(what): our line without \(row.widget.key)")
                if let state = row.widget.state {
                    #expect(row.speech.contains { $0.contains(state) && !$0.contains("not " + state) }, "\(what): Orca did not say \(state)")
                    let ours = row.widget.ourState ?? state
                    #expect(row.oursCarries(ours), "\(what): our line does not say \(ours) (Orca: \(state))")
                }
            }
        }
        // Orca's braille went to the display through BrlAPI (when BRLTTY ran): the cells
        // show something after the last move.
        if let display = comparison.display {
            #expect(display.cells.contains { $0 != 0 }, "BRLTTY's display stayed blank: \(comparison.brltty?.logTail() ?? "")")
        }
    }
}
