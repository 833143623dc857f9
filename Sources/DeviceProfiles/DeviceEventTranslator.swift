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
    /// Each mapped key: its code, its switch's id in the profile, and the id its edges carry.
    /// A device has a few switches: a short array searched by code spares each event hashing.
    private let keys: [(code: UInt16, id: SwitchID, edgeID: SwitchID)]
    /// The switches whose last edge was a down (the profile's ids).
    public var switchesDown: Set<SwitchID> { Set(down.map { keys[$0].id }) }
    /// The same, as places in `keys`, in the order they went down.
    private var down: [Int] = []

    /// `edgeIDs`: the ids edges carry instead of the profile's (a run's names for switches of
    /// several profiles, `SwitchNaming`); the profile's own where none is given.
    public init(profile: SwitchProfile, edgeIDs: [SwitchID: SwitchID] = [:]) {
        self.profile = profile
        var keys: [(code: UInt16, id: SwitchID, edgeID: SwitchID)] = []
        for item in profile.switches where !keys.contains(where: { $0.code == item.code }) {
            keys.append((item.code, item.id, edgeIDs[item.id] ?? item.id))
        }
        self.keys = keys
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
        guard let key = keys.firstIndex(where: { $0.code == code }) else {
            return .unmapped(code: code, name: KeyCodes.name(for: code), value: value)
        }
        switch kind {
        case .down: if !down.contains(key) { down.append(key) }
        case .up: if let index = down.firstIndex(of: key) { down.remove(at: index) }
        case .repeat: break
        }
        return .edge(SwitchEdge(switchID: keys[key].edgeID, kind: kind, time: time))
    }

    /// The device is gone: an up at `time` for every switch that was down, in the order of the
    /// profile's ids.
    public mutating func releaseAll(at time: Double) -> [SwitchEdge] {
        defer { down.removeAll() }
        return down.sorted { keys[$0].id < keys[$1].id }.map { SwitchEdge(switchID: keys[$0].edgeID, kind: .up, time: time) }
    }
}
