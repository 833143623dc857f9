import Foundation

/// The `brailleTables` setting: a liblouis table (or a comma-separated list of them) per
/// language, which wins over `brailleCode`'s choice for that language. Only table *names* are
/// accepted (letters, digits, `.`, `_`, `-`; no `/`, so nothing outside liblouis's table folder
/// can be named); whether a table exists is checked when `switchscan run` starts.
public enum BrailleTableSetting {
    /// `fr=fr-bfu-comp6.utb en=en-ueb-g1.ctb` → [fr: …, en: …]; `none` or empty → [:]; nil when
    /// a pair is not LANGUAGE=TABLE.
    public static func parse(_ text: String) -> [String: String]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == "none" { return [:] }
        var tables = [String: String]()
        for pair in trimmed.split(whereSeparator: { $0 == " " || $0 == ";" }) where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, isLanguage(parts[0]), isTableList(parts[1]), tables[parts[0]] == nil else { return nil }
            tables[parts[0]] = parts[1]
        }
        return tables
    }

    /// The setting's text for `tables`: pairs sorted by language, or `none`.
    public static func text(_ tables: [String: String]) -> String {
        tables.isEmpty ? "none" : tables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    static func isLanguage(_ text: String) -> Bool {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    static func isTableList(_ text: String) -> Bool {
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
        return !names.isEmpty && names.count <= 8 && names.allSatisfy { name in
            (1...64).contains(name.count) && name != "." && name != ".."
                && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
        }
    }
}
