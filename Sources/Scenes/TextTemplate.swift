import AccessibilityModel

/// A string with state bindings: `{name}` shows the value of `name`; `{name?yes:no}` chooses by
/// its truth; `{name#one:other}` chooses by count (`one` when the value is 1, `other` for any
/// other count: "1 star", "0 stars", "2 stars"); `{{` and `}}` are literal braces; inside a
/// choice `\:`, `\{`, `\}` and `\\` are literal. Nothing in a template can run code: it only
/// reads named state values.
public struct TextTemplate: Hashable, Sendable {
    public enum Part: Hashable, Sendable {
        case literal(String)
        case value(String)
        case choice(String, whenTrue: String, whenFalse: String)
        /// `{name#one:other}`: `one` when the value is the count 1, else `other`.
        case plural(String, one: String, other: String)
    }

    public var parts: [Part]

    public init(parts: [Part]) {
        self.parts = parts
    }

    /// `text` as a template that reads back as exactly that text: braces doubled (a scene reads
    /// `{name}` as a binding and `{{` as a brace). For writers of scenes (imports, snapshots).
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "{" || character == "}" { out.append(character) }
            out.append(character)
        }
        return out
    }

    public init(literal: String) {
        self.parts = [.literal(literal)]
    }

    /// The template's source error: a message and the character offset where it was found.
    public struct SyntaxError: Error, Hashable, Sendable {
        public var offset: Int
        public var message: String
    }

    public init(parsing text: String) throws(SyntaxError) {
        // Most labels have no binding: skip the character walk.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
            self.parts = text.isEmpty ? [] : [.literal(text)]
            return
        }
        if let parts = TextTemplate.valueParts(text) {
            self.parts = parts
            return
        }
        do {
            self.parts = try TextTemplate.parseParts(Array(text.unicodeScalars))
        } catch {
            // Offsets are found in Unicode scalars; report them in characters, as editors count.
            let scalars = text.unicodeScalars
            let at = scalars.index(scalars.startIndex, offsetBy: min(error.offset, scalars.count))
            throw SyntaxError(offset: text.distance(from: text.startIndex, to: at), message: error.message)
        }
    }

    /// The parts of a text whose only braces are `{name}` values (a label showing a count), read
    /// by bytes; nil for anything else (escaped braces, choices, mistakes), which `parseParts`
    /// reads and words the errors of.
    static func valueParts(_ text: String) -> [Part]? {
        let bytes = text.utf8
        var parts = [Part]()
        var literalStart = bytes.startIndex
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "}") { return nil }
            guard byte == UInt8(ascii: "{") else {
                index = bytes.index(after: index)
                continue
            }
            let nameStart = bytes.index(after: index)
            guard let close = bytes[nameStart...].firstIndex(where: { $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "{") }),
                  bytes[close] == UInt8(ascii: "}") else { return nil }
            // Sliced by bytes: the braces are ASCII, so every cut falls between scalars (a String
            // slice would round to a character, and `}` followed by a combining mark is one).
            let name = String(decoding: bytes[nameStart..<close], as: UTF8.self)
            guard isValidName(name) else { return nil }
            if literalStart != index { parts.append(.literal(String(decoding: bytes[literalStart..<index], as: UTF8.self))) }
            parts.append(.value(name))
            index = bytes.index(after: close)
            literalStart = index
        }
        if literalStart != bytes.endIndex { parts.append(.literal(String(decoding: bytes[literalStart...], as: UTF8.self))) }
        return parts
    }

    static func parseParts(_ characters: [Unicode.Scalar]) throws(SyntaxError) -> [Part] {
        var parts = [Part]()
        var literal = ""
        var index = 0
        func flushLiteral() {
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
        }
        while index < characters.count {
            let character = characters[index]
            if character == "}" {
                guard index + 1 < characters.count, characters[index + 1] == "}" else {
                    throw SyntaxError(offset: index, message: "a lone '}' (write '}}' for a literal brace)")
                }
                literal.append("}")
                index += 2
                continue
            }
            guard character == "{" else {
                literal.unicodeScalars.append(character)
                index += 1
                continue
            }
            if index + 1 < characters.count, characters[index + 1] == "{" {
                literal.append("{")
                index += 2
                continue
            }
            let start = index
            index += 1
            var name = ""
            while index < characters.count, characters[index] != "}", characters[index] != "?", characters[index] != "#" {
                name.unicodeScalars.append(characters[index])
                index += 1
            }
            guard index < characters.count else {
                throw SyntaxError(offset: start, message: "'{' is not closed by '}'")
            }
            guard TextTemplate.isValidName(name) else {
                throw SyntaxError(
                    offset: start,
                    message: "'{\(name)…' does not name a state value (letters, digits, '_' and '-', starting with a letter)")
            }
            if characters[index] == "}" {
                flushLiteral()
                parts.append(.value(name))
                index += 1
                continue
            }
            // A choice by truth, {name?yes:no}, or by count, {name#one:other}.
            let marker = characters[index]
            index += 1
            var branches = [String](), current = ""
            var closed = false
            while index < characters.count {
                let c = characters[index]
                if c == "\\", index + 1 < characters.count, "\\:{}".unicodeScalars.contains(characters[index + 1]) {
                    current.unicodeScalars.append(characters[index + 1])
                    index += 2
                    continue
                }
                if c == "{" {
                    throw SyntaxError(offset: index, message: "a '{' inside a choice must be written '\\{'")
                }
                if c == ":" && branches.isEmpty {
                    branches.append(current)
                    current = ""
                    index += 1
                    continue
                }
                if c == "}" {
                    closed = true
                    index += 1
                    break
                }
                current.unicodeScalars.append(c)
                index += 1
            }
            guard closed else { throw SyntaxError(offset: start, message: "'{\(name)\(marker)' is not closed by '}'") }
            guard branches.count == 1 else {
                let form = marker == "#" ? "{\(name)#when 1:any other count}" : "{\(name)?when true:when false}"
                throw SyntaxError(offset: start, message: "a choice needs both branches: '\(form)'")
            }
            flushLiteral()
            if marker == "#" {
                parts.append(.plural(name, one: branches[0], other: current))
            } else {
                parts.append(.choice(name, whenTrue: branches[0], whenFalse: current))
            }
        }
        flushLiteral()
        return parts
    }

    /// State names the template reads.
    public var referencedNames: [String] {
        parts.compactMap {
            switch $0 {
            case .literal: return nil
            case .value(let name), .choice(let name, _, _), .plural(let name, _, _): return name
            }
        }
    }

    public func render(_ state: [String: StateValue]) -> String {
        var reader = DirectStateReader(state: state)
        return render(reading: &reader)
    }

    /// The text for the state `texts` reads (the same as `render(texts.state)`), with each
    /// value's text made once for all the templates rendered with it.
    public func render(_ texts: inout StateTexts) -> String {
        render(reading: &texts)
    }

    func render<Reader: StateReading>(reading reader: inout Reader) -> String {
        // A constant text is shared as it is (a hint on every key of a 10,000-key screen).
        if parts.count == 1, case .literal(let text) = parts[0] { return text }
        if parts.isEmpty { return "" }
        func piece(_ part: Part) -> String {
            switch part {
            case .literal(let text): return text
            case .value(let name): return reader.text(name)
            case let .choice(name, whenTrue, whenFalse): return reader.isTruthy(name) ? whenTrue : whenFalse
            case let .plural(name, one, other): return reader.text(name) == "1" ? one : other
            }
        }
        let count = parts.count
        guard count <= 4 else { return parts.reduce(into: "") { $0 += piece($1) } }
        // Up to four pieces (nearly every template: "Key 12 ({unread})"): their bytes are copied
        // once into a string of the right size; appending piece by piece regrows the string and
        // goes through String's general append each time.
        let first = piece(parts[0])
        if count == 1 { return first }
        let second = piece(parts[1])
        let third = count > 2 ? piece(parts[2]) : ""
        let fourth = count > 3 ? piece(parts[3]) : ""
        let byteCount = first.utf8.count + second.utf8.count + third.utf8.count + fourth.utf8.count
        return String(unsafeUninitializedCapacity: byteCount) { buffer in
            var offset = TextTemplate.copy(first, into: buffer, at: 0)
            offset = TextTemplate.copy(second, into: buffer, at: offset)
            offset = TextTemplate.copy(third, into: buffer, at: offset)
            return TextTemplate.copy(fourth, into: buffer, at: offset)
        }
    }

    /// Copies `text`'s UTF-8 bytes into `buffer` at `offset` (as far as they fit); the offset
    /// after them.
    private static func copy(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        let utf8 = text.utf8
        let count = min(utf8.count, buffer.count - offset)
        guard count > 0 else { return offset }
        let copied: Bool? = utf8.withContiguousStorageIfAvailable { bytes in
            UnsafeMutableRawPointer(buffer.baseAddress! + offset).copyMemory(from: bytes.baseAddress!, byteCount: count)
            return true
        }
        if copied == nil {
            for (index, byte) in utf8.prefix(count).enumerated() { buffer[offset + index] = byte }
        }
        return offset + count
    }

    /// The template with no bindings, when it has none.
    public var constantText: String? {
        if parts.isEmpty { return "" }
        if parts.count == 1, case .literal(let text) = parts[0] { return text }
        return nil
    }

    static func isValidName(_ name: String) -> Bool {
        // ASCII names (nearly all) are checked by their bytes: an ASCII scalar is alphabetic
        // exactly when it is a letter.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
            guard let first = name.utf8.first, isLetter(first) else { return false }
            return name.utf8.allSatisfy {
                isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
        }
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == "."
        }
    }
}

/// `visible: wifi` / `visible: "!wifi"`, and the conditions of conditional traits.
public struct StateCondition: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var negated: Bool

    public init(name: String, negated: Bool = false) {
        self.name = name
        self.negated = negated
    }

    public func evaluate(_ state: [String: StateValue]) -> Bool {
        (state[name]?.isTruthy ?? false) != negated
    }

    public var description: String { negated ? "!\(name)" : name }
}

/// A boolean attribute: a constant, or bound to a state condition.
public enum BoolBinding: Hashable, Sendable {
    case constant(Bool)
    case condition(StateCondition)

    public func evaluate(_ state: [String: StateValue]) -> Bool {
        switch self {
        case .constant(let value): return value
        case .condition(let condition): return condition.evaluate(state)
        }
    }
}

/// How a template reads the state: a value's text (empty when unset) and its truth (false when
/// unset).
protocol StateReading {
    mutating func text(_ name: String) -> String
    mutating func isTruthy(_ name: String) -> Bool
}

/// Reads the state dictionary for each part (one template rendered on its own).
struct DirectStateReader: StateReading {
    let state: [String: StateValue]

    func text(_ name: String) -> String { state[name]?.description ?? "" }
    func isTruthy(_ name: String) -> Bool { state[name]?.isTruthy ?? false }
}

/// A state's values as texts, each made on first use and kept, for rendering many templates
/// with the same state (a relabel of every element of a screen reads one value 10,000 times:
/// one lookup of a few names kept here instead of hashing the name and formatting the value
/// each time).
public struct StateTexts: StateReading {
    public let state: [String: StateValue]
    private var names = [String]()
    private var texts = [String]()
    private var truths = [Bool]()

    /// Names kept at most: past them, a value is read from the state each time.
    private static let capacity = 16

    public init(_ state: [String: StateValue]) {
        self.state = state
    }

    private mutating func entry(_ name: String) -> Int? {
        if let index = names.firstIndex(of: name) { return index }
        guard names.count < StateTexts.capacity else { return nil }
        let value = state[name]
        names.append(name)
        texts.append(value?.description ?? "")
        truths.append(value?.isTruthy ?? false)
        return names.count - 1
    }

    mutating func text(_ name: String) -> String {
        guard let index = entry(name) else { return state[name]?.description ?? "" }
        return texts[index]
    }

    mutating func isTruthy(_ name: String) -> Bool {
        guard let index = entry(name) else { return state[name]?.isTruthy ?? false }
        return truths[index]
    }
}
