#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which one, and errno. Every libc call of the runtime goes through the
/// wrappers in this folder, which retry `EINTR` and turn failures into this error.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Int32
    /// What the call was about (a path, a descriptor), for the message.
    public var subject: String?

    public init(call: String, errno: Int32, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        return "\(call)\(subject.map { " (\($0))" } ?? ""): \(reason) (errno \(errno))"
    }
}

/// Runs a call that returns -1 and sets errno on failure, retrying while it is interrupted.
@discardableResult
func retryingInterrupts(_ call: String, subject: String? = nil, _ body: () -> Int) throws(SystemCallError) -> Int {
    while true {
        let result = body()
        if result != -1 { return result }
        let error = Glibc.errno
        if error == EINTR { continue }
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
}

/// Reading and writing file descriptors.
public enum FileIO {
    /// read(2) into a buffer; 0 bytes at end of file; nil when the descriptor would block.
    public static func read(_ descriptor: Int32, maxBytes: Int = 4096) throws(SystemCallError) -> [UInt8]? {
        while true {
            // Uninitialised storage: zeroing a large buffer on every read cost more than the read.
            var count = 0, error: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: maxBytes) { buffer, initialized in
                count = Glibc.read(descriptor, buffer.baseAddress, maxBytes)
                error = Glibc.errno
                initialized = max(0, count)
            }
            if count >= 0 { return bytes }
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return nil }
            throw SystemCallError(call: "read", errno: error, subject: "fd \(descriptor)")
        }
    }

    /// read(2) into `buffer` (kept by the caller and reused: an input read on every switch
    /// event allocates nothing); the count read, 0 at end of file; nil when the descriptor would
    /// block.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            let error = Glibc.errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return nil }
            throw SystemCallError(call: "read", errno: error, subject: "fd \(descriptor)")
        }
    }

    /// write(2) of all the bytes, retrying short writes and interrupts.
    public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let written = try retryingInterrupts("write", subject: "fd \(descriptor)") {
                bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            }
            offset += written
        }
    }

    public static func writeAll(_ descriptor: Int32, _ text: String) throws(SystemCallError) {
        try writeAll(descriptor, Array(text.utf8))
    }

    /// One write(2) of as much of `bytes` as the descriptor takes now: the count written, nil
    /// when it would block (a pipe that is full, opened with O_NONBLOCK).
    public static func writeSome(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) throws(SystemCallError) -> Int? {
        while true {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return count }
            let error = Glibc.errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return nil }
            throw SystemCallError(call: "write", errno: error, subject: "fd \(descriptor)")
        }
    }

    /// The descriptor's file type (fstat(2)'s `st_mode & S_IFMT`: S_IFREG, S_IFIFO, …).
    public static func fileType(_ descriptor: Int32) throws(SystemCallError) -> mode_t {
        var info = stat()
        try retryingInterrupts("fstat", subject: "fd \(descriptor)") { Int(fstat(descriptor, &info)) }
        return info.st_mode & S_IFMT
    }

    /// open(2) with O_CLOEXEC.
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws(SystemCallError) -> Int32 {
        Int32(try retryingInterrupts("open", subject: path) { Int(Glibc.open(path, flags | O_CLOEXEC, mode)) })
    }

    /// close(2); errors are not actionable on Linux (the descriptor is gone either way).
    public static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }
}

/// poll(2) over a set of descriptors.
public enum Poll {
    /// Waits until one of `descriptors` is readable (or has hung up), or `timeout` seconds pass
    /// (nil: no timeout). Returns the readable ones; an interrupted wait returns none.
    public static func readable(_ descriptors: [Int32], timeout: Double?) throws(SystemCallError) -> [Int32] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        // Clamped as a Double first: a deadline far away (a stream's clock that jumped) must not
        // trap the conversion; poll waits at most Int32.max ms anyway.
        let milliseconds: Int32 = timeout.map { seconds -> Int32 in
            let value = (seconds * 1000).rounded(.up)
            guard value.isFinite else { return value > 0 ? Int32.max : 0 }
            return Int32(min(max(value, 0), Double(Int32.max)))
        } ?? -1
        let result = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        if result < 0 {
            if Glibc.errno == EINTR { return [] }
            throw SystemCallError(call: "poll", errno: Glibc.errno)
        }
        return fds.filter { $0.revents != 0 }.map(\.fd)
    }
}
