import Documents
import Testing

/// The shared document reader: every file kind's bytes become nodes here, so its refusals are
/// checked once, each with its exact message and place.
@Suite("Documents: the one reader of YAML and JSON")
struct DocumentReaderTests {
    /// The problems of reading `text` as a document, as `file:line:column: error: …`.
    func problems(_ text: String, maxNodes: Int = 1_000_000, maxBytes: Int = 1 << 20) -> [String] {
        let reader = DocumentReader(file: "f.yaml", maxNodes: maxNodes, maxStringLength: 1000)
        _ = reader.readDocument(text, maxBytes: maxBytes, expected: "a test document")
        return reader.sortedProblems.map(\.description)
    }

    @Test("a tab in the indentation is named as a tab, at its place")
    func tabs() {
        #expect(problems("a:\n\tb: 1\n") == ["f.yaml:2:1: error: a tab character: YAML indents with spaces only; replace the tab with spaces"])
        #expect(problems("a:\n  b: 1\n  \tc: 2\n") == ["f.yaml:3:3: error: a tab character: YAML indents with spaces only; replace the tab with spaces"])
        // A tab inside a value is text, not indentation.
        #expect(problems("a: \"x\ty\"\n").isEmpty)
    }

    @Test("a UTF-8 byte order mark at the start is accepted before a key, a comment or JSON, and positions do not count it")
    func byteOrderMark() {
        let mark = "\u{FEFF}"
        // Before a key on line 1: the mapping goes on at line 2 (it broke there, at 2:1).
        #expect(problems(mark + "loops: 2\nspeed: 3\n").isEmpty)
        #expect(problems(mark + "# settings\nloops: 2\n").isEmpty)
        #expect(problems(mark + "{\"loops\": 2}").isEmpty)
        // Places after it are those an editor shows: the second key of line 1 at column 8.
        #expect(problems(mark + "{a: 1, a: 2}\n") == ["f.yaml:1:8: error: duplicate key 'a' in one mapping (first at line 1); each key may appear once"])
        #expect(problems(mark + "loops: 2\nloops: 3\n") == ["f.yaml:2:1: error: duplicate key 'loops' in one mapping (first at line 1); each key may appear once"])
        let reader = DocumentReader(file: "f.yaml", maxNodes: 1000, maxStringLength: 1000)
        let root = reader.readDocument(mark + "loops: 2\n", maxBytes: 1 << 20, expected: "a test document")
        guard case .mapping(let pairs, _)? = root, let key = pairs.first?.key, case .scalar(let name, _, let at) = key else {
            Issue.record("not a mapping: \(String(describing: root))")
            return
        }
        #expect(name == "loops")
        #expect(at == TextPosition(line: 1, column: 1))
    }

    @Test("a byte order mark is not a column when the bytes are checked as UTF-8")
    func byteOrderMarkInDecoding() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("ab".utf8) + [0xFF]
        guard case .failure(let error) = DocumentText.decode(bytes) else {
            Issue.record("0xFF decoded")
            return
        }
        #expect(error.position == TextPosition(line: 1, column: 3))
    }

    @Test("duplicate keys are refused in YAML and strict JSON alike, at the second one")
    func duplicateKeys() {
        #expect(problems("loops: 2\nloops: 3\n") == ["f.yaml:2:1: error: duplicate key 'loops' in one mapping (first at line 1); each key may appear once"])
        #expect(problems("{\"loops\": 2,\n \"loops\": 3}\n") == ["f.yaml:2:2: error: duplicate key 'loops' in one mapping (first at line 1); each key may appear once"])
        #expect(problems("{\"a\": {\"b\": 1, \"b\": 2}}") == ["f.yaml:1:16: error: duplicate key 'b' in one mapping (first at line 1); each key may appear once"])
        // The same key in two mappings is fine.
        #expect(problems("{\"a\": {\"b\": 1}, \"c\": {\"b\": 2}}").isEmpty)
        // YAML flow mappings, quoted keys and keys given by an alias are named at the second use
        // too; of two keys given twice, the one given again first in the file.
        #expect(problems("{a: 1, b: 2, 'a': 3}\n") == ["f.yaml:1:14: error: duplicate key 'a' in one mapping (first at line 1); each key may appear once"])
        #expect(problems("b: 1\na: 1\nx: 0\na: 2\nb: 2\n") == ["f.yaml:4:1: error: duplicate key 'a' in one mapping (first at line 2); each key may appear once"])
        #expect(problems("k: &name n\nm:\n  n: 1\n  *name : 2\n") == ["f.yaml:4:3: error: duplicate key 'n' in one mapping (first at line 3); each key may appear once"])
        // A key written plain and the same text with an explicit other tag are different keys.
        #expect(problems("1: a\n!!int 1: b\n").isEmpty)
    }

    @Test("lists and mappings nested deeper than 1000 levels are refused where the 1001st starts, however deep")
    func nesting() {
        let refusal = "error: invalid YAML: lists and mappings nested deeper than 1000 levels; the file is refused"
        // The top mapping is the first level.
        #expect(problems("a: " + String(repeating: "[", count: 999) + String(repeating: "]", count: 999) + "\n").isEmpty)
        #expect(problems("a: " + String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000) + "\n") == ["f.yaml:1:1003: " + refusal])
        #expect(problems("a: " + String(repeating: "{b: ", count: 100_000)) == ["f.yaml:1:4000: " + refusal])
    }

    @Test("the node budget comes from the document's own size")
    func nodeBudget() {
        #expect(DocumentReader.nodeBudget(byteCount: 316, limit: 20_000_000) == 10_316)
        #expect(DocumentReader.nodeBudget(byteCount: 156_000, limit: 20_000_000) == 166_000)
        #expect(DocumentReader.nodeBudget(byteCount: 156_000, limit: 100_000) == 100_000)
        // Ten aliases per level, six levels: a million nodes from a file of a few hundred bytes.
        var lines = ["a0: &a0 [x]"]
        for level in 1...6 { lines.append("a\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", "))]") }
        let text = lines.joined(separator: "\n") + "\n"
        let budget = text.utf8.count + 10_000
        #expect(problems(text) == [
            "f.yaml:1:1: error: the file has more than \(budget) YAML nodes (aliases count each time they are used; a file's nodes are bounded by its size in bytes plus 10000, at most 1000000); it is refused",
        ])
    }

    @Test("a file larger than its kind allows is refused before it is parsed")
    func size() {
        #expect(problems(String(repeating: "a", count: 100), maxBytes: 64) == ["f.yaml:1:1: error: the file is 100 bytes; at most 64 are accepted"])
    }

    @Test("bytes that are not UTF-8: the line and column of the first bad byte, and what is wrong")
    func utf8() {
        func decode(_ bytes: [UInt8]) -> String? {
            guard case .failure(let error) = DocumentText.decode(bytes) else { return nil }
            return "\(error.position.line):\(error.position.column): \(error.message ?? "")"
        }
        #expect(decode(Array("a: b\nc: d".utf8) + [0xFF, 0x0A]) == "2:5: the file is not UTF-8 text: byte 0xFF cannot start a character; save the file as UTF-8")
        // Columns count characters: é is one.
        #expect(decode(Array("é: ".utf8) + [0xC3, 0x28]) == "1:4: the file is not UTF-8 text: byte 0xC3 starts a character that byte 2 of it does not continue; save the file as UTF-8")
        #expect(decode(Array("ab".utf8) + [0xE2, 0x82]) == "1:3: the file is not UTF-8 text: byte 0xE2 starts a character the file cuts short; save the file as UTF-8")
        #expect(decode([0xC0, 0x80]) == "1:1: the file is not UTF-8 text: byte 0xC0 starts a sequence that is not a Unicode character (overlong, a surrogate, or past U+10FFFF); save the file as UTF-8")
        #expect(decode([0xED, 0xA0, 0x80]) == "1:1: the file is not UTF-8 text: byte 0xED starts a sequence that is not a Unicode character (overlong, a surrogate, or past U+10FFFF); save the file as UTF-8")
        #expect(decode(Array("fine\r\nstill fine\n".utf8)) == nil)
    }

    @Test("CRLF line ends read as line ends: positions count lines, not CRs")
    func crlf() {
        #expect(problems("a: 1\r\nb: [\r\n") .first?.hasPrefix("f.yaml:3:1: error: invalid YAML") == true)
        #expect(problems("a: 1\r\na: 2\r\n") == ["f.yaml:2:1: error: duplicate key 'a' in one mapping (first at line 1); each key may appear once"])
    }

    @Test("whole numbers are range-checked before they are converted", arguments: [
        ("9223372036854775808", "f.yaml:1:1: error: a count must be a whole number from 1 to 255; found 9223372036854775808"),
        ("1e300", "f.yaml:1:1: error: a count must be a whole number from 1 to 255; found 1e300"),
        ("2.5", "f.yaml:1:1: error: a count must be a whole number from 1 to 255; found 2.5"),
        ("0", "f.yaml:1:1: error: a count must be a whole number from 1 to 255; found 0"),
        ("many", "f.yaml:1:1: error: expected a whole number from 1 to 255 for a count, found 'many'"),
    ])
    func wholeNumbers(text: String, message: String) {
        let reader = DocumentReader(file: "f.yaml", maxNodes: 100, maxStringLength: 100)
        let node = DocumentNode.scalar(text, isPlain: true, TextPosition(line: 1, column: 1))
        #expect(reader.wholeNumber(node, "a count", in: 1...255) == nil)
        #expect(reader.problems.map(\.description) == [message])
        let fine = DocumentReader(file: "f.yaml", maxNodes: 100, maxStringLength: 100)
        #expect(fine.wholeNumber(.scalar("40", isPlain: true, TextPosition(line: 1, column: 1)), "a count", in: 1...255) == 40)
    }
}
