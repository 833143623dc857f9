import CEvdev
import Platform
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Names of event types and codes (libevdev's tables), event type constants, and the scan of
/// `/dev/input`.
public enum Evdev {
    /// Event types, as `<linux/input-event-codes.h>` numbers them.
    public enum EventType {
        public static let syn = UInt16(EV_SYN)
        public static let key = UInt16(EV_KEY)
        public static let rel = UInt16(EV_REL)
        public static let abs = UInt16(EV_ABS)
        public static let msc = UInt16(EV_MSC)
        public static let sw = UInt16(EV_SW)
        public static let led = UInt16(EV_LED)
        public static let rep = UInt16(EV_REP)
    }

    /// `EV_SYN` codes.
    public enum SynCode {
        public static let report = UInt16(SYN_REPORT)
        /// The kernel's buffer overflowed and events were lost (libevdev then reports
        /// `.syncRequired`).
        public static let dropped = UInt16(SYN_DROPPED)
    }

    /// The highest `EV_KEY` code (`KEY_MAX`).
    public static let keyMax = UInt16(switchscan_evdev_key_max())

    /// The size of `struct input_event` on this machine (24 bytes on x86_64).
    public static let inputEventSize = Int(switchscan_evdev_input_event_size())

    /// The directory the kernel's evdev nodes are in.
    public static let inputDirectory = "/dev/input"

    /// The name of an `EV_KEY` code: `KEY_SPACE` for 57, `BTN_TRIGGER` for 288.
    /// Calls `libevdev_event_code_get_name(EV_KEY, code)`.
    public static func keyName(_ code: UInt16) -> String? {
        codeName(type: EventType.key, code: code)
    }

    /// The `EV_KEY` code of a name (`KEY_…` or `BTN_…`). Calls
    /// `libevdev_event_code_from_name(EV_KEY, name)`.
    public static func keyCode(name: String) -> UInt16? {
        let code = libevdev_event_code_from_name(UInt32(EV_KEY), name)
        guard code >= 0, code <= Int32(UInt16.max) else { return nil }
        return UInt16(code)
    }

    /// The name of any event code. Calls `libevdev_event_code_get_name(type, code)`.
    public static func codeName(type: UInt16, code: UInt16) -> String? {
        guard let name = libevdev_event_code_get_name(UInt32(type), UInt32(code)) else { return nil }
        return String(cString: name)
    }

    /// The name of an event type (`EV_KEY`). Calls `libevdev_event_type_get_name(type)`.
    public static func eventTypeName(_ type: UInt16) -> String? {
        guard let name = libevdev_event_type_get_name(UInt32(type)) else { return nil }
        return String(cString: name)
    }

    /// Opens every `eventN` node in `directory` (default `/dev/input`), in N order, and reads its
    /// identity and the key codes it can send; nodes that cannot be opened are listed with the
    /// reason (permission, not an evdev device, gone since the listing). Other names (`mice`,
    /// `by-id`) are skipped. Throws when the directory cannot be listed (`opendir`): on a machine
    /// or container without input devices, `/dev/input` does not exist (`ENOENT`).
    public static func scanDevices(in directory: String = inputDirectory) throws(EvdevError) -> [EvdevScanEntry] {
        let names = try eventNodeNames(in: directory)
        var entries = [EvdevScanEntry]()
        for name in names {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            do {
                let device = try EvdevDevice.open(path: path)
                defer { device.close() }
                let info = EvdevDeviceInfo(identity: device.identity, keyCodes: device.supportedKeyCodes())
                entries.append(EvdevScanEntry(path: path, outcome: .success(info)))
            } catch {
                entries.append(EvdevScanEntry(path: path, outcome: .failure(error)))
            }
        }
        return entries
    }

    /// The `eventN` names in a directory, sorted by N (the platform layer's folder listing).
    static func eventNodeNames(in directory: String) throws(EvdevError) -> [String] {
        let names: [String]
        do {
            names = try FileSystem.entries(ofDirectory: directory)
        } catch {
            throw EvdevError(call: error.call, errno: error.errno, path: directory)
        }
        var found = [(Int, String)]()
        for name in names {
            guard name.hasPrefix("event"), let number = Int(name.dropFirst(5)), number >= 0 else { continue }
            found.append((number, name))
        }
        return found.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// Who a device says it is (`EVIOCGNAME`, `EVIOCGID`, `EVIOCGPHYS`, `EVIOCGUNIQ` through
/// libevdev).
public struct EvdevIdentity: Hashable, Sendable {
    public var name: String
    /// `BUS_USB` (0x03), `BUS_BLUETOOTH` (0x05), …
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// The physical path (`usb-0000:00:14.0-2/input0`), if the driver gives one.
    public var phys: String?
    /// A unique id (often a serial or Bluetooth address), if the driver gives one.
    public var uniq: String?

    public init(name: String, bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16, phys: String? = nil, uniq: String? = nil) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.phys = phys
        self.uniq = uniq
    }
}

/// A device found by `Evdev.scanDevices`: its identity and the `EV_KEY` codes it can send.
public struct EvdevDeviceInfo: Hashable, Sendable {
    public var identity: EvdevIdentity
    public var keyCodes: [UInt16]

    public init(identity: EvdevIdentity, keyCodes: [UInt16]) {
        self.identity = identity
        self.keyCodes = keyCodes
    }
}

/// One `eventN` node of a scan: what it is, or why it could not be opened.
public struct EvdevScanEntry: Sendable {
    public var path: String
    public var outcome: Result<EvdevDeviceInfo, EvdevError>

    public init(path: String, outcome: Result<EvdevDeviceInfo, EvdevError>) {
        self.path = path
        self.outcome = outcome
    }
}
