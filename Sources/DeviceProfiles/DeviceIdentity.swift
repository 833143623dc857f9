/// Who an input device says it is, as profiles match it: the kernel's name, bus, vendor,
/// product and version (`EVIOCGNAME`, `EVIOCGID`), physical path and unique id, and which
/// `EV_KEY` codes it can send (when known: a live device or an evemu recording's `B:` lines).
public struct DeviceIdentity: Hashable, Sendable {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public var phys: String?
    public var uniq: String?
    /// The `EV_KEY` codes the device can send; nil when unknown (then a generic profile matches
    /// any device).
    public var keyCodes: Set<UInt16>?

    public init(
        name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
        phys: String? = nil, uniq: String? = nil, keyCodes: Set<UInt16>? = nil
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.phys = phys
        self.uniq = uniq
        self.keyCodes = keyCodes
    }

    /// `usb 0c45:7403`
    public var shortID: String { "\(BusType.name(bus)) \(hex4(vendor)):\(hex4(product))" }
}

/// Bus types (`BUS_*` in `<linux/input.h>`), by the names profiles use.
public enum BusType {
    public static let pci: UInt16 = 0x01
    public static let usb: UInt16 = 0x03
    public static let bluetooth: UInt16 = 0x05
    public static let virtual: UInt16 = 0x06
    public static let i8042: UInt16 = 0x11
    public static let rs232: UInt16 = 0x13
    public static let gameport: UInt16 = 0x14
    public static let i2c: UInt16 = 0x18
    public static let host: UInt16 = 0x19

    /// Every name a profile may give for `bus`, with its number.
    public static let names: [(name: String, value: UInt16)] = [
        ("pci", 0x01), ("isapnp", 0x02), ("usb", 0x03), ("hil", 0x04), ("bluetooth", 0x05), ("virtual", 0x06),
        ("isa", 0x10), ("i8042", 0x11), ("xtkbd", 0x12), ("rs232", 0x13), ("gameport", 0x14), ("parport", 0x15),
        ("amiga", 0x16), ("adb", 0x17), ("i2c", 0x18), ("host", 0x19), ("gsc", 0x1a), ("atari", 0x1b),
        ("spi", 0x1c), ("rmi", 0x1d), ("cec", 0x1e), ("intel-ishtp", 0x1f), ("amd-sfh", 0x20),
    ]

    /// `usb` for 0x03; four hex digits for a bus without a name.
    public static func name(_ bus: UInt16) -> String {
        names.first { $0.value == bus }?.name ?? hex4(bus)
    }

    /// The number of a bus name (`usb`), or of four hex digits (`0003`, `0x3`).
    public static func value(named text: String) -> UInt16? {
        if let known = names.first(where: { $0.name == text.lowercased() }) { return known.value }
        return parseHexID(text)
    }
}

/// Four lower-case hex digits: `0c45`.
public func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// A 16-bit id written in hex, with or without `0x`: `0c45`, `0x0C45`. Nil when it is not one.
func parseHexID(_ text: String) -> UInt16? {
    var digits = Substring(text)
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
    guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isHexDigit) else { return nil }
    return UInt16(digits, radix: 16)
}
