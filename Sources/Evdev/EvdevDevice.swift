import CEvdev
import Platform
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open evdev device node: the file descriptor and the libevdev handle, owned together and
/// released by `close()` (or when the object goes away). One function per C call; each names it.
///
/// Not thread-safe: one owner reads it (libevdev keeps an event queue and key state).
public final class EvdevDevice {
    /// The node it was opened from.
    public let path: String
    /// The file descriptor, for `poll`; -1 once closed. The grab belongs to it.
    public private(set) var fileDescriptor: Int32
    /// `struct libevdev *`.
    private var handle: OpaquePointer?

    private init(path: String, fileDescriptor: Int32, handle: OpaquePointer) {
        self.path = path
        self.fileDescriptor = fileDescriptor
        self.handle = handle
    }

    deinit { close() }

    // MARK: Opening and closing

    /// Opens `path` with `open(path, O_RDONLY|O_NONBLOCK|O_CLOEXEC)` (retried on `EINTR`), then
    /// `libevdev_new_from_fd`. A file that is not an evdev device (`/dev/null`, a regular file)
    /// fails in `libevdev_new_from_fd` with `ENOTTY` (`kind == .notEvdevDevice`); a node the user
    /// may not read fails in `open` with `EACCES` (`kind == .permissionDenied`, whose message says
    /// what to do).
    public static func open(path: String) throws(EvdevError) -> EvdevDevice {
        let fd: Int32
        switch retryingOnInterrupt({ switchscan_evdev_open(path) }) {
        case .success(let value): fd = value
        case .failure(let error): throw EvdevError(call: "open", errno: error, path: path)
        }
        var handle: OpaquePointer?
        let result = libevdev_new_from_fd(fd, &handle)
        guard result == 0, let handle else {
            FileIO.close(FileDescriptor(rawValue: fd))
            throw EvdevError(call: "libevdev_new_from_fd", errno: Errno(rawValue: result < 0 ? -result : EINVAL), path: path)
        }
        return EvdevDevice(path: path, fileDescriptor: fd, handle: handle)
    }

    /// Frees the libevdev handle (`libevdev_free`) and closes the descriptor (`close`, not
    /// retried: on Linux the descriptor is released even when `close` reports `EINTR`). Closing
    /// releases a grab. Calling it again does nothing.
    public func close() {
        if let handle {
            libevdev_free(handle)
            self.handle = nil
        }
        if fileDescriptor >= 0 {
            FileIO.close(FileDescriptor(rawValue: fileDescriptor))
            fileDescriptor = -1
        }
    }

    /// Whether `close()` was called.
    public var isClosed: Bool { handle == nil }

    private func requireHandle(_ call: String) throws(EvdevError) -> OpaquePointer {
        guard let handle else { throw EvdevError(call: call, errno: .badFileDescriptor, path: path) }
        return handle
    }

    // MARK: Identity and capabilities

    /// The device name. Calls `libevdev_get_name`.
    public var name: String {
        guard let handle, let name = libevdev_get_name(handle) else { return "" }
        return String(cString: name)
    }

    /// The physical path, if any. Calls `libevdev_get_phys`.
    public var phys: String? {
        guard let handle, let phys = libevdev_get_phys(handle) else { return nil }
        return String(cString: phys)
    }

    /// The unique id, if any. Calls `libevdev_get_uniq`.
    public var uniq: String? {
        guard let handle, let uniq = libevdev_get_uniq(handle) else { return nil }
        return String(cString: uniq)
    }

    /// The bus type (`BUS_USB` = 0x03, `BUS_BLUETOOTH` = 0x05). Calls `libevdev_get_id_bustype`.
    public var bus: UInt16 { handle.map { UInt16(truncatingIfNeeded: libevdev_get_id_bustype($0)) } ?? 0 }

    /// The vendor id. Calls `libevdev_get_id_vendor`.
    public var vendor: UInt16 { handle.map { UInt16(truncatingIfNeeded: libevdev_get_id_vendor($0)) } ?? 0 }

    /// The product id. Calls `libevdev_get_id_product`.
    public var product: UInt16 { handle.map { UInt16(truncatingIfNeeded: libevdev_get_id_product($0)) } ?? 0 }

    /// The product version. Calls `libevdev_get_id_version`.
    public var version: UInt16 { handle.map { UInt16(truncatingIfNeeded: libevdev_get_id_version($0)) } ?? 0 }

    /// Name, bus, vendor, product, version, phys and uniq together.
    public var identity: EvdevIdentity {
        EvdevIdentity(name: name, bus: bus, vendor: vendor, product: product, version: version, phys: phys, uniq: uniq)
    }

    /// Whether the device sends events of `type`. Calls `libevdev_has_event_type`.
    public func hasEventType(_ type: UInt16) -> Bool {
        guard let handle else { return false }
        return libevdev_has_event_type(handle, UInt32(type)) == 1
    }

    /// Whether the device sends `code` of `type` (`EV_KEY`, `KEY_SPACE`). Calls
    /// `libevdev_has_event_code`.
    public func hasEventCode(type: UInt16, code: UInt16) -> Bool {
        guard let handle else { return false }
        return libevdev_has_event_code(handle, UInt32(type), UInt32(code)) == 1
    }

    /// Every `EV_KEY` code the device can send, ascending (`libevdev_has_event_code` for each
    /// code up to `KEY_MAX`).
    public func supportedKeyCodes() -> [UInt16] {
        guard hasEventType(Evdev.EventType.key) else { return [] }
        return (0...Evdev.keyMax).filter { hasEventCode(type: Evdev.EventType.key, code: $0) }
    }

    // MARK: Clock and grab

    /// Timestamps events with `CLOCK_MONOTONIC` instead of the real-time clock (which jumps).
    /// Calls `libevdev_set_clock_id(dev, CLOCK_MONOTONIC)`.
    public func setClockMonotonic() throws(EvdevError) {
        let handle = try requireHandle("libevdev_set_clock_id")
        if case .failure(let error) = retryingNegativeErrno({ libevdev_set_clock_id(handle, CLOCK_MONOTONIC) }) {
            throw EvdevError(call: "libevdev_set_clock_id", errno: error, path: path)
        }
    }

    /// Takes the device for this descriptor alone (`EVIOCGRAB`): its events reach no other
    /// program (a keyboard-emulating switch's Space never types a space). Grab only once no key
    /// is down (`keysDown()`), or the other programs never see those keys' releases. Calls
    /// `libevdev_grab(dev, LIBEVDEV_GRAB)`; `EBUSY` means another descriptor holds the grab.
    public func grab() throws(EvdevError) {
        let handle = try requireHandle("libevdev_grab")
        if case .failure(let error) = retryingNegativeErrno({ libevdev_grab(handle, LIBEVDEV_GRAB) }) {
            throw EvdevError(call: "libevdev_grab", errno: error, path: path)
        }
    }

    /// Releases the grab. Calls `libevdev_grab(dev, LIBEVDEV_UNGRAB)`.
    public func ungrab() throws(EvdevError) {
        let handle = try requireHandle("libevdev_grab")
        if case .failure(let error) = retryingNegativeErrno({ libevdev_grab(handle, LIBEVDEV_UNGRAB) }) {
            throw EvdevError(call: "libevdev_grab", errno: error, path: path)
        }
    }

    // MARK: Key state

    /// The `EV_KEY` codes the kernel holds down now, ascending. Calls `ioctl(fd, EVIOCGKEY)`
    /// (the kernel's state, not libevdev's copy, as keyd does before grabbing).
    public func pressedKeys() throws(EvdevError) -> [UInt16] {
        guard fileDescriptor >= 0 else { throw EvdevError(call: "ioctl(EVIOCGKEY)", errno: .badFileDescriptor, path: path) }
        let byteCount = Int(Evdev.keyMax) / 8 + 1
        var bits = [UInt8](repeating: 0, count: byteCount)
        let fd = fileDescriptor
        let result = bits.withUnsafeMutableBufferPointer { buffer in
            retryingOnInterrupt { switchscan_evdev_ioctl_eviocgkey(fd, buffer.baseAddress, UInt32(byteCount)) }
        }
        if case .failure(let error) = result {
            throw EvdevError(call: "ioctl(EVIOCGKEY)", errno: error, path: path)
        }
        var codes = [UInt16]()
        for (index, byte) in bits.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                codes.append(UInt16(index * 8 + bit))
            }
        }
        return codes
    }

    /// Whether any key is down now (`pressedKeys()`, `ioctl(fd, EVIOCGKEY)`).
    public func keysDown() throws(EvdevError) -> Bool {
        try !pressedKeys().isEmpty
    }

    /// libevdev's view of a code's state (for `EV_KEY`, 1 while down), as updated by the events
    /// read so far. Calls `libevdev_get_event_value`.
    public func eventValue(type: UInt16, code: UInt16) -> Int32 {
        guard let handle else { return 0 }
        return libevdev_get_event_value(handle, UInt32(type), UInt32(code))
    }

    // MARK: Reading

    /// How `nextEvent` reads.
    public enum ReadFlag: Hashable, Sendable {
        /// `LIBEVDEV_READ_FLAG_NORMAL`: the next event.
        case normal
        /// `LIBEVDEV_READ_FLAG_SYNC`: after `.syncRequired`, the delta events that bring the
        /// caller's state up to date (the presses and releases lost in the dropped events).
        case sync
    }

    /// What `nextEvent` found.
    public enum ReadResult: Hashable, Sendable {
        /// An event (in `.sync` mode: a delta event of the resynchronisation).
        case event(InputEvent)
        /// `SYN_DROPPED`: the kernel's buffer overflowed. Read with `.sync` until `.again`.
        case syncRequired
        /// Nothing more to read now (`-EAGAIN`); poll the descriptor.
        case again
        /// The device was unplugged (`-ENODEV`): close it and wait for it to come back.
        case deviceGone
    }

    /// The next event. Calls `libevdev_next_event(dev, flag, &event)`, retried on `-EINTR`:
    /// `LIBEVDEV_READ_STATUS_SUCCESS` → `.event`; `LIBEVDEV_READ_STATUS_SYNC` → `.syncRequired`
    /// in `.normal` mode, `.event` in `.sync` mode; `-EAGAIN` → `.again`; `-ENODEV` →
    /// `.deviceGone`; other errors are thrown.
    public func nextEvent(flag: ReadFlag = .normal) throws(EvdevError) -> ReadResult {
        let handle = try requireHandle("libevdev_next_event")
        let flags = flag == .normal ? LIBEVDEV_READ_FLAG_NORMAL.rawValue : LIBEVDEV_READ_FLAG_SYNC.rawValue
        var raw = input_event()
        let result = retryingNegativeErrno { libevdev_next_event(handle, flags, &raw) }
        switch result {
        case .success(let status):
            if status == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue), flag == .normal { return .syncRequired }
            return .event(InputEvent(
                seconds: Int64(switchscan_evdev_event_sec(&raw)), microseconds: Int64(switchscan_evdev_event_usec(&raw)),
                type: raw.type, code: raw.code, value: raw.value))
        case .failure(.resourceTemporarilyUnavailable):
            return .again
        case .failure(.noSuchDevice):
            return .deviceGone
        case .failure(let error):
            throw EvdevError(call: "libevdev_next_event", errno: error, path: path)
        }
    }

    /// Whether events are waiting, in libevdev's queue or on the descriptor. Calls
    /// `libevdev_has_event_pending`.
    public func hasEventPending() throws(EvdevError) -> Bool {
        let handle = try requireHandle("libevdev_has_event_pending")
        switch retryingNegativeErrno({ libevdev_has_event_pending(handle) }) {
        case .success(let count): return count > 0
        case .failure(let error): throw EvdevError(call: "libevdev_has_event_pending", errno: error, path: path)
        }
    }

    /// What one `readAvailable()` found.
    public struct ReadBatch: Hashable, Sendable {
        /// Every event, in order; after a `SYN_DROPPED`, the delta events of the resync.
        public var events: [InputEvent]
        /// Events were dropped by the kernel and libevdev's delta events were applied.
        public var resynchronized: Bool
        /// The device is gone (`-ENODEV`); `events` holds what was read before.
        public var deviceGone: Bool

        public init(events: [InputEvent] = [], resynchronized: Bool = false, deviceGone: Bool = false) {
            self.events = events
            self.resynchronized = resynchronized
            self.deviceGone = deviceGone
        }
    }

    /// The read loop of a readable descriptor, as libinput does it: `nextEvent(.normal)` until
    /// `.again`; on `.syncRequired`, `nextEvent(.sync)` until `.again` (the delta events carry the
    /// lost presses and releases), then normal reading again; stops at `.deviceGone`.
    public func readAvailable() throws(EvdevError) -> ReadBatch {
        var batch = ReadBatch()
        while true {
            switch try nextEvent(flag: .normal) {
            case .event(let event):
                batch.events.append(event)
            case .again:
                return batch
            case .deviceGone:
                batch.deviceGone = true
                return batch
            case .syncRequired:
                batch.resynchronized = true
                syncing: while true {
                    switch try nextEvent(flag: .sync) {
                    case .event(let event): batch.events.append(event)
                    case .again, .syncRequired: break syncing
                    case .deviceGone:
                        batch.deviceGone = true
                        return batch
                    }
                }
            }
        }
    }
}
