/// Switch input as the scanner sees it, before and after stabilisation.
/// Times are seconds on a monotonic clock (virtual in scripted tests, CLOCK_MONOTONIC live).

/// A physical (or virtual) switch, named by its profile: `"space"`, `"jack-1"`, `"select"`.
public typealias SwitchID = String

/// What a switch does, as docs/scanning.md names the actions.
public enum SwitchAction: String, Hashable, Sendable, CaseIterable {
    case select, next, previous, menu, tap, escape, stop
}

/// One raw state change of a switch: down or up at a time. Kernel autorepeat is `repeat`.
public struct SwitchEdge: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case down, up, `repeat` }
    public var switchID: SwitchID
    public var kind: Kind
    public var time: Double

    public init(switchID: SwitchID, kind: Kind, time: Double) {
        self.switchID = switchID
        self.kind = kind
        self.time = time
    }
}

/// How one switch is bound: its action, and optionally another for a long press.
public struct SwitchBinding: Hashable, Sendable {
    public var action: SwitchAction
    public var longPressAction: SwitchAction?

    public init(action: SwitchAction, longPressAction: SwitchAction? = nil) {
        self.action = action
        self.longPressAction = longPressAction
    }
}
