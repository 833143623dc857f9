import AccessibilityModel

extension ScanSession {
    /// The scanning keyboard's part of performing `command`: selecting a text field of content
    /// that takes typed text opens the keyboard over it (after the field's own activation, which
    /// gives it the focus); on the keyboard, keys type and closing goes back to the content, the
    /// field highlighted. Nil when the keyboard has no part in it.
    mutating func keyboardUpdate(_ command: ElementCommand, on element: Element?) -> ContentUpdate? {
        if var typing = content as? KeyboardContent {
            guard let update = typing.perform(command, on: element) else { return nil }
            if typing.isClosed {
                content = typing.base
                return ContentUpdate(
                    screen: content.screenName,
                    notifications: [AccessibilityNotification(kind: .screenChanged, focus: typing.field)])
            }
            content = typing
            return update
        }
        if case .content(let chosen) = command, chosen.id == KeyboardContent.openCommandID {
            return openKeyboardFromMenu(on: element)
        }
        guard command == .activate, let element, let offer = keyboard,
              var target = content as? any TextEntryTarget, target.isTextField(element) else { return nil }
        // The field's own activation gives it the focus; what it says ("type on the keyboard")
        // is what the keyboard now does.
        _ = target.perform(.activate, on: element)
        let typing = KeyboardContent(over: target, field: element, offer: offer)
        content = typing
        return ContentUpdate(screen: typing.screenName, notifications: [AccessibilityNotification(kind: .screenChanged)])
    }

    /// The scanner menu's Keyboard entry: the keyboard over the item the menu is for when it is a
    /// text field, else over the field that has the keyboard focus.
    private mutating func openKeyboardFromMenu(on element: Element?) -> ContentUpdate {
        func said(_ text: String) -> ContentUpdate {
            ContentUpdate(notifications: [AccessibilityNotification(kind: .announcement, text: text)])
        }
        guard let offer = keyboard else { return said("no keyboard layout is loaded") }
        guard var target = content as? any TextEntryTarget else { return said("nothing here takes typed text") }
        guard let field = element.flatMap({ target.isTextField($0) ? $0 : nil }) ?? target.focusedTextField else {
            return said("no text field has the keyboard focus")
        }
        _ = target.perform(.activate, on: field)
        let typing = KeyboardContent(over: target, field: field, offer: offer)
        content = typing
        return ContentUpdate(screen: typing.screenName, notifications: [AccessibilityNotification(kind: .screenChanged)])
    }

    /// The keyboard open now, if any.
    public var keyboardContent: KeyboardContent? { content as? KeyboardContent }
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
