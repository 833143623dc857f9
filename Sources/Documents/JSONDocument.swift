/// A JSON reader that keeps line and column of every value, for scene files written as JSON
/// (JSON is YAML too; this is the fast path for large generated scenes). It returns nil as soon
/// as the text is not strict JSON, so the caller can read it as YAML, with YAML's own messages.
public enum JSONDocument {
    public static func parse(_ text: String, budget: inout Int) throws(DocumentError) -> DocumentNode? {
        var text = text
        var outcome: Result<DocumentNode?, DocumentError> = .success(nil)
        text.withUTF8 { bytes in
            var parser = Parser(bytes: bytes, budget: budget)
            defer { budget = parser.budget }
            parser.skipWhitespace()
            guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") || bytes[parser.index] == UInt8(ascii: "[") else {
                return
            }
            do throws(DocumentError) {
                guard let node = try parser.value(depth: 0) else { return }
                parser.skipWhitespace()
                if parser.index == bytes.count { outcome = .success(node) }
            } catch {
                outcome = .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Deeper nesting than this is refused before the reader's own depth limit could be reached.
    static let maxNesting = 512

    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var budget: Int
        var index = 0
        var line = 1
        /// Index of the first byte of the current line, for columns.
        var lineStart = 0
        /// Columns count Unicode scalars: continuation bytes since the line start are subtracted.
        var continuationBytes = 0

        init(bytes: UnsafeBufferPointer<UInt8>, budget: Int) {
            self.bytes = bytes
            self.budget = budget
        }

        var position: TextPosition {
            TextPosition(line: line, column: index - lineStart - continuationBytes + 1)
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0D: index += 1
                case 0x0A:
                    index += 1
                    line += 1
                    lineStart = index
                    continuationBytes = 0
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(DocumentError) -> DocumentNode? {
            budget -= 1
            guard budget >= 0 else {
                throw DocumentError(position: position, message: nil)
            }
            guard depth < JSONDocument.maxNesting else { return nil }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            let start = position
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var pairs = [(key: DocumentNode, value: DocumentNode)]()
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .mapping(pairs, start)
                }
                // Keys seen so far with their lines: a key given twice is refused, as in YAML.
                var keyLines = [String: Int32]()
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                    if case .scalar(let name, _, let at) = key {
                        if let first = keyLines.updateValue(at.line, forKey: name) {
                            throw DocumentError(position: at, message: "duplicate key '\(name)' in one mapping (first at line \(first)); each key may appear once")
                        }
                    }
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let item = try value(depth: depth + 1) else { return nil }
                    pairs.append((key, item))
                    skipWhitespace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .mapping(pairs, start) }
                    return nil
                }
            case UInt8(ascii: "["):
                index += 1
                var items = [DocumentNode]()
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .sequence(items, start)
                }
                while true {
                    guard let item = try value(depth: depth + 1) else { return nil }
                    items.append(item)
                    skipWhitespace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .sequence(items, start) }
                    return nil
                }
            case UInt8(ascii: "\""):
                return string()
            default:
                // true, false, null and numbers: plain scalars, typed by the reader as in YAML.
                let begin = index
                while index < bytes.count {
                    let byte = bytes[index]
                    let isToken = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A)
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                        || byte == UInt8(ascii: "E")
                    guard isToken else { break }
                    index += 1
                }
                guard index > begin else { return nil }
                let token = String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<index]), as: UTF8.self)
                guard token == "true" || token == "false" || token == "null" || isJSONNumber(token) else { return nil }
                return .scalar(token, isPlain: true, start)
            }
        }

        /// A quoted string, at `index` on its opening quote.
        mutating func string() -> DocumentNode? {
            let start = position
            index += 1
            let begin = index
            var hasEscapes = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte < 0x20 { return nil }  // control characters must be escaped in JSON
                if byte == UInt8(ascii: "\\") { hasEscapes = true; index += 2; continue }
                if byte & 0xC0 == 0x80 { continuationBytes += 1 }
                index += 1
            }
            guard index < bytes.count else { return nil }
            let raw = UnsafeBufferPointer(rebasing: bytes[begin..<index])
            index += 1
            if !hasEscapes { return .scalar(String(decoding: raw, as: UTF8.self), isPlain: false, start) }
            guard let text = unescape(raw) else { return nil }
            return .scalar(text, isPlain: false, start)
        }

        func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
            var scalars = String.UnicodeScalarView()
            var bytes = [UInt8]()
            var i = 0
            func flush() {
                if !bytes.isEmpty {
                    scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
                    bytes.removeAll()
                }
            }
            func hex4(_ at: Int) -> UInt32? {
                guard at + 4 <= raw.count else { return nil }
                var value: UInt32 = 0
                for byte in raw[at..<(at + 4)] {
                    guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
                    value = value * 16 + UInt32(digit)
                }
                return value
            }
            while i < raw.count {
                let byte = raw[i]
                guard byte == UInt8(ascii: "\\") else { bytes.append(byte); i += 1; continue }
                guard i + 1 < raw.count else { return nil }
                let escape = raw[i + 1]
                i += 2
                switch escape {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "/"): bytes.append(0x2F)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    guard var code = hex4(i) else { return nil }
                    i += 4
                    if (0xD800..<0xDC00).contains(code) {
                        guard i + 6 <= raw.count, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u"),
                              let low = hex4(i + 2), (0xDC00..<0xE000).contains(low) else { return nil }
                        i += 6
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    flush()
                    scalars.append(scalar)
                default: return nil
                }
            }
            flush()
            return String(scalars)
        }

        func isJSONNumber(_ token: String) -> Bool {
            var utf8 = Substring(token).utf8[...]
            if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
            guard let first = utf8.first, first >= 0x30, first <= 0x39 else { return false }
            return Double(token) != nil
        }
    }
}
