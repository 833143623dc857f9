@testable import Runtime
import Testing

/// The display output's cache of liblouis translations: a line seen again is not translated
/// again, a different table is a different entry, and the oldest entry goes when it is full.
@Suite("Translation cache")
struct TranslationCacheTests {
    @Test("A line translated again with the same table comes from the cache; another table does not")
    func hitsAndMisses() {
        var cache = TranslationCache(capacity: 4)
        var calls = 0
        func translate(_ text: String, _ table: String) -> TranslationCache.Translation {
            cache.translation(of: text, table: table) {
                calls += 1
                return (cells: "⠁⠃" + table, offsets: [0, 1])
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
        var cache = TranslationCache(capacity: 2)
        var translated = [String]()
        func translate(_ text: String) -> TranslationCache.Translation {
            cache.translation(of: text, table: "t") {
                translated.append(text)
                return text == "bad" ? nil : (cells: text, offsets: [])
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
