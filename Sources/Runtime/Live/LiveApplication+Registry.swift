import Platform
import AccessibilityModel
import Atspi

/// The AT-SPI registry going away and coming back, as the run says it (`AccessibilityRegistry`):
/// while it is away the window scanned stays (its application answers without the registry),
/// nothing that would wait on the registry is asked, and once it is back the event listeners are
/// registered with it and the window is looked for again.
extension LiveApplication {
    /// The events the scan follows.
    static let eventTypes = [
        "window:", "object:children-changed", "object:state-changed", "object:property-change:accessible-name",
        "object:property-change:accessible-description", "object:bounds-changed", "object:announcement", "object:text-changed",
        "object:property-change:accessible-parent",
    ]

    /// Registers the event listeners with the registry; again with a registry that runs again
    /// (a new one knows none of them).
    func listen() throws(AtspiError) {
        if listensForEvents { listener.deregister(Self.eventTypes) }
        for type in Self.eventTypes { try listener.register(type) }
        listensForEvents = true
    }

    /// The registry's changes since the last call, each said once; a registry running again is
    /// listened to.
    func registryNotes() -> [AccessibilityNotification] {
        AccessibilityRegistry.shared.takeChanges().map { change in
            if change == .runningAgain {
                do throws(AtspiError) { try listen() } catch { Self.say("listeners not registered: \(error)") }
            }
            return AccessibilityNotification(kind: .announcement, text: AccessibilityRegistry.text(of: change))
        }
    }

    /// Whether the registry answers now, asked with bounded calls (connecting to the
    /// accessibility bus first): a command's wait for a window asks this before each try.
    public static func registryAnswers() throws(AtspiError) -> Bool {
        try Atspi.initialize()
        return AccessibilityRegistry.shared.check(at: MonotonicClock.now())
    }
}
