import Platform
import Foundation
import Runtime
#if canImport(Glibc)
import Glibc
#endif

/// The real Orca screen reader (Debian's `orca`) started on a test desktop, with everything it
/// reads and writes in a folder of its own, and stopped by the process id it was started with.
///
/// Its settings folder (`-u`) holds a `user-settings.conf` that turns speech and braille on, and
/// an `orca-customizations.py` (the hook Orca runs from that folder at start-up) that sends its
/// debug lines, line by line, to `logPath`: Orca writes there every braille line it shows
/// (`BRAILLE LINE:` the whole line, `VISIBLE:` the part on the display's cells), every
/// utterance it hands to speech (`SPEECH OUTPUT:`) and each move of its focus
/// (`Changing locusOfFocus from … to …`). Its own `--debug-file` buffers its writes,
/// so a running Orca's log would be read late. HOME and the XDG folders are inside `directory`:
/// nothing is written to the user's.
///
/// Orca runs once per user: when another Orca of this user is running, it says so and exits, and
/// `start` throws with its words.
public final class OrcaProcess: @unchecked Sendable {
    public static let executable = "/usr/bin/orca"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    public let directory: String
    public let logPath: String
    public let outputPath: String
    private var process: Process?

    /// Writes the settings into `directory` (made if needed); does not start anything.
    public init(directory: String) throws {
        self.directory = directory
        logPath = directory + "/orca.log"
        outputPath = directory + "/orca.out"
        let manager = FileManager.default
        for folder in ["settings", "home/.config", "home/.local/share", "home/.cache"] {
            try manager.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
        }
        // Orca fills in every other setting with its defaults (verbose speech and braille,
        // uncontracted braille). Keys are not echoed: the Tab presses that move its focus would be
        // read between the widgets.
        try """
            {
                "general": {"enableSpeech": true, "enableBraille": true, "speechServerFactory": "speechdispatcherfactory",
                            "enableTutorialMessages": false, "enableKeyEcho": false, "profile": ["Default", "default"],
                            "startingProfile": ["Default", "default"], "activeProfile": ["Default", "default"]},
                "profiles": {"default": {"profile": ["Default", "default"]}},
                "pronunciations": {},
                "keybindings": {}
            }

            """.write(toFile: directory + "/settings/user-settings.conf", atomically: true, encoding: .utf8)
        let quotedLog = logPath.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        try """
            from orca import debug
            debug.debugLevel = debug.LEVEL_INFO
            debug.debugFile = open('\(quotedLog)', 'w', buffering=1)

            """.write(toFile: directory + "/settings/orca-customizations.py", atomically: true, encoding: .utf8)
    }

    deinit { stop() }

    public var pid: Int32? { process?.processIdentifier }

    /// Starts Orca with `environment` (the desktop's display and session bus; `SPEECHD_ADDRESS`,
    /// `BRLAPI_HOST`) and waits until it has said that it is on (its first utterance), at most
    /// `timeout` seconds.
    public func start(environment: [String: String], timeout: Double = 60) throws {
        guard process == nil else { return }
        let started = Process()
        started.executableURL = URL(fileURLWithPath: Self.executable)
        started.arguments = ["-u", directory + "/settings"]
        let home = directory + "/home"
        let own = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
                   "XDG_CACHE_HOME": home + "/.cache", "GSETTINGS_BACKEND": "memory", "PYTHONDONTWRITEBYTECODE": "1"]
        started.environment = ProcessInfo.processInfo.environment
            .merging(environment) { _, new in new }.merging(own) { _, new in new }
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath) else { throw CocoaError(.fileWriteUnknown) }
        started.standardOutput = output
        started.standardError = output
        let input = Pipe()
        started.standardInput = input
        try started.run()
        try? input.fileHandleForWriting.close()
        process = started
        let end = MonotonicClock.now() + timeout
        while presentations().isEmpty {
            if !started.isRunning {
                process = nil
                throw OrcaError("orca exited while starting (status \(started.terminationStatus)): \(self.output)")
            }
            if MonotonicClock.now() > end {
                stop()
                throw OrcaError("orca said nothing within \(timeout) s; its output: \(self.output)")
            }
            MonotonicClock.sleep(seconds: 0.1)
        }
    }

    /// SIGTERM to the process started, SIGKILL if it is still there after `grace` seconds.
    public func stop(grace: Double = 5) {
        guard let running = process else { return }
        process = nil
        LiveDesktop.stop(running, grace: grace)
    }

    /// What Orca printed on its standard output and error.
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// One thing Orca presented: an utterance it spoke, the braille line it made, the part of
    /// that line it put on the display's cells, or its focus moving to an object (`[role | name]`);
    /// `line` is its place in the log (later is larger).
    public struct Presentation: Hashable, Sendable {
        public enum Kind: String, Sendable { case speech, brailleLine, brailleVisible, focus }
        public var kind: Kind
        public var text: String
        public var line: Int
    }

    /// Everything Orca presented so far, in order.
    public func presentations() -> [Presentation] {
        Self.presentations(in: (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
    }

    /// The presentations in Orca's debug lines: `SPEECH OUTPUT: 'TEXT'…`, `BRAILLE LINE:  'TEXT'`,
    /// `VISIBLE:  'TEXT', cursor=N`, `ORCA: Changing locusOfFocus from … to OBJECT. Notify: …`
    /// (each after a time stamp and ` - `).
    public static func presentations(in log: String) -> [Presentation] {
        var found = [Presentation]()
        for (index, line) in log.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let start = line.range(of: "ORCA: Changing locusOfFocus from "),
               let to = line[start.upperBound...].range(of: " to ", options: .backwards),
               let end = line[to.upperBound...].range(of: ". Notify:", options: .backwards) {
                found.append(Presentation(kind: .focus, text: String(line[to.upperBound..<end.lowerBound]), line: index))
                continue
            }
            for (marker, kind) in [("SPEECH OUTPUT: '", Presentation.Kind.speech), ("BRAILLE LINE:  '", .brailleLine),
                                   ("VISIBLE:  '", .brailleVisible)] {
                guard let start = line.range(of: marker) else { continue }
                let rest = line[start.upperBound...]
                // The text ends at the last quote; speech's before Orca's voice settings (`{…}`).
                let closing = switch kind {
                case .brailleVisible: rest.range(of: "', cursor=", options: .backwards)?.lowerBound
                case .speech: (rest.range(of: "'{", options: .backwards) ?? rest.range(of: "' {", options: .backwards))?.lowerBound
                    ?? rest.lastIndex(of: "'")
                default: rest.lastIndex(of: "'")
                }
                guard let end = closing else { continue }
                found.append(Presentation(kind: kind, text: String(rest[..<end]), line: index))
                break
            }
        }
        return found
    }

    /// Waits until Orca has presented something after `mark` (a count of `presentations()`) and
    /// then nothing more for `quiet` seconds, at most `timeout` seconds; what it presented after
    /// `mark`.
    public func presentations(after mark: Int, quiet: Double = 1.5, timeout: Double = 15) -> [Presentation] {
        let end = MonotonicClock.now() + timeout
        var count = presentations().count
        var changed = MonotonicClock.now()
        while MonotonicClock.now() < end {
            MonotonicClock.sleep(seconds: 0.1)
            let now = presentations().count
            if now != count {
                count = now
                changed = MonotonicClock.now()
            } else if count > mark, MonotonicClock.now() - changed >= quiet {
                break
            }
        }
        return Array(presentations().dropFirst(mark))
    }
}

public struct OrcaError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
