import BrailleFormatting
import Testing

@Suite("Braille table by language")
struct BrailleTablesTests {
    let choice = BrailleTableChoice()

    @Test("default contracted tables", arguments: [
        ("en", "en-ueb-g2.ctb"), ("en-US", "en-ueb-g2.ctb"), ("en-GB", "en-ueb-g2.ctb"),
        ("fr", "fr-bfu-g2.ctb"), ("fr-CA", "fr-bfu-g2.ctb"),
        ("de-DE", "de-g2.ctb"), ("es-ES", "es-g2.ctb"),
        ("zh", "zhcn-cbs.ctb"), ("zh-CN", "zhcn-cbs.ctb"), ("zh-Hans-CN", "zhcn-cbs.ctb"), ("cmn-CN", "zhcn-cbs.ctb"),
        ("zh-TW", "zh-tw.ctb"), ("zh-Hant", "zh-tw.ctb"),
        ("zh-HK", "zh-hk.ctb"), ("zh-Hant-HK", "zh-hk.ctb"), ("yue", "zh-hk.ctb"),
    ])
    func defaults(_ language: String, _ table: String) {
        #expect(choice.table(for: language) == table)
    }

    @Test func caseAndUnderscoresDoNotMatter() {
        #expect(choice.table(for: "ZH-cn") == "zhcn-cbs.ctb")
        #expect(choice.table(for: "zh_TW") == "zh-tw.ctb")
        #expect(choice.table(for: "FR") == "fr-bfu-g2.ctb")
        #expect(BrailleTableChoice.normalized("zh_Hant__TW-") == "zh-hant-tw")
    }

    @Test func noLanguageOrNoMatchUsesTheFallback() {
        #expect(choice.table(for: nil) == "en-ueb-g2.ctb")
        #expect(choice.table(for: "") == "en-ueb-g2.ctb")
        #expect(choice.table(for: "-") == "en-ueb-g2.ctb")
        #expect(choice.table(for: "ja-JP") == "en-ueb-g2.ctb")
        #expect(choice.matchingPrefix(for: "ja-JP") == nil)
        #expect(BrailleTableChoice(fallbackTable: "en-us-comp8.ctb").table(for: "ja") == "en-us-comp8.ctb")
    }

    @Test func prefixesMatchWholeSubtags() {
        // "en" is no prefix of "eng" (a different language code), nor "fr" of "fro".
        #expect(choice.table(for: "eng") == "en-ueb-g2.ctb")
        #expect(choice.matchingPrefix(for: "eng") == nil)
        #expect(choice.matchingPrefix(for: "fro") == nil)
        #expect(choice.matchingPrefix(for: "en-US-x-private") == "en")
    }

    @Test func longestPrefixWins() {
        let custom = BrailleTableChoice(tables: [
            "en": "en-ueb-g2.ctb", "en-US": "en-us-g2.ctb", "en-US-posix": "en-us-comp8.ctb",
        ])
        #expect(custom.table(for: "en-GB") == "en-ueb-g2.ctb")
        #expect(custom.table(for: "en-US") == "en-us-g2.ctb")
        #expect(custom.table(for: "en-us-POSIX") == "en-us-comp8.ctb")
        #expect(custom.matchingPrefix(for: "en-US-posix-x") == "en-US-posix")
        #expect(choice.matchingPrefix(for: "zh-Hant-HK") == "zh-Hant-HK")
        #expect(choice.matchingPrefix(for: "zh-Hant-TW") == "zh-Hant")
    }

    @Test func keysEqualButForCaseChooseTheSameOneEveryTime() {
        let custom = BrailleTableChoice(tables: ["fr": "fr-bfu-g2.ctb", "FR": "fr-bfu-comp8.utb"])
        #expect(custom.table(for: "fr") == "fr-bfu-comp8.utb")          // "FR" < "fr"
        #expect(custom.matchingPrefix(for: "fr-FR") == "FR")
    }

    @Test func contractionOffUsesComputerBraille() {
        #expect(choice.table(for: "en-US", contracted: false) == "en-us-comp8.ctb")
        #expect(choice.table(for: "fr", contracted: false) == "en-us-comp8.ctb")
        #expect(choice.table(for: nil, contracted: false) == "en-us-comp8.ctb")
        let custom = BrailleTableChoice(computerBrailleTable: "en-gb-comp8.ctb")
        #expect(custom.table(for: "de", contracted: false) == "en-gb-comp8.ctb")
    }

    @Test func chineseKeepsItsTableWithContractionOff() {
        // Computer braille has no cells for Chinese characters (it writes `\x64ad/` escapes).
        #expect(choice.table(for: "zh-CN", contracted: false) == "zhcn-cbs.ctb")
        #expect(choice.table(for: "zh-TW", contracted: false) == "zh-tw.ctb")
        #expect(choice.table(for: "yue-HK", contracted: false) == "zh-hk.ctb")
        #expect(BrailleTableChoice.defaultUncontractedTables.keys.allSatisfy {
            ["zh", "cmn", "yue"].contains(String($0.prefix { $0 != "-" }))
        })
        #expect(BrailleTableChoice(uncontractedTables: [:]).table(for: "zh-CN", contracted: false) == "en-us-comp8.ctb")
    }

    @Test func everyDefaultTableIsOneOfTheKnownNames() {
        // Checked against liblouis in LouisTests.defaultTablesCompile, which lists the same names.
        let known: Set<String> = ["en-ueb-g2.ctb", "en-us-comp8.ctb", "fr-bfu-g2.ctb", "de-g2.ctb", "es-g2.ctb",
                                  "zhcn-cbs.ctb", "zh-tw.ctb", "zh-hk.ctb"]
        let used = Set(BrailleTableChoice.defaultTables.values)
            .union([BrailleTableChoice.defaultFallbackTable, BrailleTableChoice.defaultComputerBrailleTable])
        #expect(used == known)
    }

    @Test("brailleCode: contracted, uncontracted (grade 1) or computer braille per language; Chinese keeps its table")
    func brailleCodes() {
        var choice = BrailleTableChoice()
        #expect(choice.table(for: "en-US") == "en-ueb-g2.ctb")
        choice.code = .uncontracted
        #expect(choice.table(for: "en-US") == "en-ueb-g1.ctb")
        #expect(choice.table(for: "fr-FR") == "fr-bfu-comp6.utb")
        #expect(choice.table(for: nil) == "en-ueb-g1.ctb")
        #expect(choice.table(for: "zh-CN") == "zhcn-cbs.ctb")
        #expect(choice.table(for: "ja") == "en-us-comp8.ctb", "no grade 1 table: computer braille")
        choice.code = .computer
        #expect(choice.table(for: "fr-FR") == "en-us-comp8.ctb")
        #expect(choice.table(for: "zh-CN") == "zhcn-cbs.ctb")
    }
}
