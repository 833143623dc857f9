import SwitchInput

/// Learns a profile from a device's events: the user presses each switch in turn; the first
/// press (value 1) of a code not yet learned, once released, becomes the next switch, bound to
/// the next action. Autorepeat, other event types and the releases of other keys are ignored.
/// The same for a live device and for a recording (`switchscan learn --from-evemu`).
public struct SwitchLearner: Sendable {
    /// What one event did.
    public enum Step: Hashable, Sendable {
        /// Nothing to report.
        case nothing
        /// A key went down: it will be switch `index` (0-based) when released.
        case pressed(index: Int, code: UInt16)
        /// Switch learned (`isComplete` tells whether it was the last).
        case learned(SwitchProfile.Switch)
        /// The key is already a switch; press another.
        case alreadyLearned(code: UInt16, switchID: SwitchID)
    }

    /// The actions, in the order the switches are asked for.
    public let actions: [SwitchAction]
    public private(set) var switches: [SwitchProfile.Switch] = []
    /// The key pressed for the switch being learned, until it is released.
    public private(set) var pendingCode: UInt16?

    public init(actions: [SwitchAction]) {
        self.actions = actions
    }

    /// The action of `count` switches, in the order `learn` asks for them: select, next,
    /// previous, menu, tap, escape, stop.
    public static func defaultActions(count: Int) -> [SwitchAction] {
        Array(SwitchAction.allCases.prefix(max(0, count)))
    }

    public var isComplete: Bool { switches.count >= actions.count }

    /// The index of the switch being asked for.
    public var currentIndex: Int { switches.count }

    public mutating func handle(_ event: DeviceEvent) -> Step {
        guard !isComplete, event.type == DeviceEvent.EventType.key else { return .nothing }
        if let pendingCode {
            guard event.code == pendingCode, event.value == DeviceEvent.KeyValue.release else { return .nothing }
            return learnPending()
        }
        guard event.value == DeviceEvent.KeyValue.press else { return .nothing }
        if let existing = switches.first(where: { $0.code == event.code }) {
            return .alreadyLearned(code: event.code, switchID: existing.id)
        }
        pendingCode = event.code
        return .pressed(index: currentIndex, code: event.code)
    }

    /// The end of the events: a key still down (a recording cut after a press) counts.
    public mutating func finish() -> Step {
        guard pendingCode != nil, !isComplete else { return .nothing }
        return learnPending()
    }

    private mutating func learnPending() -> Step {
        guard let code = pendingCode else { return .nothing }
        pendingCode = nil
        let learned = SwitchProfile.Switch(id: Self.switchID(forCode: code), code: code, action: actions[currentIndex])
        switches.append(learned)
        return .learned(learned)
    }

    /// A switch id from its code's name: `KEY_SPACE` → `space`, `BTN_TRIGGER` → `trigger`,
    /// `KEY_1` → `key-1`, a code without a name → `code-708`.
    public static func switchID(forCode code: UInt16) -> SwitchID {
        guard let name = KeyCodes.name(for: code) else { return "code-\(code)" }
        let prefix = name.hasPrefix("BTN_") ? "btn" : "key"
        let rest = name.dropFirst(4).lowercased().replacingUnderscores()
        return rest.first.map { ("0"..."9").contains($0) } == true ? "\(prefix)-\(rest)" : rest
    }

    /// The learned profile for `device`: matched by bus, vendor, product and name (by bus and
    /// name when the device reports no vendor and product).
    public func profile(name: String, device: DeviceIdentity, pulseOnly: Bool = false, file: String = "") -> SwitchProfile {
        let match: SwitchProfile.Match
        if device.vendor != 0 || device.product != 0 {
            match = SwitchProfile.Match(bus: device.bus, vendor: device.vendor, product: device.product, name: device.name)
        } else {
            match = SwitchProfile.Match(bus: device.bus == 0 ? nil : device.bus, name: device.name)
        }
        return SwitchProfile(name: name, matching: .devices([match]), pulseOnly: pulseOnly, switches: switches, file: file)
    }
}

extension String {
    func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
