#if canImport(Glibc)
import Glibc
#endif

/// The running process: its id and environment (getpid(2), getenv(3), setenv(3)).
public enum CurrentProcess {
    /// getpid(2).
    public static var id: Int32 { getpid() }

    /// Whether this process runs as root (geteuid(2) is 0): what creating device nodes and
    /// reading any file take.
    public static var isRoot: Bool { geteuid() == 0 }

    /// The size of a memory page in bytes (sysconf(3) `_SC_PAGESIZE`).
    public static var pageSize: Int { sysconf(Int32(_SC_PAGESIZE)) }

    /// getenv(3): the variable's value, nil when it is not set.
    public static func environmentVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// exit(3): the process ends with `status` once C's output streams are flushed.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// _exit(2): the process ends with `status` at once, nothing flushed and no handler run (a
    /// watchdog thread ending a process that hangs).
    public static func exitAtOnce(_ status: Int32) -> Never {
        _exit(status)
    }

    /// setenv(3), replacing a value already there: for what this process's libraries read
    /// from the environment at their first use (libatspi's DISPLAY and session bus).
    public static func setEnvironmentVariable(_ name: String, to value: String) throws(SystemCallError) {
        try retryingInterrupts("setenv", subject: name) { Int(setenv(name, value, 1)) }
    }
}

/// Signals sent to another process, by the PID this program started it with.
public enum ProcessSignal {
    /// kill(2) of `signal` (SIGTERM, SIGKILL…) to `pid`; `.noSuchProcess` when it is gone.
    public static func send(_ signal: Int32, to pid: Int32) throws(SystemCallError) {
        guard pid > 0 else { throw SystemCallError(call: "kill", errno: .invalidArgument, subject: "pid \(pid)") }
        try retryingInterrupts("kill", subject: "pid \(pid)") { Int(kill(pid, signal)) }
    }

    /// Whether a process `pid` exists (kill(2) of signal 0: permitted, or refused with `EPERM`
    /// because it is another user's).
    public static func exists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || Errno.current == .notPermitted
    }

    /// signal(2) with SIG_IGN: this process ignores `signal` from now on (SIGPIPE, so that a
    /// write to a closed socket or pipe fails with `EPIPE` instead of ending the process).
    public static func ignore(_ signal: Int32) {
        _ = Glibc.signal(signal, SIG_IGN)
    }
}

/// What Linux says of a process in /proc/PID/stat, and this process's use of memory.
public enum ProcessStatistics {
    /// The fields of /proc/PID/stat after the command name (which may hold spaces): the state
    /// (field 3) first. Nil when the process is gone or the file cannot be read.
    static func fields(of pid: Int32) -> [Substring]? {
        guard pid > 0, let bytes = try? RegularFile.read("/proc/\(pid)/stat", maxBytes: 4096) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// The state letter (R running, S sleeping, T stopped, Z zombie…); nil when the process is gone.
    public static func state(of pid: Int32) -> String? {
        fields(of: pid)?.first.map(String.init)
    }

    /// CPU time (user + system) a process has used, in seconds: utime and stime (fields 14 and
    /// 15), in clock ticks (sysconf(3) `_SC_CLK_TCK`). Nil when the process is gone.
    public static func cpuSeconds(of pid: Int32) -> Double? {
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        guard let fields = fields(of: pid), fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]),
              ticks > 0 else { return nil }
        return (user + system) / Double(ticks)
    }

    /// The most resident memory this process has had, in kilobytes (getrusage(2)'s `ru_maxrss`).
    public static var peakResidentKilobytes: Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return usage.ru_maxrss
    }
}
