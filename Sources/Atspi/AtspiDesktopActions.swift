import CAtspi
import LiveTree

/// Where `scroll(to:)` puts an object in its scrolled container.
public enum ScrollPlacement: Sendable {
    /// Wherever the application thinks best (the least scrolling that shows it).
    case anywhere
    case topEdge
    case bottomEdge

    var type: AtspiScrollType {
        switch self {
        case .anywhere: return ATSPI_SCROLL_ANYWHERE
        case .topEdge: return ATSPI_SCROLL_TOP_EDGE
        case .bottomEdge: return ATSPI_SCROLL_BOTTOM_EDGE
        }
    }
}

extension Atspi {
    /// The X keysym of F4 (Alt+F4 closes the focused window under window managers).
    public static let f4Keysym = 0xffc1
    /// X's Mod1 mask: Alt.
    public static let altModifier = 1 << 3

    /// Sends a key (an X keysym) with `modifiers` (an X modifier mask: `altModifier`) held:
    /// the modifiers are locked for the key and unlocked after it, whatever the key did.
    public static func pressKey(keysym: Int, modifiers: Int) throws(AtspiError) {
        guard modifiers > 0, modifiers <= 0xff else {
            throw AtspiError(call: "atspi_generate_keyboard_event", message: "modifier mask \(modifiers) is out of range")
        }
        try requireRegistry("atspi_generate_keyboard_event")
        let locked = try call("atspi_generate_keyboard_event") { atspi_generate_keyboard_event(glong(modifiers), nil, ATSPI_KEY_LOCKMODIFIERS, $0) }
        if locked == 0 { throw AtspiError(call: "atspi_generate_keyboard_event", message: "modifiers \(modifiers) refused") }
        var pressError: AtspiError?
        do throws(AtspiError) { try pressKey(keysym: keysym) } catch { pressError = error }
        _ = try call("atspi_generate_keyboard_event") { atspi_generate_keyboard_event(glong(modifiers), nil, ATSPI_KEY_UNLOCKMODIFIERS, $0) }
        if let pressError { throw pressError }
    }
}

extension AccessibleObject {
    /// Scrolls the object's containers so that it is on screen (`atspi_component_scroll_to`);
    /// false when the application did not (or the object has no Component interface).
    @discardableResult
    public func scroll(to placement: ScrollPlacement = .anywhere) throws(AtspiError) -> Bool {
        guard catspi_is_component(pointer) != 0 else { return false }
        let component = atspi_accessible_get_component_iface(pointer)
        defer { catspi_unref(component) }
        let ok = try Atspi.call("atspi_component_scroll_to") { atspi_component_scroll_to(component, placement.type, $0) }
        return ok != 0
    }
}
