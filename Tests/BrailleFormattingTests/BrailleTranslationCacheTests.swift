import BrailleFormatting
import Testing

/// The cache of braille translations a display keeps: a line seen again is not translated again,
/// a different table is a different entry, a failure is kept, and the least recently used entry
/// goes when it is full.
@Suite("Translation cache")
struct BrailleTranslationCacheTests {
    @Test("A line translated again with the same table comes from the cache; another table does not")
    func hitsAndMisses() {
        var cache = BrailleTranslationCache(capacity: 4)
        var calls = 0
        func translate(_ text: String, _ table: String) -> BrailleTranslation? {
            cache.translation(of: text, table: table) {
                calls += 1
                return BrailleTranslation(cells: "⠁⠃" + table, offsets: [0, 1])
            }
        }
        #expect(translate("Send", "en-ueb-g2.ctb")?.cells == "⠁⠃en-ueb-g2.ctb")
        #expect(translate("Send", "en-ueb-g2.ctb")?.cells == "⠁⠃en-ueb-g2.ctb")
        #expect(calls == 1)
        #expect(translate("Send", "de-g2.ctb")?.cells == "⠁⠃de-g2.ctb")
        #expect(calls == 2)
    }

    @Test("A failed translation is kept too, and the least recently used entry is dropped when full")
    func failuresAndEviction() {
        var cache = BrailleTranslationCache(capacity: 2)
        var translated = [String]()
        func translate(_ text: String) -> BrailleTranslation? {
            cache.translation(of: text, table: "t") {
                translated.append(text)
                return text == "bad" ? nil : BrailleTranslation(cells: text, offsets: [])
            }
        }
        #expect(translate("bad") == nil)
        #expect(translate("bad") == nil)
        #expect(translated == ["bad"])
        _ = translate("a")      // full: bad, a
        _ = translate("bad")    // bad is now the latest use
        _ = translate("b")      // drops a
        #expect(cache.count == 2)
        _ = translate("bad")
        _ = translate("a")
        #expect(translated == ["bad", "a", "b", "a"])
    }
}
