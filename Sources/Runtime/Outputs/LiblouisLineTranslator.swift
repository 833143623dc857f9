import BrailleFormatting
import Louis

/// A braille line's cells through liblouis, with the table `BrailleTableChoice` gives for the
/// line's language (contracted, or its computer braille), the recent translations kept
/// (`BrailleTranslationCache`). Nil for an empty line and when liblouis fails: the text is
/// written then, for BRLTTY's text table.
struct LiblouisLineTranslator {
    let tables: BrailleTableChoice
    let contracted: Bool
    /// The table choice normalises every table's language on each call: the last one is kept.
    private var lastTable: (language: String?, table: String)?
    private var translations = BrailleTranslationCache()

    init(tables: BrailleTableChoice, contracted: Bool) {
        self.tables = tables
        self.contracted = contracted
    }

    mutating func translate(_ line: BrailleLine, language: String?) -> BrailleTranslation? {
        guard !line.text.isEmpty else { return nil }
        let table: String
        if let cached = lastTable, cached.language == language {
            table = cached.table
        } else {
            table = contracted ? tables.table(for: language) : tables.table(for: language, contracted: false)
            lastTable = (language, table)
        }
        return translations.translation(of: line.text, table: table) {
            guard let result = try? Louis.translate(line.text, table: table), result.cellCount > 0 else { return nil }
            return BrailleTranslation(cells: result.cells, offsets: result.inputPositions)
        }
    }
}
