import Scanning
import SwitchInput

/// The terminal keyboard as switches: the embedded default, so the program runs with no
/// hardware. Keystrokes have no release timing, so these switches are pulse-only.
public enum TerminalKeys {
    /// A decoded keystroke.
    public enum Key: Hashable, Sendable {
        case space, enter, backspace, escape, tab
        case up, down, left, right
        case character(Character)
        case interrupt  // Ctrl-C read as a byte (when ISIG is off)
        /// Ctrl and a letter (`D` for Ctrl-D), a key that is no switch.
        case control(Character)
        /// An escape sequence of another key (a function key, Home, …), not bound.
        case otherSequence
    }

    /// Switch id → action for the documented keys. Arrows move too.
    public static let bindings: [SwitchID: SwitchBinding] = [
        "key:space": SwitchBinding(action: .select),
        "key:enter": SwitchBinding(action: .next),
        "key:backspace": SwitchBinding(action: .previous),
        "key:m": SwitchBinding(action: .menu),
        "key:t": SwitchBinding(action: .tap),
        "key:escape": SwitchBinding(action: .escape),
        "key:s": SwitchBinding(action: .stop),
        "key:right": SwitchBinding(action: .next),
        "key:down": SwitchBinding(action: .next),
        "key:left": SwitchBinding(action: .previous),
        "key:up": SwitchBinding(action: .previous),
    ]

    /// The keys shown under the screen, one item each; quit last (the view always shows it).
    public static let helpItems = [
        "Space select", "Enter next", "Backspace previous", "m menu", "t tap", "Esc escape", "s stop", "q quit",
    ]

    /// The help line shown under the screen.
    public static let help = helpItems.joined(separator: " · ")

    /// A key's name as the help line writes it.
    public static func name(of key: Key) -> String {
        switch key {
        case .space: "Space"
        case .enter: "Enter"
        case .backspace: "Backspace"
        case .escape: "Esc"
        case .tab: "Tab"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .character(let c): "'\(c)'"
        case .interrupt: "Ctrl-C"
        case .control(let c): "Ctrl-\(c)"
        case .otherSequence: "That key"
        }
    }

    /// What the scanner is doing when a key is pressed: it chooses the key that would work.
    public enum Situation: Hashable, Sendable {
        case scanning, paused, menu, stopped, empty

        public init(_ engine: ScanningEngine) {
            if engine.isEmpty {
                self = .empty
            } else if engine.isPaused {
                self = .paused
            } else if engine.menu != nil {
                self = .menu
            } else if !engine.isRunning {
                self = .stopped
            } else {
                self = .scanning
            }
        }

        /// The keys that act now, for a key that did not.
        var hint: String {
            switch self {
            case .scanning: "Enter moves on, Space selects"
            case .paused: "press s to resume scanning"
            case .menu: "Enter moves in the menu, Space chooses, Esc closes it"
            case .stopped: "any scanner key starts it again"
            case .empty: "the screen has no item; q quits"
            }
        }
    }

    /// The status line for a key that did nothing: a key that is no switch, a press the input
    /// settings did not take (with the reason), an action the scanner ignored (with its reason);
    /// each says what would work in `situation` (the state the key was pressed in). Nil when the
    /// key did something (`events`: what the session returned for it).
    public static func feedback(for key: Key, events: [TraceEvent], situation: Situation) -> String? {
        let name = name(of: key)
        guard switchID(for: key) != nil else {
            return "\(name) is not a scanner key; \(situation.hint) (q quits)"
        }
        for event in events {
            switch event.kind {
            case let .input(_, _, false, reason):
                return "\(name) was not taken (\(reason.map(rejectionText) ?? "rejected")); \(situation.hint)"
            case let .ignored(action, reason):
                let hint = situation == .scanning ? "" : "; \(situation.hint)"
                return "\(name) (\(action)) ignored: \(reason)\(hint)"
            default:
                continue
            }
        }
        return nil
    }

    /// A rejection, as a user reads it.
    static func rejectionText(_ reason: String) -> String {
        switch Rejection(rawValue: reason) {
        case .bounce: "too soon after the last key: debounceTime"
        case .ignoreRepeat: "a repeat within ignoreRepeat"
        case .autorepeat: "key repeat"
        case .releasedBeforeHoldDuration: "released before holdDuration"
        default: reason
        }
    }

    /// The switch a key stands for; nil for keys that are not switches (`q`, unknown keys).
    public static func switchID(for key: Key) -> SwitchID? {
        let id: String
        switch key {
        case .space: id = "key:space"
        case .enter: id = "key:enter"
        case .backspace: id = "key:backspace"
        case .escape: id = "key:escape"
        case .up: id = "key:up"
        case .down: id = "key:down"
        case .left: id = "key:left"
        case .right: id = "key:right"
        case .character(let c): id = "key:\(c.lowercased())"
        case .tab, .interrupt, .control, .otherSequence: return nil
        }
        return bindings[id] == nil ? nil : id
    }

    public static func isQuit(_ key: Key) -> Bool {
        key == .character("q") || key == .character("Q") || key == .interrupt
    }

    /// Decodes the bytes of one read: escape sequences for arrows (CSI and SS3; other sequences
    /// as `otherSequence`), a lone ESC as Escape, DEL and BS as Backspace, CR and LF as Enter,
    /// other control bytes as Ctrl and a letter; UTF-8 characters otherwise.
    public static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys = [Key]()
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O") {
                    // CSI or SS3: skip parameters up to the final byte.
                    var end = index + 2
                    while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                    if end < bytes.count {
                        switch bytes[end] {
                        case UInt8(ascii: "A"): keys.append(.up)
                        case UInt8(ascii: "B"): keys.append(.down)
                        case UInt8(ascii: "C"): keys.append(.right)
                        case UInt8(ascii: "D"): keys.append(.left)
                        default: keys.append(.otherSequence)
                        }
                    }
                    index = end + 1
                    continue
                }
                keys.append(.escape)
            case 0x20: keys.append(.space)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x09: keys.append(.tab)
            case 0x03: keys.append(.interrupt)
            case 0x01...0x1A: keys.append(.control(Character(Unicode.Scalar(byte + 0x40))))
            case 0x00..<0x20: break
            default:
                // One UTF-8 character.
                var length = 1
                if byte >= 0xF0 { length = 4 } else if byte >= 0xE0 { length = 3 } else if byte >= 0xC0 { length = 2 }
                let end = min(bytes.count, index + length)
                if let character = String(decoding: bytes[index..<end], as: UTF8.self).first {
                    keys.append(.character(character))
                }
                index = end
                continue
            }
            index += 1
        }
        return keys
    }
}
