#if canImport(Glibc)
import Platform
import Glibc
#endif

/// The program's one way of waiting: poll(2) over the descriptors a command waits for and a
/// signal descriptor, to a deadline. `switchscan run` (`LiveRun`) waits through it each turn,
/// and so do the commands that wait for one thing (`learn` for a switch, `snapshot` for a
/// window): none of them polls or sleeps by itself, so Ctrl-C ends any wait at once.
///
/// Make it before starting threads (AT-SPI's, a background write): the signals are blocked in
/// the thread that makes it and in the threads started after, so that they come through the
/// descriptor instead of ending the process in the middle of a write.
public final class Reactor {
    /// What one wait saw.
    public struct Turn: Sendable, Equatable {
        /// The descriptors readable (or hung up), the signal descriptor not among them.
        public var ready: [FileDescriptor]
        /// The signals that arrived, in order.
        public var signals: [Int32]
    }

    /// How a wait for one thing ended.
    public enum Wake: Sendable, Equatable {
        /// A descriptor waited for is readable.
        case ready
        /// The deadline came first.
        case deadline
        /// SIGINT, SIGTERM or SIGHUP: the command ends (its exit status 128 + the signal).
        case signal(Int32)
    }

    private let signals: SignalDescriptor

    public init() throws(SystemCallError) {
        signals = try SignalDescriptor()
    }

    /// One wait: until one of `descriptors` is readable, a signal arrives, or `timeout` seconds
    /// pass (nil: no timeout).
    public func wait(_ descriptors: [FileDescriptor], timeout: Double?) throws(SystemCallError) -> Turn {
        let ready = try Poll.readable([signals.descriptor] + descriptors, timeout: timeout)
        let signalled = ready.contains(signals.descriptor)
        return Turn(ready: ready.filter { $0 != signals.descriptor }, signals: signalled ? signals.pending() : [])
    }

    /// Stops the process as SIGTSTP's default action does and returns once it is continued;
    /// false when SIGTSTP is ignored (see `SignalDescriptor.stopAsDefault`).
    @discardableResult
    public func stopAsDefault(_ signal: Int32) -> Bool {
        signals.stopAsDefault(signal)
    }

    /// Waits until one of `descriptors` is readable or `deadline` (monotonic seconds) passes.
    /// Ctrl-Z stops the command as it would stop any program (the wait goes on once it is
    /// continued); SIGWINCH and SIGCONT change nothing; SIGINT, SIGTERM and SIGHUP end the wait.
    public func waitReadable(_ descriptors: [FileDescriptor], until deadline: Double) throws(SystemCallError) -> Wake {
        while true {
            let now = MonotonicClock.now()
            guard now < deadline else { return .deadline }
            let turn = try wait(descriptors, timeout: deadline - now)
            for signal in turn.signals {
                switch signal {
                case SIGTSTP: stopAsDefault(SIGTSTP)
                case SIGWINCH, SIGCONT: continue
                default: return .signal(signal)
                }
            }
            if !turn.ready.isEmpty { return .ready }
        }
    }

    /// Waits until `deadline` (monotonic seconds): a bounded pause that a signal ends at once.
    /// Nil: the deadline came; a signal: the one that ended the pause.
    public func pause(until deadline: Double) throws(SystemCallError) -> Int32? {
        if case .signal(let signal) = try waitReadable([], until: deadline) { return signal }
        return nil
    }

    /// Tries `attempt` now and then again every `interval` seconds until it gives a result or
    /// `deadline` (monotonic seconds) passes; the pauses between tries end at once on a signal.
    public func retry<Result>(every interval: Double, until deadline: Double,
                              _ attempt: () throws -> Result?) throws -> Retried<Result> {
        while true {
            if let result = try attempt() { return .found(result) }
            let now = MonotonicClock.now()
            guard now < deadline else { return .timedOut }
            if let signal = try pause(until: min(deadline, now + interval)) { return .signal(signal) }
        }
    }

    /// How `retry` ended.
    public enum Retried<Result> {
        case found(Result)
        case timedOut
        case signal(Int32)
    }
}
