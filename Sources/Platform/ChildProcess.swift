#if canImport(Glibc)
import Glibc
#endif

/// Programs this one starts and waits for, by the PID it started them with (posix_spawn(3),
/// waitpid(2)). Nothing here finds a process by its name.
public enum ChildProcess {
    /// Where one of the child's standard descriptors comes from or goes to.
    public enum Stream: Sendable {
        /// The same as this process's.
        case inherited
        /// A file opened for reading (posix_spawn_file_actions_addopen, O_RDONLY).
        case reading(String)
        /// A file opened for writing, created 0644 when missing, appended to or emptied first.
        case writing(String, append: Bool)
        /// A copy of one of this process's descriptors (posix_spawn_file_actions_adddup2,
        /// which clears close-on-exec on the copy only).
        case descriptor(FileDescriptor)
        /// Standard error only: the same open file as the child's standard output (2>&1).
        case standardOutput
    }

    /// How a child ended (waitpid(2)'s status decoded).
    public enum Ending: Hashable, Sendable {
        /// exit(3) with this status.
        case exited(Int32)
        /// Ended by this signal.
        case signalled(Int32)
    }

    /// What waitpid(2) says of a child.
    public enum State: Hashable, Sendable {
        case running
        case ended(Ending)
        /// Not a child of this process (ECHILD): never one, or already waited for.
        case notAChild
    }

    /// posix_spawn(3) of `executable` (posix_spawnp(3), searched on PATH, with `searchPath`) with
    /// `arguments` as its argv (the first is its name) and `environment` (`NAME=value`; nil:
    /// this process's). The child starts with no signal blocked and SIGPIPE, SIGTERM, SIGINT,
    /// SIGHUP and SIGCHLD at their defaults, whatever this process did with them. Returns its PID.
    public static func spawn(
        _ executable: String, arguments: [String], environment: [String]? = nil, searchPath: Bool = false,
        standardInput: Stream = .inherited, standardOutput: Stream = .inherited, standardError: Stream = .inherited
    ) throws(SystemCallError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            switch stream {
            case .inherited:
                break
            case .reading(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_RDONLY, 0)
            case .writing(let path, let append):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0o644)
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, target)
            case .standardOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, target)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let envp = environment?.map { strdup($0) }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { argv in
            if let envp {
                return (envp + [nil]).withUnsafeBufferPointer { envp in
                    searchPath
                        ? posix_spawnp(&pid, executable, &actions, &attributes, argv.baseAddress!, envp.baseAddress!)
                        : posix_spawn(&pid, executable, &actions, &attributes, argv.baseAddress!, envp.baseAddress!)
                }
            }
            return searchPath
                ? posix_spawnp(&pid, executable, &actions, &attributes, argv.baseAddress!, environ)
                : posix_spawn(&pid, executable, &actions, &attributes, argv.baseAddress!, environ)
        }
        guard result == 0 else {
            throw SystemCallError(call: searchPath ? "posix_spawnp" : "posix_spawn", errno: Errno(rawValue: result), subject: executable)
        }
        return pid
    }

    /// waitpid(2) of the child `pid`, retried while interrupted: without `blocking` (WNOHANG),
    /// `.running` while it runs; with it, once it has ended.
    public static func state(of pid: Int32, blocking: Bool) -> State {
        guard pid > 0 else { return .notAChild }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid { return .ended(ending(status)) }
            if result == 0 { return .running }
            if Errno.current == .interrupted { continue }
            return .notAChild
        }
    }

    /// waitpid(2) until the child `pid` has ended: how it ended, nil when it is not a child.
    @discardableResult
    public static func wait(_ pid: Int32) -> Ending? {
        if case .ended(let ending) = state(of: pid, blocking: true) { return ending }
        return nil
    }

    /// wait4(2) until the child `pid` has ended: how it ended and its peak resident memory
    /// (kilobytes, `ru_maxrss`); nil when it is not a child.
    public static func waitMeasured(_ pid: Int32) -> (ending: Ending, maxResidentKilobytes: Int)? {
        guard pid > 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard Errno.current == .interrupted else { return nil }
        }
        return (ending(status), usage.ru_maxrss)
    }

    /// The status word decoded (WIFEXITED/WEXITSTATUS, WTERMSIG).
    static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}

/// A shell script that stands guard over something this process started: it waits on its
/// standard input, a pipe whose one write end this process holds, and runs the rest of the script
/// when that reaches its end, which the kernel brings about when this process dies, however it
/// dies. What the script does then (stop a server by its PID, remove its socket) is the caller's.
public struct Watchdog: Sendable {
    /// The script's process.
    public let pid: Int32
    /// This process's end of the pipe: closing it sets the watchdog off.
    public let writeEnd: FileDescriptor

    /// Starts `/bin/sh -c script name arguments...` with the read end of a new pipe as its
    /// standard input and `log` (appended to) as its standard output and error. The script's
    /// first line is to be a `read` (it returns at the pipe's end).
    public static func start(script: String, name: String, arguments: [String], log: String) throws(SystemCallError) -> Watchdog {
        // Close-on-exec on both ends: no other child of this process inherits them (the
        // watchdog's standard input is a dup2 of the read end, which clears the flag on the copy
        // only), and the read end blocks, so that the script's `read` waits for the end of file.
        let ends = try FileIO.pipe()
        do {
            try FileIO.setNonBlocking(ends.readEnd, false)
            let pid = try ChildProcess.spawn(
                "/bin/sh", arguments: ["/bin/sh", "-c", script, name] + arguments, standardInput: .descriptor(ends.readEnd),
                standardOutput: .writing(log, append: true), standardError: .standardOutput)
            FileIO.close(ends.readEnd)
            return Watchdog(pid: pid, writeEnd: ends.writeEnd)
        } catch {
            FileIO.close(ends.readEnd)
            FileIO.close(ends.writeEnd)
            throw error
        }
    }

    /// Ends the watchdog by its PID before it acts (SIGKILL, waited for) and closes the pipe: for
    /// when what it guards is stopped on purpose.
    public func cancel() {
        try? ProcessSignal.send(SIGKILL, to: pid)
        ChildProcess.wait(pid)
        FileIO.close(writeEnd)
    }

    /// Closes this process's end of the pipe, as the kernel does at this process's death: the
    /// watchdog acts and ends (its PID is the caller's to wait for).
    public func release() {
        FileIO.close(writeEnd)
    }
}
