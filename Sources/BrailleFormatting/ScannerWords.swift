/// The scanner's own words on the display, in the reader's language: the language of what is
/// highlighted (the element's, else the scene's). English when no translation exists.
public enum ScannerWords {
    /// `scanning stopped`: the loops ran out; any switch starts scanning again.
    public static func scanningStopped(language: String?) -> String {
        switch primary(language) {
        case "fr": return "défilement arrêté"
        case "zh": return "扫描已停止"
        default: return "scanning stopped"
        }
    }

    /// `fr-FR` → `fr`.
    static func primary(_ language: String?) -> String {
        guard let language else { return "en" }
        return String(language.lowercased().prefix { $0.isLetter })
    }
}
