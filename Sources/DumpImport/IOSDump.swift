/// What the import does with one `XCUIElementType`: the traits it gives, whether a tap acts on it,
/// and whether it is a platform only type (macOS, never on an iOS screen, still accepted).
struct IOSElementType: Sendable {
    var traits: [String]
    var tappable: Bool
    var macOnly: Bool = false
}

/// Appium's XCUITest page source: `<AppiumAUT>` (optional) around `<XCUIElementTypeApplication>`,
/// every element named after its `XCUIElementType` with `type`, `name`, `label`, `value`,
/// `enabled`, `visible`, `accessible`, `x`, `y`, `width`, `height` and `index` (newer versions:
/// `selected`, `placeholderValue`, `traits`).
enum IOSDump {
    static let prefix = "XCUIElementType"

    /// Every `XCUIElementType` (XCTest's enumeration), by name without the prefix. The table in
    /// docs/importing.md says the same, with what Switch Control does with each.
    static let types: [String: IOSElementType] = [
        "Any": .init(traits: [], tappable: false),
        "Other": .init(traits: [], tappable: false),
        "Application": .init(traits: [], tappable: false),
        "Group": .init(traits: [], tappable: false),
        "Window": .init(traits: [], tappable: false),
        "Sheet": .init(traits: [], tappable: false),
        "Drawer": .init(traits: [], tappable: false, macOnly: true),
        "Alert": .init(traits: [], tappable: false),
        "Dialog": .init(traits: [], tappable: false),
        "Button": .init(traits: ["button"], tappable: true),
        "RadioButton": .init(traits: ["button"], tappable: true),
        "RadioGroup": .init(traits: [], tappable: false),
        "CheckBox": .init(traits: ["button"], tappable: true),
        "DisclosureTriangle": .init(traits: ["button"], tappable: true),
        "PopUpButton": .init(traits: ["button"], tappable: true),
        "ComboBox": .init(traits: ["button"], tappable: true),
        "MenuButton": .init(traits: ["button"], tappable: true),
        "ToolbarButton": .init(traits: ["button"], tappable: true),
        "Popover": .init(traits: [], tappable: false),
        "Keyboard": .init(traits: [], tappable: false),
        "Key": .init(traits: ["keyboardKey"], tappable: true),
        "NavigationBar": .init(traits: [], tappable: false),
        "TabBar": .init(traits: ["tabBar"], tappable: false),
        "TabGroup": .init(traits: [], tappable: false),
        "Toolbar": .init(traits: [], tappable: false),
        "StatusBar": .init(traits: [], tappable: false),
        "Table": .init(traits: [], tappable: false),
        "TableRow": .init(traits: [], tappable: true),
        "TableColumn": .init(traits: [], tappable: false),
        "Outline": .init(traits: [], tappable: false),
        "OutlineRow": .init(traits: [], tappable: true),
        "Browser": .init(traits: [], tappable: false, macOnly: true),
        "CollectionView": .init(traits: [], tappable: false),
        "Slider": .init(traits: ["adjustable"], tappable: false),
        "PageIndicator": .init(traits: ["adjustable"], tappable: false),
        "ProgressIndicator": .init(traits: ["updatesFrequently"], tappable: false),
        "ActivityIndicator": .init(traits: ["updatesFrequently"], tappable: false),
        "SegmentedControl": .init(traits: [], tappable: false),
        "Picker": .init(traits: [], tappable: false),
        "PickerWheel": .init(traits: ["adjustable"], tappable: false),
        "Switch": .init(traits: ["button"], tappable: true),
        "Toggle": .init(traits: ["button"], tappable: true),
        "Link": .init(traits: ["link"], tappable: true),
        "Image": .init(traits: ["image"], tappable: false),
        "Icon": .init(traits: ["button"], tappable: true),
        "SearchField": .init(traits: ["searchField"], tappable: true),
        "ScrollView": .init(traits: [], tappable: false),
        "ScrollBar": .init(traits: [], tappable: false, macOnly: true),
        "StaticText": .init(traits: ["staticText"], tappable: false),
        "TextField": .init(traits: [], tappable: true),
        "SecureTextField": .init(traits: [], tappable: true),
        "DatePicker": .init(traits: [], tappable: false),
        "TextView": .init(traits: [], tappable: true),
        "Menu": .init(traits: [], tappable: false),
        "MenuItem": .init(traits: ["button"], tappable: true),
        "MenuBar": .init(traits: [], tappable: false, macOnly: true),
        "MenuBarItem": .init(traits: ["button"], tappable: true, macOnly: true),
        "Map": .init(traits: ["allowsDirectInteraction"], tappable: false),
        "WebView": .init(traits: [], tappable: false),
        "IncrementArrow": .init(traits: ["button"], tappable: true),
        "DecrementArrow": .init(traits: ["button"], tappable: true),
        "Timeline": .init(traits: ["adjustable"], tappable: false, macOnly: true),
        "RatingIndicator": .init(traits: ["adjustable"], tappable: false),
        "ValueIndicator": .init(traits: ["adjustable"], tappable: false, macOnly: true),
        "SplitGroup": .init(traits: [], tappable: false, macOnly: true),
        "Splitter": .init(traits: ["adjustable"], tappable: false, macOnly: true),
        "RelevanceIndicator": .init(traits: [], tappable: false, macOnly: true),
        "ColorWell": .init(traits: ["button"], tappable: true, macOnly: true),
        "HelpTag": .init(traits: ["staticText"], tappable: false, macOnly: true),
        "Matte": .init(traits: [], tappable: false, macOnly: true),
        "DockItem": .init(traits: ["button"], tappable: true, macOnly: true),
        "Ruler": .init(traits: [], tappable: false, macOnly: true),
        "RulerMarker": .init(traits: [], tappable: false, macOnly: true),
        "Grid": .init(traits: [], tappable: false, macOnly: true),
        "LevelIndicator": .init(traits: ["adjustable"], tappable: false, macOnly: true),
        "Cell": .init(traits: [], tappable: true),
        "LayoutArea": .init(traits: [], tappable: false, macOnly: true),
        "LayoutItem": .init(traits: [], tappable: false, macOnly: true),
        "Handle": .init(traits: ["adjustable"], tappable: false, macOnly: true),
        "Stepper": .init(traits: [], tappable: false),
        "Tab": .init(traits: ["button"], tappable: true),
        "TouchBar": .init(traits: [], tappable: false, macOnly: true),
        "StatusItem": .init(traits: ["button"], tappable: true, macOnly: true),
    ]

    /// Names of the `traits` attribute (newer WebDriverAgent: `traits="Button, Selected"`) →
    /// contract trait names; names without a contract trait are ignored.
    static func trait(named name: String) -> String? {
        let key = name.lowercased().filter { $0.isLetter }
        let names = ["button", "link", "header", "searchField", "image", "selected", "playsSound", "keyboardKey",
                     "staticText", "summaryElement", "notEnabled", "updatesFrequently", "startsMediaSession",
                     "adjustable", "allowsDirectInteraction", "causesPageTurn", "tabBar"]
        return names.first { $0.lowercased() == key }
    }

    static func typeName(_ node: DumpNode) -> String {
        node.name.hasPrefix(prefix) ? String(node.name.dropFirst(prefix.count)) : node.name
    }

    /// The screen: the root's size (the application element, inside `AppiumAUT` when present)
    /// and its elements.
    static func convert(_ root: DumpNode, file: String, limits: DumpLimits) throws(DumpProblem) -> (size: (Double, Double), elements: [ImportedElement], skipped: [SkippedElement]) {
        var converter = DumpConverter(file: file, limits: limits)
        var application = root
        if root.name == "AppiumAUT" {
            guard root.children.count == 1 else {
                throw converter.problem(root, "AppiumAUT holds \(root.children.count) elements; expected one XCUIElementTypeApplication")
            }
            application = root.children[0]
        }
        try checkType(application, converter)
        let width = try converter.number(application, "width", application["width"])
        let height = try converter.number(application, "height", application["height"])
        guard width > 0, height > 0 else {
            throw converter.problem(application, "impossible screen size \(NumberFormat.points(width)) × \(NumberFormat.points(height)): the root's width and height must be above 0")
        }
        converter.screen = (width, height)
        var elements = [ImportedElement]()
        for child in application.children {
            if let element = try convert(child, &converter) { elements.append(element) }
        }
        elements = elements.map(DumpConverter.fold)
        // The application's windows are wrappers too: one window's elements are the screen's.
        while elements.count == 1, elements[0].isContainer, elements[0].label == nil, elements[0].traits.isEmpty,
              elements[0].identifier == nil {
            elements = elements[0].children
        }
        try converter.checkDepth(elements)
        return ((width, height), elements, converter.skipped)
    }

    static func checkType(_ node: DumpNode, _ converter: DumpConverter) throws(DumpProblem) {
        guard node.name.hasPrefix(prefix), types[typeName(node)] != nil else {
            throw converter.problem(node, "unknown element type '\(DumpConverter.shown(node.name))'; an XCUITest page source has XCUIElementType… elements (docs/importing.md lists them)")
        }
        if let type = node["type"], type != node.name {
            throw converter.problem(node, "element \(node.name) says type '\(DumpConverter.shown(type))'; the two must agree")
        }
    }

    /// Containers whose content VoiceOver scrolls into view as the user moves through it.
    static let scrollingTypes: Set<String> = ["Table", "CollectionView", "ScrollView", "Outline", "WebView"]
    /// Table and outline rows: UIKit reads a row with the texts inside it.
    static let rowTypes: Set<String> = ["Cell", "TableRow", "OutlineRow"]

    /// Whether UIKit makes an element of this type an accessibility element when the page source
    /// does not say (no `accessible` attribute): controls, texts, rows, and images that have a
    /// label; windows, plain views (`Other`), tables, scroll and collection views are containers.
    static func isElementByDefault(_ typeName: String, _ type: IOSElementType, label: String?) -> Bool {
        if type.tappable || rowTypes.contains(typeName) { return true }
        switch typeName {
        case "StaticText", "Slider", "PageIndicator", "PickerWheel", "ProgressIndicator", "ActivityIndicator", "RatingIndicator":
            return true
        case "Image":
            return label != nil
        default:
            return false
        }
    }

    /// `inScroller`: inside a table, collection, scroll or web view, whose content a VoiceOver
    /// user reaches even where it is scrolled out of view.
    static func convert(_ node: DumpNode, _ converter: inout DumpConverter, inScroller: Bool = false) throws(DumpProblem) -> ImportedElement? {
        try checkType(node, converter)
        let typeName = typeName(node)
        let type = types[typeName]!
        let x = try converter.number(node, "x", node["x"]), y = try converter.number(node, "y", node["y"])
        let width = try converter.number(node, "width", node["width"]), height = try converter.number(node, "height", node["height"])
        try converter.checkedFrame(node, x: x, y: y, width: width, height: height)
        let visible = try converter.bool(node, "visible", default: true)
        let enabled = try converter.bool(node, "enabled", default: true)
        let accessibleAttribute = node["accessible"] == nil ? nil : try converter.bool(node, "accessible", default: false)
        let selected = try converter.bool(node, "selected", default: false)
        var label = try converter.text(node, "label")
        var value = try converter.text(node, "value")
        let name = try converter.text(node, "name")
        let placeholder = try converter.text(node, "placeholderValue")
        let describe: (DumpNode) -> String = { Self.typeName($0) }
        let frame = (x, y, width, height)
        let frameReason = converter.skipReason(frame: frame)
        var reason = visible ? frameReason : .invisible
        // WebDriverAgent marks a row scrolled out of view `visible="false"`, its frame beyond the
        // screen's edge; VoiceOver still reaches it, scrolling as the user moves on. What is
        // `visible="false"` wholly on the screen (a cell's chevron) is not shown, and left out.
        let screen = converter.screen
        let whollyOnScreen = x >= 0 && y >= 0 && x + width <= screen.width && y + height <= screen.height
        let outOfView = inScroller && reason != nil && frameReason != .zeroSize && !whollyOnScreen
        if outOfView { reason = nil }
        if let reason {
            // What is left out is checked all the same: a broken dump is refused wherever it is broken.
            for child in node.children { try checkSubtree(child, converter) }
            converter.skip(node, type: describe, reason)
            return nil
        }
        let accessible = accessibleAttribute ?? isElementByDefault(typeName, type, label: label)
        var because = accessibleAttribute == nil
            ? "\(typeName): an accessibility element by default (no accessible attribute, as UIKit decides)"
            : "accessible=\"true\""

        var traits = type.traits
        if let list = node["traits"] {
            for entry in list.split(separator: ",") {
                if let trait = trait(named: String(entry)), !traits.contains(trait) { traits.append(trait) }
            }
        }
        if selected, !traits.contains("selected") { traits.append("selected") }
        if !enabled, !traits.contains("notEnabled") { traits.append("notEnabled") }
        if typeName == "Switch" || typeName == "Toggle", let raw = value { value = switchValue(raw) }
        if label == nil, let placeholder { label = placeholder }  // what VoiceOver reads for an empty field
        if label == value { value = nil }
        // `name` is the accessibility identifier when there is one, else the label again.
        let identifier = name.flatMap { $0 == label || $0 == node["label"] ? nil : $0 }

        var element = ImportedElement(
            identifier: identifier, derivedID: derivedID(typeName, label: label),
            type: typeName, label: label, value: value, traits: traits,
            frame: frame, isContainer: !accessible, position: node.position)
        element.isTappable = accessible && type.tappable
        element.isModal = ["Alert", "Sheet", "Dialog"].contains(typeName)
        let scrolled = outOfView ? "; scrolled out of view inside a scroll view, where VoiceOver scrolls to it" : ""
        let childrenInScroller = inScroller || scrollingTypes.contains(typeName)
        if accessible, accessibleAttribute == nil, rowTypes.contains(typeName), !node.children.isEmpty {
            return try row(element, node, &converter, inScroller: childrenInScroller, outOfView: outOfView, because: because + scrolled)
        }
        if accessible {
            // An item hides what is inside it from the scanner, as in UIKit.
            for child in node.children {
                try checkSubtree(child, converter)
                converter.skip(child, type: describe, .insideItem)
            }
            element.keptBecause = because + scrolled
            return element
        }
        for child in node.children {
            if let converted = try convert(child, &converter, inScroller: childrenInScroller) { element.children.append(converted) }
        }
        if element.children.isEmpty {
            converter.skipped.append(SkippedElement(type: typeName, position: node.position, reason: .notAccessible))
            return nil
        }
        because = accessibleAttribute == nil ? "\(typeName): a container by default (no accessible attribute)" : "accessible=\"false\""
        element.keptBecause = because + " with \(element.children.count) element\(element.children.count == 1 ? "" : "s") inside to scan" + scrolled
        return element
    }

    /// XCUITest gives a switch's value as 1 or 0; VoiceOver and Switch Control say on / off.
    static func switchValue(_ raw: String) -> String {
        raw == "1" ? "on" : raw == "0" ? "off" : raw
    }

    /// A table row that the page source does not mark (no `accessible` attribute) is read as
    /// UIKit reads a cell: one element labelled by the texts inside it (its own label first),
    /// taking a switch's state; a control inside that acts on its own (a button, a field, a link)
    /// stays an element of its own, scanned after the row.
    /// `outOfView`: the row is scrolled out of view, and so are its texts (`visible="false"`),
    /// which are read all the same.
    static func row(_ cell: ImportedElement, _ node: DumpNode, _ converter: inout DumpConverter, inScroller: Bool, outOfView: Bool, because: String) throws(DumpProblem) -> ImportedElement {
        var cell = cell
        var texts = [String]()
        var parts = [ImportedElement]()
        var switchNode: DumpNode?
        func walk(_ children: [DumpNode], _ converter: inout DumpConverter) throws(DumpProblem) {
            for child in children {
                try checkType(child, converter)
                let childType = typeName(child)
                if childType == "Switch" || childType == "Toggle", switchNode == nil {
                    try checkSubtree(child, converter)
                    switchNode = child
                    converter.skip(child, type: { Self.typeName($0) }, .insideItem)
                } else if let type = types[childType], type.tappable, child["accessible"] != "false" {
                    if let converted = try convert(child, &converter, inScroller: inScroller) { parts.append(converted) }
                } else {
                    if childType == "StaticText", outOfView || child["visible"] != "false" {
                        let label = try converter.text(child, "label"), value = try converter.text(child, "value")
                        if let text = label ?? value { texts.append(text) }
                    }
                    try checkSubtree(child, converter) // its own attributes; the children are walked below
                    converter.skipped.append(SkippedElement(type: childType, position: child.position, reason: .insideItem))
                    try walk(child.children, &converter)
                }
            }
        }
        try walk(node.children, &converter)
        var because = because
        if cell.label == nil, !texts.isEmpty {
            cell.label = DumpConverter.joined(texts, limit: converter.limits.maxStringLength)
            because += "; labelled by the texts inside it"
        }
        if let switchNode {
            if !cell.traits.contains("button") { cell.traits.insert("button", at: 0) }
            if cell.value == nil, let raw = try converter.text(switchNode, "value") { cell.value = switchValue(raw) }
            if cell.label == nil, let text = try converter.text(switchNode, "label") { cell.label = text }
            because += "; with the state of the switch inside it"
        }
        if cell.label == cell.value { cell.value = nil }
        cell.derivedID = derivedID(cell.type, label: cell.label)
        cell.keptBecause = because
        return DumpConverter.item(cell, then: parts)
    }

    /// Types and attributes of a subtree that is left out, checked all the same: a broken dump
    /// is refused whatever part of it is broken.
    static func checkSubtree(_ node: DumpNode, _ converter: DumpConverter) throws(DumpProblem) {
        try checkType(node, converter)
        for key in ["x", "y", "width", "height"] { _ = try converter.number(node, key, node[key]) }
        let width = try converter.number(node, "width", node["width"]), height = try converter.number(node, "height", node["height"])
        try converter.checkedFrame(node, x: 0, y: 0, width: width, height: height)
        for key in ["visible", "enabled", "accessible", "selected"] { _ = try converter.bool(node, key, default: false) }
        for key in ["label", "value", "name", "placeholderValue"] { _ = try converter.text(node, key) }
        for child in node.children { try checkSubtree(child, converter) }
    }

    static func derivedID(_ type: String, label: String?) -> String {
        let base = type.slug()
        guard let label, case let slug = label.slug(limit: 24), !slug.isEmpty else { return base }
        return base + "-" + slug
    }
}
