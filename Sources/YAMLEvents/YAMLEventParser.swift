import CYAML

/// Where an event starts: 1-based line and column, as libyaml counts them (columns count
/// characters).
public struct YAMLMark: Sendable, Equatable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// One event of libyaml's event stream, in Swift types.
public enum YAMLEvent: Sendable {
    case streamStart
    case streamEnd(YAMLMark)
    case documentStart(YAMLMark)
    case documentEnd
    case alias(anchor: String, YAMLMark)
    /// `tag` is the explicit tag (libyaml expands `!!str` to `tag:yaml.org,2002:str`);
    /// `isPlain` says the scalar was written unquoted, neither block nor flow quoted.
    case scalar(String, isPlain: Bool, anchor: String?, tag: String?, YAMLMark)
    case sequenceStart(anchor: String?, tag: String?, YAMLMark)
    case sequenceEnd
    case mappingStart(anchor: String?, tag: String?, YAMLMark)
    case mappingEnd
}

/// libyaml's error, as its parser states it.
public struct YAMLParseError: Error, Sendable {
    public enum Kind: Sendable {
        /// The input is not readable text (a control character, say); `offset` is a byte offset.
        case reader
        case scanner
        case parser
        case memory
    }

    public var kind: Kind
    /// libyaml's own words ("found character that cannot start any token").
    public var problem: String
    public var mark: YAMLMark
    /// What libyaml was reading when it failed ("while parsing a block mapping") and where.
    public var context: (text: String, mark: YAMLMark)?
    /// For reader errors: the byte where reading failed.
    public var offset: Int

    public init(kind: Kind, problem: String, mark: YAMLMark, context: (text: String, mark: YAMLMark)?, offset: Int = 0) {
        self.kind = kind
        self.problem = problem
        self.mark = mark
        self.context = context
        self.offset = offset
    }
}

/// libyaml's parser over UTF-8 text, one event at a time. It keeps its own copy of the bytes
/// (libyaml reads them while it parses).
public final class YAMLEventParser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let initialized: Bool

    /// A byte order mark at the start of `text` is left out: libyaml, told the encoding, would
    /// count it as a column of line 1, so that a first key after it stands one column to the right
    /// of the keys below it (and the mapping breaks at line 2).
    public init(utf8 text: String) {
        var text = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        input = text.withUTF8 { bytes in
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
            _ = copy.initialize(from: bytes)
            return UnsafeMutableBufferPointer(rebasing: copy[0..<bytes.count])
        }
        parser = .allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        event = .allocate(capacity: 1)
        event.initialize(to: yaml_event_t())
        initialized = yaml_parser_initialize(parser) == 1
        if initialized {
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, input.baseAddress, input.count)
        }
    }

    deinit {
        if initialized { yaml_parser_delete(parser) }
        parser.deallocate()
        event.deallocate()
        // `input` was allocated with at least one byte; its base address is the allocation's.
        UnsafeMutableBufferPointer(start: input.baseAddress, count: max(1, input.count)).deallocate()
    }

    /// The next event; after `streamEnd` libyaml gives no more.
    public func next() throws(YAMLParseError) -> YAMLEvent {
        guard initialized else {
            throw YAMLParseError(kind: .memory, problem: "Memory error", mark: YAMLMark(line: 1, column: 1), context: nil)
        }
        guard yaml_parser_parse(parser, event) == 1 else { throw error() }
        defer { yaml_event_delete(event) }
        let mark = YAMLMark(line: Int(event.pointee.start_mark.line) + 1, column: Int(event.pointee.start_mark.column) + 1)
        switch event.pointee.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_STREAM_END_EVENT: return .streamEnd(mark)
        case YAML_DOCUMENT_START_EVENT: return .documentStart(mark)
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(anchor: Self.string(event.pointee.data.alias.anchor) ?? "", mark)
        case YAML_SCALAR_EVENT:
            let scalar = event.pointee.data.scalar
            // The value may hold NUL characters (a "\0" escape): it is read by its length.
            let value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            return .scalar(
                value, isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE, anchor: Self.string(scalar.anchor),
                tag: scalar.quoted_implicit == 1 ? "tag:yaml.org,2002:str" : Self.string(scalar.tag), mark)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.pointee.data.sequence_start
            return .sequenceStart(anchor: Self.string(start.anchor), tag: start.implicit != 0 ? nil : Self.string(start.tag), mark)
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            let start = event.pointee.data.mapping_start
            return .mappingStart(anchor: Self.string(start.anchor), tag: start.implicit != 0 ? nil : Self.string(start.tag), mark)
        case YAML_MAPPING_END_EVENT: return .mappingEnd
        default:
            // libyaml has no other event; NO_EVENT only comes with an error, handled above.
            throw YAMLParseError(kind: .parser, problem: "libyaml gave no event", mark: mark, context: nil)
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
    }

    private static func strlen(_ pointer: UnsafeMutablePointer<yaml_char_t>) -> Int {
        var count = 0
        while pointer[count] != 0 { count += 1 }
        return count
    }

    private func error() -> YAMLParseError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown problem"
        let mark = YAMLMark(line: Int(state.problem_mark.line) + 1, column: Int(state.problem_mark.column) + 1)
        let context = state.context.map {
            (text: String(cString: $0), mark: YAMLMark(line: Int(state.context_mark.line) + 1, column: Int(state.context_mark.column) + 1))
        }
        switch state.error {
        case YAML_READER_ERROR:
            return YAMLParseError(kind: .reader, problem: problem, mark: mark, context: nil, offset: Int(state.problem_offset))
        case YAML_SCANNER_ERROR:
            return YAMLParseError(kind: .scanner, problem: problem, mark: mark, context: context)
        case YAML_PARSER_ERROR:
            return YAMLParseError(kind: .parser, problem: problem, mark: mark, context: context)
        default:
            return YAMLParseError(kind: .memory, problem: "Memory error", mark: mark, context: nil)
        }
    }
}
