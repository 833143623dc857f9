import Platform
import AccessibilityModel
import Atspi
import LiveTree

/// What the live content tells the scanner when a window read changed the screen, and how an
/// open popup is closed: a popup (a menu, a combo box's options) opening or closing is a new
/// level, anything else keeps the highlight and an open scanner menu where they are.
enum LivePopups {
    /// The scan level of the popup open on `screen` (nil when none is open).
    static func openLevel(on screen: Screen) -> ElementID? {
        guard let last = screen.root.children.last, Popups.openerID(ofLevel: last.id) != nil else { return nil }
        return last.id
    }

    /// The notification for a change of the screen from `before` to `after`, nil when none is
    /// due. A popup opened: screenChanged, the highlight on its first item; closed:
    /// screenChanged, the highlight back on the item that opened it. Items added or removed:
    /// layoutChanged (the highlight stays on the same object). Only values, names or states
    /// changed (a slider's Increment): nothing, so an open scanner menu stays open on its
    /// updated item and the next step is one press.
    static func notification(from before: Screen, to after: Screen) -> AccessibilityNotification? {
        let oldLevel = openLevel(on: before), newLevel = openLevel(on: after)
        if newLevel != oldLevel {
            if newLevel != nil { return AccessibilityNotification(kind: .screenChanged) }
            return AccessibilityNotification(kind: .screenChanged, focus: oldLevel.flatMap(Popups.openerID(ofLevel:)))
        }
        return itemIDs(before.root) == itemIDs(after.root) ? nil : AccessibilityNotification(kind: .layoutChanged)
    }

    /// The ids of the items under `element`, in the window's order.
    static func itemIDs(_ element: Element) -> [ElementID] {
        var ids = [ElementID]()
        func walk(_ element: Element) {
            guard element.isPresent else { return }
            if element.isAccessibilityElementDeclared == true { ids.append(element.id) }
            for child in element.children { walk(child) }
        }
        walk(element)
        return ids
    }

    /// Whether choosing the item `id` leaves its popup open in `window`, so that the scanner
    /// closes it as a user's click would have: a browser keeps its `<select>` open after an
    /// option's `select` action, and Qt its popup menu after an item's `Press` (Line Numbers
    /// toggled, the menu still showing). A GTK 3 menu closes by itself (an Escape then would
    /// reach the window), and an item that opens a submenu keeps the popup open on purpose.
    static func staysOpenAfterChoosing(_ id: String, in window: AccessibleNode?) -> Bool {
        guard let window, let opener = Popups.openPopup(in: window),
              let item = Popups.items(of: opener).first(where: { $0.id == id }), !Popups.isOpener(item) else { return false }
        return opener.role == "combo box" || opener.children.contains { $0.role == "popup menu" }
    }

    /// The longest a popup's opening waits for its window to say ACTIVE after its opener took
    /// the keyboard focus (Chromium's window said it within 0.2 s here).
    static let mostActivationWait = 1.0

    /// Makes `window` the active window before its `opener`'s popup opens, by giving the opener
    /// the keyboard focus: a browser closes a `<select>`'s popup at once when the popup opens
    /// in a window that is not active (Chromium: EXPANDED set and cleared in one batch, while
    /// another application's window had the focus; its window says ACTIVE once the combo box
    /// has the focus). Nothing is done when the window is active already; a refused focus
    /// leaves the action to try.
    static func activate(_ window: AccessibleObject, through opener: AccessibleObject) {
        guard !window.states().contains(.active), (try? opener.grabFocus()) != nil else { return }
        let end = MonotonicClock.now() + mostActivationWait
        while !window.states().contains(.active), MonotonicClock.now() < end {
            MonotonicClock.sleep(seconds: 0.05)
        }
    }

    /// Closes the open popup: the Escape key, which every toolkit's popup takes (the popup
    /// holds the keyboard while it shows). Throws when the key could not be sent.
    static func close() throws(AtspiError) {
        try Atspi.pressKey(keysym: Atspi.escapeKeysym)
    }
}
