@testable import Louis
import Testing

/// Cells written as dot numbers, one cell per space-separated group (`0` is a blank cell):
/// `dots("6 2346")` is `⠠⠮`. Tests state expected braille this way so that each cell can be
/// checked against the braille code's tables by eye.
func dots(_ cells: String) -> String {
    var scalars = String.UnicodeScalarView()
    for cell in cells.split(separator: " ") {
        var value: UInt32 = 0x2800
        for digit in cell where digit != "0" {
            value |= 1 << (UInt32(String(digit))! - 1)
        }
        scalars.append(Unicode.Scalar(value)!)
    }
    return String(scalars)
}

@Suite("liblouis: library")
struct LouisLibraryTests {
    @Test func versionAndWidechar() {
        let parts = Louis.version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "\(Louis.version)")
        // Debian 12's liblouis 3.24.0 is built with 32-bit widechar (UTF-32); a UTF-16 build
        // works as well (see WideTextTests), as long as header and library agree.
        #expect([2, 4].contains(Louis.widecharSize))
    }

    @Test func dotsHelper() {
        #expect(dots("6 2346 0 1") == "⠠⠮⠀⠁")
    }

    @Test("the tables BrailleTableChoice chooses by default all compile",
          arguments: ["en-ueb-g2.ctb", "en-us-comp8.ctb", "fr-bfu-g2.ctb", "de-g2.ctb", "es-g2.ctb",
                      "zhcn-cbs.ctb", "zh-tw.ctb", "zh-hk.ctb"])
    func defaultTablesCompile(_ table: String) throws {
        try Louis.checkTable(table)
    }
}

@Suite("liblouis: translation")
struct LouisTranslationTests {
    // MARK: English

    /// UEB grade 2: capital indicator ⠠ (6); "the" wordsign ⠮ (2346); "knowledge" alphabetic
    /// wordsign k ⠅ (13); "of" ⠷ (12356); "children" shortform "chn" ⠡⠝ (16, 1345). UEB keeps
    /// "of the" as two words, as print does.
    @Test func uebGrade2Wordsigns() throws {
        let result = try Louis.translate("The knowledge of the children", table: "en-ueb-g2.ctb")
        #expect(result.cells == dots("6 2346 0 13 0 12356 0 2346 0 16 1345"))
        #expect(result.cells == "⠠⠮⠀⠅⠀⠷⠀⠮⠀⠡⠝")
        #expect(result.cellCount == 11)
        #expect(result.table == "en-ueb-g2.ctb")
    }

    /// The seed's hint example (seed 000, "Enhancing the Default Attribute Information").
    /// UEB: "dd" and "com" are no longer contracted (both were dropped from UEB), "ment" is the
    /// final groupsign ⠰⠞ (56, 2345), the period ⠲ (256).
    @Test func uebGrade2Hint() throws {
        let result = try Louis.translate("Adds a comment.", table: "en-ueb-g2.ctb")
        #expect(result.cells == dots("6 1 145 145 234 0 1 0 14 135 134 56 2345 256"))
        #expect(result.inputPositions == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 14])
    }

    /// The same two lines in EBAE (en-us-g2.ctb), the American code UEB replaced: "of the" run
    /// together, "dd" ⠲ (256) and "com" ⠤ (36) contracted.
    @Test func ebaeGrade2() throws {
        #expect(try Louis.translate("The knowledge of the children", table: "en-us-g2.ctb").cells
                == dots("6 2346 0 13 0 12356 2346 0 16 1345"))
        #expect(try Louis.translate("Adds a comment.", table: "en-us-g2.ctb").cells
                == dots("6 1 256 234 0 1 0 36 56 2345 256"))
    }

    // MARK: Routing through inputPos / outputPos

    @Test func routingLandsOnTheContractedWord() throws {
        let text = "The knowledge of the children"
        let result = try Louis.translate(text, table: "en-ueb-g2.ctb")
        #expect(result.inputPositions == [0, 0, 3, 4, 13, 14, 16, 17, 20, 21, 21])
        // Cell 3 (⠅) is "knowledge": its first character, offset 4.
        #expect(result.inputPositions[3] == 4)
        // Both cells of ⠡⠝ route to the "c" of "children".
        let children = text.distance(from: text.startIndex, to: text.range(of: "children")!.lowerBound)
        #expect(children == 21)
        #expect(result.inputPositions[9] == children && result.inputPositions[10] == children)
        // Every character of a contracted word shows at the word's first cell.
        #expect(result.outputPositions.count == text.count)
        #expect(result.outputPositions[4] == 3 && result.outputPositions[12] == 3)
        #expect(result.outputPositions[21] == 9 && result.outputPositions[28] == 9)
    }

    @Test func cursor() throws {
        let text = "The knowledge of the children"
        // Offset 6 is the "o" of "knowledge", shown by the wordsign ⠅ (cell 3).
        #expect(try Louis.translate(text, table: "en-ueb-g2.ctb", cursor: 6).cursor == 3)
        #expect(try Louis.translate(text, table: "en-ueb-g2.ctb").cursor == nil)
        #expect(try Louis.translate(text, table: "en-ueb-g2.ctb", cursor: 99).cursor == nil)
        // computerBrailleAtCursor spells out the word under the cursor: k n o w l e d g e.
        let spelled = try Louis.translate(text, table: "en-ueb-g2.ctb", mode: .computerBrailleAtCursor, cursor: 6)
        #expect(spelled.cells == dots("6 2346 0 13 1345 135 2456 123 15 145 1245 15 0 12356 0 2346 0 16 1345"))
        #expect(spelled.cursor == 5)
        #expect(Array(spelled.inputPositions[3...11]) == Array(4...12))
    }

    @Test func noContractions() throws {
        let result = try Louis.translate("The knowledge of the children", table: "en-ueb-g2.ctb", mode: .noContractions)
        #expect(result.cells == "⠠⠞⠓⠑⠀⠅⠝⠕⠺⠇⠑⠙⠛⠑⠀⠕⠋⠀⠞⠓⠑⠀⠉⠓⠊⠇⠙⠗⠑⠝")
        #expect(result.inputPositions == [0] + Array(0...28))
    }

    // MARK: Computer braille

    /// US 8-dot computer braille (NABCC): one cell per character; capitals add dot 7
    /// (W ⡺ = 2456+7, F ⡋ = 124+7); digits 5 ⠢ (26) and 0 ⠴ (356); % ⠩ (146); - ⠤ (36).
    @Test func computerBraille() throws {
        let result = try Louis.translate("Wi-Fi 50%", table: "en-us-comp8.ctb")
        #expect(result.cells == dots("24567 24 36 1247 24 0 26 356 146"))
        #expect(result.inputPositions == Array(0..<9))
        #expect(result.outputPositions == Array(0..<9))
    }

    // MARK: French

    /// French abrégé (BFU grade 2): capital sign ⠨ (46); "ou" ⠳ (1256); the short forms
    /// "ceci" cc, "est" ⠱ (156), "un" u, "nouveau" nv, "merci" mc; period ⠲ (256). The texts are
    /// the French scene's (seeds 002 and 004).
    @Test func frenchGrade2() throws {
        let ouvrir = try Louis.translate("Ouvrir", table: "fr-bfu-g2.ctb")
        #expect(ouvrir.cells == dots("46 1256 1236 1235 24 1235"))
        #expect(ouvrir.inputPositions == [0, 0, 2, 3, 4, 5])

        let label = try Louis.translate("Ceci est un nouveau label. Merci.", table: "fr-bfu-g2.ctb")
        #expect(label.cells == "⠨⠉⠉⠀⠱⠀⠥⠀⠝⠧⠀⠇⠁⠃⠑⠇⠲⠀⠨⠍⠉⠲")
        // The cells of "nouveau" (nv) route to its "n" (offset 12), "Merci" to its "M" (27).
        #expect(label.inputPositions[8] == 12 && label.inputPositions[9] == 12)
        #expect(label.inputPositions[18...20].allSatisfy { $0 == 27 })
    }

    // MARK: Chinese

    /// The Chinese scene's labels (Scenarios/chinese-labels.yaml, from the guide's Chinese
    /// edition) through the Chinese common braille table.
    static let chineseLabels = ["添加", "播放", "删除", "搜索", "收藏", "音量", "播放音乐", "添加姓名", "添加事件", "添加一个账户"]

    @Test("Chinese labels give Chinese braille cells", arguments: chineseLabels)
    func chineseLabel(_ label: String) throws {
        let result = try Louis.translate(label, table: "zhcn-cbs.ctb")
        #expect(result.cellCount >= label.count)
        #expect(result.cells.unicodeScalars.allSatisfy { (0x2801...0x28FF).contains($0.value) })
        // No `\x….` escape: every character is defined by the table (an escape starts with ⠄⡳).
        #expect(!result.cells.contains("⠄⡳"))
        #expect(result.inputPositions.allSatisfy { (0..<label.count).contains($0) })
        #expect(result.inputPositions == result.inputPositions.sorted())
    }

    /// 播放 (bō fàng) in the common braille scheme: initial b ⠃ (12), final o ⠢ (26), tone 1 ⠁ (1);
    /// initial f ⠋ (124), final ang ⠦ (236), tone 4 ⠆ (23). Each syllable's cells route to its
    /// character.
    @Test func chinesePlay() throws {
        let result = try Louis.translate("播放", table: "zhcn-cbs.ctb")
        #expect(result.cells == dots("12 26 1 124 236 23"))
        #expect(result.inputPositions == [0, 0, 0, 1, 1, 1])
        #expect(result.outputPositions == [0, 3])
    }

    /// The braille line of the scene's Add button: 添加 (tiān jiā: t ⠞ ian ⠩ tone 1 ⠁, j ⠛ ia ⠫
    /// with the tone left out by the scheme's rules), a blank, and `btn` in letters.
    @Test func chineseLine() throws {
        let result = try Louis.translate("添加 btn", table: "zhcn-cbs.ctb")
        #expect(result.cells == dots("2345 146 1 1245 1246 0 12 2345 1345"))
        #expect(result.inputPositions == [0, 0, 0, 1, 1, 2, 3, 4, 5])
    }

    /// The four mainland Chinese tables of Debian 12 differ on the same label; an English table
    /// cannot show Chinese characters at all (escapes).
    @Test func chineseTablesDiffer() throws {
        #expect(try Louis.translate("播放", table: "zh-chn.ctb").cells == dots("12 26 124 236"))        // current, no tones
        #expect(try Louis.translate("播放", table: "zhcn-g1.ctb").cells == dots("12 26 1 124 236 23"))  // current, tones
        #expect(try Louis.translate("播放", table: "zhcn-g2.ctb").cells == dots("24 234 235 145"))      // double-phonic
        let english = try Louis.translate("播", table: "en-ueb-g2.ctb")
        // `\x64ad/`: what liblouis writes for a character the table does not define.
        #expect(english.cells == dots("3 12567 1346 124 145 1 145 3"))
        #expect(english.inputPositions == Array(repeating: 0, count: 8))
    }

    // MARK: Errors

    @Test func missingTableInTranslate() {
        #expect {
            _ = try Louis.translate("Play", table: "no-such-table.ctb")
        } throws: { error in
            guard let error = error as? LouisError else { return false }
            return error.function == "lou_translate" && error.table == "no-such-table.ctb"
                && error.reason == .failed
                && error.messages.contains("Cannot resolve table 'no-such-table.ctb'")
                && error.description.hasPrefix("lou_translate failed for table 'no-such-table.ctb': Cannot resolve table")
        }
    }

    @Test func missingTableInCheckTable() {
        do {
            try Louis.checkTable("no-such-table.ctb")
            Issue.record("no error")
        } catch {
            #expect(error.function == "lou_checkTable")
            #expect(error.table == "no-such-table.ctb")
            #expect(error.messages.contains("Cannot resolve table 'no-such-table.ctb'"))
            #expect("\(error)".contains("lou_checkTable failed for table 'no-such-table.ctb'"))
        }
    }

    @Test func tableNameWithNUL() {
        #expect(throws: LouisError(function: "lou_translate", table: "en\0.ctb", reason: .invalidTableName, messages: [])) {
            _ = try Louis.translate("Play", table: "en\0.ctb")
        }
    }

    @Test func errorsDoNotLeakIntoTheNextCall() throws {
        _ = try? Louis.translate("Play", table: "no-such-table.ctb")
        #expect(try Louis.translate("Play", table: "en-ueb-g2.ctb").cells == dots("6 1234 123 1 13456"))
    }

    // MARK: Buffer growth

    /// 3,000 Chinese characters through an English table: each becomes an 8-cell escape, so
    /// 24,000 cells, eight times the input, where the first buffer holds about three.
    @Test func outputLongerThanTheFirstBuffer() throws {
        let count = 3000
        #expect(Louis.initialCapacity(forInput: count) < 8 * count)
        let result = try Louis.translate(String(repeating: "播", count: count), table: "en-ueb-g2.ctb")
        #expect(result.cellCount == 8 * count)
        #expect(result.cells == String(repeating: dots("3 12567 1346 124 145 1 145 3"), count: count))
        #expect(result.inputPositions == (0..<(8 * count)).map { $0 / 8 })
        #expect(result.outputPositions == (0..<count).map { $0 * 8 })
    }

    /// A long ordinary line (20,000 characters) and a long Chinese one.
    @Test func longInput() throws {
        let english = try Louis.translate(String(repeating: "knowledge ", count: 2000), table: "en-ueb-g2.ctb")
        #expect(english.cells.hasPrefix("⠅⠀⠅⠀"))
        #expect(english.cellCount >= 3999)
        #expect(english.inputPositions.last.map { $0 >= 19_980 } == true)
        let line = String(repeating: "添加一个账户 ", count: 500)
        let chinese = try Louis.translate(line, table: "zhcn-cbs.ctb")
        #expect(chinese.cells.hasPrefix(dots("2345 146 1 1245 1246")))
        #expect(chinese.cellCount > 6000)
        #expect(chinese.inputPositions == chinese.inputPositions.sorted())
        #expect(chinese.inputPositions.last.map { $0 >= line.count - 7 } == true)
    }

    @Test func emptyText() throws {
        let result = try Louis.translate("", table: "en-ueb-g2.ctb")
        #expect(result.cells.isEmpty && result.inputPositions.isEmpty && result.outputPositions.isEmpty)
        #expect(throws: LouisError.self) { _ = try Louis.translate("", table: "no-such-table.ctb") }
    }

    // MARK: Characters made of several code points

    /// "👍🏽" (thumbs up + skin tone, two scalars) and "é" written as e + U+0301 are one
    /// `Character` each: positions count Characters, so the offsets of "!" and of the accented
    /// letter are those of the line.
    @Test func emojiAndCombiningMarks() throws {
        let text = "Hi 👍🏽 e\u{301}!"
        #expect(text.count == 7)
        let result = try Louis.translate(text, table: "en-ueb-g2.ctb")
        // H i, blank, two 9-cell escapes (\y1f44d/ \y1f3fd/) for the emoji's two scalars, blank,
        // UEB acute accent ⠘⠌ (45, 34) before e, and the exclamation mark ⠖ (235).
        #expect(result.cellCount == 27)
        #expect(result.inputPositions == [0, 0, 1, 2] + Array(repeating: 3, count: 18) + [4, 5, 5, 5, 6])
        #expect(Array(result.cells.suffix(4)) == Array(dots("45 34 15 235")))
        #expect(result.outputPositions == [0, 2, 3, 4, 22, 23, 26])
        #expect(result.inputPositions.allSatisfy { (0..<text.count).contains($0) })
    }

    @Test func cursorOnAnEmoji() throws {
        let text = "👍🏽 ok"
        let result = try Louis.translate(text, table: "en-us-comp8.ctb", cursor: 2)
        // The emoji's escapes take 18 cells, the blank one: "o" is cell 19.
        #expect(result.cursor == 19)
        #expect(result.inputPositions[19] == 2)
    }

    // MARK: Thread safety

    @Test func concurrentCallsAreSerialised() async throws {
        let texts = ["The knowledge of the children", "播放 btn", "Ouvrir", "Adds a comment."]
        let tables = ["en-ueb-g2.ctb", "zhcn-cbs.ctb", "fr-bfu-g2.ctb", "en-us-g2.ctb"]
        let expected = try zip(texts, tables).map { try Louis.translate($0, table: $1) }
        try await withThrowingTaskGroup(of: (Int, LouisTranslation).self) { group in
            for round in 0..<200 {
                let index = round % texts.count
                group.addTask { (index, try Louis.translate(texts[index], table: tables[index])) }
            }
            for try await (index, result) in group {
                #expect(result == expected[index])
            }
        }
    }
}

@Suite("liblouis: String ↔ widechar")
struct WideTextTests {
    @Test func utf32() {
        let wide = WideText("a👍🏽e\u{301}", unitSize: 4)
        #expect(wide.units == [0x61, 0x1F44D, 0x1F3FD, 0x65, 0x301])
        #expect(wide.characterOfUnit == [0, 1, 1, 2, 2])
        #expect(wide.firstUnit == [0, 1, 3, 5])
        #expect(wide.characterCount == 3)
    }

    @Test func utf16() {
        let wide = WideText("a👍🏽e\u{301}", unitSize: 2)
        #expect(wide.units == [0x61, 0xD83D, 0xDC4D, 0xD83C, 0xDFFD, 0x65, 0x301])
        #expect(wide.characterOfUnit == [0, 1, 1, 1, 1, 2, 2])
        #expect(wide.firstUnit == [0, 1, 5, 7])
    }

    @Test func empty() {
        let wide = WideText("", unitSize: 4)
        #expect(wide.units.isEmpty && wide.characterOfUnit.isEmpty && wide.firstUnit == [0])
        #expect(wide.characterCount == 0)
    }

    @Test func capacityIsNeverBelowTheInput() {
        for count in [0, 1, 100, 10_000, 1_000_000] {
            #expect(Louis.initialCapacity(forInput: count) >= count + Louis.headroom)
            #expect(Louis.maximumCapacity(forInput: count) > Louis.initialCapacity(forInput: count))
        }
    }
}
