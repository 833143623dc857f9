@testable import DumpImport
import Foundation
import Testing

/// Large dumps: what docs/importing.md allows is read, and what is refused is refused at the
/// first error or bound, by work that grows with the file (counted, not timed).
@Suite("Dump sizes")
struct DumpSizeTests {
    /// `count` clickable Android nodes, each with a `package` attribute of `padding` characters,
    /// on one line as `uiautomator dump` writes it, or one node a line.
    static func androidSiblings(_ count: Int, padding: Int = 0, oneLine: Bool = true) -> String {
        let package = String(repeating: "p", count: padding)
        let nodes = (0..<count).map {
            #"<node index="\#($0)" text="Item \#($0)" class="android.widget.Button" package="\#(package)" clickable="true" bounds="[0,\#($0 % 2000)][100,\#($0 % 2000 + 1)]"/>"#
        }
        let separator = oneLine ? "" : "\n"
        return #"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">"#
            + separator + nodes.joined(separator: separator) + separator + "</node></hierarchy>"
    }

    @Test("a well-formed dump over 10,000,000 bytes (libxml2's limit on one read) imports")
    func overTenMegabytes() throws {
        let text = Self.androidSiblings(1_150, padding: 9_000)
        #expect(text.utf8.count > 10_400_000)
        let screen = try DumpImporter.screen(bytes: Array(text.utf8), file: "big.xml").get()
        #expect(screen.elementCount == 1_150)
    }

    @Test("an error on line 2 of a large file is reported there, from the first chunk the parser reads")
    func earlyError() throws {
        let body = Self.androidSiblings(120_000, oneLine: false)
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[1] = lines[1].replacingOccurrences(of: "text=\"Item 0\"", with: "text=Item 0")
        let bytes = Array(lines.joined(separator: "\n").utf8)
        #expect(bytes.count > 14_000_000)
        let builder = TreeBuilder(bytes: bytes, file: "big.xml", limits: .standard)
        let found = try #require(builder.parse().failure)
        #expect(found.position.line == 2)
        #expect(found.message.contains("malformed"))
        // The tree and the line index stopped at the error, not at the end of the file.
        #expect(builder.nodeCount < 10)
        #expect(builder.positions.lines.starts.count < 10)
    }

    @Test("a nest deeper than the bound stops at the bound")
    func deepNest() throws {
        let open = #"<XCUIElementTypeOther type="XCUIElementTypeOther" x="0" y="0" width="10" height="10">"#
        let text = "<AppiumAUT>\n" + String(repeating: open + "\n", count: 100_000) + String(repeating: "</XCUIElementTypeOther>\n", count: 100_000) + "</AppiumAUT>\n"
        let builder = TreeBuilder(bytes: Array(text.utf8), file: "deep.xml", limits: .standard)
        let found = try #require(builder.parse().failure)
        #expect(found.message.contains("nested more than 256 deep"))
        #expect(found.position == DumpPosition(line: 257, column: 1))
        #expect(builder.nodeCount == 257)
        #expect(builder.positions.lines.starts.count < 300)
    }

    @Test("start tags on one long line are placed by a walk that grows with the line, not its square")
    func oneLinePositions() throws {
        func walked(_ count: Int) throws -> (bytes: Int, walked: Int, positions: [DumpPosition]) {
            let bytes = Array(Self.androidSiblings(count).utf8)
            let builder = TreeBuilder(bytes: bytes, file: "a.xml", limits: .standard)
            let root = try builder.parse().get()
            let positions = root.children[0].children.map(\.position)
            return (bytes.count, builder.positions.bytesWalked, positions)
        }
        let small = try walked(1_000), large = try walked(4_000)
        // Each byte is walked a bounded number of times (forward to libxml2's place, back to `<`).
        #expect(small.walked <= 3 * small.bytes)
        #expect(large.walked <= 3 * large.bytes)
        // And the places are right: the n-th node's `<` on line 1.
        let header = #"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">"#
        let text = Self.androidSiblings(4_000)
        let third = try #require(text.range(of: #"<node index="2" "#))
        #expect(large.positions[2] == DumpPosition(line: 1, column: text.distance(from: text.startIndex, to: third.lowerBound) + 1))
        #expect(large.positions[0] == DumpPosition(line: 1, column: header.count + 1))
    }
}
