// switchscan-bench orca [--only APPLICATION]: the real Orca and switchscan on the same widgets of
// real applications (gnome-calculator, galculator, FeatherPad, Mousepad, Firefox ESR, Chromium)
// on a test desktop of its own, printed as the Markdown table of docs/live-applications.md
// (`OrcaComparison`, in Sources/LiveTestSupport). Progress on stderr. A comparison, not a
// benchmark: it times nothing.
import Platform
import Foundation
import LiveTestSupport
import Runtime

func runOrcaComparison(arguments: [String]) {
    guard OrcaProcess.isInstalled, LiveDesktop.isAvailable else {
        benchProgress("orca: needs Debian's orca and the test desktop's programs (scripts/setup --tests)")
        CurrentProcess.exit(1)
    }
    var applications = OrcaComparison.applications
    if let index = arguments.firstIndex(of: "--only") {
        guard index + 1 < arguments.count else {
            benchProgress("orca: --only takes an application's name on the accessibility bus")
            CurrentProcess.exit(64)
        }
        applications = applications.filter { $0.name == arguments[index + 1] }
        guard !applications.isEmpty else {
            benchProgress("orca: --only \(arguments[index + 1]): no such application; the applications are "
                + OrcaComparison.applications.map(\.name).joined(separator: ", "))
            CurrentProcess.exit(64)
        }
    }
    do {
        let desktop = try LiveDesktop(apps: [])
        defer { desktop.stop() }
        // This process's libatspi joins the desktop's accessibility bus at its first call.
        try CurrentProcess.setEnvironmentVariable("DISPLAY", to: desktop.display)
        try CurrentProcess.setEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS", to: desktop.sessionBus)
        let comparison = try OrcaComparison(desktop: desktop, directory: desktop.appFolder + "/orca-comparison")
        defer { comparison.stop() }
        if let problem = comparison.brailleProblem { benchProgress("orca: braille to no display: \(problem)") }
        var rows = [OrcaComparison.Row]()
        for application in applications {
            rows += try comparison.measure(application) { benchProgress("orca: \($0)") }
        }
        print("Measured \(ISO8601DateFormatter().string(from: Date())) with Debian's \(packageVersions()).\n")
        print(OrcaComparison.table(rows))
    } catch {
        benchProgress("orca: \(error)")
        CurrentProcess.exit(1)
    }
}

/// The Debian versions of Orca, its speech and braille servers and the applications compared.
private func packageVersions() -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg-query")
    process.arguments = ["-W", "-f", "${Package} ${Version}, ", "orca", "speech-dispatcher", "brltty", "gnome-calculator",
                         "galculator", "featherpad", "mousepad", "firefox-esr", "chromium", "libatk-adaptor"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    guard (try? process.run()) != nil else { return "(dpkg-query did not run)" }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: ", "))
}
