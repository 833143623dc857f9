import DumpImport
import Foundation
import Testing

/// Every broken dump is refused with its line and column and what was expected; none traps.
@Suite("Broken dumps")
struct ImportErrorTests {
    static let button = #"enabled="true" visible="true" accessible="true""#

    @Test("malformed XML: where libxml2 stopped")
    func malformed() throws {
        let found = try #require(problem("<AppiumAUT>\n  <XCUIElementTypeApplication x=\"0\" y=0>\n</AppiumAUT>"))
        #expect(found.position.line == 2)
        #expect(found.message.contains("malformed"))
    }

    @Test("a truncated file says so, at its end")
    func truncated() throws {
        let full = iosDump(iosElement("Button", #"name="a" label="A" \#(Self.button) x="0" y="0" width="10" height="10""#))
        let cut = String(full.prefix(full.count - 40))
        let found = try #require(problem(cut))
        #expect(found.message.contains("ends before the XML is complete"))
        #expect(found.position.line >= 4)
    }

    @Test("an unknown element type is named at its start tag")
    func unknownType() throws {
        let found = try #require(problem(iosDump(
            "<XCUIElementTypeGizmo type=\"XCUIElementTypeGizmo\" x=\"0\" y=\"0\" width=\"1\" height=\"1\"/>")))
        #expect(found.position == DumpPosition(line: 4, column: 1))
        #expect(found.message.contains("unknown element type 'XCUIElementTypeGizmo'"))
        let android = try #require(problem(androidDump("<widget bounds=\"[0,0][1,1]\"/>")))
        #expect(android.position == DumpPosition(line: 4, column: 1))
        #expect(android.message.contains("unknown element type 'widget'"))
        let root = try #require(problem("<html><body/></html>"))
        #expect(root.position == DumpPosition(line: 1, column: 1))
        #expect(root.message.contains("unknown element type 'html' at the root"))
    }

    @Test("impossible frames: a negative width, bounds that end before they start, an empty screen")
    func impossibleFrames() throws {
        let negative = try #require(problem(iosDump(iosElement("Button", #"\#(Self.button) x="0" y="0" width="-5" height="10""#))))
        #expect(negative.message.contains("impossible frame"))
        #expect(negative.position.line == 4)
        let backwards = try #require(problem(androidDump(androidNode(#"class="android.widget.Button""#, bounds: "[500,0][100,100]"))))
        #expect(backwards.message.contains("impossible frame"))
        let badShape = try #require(problem(androidDump(androidNode(#"class="android.widget.Button""#, bounds: "[0,0,100,100]"))))
        #expect(badShape.message.contains("[x1,y1][x2,y2]"))
        let empty = try #require(problem("<hierarchy><node class=\"a\" bounds=\"[0,0][0,0]\"/></hierarchy>"))
        #expect(empty.message.contains("impossible screen size"))
    }

    @Test("numbers: not a number, NaN, hexadecimal, exponent and out of range are refused")
    func numbers() throws {
        for value in ["wide", "nan", "0x10", "1e3", "", "1.2.3", "99999999"] {
            let found = try #require(problem(iosDump(iosElement("Button", #"\#(Self.button) x="0" y="0" width="\#(value)" height="10""#))), "\(value)")
            #expect(found.message.contains("width"), "\(value)")
            #expect(found.position.line == 4)
        }
        let android = try #require(problem(androidDump(androidNode(#"class="a""#, bounds: "[0,0][1e9,10]"))))
        #expect(android.message.contains("bounds"))
    }

    @Test("booleans are true or false")
    func booleans() throws {
        let found = try #require(problem(iosDump(iosElement("Button", #"enabled="yes" visible="true" accessible="true" x="0" y="0" width="10" height="10""#))))
        #expect(found.message.contains("attribute enabled must be true or false; found 'yes'"))
    }

    @Test("sizes are bounded as scenes are: elements, nesting, string length, file size")
    func bounds() throws {
        var small = DumpLimits()
        small.maxNodes = 5
        let many = iosDump((0..<10).map { iosElement("Button", #"\#(Self.button) x="0" y="\#($0 * 10)" width="10" height="10""#) }.joined(separator: "\n"))
        #expect(try #require(problem(many, limits: small)).message.contains("more than 5 elements"))
        let deep = String(repeating: "<XCUIElementTypeOther type=\"XCUIElementTypeOther\" x=\"0\" y=\"0\" width=\"10\" height=\"10\">", count: 300)
        #expect(try #require(problem("<AppiumAUT>" + deep)).message.contains("nested more than 256"))
        let long = String(repeating: "a", count: 10_001)
        #expect(try #require(problem(iosDump(iosElement("Button", #"label="\#(long)" \#(Self.button) x="0" y="0" width="10" height="10""#)))).message.contains("at most 10000"))
        var tiny = DumpLimits()
        tiny.maxBytes = 100
        #expect(try #require(problem(many, limits: tiny)).message.contains("at most 100 are accepted"))
    }

    @Test("more than 64 levels after folding is refused at the deepest element")
    func sceneDepth() throws {
        var body = ""
        for level in 0..<70 {
            body += iosElement("Other", #"name="g\#(level)" label="G\#(level)" enabled="true" visible="true" accessible="false" x="0" y="0" width="100" height="100""#, close: false) + "\n"
        }
        body += iosElement("Button", #"label="Deep" \#(Self.button) x="0" y="0" width="10" height="10""#) + "\n"
        body += String(repeating: "</XCUIElementTypeOther>\n", count: 70)
        let found = try #require(problem(iosDump(body)))
        #expect(found.message.contains("nested 71 deep"))
    }

    @Test("entity declarations are refused (no entity expansion)")
    func entities() throws {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
            <hierarchy><node class="a" text="&lol2;" bounds="[0,0][10,10]"/></hierarchy>
            """
        let found = try #require(problem(bomb))
        #expect(found.message.contains("entit"))
        #expect(found.position.line == 2)
    }

    @Test("an empty file, a --format that disagrees with the content")
    func emptyAndFormat() throws {
        #expect(try #require(problem("  \n")).message.contains("the file is empty"))
        let android = androidDump(androidNode(#"class="a" text="A" clickable="true""#, bounds: "[0,0][10,10]"))
        #expect(try #require(problem(android, format: .ios)).message.contains("--format ios was given, but the file is an Android UI Automator dump"))
    }

    @Test("bytes that are not UTF-8 are refused, not trapped on")
    func notUTF8() throws {
        var bytes = Array(iosDump(iosElement("Button", #"label="A" \#(Self.button) x="0" y="0" width="10" height="10""#)).utf8)
        bytes.insert(0xFF, at: bytes.count - 30)
        guard case .failure = DumpImporter.screen(bytes: bytes, file: "bad.xml") else {
            Issue.record("accepted bytes that are not UTF-8")
            return
        }
    }
}
