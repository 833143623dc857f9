import SwitchInput

// MARK: - Switch ids across profiles

/// The switch ids a source gives the session for its profiles' switches, their bindings, and
/// which are pulse-only. A profile's own ids (`space`) are kept, unless two profiles of the same
/// source bind the same id differently, or the id is one the host already uses for another switch
/// (`reserved`: a scripted test's virtual `select`, `next`, … switches): then it becomes
/// `profile-id:switch-id`.
///
/// Used by every source of switch edges: the runtime's devices, recordings and raw streams, and a
/// scripted test's `key:` steps.
public struct SwitchNaming: Sendable {
    public private(set) var bindings: [SwitchID: SwitchBinding] = [:]
    public private(set) var pulseSwitches: Set<SwitchID> = []
    private var ids: [String: [SwitchID: SwitchID]] = [:]

    public init(profiles: [SwitchProfile], reserved: Set<SwitchID> = []) {
        var uses = [SwitchID: Set<Use>]()
        for profile in profiles {
            for item in profile.switches {
                uses[item.id, default: []].insert(Use(binding: item.binding, pulse: profile.pulseOnly))
            }
        }
        for profile in profiles {
            var map = [SwitchID: SwitchID]()
            for item in profile.switches {
                let shared = (uses[item.id]?.count ?? 0) > 1 || reserved.contains(item.id)
                let id = shared ? "\(profile.id):\(item.id)" : item.id
                map[item.id] = id
                bindings[id] = item.binding
                if profile.pulseOnly { pulseSwitches.insert(id) }
            }
            ids[Self.key(profile)] = map
        }
    }

    private struct Use: Hashable {
        var binding: SwitchBinding
        var pulse: Bool
    }

    static func key(_ profile: SwitchProfile) -> String { profile.file + "\u{0}" + profile.name }

    /// The session's id for a switch of `profile`.
    public func id(_ switchID: SwitchID, of profile: SwitchProfile) -> SwitchID {
        ids[Self.key(profile)]?[switchID] ?? switchID
    }

    /// The session's ids for `profile`'s switches (an id missing from it stays as it is).
    public func ids(of profile: SwitchProfile) -> [SwitchID: SwitchID] {
        ids[Self.key(profile)] ?? [:]
    }
}

/// A profile's translator with the source's switch ids: device events in, edges out.
public struct ProfileEdges: Sendable {
    public let profile: SwitchProfile
    public let naming: SwitchNaming
    /// Edges carry `naming`'s ids for this profile, found once (looking the profile up joins its
    /// file and name, on every edge otherwise).
    public private(set) var translator: DeviceEventTranslator

    public init(profile: SwitchProfile, naming: SwitchNaming) {
        self.profile = profile
        self.naming = naming
        self.translator = DeviceEventTranslator(profile: profile, edgeIDs: naming.ids(of: profile))
    }

    /// The edge of one event (key events the profile maps), at `time` (seconds: monotonic live,
    /// virtual in scripted tests).
    public mutating func edge(_ event: DeviceEvent, at time: Double) -> SwitchEdge? {
        guard event.type == DeviceEvent.EventType.key else { return nil }
        guard case .edge(let edge) = translator.translate(code: event.code, value: event.value, time: time) else { return nil }
        return edge
    }

    /// An up at `time` for every switch that is down (the device is gone).
    public mutating func releaseAll(at time: Double) -> [SwitchEdge] {
        translator.releaseAll(at: time)
    }

    public var switchesDown: [SwitchID] { translator.switchesDown.sorted() }
}

// MARK: - The generic keyboard profile, built in

extension SwitchProfile {
    /// The id of the shipped generic keyboard profile (`Devices/switches/generic-keyboard.yaml`).
    public static let genericKeyboardID = "generic-keyboard"

    /// Space → select, Enter → next, `match: generic`: the same switches as
    /// `Devices/switches/generic-keyboard.yaml` (a test keeps them equal), for when that file is
    /// not found (an installed binary) and for pure code that reads no file (scripted tests run
    /// as a library).
    public static let builtInGenericKeyboard = SwitchProfile(
        name: "Generic keyboard-emulating switch interface (Space, Enter; built in)", matching: .generic,
        switches: [
            SwitchProfile.Switch(id: "space", code: KeyCodes.code(named: "KEY_SPACE") ?? 57, action: .select),
            SwitchProfile.Switch(id: "enter", code: KeyCodes.code(named: "KEY_ENTER") ?? 28, action: .next),
        ],
        file: "generic-keyboard (built in)")

    /// The keys and what they do, for messages:
    /// `KEY_SPACE (space: select, long press menu), KEY_ENTER (enter: next)`.
    public var keysDescription: String {
        guard !switches.isEmpty else { return "none" }
        return switches.map { item in
            var text = "\(item.codeName) (\(item.id): \(item.action.rawValue)"
            if let long = item.longPressAction { text += ", long press \(long.rawValue)" }
            return text + ")"
        }.joined(separator: ", ")
    }
}
