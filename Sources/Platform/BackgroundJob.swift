#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One piece of blocking work on a thread of its own, for the loop that must not wait for it
/// (a BrlAPI connection, a file written): the thread runs `work`, stores the outcome, and
/// writes a byte to a pipe whose read end (`readEnd`) the loop polls. The loop takes the
/// outcome, waits for it (`wait`, at the end of a run), or abandons it; an outcome abandoned
/// is handed to `discard` (a connection made too late is closed).
public final class BackgroundJob<Outcome>: ThreadBody, @unchecked Sendable {
    public let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor
    private let work: @Sendable () -> Outcome
    private let discard: @Sendable (Outcome) -> Void
    private let lock = NSLock()
    private var outcome: Outcome?
    private var finished = false
    private var abandoned = false
    private var taken = false

    public init(work: @escaping @Sendable () -> Outcome, discard: @escaping @Sendable (Outcome) -> Void = { _ in }) {
        self.work = work
        self.discard = discard
        let ends = try? FileIO.pipe()
        // Without a pipe `start` refuses: the job is never polled.
        readEnd = ends?.readEnd ?? FileDescriptor(rawValue: -1)
        writeEnd = ends?.writeEnd ?? FileDescriptor(rawValue: -1)
        super.init()
    }

    /// Starts the thread with every signal blocked (so that SIGINT, SIGTERM… stay with the
    /// loop's signal descriptor and SIGPIPE becomes EPIPE); false if no thread could start.
    public func start() -> Bool {
        guard readEnd.rawValue >= 0 else { return false }
        var all = sigset_t()
        sigfillset(&all)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let context = Unmanaged<ThreadBody>.passRetained(self).toOpaque()
        var thread = pthread_t()
        // A C function cannot name the generic type: it calls the thread's body through its
        // non-generic base class.
        let result = pthread_create(&thread, nil, { context in
            let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            FileIO.close(readEnd)
            FileIO.close(writeEnd)
            return false
        }
        pthread_detach(thread)
        return true
    }

    override func run() {
        let result = work()
        lock.lock()
        defer { lock.unlock() }
        finished = true
        if abandoned {
            discard(result)
            FileIO.close(readEnd)
            FileIO.close(writeEnd)
            return
        }
        outcome = result
        _ = try? FileIO.writeOnce(writeEnd, [UInt8(1)][...])
    }

    /// Whether the thread has returned.
    public var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    /// The outcome once the thread finished (the pipe is closed then); nil before.
    public func take() -> Outcome? {
        lock.lock()
        defer { lock.unlock() }
        guard finished, !taken, let outcome else { return nil }
        taken = true
        FileIO.close(readEnd)
        FileIO.close(writeEnd)
        return outcome
    }

    /// Waits for the outcome (the run is ending: what the thread writes must land first).
    public func wait() -> Outcome? {
        while !isFinished {
            _ = try? Poll.readable([readEnd], timeout: nil)
        }
        return take()
    }

    /// The loop no longer wants the outcome: the thread hands it to `discard`.
    public func abandon() {
        lock.lock()
        defer { lock.unlock() }
        if taken { return }
        abandoned = true
        if finished {
            if let outcome { discard(outcome) }
            outcome = nil
            taken = true
            FileIO.close(readEnd)
            FileIO.close(writeEnd)
        }
    }
}

/// What a thread started by `pthread_create` runs (the C entry point cannot be generic).
public class ThreadBody: @unchecked Sendable {
    func run() {}
}
