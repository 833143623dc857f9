// What the latency and idle benchmarks share: child processes started and stopped by PID, the
// package's built products, the C reference, BRLTTY on an emulated display, a generated scene,
// FIFOs of raw input events, and the figures they print.
import BrailleTestSupport
import Runtime
import Foundation
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with posix_spawn and waited for (or stopped) by its PID.
final class BenchChild {
    let pid: pid_t
    let name: String
    private(set) var status: Int32?

    /// Starts `executable` with `arguments`; standard input from /dev/null (nothing to read),
    /// output and errors to the given files (in the run's temporary folder; the same path for
    /// both is one file); `environment` entries replace or add variables.
    init(_ executable: String, _ arguments: [String], name: String, stdout: String, stderr: String,
         environment: [String: String] = [:]) throws {
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        do {
            pid = try ChildProcess.spawn(
                executable, arguments: [executable] + arguments, environment: variables.map { "\($0.key)=\($0.value)" },
                standardInput: .reading("/dev/null"), standardOutput: .writing(stdout, append: false),
                standardError: stderr == stdout ? .standardOutput : .writing(stderr, append: false))
        } catch {
            throw BenchFailure("cannot start \(executable): \(error.errno.message)")
        }
        self.name = name
    }

    /// Whether it still runs (reaps it when it has exited).
    var isRunning: Bool {
        if status != nil { return false }
        switch ChildProcess.state(of: pid, blocking: false) {
        case .running: return true
        case .ended(.exited(let code)): status = code
        case .ended(.signalled(let signal)): status = 128 + signal
        case .notAChild: break
        }
        return false
    }

    /// Waits up to `timeout` seconds for the exit; its status (exit code, or 128 + signal).
    @discardableResult
    func wait(timeout: Double) -> Int32? {
        let end = benchNow() + timeout
        while isRunning {
            if benchNow() >= end { return nil }
            benchSleep(0.01)
        }
        return status
    }

    /// SIGTERM, then SIGKILL if it has not exited within `grace` seconds; reaped.
    func stop(grace: Double = 3) {
        guard isRunning else { return }
        try? ProcessSignal.send(SIGTERM, to: pid)
        if wait(timeout: grace) == nil {
            try? ProcessSignal.send(SIGKILL, to: pid)
            wait(timeout: 5)
        }
    }

}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// CLOCK_MONOTONIC in seconds (the clock of evdev timestamps and of switchscan's trace): the
/// runtime's own clock.
func benchNow() -> Double { MonotonicClock.now() }

func benchSleep(_ seconds: Double) {
    guard seconds > 0 else { return }
    benchSleep(until: benchNow() + seconds)
}

/// Sleeps until `moment` on CLOCK_MONOTONIC (an absolute deadline: no drift).
func benchSleep(until moment: Double) {
    MonotonicClock.sleep(until: moment)
}

/// Prints a progress line to standard error (standard output carries the figures).
func benchProgress(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The package's built products and source folder.
struct BenchPackage {
    /// The package root (the folder with Package.swift).
    let root: String
    /// The folder of this executable (`.build/<triple>/release`).
    let products: String

    /// Found from this executable's path, else from the current folder.
    static func locate() throws -> BenchPackage {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let products = executable.deletingLastPathComponent().path
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return BenchPackage(root: folder.path, products: products)
            }
            folder = folder.deletingLastPathComponent()
        }
        let current = FileManager.default.currentDirectoryPath
        if FileManager.default.fileExists(atPath: current + "/Package.swift") { return BenchPackage(root: current, products: products) }
        throw BenchFailure("cannot find the package (Package.swift) above \(executable.path)")
    }

    /// `switchscan` built next to this benchmark (same configuration).
    func switchscan() throws -> String {
        let path = products + "/switchscan"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchFailure("\(path) is missing: build it with `swift build -c release --product switchscan`")
        }
        return path
    }

    /// Compiles `Benchmarks/reference/reference.c` into `.build/switchscan-reference`.
    func reference(scratch: String) throws -> String {
        let source = root + "/Benchmarks/reference/reference.c"
        let output = root + "/.build/switchscan-reference"
        // cc, gcc, or the clang that comes with the Swift toolchain, from PATH.
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        let candidates = ["cc", "gcc", "clang"].flatMap { name in folders.map { $0 + "/" + name } }
        guard let compiler = candidates.first(where: FileManager.default.isExecutableFile) else {
            throw BenchFailure("no C compiler (cc, gcc or clang on PATH) to build \(source)")
        }
        let log = scratch + "/cc.log"
        let child = try BenchChild(compiler, ["-O2", "-Wall", "-o", output, source, "-lbrlapi"], name: "cc", stdout: log, stderr: log)
        guard child.wait(timeout: 120) == 0 else {
            child.stop()
            throw BenchFailure("\(compiler) could not build \(source):\n" + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
        }
        return output
    }
}

/// A private temporary folder, removed by `remove()`.
func makeScratchFolder(_ name: String) throws -> String {
    do {
        return try FileSystem.makeTemporaryDirectory(prefix: NSTemporaryDirectory() + "/switchscan-\(name)-")
    } catch {
        throw BenchFailure("\(error)")
    }
}

/// BRLTTY (Baum driver) on an emulated 40-cell Baum display, on a private BrlAPI host.
func startEmulatedDisplay(cells: Int = 40) throws -> (emulator: BaumDisplayEmulator, brltty: BRLTTYProcess) {
    guard BRLTTYProcess.hasBrailleDriver("bm") else {
        throw BenchFailure("brltty with its Baum driver (bm) is not installed (scripts/setup installs it)")
    }
    let emulator = try BaumDisplayEmulator(cells: cells)
    let brltty = try BRLTTYProcess(baum: emulator)
    do { try brltty.start() } catch {
        emulator.stop()
        throw error
    }
    return (emulator, brltty)
}

/// A flat screen of 40 labelled buttons (English: liblouis contracts them with UEB grade 2).
func benchmarkSceneYAML(title: String) -> String {
    var lines = ["scene: \(title)", "size: [390, 844]", "start: main", "screens:", "  main:", "    elements:"]
    let words = ["Send", "Archive", "Reply to all", "Forward", "Mark as unread", "Move to folder", "Delete", "Flag"]
    for i in 0..<40 {
        lines.append("      - {id: b-\(i), label: \"\(words[i % words.count]) \(i)\", traits: [button], frame: [0, \(i * 20), 390, 20]}")
    }
    return lines.joined(separator: "\n") + "\n"
}

/// The write end of a FIFO, opened once its reader has it open (non-blocking tries, so that a
/// reader that died does not hang the benchmark).
func openFIFOForWriting(_ path: String, reader: BenchChild, timeout: Double) throws -> FileDescriptor {
    let end = benchNow() + timeout
    while true {
        do {
            return try FileIO.open(path, .writeOnly, options: .nonBlocking)
        } catch where error.errno == .noSuchDeviceOrAddress {
        } catch {
            throw BenchFailure("\(error)")
        }
        guard reader.isRunning else { throw BenchFailure("\(reader.name) exited (status \(reader.status ?? -1)) before opening \(path)") }
        guard benchNow() < end else { throw BenchFailure("\(reader.name) did not open \(path) within \(timeout) s") }
        benchSleep(0.005)
    }
}

/// One `struct input_event` (x86_64: 24 bytes) dated `time` (CLOCK_MONOTONIC seconds).
func inputEventRecord(time: Double, type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
    var bytes = [UInt8]()
    bytes.reserveCapacity(24)
    // To the nearest microsecond (callers pass times already in whole microseconds).
    let total = Int64((time * 1_000_000).rounded())
    let seconds = total / 1_000_000, micros = total % 1_000_000
    withUnsafeBytes(of: seconds.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: micros.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    return bytes
}

/// Figures of a sample: median and p99 (nearest rank).
struct BenchSample {
    let count: Int
    let median: Double
    let p99: Double
    let maximum: Double

    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        count = sorted.count
        median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        p99 = sorted[max(0, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        maximum = sorted[sorted.count - 1]
    }
}

/// Seconds as milliseconds with three decimals.
func benchMilliseconds(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }

/// The option `--name VALUE` among `arguments`, as a number.
func numberOption(_ name: String, in arguments: [String]) throws -> Double? {
    guard let index = arguments.firstIndex(of: name) else { return nil }
    guard index + 1 < arguments.count, let value = Double(arguments[index + 1]), value > 0 else {
        throw BenchFailure("\(name) needs a positive number")
    }
    return value
}

/// Voluntary (the thread slept and was woken) and involuntary (preempted) context switches of a
/// process, summed over its live threads (/proc/PID/task/*/status).
func contextSwitches(of pid: pid_t) -> (voluntary: Int, involuntary: Int) {
    var voluntary = 0, involuntary = 0
    for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
        for line in status.split(separator: "\n") {
            if line.hasPrefix("voluntary_ctxt_switches:") { voluntary += Int(line.split(separator: "\t").last ?? "") ?? 0 }
            if line.hasPrefix("nonvoluntary_ctxt_switches:") { involuntary += Int(line.split(separator: "\t").last ?? "") ?? 0 }
        }
    }
    return (voluntary, involuntary)
}
