/// What the import does with an Android widget class: the traits it gives, whether it holds a
/// value the user edits or adjusts, and whether its text is its value rather than its label.
struct AndroidWidget: Sendable {
    var traits: [String]
    var isCheckable = false
    var isEditable = false
    var isAdjustable = false
}

/// Android's UI Automator dump: `<hierarchy rotation="…">` holding `<node>` elements with
/// `index`, `text`, `resource-id`, `class`, `package`, `content-desc`, `checkable`, `checked`,
/// `clickable`, `enabled`, `focusable`, `focused`, `scrollable`, `long-clickable`, `password`,
/// `selected`, `bounds="[x1,y1][x2,y2]"` (pixels), and in newer versions `visible-to-user`,
/// `hint` and `NAF` (not accessibility friendly). Appium's page source is the same tree with
/// elements named after their class and `displayed` for `visible-to-user`.
enum AndroidDump {
    /// The common widget classes, by simple name (the part after the last dot). The table in
    /// docs/importing.md says the same, with what Switch Access does with each. Other classes
    /// (custom views) are read by their attributes alone.
    static let widgets: [String: AndroidWidget] = [
        "Button": .init(traits: ["button"]),
        "MaterialButton": .init(traits: ["button"]),
        "AppCompatButton": .init(traits: ["button"]),
        "ImageButton": .init(traits: ["button"]),
        "AppCompatImageButton": .init(traits: ["button"]),
        "FloatingActionButton": .init(traits: ["button"]),
        "ExtendedFloatingActionButton": .init(traits: ["button"]),
        "CheckBox": .init(traits: ["button"], isCheckable: true),
        "AppCompatCheckBox": .init(traits: ["button"], isCheckable: true),
        "MaterialCheckBox": .init(traits: ["button"], isCheckable: true),
        "RadioButton": .init(traits: ["button"], isCheckable: true),
        "AppCompatRadioButton": .init(traits: ["button"], isCheckable: true),
        "Switch": .init(traits: ["button"], isCheckable: true),
        "SwitchCompat": .init(traits: ["button"], isCheckable: true),
        "SwitchMaterial": .init(traits: ["button"], isCheckable: true),
        "MaterialSwitch": .init(traits: ["button"], isCheckable: true),
        "ToggleButton": .init(traits: ["button"], isCheckable: true),
        "CheckedTextView": .init(traits: ["button"], isCheckable: true),
        "Chip": .init(traits: ["button"]),
        "TextView": .init(traits: ["staticText"]),
        "AppCompatTextView": .init(traits: ["staticText"]),
        "MaterialTextView": .init(traits: ["staticText"]),
        "EditText": .init(traits: [], isEditable: true),
        "AppCompatEditText": .init(traits: [], isEditable: true),
        "TextInputEditText": .init(traits: [], isEditable: true),
        "AutoCompleteTextView": .init(traits: [], isEditable: true),
        "MultiAutoCompleteTextView": .init(traits: [], isEditable: true),
        "SearchAutoComplete": .init(traits: ["searchField"], isEditable: true),
        "ImageView": .init(traits: ["image"]),
        "AppCompatImageView": .init(traits: ["image"]),
        "SeekBar": .init(traits: ["adjustable"], isAdjustable: true),
        "AppCompatSeekBar": .init(traits: ["adjustable"], isAdjustable: true),
        "Slider": .init(traits: ["adjustable"], isAdjustable: true),
        "RatingBar": .init(traits: ["adjustable"], isAdjustable: true),
        "NumberPicker": .init(traits: ["adjustable"], isAdjustable: true),
        "ProgressBar": .init(traits: ["updatesFrequently"]),
        "Spinner": .init(traits: ["button"]),
        "AppCompatSpinner": .init(traits: ["button"]),
        "TabWidget": .init(traits: ["tabBar"]),
        "TabLayout": .init(traits: ["tabBar"]),
        "BottomNavigationView": .init(traits: ["tabBar"]),
        "WebView": .init(traits: []),
        "VideoView": .init(traits: ["startsMediaSession"]),
    ]

    static func simpleName(_ node: DumpNode) -> String {
        guard let className = node["class"] else { return "node" }
        return className.split(separator: ".").last.map(String.init) ?? className
    }

    /// `[x1,y1][x2,y2]`: integers (pixels) in the coordinate range, x2 ≥ x1 and y2 ≥ y1.
    static func bounds(_ node: DumpNode, _ converter: DumpConverter) throws(DumpProblem) -> (x: Double, y: Double, width: Double, height: Double) {
        guard let text = node["bounds"] else {
            throw converter.problem(node, "attribute bounds is missing; expected [x1,y1][x2,y2]")
        }
        let parts = text.split(whereSeparator: { $0 == "[" || $0 == "]" || $0 == "," }).map(String.init)
        let shapeOK = text.hasPrefix("[") && text.hasSuffix("]") && text.filter({ $0 == "[" }).count == 2 && text.contains("][")
        guard shapeOK, parts.count == 4 else {
            throw converter.problem(node, "attribute bounds must be [x1,y1][x2,y2]; found '\(DumpConverter.shown(text))'")
        }
        var numbers = [Double]()
        for part in parts { numbers.append(try converter.number(node, "bounds", part)) }
        let (x1, y1, x2, y2) = (numbers[0], numbers[1], numbers[2], numbers[3])
        guard x2 >= x1, y2 >= y1 else {
            throw converter.problem(node, "impossible frame: bounds \(text) end before they start (x2 < x1 or y2 < y1)")
        }
        return (x1, y1, x2 - x1, y2 - y1)
    }

    static func convert(_ root: DumpNode, file: String, limits: DumpLimits) throws(DumpProblem) -> (size: (Double, Double), elements: [ImportedElement], skipped: [SkippedElement]) {
        var converter = DumpConverter(file: file, limits: limits)
        guard root.name == "hierarchy" else {
            throw converter.problem(root, "unknown element type '\(DumpConverter.shown(root.name))'; a UI Automator dump starts with <hierarchy>")
        }
        guard !root.children.isEmpty else {
            throw converter.problem(root, "the hierarchy holds no node; expected the screen's root node")
        }
        // The screen: what the top-level nodes (the windows) cover.
        var width = 0.0, height = 0.0
        for window in root.children {
            try checkName(window, converter)
            let frame = try bounds(window, converter)
            width = max(width, frame.x + frame.width)
            height = max(height, frame.y + frame.height)
        }
        guard width > 0, height > 0 else {
            throw converter.problem(root.children[0], "impossible screen size \(NumberFormat.points(width)) × \(NumberFormat.points(height)): the root node's bounds must not be empty")
        }
        converter.screen = (width, height)
        var elements = [ImportedElement]()
        for window in root.children {
            if let element = try convert(window, &converter) { elements.append(element) }
        }
        elements = elements.map(DumpConverter.fold)
        while elements.count == 1, elements[0].isContainer, elements[0].label == nil, elements[0].traits.isEmpty,
              elements[0].customActions.isEmpty, elements[0].identifier == nil {
            elements = elements[0].children
        }
        try converter.checkDepth(elements)
        return ((width, height), elements, converter.skipped)
    }

    /// UI Automator's own dump names every element `<node>`; Appium's UiAutomator2 page source
    /// names it after its widget class (`<android.widget.FrameLayout class="android.widget.FrameLayout">`,
    /// characters XML does not allow in a name replaced by `_`). Both are the same tree.
    static func checkName(_ node: DumpNode, _ converter: DumpConverter) throws(DumpProblem) {
        guard node.name == "node" || isClassTag(node) else {
            throw converter.problem(node, "unknown element type '\(DumpConverter.shown(node.name))'; a UI Automator dump has only <node> elements inside <hierarchy>, an Appium page source elements named after their class attribute")
        }
    }

    /// Whether the element's name is its class, as Appium writes it: the class attribute itself,
    /// or that attribute with what an XML name cannot hold replaced by `_`.
    static func isClassTag(_ node: DumpNode) -> Bool {
        guard let className = node["class"], !className.isEmpty else { return false }
        if node.name == className { return true }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        return node.name == String(className.map { allowed.contains($0) ? $0 : "_" })
    }

    /// Whether the node is on screen for its user: `visible-to-user` in UI Automator's dump,
    /// `displayed` in Appium's page source; visible when neither says.
    static func isShown(_ node: DumpNode) -> Bool {
        (node["visible-to-user"] ?? node["displayed"]) != "false"
    }

    /// The attributes of a node, typed.
    struct Attributes {
        var frame: (x: Double, y: Double, width: Double, height: Double)
        var clickable, longClickable, checkable, checked, enabled, focusable, scrollable, password, selected, visible: Bool
        var text, description, hint, resourceID: String?
    }

    static func attributes(_ node: DumpNode, _ converter: DumpConverter) throws(DumpProblem) -> Attributes {
        try checkName(node, converter)
        return Attributes(
            frame: try bounds(node, converter),
            clickable: try converter.bool(node, "clickable", default: false),
            longClickable: try converter.bool(node, "long-clickable", default: false),
            checkable: try converter.bool(node, "checkable", default: false),
            checked: try converter.bool(node, "checked", default: false),
            enabled: try converter.bool(node, "enabled", default: true),
            focusable: try converter.bool(node, "focusable", default: false),
            scrollable: try converter.bool(node, "scrollable", default: false),
            password: try converter.bool(node, "password", default: false),
            selected: try converter.bool(node, "selected", default: false),
            visible: try converter.bool(node, node["visible-to-user"] == nil && node["displayed"] != nil ? "displayed" : "visible-to-user", default: true),
            text: try converter.text(node, "text"),
            description: try converter.text(node, "content-desc"),
            hint: try converter.text(node, "hint"),
            resourceID: try converter.text(node, "resource-id"))
    }

    static func checkSubtree(_ node: DumpNode, _ converter: DumpConverter) throws(DumpProblem) {
        _ = try attributes(node, converter)
        for child in node.children { try checkSubtree(child, converter) }
    }

    /// Whether Switch Access would act on the node: a tap, long press, check or edit.
    static func isActionable(_ node: DumpNode) -> Bool {
        let widget = widgets[simpleName(node)]
        // A checkable child that is not clickable only shows its row's state (a settings row's
        // switch): the row is what is acted on.
        return node["clickable"] == "true" || node["long-clickable"] == "true"
            || node["scrollable"] == "true" || widget?.isEditable == true || widget?.isAdjustable == true
    }

    static func holdsActionable(_ node: DumpNode) -> Bool {
        isActionable(node) || node.children.contains(where: holdsActionable)
    }

    /// The text of a subtree, in order: what TalkBack and Switch Access say for a clickable
    /// layout whose children only show text.
    static func spokenText(_ node: DumpNode) -> [String] {
        if let description = node["content-desc"], !description.trimmingSpaces.isEmpty { return [description] }
        var parts = [String]()
        if let text = node["text"], !text.trimmingSpaces.isEmpty, node["password"] != "true" { parts.append(text) }
        for child in node.children where isShown(child) { parts += spokenText(child) }
        return parts
    }

    static func convert(_ node: DumpNode, _ converter: inout DumpConverter) throws(DumpProblem) -> ImportedElement? {
        let attributes = try attributes(node, converter)
        let className = simpleName(node)
        let widget = widgets[className]
        let describe: (DumpNode) -> String = { simpleName($0) }
        if let reason = attributes.visible ? converter.skipReason(frame: attributes.frame) : .invisible {
            for child in node.children { try checkSubtree(child, converter) }
            converter.skip(node, type: describe, reason)
            return nil
        }
        let actionable = attributes.clickable || attributes.longClickable || attributes.checkable
            || widget?.isEditable == true || widget?.isAdjustable == true
        // An actionable node is read, as TalkBack and Switch Access read it, with the text of
        // the children that do nothing themselves; a child that acts (a button inside a
        // clickable card) stays an item of its own, scanned after it.
        var parts = [ImportedElement]()
        var merged = [DumpNode]()
        if actionable, !attributes.scrollable {
            for child in node.children {
                if holdsActionable(child) {
                    if let converted = try convert(child, &converter) { parts.append(converted) }
                } else {
                    try checkSubtree(child, converter)
                    converter.skip(child, type: describe, .insideItem)
                    merged.append(child)
                }
            }
        }

        var label = attributes.description
        var value: String?
        var because = [String]()
        if widget?.isEditable == true {
            value = attributes.password ? nil : attributes.text
            if label == nil { label = attributes.hint }
        } else if label == nil {
            label = attributes.text
            if label == nil, !merged.isEmpty {
                label = DumpConverter.joined(merged.filter(isShown).flatMap(spokenText), limit: converter.limits.maxStringLength)
                if label != nil { because.append("labelled by the text of the children that do nothing themselves, as TalkBack reads it") }
            }
        }
        if value == label { value = nil }  // an empty field shows its hint as its text
        var traits = widget?.traits ?? []
        if attributes.clickable, widget?.isEditable != true, traits.isEmpty || traits == ["staticText"] || traits == ["image"] {
            traits = traits == ["image"] ? ["button", "image"] : ["button"]
        }
        // A merged row takes the state of the checkable widget inside it.
        func checkables(_ node: DumpNode) -> [DumpNode] { node.children.flatMap { ($0["checkable"] == "true" ? [$0] : []) + checkables($0) } }
        let mergedCheckable = merged.flatMap { ($0["checkable"] == "true" ? [$0] : []) + checkables($0) }.first
        if attributes.checkable || mergedCheckable != nil, !traits.contains("button") { traits.insert("button", at: 0) }
        if attributes.checked || attributes.selected || mergedCheckable?["checked"] == "true" { traits.append("selected") }
        if !attributes.enabled { traits.append("notEnabled") }
        let identifier = attributes.resourceID.map { id -> String in
            if let range = id.range(of: ":id/") { return String(id[range.upperBound...]) }
            return id
        }
        var element = ImportedElement(
            identifier: identifier, derivedID: IOSDump.derivedID(className, label: label),
            type: className, label: label, value: value, traits: traits, frame: attributes.frame,
            isContainer: false, position: node.position)
        element.isTappable = attributes.clickable || attributes.checkable || widget?.isEditable == true
        if attributes.longClickable { element.customActions.append("Long press") }
        // The list scrolls, not its rows: Switch Access highlights the scrollable node itself
        // and offers Scroll forward and Scroll backward there.
        if attributes.scrollable { element.customActions += ["Scroll forward", "Scroll backward"] }
        let flags = [("clickable", attributes.clickable), ("long-clickable", attributes.longClickable),
                     ("checkable", attributes.checkable), ("scrollable", attributes.scrollable)]
            .filter(\.1).map { "\($0.0)=\"true\"" }
        because.insert(contentsOf: flags, at: 0)
        if widget?.isEditable == true { because.insert("an edit field", at: 0) }
        if widget?.isAdjustable == true { because.insert("adjustable", at: 0) }

        if actionable, !attributes.scrollable {
            element.keptBecause = because.joined(separator: "; ")
            return DumpConverter.item(element, then: parts)
        }
        var children = [ImportedElement]()
        for child in node.children {
            if let converted = try convert(child, &converter) { children.append(converted) }
        }
        if attributes.scrollable {
            element.keptBecause = because.joined(separator: "; ")
            return DumpConverter.item(element, then: children)
        }
        if children.isEmpty {
            // Nothing inside is scanned: the node is an item when it says something.
            guard label != nil || (attributes.focusable && value != nil) else {
                converter.skipped.append(SkippedElement(type: className, position: node.position, reason: .notAccessible))
                return nil
            }
            element.keptBecause = attributes.description != nil ? "content-desc, with no action: scanned as text" : "text, with no action: scanned as text"
            return element
        }
        element.isContainer = true
        element.children = children
        element.keptBecause = "a layout with \(children.count) element\(children.count == 1 ? "" : "s") inside to scan"
        return element
    }
}
