import BrailleTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestTier
import Platform

/// A BRLTTY started by a test never outlives the test runner, and leaves no BrlAPI socket or
/// lock file behind (issue 11: a runner killed mid-suite left BRLTTY spinning at 100 % on a
/// deleted pseudo-terminal).
@Suite("BRLTTY started by tests dies with the runner", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start BRLTTY"), .serialized,
       .enabled(if: BRLTTYProcess.executablePath != nil, "brltty is not installed (scripts/setup installs it)"))
struct BRLTTYWatchdogTests {
    static func alive(_ pid: pid_t) -> Bool {
        // A zombie (exited, not yet reaped by its new parent) counts as gone.
        guard let state = ProcessStatistics.state(of: pid) else { return false }
        return state != "Z"
    }

    static func waitUntil(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    @Test("BRLTTY reads an empty configuration file of its own, not a system path")
    func configurationFileIsItsOwn() throws {
        let brltty = try BRLTTYProcess(driver: "vr", device: "client:/nowhere")
        let index = try #require(brltty.arguments.firstIndex(of: "-f"))
        let configuration = brltty.arguments[index + 1]
        #expect(configuration == brltty.directory + "/brltty.conf")
        #expect(try FileSystem.status(configuration) == FileSystem.Status(kind: .regular, size: 0))
    }

    @Test func whenTheRunnersEndOfThePipeClosesBRLTTYIsStoppedAndItsFilesRemoved() throws {
        let emulator = try BaumDisplayEmulator(cells: 40)
        let brltty = try BRLTTYProcess(baum: emulator)
        try brltty.start()
        let socket = "\(BRLTTYProcess.socketDirectory)/\(brltty.hostNumber)"
        let lockFile = "\(BRLTTYProcess.socketDirectory)/.\(brltty.hostNumber)"
        #expect(FileSystem.isAccessible(socket, .exists) && FileSystem.isAccessible(lockFile, .exists), "BrlAPI's socket and lock file exist while it runs")
        // What the kernel does when the runner dies: its end of the pipe is closed.
        let (pid, watchdog) = try #require(brltty.abandonToWatchdog())
        #expect(Self.waitUntil(5) { !Self.alive(pid) }, "BRLTTY \(pid) is gone")
        #expect(Self.waitUntil(5) { !Self.alive(watchdog) }, "the watchdog \(watchdog) is gone")
        ChildProcess.wait(pid)
        ChildProcess.wait(watchdog)
        #expect(Self.waitUntil(2) { !FileSystem.isAccessible(socket, .exists) && !FileSystem.isAccessible(lockFile, .exists) },
                "no socket or lock file left for host \(brltty.hostNumber)")
    }

    @Test func aBRLTTYKilledOnPurposeLeavesNoFilesOnceItsTestEnds() throws {
        let emulator = try BaumDisplayEmulator(cells: 40)
        var brltty: BRLTTYProcess? = try BRLTTYProcess(baum: emulator)
        try brltty!.start()
        let host = brltty!.hostNumber
        let watchdog = try #require(brltty!.watchdogPID)
        brltty!.kill()  // a crash, as the reconnection tests simulate: its files stay meanwhile
        #expect(!Self.alive(watchdog), "the watchdog ended with the kill")
        #expect(FileSystem.isAccessible("\(BRLTTYProcess.socketDirectory)/.\(host)", .exists), "the crash left its lock file")
        brltty = nil
        #expect(!FileSystem.isAccessible("\(BRLTTYProcess.socketDirectory)/\(host)", .exists))
        #expect(!FileSystem.isAccessible("\(BRLTTYProcess.socketDirectory)/.\(host)", .exists))
    }

    @Test func noOtherChildInheritsTheRunnersEndOfThePipe() throws {
        let emulator = try BaumDisplayEmulator(cells: 40)
        let brltty = try BRLTTYProcess(baum: emulator)
        try brltty.start()
        defer { brltty.stop() }
        // A process started afterwards (as a test starts switchscan) holds no pipe to the watchdog.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ls -l /proc/self/fd"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let listing = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // The watchdog's standard input is the pipe; the new process must hold no end of it.
        let watchdog = try #require(brltty.watchdogPID)
        let pipe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(watchdog)/fd/0")
        #expect(pipe.hasPrefix("pipe:["), "\(pipe)")
        #expect(!listing.contains(pipe), "a later child holds the watchdog's pipe \(pipe):\n\(listing)")
    }
}
