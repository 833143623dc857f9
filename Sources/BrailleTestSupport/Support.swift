import Foundation
import Platform

/// A failure of the braille test harness: the system call (or step) and why.
public struct BrailleTestSupportError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var errno: Int32
    public var detail: String

    public init(_ operation: String, errno: Int32 = 0, detail: String = "") {
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    /// A failed call of the platform layer: its C name and subject, and its errno.
    public init(_ error: SystemCallError, detail: String = "") {
        self.init(error.subject.map { "\(error.call) \($0)" } ?? error.call, errno: error.errno.rawValue, detail: detail)
    }

    public var description: String {
        var text = operation
        if errno != 0 { text += ": \(Errno(rawValue: errno).message) (errno \(errno))" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }
}

/// Braille cells as bytes (bit 0 = dot 1 … bit 7 = dot 8, ISO 11548-1, as the Baum protocol
/// and BrlAPI's U+2800 block number them).
public enum BrailleCells {
    /// The Unicode braille pattern of each cell (U+2800 + dots).
    public static func text(_ cells: [UInt8]) -> String {
        String(String.UnicodeScalarView(cells.map { Unicode.Scalar(0x2800 + UInt32($0))! }))
    }

    /// The cells of a string of Unicode braille patterns; nil if another character occurs.
    public static func cells(_ text: String) -> [UInt8]? {
        var cells = [UInt8]()
        for scalar in text.unicodeScalars {
            guard (0x2800...0x28FF).contains(scalar.value) else { return nil }
            cells.append(UInt8(scalar.value - 0x2800))
        }
        return cells
    }

    /// A cell from dot numbers: `cell(dots: 1, 2, 4)` is 0b1011.
    public static func cell(dots: Int...) -> UInt8 {
        dots.reduce(0) { $0 | UInt8(1 << ($1 - 1)) }
    }

    /// The dot numbers of a cell, as BRLTTY's Virtual driver writes them ("124"; " " for none).
    public static func dotNumbers(_ cell: UInt8) -> String {
        cell == 0 ? " " : (1...8).filter { cell & UInt8(1 << ($0 - 1)) != 0 }.map(String.init).joined()
    }
}

/// Seconds on the monotonic clock.
public func monotonicNow() -> Double {
    MonotonicClock.now()
}

/// Sleeps for `seconds` (resumed after interrupts).
public func sleepSeconds(_ seconds: Double) {
    MonotonicClock.sleep(seconds: seconds)
}

/// Whether `descriptor` has bytes to read (or has hung up) within `timeout` seconds;
/// interrupted polls count as "not yet".
func isReadable(_ descriptor: FileDescriptor, timeout: Double) -> Bool {
    !((try? Poll.readable([descriptor], timeout: timeout)) ?? []).isEmpty
}

/// Writes all bytes to a non-blocking descriptor, waiting (up to `timeout` s) while it is full.
func writeAll(_ descriptor: FileDescriptor, _ bytes: [UInt8], timeout: Double = 2, what: String) throws(BrailleTestSupportError) {
    var offset = 0
    let deadline = monotonicNow() + timeout
    while offset < bytes.count {
        let written: Int?
        do {
            written = try FileIO.writeSome(descriptor, bytes[offset...])
        } catch {
            throw BrailleTestSupportError("write (\(what))", errno: error.errno.rawValue)
        }
        if let written {
            offset += written
            continue
        }
        if monotonicNow() > deadline {
            throw BrailleTestSupportError("write (\(what))", detail: "nobody reads: \(bytes.count - offset) bytes left after \(timeout) s")
        }
        _ = Poll.writable(descriptor, timeout: 0.05)
    }
}

/// Waits on a condition until `ready` holds or `timeout` seconds pass; returns `ready`'s last
/// answer. The condition must be locked by the caller's closure protocol (it locks here).
func wait<T>(on condition: NSCondition, timeout: Double, _ ready: () -> T?) -> T? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
        if let value = ready() { return value }
        if !condition.wait(until: deadline) { return ready() }
    }
}

/// What /proc says of a process the tests started.
public enum ProcessStat {
    /// Whether `pid` has a signal descriptor open (a descriptor whose link reads
    /// `anon_inode:[signalfd]`): a program that takes its signals through one is ready for them
    /// then. (Its blocked mask says nothing: a child inherits the mask of the thread that
    /// started it.) Nil when the process is gone.
    public static func hasSignalDescriptor(_ pid: pid_t) -> Bool? {
        let folder = "/proc/\(pid)/fd"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return descriptors.contains {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) == "anon_inode:[signalfd]"
        }
    }

    /// Waits until `pid` has a signal descriptor open (see `hasSignalDescriptor`), or it ends,
    /// or `timeout` seconds pass (a hang guard); whether it has.
    public static func waitForSignalDescriptor(_ pid: pid_t, timeout: Double = 30) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            guard let open = hasSignalDescriptor(pid) else { return false }
            if open { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }
}
