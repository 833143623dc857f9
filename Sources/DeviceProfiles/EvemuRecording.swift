/// An evemu recording (evemu-record 2.7, file format 1.3): the device's description and the
/// events it sent.
///
/// ```
/// # EVEMU 1.3
/// N: PCsensor FootSwitch
/// I: 0003 0c45 7403 0001
/// P: 00 00 00 00 00 00 00 00
/// B: 00 0b 00 00 00 00 00 00 00
/// B: 01 00 00 00 00 00 00 00 00      (EV_KEY bits, 8 bytes a line, continuing)
/// E: 0.000001 0001 0039 0001	# EV_KEY / KEY_SPACE            1
/// E: 0.000001 0000 0000 0000	# ------------ SYN_REPORT (0) ---------- +0ms
/// ```
///
/// `#` lines are comments anywhere; the first may be `# EVEMU <major>.<minor>`. Then `N:` (name),
/// `I:` (bus, vendor, product, version in hex), and any of `P:` (property bytes), `B:` (an event
/// type and 8 bitmask bytes; repeated lines for a type continue its mask), `A:` (an absolute
/// axis: code, min, max, fuzz, flat, resolution), `L:`/`S:` (LED and switch states), then the
/// events, `E: <sec>.<usec, 6 digits> <type hex> <code hex> <value decimal>` with an optional
/// `# …` comment. evemu-record makes times relative to the first event, which is at 0.000001.
public struct EvemuRecording: Hashable, Sendable {
    public struct AbsAxis: Hashable, Sendable {
        public var code: UInt16
        public var minimum: Int32
        public var maximum: Int32
        public var fuzz: Int32
        public var flat: Int32
        public var resolution: Int32

        public init(code: UInt16, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
            self.code = code
            self.minimum = minimum
            self.maximum = maximum
            self.fuzz = fuzz
            self.flat = flat
            self.resolution = resolution
        }
    }

    /// An `L:` or `S:` line: a code and its state.
    public struct CodeState: Hashable, Sendable {
        public var code: UInt16
        public var value: Int32

        public init(code: UInt16, value: Int32) {
            self.code = code
            self.value = value
        }
    }

    /// `1.3` from a first line `# EVEMU 1.3`; nil when the file has none.
    public var formatVersion: String?
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// `INPUT_PROP_*` bits, from the `P:` lines.
    public var properties: [UInt8]
    /// Per event type, the bitmask of its codes, from the `B:` lines.
    public var eventBits: [UInt16: [UInt8]]
    public var absAxes: [AbsAxis]
    public var ledStates: [CodeState]
    public var switchStates: [CodeState]
    public var events: [DeviceEvent]
    /// The line of each event in the file (for messages); empty for a recording built in code.
    public var eventLines: [Int]

    public init(
        formatVersion: String? = "1.3", name: String, bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16,
        properties: [UInt8] = [], eventBits: [UInt16: [UInt8]] = [:], absAxes: [AbsAxis] = [],
        ledStates: [CodeState] = [], switchStates: [CodeState] = [], events: [DeviceEvent] = [], eventLines: [Int] = []
    ) {
        self.formatVersion = formatVersion
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.eventBits = eventBits
        self.absAxes = absAxes
        self.ledStates = ledStates
        self.switchStates = switchStates
        self.events = events
        self.eventLines = eventLines
    }

    /// A recording of `device`'s events: the `B:` bits say `EV_SYN`, the device's key codes, and
    /// every type and code the events use.
    public init(device: DeviceIdentity, events: [DeviceEvent]) {
        var bits: [UInt16: [UInt8]] = [DeviceEvent.EventType.syn: [0x0b]]
        func set(_ type: UInt16, _ code: UInt16) {
            var mask = bits[type] ?? []
            let byte = Int(code) / 8
            if mask.count <= byte { mask += [UInt8](repeating: 0, count: byte + 1 - mask.count) }
            mask[byte] |= 1 << (code % 8)
            bits[type] = mask
        }
        for code in device.keyCodes ?? [] { set(DeviceEvent.EventType.key, code) }
        for event in events { set(event.type, event.code) }
        // Whole lines of 8 bytes, and EV_KEY up to KEY_MAX, as the writer and evemu write them.
        for (type, mask) in bits {
            let length = type == DeviceEvent.EventType.key ? max(96, (mask.count + 7) / 8 * 8) : (mask.count + 7) / 8 * 8
            bits[type] = mask + [UInt8](repeating: 0, count: length - mask.count)
        }
        self.init(name: device.name, bus: device.bus, vendor: device.vendor, product: device.product, version: device.version,
                  properties: [UInt8](repeating: 0, count: 8), eventBits: bits, events: events)
    }

    /// Name, ids, and the key codes of the `B: 01` lines (nil when the file has no `B:` lines).
    public var identity: DeviceIdentity {
        var keyCodes: Set<UInt16>?
        if !eventBits.isEmpty {
            let mask = eventBits[DeviceEvent.EventType.key] ?? []
            keyCodes = Set(mask.indices.flatMap { byte in
                (0..<8).filter { mask[byte] & (1 << $0) != 0 }.map { UInt16(byte * 8 + $0) }
            })
        }
        return DeviceIdentity(name: name, bus: bus, vendor: vendor, product: product, version: version, keyCodes: keyCodes)
    }

    /// Whether the `B:` lines say the device sends `code` of `type`.
    public func supports(type: UInt16, code: UInt16) -> Bool {
        guard let mask = eventBits[type], Int(code) / 8 < mask.count else { return false }
        return mask[Int(code) / 8] & (1 << (code % 8)) != 0
    }

    /// Events shifted as evemu-record does: the first at 0.000001, the others the same time
    /// apart.
    public static func relativeToFirst(_ events: [DeviceEvent]) -> [DeviceEvent] {
        guard let first = events.first?.totalMicroseconds else { return [] }
        let offset = first - 1
        return events.map { event in
            let micros = event.totalMicroseconds - offset
            return DeviceEvent(seconds: micros / 1_000_000, microseconds: micros % 1_000_000, type: event.type, code: event.code, value: event.value)
        }
    }

    /// `12.000345`: seconds and six digits of microseconds.
    static func formatTime(_ event: DeviceEvent) -> String {
        "\(event.seconds).\(pad(String(event.microseconds), 6, "0"))"
    }
}

// MARK: - Reading

/// A recording that could not be read: the first problem, with its line (evemu stops there too).
public struct EvemuParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var problem: DeviceFileProblem

    public init(problem: DeviceFileProblem) {
        self.problem = problem
    }

    public var description: String { problem.description }
}

extension EvemuRecording {
    /// Largest recording accepted, in bytes.
    public static let maxBytes = 64 << 20

    /// Reads a recording; `file` names it in messages. No I/O: callers read the file.
    public static func parse(_ text: String, file: String) throws(EvemuParseError) -> EvemuRecording {
        var parser = EvemuParser(file: file, text: text)
        return try parser.parse()
    }
}

/// A recording read a piece at a time, so that a long one is replayed as it is read rather than
/// held whole (`--input evemu:FILE`): bytes in, the device's description once its events begin
/// (`description`), events out. The same checks, messages and positions as `parse`.
public struct EvemuStreamReader: Sendable {
    private var parser: EvemuParser
    /// The bytes of a line not ended yet.
    private var partial: [UInt8] = []
    /// The first problem (`file:line:column`); nothing is read after it.
    public private(set) var problem: EvemuParseError?
    /// Whether `finish` was called.
    public private(set) var isFinished = false

    public init(file: String) {
        parser = EvemuParser(file: file, text: "", keepsEvents: false)
    }

    /// The recording's description (name, ids, bits; no events) once its first event was
    /// read, or the file ended.
    public var description: EvemuRecording? { parser.stage == .events || isFinished ? parser.recording : nil }

    /// Reads the whole lines in `bytes` (the rest waits for the next piece) and returns their
    /// events, up to a problem (then `problem` says it and nothing more is read).
    public mutating func feed(_ bytes: ArraySlice<UInt8>) -> [DeviceEvent] {
        guard problem == nil, !isFinished else { return [] }
        do throws(EvemuParseError) {
            var start = bytes.startIndex
            while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if partial.isEmpty {
                    try line(bytes[start..<newline], isLast: false)
                } else {
                    partial += bytes[start..<newline]
                    let whole = partial
                    partial = []
                    try line(whole[...], isLast: false)
                }
                start = newline + 1
            }
            partial += bytes[start...]
            if partial.count > Self.maxLineBytes {
                parser.lineNumber += 1
                throw parser.fail("a line of more than \(Self.maxLineBytes) bytes; evemu lines are short")
            }
        } catch {
            problem = error
        }
        return takeOutput()
    }

    /// The end of the file: its last line if it has no newline, then the checks of the end
    /// (a device description at least). Returns that line's events.
    public mutating func finish() -> [DeviceEvent] {
        guard problem == nil, !isFinished else { return [] }
        isFinished = true
        do throws(EvemuParseError) {
            if !partial.isEmpty {
                let last = partial
                partial = []
                try line(last[...], isLast: true)
            }
            _ = try parser.end()
        } catch {
            problem = error
        }
        return takeOutput()
    }

    /// The longest line accepted (an evemu line is under 100 bytes).
    public static let maxLineBytes = 1 << 16

    private mutating func takeOutput() -> [DeviceEvent] {
        defer { parser.output.removeAll(keepingCapacity: true) }
        return parser.output
    }

    private mutating func line(_ bytes: ArraySlice<UInt8>, isLast: Bool) throws(EvemuParseError) {
        parser.lineNumber += 1
        parser.isLastLine = isLast
        parser.endsWithNewline = !isLast
        // The CR of a CRLF line end (`parse` splits at "\r\n" as at "\n").
        var bytes = bytes
        if !isLast, bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let valid = bytes.prefix { $0 < 0x80 }.count
            throw parser.fail("the line is not UTF-8 text", column: valid + 1)
        }
        try parser.take(Substring(text))
    }
}

struct EvemuParser: Sendable {
    enum Stage { case name, id, description, events }

    let file: String
    let text: String
    var stage = Stage.name
    var recording = EvemuRecording(formatVersion: nil, name: "", bus: 0, vendor: 0, product: 0, version: 0)
    var lineNumber = 0
    var isLastLine = false
    var firstEventLine: Int?
    var endsWithNewline: Bool
    /// Whether the events go into `recording` (`parse`), or only into `output` (a stream).
    let keepsEvents: Bool
    var output: [DeviceEvent] = []
    var sawContent = false
    private var lastEvent: (event: DeviceEvent, line: Int)?

    init(file: String, text: String, keepsEvents: Bool = true) {
        self.file = file
        self.text = text
        self.keepsEvents = keepsEvents
        endsWithNewline = text.last == "\n" || text.last == "\r\n"
    }

    func fail(_ message: String, column: Int = 1) -> EvemuParseError {
        var message = message
        if isLastLine, !endsWithNewline {
            message += " (the file ends in the middle of this line: is it truncated?)"
        }
        return EvemuParseError(problem: DeviceFileProblem(file: file, line: lineNumber, column: column, message: message))
    }

    mutating func parse() throws(EvemuParseError) -> EvemuRecording {
        guard text.utf8.count <= EvemuRecording.maxBytes else {
            lineNumber = 1
            throw fail("the file is \(text.utf8.count) bytes; a recording is at most \(EvemuRecording.maxBytes)")
        }
        // "\r\n" is one Character in Swift: both line ends split.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        // A final newline leaves an empty last piece, which is not a line.
        let count = endsWithNewline ? lines.count - 1 : lines.count
        for index in 0..<count {
            lineNumber = index + 1
            isLastLine = index == count - 1
            try take(lines[index])
        }
        return try end()
    }

    /// One line (without its line end).
    mutating func take(_ line: Substring) throws(EvemuParseError) {
        var line = line
        if line.hasSuffix("\r") { line = line.dropLast() }  // a lone CR before the LF of "\r\n" split apart
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return }
        if line.hasPrefix("#") {
            if !sawContent, recording.formatVersion == nil { recording.formatVersion = Self.formatVersion(line) }
            return
        }
        sawContent = true
        try parseLine(line)
    }

    /// The checks at the end of the file.
    mutating func end() throws(EvemuParseError) -> EvemuRecording {
        lineNumber = max(1, lineNumber)
        isLastLine = false
        switch stage {
        case .name:
            lineNumber = 1
            throw fail("the file has no device description: an evemu recording starts with 'N: <device name>' and 'I: <bus> <vendor> <product> <version>'")
        case .id:
            throw fail("the file ends after the N: line; expected 'I: <bus> <vendor> <product> <version>' (hex) next (is it truncated?)")
        case .description, .events:
            return recording
        }
    }

    static func formatVersion(_ line: Substring) -> String? {
        let words = line.dropFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2, words[0] == "EVEMU" else { return nil }
        let parts = words[1].split(separator: ".")
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return nil }
        return String(words[1])
    }

    static let tags: [Character] = ["N", "I", "P", "B", "A", "L", "S", "E"]

    mutating func parseLine(_ line: Substring) throws(EvemuParseError) {
        guard line.count >= 2, let tag = line.first, line.dropFirst().first == ":", Self.tags.contains(tag) else {
            let shown = line.prefix(40)
            throw fail("'\(shown)\(line.count > 40 ? "…" : "")' is not an evemu line: lines start with N:, I:, P:, B:, A:, L:, S: or E:, or # for a comment")
        }
        let body = line.dropFirst(2)
        switch stage {
        case .name:
            guard tag == "N" else {
                throw fail("expected the device name first ('N: <name>'), found an \(tag): line")
            }
            let name = body.drop { $0 == " " || $0 == "\t" }
            guard !name.isEmpty else { throw fail("the N: line has no device name", column: 3) }
            recording.name = String(name)
            stage = .id
        case .id:
            guard tag == "I" else {
                throw fail("expected the device id after the name ('I: <bus> <vendor> <product> <version>', hex), found an \(tag): line")
            }
            let fields = try Self.fields(body, fail)
            guard fields.count == 4 else {
                throw fail("the I: line needs 4 hex numbers (bus vendor product version), found \(fields.count)")
            }
            var ids = [UInt16]()
            for (field, what) in zip(fields, ["bus", "vendor", "product", "version"]) {
                guard let value = parseHex(field.text, maxDigits: 4) else {
                    throw fail("the I: line's \(what) '\(field.text)' is not a hex number of up to 4 digits", column: field.column + 2)
                }
                ids.append(UInt16(value))
            }
            (recording.bus, recording.vendor, recording.product, recording.version) = (ids[0], ids[1], ids[2], ids[3])
            stage = .description
        case .description, .events:
            if tag == "E" {
                try parseEvent(body)
                return
            }
            if stage == .events {
                throw fail("a \(tag): line after the first event (line \(firstEventLine ?? 0)); the device description comes before the events")
            }
            try parseDescription(tag, body)
        }
    }

    mutating func parseDescription(_ tag: Character, _ body: Substring) throws(EvemuParseError) {
        let fields = try Self.fields(body, fail)
        switch tag {
        case "N", "I":
            throw fail("a second \(tag): line; a recording describes one device")
        case "P":
            guard fields.count == 8 else { throw fail("a P: line has 8 hex bytes, found \(fields.count)") }
            for field in fields {
                guard let byte = parseHex(field.text, maxDigits: 2) else {
                    throw fail("'\(field.text)' is not a hex byte", column: field.column + 2)
                }
                recording.properties.append(UInt8(byte))
            }
        case "B":
            guard fields.count == 9 else { throw fail("a B: line has an event type and 8 hex bytes, found \(fields.count) numbers") }
            guard let type = parseHex(fields[0].text, maxDigits: 2), type <= Int(DeviceEvent.EventType.max) else {
                throw fail("'\(fields[0].text)' is not an event type (00 to 1f)", column: fields[0].column + 2)
            }
            var mask = recording.eventBits[UInt16(type)] ?? []
            for field in fields.dropFirst() {
                guard let byte = parseHex(field.text, maxDigits: 2) else {
                    throw fail("'\(field.text)' is not a hex byte", column: field.column + 2)
                }
                mask.append(UInt8(byte))
            }
            recording.eventBits[UInt16(type)] = mask
        case "A":
            // Format 1.0 had no resolution.
            guard fields.count == 6 || fields.count == 5 else {
                throw fail("an A: line has an axis code (hex) and min, max, fuzz, flat, resolution; found \(fields.count) numbers")
            }
            guard let code = parseHex(fields[0].text, maxDigits: 2) else {
                throw fail("'\(fields[0].text)' is not an axis code (hex)", column: fields[0].column + 2)
            }
            var numbers = [Int32]()
            for field in fields.dropFirst() {
                guard let number = Int32(field.text) else {
                    throw fail("'\(field.text)' is not a whole number", column: field.column + 2)
                }
                numbers.append(number)
            }
            recording.absAxes.append(EvemuRecording.AbsAxis(
                code: UInt16(code), minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                resolution: numbers.count > 4 ? numbers[4] : 0))
        default:  // L:, S:
            guard fields.count == 2 else { throw fail("an \(tag): line has a code (hex) and a state, found \(fields.count) numbers") }
            guard let code = parseHex(fields[0].text, maxDigits: 4) else {
                throw fail("'\(fields[0].text)' is not a code (hex)", column: fields[0].column + 2)
            }
            guard let value = Int32(fields[1].text) else {
                throw fail("'\(fields[1].text)' is not a whole number", column: fields[1].column + 2)
            }
            let state = EvemuRecording.CodeState(code: UInt16(code), value: value)
            if tag == "L" { recording.ledStates.append(state) } else { recording.switchStates.append(state) }
        }
    }

    mutating func parseEvent(_ body: Substring) throws(EvemuParseError) {
        let fields = try Self.fields(body, fail)
        let shape = "E: <seconds>.<6-digit microseconds> <type hex> <code hex> <value>"
        guard fields.count == 4 else {
            if fields.count < 4 {
                throw fail("an event line needs a time, a type, a code and a value (\(shape)); found \(fields.count) of the 4")
            }
            throw fail("unexpected '\(fields[4].text)' after the event's value (\(shape)); comments start with #", column: fields[4].column + 2)
        }
        let timeParts = fields[0].text.split(separator: ".", omittingEmptySubsequences: false)
        guard timeParts.count == 2, !timeParts[0].isEmpty, timeParts[0].count <= 12, timeParts[0].allSatisfy(\.isASCIIDigit),
              timeParts[1].count == 6, timeParts[1].allSatisfy(\.isASCIIDigit),
              let seconds = Int64(timeParts[0]), let micros = Int64(timeParts[1]) else {
            throw fail("the event time '\(fields[0].text)' is not <seconds>.<6 digits of microseconds> (such as 0.000001)", column: fields[0].column + 2)
        }
        guard let type = parseHex(fields[1].text, maxDigits: 4), type <= Int(DeviceEvent.EventType.max) else {
            throw fail("the event type '\(fields[1].text)' is not an input event type (hex, 0000 to 001f)", column: fields[1].column + 2)
        }
        guard let code = parseHex(fields[2].text, maxDigits: 4) else {
            throw fail("the event code '\(fields[2].text)' is not a hex number of up to 4 digits", column: fields[2].column + 2)
        }
        guard let value = Int32(fields[3].text) else {
            throw fail("the event value '\(fields[3].text)' is not a whole number", column: fields[3].column + 2)
        }
        let event = DeviceEvent(seconds: seconds, microseconds: micros, type: UInt16(type), code: UInt16(code), value: value)
        if let (previous, line) = lastEvent, event.totalMicroseconds < previous.totalMicroseconds {
            throw fail("the event time \(fields[0].text) is before the previous event's (\(EvemuRecording.formatTime(previous)), line \(line)); times never go back", column: fields[0].column + 2)
        }
        if firstEventLine == nil { firstEventLine = lineNumber }
        lastEvent = (event, lineNumber)
        if keepsEvents {
            recording.events.append(event)
            recording.eventLines.append(lineNumber)
        } else {
            output.append(event)
        }
        stage = .events
    }

    /// The whitespace-separated fields before any `#` comment, with their columns (1-based,
    /// within the text after the tag).
    static func fields(_ body: Substring, _ fail: (String, Int) -> EvemuParseError) throws(EvemuParseError) -> [(text: Substring, column: Int)] {
        var result = [(text: Substring, column: Int)]()
        var index = body.startIndex
        var column = 1
        while index < body.endIndex {
            let character = body[index]
            if character == "#" { break }
            if character == " " || character == "\t" {
                index = body.index(after: index)
                column += 1
                continue
            }
            let start = index
            let startColumn = column
            while index < body.endIndex, body[index] != " ", body[index] != "\t", body[index] != "#" {
                index = body.index(after: index)
                column += 1
            }
            result.append((body[start..<index], startColumn))
        }
        return result
    }

    func parseHex(_ text: Substring, maxDigits: Int) -> Int? {
        guard !text.isEmpty, text.count <= maxDigits, text.allSatisfy(\.isHexDigit) else { return nil }
        return Int(text, radix: 16)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

// MARK: - Writing

extension EvemuRecording {
    /// The recording in evemu's format 1.3, as evemu-record writes it (with its comments), so
    /// that evemu-play and evemu-device read it and `parse` reads it back to an equal recording.
    public func text(comments: [String] = []) -> String {
        var out = "# EVEMU 1.3\n"
        out += "# Input device name: \"\(name.replacingNewlines())\"\n"
        out += "# Input device ID: bus 0x\(hex4(bus)) vendor 0x\(hex4(vendor)) product 0x\(hex4(product)) version 0x\(hex4(version))\n"
        for comment in comments { out += "# \(comment.replacingNewlines())\n" }
        out += "N: \(name.replacingNewlines())\n"
        out += "I: \(hex4(bus)) \(hex4(vendor)) \(hex4(product)) \(hex4(version))\n"
        let properties = self.properties.isEmpty ? [UInt8](repeating: 0, count: 8) : self.properties
        for chunk in chunks(properties) { out += "P: " + chunk.map(hex2).joined(separator: " ") + "\n" }
        let syn = eventBits[DeviceEvent.EventType.syn] ?? [0x0b]
        for type in Set(eventBits.keys).union([DeviceEvent.EventType.syn]).sorted() {
            var mask = type == DeviceEvent.EventType.syn ? syn : eventBits[type]!
            if type == DeviceEvent.EventType.key, mask.count < 96 { mask += [UInt8](repeating: 0, count: 96 - mask.count) }
            for chunk in chunks(mask) { out += "B: \(hex2(UInt8(type))) " + chunk.map(hex2).joined(separator: " ") + "\n" }
        }
        for axis in absAxes {
            out += "A: \(hex2(UInt8(truncatingIfNeeded: axis.code))) \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) \(axis.resolution)\n"
        }
        for state in ledStates { out += "L: \(hex2(UInt8(truncatingIfNeeded: state.code))) \(state.value)\n" }
        for state in switchStates { out += "S: \(hex2(UInt8(truncatingIfNeeded: state.code))) \(state.value)\n" }
        var lastReportMillis: Int64 = 0
        for event in events {
            let value = event.value < 0 ? "-" + pad(String(-Int64(event.value)), 3, "0") : pad(String(event.value), 4, "0")
            out += "E: \(EvemuRecording.formatTime(event)) \(hex4(event.type)) \(hex4(event.code)) \(value)\t"
            if event.type == DeviceEvent.EventType.syn, event.code != DeviceEvent.SynCode.mtReport {
                let millis = event.seconds * 1000 + event.microseconds / 1000
                let delta = millis - lastReportMillis
                lastReportMillis = millis
                out += "# ------------ \(event.codeName ?? "SYN_\(event.code)") (\(event.value)) ---------- \(delta >= 0 ? "+" : "")\(delta)ms\n"
            } else {
                let typeName = DeviceEvent.EventType.name(event.type) ?? "EV_\(event.type)"
                let codeName = event.codeName ?? "\(event.code)"
                out += "# \(typeName) / \(codeName.leftAligned(20)) \(event.value)\n"
            }
        }
        return out
    }

    private func chunks(_ bytes: [UInt8]) -> [[UInt8]] {
        var padded = bytes
        if padded.isEmpty || padded.count % 8 != 0 { padded += [UInt8](repeating: 0, count: 8 - padded.count % 8) }
        return stride(from: 0, to: padded.count, by: 8).map { Array(padded[$0..<$0 + 8]) }
    }
}

func hex2(_ byte: UInt8) -> String { pad(String(byte, radix: 16), 2, "0") }

func pad(_ text: String, _ width: Int, _ fill: Character) -> String {
    String(repeating: fill, count: max(0, width - text.count)) + text
}

extension String {
    /// Left-aligned in `length` columns (like `%-20s`).
    func leftAligned(_ length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
