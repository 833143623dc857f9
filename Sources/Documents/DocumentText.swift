/// The bytes of a file as text: UTF-8 checked, and when they are not UTF-8, where the first bad
/// byte is (line and column, as editors count them) and what is wrong with it.
public enum DocumentText {
    /// The text without the UTF-8 byte order mark an editor may put at its start (U+FEFF). It
    /// is no character of the document: not a column, and no part of the first key.
    public static func withoutByteOrderMark(_ text: String) -> String {
        guard text.unicodeScalars.first == "\u{FEFF}" else { return text }
        return String(text.unicodeScalars.dropFirst())
    }

    public static func decode(_ bytes: [UInt8]) -> Result<String, DocumentError> {
        if let text = String(validating: bytes, as: UTF8.self) { return .success(text) }
        return .failure(firstInvalidByte(bytes))
    }

    /// Walks the bytes as UTF-8 until one does not fit: a byte that cannot start a character, a
    /// character cut short, an overlong form, a surrogate, or a value past U+10FFFF.
    static func firstInvalidByte(_ bytes: [UInt8]) -> DocumentError {
        // A byte order mark at the start is not a column (editors do not count it).
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0, line = 1, column = 1
        func failure(_ reason: String) -> DocumentError {
            let byte = String(bytes[index], radix: 16, uppercase: true)
            return DocumentError(
                position: TextPosition(line: line, column: column),
                message: "the file is not UTF-8 text: byte 0x\(byte.count == 1 ? "0" + byte : byte) \(reason); save the file as UTF-8")
        }
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead == 0x0A { line += 1; column = 1 } else { column += 1 }
                index += 1
                continue
            }
            let length: Int, smallest: UInt32
            switch lead {
            case 0xC0...0xDF: (length, smallest) = (2, 0x80)
            case 0xE0...0xEF: (length, smallest) = (3, 0x800)
            case 0xF0...0xF7: (length, smallest) = (4, 0x10000)
            default: return failure("cannot start a character")
            }
            var scalar = UInt32(lead) & (0x7F >> UInt32(length))
            for offset in 1..<length {
                guard index + offset < bytes.count else { return failure("starts a character the file cuts short") }
                let next = bytes[index + offset]
                guard next & 0xC0 == 0x80 else { return failure("starts a character that byte \(offset + 1) of it does not continue") }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            guard scalar >= smallest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                return failure("starts a sequence that is not a Unicode character (overlong, a surrogate, or past U+10FFFF)")
            }
            index += length
            column += 1
        }
        // Unreachable when String(validating:) refused the bytes; kept total.
        return DocumentError(position: TextPosition(line: line, column: column), message: "the file is not UTF-8 text")
    }
}
