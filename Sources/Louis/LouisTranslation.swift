/// Text translated to braille by `Louis.translate`.
///
/// Positions are `Character` offsets of the translated text (grapheme clusters), and cell
/// offsets into `cells`, whose every `Character` is one cell (U+2800–U+28FF; U+2800 is blank).
public struct LouisTranslation: Hashable, Sendable {
    /// The table (list) used.
    public let table: String
    /// The cells, one `Character` each.
    public let cells: String
    /// The number of cells (`cells.count`).
    public let cellCount: Int
    /// For each cell, the `Character` offset of the text it comes from (liblouis's `inputPos`):
    /// a contracted group's cells all give the group's first character. Pass these with `cells`
    /// to `BrailleWindow(line:cells:sourceOffsets:width:)` for routing.
    public let inputPositions: [Int]
    /// For each `Character` of the text, the first cell showing it (liblouis's `outputPos` of
    /// the character's first code unit): inside a contracted group, the group's first cell;
    /// `cellCount` when nothing after it produced a cell.
    public let outputPositions: [Int]
    /// The cell of the cursor given to `translate`, or nil (no cursor, or liblouis placed none).
    public let cursor: Int?

    public init(table: String, cells: String, inputPositions: [Int], outputPositions: [Int], cursor: Int?) {
        self.table = table
        self.cells = cells
        self.cellCount = cells.count
        self.inputPositions = inputPositions
        self.outputPositions = outputPositions
        self.cursor = cursor
    }

    /// Builds the translation from liblouis's raw output, code-unit positions mapped back to
    /// `Character` offsets of `wide`'s text.
    init(table: String, wide: WideText, output: [UInt32], inputPos: [Int32], outputPos: [Int32], cursor: Int32?) {
        var scalars = String.UnicodeScalarView()
        for value in output {
            // ucBrl output is U+2800 + dots; anything else would be a liblouis fault: blank.
            scalars.append(Unicode.Scalar(value).flatMap { (0x2800...0x28FF).contains($0.value) ? $0 : nil }
                ?? "\u{2800}")
        }
        let cellCount = output.count
        let unitCount = wide.units.count
        let inputPositions = inputPos.map { unit -> Int in
            guard unitCount > 0 else { return 0 }
            return wide.characterOfUnit[min(max(Int(unit), 0), unitCount - 1)]
        }
        let outputPositions = wide.firstUnit.prefix(wide.characterCount).map { unit -> Int in
            min(max(Int(outputPos[unit]), 0), cellCount)
        }
        let cursorCell = cursor.flatMap { $0 >= 0 && Int($0) < cellCount ? Int($0) : nil }
        self.init(table: table, cells: String(scalars), inputPositions: inputPositions,
                  outputPositions: outputPositions, cursor: cursorCell)
    }
}
