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

/// The guideline checks of `switchscan audit`. They read the element templates (so bound text is
/// checked on its literal parts) and the screens resolved with the initial state.
public enum SceneAudit {
    /// Words that name a control's type; the guides ask for labels without them ("Add", not
    /// "Add button"): the trait already tells the user.
    public static let typeWords: Set<String> = [
        "button", "btn", "link", "image", "picture", "icon", "slider", "checkbox", "tab", "heading",
    ]
    /// Words that name a gesture; hints describe the result, not the gesture ("Plays the song.",
    /// not "Tap to play the song."), since the user may not use touch at all (Switch Control).
    public static let gestureWords: Set<String> = [
        "tap", "taps", "double-tap", "swipe", "swipes", "flick", "click", "touch", "press",
    ]

    public static func audit(_ scene: Scene) -> [AuditFinding] {
        var findings = [AuditFinding]()
        for screen in scene.screens {
            for element in screen.elements { auditSubtree(element, hiddenAbove: false, into: &findings) }
        }
        findings += unreachable(scene)
        return findings.sorted { ($0.location.line, $0.location.column, $0.rule) < ($1.location.line, $1.location.column, $1.rule) }
    }

    static func auditSubtree(_ element: ElementTemplate, hiddenAbove: Bool, into findings: inout [AuditFinding]) {
        let hidden = hiddenAbove || element.accessibilityElementsHidden == .constant(true)
        func add(_ key: String, _ rule: String, _ message: String) {
            findings.append(AuditFinding(
                location: element.keyLocations[key] ?? element.location, rule: rule, elementID: element.id, message: message))
        }
        let isItem: Bool
        switch element.isAccessibilityElement {
        case .constant(let value)?: isItem = value
        case .condition?: isItem = true
        case nil: isItem = element.elements.isEmpty
        }
        if isItem, !hidden {
            if element.label == nil || element.label?.constantText == "" {
                add("id", "missing-label", "element '\(element.id)' is an accessibility element without a label")
            }
        }
        if let label = element.label {
            let text = literalText(label)
            let words = wordsOf(text)
            if let word = words.first(where: { typeWords.contains($0.lowercased()) }) {
                add("label", "label-names-type", "label \"\(text)\" of '\(element.id)' names its type ('\(word)'); the trait already says it")
            }
            if case .literal(let first)? = label.parts.first, let letter = first.first, letter.isLetter, letter.isLowercase {
                add("label", "label-capital", "label \"\(text)\" of '\(element.id)' does not start with a capital letter")
            }
            if case .literal(let last)? = label.parts.last, last.hasSuffix("."), !last.hasSuffix("...") {
                add("label", "label-period", "label \"\(text)\" of '\(element.id)' ends with a period; labels are not sentences")
            }
        }
        if let hint = element.hint {
            let text = literalText(hint)
            if case .literal(let first)? = hint.parts.first, let letter = first.first, letter.isLetter, letter.isLowercase {
                add("hint", "hint-capital", "hint \"\(text)\" of '\(element.id)' does not start with a capital letter")
            }
            if case .literal(let last)? = hint.parts.last, !last.hasSuffix(".") {
                add("hint", "hint-period", "hint \"\(text)\" of '\(element.id)' does not end with a period")
            } else if hint.parts.isEmpty {
                add("hint", "hint-period", "hint of '\(element.id)' is empty")
            }
            if let word = wordsOf(text).first(where: { gestureWords.contains($0.lowercased()) }) {
                add("hint", "hint-gesture", "hint \"\(text)\" of '\(element.id)' names a gesture ('\(word)'); describe the result instead")
            }
        }
        let adjustable = element.traits.contains { $0.trait == .adjustable }
        if adjustable, element.increment == nil || element.decrement == nil {
            let missing = [element.increment == nil ? "increment" : nil, element.decrement == nil ? "decrement" : nil].compactMap { $0 }
            add("traits", "adjustable-effects", "adjustable element '\(element.id)' has no \(missing.joined(separator: " or ")) effects")
        }
        for child in element.elements { auditSubtree(child, hiddenAbove: hidden, into: &findings) }
    }

    /// Accessibility elements that no scan of their screen reaches, for a reason that does not
    /// depend on state: omitted from an explicit `accessibilityElements`, or inside another
    /// accessibility element. Elements hidden on purpose, or whose presence depends on state, are
    /// not reported.
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
                        findings.append(AuditFinding(
                            location: element.location, rule: "unreachable", elementID: element.id,
                            message: "element '\(element.id)' is inside accessibility element '\(container.id)', so no scan reaches it"))
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
            }
        }.joined()
    }

    static func wordsOf(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0 == "-") }.map(String.init)
    }
}
