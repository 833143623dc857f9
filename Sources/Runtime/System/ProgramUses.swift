import DeviceProfiles

/// How often the user started each program from the scanner menu, kept as the selections are
/// (`SelectionStore`: the same lenient file, bad lines skipped and said, safe writes) at
/// `$XDG_STATE_HOME/switchscan/programs.tsv`, under one screen name, by desktop entry id.
public struct ProgramUses: Sendable {
    public let store: SelectionStore
    /// The one "screen" the counts are kept under.
    static let screen = "programs"

    public init(path: String) { store = SelectionStore(path: path) }

    /// The store's place from the environment alone; nil when neither variable is usable.
    public static func defaultPath(environment: [String: String]) -> String? {
        xdgPath(variable: "XDG_STATE_HOME", homeFallback: ".local/state", tail: "switchscan/programs.tsv", environment: environment)
    }

    /// The counts by entry id, and what was wrong with the file (lines skipped, or the whole
    /// file left alone), to be said.
    public func load() -> (uses: [String: Double], problem: String?) {
        switch store.load() {
        case .success(let loaded): return (loaded.counts.counts(screen: Self.screen) ?? [:], loaded.skipped?.description)
        case .failure(let problem): return ([:], problem.description)
        }
    }

    /// Counts one start of `id`; what was wrong, to be said (nothing is lost: a file that
    /// cannot be written is left as it was).
    public func record(_ id: String) -> String? {
        do {
            return try store.record([(screen: Self.screen, id: id)]).1?.description
        } catch {
            return "\(store.path): \(error)"
        }
    }
}
