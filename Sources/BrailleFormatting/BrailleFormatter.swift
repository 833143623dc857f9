import AccessibilityModel

/// What the scanner shows, as the text of one braille line (`docs/braille.md`,
/// "What goes on the display").
///
/// - An item: label, value, the values of its important custom content
///   (`AXCustomContent.importance = .high`, which VoiceOver reads after the value and before the
///   hint; the rest stays under More content), trait words, then the hint when `showHints` is
///   on, separated by single spaces, empty parts skipped: `Volume 50% sldr`, `Wi-Fi sel btn`,
///   `Orange logo 1988 img`. Without a label the line starts with the value, else with the
///   trait words (`btn`), as VoiceOver does. Only
///   when all of these are empty does the line show the element's id, so that the display is
///   never blank while something is highlighted (a blank display reads as a dead display).
/// - A group: its label, else the names of its children joined by `, `, then `grp`:
///   `Test 1, Test 2 grp`. A child's name is its label, else its value, else its trait words;
///   children with no name are left out. A nested group contributes its label, else its own
///   children's names (flattened, without its own `grp`). At most `groupLabelLimit` names
///   are shown, counted over the whole nested list; when more exist `, …` follows them:
///   `A, B, C, D, E, … grp`.
/// - A group's outline (highlighted again after its last child; selecting it leaves the
///   group): `exit ` before the group's line: `exit Test 1, Test 2 grp`.
/// - A scanner menu entry, as the scanner shows it: its title, its position among the entries,
///   then the line of the element the menu acts on: `Tap 1/4: Volume 50% sldr`; after
///   Increment, `Increment 2/4: Volume 60% sldr` (the new value, the menu still open). The
///   screen's menu (no element): `Escape 1/2`. Without a position (a line that is no entry of
///   an open menu): its title, then `menu`: `Tap menu`.
/// - Scanning stopped (its loops ran out): `scanning stopped`, in the reader's language
///   (`ScannerWords`), never a blank display, which reads as a dead one.
/// - The scanner menu button (`alwaysTap`, highlighted at the end of a cycle): `Scanner menu`.
/// - A flash message (announcement, page scrolled, feedback): the text itself.
///
/// Every text is put on one line first: runs of whitespace and control characters (line
/// breaks, tabs) become one space, and leading and trailing ones are dropped.
///
/// Routing: an item's whole line routes to the item, a menu entry's to its index, the menu
/// button's to the button (a routing key over it opens the menu, as `select` does), a
/// message's to nothing. A group's whole line routes to the group, so a routing key acts as `select` on
/// what is highlighted; with `routesToGroupChildren` on, each child's name routes to that
/// child instead (the separators, `…` and `grp` still route to the group). An outline always
/// routes to the group as a whole.
public struct BrailleFormatter: Hashable, Sendable {
    /// Append the hint to an item's line (the scanner's `brailleHints` setting).
    public var showHints: Bool
    /// How many child names a group's line shows before `…` (at least 1 is used).
    public var groupLabelLimit: Int
    /// Route each child name on a group's line to that child rather than to the group.
    public var routesToGroupChildren: Bool

    /// The language of an element that names none (the scene's): it chooses the role and state
    /// words (`ScannerWords`), which go through the same braille table as the label.
    public var language: String?
    /// Role and state words before the label (`btn Play`), for small displays where the words
    /// after a long label fall in a later window (the `brailleRoleFirst` setting).
    public var roleFirst: Bool

    public init(showHints: Bool = false, groupLabelLimit: Int = 5, routesToGroupChildren: Bool = false,
                language: String? = nil, roleFirst: Bool = false) {
        self.showHints = showHints
        self.groupLabelLimit = groupLabelLimit
        self.routesToGroupChildren = routesToGroupChildren
        self.language = language
        self.roleFirst = roleFirst
    }

    /// The trait words in English, in the order they appear on the line (VoiceOver's: the
    /// selected state, then the role, then the dimmed state). Other traits have no word.
    public static let traitWords: [(trait: Traits, word: String)] = traitWords(ScannerWords.english)

    /// The trait words of one language, in line order.
    public static func traitWords(_ words: ScannerWords.Words) -> [(trait: Traits, word: String)] {
        [(.selected, words.selected),
         (.button, words.button), (.link, words.link), (.header, words.header), (.adjustable, words.adjustable),
         (.image, words.image), (.searchField, words.searchField), (.keyboardKey, words.keyboardKey),
         (.notEnabled, words.notEnabled)]
    }

    /// Suffix of a group's line.
    public static let groupWord = "grp"
    /// Suffix of a menu entry's line.
    public static let menuWord = "menu"
    /// Prefix of a group's outline.
    public static let exitWord = "exit"
    /// Stands for the names a group's line leaves out.
    public static let ellipsis = "…"

    /// The words for a set of traits, in line order.
    public static func words(for traits: Traits, language: String? = nil) -> [String] {
        traitWords(ScannerWords.words(language: language)).filter { traits.contains($0.trait) }.map(\.word)
    }

    /// The words for what an element names, else the formatter's language.
    private func words(of element: Element) -> ScannerWords.Words {
        ScannerWords.words(language: element.language ?? language)
    }

    /// The line for a scan node: an item's or a group's.
    public func line(for node: ScanNode) -> BrailleLine {
        switch node {
        case .item(let element): return item(element)
        case .group(let element, let children): return group(element, children: children)
        }
    }

    /// An item: label, value, important custom content, trait words, hint (when `showHints`);
    /// the id when all are empty.
    public func item(_ element: Element) -> BrailleLine {
        let roles = Self.words(for: element.traits, language: element.language ?? language)
        var parts = roleFirst ? roles : []
        parts += [Self.oneLine(element.label), Self.oneLine(element.value)]
        parts += element.customContent.filter(\.isImportant).map { Self.oneLine($0.value) }
        if !roleFirst { parts += roles }
        if showHints { parts.append(Self.oneLine(element.hint)) }
        var text = parts.filter { !$0.isEmpty }.joined(separator: " ")
        if text.isEmpty { text = Self.oneLine(element.id) }
        return BrailleLine(text: text, target: .element(element.id))
    }

    /// A group: its label or its children's names, then `grp`.
    public func group(_ element: Element, children: [ScanNode]) -> BrailleLine {
        groupLine(element, children: children, routeChildren: routesToGroupChildren)
    }

    /// A group's outline: `exit`, then the group's line; all of it routes to the group.
    /// For an item node, `exit` before the item's line.
    public func outline(of node: ScanNode) -> BrailleLine {
        let shown: BrailleLine
        switch node {
        case .item(let element): shown = item(element)
        case .group(let element, let children): shown = groupLine(element, children: children, routeChildren: false)
        }
        return BrailleLine(text: "\(words(of: node.element).exit) \(shown.text)", target: .element(node.id))
    }

    /// A scanner menu entry: its title, then `menu`; routes to the entry's index, or to nothing
    /// when `index` is nil (a line that is no entry of the open menu).
    public func menuEntry(_ title: String, index: Int? = nil, count: Int? = nil, for element: Element? = nil) -> BrailleLine {
        guard let index, let count else {
            let parts = [Self.oneLine(title), ScannerWords.words(language: language).menu].filter { !$0.isEmpty }
            return BrailleLine(text: parts.joined(separator: " "), target: index.map(BrailleLine.Target.menuEntry))
        }
        var text = "\(Self.oneLine(title)) \(index + 1)/\(count)"
        if let element { text += ": " + item(element).text }
        return BrailleLine(text: text, target: .menuEntry(index))
    }

    /// A line about the scanner itself (`scanning stopped`); routes to nothing.
    public func status(_ text: String) -> BrailleLine {
        BrailleLine(text: Self.oneLine(text), target: nil)
    }

    /// The scanner menu button's line, `Scanner menu`; routes to the button.
    public func menuButton() -> BrailleLine {
        BrailleLine(text: Self.menuButtonText, target: .menuButton)
    }

    /// The menu button's text.
    public static let menuButtonText = "Scanner menu"

    /// A flash message: the text, on one line; routes to nothing.
    public func flash(_ message: String) -> BrailleLine {
        BrailleLine(text: Self.oneLine(message), target: nil)
    }

    /// The name a child contributes to its group's line: label, else value, else trait words.
    public static func name(of element: Element) -> String {
        let label = oneLine(element.label)
        if !label.isEmpty { return label }
        let value = oneLine(element.value)
        if !value.isEmpty { return value }
        return words(for: element.traits, language: element.language).joined(separator: " ")
    }

    /// Text on one line: whitespace and control runs become one space; ends trimmed.
    public static func oneLine(_ text: String?) -> String {
        guard let text else { return "" }
        // Printable ASCII with single spaces inside is on one line already (most labels): the
        // walk below, by characters, would give the same text back.
        var previousSpace = true, clean = true
        for byte in text.utf8 {
            if byte == 0x20 {
                if previousSpace { clean = false; break }
                previousSpace = true
            } else if byte > 0x20, byte < 0x7F {
                previousSpace = false
            } else {
                clean = false
                break
            }
        }
        if clean, !previousSpace { return text }
        var result = ""
        var pendingSpace = false
        for character in text {
            if character.isWhitespace || character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            result.append(character)
        }
        return result
    }

    private func groupLine(_ element: Element, children: [ScanNode], routeChildren: Bool) -> BrailleLine {
        let target = BrailleLine.Target.element(element.id)
        var builder = LineBuilder()
        let label = Self.oneLine(element.label)
        if !label.isEmpty {
            builder.append(label, target: target)
        } else {
            var names: [(text: String, owner: ElementID)] = []
            let more = Self.collectNames(children, owner: nil, limit: max(1, groupLabelLimit), into: &names)
            for (index, name) in names.enumerated() {
                if index > 0 { builder.append(", ", target: target) }
                builder.append(name.text, target: routeChildren ? .element(name.owner) : target)
            }
            if more { builder.append(names.isEmpty ? Self.ellipsis : ", \(Self.ellipsis)", target: target) }
        }
        let groupWord = words(of: element).group
        builder.append(builder.count == 0 ? groupWord : " \(groupWord)", target: target)
        return builder.line
    }

    /// Appends the names under `nodes`, depth first, each with the id of the top-level entry it
    /// belongs to; returns true when a name beyond `limit` exists.
    private static func collectNames(
        _ nodes: [ScanNode], owner: ElementID?, limit: Int, into names: inout [(text: String, owner: ElementID)]
    ) -> Bool {
        for node in nodes {
            let nodeOwner = owner ?? node.id
            switch node {
            case .item(let element):
                let text = name(of: element)
                if text.isEmpty { continue }
                if names.count == limit { return true }
                names.append((text, nodeOwner))
            case .group(let element, let children):
                let label = oneLine(element.label)
                if label.isEmpty {
                    if collectNames(children, owner: nodeOwner, limit: limit, into: &names) { return true }
                } else {
                    if names.count == limit { return true }
                    names.append((label, nodeOwner))
                }
            }
        }
        return false
    }
}
