import SwitchInput

/// Turns a device's events into switch edges through a profile: the one path for every source
/// (a live device, an evemu recording, a raw stream, a scripted test's `key:` step), ahead of the
/// same `Stabilizer`.
///
/// `EV_KEY` value 1 is a down, 0 an up, 2 kernel autorepeat (a `.repeat` edge, which the
/// stabilizer rejects as `autorepeat`, visibly in the trace). Other values, and every other event
/// type (`EV_SYN`, `EV_MSC` scan codes, `EV_REL` motion of a mouse-emulating interface), are
/// ignored. A key code the profile does not map is reported as `.unmapped`. Event times (seconds)
/// become edge times.
///
/// It remembers which switches are down, so that when the device disappears `releaseAll(at:)`
/// gives an up for each.
public struct DeviceEventTranslator: Sendable {
    public enum Output: Hashable, Sendable {
        /// A switch edge, for the stabilizer.
        case edge(SwitchEdge)
        /// Not a key event (or a key value other than 0, 1, 2): nothing for the scanner.
        case ignored
        /// A key the profile has no switch for: its code, name if known, and value.
        case unmapped(code: UInt16?, name: String?, value: Int32)
    }

    public let profile: SwitchProfile
    private let switchByCode: [UInt16: SwitchID]
    /// The switches whose last edge was a down.
    public var switchesDown: Set<SwitchID> { Set(down) }
    /// The same, in the order they went down: a device has a few switches, and a short array
    /// spares each edge hashing its id.
    private var down: [SwitchID] = []

    public init(profile: SwitchProfile) {
        self.profile = profile
        self.switchByCode = Dictionary(profile.switches.map { ($0.code, $0.id) }, uniquingKeysWith: { first, _ in first })
    }

    /// One event.
    public mutating func translate(_ event: DeviceEvent) -> Output {
        guard event.type == DeviceEvent.EventType.key else { return .ignored }
        return translate(code: event.code, value: event.value, time: event.time)
    }

    /// A key by name (a scripted test's `key: {code: KEY_SPACE, value: 1}`), at `time`.
    public mutating func translate(codeName: String, value: Int32, time: Double) -> Output {
        guard let code = KeyCodes.code(named: codeName) else {
            return .unmapped(code: nil, name: codeName, value: value)
        }
        return translate(code: code, value: value, time: time)
    }

    /// A key by code, at `time`.
    public mutating func translate(code: UInt16, value: Int32, time: Double) -> Output {
        let kind: SwitchEdge.Kind
        switch value {
        case DeviceEvent.KeyValue.press: kind = .down
        case DeviceEvent.KeyValue.release: kind = .up
        case DeviceEvent.KeyValue.autorepeat: kind = .repeat
        default: return .ignored
        }
        guard let id = switchByCode[code] else {
            return .unmapped(code: code, name: KeyCodes.name(for: code), value: value)
        }
        switch kind {
        case .down: if !down.contains(id) { down.append(id) }
        case .up: if let index = down.firstIndex(of: id) { down.remove(at: index) }
        case .repeat: break
        }
        return .edge(SwitchEdge(switchID: id, kind: kind, time: time))
    }

    /// The device is gone: an up at `time` for every switch that was down, in id order.
    public mutating func releaseAll(at time: Double) -> [SwitchEdge] {
        defer { down.removeAll() }
        return down.sorted().map { SwitchEdge(switchID: $0, kind: .up, time: time) }
    }
}
