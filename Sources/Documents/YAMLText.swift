/// Writing YAML: the one double-quoted scalar form the writers share (learned switch profiles,
/// imported scenes), read back by the same reader.
public enum YAMLText {
    /// A YAML double-quoted scalar: `"PCsensor \"Foot\" Switch"`. Control characters, C1
    /// controls, the line and paragraph separators and the byte order mark are escaped, so that
    /// the value stays on its line and reads back as written.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                let value = scalar.value
                if value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) || value == 0x2028 || value == 0x2029 || value == 0xFEFF {
                    let hex = String(value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
