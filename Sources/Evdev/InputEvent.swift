/// One kernel input event (`struct input_event`) as Swift values.
///
/// `time` is the timestamp in seconds. With `EvdevDevice.setClockMonotonic()` it is on
/// `CLOCK_MONOTONIC`, the clock Swift's `SuspendingClock` reads on Linux; the default is the
/// real-time clock, which jumps.
public struct InputEvent: Hashable, Sendable, CustomStringConvertible {
    /// The raw timestamp: whole seconds and microseconds (`input_event_sec`, `input_event_usec`).
    public var seconds: Int64
    public var microseconds: Int64
    /// `EV_KEY`, `EV_SYN`, … (see `Evdev.EventType`).
    public var type: UInt16
    public var code: UInt16
    /// For `EV_KEY`: 0 release, 1 press, 2 kernel autorepeat.
    public var value: Int32

    public init(seconds: Int64, microseconds: Int64, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// The timestamp in seconds.
    public var time: Double { Double(seconds) + Double(microseconds) / 1_000_000 }

    /// `12.000345 EV_KEY KEY_SPACE 1`, with libevdev's names.
    public var description: String {
        let micros = String(microseconds)
        let padded = String(repeating: "0", count: max(0, 6 - micros.count)) + micros
        let typeName = Evdev.eventTypeName(type) ?? "type \(type)"
        let codeName = Evdev.codeName(type: type, code: code) ?? "code \(code)"
        return "\(seconds).\(padded) \(typeName) \(codeName) \(value)"
    }
}
