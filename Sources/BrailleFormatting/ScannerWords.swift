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

    /// The words a line adds to what an element says (its role and state), and the scanner's
    /// own (`grp`, `exit`, `menu`), in one language. English follows NVDA's braille
    /// abbreviations where it has one (`btn`, `lnk`, `sldr`, `sel`, `grp`) and Orca's and NVDA's
    /// `h` for a heading (UIKit headers have no level); docs/braille-reader.md has the table
    /// beside Orca's and NVDA's, and why ours differ where they do.
    public struct Words: Hashable, Sendable {
        public var selected, button, link, header, adjustable, image, searchField, keyboardKey, notEnabled: String
        public var group, exit, menu: String
    }

    public static let english = Words(
        selected: "sel", button: "btn", link: "lnk", header: "h", adjustable: "sldr", image: "img", searchField: "srch",
        keyboardKey: "key", notEnabled: "dim", group: "grp", exit: "exit", menu: "menu")
    public static let french = Words(
        selected: "sél", button: "bout", link: "lien", header: "titre", adjustable: "curs", image: "img", searchField: "rech",
        keyboardKey: "touche", notEnabled: "indisp", group: "grp", exit: "sortie", menu: "menu")
    public static let chinese = Words(
        selected: "已选", button: "按钮", link: "链接", header: "标题", adjustable: "滑块", image: "图像", searchField: "搜索",
        keyboardKey: "键", notEnabled: "不可用", group: "组", exit: "退出", menu: "菜单")

    /// The words for a language (`fr-FR`, `zh-Hans`): English when none is known.
    public static func words(language: String?) -> Words {
        switch primary(language) {
        case "fr": return french
        case "zh": return chinese
        default: return english
        }
    }

    /// The scanner menu's own entries as the reader reads them (the trace, the terminal view
    /// and scripted tests keep the English titles): `Tap` is `Toucher` in French, `点击` in
    /// Chinese. A title the table does not know (a custom action's name, the app's own words) is
    /// shown as it is.
    public static func menuTitle(_ title: String, language: String?) -> String {
        let french = ["Tap": "Toucher", "Increment": "Augmenter", "Decrement": "Diminuer", "Escape": "Retour",
                      "Magic tap": "Toucher magique", "More content": "Plus de contenu", "Exit menu": "Quitter le menu"]
        let chinese = ["Tap": "点击", "Increment": "增加", "Decrement": "减少", "Escape": "返回",
                       "Magic tap": "魔法轻点", "More content": "更多内容", "Exit menu": "退出菜单"]
        switch primary(language) {
        case "fr": return french[title] ?? title
        case "zh": return chinese[title] ?? title
        default: return title
        }
    }

    /// The app switcher's entry for a window (`Demo (gedit)`), as the reader reads it.
    public static func switchTo(_ window: String, language: String?) -> String {
        switch primary(language) {
        case "fr": return "Passer à \(window)"
        case "zh": return "切换到 \(window)"
        default: return "Switch to \(window)"
        }
    }

    /// `fr-FR` → `fr`.
    static func primary(_ language: String?) -> String {
        guard let language else { return "en" }
        return String(language.lowercased().prefix { $0.isLetter })
    }
}
