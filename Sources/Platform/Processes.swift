#if canImport(Glibc)
import Glibc
#endif

/// The running process: its id and environment (getpid(2), getenv(3), setenv(3)).
public enum CurrentProcess {
    /// getpid(2).
    public static var id: Int32 { getpid() }

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
