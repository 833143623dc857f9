import AccessibilityModel

/// A screen reader's element list for a window: its links, headings, landmarks or form fields,
/// in the window's order, as a level the scanner walks in small groups, so that one item of a
/// long page costs a handful of steps, not one step per item before it.
public enum ElementList {
    /// What a list holds.
    public enum Kind: String, CaseIterable, Sendable {
        case headings, links, formFields, landmarks

        /// The scanner menu's entry, and the list screen's name.
        public var title: String {
            switch self {
            case .headings: return "Headings"
            case .links: return "Links"
            case .formFields: return "Form fields"
            case .landmarks: return "Landmarks"
            }
        }

        /// Whether an object of `role` is one of this kind (AT-SPI role names: a browser's
        /// `<nav>` is `landmark`, its `<main>` and `<form>` too in Firefox, a `<form>` `form`).
        public func includes(role: String) -> Bool {
            switch self {
            case .headings: return role == "heading"
            case .links: return role == "link"
            case .formFields: return ElementList.formFieldRoles.contains(role)
            case .landmarks: return role == "landmark" || role == "form"
            }
        }
    }

    /// Roles of what a user fills in or chooses on a form.
    public static let formFieldRoles: Set<String> = [
        "entry", "password text", "text", "check box", "radio button", "combo box", "list box", "spin button",
        "slider", "toggle button", "switch", "push button",
    ]

    /// Most entries in one group of the list: about what a user takes in at a glance, and the
    /// branching that makes the 120th of 150 links a handful of steps (a group of groups, a
    /// group, the item).
    public static let groupSize = 8

    /// The objects of `kind` in `window` (the scanned window, popups included; only its shown
    /// documents when it has any: a browser's page, not its tool bars), in the window's order, each as the element it is scanned as (its label, its traits). Objects not on
    /// screen for the user (`AccessibleMapping.isShown`: a background tab's) are left out with
    /// their subtrees. A text field in a form (`entry` that is not editable: a label) is not one.
    public static func items(of kind: Kind, in window: AccessibleNode) -> [Element] {
        objects(of: kind, in: window).map { node in
            var element = AccessibleMapping.element(node)
            element.isAccessibilityElementDeclared = true
            element.children = []
            if element.label == nil || element.label == node.role { element.label = landmarkName(node) ?? element.label }
            return element
        }
    }

    /// The objects `items` lists, not yet mapped (counting them costs no element).
    public static func objects(of kind: Kind, in window: AccessibleNode) -> [AccessibleNode] {
        // A browser's page, not its tool bars: the documents shown, when there are any.
        let documents = shownDocuments(in: window)
        if !documents.isEmpty { return documents.flatMap { objects(of: kind, under: $0) } }
        return objects(of: kind, under: window)
    }

    /// Roles of a browser's page.
    public static let documentRoles: Set<String> = ["document web", "document frame"]

    /// The documents shown in `window` (a browser's tab in front), outermost only.
    public static func shownDocuments(in window: AccessibleNode) -> [AccessibleNode] {
        var found = [AccessibleNode]()
        func walk(_ node: AccessibleNode) {
            guard AccessibleMapping.isShown(node) else { return }
            if documentRoles.contains(node.role) {
                found.append(node)
                return
            }
            for child in node.children { walk(child) }
        }
        walk(window)
        return found
    }

    static func objects(of kind: Kind, under window: AccessibleNode) -> [AccessibleNode] {
        var found = [AccessibleNode]()
        func walk(_ node: AccessibleNode) {
            guard AccessibleMapping.isShown(node) else { return }
            if kind.includes(role: node.role), !(kind == .formFields && isPlainText(node)) {
                found.append(node)
                // A link's or a field's parts are not listed again (a link inside a heading is).
                if kind != .headings { return }
            }
            for child in node.children { walk(child) }
        }
        walk(window)
        return found
    }

    /// A `text` object that cannot be edited is text on the page, not a field.
    static func isPlainText(_ node: AccessibleNode) -> Bool {
        node.role == "text" && !node.states.contains(.editable)
    }

    /// A landmark without a name of its own says which it is by its children's first words.
    static func landmarkName(_ node: AccessibleNode) -> String? {
        let texts = AccessibleMapping.descendantLabels(node)
        guard let first = texts.first else { return nil }
        return "\(node.role) \(String(first.prefix(40)))"
    }

    /// `items` as scan nodes, grouped (`grouped`).
    public static func nodes(_ items: [Element], groupSize: Int = ElementList.groupSize) -> [ScanNode] {
        grouped(items.map(ScanNode.item), groupSize: groupSize)
    }

    /// `level` with at most `groupSize` entries a level, in their order: groups of entries,
    /// then groups of those groups, until one level holds them all. Each group is named by its
    /// first and last entries (`Link 113 … Link 120`), so the user knows where to enter.
    public static func grouped(_ level: [ScanNode], groupSize: Int = ElementList.groupSize) -> [ScanNode] {
        let size = max(2, groupSize)
        var level = level
        var names = level.map { (first: $0.element.label ?? "", last: $0.element.label ?? "") }
        var depth = 0
        while level.count > size {
            depth += 1
            var grouped = [ScanNode]()
            var groupedNames = [(first: String, last: String)]()
            var start = 0
            while start < level.count {
                let end = min(start + size, level.count)
                let part = Array(level[start..<end])
                let name = (first: names[start].first, last: names[end - 1].last)
                if part.count == 1 {
                    grouped.append(part[0])
                } else {
                    var group = Element(
                        id: "list-group-\(depth)-\(start)", label: name.first == name.last ? name.first : "\(name.first) … \(name.last)",
                        isAccessibilityElement: false)
                    group.children = part.map(\.element)
                    grouped.append(.group(group, part))
                }
                groupedNames.append(name)
                start = end
            }
            level = grouped
            names = groupedNames
        }
        return level
    }
}
