#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// An inotify instance, non-blocking and close-on-exec: folders to watch, and the names of what
/// changed in them. The one place the runtime calls inotify (the device watcher's hotplug under
/// /dev/input, the settings file's live reload).
public final class Inotify {
    /// What happened to a name in a watched folder (the `IN_…` bits of `Change`).
    public struct Event: Equatable, Sendable {
        public var name: String
        public var mask: UInt32
    }

    /// The kinds of change, as inotify's masks.
    public struct Change: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let created = Change(rawValue: UInt32(IN_CREATE))
        public static let deleted = Change(rawValue: UInt32(IN_DELETE))
        public static let attributes = Change(rawValue: UInt32(IN_ATTRIB))
        public static let closedAfterWriting = Change(rawValue: UInt32(IN_CLOSE_WRITE))
        public static let movedIn = Change(rawValue: UInt32(IN_MOVED_TO))
        public static let movedOut = Change(rawValue: UInt32(IN_MOVED_FROM))
        /// Watch only if the path is a folder.
        public static let onlyFolder = Change(rawValue: UInt32(IN_ONLYDIR))
    }

    /// The descriptor to poll; nil once closed.
    public private(set) var descriptor: FileDescriptor?

    /// inotify_init1(IN_NONBLOCK | IN_CLOEXEC) (the same bits as O_NONBLOCK, O_CLOEXEC).
    public init() throws(SystemCallError) {
        descriptor = FileDescriptor(rawValue: Int32(try retryingInterrupts("inotify_init1") {
            Int(inotify_init1(Int32(O_NONBLOCK | O_CLOEXEC)))
        }))
    }

    deinit { close() }

    /// inotify_add_watch: the watch descriptor.
    @discardableResult
    public func watch(_ path: String, for changes: Change) throws(SystemCallError) -> Int32 {
        guard let descriptor else {
            throw SystemCallError(call: "inotify_add_watch", errno: .badFileDescriptor, subject: path)
        }
        return Int32(try retryingInterrupts("inotify_add_watch", subject: path) {
            Int(inotify_add_watch(descriptor.rawValue, path, changes.rawValue))
        })
    }

    /// Every event queued now (read(2) until it would block), and whether the kernel's queue
    /// overflowed (events were lost: look again at everything).
    public func readPending() throws(SystemCallError) -> (events: [Event], overflow: Bool) {
        var events = [Event]()
        var overflow = false
        while let descriptor {
            guard let bytes = try FileIO.read(descriptor, maxBytes: 8192), !bytes.isEmpty else { break }
            let parsed = Self.parse(bytes)
            events += parsed.events
            overflow = overflow || parsed.overflow
        }
        return (events, overflow)
    }

    /// `struct inotify_event` records: `wd` (i32), `mask` (u32), `cookie` (u32), `len` (u32),
    /// then `len` bytes of NUL-padded name. Events without a name (about the folder itself) are
    /// left out; `IN_Q_OVERFLOW` sets `overflow`.
    static func parse(_ bytes: [UInt8]) -> (events: [Event], overflow: Bool) {
        var events = [Event]()
        var overflow = false
        var offset = 0
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        while offset + 16 <= bytes.count {
            let mask = u32(offset + 4)
            let length = Int(u32(offset + 12))
            let end = min(bytes.count, offset + 16 + length)
            let nameBytes = bytes[(offset + 16)..<end].prefix { $0 != 0 }
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflow = true }
            if !nameBytes.isEmpty { events.append(Event(name: String(decoding: nameBytes, as: UTF8.self), mask: mask)) }
            offset = end
        }
        return (events, overflow)
    }

    public func close() {
        if let descriptor {
            FileIO.close(descriptor)
            self.descriptor = nil
        }
    }
}
