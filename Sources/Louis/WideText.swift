/// A Swift string as liblouis `widechar` code units — UTF-16 or UTF-32, as the library was
/// built (`lou_charSize`) — with the maps between code units and `Character` offsets.
struct WideText: Hashable, Sendable {
    /// The code units (UTF-16 units when `unitSize` is 2, Unicode scalar values when 4).
    let units: [UInt32]
    /// For each code unit, the offset of the `Character` it belongs to.
    let characterOfUnit: [Int]
    /// For each `Character`, the index of its first code unit; then one more entry, the
    /// number of units (so `firstUnit[c + 1] - firstUnit[c]` is character `c`'s length).
    let firstUnit: [Int]
    /// The number of `Character`s.
    var characterCount: Int { firstUnit.count - 1 }

    /// - Parameter unitSize: 2 (UTF-16) or 4 (UTF-32), the size of liblouis's `widechar`.
    init(_ text: String, unitSize: Int) {
        var units: [UInt32] = []
        var characterOfUnit: [Int] = []
        var firstUnit: [Int] = []
        units.reserveCapacity(text.utf8.count)
        for (offset, character) in text.enumerated() {
            firstUnit.append(units.count)
            if unitSize == 2 {
                for unit in character.utf16 { units.append(UInt32(unit)) }
            } else {
                for scalar in character.unicodeScalars { units.append(scalar.value) }
            }
            characterOfUnit.append(contentsOf: repeatElement(offset, count: units.count - characterOfUnit.count))
        }
        firstUnit.append(units.count)
        self.units = units
        self.characterOfUnit = characterOfUnit
        self.firstUnit = firstUnit
    }
}
