import Foundation
import Platform

/// BRLTTY started for a test, on a private BrlAPI host, and stopped by the process id it
/// was started with.
///
/// The command line keeps BRLTTY away from the machine's own setup:
///
/// - `-n` stays in the foreground (so the PID is BRLTTY's), `-e` logs to standard error (the
///   harness sends it to `logPath`), `-q` skips the start banner (which would hold the display
///   for seconds after every start);
/// - `-x no -s no` no screen and no speech driver: the display shows what BrlAPI clients write;
/// - `-f /dev/null` ignores `/etc/brltty.conf`; `-U`/`-W` point the updatable and writable
///   directories (preferences, runtime files) into a private temporary directory;
/// - `-t en-nabcc` fixes the text table (otherwise it follows the locale);
/// - `-b <driver> -d <device>` the display, e.g. `-b bm -d serial:/dev/pts/3`;
/// - `-A auth=none,host=:N` BrlAPI without authentication on local socket N
///   (`/var/lib/BrlAPI/N`), N chosen among the unused ones.
///
/// The child starts with no blocked signals and SIGPIPE, SIGTERM, SIGINT, SIGHUP at their
/// defaults, whatever the test process did with them. Every wait is bounded.
///
/// **BRLTTY never outlives the test runner.** Beside it runs a watchdog (`/bin/sh`) whose
/// standard input is the read end of a pipe only this process holds (close-on-exec, so no other
/// child inherits it). When the runner dies in any way, SIGKILL included, the kernel closes the
/// write end; the watchdog reads end-of-file and stops that BRLTTY (SIGTERM, then SIGKILL after
/// 2 s), then removes its BrlAPI socket and lock file should they remain. A stop or a crash
/// simulated by `kill()` ends the watchdog first (by its PID). `PR_SET_PDEATHSIG` is not used:
/// it follows the spawning *thread*, and a test's thread may end long before the runner.
/// Socket and lock files a BRLTTY killed on purpose leaves (`kill()`) are removed when this
/// object goes away.
public final class BRLTTYProcess: @unchecked Sendable {
    /// BrlAPI's host number N: the server listens on `/var/lib/BrlAPI/N`.
    public let hostNumber: Int
    /// The BrlAPI host for clients: `:N`.
    public var host: String { ":\(hostNumber)" }
    /// The braille driver code (`bm`, `vr`).
    public let driver: String
    /// The braille device (`serial:/dev/pts/3`, `client:/tmp/…/socket`).
    public let device: String
    /// The brltty executable.
    public let executable: String
    /// Everything after the executable's name.
    public let arguments: [String]
    /// The private directory (updatable and writable directories, log).
    public let directory: String
    /// BRLTTY's log (standard output and error of every start, appended).
    public let logPath: String

    private let lock = NSLock()
    private var _pid: pid_t?
    /// The watchdog, while BRLTTY runs.
    private var watchdog: Watchdog?

    /// The directory of BrlAPI's local sockets.
    public static let socketDirectory = "/var/lib/BrlAPI"

    /// Prepares (does not start) BRLTTY.
    ///
    /// - Parameters:
    ///   - driver: braille driver code, e.g. "bm" (Baum) or "vr" (Virtual).
    ///   - device: braille device, e.g. "serial:/dev/pts/3".
    ///   - hostNumber: BrlAPI host number; nil picks an unused one in 1000…9999.
    ///   - logLevel: `-l` (e.g. "info", "debug", "info,server,inpkts,outpkts").
    ///   - extraArguments: more options, appended.
    public init(driver: String, device: String, hostNumber: Int? = nil, logLevel: String = "info",
                extraArguments: [String] = []) throws(BrailleTestSupportError) {
        guard let executable = Self.executablePath else {
            throw BrailleTestSupportError("BRLTTYProcess", detail: "brltty is not installed (scripts/setup installs it)")
        }
        let directory: String
        do {
            directory = try FileSystem.makeTemporaryDirectory(prefix: NSTemporaryDirectory() + "/switchscan-brltty-")
            for name in ["updatable", "writable"] {
                try FileSystem.makeDirectory(directory + "/" + name, permissions: 0o700)
            }
            // An empty configuration file of its own: every setting comes from the options, and
            // nothing of the machine's /etc/brltty.conf applies.
            let configuration = try FileIO.open(directory + "/brltty.conf", .writeOnly, options: [.create, .truncate])
            FileIO.close(configuration)
        } catch {
            throw BrailleTestSupportError(error)
        }
        self.hostNumber = hostNumber ?? Self.unusedHostNumber()
        self.driver = driver
        self.device = device
        self.executable = executable
        self.directory = directory
        self.logPath = directory + "/brltty.log"
        self.arguments = [
            "-n", "-e", "-q",
            "-x", "no", "-s", "no",
            "-f", directory + "/brltty.conf",
            "-U", directory + "/updatable", "-W", directory + "/writable",
            "-t", "en-nabcc",
            "-l", logLevel,
            "-b", driver, "-d", device,
            "-A", "auth=none,host=:\(self.hostNumber)",
        ] + extraArguments
    }

    /// BRLTTY for a Baum display emulator: `-b bm -d serial:<slave>`.
    public convenience init(baum emulator: BaumDisplayEmulator, hostNumber: Int? = nil, logLevel: String = "info",
                            extraArguments: [String] = []) throws(BrailleTestSupportError) {
        try self.init(driver: "bm", device: "serial:" + emulator.slavePath, hostNumber: hostNumber,
                      logLevel: logLevel, extraArguments: extraArguments)
    }

    deinit {
        stop()
        removeStaleServerFiles()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// BrlAPI's socket and lock file for this host, when no live process owns them (a BRLTTY
    /// killed by SIGKILL cannot remove them itself).
    private func removeStaleServerFiles() {
        if let owner = Self.lockOwner(hostNumber: hostNumber), ProcessSignal.exists(owner) { return }
        try? FileSystem.remove("\(Self.socketDirectory)/\(hostNumber)")
        try? FileSystem.remove("\(Self.socketDirectory)/.\(hostNumber)")
    }

    // MARK: - The process

    /// The running BRLTTY's process id, nil when stopped.
    public var pid: pid_t? { lock.withLock { _pid } }

    /// Whether the started process is still running (reaps it if it exited).
    public var isRunning: Bool {
        lock.withLock {
            guard let pid = _pid else { return false }
            if ChildProcess.state(of: pid, blocking: false) != .running { _pid = nil; return false }
            return true
        }
    }

    /// Starts BRLTTY and waits (at most `timeout` s) until its BrlAPI server answers on
    /// `host` (its lock file names this process, and a connection gets the server's first
    /// packet). Throws, with the log's end, if BRLTTY exits or the time runs out.
    public func start(timeout: Double = 5) throws(BrailleTestSupportError) {
        lock.lock()
        let pid: pid_t
        if let running = _pid {
            pid = running
        } else {
            do throws(BrailleTestSupportError) {
                pid = try spawn()
                do throws(BrailleTestSupportError) {
                    try startWatchdog(of: pid)
                } catch {
                    try? ProcessSignal.send(SIGKILL, to: pid)
                    ChildProcess.wait(pid)
                    throw error
                }
            } catch {
                lock.unlock()
                throw error
            }
            _pid = pid
        }
        lock.unlock()
        let deadline = monotonicNow() + timeout
        while true {
            guard isRunning else {
                throw BrailleTestSupportError("brltty", detail: "exited while starting; log:\n\(logTail())")
            }
            let remaining = max(0.05, deadline - monotonicNow())
            if Self.lockOwner(hostNumber: hostNumber) == pid, Self.serverAnswers(hostNumber: hostNumber, timeout: remaining) {
                return
            }
            if monotonicNow() > deadline {
                stop()
                throw BrailleTestSupportError("brltty", detail: "BrlAPI on \(host) not ready after \(timeout) s; log:\n\(logTail())")
            }
            sleepSeconds(0.02)
        }
    }

    /// Stops BRLTTY: SIGTERM to its process id, SIGKILL if it is still there after `timeout`
    /// seconds; waits for it. Does nothing when it is not running.
    public func stop(timeout: Double = 2) {
        lock.withLock {
            guard let pid = _pid else { return }
            _pid = nil
            endWatchdog()
            try? ProcessSignal.send(SIGTERM, to: pid)
            let deadline = monotonicNow() + timeout
            while monotonicNow() < deadline {
                if ChildProcess.state(of: pid, blocking: false) != .running { return }
                sleepSeconds(0.01)
            }
            try? ProcessSignal.send(SIGKILL, to: pid)
            ChildProcess.wait(pid)
        }
    }

    /// Kills BRLTTY at once (SIGKILL), as a crash would, and waits for it. Its socket and lock
    /// file stay behind, as after a crash.
    public func kill() {
        lock.withLock {
            guard let pid = _pid else { return }
            _pid = nil
            endWatchdog()
            try? ProcessSignal.send(SIGKILL, to: pid)
            ChildProcess.wait(pid)
        }
    }

    /// Stops BRLTTY (if running) and starts it again on the same host.
    public func restart(timeout: Double = 5) throws(BrailleTestSupportError) {
        stop()
        try start(timeout: timeout)
    }

    /// BRLTTY's log so far.
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// The last lines of the log.
    public func logTail(lines: Int = 40) -> String {
        log.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// The watchdog's script: `$1` BRLTTY's pid, `$2` the BrlAPI socket directory, `$3` the host.
    static let watchdogScript = """
        read -r _
        alive() { [ -r "/proc/$1/cmdline" ] && tr '\\0' ' ' < "/proc/$1/cmdline" | grep -q brltty; }
        if alive "$1"; then
            kill -TERM "$1" 2>/dev/null
            n=0
            while alive "$1" && [ "$n" -lt 20 ]; do sleep 0.1; n=$((n + 1)); done
            alive "$1" && kill -KILL "$1" 2>/dev/null
            sleep 0.1
        fi
        rm -f "$2/$3" "$2/.$3"
        """

    /// Starts the watchdog of BRLTTY `pid` (see the type's comment). Called with the lock held.
    private func startWatchdog(of pid: pid_t) throws(BrailleTestSupportError) {
        do {
            watchdog = try Watchdog.start(script: Self.watchdogScript, name: "brltty-watchdog",
                                          arguments: [String(pid), Self.socketDirectory, String(hostNumber)],
                                          log: directory + "/watchdog.out")
        } catch {
            throw BrailleTestSupportError(error, detail: "watchdog")
        }
    }

    /// Ends the watchdog by its PID before BRLTTY is stopped on purpose. Called with the lock held.
    private func endWatchdog() {
        watchdog?.cancel()
        watchdog = nil
    }

    /// The watchdog's process id, while BRLTTY runs (for tests of the watchdog itself).
    public var watchdogPID: pid_t? { lock.withLock { watchdog?.pid } }

    /// Closes this process's end of the watchdog's pipe, as the kernel does when the runner
    /// dies, and forgets BRLTTY (the watchdog is now the one to stop it). For the watchdog's own
    /// test; returns the PIDs of BRLTTY and the watchdog.
    public func abandonToWatchdog() -> (brltty: pid_t, watchdog: pid_t)? {
        lock.withLock {
            guard let pid = _pid, let watcher = watchdog else { return nil }
            _pid = nil
            watchdog = nil
            watcher.release()
            return (pid, watcher.pid)
        }
    }

    private func spawn() throws(BrailleTestSupportError) -> pid_t {
        do {
            return try ChildProcess.spawn(
                executable, arguments: [executable] + arguments, standardInput: .reading("/dev/null"),
                standardOutput: .writing(logPath, append: true), standardError: .standardOutput)
        } catch {
            throw BrailleTestSupportError(error)
        }
    }

    // MARK: - Facts about this machine

    /// The brltty executable on PATH (or in /bin, /sbin, /usr/bin, /usr/sbin), if installed.
    public static var executablePath: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
        return directories.map { $0 + "/brltty" }.first { FileSystem.isAccessible($0, .executable) }
    }

    /// The directories BRLTTY's drivers may be in (Debian: /lib/brltty).
    public static let driverDirectories = ["/lib/brltty", "/usr/lib/brltty", "/usr/lib/x86_64-linux-gnu/brltty",
                                           "/usr/lib64/brltty", "/usr/local/lib/brltty"]

    /// Whether this BRLTTY has the braille driver (`libbrlttyb<code>.so` in a drivers
    /// directory). The Virtual driver (`vr`) was removed upstream in the 6.9 series.
    public static func hasBrailleDriver(_ code: String) -> Bool {
        executablePath != nil && driverDirectories.contains { FileSystem.isAccessible("\($0)/libbrlttyb\(code).so", .readable) }
    }

    /// A host number in 1000…9999 with neither socket nor lock file in /var/lib/BrlAPI.
    public static func unusedHostNumber() -> Int {
        while true {
            let number = Int.random(in: 1000...9999)
            let socket = "\(socketDirectory)/\(number)"
            if !FileSystem.isAccessible(socket, .exists) && !FileSystem.isAccessible("\(socketDirectory)/.\(number)", .exists) { return number }
        }
    }

    /// Whether a BrlAPI server answers on local socket N within `timeout` seconds: it accepts
    /// the connection and sends its first packet (the protocol version). BRLTTY 6.5's server
    /// notices its new socket only after its 1-second select timeout, so a connection can be
    /// accepted by the kernel a second before the server speaks.
    public static func serverAnswers(hostNumber: Int, timeout: Double) -> Bool {
        guard let descriptor = try? LocalSocket.connect("\(socketDirectory)/\(hostNumber)") else { return false }
        defer { FileIO.close(descriptor) }
        guard isReadable(descriptor, timeout: timeout) else { return false }
        return (try? FileIO.read(descriptor, maxBytes: 1))?.count == 1
    }

    /// The process id in BrlAPI's lock file for host N (`/var/lib/BrlAPI/.N`), if readable.
    public static func lockOwner(hostNumber: Int) -> pid_t? {
        guard let text = try? String(contentsOfFile: "\(socketDirectory)/.\(hostNumber)", encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
