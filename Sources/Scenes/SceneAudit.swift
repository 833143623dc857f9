import AccessibilityModel

/// One violation of the seed documents' guidelines, pointing at the attribute concerned.
public struct AuditFinding: Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    /// A short stable name of the rule, for filtering: `label-names-type`, `label-capital`, …
    public var rule: String
    public var elementID: ElementID
    public var message: String

    public var description: String { "\(location): warning: \(message) [\(rule)]" }
}

/// The guideline checks of `switchscan audit`. They read the element templates and the screens
/// resolved with the initial state.
///
/// Only what can be read is checked: an element hidden with `accessibilityElementsHidden` (or
/// inside one), and the children of an accessibility element (whose own label speaks for them,
/// as in a table cell that combines its texts), are not reported as missing a label, and their
/// label and hint are not checked.
///
/// Bound text is checked on every way it can render: each `{name?yes:no}` choice is tried both
/// ways, and each `{name}` value stands for unknown text. A rule about how a label or hint starts
/// or ends (capital, period) reports only when every rendering breaks it (so `{shift?Q:q}` is
/// fine, and so is a text that starts with a value); a rule about the words used (type names,
/// gestures) reports when any rendering uses them.
public enum SceneAudit {
    /// Words that name a control's type; the guides ask for labels without them ("Add", not
    /// "Add button"): the trait already tells the user. A word is reported when it names a trait
    /// the element has (so "Add image" on a button and "New tab" on a button are fine), or, for
    /// an element with no type trait at all, when it is one of `untypedTypeWords`.
    public static let typeWords: Set<String> = [
        "button", "btn", "link", "image", "picture", "icon", "slider", "checkbox", "tab", "heading",
    ]
    /// The traits whose presence each type word repeats.
    static let typeWordTraits: [String: Traits] = [
        "button": .button, "btn": .button, "checkbox": .button, "link": .link,
        "image": .image, "picture": .image, "icon": .image, "slider": .adjustable,
        "tab": .tabBar, "heading": .header,
    ]
    /// Type words that are hardly ever content, reported even when the element has no type trait
    /// ("Play button" without the button trait names its type just the same).
    static let untypedTypeWords: Set<String> = ["button", "btn", "link", "checkbox", "slider"]
    /// The traits that say what kind of control an element is.
    static let typeTraits: Traits = [.button, .link, .image, .adjustable, .header, .tabBar, .keyboardKey, .searchField]

    /// Words that name a gesture; hints describe the result, not the gesture ("Plays the song.",
    /// not "Tap to play the song."), since the user may not use touch at all (Switch Control).
    /// A gesture word used as a noun is not reported: after a determiner ("Opens the press
    /// release.") or capitalised inside a sentence as part of a name ("Opens Touch ID settings.").
    /// Every inflection counts: the Apple guide's own bad examples include "Tapping purchases the
    /// item." besides "Tap to play the song." and "Swipe to delete the item.".
    public static let gestureWords: Set<String> = [
        "tap", "taps", "tapping", "tapped",
        "double-tap", "double-taps", "double-tapping", "double-tapped",
        "swipe", "swipes", "swiping", "swiped",
        "flick", "flicks", "flicking", "flicked",
        "click", "clicks", "clicking", "clicked",
        "touch", "touches", "touching", "touched",
        "press", "presses", "pressing", "pressed",
    ]
    /// Words before a gesture word that make it a gesture whatever its case ("Double Tap to open.").
    static let gestureModifiers: Set<String> = ["double", "triple", "two-finger", "three-finger", "then", "you"]
    static let determiners: Set<String> = [
        "the", "a", "an", "this", "that", "these", "those", "your", "my", "our", "their", "its", "his", "her",
    ]

    /// Abbreviations that end a label with a period without making it a sentence ("Apple Inc.").
    public static let abbreviations: Set<String> = [
        "inc", "ltd", "co", "corp", "jr", "sr", "dr", "mr", "mrs", "ms", "mme", "mlle", "prof", "st", "mt",
        "vs", "etc", "no", "vol", "approx", "dept", "min", "sec", "hr", "hrs", "ave", "blvd", "cf", "ft",
        "oz", "lb", "lbs", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    ]

    /// Verbs a hint must not begin with in their base form, the form of a command ("Play the
    /// song."); the Apple guide asks for the form that describes ("Plays the song."). Gesture
    /// verbs are left to `hint-gesture`.
    public static let commandVerbs: Set<String> = [
        "play", "add", "delete", "remove", "save", "open", "close", "show", "hide", "go", "return",
        "send", "share", "select", "choose", "edit", "start", "stop", "pause", "resume", "search",
        "find", "create", "make", "take", "set", "change", "adjust", "move", "purchase", "buy",
        "call", "view", "display", "load", "download", "upload", "enter", "type", "clear", "reset",
        "cancel", "confirm", "submit", "skip", "turn", "toggle", "enable", "disable", "check",
        "mark", "rate", "sort", "filter", "refresh", "update", "copy", "paste", "cut", "undo", "redo",
        "print", "record", "scroll", "zoom", "expand", "collapse", "log", "sign", "navigate", "dismiss",
        "increase", "decrease", "mute", "unmute", "read", "listen", "watch", "write", "use", "get",
    ]

    public static func audit(_ scene: Scene) -> [AuditFinding] {
        var findings = [AuditFinding]()
        for screen in scene.screens {
            for element in screen.elements {
                auditSubtree(
                    element, hiddenAbove: false, insideItem: false, ancestorTraits: [], language: scene.language,
                    into: &findings)
            }
        }
        findings += unreachable(scene)
        findings += hiddenForGood(scene)
        return findings.sorted {
            ($0.location.line, $0.location.column, $0.rule, $0.elementID) < ($1.location.line, $1.location.column, $1.rule, $1.elementID)
        }
    }

    static func auditSubtree(
        _ element: ElementTemplate, hiddenAbove: Bool, insideItem: Bool, ancestorTraits: Traits, language: String,
        into findings: inout [AuditFinding]
    ) {
        let language = element.language ?? language
        let hidden = hiddenAbove || element.accessibilityElementsHidden == .constant(true)
        func add(_ key: String, _ rule: String, _ message: String) {
            findings.append(AuditFinding(
                location: element.location(of: key), rule: rule, elementID: element.id, message: message))
        }
        let isItem: Bool
        switch element.isAccessibilityElement {
        case .constant(let value)?: isItem = value
        case .condition?: isItem = true
        case nil: isItem = element.elements.isEmpty
        }
        var traits = Traits()
        for entry in element.traits { traits.insert(entry.trait) }
        let isKey = traits.contains(.keyboardKey)

        // Hidden elements and the children of an accessibility element (whose label speaks for
        // them) are never read: they need no label, and their texts are not checked.
        let neverRead = hidden || insideItem
        if isItem, !neverRead {
            // A placeholder is the label of a field that has none (while the field is empty).
            let label = element.label ?? element.placeholder
            if label == nil || label?.constantText?.allSatisfy(\.isWhitespace) == true {
                add("id", "missing-label", "element '\(element.id)' is an accessibility element without a label")
            }
        }
        if let label = element.label, !neverRead {
            let text = literalText(label)
            let variants = renderings(label)
            if let word = variants.lazy.compactMap({ typeWord(in: $0, traits: traits, ancestorTraits: ancestorTraits) }).first {
                add("label", "label-names-type", "label \"\(text)\" of '\(element.id)' names its type ('\(word)'); the trait already says it")
            }
            // A key's label is the character or the system key name it types ("q", "shift", ".").
            if !isKey, variants.allSatisfy(startsLowercase) {
                add("label", "label-capital", "label \"\(text)\" of '\(element.id)' does not start with a capital letter")
            }
            if !isKey, variants.allSatisfy(endsWithSentencePeriod) {
                add("label", "label-period", "label \"\(text)\" of '\(element.id)' ends with a period; labels are not sentences")
            }
        }
        if let hint = element.hint, !neverRead {
            let text = literalText(hint)
            let variants = renderings(hint)
            if variants.allSatisfy(startsLowercase) {
                add("hint", "hint-capital", "hint \"\(text)\" of '\(element.id)' does not start with a capital letter")
            }
            if hint.parts.isEmpty || hint.constantText?.allSatisfy(\.isWhitespace) == true {
                add("hint", "hint-period", "hint of '\(element.id)' is empty")
            } else if variants.allSatisfy(lacksFinalPeriod) {
                add("hint", "hint-period", "hint \"\(text)\" of '\(element.id)' does not end with a period")
            }
            if let word = variants.lazy.compactMap(gestureWord).first {
                add("hint", "hint-gesture", "hint \"\(text)\" of '\(element.id)' names a gesture ('\(word)'); describe the result instead")
            }
            let repeated = element.label.flatMap { label in
                renderings(label).lazy.compactMap { repeatedName(label: $0, hint: variants) }.first
            }
            if let name = repeated {
                add("hint", "hint-names-control", "hint \"\(text)\" of '\(element.id)' begins with the control's name ('\(name)'), which the label already gives")
            }
            if let word = variants.lazy.compactMap(leadingTypeWord).first {
                add("hint", "hint-names-type", "hint \"\(text)\" of '\(element.id)' names the control's type ('\(word)'); the trait already says it")
            }
            // A hint that begins with the name ("Save saves your edits.") is reported for that.
            if repeated == nil, language.lowercased().hasPrefix("en"), let verb = variants.lazy.compactMap(leadingCommandVerb).first {
                add("hint", "hint-command", "hint \"\(text)\" of '\(element.id)' begins with '\(verb)', a command; begin with the verb that describes the result ('\(describingForm(verb))')")
            }
            if language.lowercased().hasPrefix("en"), let terse = variants.lazy.compactMap(droppedArticle).first {
                add("hint", "hint-terse", "hint \"\(text)\" of '\(element.id)' leaves out the article ('\(terse)'); a hint is a short sentence, and brevity must not cost its grammar")
            }
        }
        // `none` (UIAccessibilityTraitNone) "cannot be used in conjunction with others" (DISIC):
        // beside another trait it says nothing, and the element has the others anyway.
        if element.traits.count > 1, element.traits.contains(where: { $0.trait.isEmpty && $0.condition == nil }) {
            let others = element.traits.filter { !$0.trait.isEmpty }.flatMap(\.trait.names).joined(separator: ", ")
            add("traits", "none-combined", "traits of '\(element.id)' combine none with \(others); none combines with nothing: remove it, or the other traits")
        }
        if traits.contains(.adjustable), element.increment == nil || element.decrement == nil {
            let missing = [element.increment == nil ? "increment" : nil, element.decrement == nil ? "decrement" : nil].compactMap { $0 }
            add("traits", "adjustable-effects", "adjustable element '\(element.id)' has no \(missing.joined(separator: " or ")) effects")
        }
        let childrenInsideItem = insideItem || element.isAccessibilityElement == .constant(true)
        for child in element.elements {
            auditSubtree(
                child, hiddenAbove: hidden, insideItem: childrenInsideItem, ancestorTraits: ancestorTraits.union(traits),
                language: language, into: &findings)
        }
    }

    /// Accessibility elements that no scan of their screen reaches, for a reason that does not
    /// depend on state: omitted from an explicit `accessibilityElements`, or declared
    /// `isAccessibilityElement: true` inside another accessibility element. Elements hidden on
    /// purpose, or whose presence depends on state, are not reported; nor are the implicit
    /// leaves of an accessibility element (a label and a value grouped into one cell), which is
    /// how the guides group elements.
    static func unreachable(_ scene: Scene) -> [AuditFinding] {
        var findings = [AuditFinding]()
        for template in scene.screens {
            guard let screen = scene.screen(template.name, state: scene.initialState) else { continue }
            let reached = Set(screen.scanNodes().flatMap { node in [node.id] + node.items.map(\.id) })
            func walk(_ element: ElementTemplate, ancestors: [ElementTemplate], stateDependent: Bool) {
                let dependent = stateDependent || element.visible != nil || isBound(element.accessibilityElementsHidden)
                    || isBound(element.accessibilityViewIsModal) || element.isAccessibilityElement.map(isBound) == true
                if element.accessibilityElementsHidden == .constant(true) { return }
                let isItem: Bool
                if case .constant(let value)? = element.isAccessibilityElement { isItem = value } else {
                    isItem = element.isAccessibilityElement == nil && element.elements.isEmpty
                }
                if isItem, !dependent, !reached.contains(element.id) {
                    if let container = ancestors.last(where: { $0.isAccessibilityElement == .constant(true) }) {
                        if element.isAccessibilityElement == .constant(true) {
                            findings.append(AuditFinding(
                                location: element.location, rule: "unreachable", elementID: element.id,
                                message: "element '\(element.id)' is declared an accessibility element but is inside accessibility element '\(container.id)', so no scan reaches it"))
                        }
                    } else if let lister = ancestors.last(where: { $0.accessibilityElements != nil }) {
                        findings.append(AuditFinding(
                            location: element.location, rule: "unreachable", elementID: element.id,
                            message: "element '\(element.id)' is not listed in accessibilityElements of '\(lister.id)', so no scan reaches it"))
                    } else if template.accessibilityElements != nil {
                        findings.append(AuditFinding(
                            location: element.location, rule: "unreachable", elementID: element.id,
                            message: "element '\(element.id)' is not listed in accessibilityElements of screen '\(template.name)', so no scan reaches it"))
                    }
                }
                for child in element.elements { walk(child, ancestors: ancestors + [element], stateDependent: dependent) }
            }
            let hasModal = template.elements.flatMap(\.subtree).contains { $0.accessibilityViewIsModal != .constant(false) }
            guard !hasModal else { continue }  // siblings of a modal view are left out on purpose
            for element in template.elements { walk(element, ancestors: [], stateDependent: false) }
        }
        return findings
    }

    /// Elements that no state of the scene ever exposes, though they were meant to be used:
    /// - `behind-modal`: an actionable element (a button, a link, an adjustable, a key, a search
    ///   field, or one with effects or custom actions) among the siblings of a modal view that
    ///   is there in every state (`accessibilityViewIsModal: true`, no `visible` binding, never
    ///   hidden), or inside one of them: VoiceOver and the scanner ignore a modal view's
    ///   siblings, so while the modal view is always shown, they are never reached. The Orange
    ///   guide: "all the undesirable elements must be hidden as soon as the modal view is
    ///   activated as modal", and shown again when it is dismissed; a modal view that is never
    ///   dismissed leaves its siblings unreachable for good.
    /// - `hidden-container`: an element declared an accessibility element, or actionable,
    ///   inside a container hidden in every state (`accessibilityElementsHidden: true`): "The
    ///   elements contained in the target element won't be accessible even if they're defined as
    ///   such" (the Orange guide, "Hide elements").
    /// Only constants count as "every state": a bound attribute may change when the app changes
    /// its state. The children of an accessibility element are not looked at (its own label
    /// speaks for them; `unreachable` covers those declared accessible). An element whose only
    /// action is a tap that a reachable item's tap lands on is not reported: hidden native bar
    /// items under accessible proxies (the Orange guide's navigation bar) are used that way.
    static func hiddenForGood(_ scene: Scene) -> [AuditFinding] {
        var findings = [AuditFinding]()
        var taps: TapReach?
        var screenName = ""
        /// Reported: meant to be used, and not used through another element's tap.
        func isUsedOnlyHere(_ element: ElementTemplate) -> Bool {
            guard isActionable(element) else { return false }
            let onlyTaps = element.increment == nil && element.decrement == nil && element.customActions.isEmpty
            guard onlyTaps else { return true }
            // Built for the few screens that have such an element at all.
            if taps == nil { taps = TapReach(scene: scene, screen: screenName) }
            return taps?.isTapTarget(element.id) != true
        }
        func isDeclaredAccessible(_ element: ElementTemplate) -> Bool {
            guard let binding = element.isAccessibilityElement else { return false }
            return binding != .constant(false)
        }
        /// Children of `element` are never separate items (it speaks for them).
        func speaksForChildren(_ element: ElementTemplate) -> Bool {
            element.isAccessibilityElement == .constant(true)
        }
        func isAlwaysModal(_ element: ElementTemplate) -> Bool {
            element.accessibilityViewIsModal == .constant(true) && element.visible == nil
                && element.accessibilityElementsHidden == .constant(false)
        }
        // Inside an always-hidden container: what was meant to be read or used.
        func walkHidden(_ element: ElementTemplate, container: ElementTemplate) {
            if isUsedOnlyHere(element) || (isDeclaredAccessible(element) && !isActionable(element)) {
                let what = isActionable(element) ? "actionable element" : "accessibility element"
                findings.append(AuditFinding(
                    location: element.location, rule: "hidden-container", elementID: element.id,
                    message: "\(what) '\(element.id)' is inside '\(container.id)', which has accessibilityElementsHidden: true in every state, so no scan reaches it"))
            }
            if speaksForChildren(element) { return }
            for child in element.elements { walkHidden(child, container: container) }
        }
        // Behind an always-present modal view: actionable elements.
        func walkBehind(_ element: ElementTemplate, modal: ElementTemplate) {
            if element.accessibilityElementsHidden == .constant(true) {
                // Hidden anyway: what it holds is reported as in a hidden container.
                for child in element.elements { walkHidden(child, container: element) }
                return
            }
            if isUsedOnlyHere(element) {
                findings.append(AuditFinding(
                    location: element.location, rule: "behind-modal", elementID: element.id,
                    message: "actionable element '\(element.id)' is behind modal view '\(modal.id)', which is shown in every state (accessibilityViewIsModal: true, never hidden), so no scan reaches it"))
            }
            if speaksForChildren(element) { return }
            for child in element.elements { walkBehind(child, modal: modal) }
        }
        // Everything else: look for always-hidden containers and always-present modal views
        // among each container's children (the screen's elements are the root view's children).
        func walkSiblings(_ siblings: [ElementTemplate]) {
            let modal = siblings.last(where: isAlwaysModal)
            for element in siblings {
                if let modal, element.id != modal.id, element.accessibilityViewIsModal == .constant(false) {
                    walkBehind(element, modal: modal)
                } else if element.accessibilityElementsHidden == .constant(true) {
                    for child in element.elements { walkHidden(child, container: element) }
                } else if !speaksForChildren(element) {
                    walkSiblings(element.elements)
                }
            }
        }
        for template in scene.screens {
            taps = nil
            screenName = template.name
            walkSiblings(template.elements)
        }
        return findings
    }

    /// Which elements a reachable item's tap lands on, on a screen resolved with the initial
    /// state: an item without `activate` acts by a tap at its activation point, which hits the
    /// deepest present element there that has `activate` (`Activation.target`). Asked per
    /// element, so that only the items whose activation point lies in its frame are hit-tested.
    struct TapReach {
        var present: Element?
        var frames: [ElementID: Rect] = [:]
        /// Activation points of the scan's items that do not act themselves.
        var points: [Point] = []

        init(scene: Scene, screen name: String) {
            guard let screen = scene.screen(name, state: scene.initialState) else { return }
            let present = Visibility.presentTree(screen.root)
            self.present = present
            func walk(_ element: Element) {
                if let frame = element.resolvedFrame { frames[element.id] = frame }
                for child in element.children { walk(child) }
            }
            walk(present)
            points = screen.scanNodes().flatMap(\.items).compactMap { $0.activate == nil ? $0.resolvedActivationPoint : nil }
        }

        func isTapTarget(_ id: ElementID) -> Bool {
            guard let present, let frame = frames[id] else { return false }
            return points.contains { point in
                frame.contains(point) && HitTesting.deepestElement(at: point, in: present) { $0.activate != nil }?.id == id
            }
        }
    }

    /// An element meant to be acted on: a control trait (conditional or not), or any behaviour.
    static func isActionable(_ element: ElementTemplate) -> Bool {
        let controlTraits: Traits = [.button, .link, .adjustable, .keyboardKey, .searchField]
        if element.traits.contains(where: { !controlTraits.intersection($0.trait).isEmpty }) { return true }
        return element.activate != nil || element.increment != nil || element.decrement != nil
            || !element.customActions.isEmpty
    }

    static func isBound(_ binding: BoolBinding) -> Bool {
        if case .condition = binding { return true }
        return false
    }

    static func literalText(_ template: TextTemplate) -> String {
        template.parts.map { part -> String in
            switch part {
            case .literal(let text): return text
            case .value(let name): return "{\(name)}"
            case .choice(let name, let yes, let no): return "{\(name)?\(yes):\(no)}"
            case .plural(let name, let one, let other): return "{\(name)#\(one):\(other)}"
            }
        }.joined()
    }

    // MARK: Renderings

    /// Stands for the unknown text of a `{name}` value: not a letter, not a period, not a space.
    static let unknownText: Character = "\u{FFFC}"

    /// The texts a template can render: each choice both ways (up to 2⁶ combinations; beyond
    /// that, further choices are taken as unknown text), each value as `unknownText`.
    static func renderings(_ template: TextTemplate) -> [String] {
        var results = [""]
        var choices = 0
        for part in template.parts {
            switch part {
            case .literal(let text):
                results = results.map { $0 + text }
            case .value:
                results = results.map { $0 + String(unknownText) }
            case let .choice(_, whenTrue, whenFalse), let .plural(_, whenTrue, whenFalse):
                choices += 1
                if choices > 6 {
                    results = results.map { $0 + String(unknownText) }
                } else {
                    results = results.flatMap { [$0 + whenTrue, $0 + whenFalse] }
                }
            }
        }
        return results
    }

    /// The text starts with a lowercase letter, and its first word is not a name written with a
    /// capital inside it ("iPhone", "eBay", "macOS"). Letters without case (Chinese, digits)
    /// never count as lowercase.
    static func startsLowercase(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter, first.isLowercase else { return false }
        let firstWord = text.prefix { !$0.isWhitespace }
        return !firstWord.contains(where: \.isUppercase)
    }

    /// The text ends with a period that closes a sentence: not an ellipsis, not a label that is
    /// only punctuation ("." for the period key), not an abbreviation ("Apple Inc.", "Dr.") or
    /// initials ("U.S.", "J.").
    static func endsWithSentencePeriod(_ text: String) -> Bool {
        guard text.hasSuffix("."), !text.hasSuffix("..."), text.contains(where: { $0.isLetter || $0.isNumber }) else {
            return false
        }
        let lastToken = text.dropLast().split(whereSeparator: \.isWhitespace).last.map(String.init) ?? ""
        let word = String(lastToken.drop { !$0.isLetter })
        if word.contains(".") { return false }                                   // U.S.
        if word.count == 1, word.first?.isLetter == true { return false }        // J.
        if abbreviations.contains(word.lowercased()) { return false }           // Inc.
        return true
    }

    /// The text does not end with a period (and does not end with unknown text, which may).
    static func lacksFinalPeriod(_ text: String) -> Bool {
        let trimmed = text.reversed().drop(while: \.isWhitespace)
        guard let last = trimmed.first else { return true }
        return last != "." && last != unknownText
    }

    static func wordsOf(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0 == "-") }.map(String.init)
    }

    /// The first word of the label that names the element's type, if any.
    static func typeWord(in text: String, traits: Traits, ancestorTraits: Traits) -> String? {
        let hasTypeTrait = !traits.intersection(typeTraits).isEmpty
        return wordsOf(text).first { word in
            let lower = word.lowercased()
            guard typeWords.contains(lower), let trait = typeWordTraits[lower] else { return false }
            if traits.contains(trait) { return true }
            if trait == .tabBar, ancestorTraits.contains(.tabBar) { return true }   // an item of a tab bar
            return !hasTypeTrait && untypedTypeWords.contains(lower)
        }
    }

    /// The label when the hint begins with it as whole words ("Save saves your edits." for Save,
    /// "Back returns to the previous screen." for Back), ignoring case; only the start is looked
    /// at, where a repeated name is heard at once.
    static func repeatedName(label: String, hint variants: [String]) -> String? {
        let labelWords = wordsOf(label).map { $0.lowercased() }
        guard !labelWords.isEmpty, !label.contains(unknownText) else { return nil }
        let repeats = variants.contains { hint in
            let hintWords = wordsOf(hint).map { $0.lowercased() }
            return hintWords.count > labelWords.count && Array(hintWords.prefix(labelWords.count)) == labelWords
        }
        return repeats ? label : nil
    }

    /// A type word that the hint begins with, after a determiner if any ("Button that adds a
    /// name.", "A slider that controls the scale.").
    static func leadingTypeWord(_ hint: String) -> String? {
        var words = wordsOf(hint)
        if let first = words.first, determiners.contains(first.lowercased()) { words.removeFirst() }
        guard let word = words.first, typeWordTraits[word.lowercased()] != nil else { return nil }
        return word
    }

    /// The hint's first word when it is a verb in the form of a command ("Play the song.").
    static func leadingCommandVerb(_ hint: String) -> String? {
        guard let word = wordsOf(hint).first, commandVerbs.contains(word.lowercased()) else { return nil }
        return word
    }

    /// Words that need no article after a verb: mass nouns and pronouns ("Plays music.",
    /// "Clears text.", "Deletes it.").
    static let noArticleNeeded: Set<String> = [
        "music", "text", "information", "data", "mail", "email", "audio", "video", "media", "content", "help",
        "progress", "history", "weather", "news", "money", "time", "everything", "all", "it", "them", "one",
        "more", "less", "home", "back", "up", "down", "out", "in", "on", "off", "here", "there", "now",
        "feedback", "traffic", "advice", "software", "storage", "space", "sound", "light",
    ]

    /// "Adds city.": a hint of a describing verb and one singular noun with no article, which
    /// the Apple guide gives as what not to write ("changing "Adds a city" to "Adds city" does not
    /// significantly decrease the length of the hint, but does make it sound awkward"). The
    /// hint with the article, or nil.
    static func droppedArticle(_ hint: String) -> String? {
        let words = wordsOf(hint)
        guard words.count == 2 else { return nil }
        let verb = words[0].lowercased(), noun = words[1]
        guard commandVerbs.contains(where: { describingForm($0) == verb }),
              noun.first?.isLowercase == true, !noun.hasSuffix("s"),
              !noArticleNeeded.contains(noun), !determiners.contains(noun)
        else { return nil }
        let article = "aeiou".contains(noun.first!) ? "an" : "a"
        return "\(words[0]) \(article) \(noun)."
    }

    /// The form of `verb` that describes what happens ("Plays", "Goes", "Searches").
    static func describingForm(_ verb: String) -> String {
        let lower = verb.lowercased()
        let ending: String
        if lower.hasSuffix("o") || lower.hasSuffix("s") || lower.hasSuffix("sh") || lower.hasSuffix("ch") || lower.hasSuffix("x") {
            ending = "es"
        } else if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return String(verb.dropLast()) + "ies"
        } else {
            ending = "s"
        }
        return verb + ending
    }

    /// The first gesture word of the hint used as a gesture, if any.
    static func gestureWord(in text: String) -> String? {
        // Tokens split at spaces keep their punctuation, to see where sentences start.
        var sentenceStart = true
        var previous: String?
        for token in text.split(whereSeparator: \.isWhitespace) {
            let words = wordsOf(String(token))
            for (index, word) in words.enumerated() where gestureWords.contains(word.lowercased()) {
                let before = index == 0 ? previous : words[index - 1].lowercased()
                if let before, gestureModifiers.contains(before) { return word }     // "Double Tap"
                if let before, determiners.contains(before) { continue }            // "the press kit"
                let atStart = sentenceStart && index == 0
                if word.first?.isUppercase == true && !atStart { continue }         // "Touch ID"
                return word
            }
            sentenceStart = token.last.map { ".!?:;".contains($0) } ?? false
            previous = words.last?.lowercased()
        }
        return nil
    }
}
