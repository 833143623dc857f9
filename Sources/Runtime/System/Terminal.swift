import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal: raw keystrokes in, full-screen drawing out, restored on exit.
public final class TerminalSession {
    public let input: Int32
    public let output: Int32
    private var original: termios?

    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// isatty(3).
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Raw-ish mode (tcgetattr/tcsetattr): no line buffering, no echo, non-blocking reads;
    /// ISIG stays on so Ctrl-C arrives as SIGINT and is handled like `q`. Switches to the
    /// alternate screen and hides the cursor.
    public func enterRawMode(fullScreen: Bool) throws(SystemCallError) {
        var settings = termios()
        try retryingInterrupts("tcgetattr", subject: "fd \(input)") { Int(tcgetattr(input, &settings)) }
        original = settings
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        try retryingInterrupts("tcsetattr", subject: "fd \(input)") { Int(tcsetattr(input, TCSANOW, &settings)) }
        let flags = fcntl(input, F_GETFL)
        _ = fcntl(input, F_SETFL, flags | O_NONBLOCK)
        fullScreenActive = fullScreen
        if fullScreen { try FileIO.writeAll(output, "\u{1B}[?1049h\u{1B}[?25l") }
    }

    private var fullScreenActive = false

    /// Restores the terminal as it was (idempotent): settings, main screen, cursor.
    public func restore() {
        guard var settings = original else { return }
        original = nil
        _ = tcsetattr(input, TCSANOW, &settings)
        let flags = fcntl(input, F_GETFL)
        _ = fcntl(input, F_SETFL, flags & ~O_NONBLOCK)
        if fullScreenActive { try? FileIO.writeAll(output, "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l") }
        fullScreenActive = false
    }

    /// ioctl(TIOCGWINSZ): columns and rows; nil when the output is not a terminal.
    public func size() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    deinit { restore() }
}

/// SIGINT, SIGTERM, SIGHUP and SIGWINCH delivered through a descriptor (signalfd), so the event
/// loop handles them between events instead of in a signal handler. SIGPIPE is ignored: a write
/// to a closed BrlAPI socket must fail with EPIPE, not kill the program.
public final class SignalDescriptor {
    public let descriptor: Int32
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH]

    /// sigprocmask + signalfd.
    public init() throws(SystemCallError) {
        signal(SIGPIPE, SIG_IGN)
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in SignalDescriptor.handled { sigaddset(&mask, signal) }
        try retryingInterrupts("sigprocmask") { Int(sigprocmask(SIG_BLOCK, &mask, nil)) }
        descriptor = Int32(try retryingInterrupts("signalfd") { Int(signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))) })
    }

    /// The signals that arrived (read of signalfd_siginfo records).
    public func pending() -> [Int32] {
        var signals = [Int32]()
        var info = signalfd_siginfo()
        while true {
            let count = Glibc.read(descriptor, &info, MemoryLayout<signalfd_siginfo>.size)
            guard count == MemoryLayout<signalfd_siginfo>.size else { break }
            signals.append(Int32(info.ssi_signo))
        }
        return signals
    }

    deinit { FileIO.close(descriptor) }
}
