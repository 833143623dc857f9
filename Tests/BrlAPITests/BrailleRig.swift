import BrailleTestSupport
import BrlAPI
import Foundation
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// An emulated Baum display with its own BRLTTY on a private BrlAPI host. Dropping the rig
/// stops BRLTTY (by its PID) and the emulator, also when a test fails half-way.
final class BaumRig {
    let emulator: BaumDisplayEmulator
    let brltty: BRLTTYProcess

    init(cells: Int = 40, answering: Bool = true, identity: String? = nil, logLevel: String = "info") throws {
        BrlAPI.ignoreSIGPIPE()
        emulator = try BaumDisplayEmulator(cells: cells, identity: identity, answering: answering)
        brltty = try BRLTTYProcess(baum: emulator, logLevel: logLevel)
        try brltty.start()
    }

    deinit {
        brltty.stop()
        emulator.stop()
    }

    /// BRLTTY's log, for failure messages.
    var log: String { brltty.logTail(lines: 60) }
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String
}

/// The commands the scanner handles.
let handledCommands: Set<BrlAPICommand> = [.route, .panLeft, .panRight, .lineUp, .lineDown]

/// Opens connections until one reports a display with cells (BrlAPI says 0×0 while BRLTTY has
/// no display: close and try again, as the design note says), then takes the display in tty
/// mode and accepts only `commands`. Retries refused connections too (BRLTTY restarting).
func connectWhenDisplayReady(host: String, timeout: Double, accepting commands: Set<BrlAPICommand> = handledCommands,
                             retryInterval: Double = 0.05) throws -> BrlAPIConnection {
    let deadline = Date(timeIntervalSinceNow: timeout)
    var lastProblem = "nothing tried"
    while Date() < deadline {
        do {
            let connection = try BrlAPIConnection.open(host: host, auth: "none")
            let size = try connection.displaySize()
            if size.columns > 0 {
                try connection.enterTTYMode()
                try connection.ignoreAllKeys()
                try connection.acceptKeys(commands)
                return connection
            }
            lastProblem = "display is \(size.columns)×\(size.rows)"
            connection.close()
        } catch {
            lastProblem = "\(error)"
        }
        Thread.sleep(forTimeInterval: retryInterval)
    }
    throw TimedOut(description: "no display on \(host) within \(timeout) s: \(lastProblem)")
}

/// The next key within `timeout` seconds: readKey until one comes, polling the connection's
/// descriptor in between.
func nextKey(_ connection: BrlAPIConnection, timeout: Double) throws -> BrlAPIKey? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
        if let key = try connection.readKey() { return key }
        let remaining = deadline.timeIntervalSinceNow
        if remaining <= 0 { return nil }
        _ = try Poll.readable([FileDescriptor(rawValue: connection.fileDescriptor)], timeout: min(remaining, 0.05) + 0.001)
    }
}

/// Cells from dot numbers, one string per cell: ["1", "12", "", "2345"].
func cells(_ dots: [String]) -> [UInt8] {
    dots.map { $0.reduce(UInt8(0)) { $0 | UInt8(1 << ($1.wholeNumberValue! - 1)) } }
}

/// `cells` padded with blank cells to `count`.
func padded(_ cells: [UInt8], to count: Int) -> [UInt8] {
    cells + [UInt8](repeating: 0, count: max(0, count - cells.count))
}

/// Median and 99th percentile of durations, in milliseconds.
func percentiles(_ seconds: [Double]) -> (median: Double, p99: Double) {
    let sorted = seconds.sorted()
    func at(_ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))] * 1000
    }
    return (at(0.5), at(0.99))
}
