/// Input stabilisation: raw switch edges in, switch actions out (docs/scanning.md, "Timing and
/// stabilisation settings").
///
/// A sans-IO state machine in the manner of swift-nio-ssh and postgres-nio's connection pool: a
/// value type that never reads a clock or sleeps. It is given edges (each with its own
/// timestamp) and timer firings, and answers with outputs, among them `schedule` and `cancel`
/// for the timers it needs. Switches are independent: each has its own state.
///
/// Every edge passes these stages in order, and is either accepted or rejected with a reason
/// (every rejected edge is visible in the trace):
///
/// 1. **Kernel autorepeat** (evdev value 2, `.repeat`) is dropped: a held switch is one press,
///    however long it is held. Then edges of switches with no binding are dropped (`unbound`).
///    In pulse-only profiles every up is dropped here (`pulseRelease`): such interfaces send a
///    pulse per press and their releases carry no timing.
/// 2. **Redundant edges** (a down while the switch is already down, e.g. after a lost release;
///    an up while it is up) are not state flips, and are dropped.
/// 3. **Contact bounce**: a flip within `debounceTime` of the switch's previous accepted edge is
///    dropped. The first edge of a burst is accepted at once (no added latency). So that a real
///    release inside the window cannot leave the switch stuck down, a rejected flip schedules a
///    `.debounce` timer at the end of the window; when it fires and the raw state differs from
///    the accepted one, the raw state is accepted at that moment (a 10 ms tap is released at
///    25 ms).
/// 4. **`holdDuration`**: an accepted down counts only once held this long (a `.hold` timer);
///    released before, nothing begins. This filters brushes and tremor.
/// 5. **`ignoreRepeat`**: a press that would begin within this time of the previous *accepted*
///    press of that switch is ignored, and its release too (tremor, repeated hits). Rejected
///    presses do not extend the window.
/// 6. **Long press**: for a binding with a `longPressAction`, when `longPress` is set, the press
///    does not begin when accepted: released before `longPress` has passed, the binding's action
///    begins and ends at the release; held until the `.longPress` timer, the long-press action
///    begins then and ends at the release. Other bindings act on press.
///
/// Pulse-only profiles have no hold and no long press: each accepted down begins and ends its
/// action at once; bounce is measured between downs, and no debounce timer is needed.
///
/// Timers: `schedule` replaces any pending timer with the same identity (switch and kind);
/// `cancel` removes it. Outputs carry the time at which things happened: a timer's effects are
/// dated at its deadline, not at the (possibly late) moment it was fired. Before an edge is
/// handled, every timer of that switch due at or before the edge's time is applied first (and
/// cancelled in the outputs), so a driver that fires timers late, after later edges, gets the
/// same actions at the same times. When a debounce window and a hold or long-press timer end at
/// the same moment, the debounce comes first (the raw flip it accepts happened earlier); an edge
/// exactly at a hold or long-press deadline comes after it (held exactly that long counts). A
/// stale firing (of a timer already applied or cancelled) does nothing; an early one
/// re-schedules the timer.
public struct Stabilizer: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// State flips within this of the previous accepted edge of the same switch are contact
        /// bounce. Nil (or not positive) is off.
        public var debounceTime: Double?
        /// A press counts only once held this long. Nil (or not positive) is off.
        public var holdDuration: Double?
        /// Presses within this time after an accepted press (of the same switch) are ignored.
        public var ignoreRepeat: Double?
        /// A press held this long performs the binding's `longPressAction`; short presses then act
        /// on release. Only bindings with a `longPressAction` are affected.
        public var longPress: Double?
        /// The interface sends pulses (no release timing): hold and long press are off; each
        /// accepted down is `began` and `ended` at once; ups are rejected as `pulseRelease`.
        public var pulseOnly: Bool
        /// Switches that are pulse-only whatever `pulseOnly` says, with no bounce filter: a
        /// source with no release timing whose keystrokes the keyboard has already debounced (a
        /// terminal's keys), next to real switches. Two keystrokes read at once are two presses.
        public var pulseOnlySwitches: Set<SwitchID>

        public init(
            debounceTime: Double? = 0.025,
            holdDuration: Double? = nil,
            ignoreRepeat: Double? = nil,
            longPress: Double? = nil,
            pulseOnly: Bool = false,
            pulseOnlySwitches: Set<SwitchID> = []
        ) {
            self.debounceTime = debounceTime
            self.holdDuration = holdDuration
            self.ignoreRepeat = ignoreRepeat
            self.longPress = longPress
            self.pulseOnly = pulseOnly
            self.pulseOnlySwitches = pulseOnlySwitches
        }

        /// The settings in force: nil or non-positive times are off; pulse-only turns off hold and
        /// long press.
        fileprivate var effective: Effective {
            func on(_ value: Double?) -> Double? { value.flatMap { $0 > 0 ? $0 : nil } }
            return Effective(
                debounce: on(debounceTime),
                hold: pulseOnly ? nil : on(holdDuration),
                ignoreRepeat: on(ignoreRepeat),
                longPress: pulseOnly ? nil : on(longPress),
                pulseOnly: pulseOnly)
        }
    }

    public let configuration: Configuration
    /// The switches' bindings. Changing them affects presses accepted afterwards; a press under
    /// way keeps the binding it started with, so its release still ends the right action.
    public var bindings: [SwitchID: SwitchBinding]

    private let settings: Effective
    private var switches: [SwitchID: SwitchState] = [:]

    public init(configuration: Configuration = Configuration(), bindings: [SwitchID: SwitchBinding]) {
        self.configuration = configuration
        self.bindings = bindings
        self.settings = configuration.effective
    }

    /// One raw edge of a switch.
    public mutating func handle(_ edge: SwitchEdge) -> [StabilizerOutput] {
        let id = edge.switchID
        let context = context(id)
        var out: [StabilizerOutput] = []
        var state = switches[id] ?? SwitchState()
        let before = state.pendingTimers
        state.advance(to: edge.time, context, into: &out)
        if edge.kind == .repeat {
            out.append(.rejected(edge, reason: .autorepeat))
        } else if context.binding == nil && state.isAtRest {
            out.append(.rejected(edge, reason: .unbound))
        } else {
            state.handle(edge, context, into: &out)
        }
        // An unbound switch at rest keeps no state (a bound one keeps its last times).
        switches[id] = context.binding == nil && state.isAtRest ? nil : state
        out += Self.timerChanges(id, from: before, to: state.pendingTimers)
        return out
    }

    /// A timer scheduled by an earlier `schedule` output fired at `time` (the driver's clock).
    public mutating func timerFired(_ timer: StabilizerTimer, at time: Double) -> [StabilizerOutput] {
        let id = timer.switchID
        guard var state = switches[id] else { return [] }
        var before = state.pendingTimers
        before[timer.kind] = nil  // the driver no longer holds it
        var out: [StabilizerOutput] = []
        state.advance(to: time, context(id), into: &out)
        switches[id] = state
        out += Self.timerChanges(id, from: before, to: state.pendingTimers)
        return out
    }

    /// The device is gone: synthesized releases (`ended`, at `time`) for every switch whose
    /// action had begun, in switch order; pending timers cancelled; every switch is up again.
    /// Timers already due at `time` are applied first. A press that had not begun (waiting for
    /// `holdDuration` or `longPress`) ends silently. The `ignoreRepeat` window is kept.
    public mutating func releaseAll(at time: Double) -> [StabilizerOutput] {
        var out: [StabilizerOutput] = []
        for id in switches.keys.sorted() {
            guard var state = switches[id] else { continue }
            let before = state.pendingTimers
            state.advance(to: time, context(id), into: &out)
            if case .active(let action) = state.press {
                out.append(.ended(action, switchID: id, time: time))
            }
            switches[id] = SwitchState(lastAcceptedPress: state.lastAcceptedPress)
            out += Self.timerChanges(id, from: before, to: [:])
        }
        return out
    }

    private func context(_ id: SwitchID) -> Context {
        guard !settings.pulseOnly, configuration.pulseOnlySwitches.contains(id) else {
            return Context(id: id, settings: settings, binding: bindings[id])
        }
        var pulse = settings
        pulse.pulseOnly = true
        pulse.hold = nil
        pulse.longPress = nil
        pulse.debounce = nil
        return Context(id: id, settings: pulse, binding: bindings[id])
    }

    /// The timers the stabilizer expects to fire, by identity, with their deadlines.
    public var pendingTimers: [StabilizerTimer: Double] {
        var timers: [StabilizerTimer: Double] = [:]
        for (id, state) in switches {
            for (kind, deadline) in state.pendingTimers {
                timers[StabilizerTimer(switchID: id, kind: kind)] = deadline
            }
        }
        return timers
    }

    /// The edge of `switchID` that would flip its raw state: up while it is down, else down (a
    /// forecast's edge; the other kind would be redundant).
    public func flippingEdge(of switchID: SwitchID) -> SwitchEdge.Kind {
        switches[switchID]?.rawDown == true ? .up : .down
    }

    /// The moments at which the answer to an edge of `switchID` may change with the edge's time
    /// alone, besides the pending timers (which the driver knows): the end of its bounce window
    /// and of its ignore-repeat window, as they stand now (those already past included; the
    /// caller keeps the ones after its moment). Everything else the stabiliser does with an
    /// edge's time is dating its outputs and scheduling timers.
    public func edgeTimeBoundaries(of switchID: SwitchID) -> [Double] {
        guard let state = switches[switchID] else { return [] }
        let settings = context(switchID).settings
        var boundaries: [Double] = []
        if let debounce = settings.debounce, let last = state.lastAcceptedEdge { boundaries.append(last + debounce) }
        if let window = settings.ignoreRepeat, let last = state.lastAcceptedPress { boundaries.append(last + window) }
        return boundaries
    }

    /// The action a switch is performing (begun, not yet ended), if any.
    public func activeAction(of switchID: SwitchID) -> SwitchAction? {
        if case .active(let action) = switches[switchID]?.press { return action }
        return nil
    }

    /// Cancels for timers gone, then schedules for timers new or moved, in `Kind` order.
    private static func timerChanges(
        _ id: SwitchID, from before: [StabilizerTimer.Kind: Double], to after: [StabilizerTimer.Kind: Double]
    ) -> [StabilizerOutput] {
        var out: [StabilizerOutput] = []
        for kind in StabilizerTimer.Kind.allCases where before[kind] != nil && after[kind] == nil {
            out.append(.cancel(StabilizerTimer(switchID: id, kind: kind)))
        }
        for kind in StabilizerTimer.Kind.allCases {
            if let deadline = after[kind], before[kind] != deadline {
                out.append(.schedule(StabilizerTimer(switchID: id, kind: kind), at: deadline))
            }
        }
        return out
    }
}

/// A timer the stabilizer asked for: one per switch and kind.
public struct StabilizerTimer: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// End of a debounce window with a rejected flip in it: accept the raw state if it differs.
        case debounce
        /// `holdDuration` has passed since the accepted down.
        case hold
        /// `longPress` has passed since the press was accepted.
        case longPress
    }

    public var switchID: SwitchID
    public var kind: Kind

    public init(switchID: SwitchID, kind: Kind) {
        self.switchID = switchID
        self.kind = kind
    }
}

public enum StabilizerOutput: Hashable, Sendable {
    /// The action starts (the press was accepted), at `time`.
    case began(SwitchAction, switchID: SwitchID, time: Double)
    /// The switch carrying that action was released (or its device went away) at `time`.
    case ended(SwitchAction, switchID: SwitchID, time: Double)
    /// An edge that does not count, and why. Edges accepted at the end of a debounce window are
    /// synthesized, dated at that moment.
    case rejected(SwitchEdge, reason: Rejection)
    /// Fire `timer` at `at` (replacing any pending timer with the same identity).
    case schedule(StabilizerTimer, at: Double)
    /// Forget `timer`.
    case cancel(StabilizerTimer)
}

/// Why an edge did not count.
public enum Rejection: String, Hashable, Sendable, CaseIterable {
    /// Kernel autorepeat (evdev value 2).
    case autorepeat
    /// A state flip within `debounceTime` of the previous accepted edge.
    case bounce
    /// The switch has no binding.
    case unbound
    /// Not a state flip: a down while down (a release was lost), an up while up.
    case redundant
    /// Released before `holdDuration`: nothing began.
    case releasedBeforeHoldDuration
    /// A press within `ignoreRepeat` of the previous accepted press, or that press's release.
    case ignoreRepeat
    /// An up from a pulse-only interface.
    case pulseRelease
}

extension StabilizerOutput: CustomStringConvertible {
    /// One trace line: `0.025 began select (space)`.
    public var description: String {
        switch self {
        case .began(let action, let id, let time): "\(time) began \(action.rawValue) (\(id))"
        case .ended(let action, let id, let time): "\(time) ended \(action.rawValue) (\(id))"
        case .rejected(let edge, let reason): "\(edge.time) rejected \(edge.kind) (\(edge.switchID)): \(reason.rawValue)"
        case .schedule(let timer, let time): "schedule \(timer.kind.rawValue) (\(timer.switchID)) at \(time)"
        case .cancel(let timer): "cancel \(timer.kind.rawValue) (\(timer.switchID))"
        }
    }
}

// MARK: - Per-switch state

/// The configuration with "off" resolved.
private struct Effective: Sendable {
    var debounce: Double?
    var hold: Double?
    var ignoreRepeat: Double?
    var longPress: Double?
    var pulseOnly: Bool
}

/// What a switch's handlers need besides its state.
private struct Context {
    var id: SwitchID
    var settings: Effective
    /// The switch's binding now (a press under way keeps its own).
    var binding: SwitchBinding?
}

private struct SwitchState: Sendable {
    /// The press, after debouncing.
    enum Press: Sendable {
        /// Up (or, pulse-only, always).
        case idle
        /// Down, waiting for `holdDuration` (the `.hold` timer at `until`).
        case holding(down: SwitchEdge, binding: SwitchBinding, until: Double)
        /// Accepted, waiting to learn whether it is a long press (the `.longPress` timer at `until`).
        case awaitingLongPress(binding: SwitchBinding, longPressAction: SwitchAction, until: Double)
        /// The action has begun; the release ends it.
        case active(SwitchAction)
        /// The press was rejected; its release is rejected for the same reason.
        case ignored(Rejection)
    }

    /// The switch's last raw state (from non-redundant edges, bounce included).
    var rawDown = false
    /// The debounced state.
    var acceptedDown = false
    /// When the debounced state last changed (pulse-only: the last accepted down).
    var lastAcceptedEdge: Double?
    /// The pending `.debounce` timer's deadline.
    var debounceUntil: Double?
    var press: Press = .idle
    /// When the last press passed `holdDuration` and `ignoreRepeat` (for `ignoreRepeat`).
    var lastAcceptedPress: Double?

    init(lastAcceptedPress: Double? = nil) {
        self.lastAcceptedPress = lastAcceptedPress
    }

    /// Up, with nothing pending: the state can be forgotten (but for `lastAcceptedPress`).
    var isAtRest: Bool {
        guard !rawDown, !acceptedDown, debounceUntil == nil else { return false }
        if case .idle = press { return true }
        return false
    }

    private var pressDeadline: Double? {
        switch press {
        case .holding(_, _, let until), .awaitingLongPress(_, _, let until): until
        case .idle, .active, .ignored: nil
        }
    }

    var pendingTimers: [StabilizerTimer.Kind: Double] {
        var timers: [StabilizerTimer.Kind: Double] = [:]
        if let debounceUntil { timers[.debounce] = debounceUntil }
        switch press {
        case .holding(_, _, let until): timers[.hold] = until
        case .awaitingLongPress(_, _, let until): timers[.longPress] = until
        case .idle, .active, .ignored: break
        }
        return timers
    }

    /// Applies, in deadline order, every pending timer due at or before `time`, dating its effects
    /// at its deadline. On a tie the debounce timer goes first: the raw flip it accepts happened
    /// before its deadline, so a release it carries came before the hold or long-press deadline.
    /// (An edge arriving exactly at a deadline comes after the timer: a press held exactly
    /// `holdDuration` or `longPress` counts as held that long.)
    mutating func advance(to time: Double, _ context: Context, into out: inout [StabilizerOutput]) {
        while true {
            if let deadline = pressDeadline, deadline <= time, deadline < debounceUntil ?? .infinity {
                switch press {
                case .holding(let down, let binding, let until):
                    press = .idle
                    acceptPress(down, binding: binding, at: until, context, into: &out)
                case .awaitingLongPress(_, let longPressAction, let until):
                    press = .active(longPressAction)
                    out.append(.began(longPressAction, switchID: context.id, time: until))
                case .idle, .active, .ignored:
                    return
                }
            } else if let deadline = debounceUntil, deadline <= time {
                debounceUntil = nil
                if rawDown != acceptedDown {
                    accept(SwitchEdge(switchID: context.id, kind: rawDown ? .down : .up, time: deadline), context, into: &out)
                }
            } else {
                return
            }
        }
    }

    /// A down or up of a bound switch (or of one with a press under way), after the timers due by
    /// its time were applied.
    mutating func handle(_ edge: SwitchEdge, _ context: Context, into out: inout [StabilizerOutput]) {
        if context.settings.pulseOnly {
            handlePulse(edge, context, into: &out)
            return
        }
        let down = edge.kind == .down
        guard down != rawDown else {
            out.append(.rejected(edge, reason: .redundant))
            return
        }
        rawDown = down
        if let debounce = context.settings.debounce, let last = lastAcceptedEdge, edge.time - last < debounce {
            out.append(.rejected(edge, reason: .bounce))
            if debounceUntil == nil { debounceUntil = last + debounce }
            return
        }
        accept(edge, context, into: &out)
    }

    /// A debounced transition.
    private mutating func accept(_ edge: SwitchEdge, _ context: Context, into out: inout [StabilizerOutput]) {
        acceptedDown = edge.kind == .down
        lastAcceptedEdge = edge.time
        if acceptedDown {
            pressDown(edge, context, into: &out)
        } else {
            pressUp(edge, into: &out)
        }
    }

    private mutating func pressDown(_ edge: SwitchEdge, _ context: Context, into out: inout [StabilizerOutput]) {
        guard case .idle = press else {
            out.append(.rejected(edge, reason: .redundant))
            return
        }
        guard let binding = context.binding else {
            out.append(.rejected(edge, reason: .unbound))
            press = .ignored(.unbound)
            return
        }
        if let hold = context.settings.hold {
            press = .holding(down: edge, binding: binding, until: edge.time + hold)
        } else {
            acceptPress(edge, binding: binding, at: edge.time, context, into: &out)
        }
    }

    /// The press passed `holdDuration` (if any) at `time`: `ignoreRepeat`, then long press.
    private mutating func acceptPress(
        _ down: SwitchEdge, binding: SwitchBinding, at time: Double, _ context: Context, into out: inout [StabilizerOutput]
    ) {
        if let window = context.settings.ignoreRepeat, let last = lastAcceptedPress, time - last < window {
            out.append(.rejected(down, reason: .ignoreRepeat))
            press = .ignored(.ignoreRepeat)
            return
        }
        lastAcceptedPress = time
        if let longPress = context.settings.longPress, let longPressAction = binding.longPressAction {
            press = .awaitingLongPress(binding: binding, longPressAction: longPressAction, until: time + longPress)
        } else {
            press = .active(binding.action)
            out.append(.began(binding.action, switchID: context.id, time: time))
        }
    }

    private mutating func pressUp(_ edge: SwitchEdge, into out: inout [StabilizerOutput]) {
        let id = edge.switchID
        switch press {
        case .idle:
            out.append(.rejected(edge, reason: .redundant))
        case .holding:
            out.append(.rejected(edge, reason: .releasedBeforeHoldDuration))
        case .awaitingLongPress(let binding, _, _):
            out.append(.began(binding.action, switchID: id, time: edge.time))
            out.append(.ended(binding.action, switchID: id, time: edge.time))
        case .active(let action):
            out.append(.ended(action, switchID: id, time: edge.time))
        case .ignored(let reason):
            out.append(.rejected(edge, reason: reason))
        }
        press = .idle
    }

    /// Pulse-only: ups carry nothing; each down not within `debounceTime` of the previous
    /// accepted down is a whole press.
    private mutating func handlePulse(_ edge: SwitchEdge, _ context: Context, into out: inout [StabilizerOutput]) {
        guard edge.kind == .down else {
            out.append(.rejected(edge, reason: .pulseRelease))
            return
        }
        if let debounce = context.settings.debounce, let last = lastAcceptedEdge, edge.time - last < debounce {
            out.append(.rejected(edge, reason: .bounce))
            return
        }
        lastAcceptedEdge = edge.time
        guard let binding = context.binding else {
            out.append(.rejected(edge, reason: .unbound))
            return
        }
        if let window = context.settings.ignoreRepeat, let last = lastAcceptedPress, edge.time - last < window {
            out.append(.rejected(edge, reason: .ignoreRepeat))
            return
        }
        lastAcceptedPress = edge.time
        out.append(.began(binding.action, switchID: context.id, time: edge.time))
        out.append(.ended(binding.action, switchID: context.id, time: edge.time))
    }
}
