/// A profile that fits a device, and how closely.
public struct ProfileMatch: Hashable, Sendable {
    /// How a profile matched: a model (vendor and product) beats a name, which beats a generic
    /// profile.
    public enum Specificity: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
        case generic = 0
        case name = 1
        case vendorProduct = 2

        public static func < (a: Specificity, b: Specificity) -> Bool { a.rawValue < b.rawValue }

        public var description: String {
            switch self {
            case .generic: "generic"
            case .name: "name"
            case .vendorProduct: "vendor/product"
            }
        }
    }

    public var profile: SwitchProfile
    public var specificity: Specificity
    /// How many fields of the best entry matched (more is more specific).
    public var fieldCount: Int

    public init(profile: SwitchProfile, specificity: Specificity, fieldCount: Int) {
        self.profile = profile
        self.specificity = specificity
        self.fieldCount = fieldCount
    }
}

/// The profiles known (the user's, then the repository's) and which one fits a device.
///
/// The best match is the most specific: vendor and product over name over generic; then the
/// entry that checks more fields (a learned profile with bus, vendor, product and name beats one
/// with vendor and product only); then catalog order, so that the user's profiles (listed first)
/// win over the repository's. Manual profiles (no `match`) never match by themselves.
public struct ProfileCatalog: Sendable {
    public var profiles: [SwitchProfile]

    public init(_ profiles: [SwitchProfile]) {
        self.profiles = profiles
    }

    /// The profiles of folders searched in order (the user's first), each id (file name without
    /// extension) once: a user's `foot-switch.yaml` replaces a shipped `foot-switch.yaml` rather
    /// than competing with it. Files that could not be loaded are not in `profiles`, so a broken
    /// user file leaves the shipped one in use (its problems are reported by the loader).
    public init(shadowing profiles: [SwitchProfile]) {
        var seen = Set<String>()
        self.profiles = profiles.filter { seen.insert($0.id).inserted }
    }

    /// How `profile` fits `device`, if it does.
    public static func match(_ profile: SwitchProfile, _ device: DeviceIdentity) -> ProfileMatch? {
        switch profile.matching {
        case .manual:
            return nil
        case .generic:
            if let codes = device.keyCodes, codes.isDisjoint(with: profile.codes) { return nil }
            return ProfileMatch(profile: profile, specificity: .generic, fieldCount: 0)
        case .devices(let matches):
            let best = matches.filter { $0.matches(device) }.max {
                ($0.specificity, $0.fieldCount) < ($1.specificity, $1.fieldCount)
            }
            return best.map { ProfileMatch(profile: profile, specificity: $0.specificity, fieldCount: $0.fieldCount) }
        }
    }

    /// Every profile that fits, best first.
    public func matches(for device: DeviceIdentity) -> [ProfileMatch] {
        let found = profiles.enumerated().compactMap { index, profile in
            ProfileCatalog.match(profile, device).map { (index, $0) }
        }
        return found.sorted { a, b in
            if a.1.specificity != b.1.specificity { return a.1.specificity > b.1.specificity }
            if a.1.fieldCount != b.1.fieldCount { return a.1.fieldCount > b.1.fieldCount }
            return a.0 < b.0
        }.map(\.1)
    }

    /// The profile that fits best.
    public func bestMatch(for device: DeviceIdentity) -> ProfileMatch? {
        matches(for: device).first
    }

    /// A profile by id (file name without extension) or by name; the first in catalog order.
    public func profile(named name: String) -> SwitchProfile? {
        profiles.first { $0.id == name } ?? profiles.first { $0.name == name }
    }
}
