import AccessibilityModel

/// An installed program as its desktop entry describes it.
public struct ProgramEntry: Hashable, Sendable {
    /// The desktop entry's id (`org.xfce.mousepad.desktop`): what starts it, and what its uses
    /// are counted under.
    public var id: String
    public var name: String
    /// The entry's `Categories` (`Utility`, `TextEditor`…).
    public var categories: [String]

    public init(id: String, name: String, categories: [String]) {
        self.id = id
        self.name = name
        self.categories = categories
    }
}

/// The scanner menu's "Start a program": installed programs by category (the freedesktop main
/// categories, as a desktop's application menu names them), the most used first in each, and
/// the categories holding the most used programs first.
public enum ProgramMenu {
    /// The freedesktop menu specification's main categories and the names menus give them.
    public static let mainCategories: [(category: String, name: String)] = [
        ("AudioVideo", "Sound & Video"), ("Audio", "Sound & Video"), ("Video", "Sound & Video"),
        ("Development", "Programming"), ("Education", "Education"), ("Game", "Games"), ("Graphics", "Graphics"),
        ("Network", "Internet"), ("Office", "Office"), ("Science", "Science"), ("Settings", "Settings"),
        ("System", "System"), ("Utility", "Accessories"),
    ]

    /// Where a program without a main category goes.
    public static let otherCategory = "Other"

    /// The menu's name for `program`'s category: its first main category's.
    public static func category(of program: ProgramEntry) -> String {
        for category in program.categories {
            if let main = mainCategories.first(where: { $0.category == category }) { return main.name }
        }
        return otherCategory
    }

    /// The categories and their programs: in each, the most used first (`uses`: the counts by
    /// entry id), then by name; the categories by their most used program's count, then by name.
    public static func categories(_ programs: [ProgramEntry], uses: [String: Double]) -> [(name: String, programs: [ProgramEntry])] {
        var byCategory = [String: [ProgramEntry]]()
        for program in programs { byCategory[category(of: program), default: []].append(program) }
        func count(_ program: ProgramEntry) -> Double { uses[program.id] ?? 0 }
        let sorted = byCategory.map { name, programs in
            (name: name, programs: programs.sorted {
                count($0) != count($1) ? count($0) > count($1) : $0.name.lowercased() < $1.name.lowercased()
            })
        }
        return sorted.sorted {
            let first = $0.programs.first.map(count) ?? 0, second = $1.programs.first.map(count) ?? 0
            return first != second ? first > second : $0.name.lowercased() < $1.name.lowercased()
        }
    }

    /// The prefix of the ids of the menu's items: the rest is the entry's id.
    public static let itemPrefix = "program:"

    /// The menu as scan nodes: one group a category (in groups of `ElementList.groupSize` when
    /// it holds more), each program an item that starts it.
    public static func nodes(_ programs: [ProgramEntry], uses: [String: Double]) -> [ScanNode] {
        let groups = categories(programs, uses: uses).map { category -> ScanNode in
            let items = category.programs.map { Element(id: itemPrefix + $0.id, label: $0.name, traits: .button, isAccessibilityElement: true) }
            let children = ElementList.nodes(items)
            var group = Element(id: "category:\(category.name)", label: category.name, isAccessibilityElement: false)
            group.children = children.map(\.element)
            return .group(group, children)
        }
        return ElementList.grouped(groups)
    }
}
