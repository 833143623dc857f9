import BrailleFormatting
import BrlAPI
import DeviceProfiles
import Foundation

extension BrailleOutputs {
    /// The outputs for a `--braille` value.
    public struct Made {
        /// Where the braille line goes besides the terminal view.
        public var sinks: [any BrailleSink]
        /// What the loop polls (the display's connection and keys).
        public var sources: [any RuntimeSource]
        /// Whether the terminal view shows the line's cells.
        public var terminalCells: Bool
        /// The display output, when there is one.
        public var display: BrailleDisplayOutput?
    }

    /// The sinks and sources for `spec`:
    ///
    /// - `.brlapi(host)`: a BrlAPI display at `host` (nil: BrlAPI's default). The connection is
    ///   attempted at once and again in the background while BRLTTY is not there; the run never
    ///   fails for that, the status line says it.
    /// - `.auto`: the same at BrlAPI's default host (`BRLAPI_HOST`, else `:0`), saying nothing
    ///   while no BRLTTY answers.
    /// - `.terminal`: only the terminal view's line; `.none`: not even that.
    ///
    /// `auth` is BrlAPI's auth setting (nil: `BRLAPI_AUTH`, else its key file). The display
    /// profiles (key bindings) are read from `profilesDirectory` (every `.yaml`); a profile that
    /// does not load is reported in the status line and left out.
    public static func make(
        _ spec: Spec, auth: String?, profilesDirectory: String?, tables: BrailleTableChoice = BrailleTableChoice(),
        cursor: BrailleDisplayOutput.CursorMarking = .none
    ) -> (sinks: [any BrailleSink], sources: [any RuntimeSource], terminalCells: Bool) {
        let made = makeOutputs(spec, auth: auth, profilesDirectory: profilesDirectory, tables: tables, cursor: cursor)
        return (made.sinks, made.sources, made.terminalCells)
    }

    /// `make`, with the display output itself (for tests and benchmarks).
    public static func makeOutputs(
        _ spec: Spec, auth: String?, profilesDirectory: String?, tables: BrailleTableChoice = BrailleTableChoice(),
        cursor: BrailleDisplayOutput.CursorMarking = .none
    ) -> Made {
        let host: String?
        let quiet: Bool
        switch spec {
        case .none: return Made(sinks: [], sources: [], terminalCells: false, display: nil)
        case .terminal: return Made(sinks: [], sources: [], terminalCells: true, display: nil)
        case .auto:
            host = nil
            quiet = true
        case .brlapi(let given):
            host = given.flatMap { $0.isEmpty ? nil : $0 }
            quiet = false
        }
        // A write to a BrlAPI socket whose BRLTTY is gone must fail with EPIPE.
        BrlAPI.ignoreSIGPIPE()
        let loaded = profilesDirectory.map(loadDisplayProfiles) ?? (profiles: [], problems: [])
        let display = BrailleDisplayOutput(
            BrailleDisplayOutput.Configuration(
                host: host, auth: auth.flatMap { $0.isEmpty ? nil : $0 }, quietWhileAbsent: quiet,
                profiles: loaded.profiles, tables: tables, cursor: cursor),
            statuses: loaded.problems.map { "braille display profile: \($0)" })
        return Made(sinks: [display], sources: [display], terminalCells: true, display: display)
    }

    /// Every `.yaml`/`.yml` profile of a folder, in file name order, and the problems of those
    /// that did not load (`file:line:column: error: …`). A missing folder gives none.
    public static func loadDisplayProfiles(from directory: String) -> (profiles: [BrailleDisplayProfile], problems: [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return ([], []) }
        var profiles = [BrailleDisplayProfile]()
        var problems = [String]()
        for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                profiles.append(try BrailleDisplayProfile.parse(yaml: text, file: path))
            } catch let error as ProfileLoadError {
                problems += error.problems.map(\.description)
            } catch {
                problems.append("\(path): error: \(error)")
            }
        }
        return (profiles, problems)
    }

    /// The repository's `Devices/braille`: under the current folder, or above the executable
    /// (`.build/debug/switchscan` → the package root); nil when neither has it.
    public static var repositoryProfilesDirectory: String? {
        let relative = "Devices/braille"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: relative, isDirectory: &isDirectory), isDirectory.boolValue {
            return relative
        }
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = folder.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
