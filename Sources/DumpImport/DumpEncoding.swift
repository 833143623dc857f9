/// The bytes a dump is parsed from: always UTF-8 without a byte order mark, whatever the file
/// was saved in. libxml2 reads many encodings (UTF-16, UTF-32, EBCDIC, Latin-1, anything iconv
/// knows) from the byte order mark, the first four bytes or the XML declaration; the import
/// decodes the ones a dump is written in itself and refuses the rest, so that the parser only
/// ever sees the UTF-8 text the import's own checks (the prolog's scan for a document type
/// declaration, positions in characters) read.
enum DumpEncoding {
    /// What the file's first bytes say it is.
    enum Form: Equatable {
        case utf8(bomLength: Int)
        case utf16(bigEndian: Bool, bomLength: Int)
        case utf32(bigEndian: Bool, bomLength: Int)

        var name: String {
            switch self {
            case .utf8: return "UTF-8"
            case .utf16(let big, _): return big ? "UTF-16BE" : "UTF-16LE"
            case .utf32(let big, _): return big ? "UTF-32BE" : "UTF-32LE"
            }
        }

        /// The encoding names an XML declaration may give for this form (lower case).
        var declaredNames: Set<String> {
            switch self {
            // ASCII is UTF-8's first 128 characters: libxml2 reads the same bytes the same way.
            case .utf8: return ["utf-8", "utf8", "us-ascii", "ascii"]
            case .utf16(let big, _): return ["utf-16", "utf16", big ? "utf-16be" : "utf-16le", "ucs-2", "iso-10646-ucs-2"]
            case .utf32(let big, _): return ["utf-32", "utf32", big ? "utf-32be" : "utf-32le", "ucs-4", "iso-10646-ucs-4"]
            }
        }
    }

    /// The form from a byte order mark, or from how `<` starts the file (libxml2 takes UTF-16
    /// and UTF-32 without a mark from the same signs).
    static func form(_ bytes: [UInt8]) -> Form {
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return .utf32(bigEndian: true, bomLength: 4)
        case (0xFF, 0xFE, 0x00, 0x00): return .utf32(bigEndian: false, bomLength: 4)
        case (0x00, 0x00, 0x00, 0x3C): return .utf32(bigEndian: true, bomLength: 0)
        case (0x3C, 0x00, 0x00, 0x00): return .utf32(bigEndian: false, bomLength: 0)
        case (0xEF, 0xBB, 0xBF, _): return .utf8(bomLength: 3)
        case (0xFE, 0xFF, _, _): return .utf16(bigEndian: true, bomLength: 2)
        case (0xFF, 0xFE, _, _): return .utf16(bigEndian: false, bomLength: 2)
        case (0x00, 0x3C, _, _): return .utf16(bigEndian: true, bomLength: 0)
        case (0x3C, 0x00, _, _): return .utf16(bigEndian: false, bomLength: 0)
        default: return .utf8(bomLength: 0)
        }
    }

    /// The file as UTF-8 bytes without a mark, its XML declaration naming no other encoding;
    /// or why not.
    /// UTF-8 input is not checked here (libxml2 reports a byte that is not UTF-8 where it is).
    static func utf8(_ bytes: [UInt8], file: String) -> Result<[UInt8], DumpProblem> {
        let form = form(bytes)
        var text: [UInt8]
        switch form {
        case .utf8(let bomLength):
            text = bomLength == 0 ? bytes : Array(bytes[bomLength...])
        case .utf16(let bigEndian, let bomLength):
            switch transcode(bytes, from: bomLength, unitSize: 2, bigEndian: bigEndian, file: file, form: form) {
            case .success(let out): text = out
            case .failure(let problem): return .failure(problem)
            }
        case .utf32(let bigEndian, let bomLength):
            switch transcode(bytes, from: bomLength, unitSize: 4, bigEndian: bigEndian, file: file, form: form) {
            case .success(let out): text = out
            case .failure(let problem): return .failure(problem)
            }
        }
        // What libxml2 would still take for another encoding from the first four bytes (NUL
        // bytes: UTF-16/32; 4C 6F A7 94: EBCDIC) is no UTF-8 text of XML.
        let head = Array(text.prefix(4))
        if head.contains(0) || head == [0x4C, 0x6F, 0xA7, 0x94] {
            return .failure(DumpProblem(file: file, position: DumpPosition(line: 1, column: 1), message: "the file starts with bytes \(head.map { hex($0) }.joined(separator: " ")), which are not XML text in UTF-8, UTF-16 or UTF-32; save the dump as UTF-8"))
        }
        if let (attribute, declared) = declaredEncoding(text) {
            let name = String(decoding: text[declared], as: UTF8.self)
            guard form.declaredNames.contains(name.lowercased()) else {
                let position = DumpDocument.position(ofOffset: declared.lowerBound, in: text)
                let message: String
                if case .utf8 = form, ["utf-16", "utf16", "utf-32", "utf32"].contains(where: { name.lowercased().hasPrefix($0) }) {
                    message = "the XML declaration says encoding '\(DumpConverter.shown(name))', but the file has no byte order mark and reads as UTF-8; save it again with its byte order mark, or as UTF-8"
                } else {
                    message = "the XML declaration says encoding '\(DumpConverter.shown(name))', but the file is \(form.name); a dump is read as UTF-8, UTF-16 or UTF-32 (save it as UTF-8)"
                }
                return .failure(DumpProblem(file: file, position: position, message: message))
            }
            if case .utf8 = form {} else {
                // The text is UTF-8 now: the declaration names no encoding (libxml2's default is
                // UTF-8), its `encoding="…"` blanked so that every column stays where it was.
                text.replaceSubrange(attribute, with: [UInt8](repeating: 0x20, count: attribute.count))
            }
        }
        return .success(text)
    }

    /// The encoding pseudo-attribute of an XML declaration at the start of `text`
    /// (`<?xml version="1.0" encoding="NAME"?>`), as libxml2 reads it: its whole range (from
    /// `encoding` to the closing quote) and its name's; nil without one.
    static func declaredEncoding(_ text: [UInt8]) -> (attribute: Range<Int>, name: Range<Int>)? {
        let start = Array("<?xml".utf8)
        guard text.count > start.count + 1, Array(text[0..<start.count]) == start, isBlank(text[start.count]) else { return nil }
        let limit = min(text.count, 4096)
        var index = start.count
        let key = Array("encoding".utf8)
        while index + key.count < limit {
            if text[index] == UInt8(ascii: "?"), text[index + 1] == UInt8(ascii: ">") { return nil }
            if isBlank(text[index]), Array(text[(index + 1)..<(index + 1 + key.count)]) == key {
                var cursor = index + 1 + key.count
                while cursor < limit, isBlank(text[cursor]) { cursor += 1 }
                guard cursor < limit, text[cursor] == UInt8(ascii: "=") else { return nil }
                cursor += 1
                while cursor < limit, isBlank(text[cursor]) { cursor += 1 }
                guard cursor < limit, text[cursor] == UInt8(ascii: "\"") || text[cursor] == UInt8(ascii: "'") else { return nil }
                let quote = text[cursor]
                let nameStart = cursor + 1
                var nameEnd = nameStart
                while nameEnd < limit, text[nameEnd] != quote, text[nameEnd] != UInt8(ascii: ">") { nameEnd += 1 }
                guard nameEnd < limit, text[nameEnd] == quote else { return nil }
                return ((index + 1)..<(nameEnd + 1), nameStart..<nameEnd)
            }
            index += 1
        }
        return nil
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// UTF-16 or UTF-32 code units from `offset` → UTF-8; a unit that is not a character (a lone
    /// surrogate, past U+10FFFF) or a file cut inside a unit is refused at its line and column.
    static func transcode(_ bytes: [UInt8], from offset: Int, unitSize: Int, bigEndian: Bool, file: String, form: Form) -> Result<[UInt8], DumpProblem> {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count - offset) / unitSize + 16)
        var line = 1, column = 1
        func failure(_ what: String) -> Result<[UInt8], DumpProblem> {
            .failure(DumpProblem(file: file, position: DumpPosition(line: line, column: column), message: "the file is \(form.name) (from its first bytes), but \(what); save the dump as UTF-8"))
        }
        func unit(at index: Int) -> UInt32 {
            var value: UInt32 = 0
            for byte in 0..<unitSize {
                let shift = bigEndian ? (unitSize - 1 - byte) * 8 : byte * 8
                value |= UInt32(bytes[index + byte]) << UInt32(shift)
            }
            return value
        }
        var index = offset
        while index < bytes.count {
            guard index + unitSize <= bytes.count else { return failure("it ends inside a character (\(bytes.count - index) byte\(bytes.count - index == 1 ? "" : "s") left over)") }
            var scalar = unit(at: index)
            index += unitSize
            if unitSize == 2, (0xD800...0xDBFF).contains(scalar) {
                guard index + 2 <= bytes.count else { return failure("it ends inside a surrogate pair") }
                let low = unit(at: index)
                guard (0xDC00...0xDFFF).contains(low) else { return failure("a high surrogate is not followed by a low one") }
                index += 2
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let character = Unicode.Scalar(scalar) else {
                let digits = String(scalar, radix: 16, uppercase: true)
                return failure("it holds U+\(String(repeating: "0", count: max(0, 4 - digits.count)) + digits), which is not a character")
            }
            out.append(contentsOf: UTF8.encode(character)!)
            if scalar == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return .success(out)
    }
}
