import DeviceProfiles
import Testing

/// One x86_64 `struct input_event`, byte by byte (little-endian): tv_sec i64, tv_usec i64,
/// type u16, code u16, value i32.
private func record(sec: UInt64, usec: UInt64, type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
    var bytes = [UInt8]()
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: sec >> UInt64(shift))) }
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: usec >> UInt64(shift))) }
    bytes += [UInt8(type & 0xff), UInt8(type >> 8), UInt8(code & 0xff), UInt8(code >> 8)]
    let raw = UInt32(bitPattern: value)
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: raw >> UInt32(shift))) }
    return bytes
}

@Suite struct RawEventDecoderTests {
    @Test func byteExactRecords() {
        let press = record(sec: 1_700_000_000, usec: 123_456, type: 1, code: 57, value: 1)
        #expect(press.count == 24)
        // The layout spelt out: 1_700_000_000 = 0x6553f100, 123_456 = 0x01e240.
        #expect(press == [
            0x00, 0xf1, 0x53, 0x65, 0, 0, 0, 0,
            0x40, 0xe2, 0x01, 0, 0, 0, 0, 0,
            0x01, 0x00, 0x39, 0x00,
            0x01, 0x00, 0x00, 0x00,
        ])
        var decoder = RawEventDecoder()
        let events = decoder.feed(press + record(sec: 1_700_000_000, usec: 123_456, type: 0, code: 0, value: 0)
            + record(sec: 1_700_000_001, usec: 5, type: 2, code: 8, value: -1))
        #expect(events == [
            DeviceEvent(seconds: 1_700_000_000, microseconds: 123_456, type: 1, code: 57, value: 1),
            DeviceEvent(seconds: 1_700_000_000, microseconds: 123_456, type: 0, code: 0, value: 0),
            DeviceEvent(seconds: 1_700_000_001, microseconds: 5, type: 2, code: 8, value: -1),
        ])
        #expect(events[0].time == 1_700_000_000.123456)
        #expect(decoder.error == nil)
        #expect(throws: Never.self) { try decoder.finish() }
        #expect(RawEventDecoder.encode(events[0]) == press)
        #expect(RawEventDecoder.encode(events[2]) == record(sec: 1_700_000_001, usec: 5, type: 2, code: 8, value: -1))
    }

    @Test func incrementalFeeding() {
        let bytes = record(sec: 10, usec: 1, type: 1, code: 28, value: 1) + record(sec: 10, usec: 2, type: 1, code: 28, value: 0)
        // Every split gives the same events.
        for split in [1, 5, 23, 24, 25, 47] {
            var decoder = RawEventDecoder()
            var events = [DeviceEvent]()
            var index = 0
            while index < bytes.count {
                let end = min(bytes.count, index + split)
                events += decoder.feed(bytes[index..<end])
                index = end
            }
            #expect(events.map(\.value) == [1, 0], "split \(split)")
            #expect(decoder.bytesFed == 48)
            #expect(decoder.consumedBytes == 48)
            #expect(throws: Never.self) { try decoder.finish() }
        }
        var decoder = RawEventDecoder()
        #expect(decoder.feed(bytes.prefix(30)).count == 1)
        #expect(decoder.pendingByteCount == 6)
    }

    @Test func truncatedRecord() {
        var decoder = RawEventDecoder()
        let bytes = record(sec: 1, usec: 0, type: 1, code: 57, value: 1) + record(sec: 1, usec: 0, type: 0, code: 0, value: 0)
            + record(sec: 2, usec: 0, type: 1, code: 57, value: 0).prefix(10)
        #expect(decoder.feed(bytes).count == 2)
        do {
            try decoder.finish()
            Issue.record("a truncated record must be reported")
        } catch {
            #expect(error.kind == .truncated(byteCount: 10))
            #expect(error.offset == 48)
            #expect(error.recordIndex == 2)
            #expect(error.description == "the stream ends inside a record: 10 of 24 bytes at byte offset 48 (record 3); a raw stream is whole 24-byte struct input_event records")
        }
    }

    @Test func recordsThatAreNotInputEvents() {
        // Misaligned by 8 bytes: the seconds of the next record land in its microseconds.
        var decoder = RawEventDecoder()
        let good = record(sec: 1_700_000_000, usec: 5, type: 1, code: 57, value: 1)
        let events = decoder.feed(good + Array(repeating: 0, count: 8) + good + good)
        #expect(events.count == 1)
        #expect(decoder.error?.offset == 24)
        #expect(decoder.error?.kind == .invalidRecord(reason: "tv_usec 1700000000 is not between 0 and 999999"))
        #expect(decoder.error.map { "\($0)" }?.contains("the record at byte offset 24 (record 2) is not a struct input_event") == true)
        // Nothing more is decoded, and the end reports it.
        #expect(decoder.feed(good).isEmpty)
        #expect(throws: RawStreamError.self) { try decoder.finish() }
        // A type beyond EV_MAX.
        var other = RawEventDecoder()
        #expect(other.feed(record(sec: 1, usec: 0, type: 0x3a6b, code: 57, value: 1)).isEmpty)
        #expect(other.error?.kind == .invalidRecord(reason: "event type 0x3a6b is not an input event type (at most 0x1f)"))
        #expect(other.error?.offset == 0)
    }
}
