/// `UIAccessibilityTraits`: the 17 traits of the scene contract as an option set.
public struct Traits: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let button = Traits(rawValue: 1 << 0)
    public static let link = Traits(rawValue: 1 << 1)
    public static let header = Traits(rawValue: 1 << 2)
    public static let searchField = Traits(rawValue: 1 << 3)
    public static let image = Traits(rawValue: 1 << 4)
    public static let selected = Traits(rawValue: 1 << 5)
    public static let playsSound = Traits(rawValue: 1 << 6)
    public static let keyboardKey = Traits(rawValue: 1 << 7)
    public static let staticText = Traits(rawValue: 1 << 8)
    public static let summaryElement = Traits(rawValue: 1 << 9)
    public static let notEnabled = Traits(rawValue: 1 << 10)
    public static let updatesFrequently = Traits(rawValue: 1 << 11)
    public static let startsMediaSession = Traits(rawValue: 1 << 12)
    public static let adjustable = Traits(rawValue: 1 << 13)
    public static let allowsDirectInteraction = Traits(rawValue: 1 << 14)
    public static let causesPageTurn = Traits(rawValue: 1 << 15)
    public static let tabBar = Traits(rawValue: 1 << 16)
    /// SwiftUI's `.isModal`: while it is exposed, everything else on the screen is ignored, not
    /// only its siblings (UIKit's `accessibilityViewIsModal`).
    public static let isModal = Traits(rawValue: 1 << 17)

    /// The contract's trait names, in the contract's order. `none` is the empty set.
    public static let named: [(name: String, trait: Traits)] = [
        ("button", .button), ("link", .link), ("header", .header), ("searchField", .searchField),
        ("image", .image), ("selected", .selected), ("playsSound", .playsSound),
        ("keyboardKey", .keyboardKey), ("staticText", .staticText),
        ("summaryElement", .summaryElement), ("notEnabled", .notEnabled),
        ("updatesFrequently", .updatesFrequently), ("startsMediaSession", .startsMediaSession),
        ("adjustable", .adjustable), ("allowsDirectInteraction", .allowsDirectInteraction),
        ("causesPageTurn", .causesPageTurn), ("tabBar", .tabBar), ("isModal", .isModal),
    ]

    /// The trait for a contract name; `none` gives the empty set; an unknown name gives nil.
    public init?(name: String) {
        if name == "none" { self = []; return }
        guard let entry = Traits.named.first(where: { $0.name == name }) else { return nil }
        self = entry.trait
    }

    /// The names of the traits in this set, in the contract's order.
    public var names: [String] {
        Traits.named.filter { contains($0.trait) }.map(\.name)
    }
}
