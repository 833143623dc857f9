#if canImport(Glibc)
import Glibc
#endif
import DeviceProfiles
import Evdev
import SwitchInput
import Platform

// MARK: - The --input specs turned into sources

extension InputSources {
    /// What `make` built: the sources for the loop, whether the terminal keyboard is an input,
    /// and the problems found while building them (a profile with errors, a recording that does
    /// not parse, a path that is not an evdev device). Each problem also reaches the trace and the
    /// status line as a `.status` of its source; the command prints them on standard error too,
    /// before the screen is drawn.
    public struct Made {
        public var sources: [any RuntimeSource]
        public var terminal: Bool
        public var problems: [String]
    }

    /// The sources for `switchscan run`'s `--input` values (none: `auto`).
    ///
    /// - `auto`: the terminal keyboard, and every device a profile fits, found at start and by
    ///   hotplug, except keyboards (devices with letter keys) that only a generic profile fits:
    ///   such a keyboard is most likely the one the terminal reads (its keys would count twice, and
    ///   the grab would take the user's keyboard away); `evdev:auto`, `evdev:PATH` or `--profile`
    ///   take it. A status line names the keyboards left out.
    /// - `terminal`: the terminal keyboard only.
    /// - `evdev:auto`: every device a profile fits, the generic ones included, with hotplug;
    ///   no terminal keyboard unless asked for as well.
    /// - `evdev:PATH`: that device, with `--profile` or the best matching profile; when it is
    ///   unplugged, the same device (by bus, vendor, product and name) is taken back wherever it
    ///   reappears.
    /// - `evemu:FILE`: an evemu recording, replayed at its recorded times (or all at once with
    ///   `fast`), through `--profile` or the profile that fits the recording's device, else the
    ///   generic keyboard profile.
    /// - `raw:PATH`: a file or FIFO of `struct input_event` records, through `--profile` or the
    ///   generic keyboard profile.
    ///
    /// `profile` is a profile file, or the id or name of a profile in `profileDirectories`
    /// (searched in order: the first wins among equally specific matches).
    public static func make(
        _ specs: [Spec], profile: String?, profileDirectories: [String], fast: Bool
    ) throws -> (sources: [any RuntimeSource], terminal: Bool) {
        let made = try build(specs, profile: profile, profileDirectories: profileDirectories, fast: fast)
        return (made.sources, made.terminal)
    }

    /// `make`, with the problems found on the way.
    public static func build(
        _ specs: [Spec], profile profileArgument: String?, profileDirectories: [String], fast: Bool,
        inputDirectory: String = "/dev/input"
    ) throws(InputSetupError) -> Made {
        var seen = Set<Spec>()
        let specs = (specs.isEmpty ? [.auto] : specs).filter { seen.insert($0).inserted }
        var terminal = false
        var devices: DeviceWatcher.Selection?
        var paths = [String]()
        var recordings = [String]()
        var streams = [String]()
        for spec in specs {
            switch spec {
            case .auto:
                terminal = true
                if devices == nil { devices = .withOwnProfile }
            case .terminal:
                terminal = true
            case .evdev(let path):
                if path == "auto" { devices = .everyMatch } else { paths.append(path) }
            case .evemu(let path):
                recordings.append(path)
            case .raw(let path):
                streams.append(path)
            }
        }
        if fast, recordings.isEmpty {
            throw InputSetupError("--fast replays evemu recordings at once; give one with --input evemu:FILE")
        }
        var made = Made(sources: [], terminal: terminal, problems: [])
        let needsProfiles = devices != nil || !paths.isEmpty || !recordings.isEmpty || !streams.isEmpty
        guard needsProfiles else {
            if profileArgument != nil {
                throw InputSetupError("--profile applies to switch devices, recordings and raw streams; --input terminal has none")
            }
            return made
        }

        // The profiles: the catalog, and the one chosen with --profile.
        let loaded = ProfileFiles.loadCatalog(directories: profileDirectories)
        let notices = loaded.problems.map { "switch profile skipped: \($0)" }
        var chosen: SwitchProfile?
        if let profileArgument {
            if RegularFile.exists(profileArgument) {
                switch ProfileFiles.load(profileArgument) {
                case .success(let profile): chosen = profile
                case .failure(let error):
                    throw InputSetupError(
                        "--profile \(profileArgument) has errors; fix them (or choose another profile)",
                        problems: error.problems.map(\.description), kind: .unloadable)
                }
            } else if let named = loaded.catalog.profile(named: profileArgument) {
                chosen = named
            } else if let failed = loaded.failed.first(where: { $0.id == profileArgument }) {
                throw InputSetupError(
                    "--profile \(profileArgument): the profile \(failed.path) has errors; fix them (or choose another profile)",
                    problems: failed.problems, kind: .unloadable)
            } else {
                let known = loaded.catalog.profiles.map(\.id).joined(separator: ", ")
                throw InputSetupError(
                    "--profile \(profileArgument): no such file, and no profile in \(profileDirectories.joined(separator: ", ")) has that id or name (known: \(known.isEmpty ? "none" : known))",
                    kind: .unloadable)
            }
        }
        let generic = loaded.catalog.profile(named: ProfileFiles.genericKeyboardID) ?? ProfileFiles.builtInGenericKeyboard
        made.problems += notices
        if !notices.isEmpty {
            made.sources.append(NoticeSource(name: "profiles", messages: notices))
        }

        if devices != nil || !paths.isEmpty {
            let watcher = DeviceWatcher(
                directory: inputDirectory, catalog: loaded.catalog, chosen: chosen,
                selection: devices, paths: paths)
            made.problems += watcher.startupProblems
            made.sources.append(watcher)
            made.sources += watcher.slots
        }
        for path in recordings {
            let input = RecordingInput(path: path, chosen: chosen, catalog: loaded.catalog, generic: generic, fast: fast)
            // Worded as the input's status says it, so that a run without a screen says it once.
            if let problem = input.problem { made.problems.append("\(input.name): \(problem)") }
            made.sources.append(input)
        }
        for path in streams {
            let input = RawStreamInput(path: path, profile: chosen ?? generic)
            if let problem = input.problem { made.problems.append(problem) }
            made.sources.append(input)
        }
        return made
    }
}

/// A problem with the inputs asked for that stops the run before it starts: a usage error, or
/// a profile named on the command line that cannot be loaded (`problems`: its
/// `file:line:column: error: …` lines).
public struct InputSetupError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// The options do not fit together (exit 64).
        case usage
        /// A file the command line names cannot be read or loaded (exit 2).
        case unloadable
    }

    public var description: String
    public var problems: [String]
    public var kind: Kind

    public init(_ description: String, problems: [String] = [], kind: Kind = .usage) {
        self.description = description
        self.problems = problems
        self.kind = kind
    }
}

// Switch ids across profiles (`SwitchNaming`) and a profile's edges (`ProfileEdges`) are in
// DeviceProfiles, shared with scripted tests.

// MARK: - Messages that only need saying

/// Startup messages (profiles that could not be loaded) for the trace and the status line, said
/// at once; then the source has ended.
final class NoticeSource: RuntimeSource {
    let name: String
    private var messages: [String]
    private(set) var deadline: Double?

    init(name: String, messages: [String]) {
        self.name = name
        self.messages = messages
        self.deadline = MonotonicClock.now()
    }

    var descriptor: FileDescriptor? { nil }
    var bindings: [SwitchID: SwitchBinding] { [:] }
    var isSwitchInput: Bool { false }
    func readable(at now: Double) -> [RuntimeInput] { [] }

    func deadlineReached(at now: Double) -> [RuntimeInput] {
        deadline = nil
        defer { messages = [] }
        return messages.map(RuntimeInput.status) + [.endOfInput(source: name)]
    }
}

// MARK: - Files

/// Reading profiles, recordings and folders for the inputs (no Foundation in the runtime).
enum ProfileFiles {
    static let genericKeyboardID = "generic-keyboard"

    /// Space → select, Enter → next, for when `Devices/switches/generic-keyboard.yaml` is not found.
    static let builtInGenericKeyboard = SwitchProfile.builtInGenericKeyboard

    struct Loaded {
        var catalog: ProfileCatalog
        var problems: [String]
        /// The files that did not load, by profile id (the file's name without extension).
        var failed: [(id: String, path: String, problems: [String])] = []
    }

    /// Every `.yaml`/`.yml` profile of the folders, in folder order then name order; missing
    /// folders are skipped, files with errors reported (`file:line:column: error: …`); a file
    /// hides a later folder's file of the same name (`ProfileCatalog(shadowing:)`).
    static func loadCatalog(directories: [String]) -> Loaded {
        var profiles = [SwitchProfile]()
        var problems = [String]()
        var failed = [(id: String, path: String, problems: [String])]()
        var seen = Set<String>()
        for folder in directories {
            guard let names = try? FileSystem.entries(ofDirectory: folder) else { continue }
            for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                guard seen.insert(path).inserted else { continue }
                switch load(path) {
                case .success(let profile): profiles.append(profile)
                case .failure(let error):
                    problems += error.problems.map(\.description)
                    let id = name.hasSuffix(".yaml") ? String(name.dropLast(5)) : String(name.dropLast(4))
                    failed.append((id, path, error.problems.map(\.description)))
                }
            }
        }
        return Loaded(catalog: ProfileCatalog(shadowing: profiles), problems: problems, failed: failed)
    }

    static func load(_ path: String) -> Result<SwitchProfile, ProfileLoadError> {
        let text: String
        switch RegularFile.readText(path, maxBytes: SwitchProfile.maxBytes) {
        case .success(let value): text = value
        case .failure(let problem):
            return .failure(ProfileLoadError(problems: [problem.problem(file: path)]))
        }
        do {
            return .success(try SwitchProfile.parse(yaml: text, file: path))
        } catch {
            return .failure(error)
        }
    }
}

extension DeviceIdentity {
    /// The identity profiles match, from an open device.
    init(_ device: EvdevDevice) {
        let identity = device.identity
        self.init(
            name: identity.name, bus: identity.bus, vendor: identity.vendor, product: identity.product,
            version: identity.version, phys: identity.phys, uniq: identity.uniq, keyCodes: Set(device.supportedKeyCodes()))
    }

    /// `"QEMU QEMU USB Keyboard" (usb 0627:0001)`
    var quoted: String { "\"\(name)\" (\(shortID))" }
}
