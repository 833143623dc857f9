import BrailleFormatting
import DeviceProfiles
import SwitchInput

/// What a braille display's keys do, as decisions: which BRLTTY commands the run accepts in tty
/// mode (ROUTE, the pan commands of the display's profile, the commands profiles bind to switch
/// actions), and what each key read does. A routing key over the element or menu entry the line
/// shows is the pulse switch `braille:route` (bound to `select`); a pan key moves the display's
/// window, without the scanner; a bound command is the pulse switch `braille:<COMMAND>`
/// (`braille:LNUP` → previous).
///
/// Commands are named as BRLTTY's key tables name them (`FWINLT`, `LNUP`), in the canonical
/// spelling `canonical` gives (the BrlAPI wrapper's names; nil: a command it cannot accept).
public struct BrailleDisplayKeyMap: Hashable, Sendable {
    /// BRLTTY's routing command.
    public static let routeCommand = "ROUTE"
    /// The routing keys' switch: a pulse bound to `select`.
    public static let routeSwitch: SwitchID = "braille:route"

    /// The switch of a display command bound by a profile: `braille:LNUP`.
    public static func switchID(command: String) -> SwitchID { "braille:" + command }

    /// Bindings when no profile is loaded (what every profile of `Devices/braille` says).
    public static let defaultCommandBindings: [String: SwitchAction] = ["LNUP": .previous, "LNDN": .next]

    /// The routing keys select (a profile can turn them off).
    public var routing = true
    public var panLeft: Set<String> = []
    public var panRight: Set<String> = []
    /// Bound command → its switch.
    public var switches: [String: SwitchID] = [:]

    public init(routing: Bool = true, panLeft: Set<String> = [], panRight: Set<String> = [], switches: [String: SwitchID] = [:]) {
        self.routing = routing
        self.panLeft = panLeft
        self.panRight = panRight
        self.switches = switches
    }

    /// The commands the run accepts from the display.
    public var accepted: Set<String> {
        var commands = panLeft.union(panRight).union(switches.keys)
        if routing { commands.insert(Self.routeCommand) }
        return commands
    }

    /// The commands the profiles bind, each to the action they all agree on (a command profiles
    /// bind differently is left out, as is one `canonical` does not know);
    /// `defaultCommandBindings` without profiles. Keys keep the profiles' spelling.
    public static func commandBindings(for profiles: [BrailleDisplayProfile], canonical: (String) -> String?) -> [String: SwitchAction] {
        guard !profiles.isEmpty else { return defaultCommandBindings }
        var result = [String: SwitchAction]()
        var conflicting = Set<String>()
        for profile in profiles {
            for (command, action) in profile.bindings where canonical(command) != nil {
                if let existing = result[command], existing != action { conflicting.insert(command) }
                result[command] = action
            }
        }
        for command in conflicting { result[command] = nil }
        return result
    }

    /// The key map for a display: its profile's pan commands and the commands it binds as the
    /// run does (`bindings`, from `commandBindings`), or, without a profile, every profile's pan
    /// commands and the run's bindings. Without any profile the pan commands are BRLTTY's
    /// `FWINLT` and `FWINRT`. A command that pans is never also a switch.
    public init(profile: BrailleDisplayProfile?, profiles: [BrailleDisplayProfile], bindings: [String: SwitchAction],
                canonical: (String) -> String?) {
        let panSources = profile.map { [$0] } ?? profiles
        for source in panSources {
            if let left = canonical(source.panLeft.command) { panLeft.insert(left) }
            if let right = canonical(source.panRight.command) { panRight.insert(right) }
        }
        if panSources.isEmpty {
            panLeft = canonical("FWINLT").map { [$0] } ?? []
            panRight = canonical("FWINRT").map { [$0] } ?? []
        }
        routing = profile?.routingKeys ?? true
        let bound = profile.map { $0.bindings.filter { bindings[$0.key] == $0.value } } ?? bindings
        for command in bound.keys {
            guard let known = canonical(command), !panLeft.contains(known), !panRight.contains(known) else { continue }
            switches[known] = Self.switchID(command: command)
        }
    }

    /// A key read from the display, decoded: a routing key over a 0-based cell, or a command by
    /// its canonical name.
    public enum Key: Hashable, Sendable {
        case route(cell: Int)
        case command(String)
    }

    /// What a key does.
    public enum Action: Hashable, Sendable {
        /// Move the display's window one window left or right (the scanner is not told).
        case panLeft
        case panRight
        /// A pulse of this switch.
        case press(SwitchID)
        /// Nothing: a routing key over anything but what the line shows, a command not handled.
        case none
    }

    /// What `key` does while the display shows `window` (nil: none yet) of `line`.
    public func action(for key: Key, window: BrailleWindow?, line: BrailleLine) -> Action {
        switch key {
        case .route(let cell):
            guard routing, let window, let target = window.routingTarget(cell: cell), target == line.highlightedTarget else {
                return .none
            }
            return .press(Self.routeSwitch)
        case .command(let command):
            if panLeft.contains(command) { return .panLeft }
            if panRight.contains(command) { return .panRight }
            if let id = switches[command] { return .press(id) }
            return .none
        }
    }
}
