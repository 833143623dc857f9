/// Which liblouis table translates an element's braille line, from the element's BCP 47
/// `language` (`accessibilityLanguage`, inherited from its container and the scene): a pure
/// choice by table name, for `Louis.translate(_:table:)` to use.
///
/// Matching: the language and the configured prefixes are compared case-insensitively, with `_`
/// read as `-` (`zh_CN` is `zh-CN`), subtag by subtag: prefix `en` matches `en`, `en-US` and
/// `en-GB-oxendict` but not `eng`. The longest matching prefix wins (`zh-TW` before `zh`). A
/// language no prefix matches, and an element without one, use `fallbackTable`.
///
/// Contraction off: `computerBrailleTable` for every language — except a language matched in
/// `uncontractedTables`, for scripts computer braille cannot show (Chinese characters come out
/// of `en-us-comp8.ctb` as `\x64ad/` escapes, eight cells each): those keep their own table.
///
/// Default tables, all present in Debian 12's liblouis-data 3.24.0:
/// - English: `en-ueb-g2.ctb`, Unified English Braille grade 2. UEB is the code of every
///   English-speaking braille authority (BANA adopted it for the US in 2016, replacing EBAE, which
///   is `en-us-g2.ctb`), and what current screen readers default to. The two differ visibly on
///   short labels: EBAE joins "of the" and contracts "dd" and "com" (`Adds a comment.`), UEB
///   does not.
/// - French: `fr-bfu-g2.ctb` (abrégé, Braille Français Unifié). German `de-g2.ctb`, Spanish
///   `es-g2.ctb`.
/// - Chinese, mainland (`zh`, `zh-CN`, `zh-Hans`, `zh-SG`, `cmn`): `zhcn-cbs.ctb`, the Chinese
///   common braille scheme (国家通用盲文方案, the national standard since 2018, with its
///   tone-omission rules), which NVDA also uses for `zh_CN`. The other mainland tables are older
///   or special systems: `zh-chn.ctb` current braille without tones, `zhcn-g1.ctb` current
///   braille with a tone on every syllable, `zhcn-g2.ctb` double-phonic (two cells per syllable).
/// - Chinese, Taiwan (`zh-TW`, `zh-Hant`): `zh-tw.ctb` (bopomofo braille); Hong Kong and Macau
///   (`zh-HK`, `zh-MO`, `zh-Hant-HK`, `yue`): `zh-hk.ctb` (Cantonese braille).
/// - Fallback `en-ueb-g2.ctb` (the scene default language is `en-US`); computer braille
///   `en-us-comp8.ctb` (US 8-dot computer braille, one cell per character, as BRLTTY's
///   default text table shows it).
/// The braille code a reader chose (the `brailleCode` setting): contracted (grade 2, the
/// default, what screen readers default to), uncontracted (grade 1: every letter spelled, for
/// learners and for labels whose contractions mislead) or computer braille (one cell per
/// character, 8 dots). Chinese braille has one form: its table stays whatever the code.
public enum BrailleCode: String, Hashable, Sendable, CaseIterable {
    case contracted, uncontracted, computer
}

public struct BrailleTableChoice: Hashable, Sendable {
    /// The code used when `table(for:)` is not told one.
    public var code: BrailleCode = .contracted
    /// Language prefix → table for uncontracted (grade 1) braille; a language not listed gets
    /// computer braille, except those in `uncontractedTables`.
    public var gradeOneTables: [String: String] = defaultGradeOneTables

    /// Grade 1 tables of Debian 12's liblouis-data: English UEB grade 1, French intégral
    /// (`fr-bfu-comp6.utb`, BFU's uncontracted six-dot form), German and Spanish grade 1.
    public static let defaultGradeOneTables: [String: String] = [
        "en": "en-ueb-g1.ctb", "fr": "fr-bfu-comp6.utb", "de": "de-g1.ctb", "es": "es-g1.ctb",
    ]

    /// The table for `language` in the chosen `code`.
    public func table(for language: String?) -> String {
        switch code {
        case .contracted: return table(for: language, contracted: true)
        case .computer: return table(for: language, contracted: false)
        case .uncontracted:
            if let found = Self.longestMatch(language, in: uncontractedTables) { return found.table }
            return Self.longestMatch(language ?? "en", in: gradeOneTables)?.table ?? table(for: language, contracted: false)
        }
    }

    /// Language prefix → table for contracted braille.
    public var tables: [String: String]
    /// Language prefix → table used when contraction is off (instead of computer braille).
    public var uncontractedTables: [String: String]
    /// The table for a language no prefix matches, and for no language.
    public var fallbackTable: String
    /// The table when contraction is off (computer braille).
    public var computerBrailleTable: String

    public static let defaultTables: [String: String] = [
        "en": "en-ueb-g2.ctb",
        "fr": "fr-bfu-g2.ctb",
        "de": "de-g2.ctb",
        "es": "es-g2.ctb",
        "zh": mainlandChinese, "zh-CN": mainlandChinese, "zh-Hans": mainlandChinese,
        "zh-SG": mainlandChinese, "cmn": mainlandChinese,
        "zh-TW": "zh-tw.ctb", "zh-Hant": "zh-tw.ctb",
        "zh-HK": "zh-hk.ctb", "zh-MO": "zh-hk.ctb", "zh-Hant-HK": "zh-hk.ctb", "zh-Hant-MO": "zh-hk.ctb",
        "yue": "zh-hk.ctb",
    ]

    /// The Chinese tables: Chinese braille has no computer-braille form of its characters.
    public static let defaultUncontractedTables: [String: String] =
        defaultTables.filter { key, _ in ["zh", "cmn", "yue"].contains(key.split(separator: "-").first.map(String.init) ?? key) }

    public static let defaultFallbackTable = "en-ueb-g2.ctb"
    public static let defaultComputerBrailleTable = "en-us-comp8.ctb"
    static let mainlandChinese = "zhcn-cbs.ctb"

    public init(
        tables: [String: String] = defaultTables,
        uncontractedTables: [String: String] = defaultUncontractedTables,
        fallbackTable: String = defaultFallbackTable,
        computerBrailleTable: String = defaultComputerBrailleTable
    ) {
        self.tables = tables
        self.uncontractedTables = uncontractedTables
        self.fallbackTable = fallbackTable
        self.computerBrailleTable = computerBrailleTable
    }

    /// The table for text in `language` (a BCP 47 tag; nil or empty: none given), contracted or
    /// computer braille.
    public func table(for language: String?, contracted: Bool) -> String {
        if contracted {
            return Self.longestMatch(language, in: tables)?.table ?? fallbackTable
        }
        return Self.longestMatch(language, in: uncontractedTables)?.table ?? computerBrailleTable
    }

    /// The configured prefix that chose the contracted table for `language`; nil when the
    /// fallback does.
    public func matchingPrefix(for language: String?) -> String? {
        Self.longestMatch(language, in: tables)?.prefix
    }

    /// A tag in the form prefixes are compared: lower case, `-` between subtags, no empty
    /// subtags.
    public static func normalized(_ tag: String) -> String {
        tag.lowercased()
            .split(whereSeparator: { $0 == "-" || $0 == "_" })
            .joined(separator: "-")
    }

    /// The longest key of `map` that is `language` or a whole-subtag prefix of it.
    static func longestMatch(_ language: String?, in map: [String: String]) -> (prefix: String, table: String)? {
        guard let language else { return nil }
        let subtags = normalized(language).split(separator: "-")
        guard !subtags.isEmpty else { return nil }
        var byNormalizedKey: [String: (prefix: String, table: String)] = [:]
        for (key, table) in map {
            let normal = normalized(key)
            // Two keys equal but for case: the smaller one wins, so the choice never depends on
            // dictionary order.
            if let existing = byNormalizedKey[normal], existing.prefix < key { continue }
            byNormalizedKey[normal] = (key, table)
        }
        for length in stride(from: subtags.count, through: 1, by: -1) {
            if let found = byNormalizedKey[subtags.prefix(length).joined(separator: "-")] {
                return found
            }
        }
        return nil
    }
}
