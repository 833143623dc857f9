import BrailleFormatting
import BrlAPI
import DeviceProfiles
import Foundation
import Platform

extension BrailleOutputs {
    /// The outputs for a `--braille` value.
    public struct Made {
        /// Where the braille line goes besides the terminal view.
        public var outputs: [any ScanOutput]
        /// What the loop polls (the display's connection and keys).
        public var sources: [any RuntimeSource]
        /// Whether the terminal view shows the line's cells.
        public var terminalCells: Bool
        /// The display output, when there is one.
        public var display: BrailleDisplayOutput?
    }

    /// The outputs and sources for `spec`:
    ///
    /// - `.brlapi(host)`: a BrlAPI display at `host` (nil: BrlAPI's default). The connection is
    ///   attempted at once and again in the background while BRLTTY is not there; the run never
    ///   fails for that, the status line says it.
    /// - `.auto`: the same at BrlAPI's default host (`BRLAPI_HOST`, else `:0`), saying nothing
    ///   while no BRLTTY answers.
    /// - `.terminal`: only the terminal view's line; `.none`: not even that.
    ///
    /// `auth` is BrlAPI's auth setting (nil: `BRLAPI_AUTH`, else its key file). The display
    /// profiles (key bindings) are read from `profilesDirectories` in order (every `.yaml`; see
    /// `loadDisplayProfiles(from:)`, a later folder's file replacing an earlier one of the same
    /// name); a profile that does not load is reported in the status line and left out.
    /// `cursor` is what dots 7-8 mark (the `brailleCursor` setting).
    public static func make(
        _ spec: Spec, auth: String?, profilesDirectories: [String], tables: BrailleTableChoice = BrailleTableChoice(),
        cursor: BrailleDisplayOutput.CursorMarking = .none
    ) -> (outputs: [any ScanOutput], sources: [any RuntimeSource], terminalCells: Bool) {
        let made = makeOutputs(spec, auth: auth, profilesDirectories: profilesDirectories, tables: tables, cursor: cursor)
        return (made.outputs, made.sources, made.terminalCells)
    }

    /// `make`, with the display output itself (for tests and benchmarks).
    public static func makeOutputs(
        _ spec: Spec, auth: String?, profilesDirectories: [String], tables: BrailleTableChoice = BrailleTableChoice(),
        cursor: BrailleDisplayOutput.CursorMarking = .none
    ) -> Made {
        let host: String?
        let quiet: Bool
        switch spec {
        case .none: return Made(outputs: [], sources: [], terminalCells: false, display: nil)
        case .terminal: return Made(outputs: [], sources: [], terminalCells: true, display: nil)
        case .auto:
            host = nil
            quiet = true
        case .brlapi(let given):
            host = given.flatMap { $0.isEmpty ? nil : $0 }
            quiet = false
        }
        // A write to a BrlAPI socket whose BRLTTY is gone must fail with EPIPE.
        BrlAPI.ignoreSIGPIPE()
        let loaded = loadDisplayProfiles(from: profilesDirectories)
        let display = BrailleDisplayOutput(
            BrailleDisplayOutput.Configuration(
                host: host, auth: auth.flatMap { $0.isEmpty ? nil : $0 }, quietWhileAbsent: quiet,
                profiles: loaded.profiles, tables: tables, cursor: cursor),
            statuses: loaded.problems.map { "braille display profile: \($0)" })
        return Made(outputs: [display], sources: [display], terminalCells: true, display: display)
    }

    /// Every `.yaml`/`.yml` profile of a folder, in file name order, and the problems of those
    /// that did not load (`file:line:column: error: …`). A missing folder gives none.
    public static func loadDisplayProfiles(from directory: String) -> (profiles: [BrailleDisplayProfile], problems: [String]) {
        loadDisplayProfiles(from: [directory])
    }

    /// The profiles of several folders, read in order: a file in a later folder replaces the
    /// file of the same name (`orbit-reader-20.yaml`) in an earlier one, so that the user's
    /// folder overrides the shipped profiles. A file that does not load is reported
    /// (`file:line:column: error: …`) and left out; the file it would have replaced stays in
    /// use. Profiles come out in file name order; missing folders give none.
    public static func loadDisplayProfiles(from directories: [String]) -> (profiles: [BrailleDisplayProfile], problems: [String]) {
        var byName = [String: BrailleDisplayProfile]()
        var problems = [String]()
        for directory in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                let path = (directory as NSString).appendingPathComponent(name)
                switch RegularFile.readText(path, maxBytes: BrailleDisplayProfile.maxBytes) {
                case .failure(let failure):
                    problems.append(failure.problem(file: path).description)
                case .success(let text):
                    do {
                        byName[name] = try BrailleDisplayProfile.parse(yaml: text, file: path)
                    } catch {
                        problems += error.problems.map(\.description)
                    }
                }
            }
        }
        return (byName.keys.sorted().map { byName[$0]! }, problems)
    }

    /// Where `switchscan run` reads display profiles: the repository's `Devices/braille`
    /// (when found), then the user's `braille` folder in `configDirectory`
    /// (`$XDG_CONFIG_HOME/switchscan/braille`, else `~/.config/switchscan/braille`).
    public static func profileDirectories(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        [repositoryProfilesDirectory, userProfilesDirectory(environment: environment)].compactMap { $0 }
    }

    /// The user's display profiles: `braille` in `configDirectory(environment:)`, with `HOME`
    /// taken from the password database when the environment has none; nil when there is no
    /// configuration folder at all.
    public static func userProfilesDirectory(environment: [String: String]) -> String? {
        var environment = environment
        if environment["HOME"].map({ !$0.hasPrefix("/") }) ?? true { environment["HOME"] = NSHomeDirectory() }
        return configDirectory(environment: environment).map { ($0 as NSString).appendingPathComponent("braille") }
    }

    /// The shipped display profiles (`ShippedData`: installed beside the program, then
    /// XDG_DATA_DIRS, then the source tree of a clone); nil when none is found.
    public static var repositoryProfilesDirectory: String? { ShippedData.directory(.braille)?.path }
}
