import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal: raw keystrokes in, full-screen drawing out, restored on exit and
/// while the program is suspended (Ctrl-Z), entered again when it is continued (`fg`).
public final class TerminalSession {
    public let input: FileDescriptor
    public let output: FileDescriptor
    /// The settings found on entering raw mode, put back by `suspend` and `restore`.
    private var original: termios?
    /// Raw mode is on (between `enterRawMode` and `suspend` or `restore`).
    public private(set) var isRaw = false
    private var fullScreen = false

    public init(input: FileDescriptor = .standardInput, output: FileDescriptor = .standardOutput) {
        self.input = input
        self.output = output
    }

    /// isatty(3).
    public static func isTerminal(_ descriptor: FileDescriptor) -> Bool { isatty(descriptor.rawValue) == 1 }

    /// Whether this process's group is the terminal's foreground group (tcgetpgrp): only then may
    /// it change the terminal's settings without being stopped by SIGTTOU (after `bg`, it is not).
    public var isForeground: Bool {
        let group = tcgetpgrp(input.rawValue)
        return group >= 0 && group == getpgrp()
    }

    /// Raw-ish mode (tcgetattr/tcsetattr): no line buffering, no echo, non-blocking reads;
    /// ISIG stays on so Ctrl-C arrives as SIGINT (handled like `q`) and Ctrl-Z as SIGTSTP
    /// (suspends). Switches to the alternate screen and hides the cursor. The settings found now
    /// are the ones `suspend` and `restore` put back: entering again after a suspension reads
    /// them again (the user may have run `stty` meanwhile).
    public func enterRawMode(fullScreen: Bool) throws(SystemCallError) {
        var settings = termios()
        try retryingInterrupts("tcgetattr", subject: input.description) { Int(tcgetattr(input.rawValue, &settings)) }
        original = settings
        try applyRaw(settings)
        self.fullScreen = fullScreen
        if fullScreen { try FileIO.writeAll(output, "\u{1B}[?1049h\u{1B}[?25l") }
    }

    /// Raw mode again over the settings saved on entering it, when something else (the shell,
    /// after an outside SIGSTOP) set the terminal meanwhile; enters it when it was left.
    public func reenterRawMode(fullScreen: Bool) throws(SystemCallError) {
        guard isRaw, let original else { return try enterRawMode(fullScreen: fullScreen) }
        try applyRaw(original)
        self.fullScreen = fullScreen
        if fullScreen { try FileIO.writeAll(output, "\u{1B}[?1049h\u{1B}[?25l") }
    }

    private func applyRaw(_ cooked: termios) throws(SystemCallError) {
        var settings = cooked
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        try retryingInterrupts("tcsetattr", subject: input.description) { Int(tcsetattr(input.rawValue, TCSANOW, &settings)) }
        // The descriptor's flags are shared with the shell (the same open file): non-blocking
        // only while raw, so the shell never inherits it.
        let flags = fcntl(input.rawValue, F_GETFL)
        _ = fcntl(input.rawValue, F_SETFL, flags | O_NONBLOCK)
        isRaw = true
    }

    /// The terminal as the shell expects it while the program is stopped (idempotent): the
    /// saved settings (cooked: canonical input, echo), blocking reads, the main screen, the
    /// cursor shown. `enterRawMode` takes it back.
    public func suspend() {
        guard isRaw, var settings = original else { return }
        isRaw = false
        _ = tcsetattr(input.rawValue, TCSANOW, &settings)
        let flags = fcntl(input.rawValue, F_GETFL)
        _ = fcntl(input.rawValue, F_SETFL, flags & ~O_NONBLOCK)
        if fullScreen { try? FileIO.writeAll(output, "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l") }
    }

    /// The program is in the background (`bg`): it stops reading and drawing until it enters raw
    /// mode again, and touches nothing meanwhile (a change of settings would stop it, SIGTTOU).
    public func release() {
        isRaw = false
    }

    /// Restores the terminal as it was (idempotent): settings, main screen, cursor.
    public func restore() {
        suspend()
        original = nil
        fullScreen = false
    }

    /// ioctl(TIOCGWINSZ): columns and rows; nil when the output is not a terminal.
    public func size() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(output.rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    deinit { restore() }
}

/// SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP and SIGCONT delivered through a descriptor
/// (signalfd), so the event loop handles them between events instead of in a signal handler.
/// SIGPIPE is ignored: a write to a closed BrlAPI socket must fail with EPIPE, not kill the
/// program. SIGCONT continues the process although it is blocked; its record here tells the
/// loop that it was continued.
public final class SignalDescriptor {
    public let descriptor: FileDescriptor
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    /// sigprocmask + signalfd.
    public init() throws(SystemCallError) {
        ProcessSignal.ignore(SIGPIPE)
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in SignalDescriptor.handled { sigaddset(&mask, signal) }
        try retryingInterrupts("sigprocmask") { Int(sigprocmask(SIG_BLOCK, &mask, nil)) }
        descriptor = FileDescriptor(rawValue: Int32(try retryingInterrupts("signalfd") {
            Int(signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)))
        }))
    }

    /// The signals that arrived (read of signalfd_siginfo records).
    public func pending() -> [Int32] {
        var signals = [Int32]()
        var info = signalfd_siginfo()
        while true {
            let count = Glibc.read(descriptor.rawValue, &info, MemoryLayout<signalfd_siginfo>.size)
            guard count == MemoryLayout<signalfd_siginfo>.size else { break }
            signals.append(Int32(info.ssi_signo))
        }
        return signals
    }

    /// Stops the process as `signal`'s default action does (SIGTSTP: stopped, the shell gets
    /// the terminal back and says so) and returns once it is continued (`fg`, `bg`, SIGCONT).
    /// The signal was taken from the descriptor, so it is raised again and unblocked for the
    /// moment of its delivery. False, without stopping, when the signal is ignored (a parent
    /// without job control set it so: nothing would continue the process).
    @discardableResult
    public func stopAsDefault(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        guard current.__sigaction_handler.sa_handler == nil else { return false }  // SIG_DFL is null
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, signal)
        raise(signal)  // pending: it is blocked
        sigprocmask(SIG_UNBLOCK, &mask, nil)  // delivered here: the process stops until SIGCONT
        sigprocmask(SIG_BLOCK, &mask, nil)
        return true
    }

    deinit { FileIO.close(descriptor) }
}
