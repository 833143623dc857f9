/// Decodes a stream of raw `struct input_event` records, as read from an evdev node or a FIFO
/// fed by one (`--input raw:PATH`): on x86_64 each is 24 bytes, little-endian: `tv_sec` (i64),
/// `tv_usec` (i64), `type` (u16), `code` (u16), `value` (i32).
///
/// Incremental: `feed` takes bytes as they arrive (any split) and returns the whole records;
/// `finish` at the end of the stream reports a truncated trailing record with its byte offset.
/// A record whose type is not an event type or whose microseconds are out of range means the
/// stream is not (or no longer aligned to) `input_event` records: `feed` returns the records
/// before it, sets `error`, and decodes nothing more; `finish` throws it.
public struct RawEventDecoder: Sendable {
    /// `sizeof(struct input_event)` on x86_64 (and other 64-bit Linux).
    public static let recordSize = 24

    /// Bytes fed so far.
    public private(set) var bytesFed = 0
    private var pending: [UInt8] = []
    /// Set when a record was not an input event; nothing more is decoded.
    public private(set) var error: RawStreamError?

    public init() {}

    /// Bytes of an incomplete record waiting for the rest.
    public var pendingByteCount: Int { pending.count }

    /// Bytes of whole records decoded so far (the offset of the first pending byte).
    public private(set) var consumedBytes = 0

    /// Appends bytes; returns the records they complete, in order (up to an invalid one: check
    /// `error`).
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [DeviceEvent] {
        guard error == nil else { return [] }
        pending.append(contentsOf: bytes)
        return decodePending()
    }

    /// `feed` for bytes in memory (a read buffer): the same records, decoded where they lie when
    /// no partial record waits (what a read of whole records gives).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [DeviceEvent] {
        guard error == nil else { return [] }
        guard pending.isEmpty else {
            pending.append(contentsOf: bytes)
            return decodePending()
        }
        bytesFed = consumedBytes + bytes.count
        let (events, decoded) = decode(bytes)
        if error == nil { pending.append(contentsOf: bytes[decoded...]) }
        return events
    }

    private mutating func decodePending() -> [DeviceEvent] {
        bytesFed = consumedBytes + pending.count
        let (events, decoded) = pending.withUnsafeBytes { decode($0) }
        if error == nil { pending.removeFirst(decoded) } else { pending.removeAll() }
        return events
    }

    /// The whole records at the start of `bytes` (up to an invalid one, which sets `error`), and
    /// how many bytes they take; `consumedBytes` counts them.
    private mutating func decode(_ bytes: UnsafeRawBufferPointer) -> (events: [DeviceEvent], decoded: Int) {
        let whole = bytes.count / Self.recordSize
        var events = [DeviceEvent]()
        events.reserveCapacity(whole)
        for index in 0..<whole {
            let base = index * Self.recordSize
            let event = Self.decodeRecord(bytes, at: base)
            var reason: String?
            if event.type > DeviceEvent.EventType.max {
                reason = "event type 0x\(String(event.type, radix: 16)) is not an input event type (at most 0x1f)"
            } else if event.microseconds < 0 || event.microseconds >= 1_000_000 {
                reason = "tv_usec \(event.microseconds) is not between 0 and 999999"
            }
            if let reason {
                error = RawStreamError(kind: .invalidRecord(reason: reason), offset: consumedBytes + base)
                consumedBytes += base
                return (events, base)
            }
            events.append(event)
        }
        consumedBytes += whole * Self.recordSize
        return (events, whole * Self.recordSize)
    }

    /// The end of the stream: throws when bytes of an incomplete record remain.
    public func finish() throws(RawStreamError) {
        if let error { throw error }
        if !pending.isEmpty {
            throw RawStreamError(kind: .truncated(byteCount: pending.count), offset: consumedBytes)
        }
    }

    /// The 24 bytes of one event (little-endian, x86_64 layout).
    public static func encode(_ event: DeviceEvent) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(recordSize)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        append(event.seconds)
        append(event.microseconds)
        append(event.type)
        append(event.code)
        append(event.value)
        return bytes
    }

    static func decodeRecord(_ bytes: UnsafeRawBufferPointer, at base: Int) -> DeviceEvent {
        func read<T: FixedWidthInteger>(_: T.Type, _ offset: Int) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: base + offset, as: T.self))
        }
        return DeviceEvent(
            seconds: read(Int64.self, 0), microseconds: read(Int64.self, 8),
            type: read(UInt16.self, 16), code: read(UInt16.self, 18), value: read(Int32.self, 20))
    }
}

/// A raw stream that is not whole `struct input_event` records.
public struct RawStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The stream ended `byteCount` bytes into a record.
        case truncated(byteCount: Int)
        /// The record at `offset` cannot be an input event.
        case invalidRecord(reason: String)
    }

    public var kind: Kind
    /// The byte offset of the record in the stream.
    public var offset: Int

    public init(kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The record's index (0-based).
    public var recordIndex: Int { offset / RawEventDecoder.recordSize }

    public var description: String {
        switch kind {
        case .truncated(let count):
            return "the stream ends inside a record: \(count) of \(RawEventDecoder.recordSize) bytes at byte offset \(offset) (record \(recordIndex + 1)); a raw stream is whole \(RawEventDecoder.recordSize)-byte struct input_event records"
        case .invalidRecord(let reason):
            return "the record at byte offset \(offset) (record \(recordIndex + 1)) is not a struct input_event: \(reason); is this a raw evdev stream, read from its start?"
        }
    }
}
