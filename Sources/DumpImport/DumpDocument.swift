import Documents
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Where something is in a dump: the shared 1-based line and column.
public typealias DumpPosition = TextPosition

/// A problem that stops an import: the shared `file:line:column: error: message` problem.
public typealias DumpProblem = DocumentProblem

extension DocumentProblem {
    init(file: String, position: DumpPosition, message: String) {
        self.init(file: file, line: Int(position.line), column: Int(position.column), message: message)
    }

    public var position: DumpPosition { DumpPosition(line: line, column: column) }
}

extension TextPosition {
    /// `line:column`, as the import's summary shows where an element is.
    public var lineColumn: String { "\(line):\(column)" }
}

/// Bounds that keep a hostile or broken dump from exhausting the machine: the scene limits
/// (`SceneLimits`), and an XML nesting bound above the scene's 64 (dumps nest layout wrappers
/// that the import folds away).
public struct DumpLimits: Sendable {
    public var maxBytes: Int = 128 << 20
    public var maxNodes: Int = 1_000_000
    public var maxXMLDepth: Int = 256
    public var maxSceneDepth: Int = 64
    public var maxStringLength: Int = 10_000
    public init() {}
    public static let standard = DumpLimits()
}

/// One XML element of a dump, with its attributes and where its start tag begins.
struct DumpNode {
    var name: String
    var attributes: [String: String]
    var position: DumpPosition
    var children: [DumpNode] = []

    subscript(_ key: String) -> String? { attributes[key] }
}

/// Parses the bytes of a dump with Foundation's XMLParser (libxml2 on Linux) into a tree. No
/// I/O: the caller read the file. The parser is given UTF-8 only (`DumpEncoding`), fed in
/// chunks from a stream (libxml2 refuses one read of more than 10,000,000 bytes without its
/// "huge" option, which Foundation does not set), and stopped at the first error or bound.
/// Document type declarations are refused before parsing: a dump never needs one, and its
/// entities are how XML files grow without bound.
enum DumpDocument {
    static func parse(_ fileBytes: [UInt8], file: String, limits: DumpLimits) -> Result<DumpNode, DumpProblem> {
        let origin = DumpPosition(line: 1, column: 1)
        guard fileBytes.count <= limits.maxBytes else {
            return .failure(DumpProblem(file: file, position: origin, message: "the file is \(fileBytes.count) bytes; at most \(limits.maxBytes) are accepted"))
        }
        let bytes: [UInt8]
        switch DumpEncoding.utf8(fileBytes, file: file) {
        case .success(let text): bytes = text
        case .failure(let problem): return .failure(problem)
        }
        guard bytes.contains(where: { !DumpEncoding.isBlank($0) }) else {
            return .failure(DumpProblem(file: file, position: origin, message: "the file is empty; expected an XML accessibility dump (XCUITest page source or UI Automator dump)"))
        }
        if let declaration = doctypeOffset(bytes) {
            let position = position(ofOffset: declaration, in: bytes)
            return .failure(DumpProblem(file: file, position: position, message: "a document type declaration is not accepted in a dump (no DTD, no entities: they are how XML files grow without bound)"))
        }
        return TreeBuilder(bytes: bytes, file: file, limits: limits).parse()
    }
}

extension DumpDocument {
    /// Where a document type declaration starts, read as the XML grammar reads a prolog: the
    /// XML declaration, blanks, comments and processing instructions, then `<!DOCTYPE` or the
    /// root element. Stops at the root (or at anything else, which libxml2 refuses first), so
    /// a `<!DOCTYPE` in a comment is no declaration and a large file is not read to its end.
    static func doctypeOffset(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if DumpEncoding.isBlank(bytes[index]) {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else { return nil }
            if bytes[index + 1] == UInt8(ascii: "?") {
                guard let end = find(Array("?>".utf8), in: bytes, from: index + 2) else { return nil }
                index = end + 2
            } else if hasPrefix(Array("<!--".utf8), in: bytes, at: index) {
                guard let end = find(Array("-->".utf8), in: bytes, from: index + 4) else { return nil }
                index = end + 3
            } else {
                return hasPrefix(Array("<!DOCTYPE".utf8), in: bytes, at: index) ? index : nil
            }
        }
        return nil
    }

    static func hasPrefix(_ needle: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index + needle.count <= bytes.count else { return false }
        for offset in needle.indices where bytes[index + offset] != needle[offset] { return false }
        return true
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], hasPrefix(needle, in: bytes, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// Line and column (in characters) of a byte offset.
    static func position(ofOffset offset: Int, in bytes: [UInt8]) -> DumpPosition {
        var line = 1, column = 1
        for byte in bytes[..<offset] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return DumpPosition(line: line, column: column)
    }
}

/// libxml2's common error numbers, in words.
enum XMLErrorText {
    static func describe(_ code: Int) -> String? {
        switch code {
        case 4: return "the document is empty or not XML"
        case 5: return "extra content at the end of the document"
        case 9: return "a character XML does not allow"
        case 23: return "a character reference or entity is not finished"
        case 26: return "an undeclared entity"
        case 38, 39, 40: return "an attribute without a value or quotes"
        case 41: return "an attribute is not finished"
        case 42: return "an attribute redefined"
        case 65: return "a space is required between attributes"
        case 68: return "a name was expected"
        case 73: return "'>' was expected"
        case 76: return "the closing tag does not match the opening tag"
        case 77: return "a tag is not finished"
        case 111: return "an attribute without a value"
        default: return nil
        }
    }
}

/// Where the lines of the parsed text start, found only as far as a position asks: an error
/// on line 2 of a large file reads line 1, not the file.
struct LineStarts {
    let bytes: [UInt8]
    private(set) var starts = [0]
    private var scanned = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The offset line `line` (1-based) starts at; nil past the last line.
    mutating func start(ofLine line: Int) -> Int? {
        guard line >= 1 else { return nil }
        while starts.count < line, scanned < bytes.count {
            if bytes[scanned] == 0x0A { starts.append(scanned + 1) }
            scanned += 1
        }
        return line <= starts.count ? starts[line - 1] : nil
    }

    /// The number of lines, reading to the end.
    mutating func count() -> Int {
        _ = start(ofLine: Int.max)
        return starts.count
    }
}

/// libxml2 tells a start tag by where it ends (line, and column in characters); the tree wants
/// where its `<` is. The cursor remembers the last place it found, and the parser's places
/// only move forward, so a whole parse walks each byte a bounded number of times — a dump
/// on one line (as `uiautomator dump` writes it) costs no more than one on many.
struct TagPositions {
    var lines: LineStarts
    /// The byte offset of (`line`, `column`), the last place asked for.
    private(set) var offset = 0
    private(set) var line = 1
    private(set) var column = 1
    /// Bytes stepped over forward and back, for the test that the walk is linear.
    private(set) var bytesWalked = 0

    init(_ bytes: [UInt8]) { lines = LineStarts(bytes) }

    var bytes: [UInt8] { lines.bytes }

    /// The byte offset of a line and character column, clamped to the line and the file.
    mutating func offset(line wanted: Int, column wantedColumn: Int) -> Int {
        if wanted != line || wantedColumn < column {
            // Another line, or back on this one (not in the parser's order): from its start.
            guard let start = lines.start(ofLine: wanted) else { return offset }
            (offset, line, column) = (start, wanted, 1)
        }
        let bytes = lines.bytes
        while column < wantedColumn, offset < bytes.count, bytes[offset] != 0x0A {
            offset += 1
            while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
            column += 1
            bytesWalked += 1
        }
        return offset
    }

    /// The position of the `<` before libxml2's (`line`, `column`).
    mutating func tagStart(line reportedLine: Int, column reportedColumn: Int) -> DumpPosition {
        let bytes = lines.bytes
        guard !bytes.isEmpty else { return DumpPosition(line: 1, column: 1) }
        let end = min(offset(line: reportedLine, column: reportedColumn), bytes.count - 1)
        var index = end
        var charactersBack = 0, newlinesBack = 0
        while index > 0, bytes[index] != UInt8(ascii: "<") {
            if bytes[index] == 0x0A { newlinesBack += 1 }
            if bytes[index] & 0xC0 != 0x80 { charactersBack += 1 }
            index -= 1
        }
        bytesWalked += end - index
        if newlinesBack == 0 {
            // `end` is at (line, column) unless the line ended first: then count what is there.
            let columnAtEnd = end == offset ? column : column - 1
            return DumpPosition(line: line, column: max(1, columnAtEnd - charactersBack))
        }
        // The tag spans lines: count the characters of its first line up to the `<`.
        let tagLine = line - newlinesBack
        var cursor = lines.start(ofLine: tagLine) ?? 0
        var tagColumn = 1
        while cursor < index {
            if bytes[cursor] & 0xC0 != 0x80 { tagColumn += 1 }
            cursor += 1
        }
        bytesWalked += cursor - (lines.start(ofLine: tagLine) ?? 0)
        return DumpPosition(line: tagLine, column: tagColumn)
    }
}

/// The text as the stream XMLParser reads in chunks, straight from the array: `Data` and
/// `InputStream(data:)` would each copy a file of up to 128 MiB first.
final class ByteStream: InputStream {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { offset < bytes.count }
    override var streamStatus: Stream.Status { offset < bytes.count ? .open : .atEnd }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        let count = min(max(maxLength, 0), bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { source in
            buffer.update(from: source.baseAddress! + offset, count: count)
        }
        offset += count
        return count
    }
}

/// The SAX delegate: a stack of open elements, with the node and depth bounds checked as the
/// parser goes (aborting at once, so a huge file is not walked to its end).
final class TreeBuilder: NSObject, XMLParserDelegate {
    let file: String
    let limits: DumpLimits
    var stack: [DumpNode] = []
    var root: DumpNode?
    var problem: DumpProblem?
    /// The first error libxml2 reported: its number, line and column.
    var xmlError: (code: Int, line: Int, column: Int)?
    var nodeCount = 0
    var positions: TagPositions

    init(bytes: [UInt8], file: String, limits: DumpLimits) {
        positions = TagPositions(bytes)
        self.file = file
        self.limits = limits
    }

    var openElements: Int { stack.count }

    /// Runs the parser over the text (UTF-8, no document type declaration: `DumpDocument.parse`
    /// checked both), and gives the tree or the first problem.
    func parse() -> Result<DumpNode, DumpProblem> {
        let origin = DumpPosition(line: 1, column: 1)
        let parser = XMLParser(stream: ByteStream(positions.bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = self
        let finished = parser.parse()
        if let problem { return .failure(problem) }
        // libxml2 recovers from errors and goes on (parse() can still say true): the first error
        // the delegate heard is the one reported.
        if !finished || xmlError != nil || parser.parserError != nil {
            let (code, line, column) = xmlError ?? ((parser.parserError as NSError?)?.code ?? 0, parser.lineNumber, parser.columnNumber)
            let position = clamp(line: line, column: column)
            let message = isAtEnd(position)
                ? "the file ends before the XML is complete (truncated?): \(openElements) element\(openElements == 1 ? "" : "s") still open"
                : "the XML is malformed here (libxml2 error \(code)\(XMLErrorText.describe(code).map { ": " + $0 } ?? ""))"
            return .failure(DumpProblem(file: file, position: position, message: message))
        }
        guard let root else {
            return .failure(DumpProblem(file: file, position: origin, message: "the file holds no XML element; expected an XML accessibility dump"))
        }
        return .success(root)
    }

    func clamp(line: Int, column: Int) -> DumpPosition {
        let safeLine = positions.lines.start(ofLine: max(line, 1)) == nil ? positions.lines.count() : max(line, 1)
        return DumpPosition(line: safeLine, column: max(column, 1))
    }

    /// Whether `position` is on the last non-blank line of the file (libxml2 reports a
    /// truncated file at its end), with elements still open.
    func isAtEnd(_ position: DumpPosition) -> Bool {
        let bytes = positions.bytes
        var last = bytes.count
        while last > 0, DumpEncoding.isBlank(bytes[last - 1]) { last -= 1 }
        guard stack.count > 0 else { return false }
        // No line after this one starts before the last non-blank byte.
        guard let next = positions.lines.start(ofLine: Int(position.line) + 1) else { return true }
        return next >= last
    }

    /// The position of the `<` that opens the element whose start tag the parser just read.
    func startTagPosition(_ parser: XMLParser) -> DumpPosition {
        positions.tagStart(line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
    }

    func fail(_ parser: XMLParser, _ position: DumpPosition, _ message: String) {
        guard problem == nil else { return }
        problem = DumpProblem(file: file, position: position, message: message)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        guard problem == nil else { return }
        let position = startTagPosition(parser)
        nodeCount += 1
        if nodeCount > limits.maxNodes {
            fail(parser, position, "the dump has more than \(limits.maxNodes) elements; it is refused")
            return
        }
        if stack.count >= limits.maxXMLDepth {
            fail(parser, position, "elements are nested more than \(limits.maxXMLDepth) deep; it is refused")
            return
        }
        for (name, value) in attributes where value.count > limits.maxStringLength {
            fail(parser, position, "attribute \(name) is \(value.count) characters long; at most \(limits.maxStringLength) are accepted")
            return
        }
        stack.append(DumpNode(name: elementName, attributes: attributes, position: position))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard problem == nil, let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard xmlError == nil else { return }
        xmlError = ((parseError as NSError).code, parser.lineNumber, parser.columnNumber)
        parser.abortParsing()
    }

    // The prolog's scan refuses a document type declaration before the parse; these are the
    // parser's own word for one, should any reach it (Foundation on macOS reports entity
    // declarations; on Linux it reports element, attribute, notation and unparsed entity ones).
    func refuseDeclaration(_ parser: XMLParser, _ what: String) {
        fail(parser, clamp(line: parser.lineNumber, column: parser.columnNumber),
             "a document type declaration is not accepted in a dump (\(what))")
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        refuseDeclaration(parser, "entity '\(DumpConverter.shown(name))'")
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        refuseDeclaration(parser, "external entity '\(DumpConverter.shown(name))'")
    }

    func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?, systemID: String?, notationName: String?) {
        refuseDeclaration(parser, "entity '\(DumpConverter.shown(name))'")
    }

    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
        refuseDeclaration(parser, "element declaration '\(DumpConverter.shown(elementName))'")
    }

    func parser(_ parser: XMLParser, foundAttributeDeclarationWithName attributeName: String, forElement elementName: String, type: String?, defaultValue: String?) {
        refuseDeclaration(parser, "attribute declaration '\(DumpConverter.shown(attributeName))'")
    }

    func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?) {
        refuseDeclaration(parser, "notation '\(DumpConverter.shown(name))'")
    }

    /// An entity reference that is neither one of XML's five nor a character reference (the
    /// parser asks before it reports the entity as undeclared).
    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        fail(parser, clamp(line: parser.lineNumber, column: parser.columnNumber),
             "entity '&\(DumpConverter.shown(name));' is not XML's own (&lt; &gt; &amp; &quot; &apos;) or a character reference (&#…;); a dump has no other entities")
        return nil
    }
}
