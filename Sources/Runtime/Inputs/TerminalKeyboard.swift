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

    /// The help line shown under the screen.
    public static let help = "Space select · Enter next · Backspace previous · m menu · t tap · Esc escape · s stop · q quit"

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
        case .tab, .interrupt: return nil
        }
        return bindings[id] == nil ? nil : id
    }

    public static func isQuit(_ key: Key) -> Bool {
        key == .character("q") || key == .character("Q") || key == .interrupt
    }

    /// Decodes the bytes of one read: escape sequences for arrows (CSI and SS3), a lone ESC as
    /// Escape, DEL and BS as Backspace, CR and LF as Enter; UTF-8 characters otherwise.
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
                        default: break
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
