@testable import DumpImport
import Foundation
import Testing

/// A dump in any encoding it may be saved in is read as its UTF-8 text is: the same scene, the
/// same positions, and a document type declaration refused wherever the bytes spell it.
@Suite("Dump encodings")
struct EncodingTests {
    enum Encoding: String, CaseIterable {
        case utf8, utf8WithMark, utf16LE, utf16BE, utf16LEWithoutMark, utf16BEWithoutMark, utf32LE, utf32BE

        /// What the XML declaration names; `sameLength`: a name as long as `UTF-8`, so that the
        /// text keeps every column of the UTF-8 text it came from.
        func declared(sameLength: Bool) -> String {
            switch self {
            case .utf8, .utf8WithMark: return "UTF-8"
            case .utf16LE, .utf16BE, .utf16LEWithoutMark, .utf16BEWithoutMark: return sameLength ? "UTF16" : "UTF-16"
            case .utf32LE, .utf32BE: return sameLength ? "UTF32" : "UTF-32"
            }
        }

        /// `text` (whose declaration says UTF-8) saved in this encoding, its declaration saying so.
        func encode(_ text: String, sameLength: Bool = false) -> [UInt8] {
            let declared = declared(sameLength: sameLength)
            let declaring = text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"\(declared)\"")
                .replacingOccurrences(of: "encoding='UTF-8'", with: "encoding='\(declared)'")
            func units16(_ text: String, big: Bool) -> [UInt8] {
                text.utf16.flatMap { big ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            }
            func units32(_ text: String, big: Bool) -> [UInt8] {
                text.unicodeScalars.flatMap { scalar -> [UInt8] in
                    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (8 * UInt32($0))) }
                    return big ? bytes.reversed() : bytes
                }
            }
            switch self {
            case .utf8: return Array(declaring.utf8)
            case .utf8WithMark: return [0xEF, 0xBB, 0xBF] + Array(declaring.utf8)
            case .utf16LE: return units16("\u{FEFF}" + declaring, big: false)
            case .utf16BE: return units16("\u{FEFF}" + declaring, big: true)
            case .utf16LEWithoutMark: return units16(declaring, big: false)
            case .utf16BEWithoutMark: return units16(declaring, big: true)
            case .utf32LE: return units32("\u{FEFF}" + declaring, big: false)
            case .utf32BE: return units32("\u{FEFF}" + declaring, big: true)
            }
        }
    }

    static let entityDump = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE AppiumAUT [<!ENTITY big "Expanded entity text">]>
        <AppiumAUT>
          <XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" label="App" enabled="true" visible="true" accessible="false" x="0" y="0" width="390" height="844">
            <XCUIElementTypeButton type="XCUIElementTypeButton" label="&big;" enabled="true" visible="true" accessible="true" x="0" y="0" width="10" height="10"/>
          </XCUIElementTypeApplication>
        </AppiumAUT>
        """

    @Test("a document type declaration is refused at its line and column in every encoding", arguments: Encoding.allCases)
    func declarationRefused(_ encoding: Encoding) throws {
        let result = DumpImporter.screen(bytes: encoding.encode(Self.entityDump), file: "bomb.xml")
        guard case .failure(let found) = result else {
            Issue.record("\(encoding): the dump with an entity was imported")
            return
        }
        #expect(found.position == DumpPosition(line: 2, column: 1), "\(encoding)")
        #expect(found.message.contains("document type declaration"), "\(encoding): \(found.message)")
        #expect(found.description.hasPrefix("bomb.xml:2:1: error: "), "\(encoding)")
    }

    @Test("a dump in UTF-16 or UTF-32 gives the scene its UTF-8 text gives, positions included", arguments: Encoding.allCases)
    func sameScene(_ encoding: Encoding) throws {
        let text = iosDump(
            iosElement("Button", #"name="ok" label="Ok ✓ é 👍🏽" enabled="true" visible="true" accessible="true" x="0" y="0" width="10" height="10""#),
            "    " + iosElement("Button", #"name="hidden" label="H" enabled="true" visible="false" accessible="true" x="0" y="20" width="10" height="10""#))
        let expected = try imported(text)
        let screen = try DumpImporter.screen(bytes: encoding.encode(text), file: "dump.xml").get()
        let scene = try DumpImporter.scene(title: "T", screens: [screen], file: "out.yaml").get()
        #expect(scene.text == expected.text, "\(encoding)")
        #expect(screen.skipped.map(\.position) == [DumpPosition(line: 5, column: 5)], "\(encoding)")
    }

    @Test("a dump on one line (the declaration first) keeps every column in every encoding", arguments: Encoding.allCases)
    func oneLine(_ encoding: Encoding) throws {
        let text = DumpSizeTests.androidSiblings(3)
        let expected = try imported(text)
        let screen = try DumpImporter.screen(bytes: encoding.encode(text, sameLength: true), file: "dump.xml").get()
        let scene = try DumpImporter.scene(title: "T", screens: [screen], file: "out.yaml").get()
        #expect(scene.text == expected.text, "\(encoding)")
    }

    @Test("a `<!DOCTYPE` inside a comment is no declaration; one after comments and instructions is")
    func prolog() throws {
        let commented = iosDump(iosElement("Button", #"label="A" enabled="true" visible="true" accessible="true" x="0" y="0" width="10" height="10""#))
            .replacingOccurrences(of: "<AppiumAUT>", with: "<!-- <!DOCTYPE x [<!ENTITY a 'b'>]> -->\n<AppiumAUT>")
        _ = try imported(commented)
        let late = "<?xml version=\"1.0\"?>\n<!-- a comment -->\n<?page source?>\n  <!DOCTYPE AppiumAUT>\n<AppiumAUT/>"
        let found = try #require(problem(late))
        #expect(found.position == DumpPosition(line: 4, column: 3))
        #expect(found.message.contains("document type declaration"))
    }

    @Test("an entity other than XML's five is refused where it is used")
    func undeclaredEntity() throws {
        let found = try #require(problem(iosDump(iosElement("Button", #"label="&nbsp;" enabled="true" visible="true" accessible="true" x="0" y="0" width="10" height="10""#))))
        #expect(found.position.line == 4)
        #expect(found.message.contains("entity '&nbsp;'"))
        let predefined = try imported(iosDump(iosElement("Button", #"name="x" label="&lt;&amp;&#233;&gt;" enabled="true" visible="true" accessible="true" x="0" y="0" width="10" height="10""#)))
        #expect(predefined.text.contains(#"label: "<&é>""#))
    }

    @Test("an encoding the bytes do not match, or one a dump is not read in, is refused at the declaration")
    func declaredEncoding() throws {
        let dump = iosDump(iosElement("Button", #"label="A" enabled="true" visible="true" accessible="true" x="0" y="0" width="10" height="10""#))
        let latin = try #require(problem(dump.replacingOccurrences(of: "UTF-8", with: "ISO-8859-1")))
        #expect(latin.position == DumpPosition(line: 1, column: 31))
        #expect(latin.message.contains("encoding 'ISO-8859-1'"))
        _ = try imported(dump.replacingOccurrences(of: "UTF-8", with: "US-ASCII"))
        let noMark = try #require(problem(dump.replacingOccurrences(of: "UTF-8", with: "UTF-16")))
        #expect(noMark.message.contains("no byte order mark"))
        // EBCDIC's `<?xm`, which libxml2 would decode as EBCDIC.
        guard case .failure(let ebcdic) = DumpImporter.screen(bytes: [0x4C, 0x6F, 0xA7, 0x94, 0x40], file: "e.xml") else {
            Issue.record("EBCDIC was accepted")
            return
        }
        #expect(ebcdic.message.contains("not XML text in UTF-8, UTF-16 or UTF-32"))
    }

    @Test("UTF-16 that is not text (a lone surrogate, an odd byte) is refused at its line and column")
    func brokenUTF16() throws {
        let text = Encoding.utf16LE.encode(iosDump(iosElement("Button", #"label="Q" enabled="true" visible="true" accessible="true" x="0" y="0" width="10" height="10""#)))
        var bytes = text
        let label = try #require(bytes.indices.first { bytes[$0] == UInt8(ascii: "Q") && bytes[$0 - 2] == UInt8(ascii: "\"") })
        bytes[label] = 0x00
        bytes[label + 1] = 0xDC
        let surrogate = try #require(DumpImporter.screen(bytes: bytes, file: "s.xml").failure)
        #expect(surrogate.position.line == 4)
        #expect(surrogate.message.contains("U+DC00, which is not a character"))
        let odd = try #require(DumpImporter.screen(bytes: Array(text.dropLast()), file: "s.xml").failure)
        #expect(odd.message.contains("ends inside a character"))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
