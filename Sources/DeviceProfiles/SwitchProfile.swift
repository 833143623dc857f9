import SwitchInput

/// A switch interface profile (`Devices/switches/*.yaml`): which devices it is for, which key
/// codes are switches, and what each switch does.
///
/// ```yaml
/// name: PCsensor foot switch
/// match:
///   - {bus: usb, vendor: "0c45", product: "7403"}
/// pulseOnly: false
/// switches:
///   - {id: left, code: KEY_SPACE, action: select, longPressAction: menu}
///   - {id: right, code: KEY_ENTER, action: next}
/// ```
public struct SwitchProfile: Hashable, Sendable {
    /// One way to recognise a device. Every field given must match; vendor and product go
    /// together. `name` may use `*` for any run of characters and is compared ignoring case.
    public struct Match: Hashable, Sendable {
        public var bus: UInt16?
        public var vendor: UInt16?
        public var product: UInt16?
        public var name: String?
        public var phys: String?
        public var uniq: String?

        public init(bus: UInt16? = nil, vendor: UInt16? = nil, product: UInt16? = nil, name: String? = nil, phys: String? = nil, uniq: String? = nil) {
            self.bus = bus
            self.vendor = vendor
            self.product = product
            self.name = name
            self.phys = phys
            self.uniq = uniq
        }

        /// Whether every field given matches the device.
        public func matches(_ device: DeviceIdentity) -> Bool {
            if let bus, bus != device.bus { return false }
            if let vendor, vendor != device.vendor { return false }
            if let product, product != device.product { return false }
            if let name, !globMatches(name, device.name) { return false }
            if let phys, !globMatches(phys, device.phys ?? "") { return false }
            if let uniq, uniq != (device.uniq ?? "") { return false }
            return true
        }

        /// Vendor and product, when given, make a match specific to a model; otherwise it goes
        /// by name (or phys, uniq).
        public var specificity: ProfileMatch.Specificity {
            vendor != nil && product != nil ? .vendorProduct : .name
        }

        /// How many fields it checks (more wins among matches of the same specificity).
        public var fieldCount: Int {
            [bus != nil, vendor != nil, product != nil, name != nil, phys != nil, uniq != nil].filter { $0 }.count
        }
    }

    /// Which devices the profile is for.
    public enum Matching: Hashable, Sendable {
        /// Devices that fit any of these.
        case devices([Match])
        /// `match: generic`: any device that can send one of the profile's codes, below every
        /// specific profile (the generic keyboard-emulating interface).
        case generic
        /// No `match`: used only when chosen by name.
        case manual
    }

    /// One switch: the key code it sends and what it does.
    public struct Switch: Hashable, Sendable {
        public var id: SwitchID
        /// The `EV_KEY` code.
        public var code: UInt16
        /// The code's name as written (`KEY_SPACE`, or the number for a code without a name).
        public var codeName: String
        public var action: SwitchAction
        /// What a long press does (with the `longPress` setting on).
        public var longPressAction: SwitchAction?

        public init(id: SwitchID, code: UInt16, codeName: String? = nil, action: SwitchAction, longPressAction: SwitchAction? = nil) {
            self.id = id
            self.code = code
            self.codeName = codeName ?? KeyCodes.name(for: code) ?? String(code)
            self.action = action
            self.longPressAction = longPressAction
        }

        public var binding: SwitchBinding { SwitchBinding(action: action, longPressAction: longPressAction) }
    }

    public var name: String
    public var description: String?
    public var matching: Matching
    /// The interface sends a pulse per press (no release timing): hold duration and long press
    /// are off (`Stabilizer.Configuration.pulseOnly`).
    public var pulseOnly: Bool
    public var switches: [Switch]
    /// The file it was read from, as given to the parser.
    public var file: String

    public init(name: String, description: String? = nil, matching: Matching, pulseOnly: Bool = false, switches: [Switch], file: String = "") {
        self.name = name
        self.description = description
        self.matching = matching
        self.pulseOnly = pulseOnly
        self.switches = switches
        self.file = file
    }

    /// The file's name without folder and extension: `generic-keyboard`.
    public var id: String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        for suffix in [".yaml", ".yml"] where base.hasSuffix(suffix) {
            return String(base.dropLast(suffix.count))
        }
        return base
    }

    /// The switches' bindings, for the `Stabilizer`.
    public var bindings: [SwitchID: SwitchBinding] {
        Dictionary(switches.map { ($0.id, $0.binding) }, uniquingKeysWith: { first, _ in first })
    }

    /// The switch a code belongs to.
    public func switchID(forCode code: UInt16) -> SwitchID? {
        switches.first { $0.code == code }?.id
    }

    /// The switch a code name belongs to (`KEY_SPACE`; aliases such as `BTN_A` for
    /// `BTN_SOUTH` count). Nil for an unknown name or a code that is not a switch.
    public func switchID(forCode name: String) -> SwitchID? {
        KeyCodes.code(named: name).flatMap { switchID(forCode: $0) }
    }

    /// Every key code the profile listens to.
    public var codes: Set<UInt16> { Set(switches.map(\.code)) }
}

/// `*` matches any run of characters, `?` one; other characters match themselves, ignoring case.
func globMatches(_ pattern: String, _ text: String) -> Bool {
    let pattern = Array(pattern.lowercased()), text = Array(text.lowercased())
    var p = 0, t = 0
    var star: Int?, starText = 0
    while t < text.count {
        if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
            p += 1
            t += 1
        } else if p < pattern.count, pattern[p] == "*" {
            star = p
            starText = t
            p += 1
        } else if let star {
            p = star + 1
            starText += 1
            t = starText
        } else {
            return false
        }
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
}
