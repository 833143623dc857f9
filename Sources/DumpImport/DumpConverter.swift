/// What both formats share: typed attributes (every number range-checked, every boolean
/// `true`/`false`), the scanner's skip rules, and the folding of wrappers.
struct DumpConverter {
    let file: String
    let limits: DumpLimits
    /// The screen, for the off-screen rule.
    var screen: (width: Double, height: Double) = (0, 0)
    var skipped: [SkippedElement] = []

    /// Points a frame may use: those of scene files (`SceneReader.coordinates`).
    static let coordinates: ClosedRange<Double> = -1_000_000...1_000_000

    init(file: String, limits: DumpLimits) {
        self.file = file
        self.limits = limits
    }

    func problem(_ node: DumpNode, _ message: String) -> DumpProblem {
        DumpProblem(file: file, position: node.position, message: message)
    }

    /// `true` or `false` (absent: `default`).
    func bool(_ node: DumpNode, _ key: String, default value: Bool) throws(DumpProblem) -> Bool {
        guard let text = node[key] else { return value }
        switch text {
        case "true": return true
        case "false": return false
        default: throw problem(node, "attribute \(key) must be true or false; found '\(Self.shown(text))'")
        }
    }

    /// A number of points in the coordinate range.
    func number(_ node: DumpNode, _ key: String, _ text: String?) throws(DumpProblem) -> Double {
        guard let text else { throw problem(node, "attribute \(key) is missing; expected a number of points") }
        guard let value = Self.decimal(text) else {
            throw problem(node, "attribute \(key) must be a number; found '\(Self.shown(text))'")
        }
        guard Self.coordinates.contains(value) else {
            throw problem(node, "attribute \(key) is \(Self.shown(text)); expected a number from -1000000 to 1000000")
        }
        return value
    }

    /// A plain decimal (`12`, `-3.5`): no hexadecimal, infinity, NaN or exponent, so that what
    /// is accepted is what a dump writes.
    static func decimal(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty, trimmed.count <= 40 else { return nil }
        var seenDigit = false, seenPoint = false
        for (index, character) in trimmed.enumerated() {
            switch character {
            case "-", "+": if index != 0 { return nil }
            case ".": if seenPoint { return nil }; seenPoint = true
            case "0"..."9": seenDigit = true
            default: return nil
            }
        }
        guard seenDigit, let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// A value quoted in a message: at most 40 characters.
    /// A dump's text as one line of a report: line breaks and tabs (a Play Store card's label
    /// holds several lines) become single spaces, and the text is cut at 40 characters.
    static func shown(_ text: String) -> String {
        let oneLine = text.split(whereSeparator: { $0.isNewline || $0 == "\t" }).joined(separator: " ")
        return oneLine.count > 40 ? String(oneLine.prefix(40)) + "…" : oneLine
    }

    /// Width and height must not be negative; an element whose frame is empty or off the screen is
    /// left out (nil, with its reason recorded for it and everything inside it).
    func checkedFrame(_ node: DumpNode, x: Double, y: Double, width: Double, height: Double) throws(DumpProblem) {
        if width < 0 || height < 0 {
            throw problem(node, "impossible frame: width \(NumberFormat.points(width)) and height \(NumberFormat.points(height)) must not be negative")
        }
    }

    func skipReason(frame: (x: Double, y: Double, width: Double, height: Double)) -> SkipReason? {
        if frame.width == 0 || frame.height == 0 { return .zeroSize }
        if frame.x >= screen.width || frame.y >= screen.height || frame.x + frame.width <= 0 || frame.y + frame.height <= 0 {
            return .offScreen
        }
        return nil
    }

    /// Records `node` and everything inside it as left out.
    mutating func skip(_ node: DumpNode, type: (DumpNode) -> String, _ reason: SkipReason) {
        skipped.append(SkippedElement(type: type(node), position: node.position, reason: reason))
        for child in node.children { skip(child, type: type, reason) }
    }

    /// A container that says nothing of its own (no label, trait or action) and holds one
    /// element is replaced by that element: dumps wrap every view in layouts the scanner never
    /// shows, and folding them keeps scenes under the nesting bound.
    static func fold(_ element: ImportedElement) -> ImportedElement {
        var element = element
        element.children = element.children.map(fold)
        if element.isContainer, element.children.count == 1, element.label == nil, element.value == nil,
           element.traits.isEmpty, element.customActions.isEmpty, !element.isTappable, !element.isModal,
           element.identifier == nil {
            return element.children[0]
        }
        return element
    }

    /// Texts read together (a row's, a clickable layout's): joined with `, `, cut to the
    /// scene's string bound.
    static func joined(_ texts: [String], limit: Int) -> String? {
        let text = texts.joined(separator: ", ")
        guard !text.isEmpty else { return nil }
        return text.count > limit ? String(text.prefix(limit)) : text
    }

    /// An item that has controls of its own inside it (a row with an info button, a clickable
    /// layout holding a button, a scrollable list and its rows): a group of the item first,
    /// then those controls, so that the scanner reaches each of them; the item alone when
    /// there are none.
    static func item(_ item: ImportedElement, then parts: [ImportedElement]) -> ImportedElement {
        guard !parts.isEmpty else { return item }
        var group = ImportedElement(
            identifier: nil, derivedID: item.type.slug() + "-group", type: item.type, label: nil, value: nil,
            traits: [], frame: item.frame, isContainer: true, position: item.position)
        group.children = [item] + parts
        group.keptBecause = "a group: the \(item.type) itself, then the \(parts.count) element\(parts.count == 1 ? "" : "s") inside it scanned on their own"
        return group
    }

    /// The deepest nesting of `elements`, and the element found there.
    static func deepest(_ elements: [ImportedElement], depth: Int = 1) -> (depth: Int, position: DumpPosition)? {
        var best: (Int, DumpPosition)?
        for element in elements {
            let found = element.children.isEmpty ? (depth, element.position) : deepest(element.children, depth: depth + 1)!
            if best == nil || found.0 > best!.0 { best = found }
        }
        return best
    }

    func checkDepth(_ elements: [ImportedElement]) throws(DumpProblem) {
        if let (depth, position) = Self.deepest(elements), depth > limits.maxSceneDepth {
            throw DumpProblem(file: file, position: position, message: "elements are nested \(depth) deep after folding single-child wrappers; a scene allows \(limits.maxSceneDepth)")
        }
    }

    /// A label, value or hint: empty is none; longer than the scene bound is refused.
    func text(_ node: DumpNode, _ key: String) throws(DumpProblem) -> String? {
        guard let value = node[key], !value.trimmingSpaces.isEmpty else { return nil }
        guard value.count <= limits.maxStringLength else {
            throw problem(node, "attribute \(key) is \(value.count) characters long; at most \(limits.maxStringLength) are accepted")
        }
        return value
    }
}

/// Numbers as scenes write them.
enum NumberFormat {
    static func points(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15, let whole = Int64(exactly: value) { return String(whole) }
        return String(value)
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    /// Lower-case letters and digits joined by `-`, at most `limit` characters: a readable id part.
    func slug(limit: Int = 32) -> String {
        var out = ""
        var pendingDash = false
        for character in lowercased() {
            if character.isLetter || character.isNumber {
                if pendingDash, !out.isEmpty { out.append("-") }
                pendingDash = false
                out.append(character)
                if out.count >= limit { break }
            } else {
                pendingDash = true
            }
        }
        return out
    }
}
