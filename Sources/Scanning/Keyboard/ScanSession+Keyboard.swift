import AccessibilityModel

extension ScanSession {
    /// The keyboard open now, if any.
    public var keyboardContent: KeyboardContent? { content.scanningKeyboard }
}

/// What a switch user who makes no mistakes does next to act on an item (the `type:` step).
public enum PerfectMove: Hashable, Sendable {
    /// Select what is highlighted: the item itself (`reachesTarget`), or a group holding it.
    case select(reachesTarget: Bool)
    /// Move the highlight on (scanning manually).
    case next
    /// Let the scan move on until this time.
    case wait(until: Double)
    /// The item cannot be reached (said why).
    case stuck(String)
}

extension ScanSession {
    /// The next move towards selecting item `target` on the current screen.
    public func perfectMove(toward target: ElementID) -> PerfectMove {
        if engine.flashMessage == nil, case .entry(let node) = engine.highlight, ScriptRunner.holds(node, target) {
            return .select(reachesTarget: !node.isGroup)
        }
        // The highlight stayed in a group after a tap (focusedItemAfterTap: current) and has come
        // round to its outline: select leaves it for the groups beside it.
        if engine.flashMessage == nil, case .groupExit(let node) = engine.highlight, !ScriptRunner.holds(node, target) {
            return .select(reachesTarget: false)
        }
        switch settings.scanning {
        case .manual where engine.flashMessage == nil:
            return .next
        case .singleSwitchStep:
            return .stuck("typing needs auto or manual scanning, not singleSwitchStep")
        default:
            guard let deadline = nextDeadline else { return .stuck("the scan stopped before reaching \(target)") }
            return .wait(until: deadline)
        }
    }
}
