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
/// I/O: the caller read the file. Entity declarations and external entities are refused (a
/// dump never needs them, and they are how XML files grow without bound).
enum DumpDocument {
    static func parse(_ bytes: [UInt8], file: String, limits: DumpLimits) -> Result<DumpNode, DumpProblem> {
        let origin = DumpPosition(line: 1, column: 1)
        guard bytes.count <= limits.maxBytes else {
            return .failure(DumpProblem(file: file, position: origin, message: "the file is \(bytes.count) bytes; at most \(limits.maxBytes) are accepted"))
        }
        guard bytes.contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            return .failure(DumpProblem(file: file, position: origin, message: "the file is empty; expected an XML accessibility dump (XCUITest page source or UI Automator dump)"))
        }
        if let declaration = find(Array("<!DOCTYPE".utf8), in: bytes) ?? find(Array("<!ENTITY".utf8), in: bytes) {
            let position = position(ofOffset: declaration, in: bytes)
            return .failure(DumpProblem(file: file, position: position, message: "a document type declaration is not accepted in a dump (no DTD, no entities: they are how XML files grow without bound)"))
        }
        let builder = TreeBuilder(bytes: bytes, file: file, limits: limits)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        let finished = parser.parse()
        if let problem = builder.problem { return .failure(problem) }
        // libxml2 recovers from errors and goes on (parse() can still say true): the first error
        // the delegate heard is the one reported.
        if !finished || builder.xmlError != nil || parser.parserError != nil {
            let (code, line, column) = builder.xmlError ?? ((parser.parserError as NSError?)?.code ?? 0, parser.lineNumber, parser.columnNumber)
            let position = builder.clamp(line: line, column: column)
            let atEnd = builder.isAtEnd(position)
            let message = atEnd
                ? "the file ends before the XML is complete (truncated?): \(builder.openElements) element\(builder.openElements == 1 ? "" : "s") still open"
                : "the XML is malformed here (libxml2 error \(code)\(XMLErrorText.describe(code).map { ": " + $0 } ?? ""))"
            return .failure(DumpProblem(file: file, position: position, message: message))
        }
        guard let root = builder.root else {
            return .failure(DumpProblem(file: file, position: origin, message: "the file holds no XML element; expected an XML accessibility dump"))
        }
        return .success(root)
    }
}

extension DumpDocument {
    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle { return index }
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

/// The SAX delegate: a stack of open elements, with the node and depth bounds checked as the
/// parser goes (aborting at once, so a huge file is not walked to its end).
final class TreeBuilder: NSObject, XMLParserDelegate {
    let bytes: [UInt8]
    let file: String
    let limits: DumpLimits
    var stack: [DumpNode] = []
    var root: DumpNode?
    var problem: DumpProblem?
    /// The first error libxml2 reported: its number, line and column.
    var xmlError: (code: Int, line: Int, column: Int)?
    var nodeCount = 0
    /// Byte offset of each line's start, for turning libxml2's position (after the start tag)
    /// into the start tag's own position.
    lazy var lineStarts: [Int] = {
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
        return starts
    }()

    init(bytes: [UInt8], file: String, limits: DumpLimits) {
        self.bytes = bytes
        self.file = file
        self.limits = limits
    }

    var openElements: Int { stack.count }

    func clamp(line: Int, column: Int) -> DumpPosition {
        let lineCount = lineStarts.count
        let safeLine = min(max(line, 1), lineCount)
        return DumpPosition(line: safeLine, column: max(column, 1))
    }

    /// Whether `position` is on the last non-blank stretch of the file (libxml2 reports a
    /// truncated file at its end).
    func isAtEnd(_ position: DumpPosition) -> Bool {
        var last = bytes.count
        while last > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[last - 1]) { last -= 1 }
        let lastLine = lineStarts.lastIndex(where: { $0 <= max(last - 1, 0) }).map { $0 + 1 } ?? 1
        return Int(position.line) >= lastLine && stack.count > 0
    }

    /// The position of the `<` that opens the element whose start tag the parser just read.
    func startTagPosition(_ parser: XMLParser) -> DumpPosition {
        let reported = clamp(line: parser.lineNumber, column: parser.columnNumber)
        let reportedLine = Int(reported.line), reportedColumn = Int(reported.column)
        var offset = min(lineStarts[reportedLine - 1] + reportedColumn - 1, bytes.count - 1)
        while offset > 0, bytes[offset] != UInt8(ascii: "<") { offset -= 1 }
        // Back to line and column, counting UTF-8 characters (not continuation bytes).
        var lineIndex = reportedLine - 1
        while lineIndex > 0, lineStarts[lineIndex] > offset { lineIndex -= 1 }
        var column = 1
        var index = lineStarts[lineIndex]
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return DumpPosition(line: lineIndex + 1, column: column)
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

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(parser, clamp(line: parser.lineNumber, column: parser.columnNumber),
             "entity declarations are not accepted in a dump (entity '\(name)')")
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(parser, clamp(line: parser.lineNumber, column: parser.columnNumber),
             "external entities are not accepted in a dump (entity '\(name)')")
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        nil
    }
}
