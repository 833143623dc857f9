/// One kernel input event as the pure code sees it, whatever its source: a live device (the
/// runtime copies `Evdev.InputEvent` into it), an evemu recording, a raw `struct input_event`
/// stream, or a scripted test's `key:` step.
public struct DeviceEvent: Hashable, Sendable, CustomStringConvertible {
    /// The timestamp: whole seconds and microseconds, as the kernel gives them.
    public var seconds: Int64
    public var microseconds: Int64
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

    /// An event at `time` seconds (rounded to the microsecond).
    public init(time: Double, type: UInt16, code: UInt16, value: Int32) {
        // Clamped to what Int64 microseconds hold (±292 000 years), so no time traps.
        let scaled = (time * 1_000_000).rounded()
        let micros = scaled.isNaN ? 0 : scaled >= 9.2e18 ? Int64(9.2e18) : scaled <= -9.2e18 ? Int64(-9.2e18) : Int64(scaled)
        var seconds = micros / 1_000_000
        var remainder = micros % 1_000_000
        if remainder < 0 {
            seconds -= 1
            remainder += 1_000_000
        }
        self.init(seconds: seconds, microseconds: remainder, type: type, code: code, value: value)
    }

    /// The timestamp in seconds.
    public var time: Double { Double(seconds) + Double(microseconds) / 1_000_000 }

    /// The timestamp in microseconds.
    public var totalMicroseconds: Int64 { seconds &* 1_000_000 &+ microseconds }

    /// Event types (`<linux/input-event-codes.h>`).
    public enum EventType {
        public static let syn: UInt16 = 0x00
        public static let key: UInt16 = 0x01
        public static let rel: UInt16 = 0x02
        public static let abs: UInt16 = 0x03
        public static let msc: UInt16 = 0x04
        public static let sw: UInt16 = 0x05
        public static let led: UInt16 = 0x11
        public static let snd: UInt16 = 0x12
        public static let rep: UInt16 = 0x14
        public static let ff: UInt16 = 0x15
        public static let pwr: UInt16 = 0x16
        public static let ffStatus: UInt16 = 0x17
        /// `EV_MAX`: types are below `EV_CNT` (0x20).
        public static let max: UInt16 = 0x1f

        /// `EV_KEY` and friends, for messages and evemu comments.
        public static func name(_ type: UInt16) -> String? {
            switch type {
            case syn: "EV_SYN"
            case key: "EV_KEY"
            case rel: "EV_REL"
            case abs: "EV_ABS"
            case msc: "EV_MSC"
            case sw: "EV_SW"
            case led: "EV_LED"
            case snd: "EV_SND"
            case rep: "EV_REP"
            case ff: "EV_FF"
            case pwr: "EV_PWR"
            case ffStatus: "EV_FF_STATUS"
            default: nil
            }
        }
    }

    /// `EV_SYN` codes.
    public enum SynCode {
        public static let report: UInt16 = 0
        public static let config: UInt16 = 1
        public static let mtReport: UInt16 = 2
        public static let dropped: UInt16 = 3
    }

    /// `EV_MSC` codes.
    public enum MscCode {
        public static let scan: UInt16 = 4
    }

    /// `EV_KEY` values.
    public enum KeyValue {
        public static let release: Int32 = 0
        public static let press: Int32 = 1
        public static let autorepeat: Int32 = 2
    }

    /// The code's name where this module knows it (`KEY_SPACE`, `SYN_REPORT`, `MSC_SCAN`).
    public var codeName: String? {
        switch type {
        case EventType.key: return KeyCodes.name(for: code)
        case EventType.syn:
            return [SynCode.report: "SYN_REPORT", SynCode.config: "SYN_CONFIG", SynCode.mtReport: "SYN_MT_REPORT",
                    SynCode.dropped: "SYN_DROPPED"][code]
        case EventType.msc where code == MscCode.scan: return "MSC_SCAN"
        default: return nil
        }
    }

    /// `0.000001 EV_KEY KEY_SPACE 1`
    public var description: String {
        "\(EvemuRecording.formatTime(self)) \(EventType.name(type) ?? "type \(type)") \(codeName ?? "code \(code)") \(value)"
    }
}
