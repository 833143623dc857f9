#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which one, its `Errno`, and what it was about. The one error of the
/// platform layer: every libc call of the program goes through the wrappers of this module,
/// which retry `EINTR` and turn failures into this error (the lint in
/// Tests/RuntimeTests/PlatformLintTests.swift fails on a libc call anywhere else).
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function, by its C name (`open`, `poll`, `rename`).
    public var call: String
    public var errno: Errno
    /// What the call was about (a path, a descriptor), for the message.
    public var subject: String?

    public init(call: String, errno: Errno, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// The error the calling thread's `errno` names now (read right after the failed call).
    static func current(_ call: String, subject: String? = nil) -> SystemCallError {
        SystemCallError(call: call, errno: .current, subject: subject)
    }

    public var description: String {
        "\(call)\(subject.map { " (\($0))" } ?? ""): \(errno.message) (errno \(errno.rawValue))"
    }
}

/// Runs a call that returns -1 and sets errno on failure, retrying while it is interrupted.
@discardableResult
func retryingInterrupts(_ call: String, subject: String? = nil, _ body: () -> Int) throws(SystemCallError) -> Int {
    while true {
        let result = body()
        if result != -1 { return result }
        let error = Errno.current
        if error == .interrupted { continue }
        throw SystemCallError(call: call, errno: error, subject: subject)
    }
}

/// The monotonic clock (CLOCK_MONOTONIC), in seconds: the clock evdev timestamps use once
/// libevdev is set to it, and the one that never jumps.
public enum MonotonicClock {
    /// clock_gettime(CLOCK_MONOTONIC).
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// clock_nanosleep(2) on CLOCK_MONOTONIC until the absolute `moment` (seconds of `now()`):
    /// a series of sleeps to planned moments does not drift. Again after an interrupting signal;
    /// a moment past, NaN or infinite sleeps not at all.
    public static func sleep(until moment: Double) {
        guard moment.isFinite, moment > 0, moment < 1e15 else { return }
        let whole = moment.rounded(.down)
        var target = timespec(tv_sec: Int(whole), tv_nsec: Int((moment - whole) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }

    /// nanosleep(2) for `seconds` (a negative, NaN or infinite wait is none, at most a day), the
    /// rest slept again after an interrupting signal.
    public static func sleep(seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        let bounded = min(seconds, 86_400)
        let whole = bounded.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((bounded - whole) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, Errno.current == .interrupted {
            request = remaining
        }
    }
}

/// The wall clock (CLOCK_REALTIME), for stamps a person reads; durations use `MonotonicClock`.
public enum WallClock {
    /// time(2), then gmtime_r(3) and strftime(3): now as `2026-11-24T06:31:03Z`.
    public static func utcStamp() -> String {
        var now = time_t(0)
        time(&now)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Reading and writing file descriptors.
public enum FileIO {
    /// read(2) into a buffer; 0 bytes at end of file; nil when the descriptor would block.
    public static func read(_ descriptor: FileDescriptor, maxBytes: Int = 4096) throws(SystemCallError) -> [UInt8]? {
        while true {
            // Uninitialised storage: zeroing a large buffer on every read cost more than the read.
            var count = 0, error: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: maxBytes) { buffer, initialized in
                count = Glibc.read(descriptor.rawValue, buffer.baseAddress, maxBytes)
                error = Glibc.errno
                initialized = max(0, count)
            }
            if count >= 0 { return bytes }
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return nil }
            throw SystemCallError(call: "read", errno: Errno(rawValue: error), subject: descriptor.description)
        }
    }

    /// read(2) into `buffer` (kept by the caller and reused: an input read on every switch
    /// event allocates nothing); the count read, 0 at end of file; nil when the descriptor would
    /// block.
    public static func read(_ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        while true {
            let count = Glibc.read(descriptor.rawValue, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            let error = Glibc.errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return nil }
            throw SystemCallError(call: "read", errno: Errno(rawValue: error), subject: descriptor.description)
        }
    }

    /// write(2) of all the bytes, retrying short writes and interrupts.
    public static func writeAll(_ descriptor: FileDescriptor, _ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let written = try retryingInterrupts("write", subject: descriptor.description) {
                bytes[offset...].withUnsafeBytes { Glibc.write(descriptor.rawValue, $0.baseAddress, $0.count) }
            }
            offset += written
        }
    }

    public static func writeAll(_ descriptor: FileDescriptor, _ text: String) throws(SystemCallError) {
        try writeAll(descriptor, Array(text.utf8))
    }

    /// One write(2) of as much of `bytes` as the descriptor takes now: the count written, nil
    /// when it would block (a pipe that is full, opened with O_NONBLOCK).
    public static func writeSome(_ descriptor: FileDescriptor, _ bytes: ArraySlice<UInt8>) throws(SystemCallError) -> Int? {
        while true {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor.rawValue, $0.baseAddress, $0.count) }
            if count >= 0 { return count }
            let error = Glibc.errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return nil }
            throw SystemCallError(call: "write", errno: Errno(rawValue: error), subject: descriptor.description)
        }
    }

    /// One write(2) of `bytes`, retried while interrupted: the count written (less than asked
    /// when the disk fills up midway).
    public static func writeOnce(_ descriptor: FileDescriptor, _ bytes: ArraySlice<UInt8>, subject: String? = nil) throws(SystemCallError) -> Int {
        try retryingInterrupts("write", subject: subject ?? descriptor.description) {
            bytes.withUnsafeBytes { Glibc.write(descriptor.rawValue, $0.baseAddress, $0.count) }
        }
    }

    /// Cuts the last `count` bytes off the file (lseek(2) to its end, then ftruncate(2)); false
    /// when the file is shorter or a call failed.
    @discardableResult
    public static func truncateEnd(_ descriptor: FileDescriptor, by count: Int) -> Bool {
        let end = lseek(descriptor.rawValue, 0, SEEK_END)
        guard count > 0, end >= off_t(count) else { return false }
        return ftruncate(descriptor.rawValue, end - off_t(count)) == 0
    }

    /// Sets or clears O_NONBLOCK on the open file (fcntl(2) F_GETFL, then F_SETFL). The flag is
    /// the open file's, shared with whoever has it open too (the shell, for standard input).
    public static func setNonBlocking(_ descriptor: FileDescriptor, _ nonBlocking: Bool) throws(SystemCallError) {
        let flags = Int32(try retryingInterrupts("fcntl", subject: descriptor.description) { Int(fcntl(descriptor.rawValue, F_GETFL)) })
        let wanted = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        guard wanted != flags else { return }
        try retryingInterrupts("fcntl", subject: descriptor.description) { Int(fcntl(descriptor.rawValue, F_SETFL, wanted)) }
    }

    /// Sets FD_CLOEXEC (fcntl(2) F_SETFD): a program this one starts does not inherit the
    /// descriptor.
    public static func setCloseOnExec(_ descriptor: FileDescriptor) throws(SystemCallError) {
        try retryingInterrupts("fcntl", subject: descriptor.description) { Int(fcntl(descriptor.rawValue, F_SETFD, FD_CLOEXEC)) }
    }

    /// pipe(2), both ends close-on-exec and non-blocking (fcntl(2)): (read end, write end).
    /// Glibc does not import pipe2 without _GNU_SOURCE.
    public static func pipe() throws(SystemCallError) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        try retryingInterrupts("pipe") { Int(Glibc.pipe(&ends)) }
        let (readEnd, writeEnd) = (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
        do {
            for end in [readEnd, writeEnd] {
                try setCloseOnExec(end)
                try setNonBlocking(end, true)
            }
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        return (readEnd, writeEnd)
    }

    /// flock(2) LOCK_EX, retried while interrupted: waits until no other open file holds a lock
    /// on the file (a folder's lock, as `SafeFileWriter` takes it); closing releases it.
    public static func lockExclusively(_ descriptor: FileDescriptor) throws(SystemCallError) {
        try retryingInterrupts("flock", subject: descriptor.description) { Int(flock(descriptor.rawValue, LOCK_EX)) }
    }

    /// fflush(3) of every C output stream: what `print` wrote reaches the terminal before the
    /// program waits (for a key press, a device).
    public static func flushStandardOutput() {
        fflush(nil)
    }

    /// What fstat(2) says of the open file: its kind and size.
    public static func status(_ descriptor: FileDescriptor, subject: String? = nil) throws(SystemCallError) -> FileSystem.Status {
        var info = stat()
        try retryingInterrupts("fstat", subject: subject ?? descriptor.description) { Int(fstat(descriptor.rawValue, &info)) }
        return FileSystem.Status(info)
    }

    /// open(2) with O_CLOEXEC; a file it creates gets `permissions` (0644 by default) less the
    /// umask.
    public static func open(
        _ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
        permissions: Int = 0o644
    ) throws(SystemCallError) -> FileDescriptor {
        guard (0...0o7777).contains(permissions) else {
            throw SystemCallError(call: "open", errno: .invalidArgument, subject: path)
        }
        let flags = access.flags | options.rawValue | O_CLOEXEC
        return FileDescriptor(rawValue: Int32(try retryingInterrupts("open", subject: path) {
            Int(Glibc.open(path, flags, mode_t(permissions)))
        }))
    }

    /// close(2); errors are not actionable on Linux (the descriptor is gone either way).
    public static func close(_ descriptor: FileDescriptor) {
        _ = Glibc.close(descriptor.rawValue)
    }
}

/// poll(2) over a set of descriptors.
public enum Poll {
    /// Waits until one of `descriptors` is readable (or has hung up), or `timeout` seconds pass
    /// (nil: no timeout). Returns the readable ones; an interrupted wait returns none.
    public static func readable(_ descriptors: [FileDescriptor], timeout: Double?) throws(SystemCallError) -> [FileDescriptor] {
        var fds = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        let milliseconds: Int32 = timeout.map(Self.milliseconds) ?? -1
        let result = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        if result < 0 {
            let error = Errno.current
            if error == .interrupted { return [] }
            throw SystemCallError(call: "poll", errno: error)
        }
        return fds.filter { $0.revents != 0 }.map { FileDescriptor(rawValue: $0.fd) }
    }

    /// poll(2) of one descriptor for writing (POLLOUT): whether it takes bytes (or has hung up)
    /// within `timeout` seconds; an interrupted wait is no.
    public static func writable(_ descriptor: FileDescriptor, timeout: Double) -> Bool {
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
        return Glibc.poll(&entry, 1, milliseconds(timeout)) > 0 && entry.revents != 0
    }

    /// Seconds as poll's milliseconds, rounded up; clamped as a Double first: a deadline far
    /// away (a stream's clock that jumped) must not trap the conversion, and poll waits at most
    /// Int32.max ms anyway.
    static func milliseconds(_ seconds: Double) -> Int32 {
        let value = (seconds * 1000).rounded(.up)
        guard value.isFinite else { return value > 0 ? Int32.max : 0 }
        return Int32(min(max(value, 0), Double(Int32.max)))
    }
}
