// Auto scanning Firefox ESR for minutes on end (issue 25): Debian's Firefox ESR showing a real
// page (Tests/LiveApps/firefox_page.sh, browser.html) on a desktop of its own
// (Tests/LiveApps/live-session.sh), scanned by `switchscan run --atspi --app firefox` (release
// build) with auto scanning and nobody pressing anything.
//
//   swift build -c release --product switchscan --product switchscan-bench
//   .build/release/switchscan-bench live-browser [--seconds S] [--step T] [--markdown]
//
// Figures over S seconds (default 600) after the first highlight and a settling time:
// - switchscan's CPU time (utime + stime from /proc) as a share of one core;
// - highlights per step (the trace's highlight rows / (S / T)): 1 when the highlight moves every
//   step, above 1 when changes show it again, below when it stops; and how often the same item
//   was highlighted twice in a row (a highlight standing still);
// - whole-window reads (the run's debug lines, `live: window read N`) and event batches;
// - the machine's load average (/proc/loadavg, 1 minute) sampled each 10 s while it ran.
import Platform
import Foundation
import LiveTestSupport
import Runtime

func runLiveBrowserBenchmark(arguments: [String]) {
    do {
        try LiveBrowserBenchmark(arguments: arguments).run()
    } catch {
        benchProgress("live-browser: \(error)")
        CurrentProcess.exit(1)
    }
}

private struct LiveBrowserBenchmark {
    let markdown: Bool
    let seconds: Double
    let step: Double
    /// Time after the first highlight before measuring (Firefox finishes its start-up).
    static let settling = 20.0

    init(arguments: [String]) throws {
        markdown = arguments.contains("--markdown")
        seconds = try numberOption("--seconds", in: arguments) ?? 600
        step = try numberOption("--step", in: arguments) ?? 0.5
        guard (10...7_200).contains(seconds), (0.1...10).contains(step) else {
            throw BenchFailure("--seconds takes 10…7200, --step 0.1…10")
        }
    }

    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    func run() throws {
        let package = try BenchPackage.locate()
        let switchscan = try package.switchscan()
        guard FirefoxAutoScan.isAvailable else {
            throw BenchFailure("needs Debian's firefox-esr and the test desktop (scripts/setup --tests)")
        }
        let scratch = try makeScratchFolder("live-browser")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        benchProgress("live-browser: starting Firefox")
        let scan = try FirefoxAutoScan(switchscan: switchscan, scratch: scratch, step: step)
        defer { scan.stop() }
        let run = scan.run

        // The page is scanned: its button highlighted.
        let started = benchNow()
        while !scan.highlights.contains(where: { $0.label == "Add row" }) {
            guard run.isRunning else { throw BenchFailure("switchscan run exited (status \(run.terminationStatus))") }
            guard benchNow() - started < 300 else { throw BenchFailure("the page's button was never highlighted within 300 s") }
            benchSleep(0.5)
        }
        benchProgress("live-browser: page scanned after \(String(format: "%.1f", benchNow() - started)) s; settling \(Self.settling) s")
        benchSleep(Self.settling)

        let before = scan.highlights.count
        let readsBefore = scan.windowReads
        let batchesBefore = scan.eventBatches
        let cpuBefore = ProcessStatistics.cpuSeconds(of: run.processIdentifier) ?? 0
        let measureStart = benchNow()
        var loads = [Double]()
        benchProgress("live-browser: measuring \(Int(seconds)) s")
        while benchNow() - measureStart < seconds {
            if let load = Self.loadAverage() { loads.append(load) }
            benchSleep(min(10, seconds - (benchNow() - measureStart)))
            guard run.isRunning else { throw BenchFailure("switchscan run exited (status \(run.terminationStatus))") }
        }
        let elapsed = benchNow() - measureStart
        let cpu = (ProcessStatistics.cpuSeconds(of: run.processIdentifier) ?? 0) - cpuBefore
        let steps = Array(scan.highlights.dropFirst(before))
        let reads = scan.windowReads - readsBefore
        let batches = scan.eventBatches - batchesBefore
        let stood = zip(steps, steps.dropFirst()).filter { $0.id == $1.id }.count
        let distinct = Set(steps.map(\.id)).count
        let expected = elapsed / step

        let share = cpu / elapsed * 100
        let rows: [(String, String)] = [
            ("measured", String(format: "%.0f s of auto scanning, one step every %.2f s", elapsed, step)),
            ("CPU", String(format: "%.2f s, %.3f %% of a core", cpu, share)),
            ("highlights", String(format: "%d (%.3f per step), %d distinct items", steps.count, Double(steps.count) / expected, distinct)),
            ("same item twice in a row", "\(stood)"),
            ("whole-window reads", "\(reads)"),
            ("event batches", "\(batches)"),
            ("load average (1 min) while it ran", loads.isEmpty ? "n/a" : String(format: "%.2f to %.2f, mean %.2f (2 cores)", loads.min()!, loads.max()!, loads.reduce(0, +) / Double(loads.count))),
        ]
        if markdown {
            print("## Auto scanning Firefox ESR (live-browser)\n")
            print("| Figure | Value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            print()
        } else {
            for (name, value) in rows { print("\(name): \(value)") }
        }
    }
}
