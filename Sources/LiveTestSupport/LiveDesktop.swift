import Foundation
import Runtime
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// Tests/LiveApps/live-session.sh running the test applications: a private D-Bus session, Xvfb
/// and the AT-SPI bus. It stops them (by PID) when its standard input ends: when `stop()` closes
/// it, or when the kernel does at the runner's death.
///
/// One desktop serves the test process's own libatspi (`shared`), every demo application running
/// in it: libatspi connects to one accessibility bus per process, once, and the display and
/// session bus it finds are process-wide environment variables.
public final class LiveDesktop: @unchecked Sendable {
    public let process = Process()
    private let input = Pipe()
    /// Where each application prints (SCRIPT.out).
    public let appFolder: String
    /// Its X display and session bus, for a process run on it.
    public let display: String
    public let sessionBus: String
    /// Its accessibility bus's address (where the registry is).
    public let accessibilityBus: String
    /// What this desktop started beside the session script's own (the window manager and the
    /// applications of `init`), stopped by PID with it.
    private var started: [Process] = []

    /// The desktop could not be made: what is missing, as the session script said it.
    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let appsFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/LiveApps")

    /// Whether the machine can run it (scripts/setup --tests installs these).
    public static var isAvailable: Bool {
        ["/usr/bin/Xvfb", "/usr/bin/dbus-daemon", "/usr/libexec/at-spi-bus-launcher", "/usr/bin/python3", "/usr/bin/xprop"]
            .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether Debian's python3-pyqt5 is installed (the Qt 5 demo).
    public static var hasPyQt5: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/PyQt5/QtWidgets.abi3.so")
    }

    /// Whether Debian's openbox is installed (a desktop with a window manager).
    public static var hasOpenbox: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/openbox") }

    /// The demo applications this desktop runs.
    public static var demoScripts: [String] {
        ["gtk4_demo.py", "gtk3_demo.py"] + (hasPyQt5 ? ["qt5_demo.py"] : [])
    }

    /// The one desktop of this test process for libatspi, started at first use with every demo
    /// application; the process's DISPLAY and DBUS_SESSION_BUS_ADDRESS name it (libatspi finds
    /// the accessibility bus through them, at its first use in this process).
    public static let shared: Result<LiveDesktop, Error> = Result {
        let desktop = try LiveDesktop(apps: demoScripts)
        try CurrentProcess.setEnvironmentVariable("DISPLAY", to: desktop.display)
        try CurrentProcess.setEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS", to: desktop.sessionBus)
        return desktop
    }

    /// The longest the tests wait for a demo application's window: a guard against a desktop that
    /// never answers, not a speed target (with both cores busy, a GTK 4 window took over 30 s to
    /// appear on the accessibility bus).
    public static let startLimit = 120.0

    /// Waits until `script` has said `ready` (its window is shown), at most `startLimit` seconds;
    /// whether it did.
    public func waitUntilReady(_ script: String) -> Bool {
        let end = Date(timeIntervalSinceNow: Self.startLimit)
        while !output(of: script).contains("ready") {
            if Date() >= end { return false }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return true
    }

    /// The variables a process run on this desktop needs.
    public var environment: [String: String] { ["DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": sessionBus] }

    /// Settings kept in memory and no portal, as the desktop's own applications have them: this
    /// desktop's session bus offers no settings service (dconf), so a GTK application's setting
    /// written there fails and GSettings puts the old value back (Mousepad's Color Scheme combo
    /// box went to Cobalt and back to None at once).
    public static let settingsInMemory = ["GSETTINGS_BACKEND": "memory", "GTK_USE_PORTAL": "0"]

    /// A home and XDG folders of a test's own in `scratch` (made here), this desktop's folder
    /// as the runtime folder and settings kept in memory: the environment of a run and of the
    /// programs it starts, which then write nothing of the user's (nothing under the runner's HOME).
    public func ownFolders(in scratch: URL) throws -> [String: String] {
        var values = ["XDG_RUNTIME_DIR": appFolder].merging(Self.settingsInMemory) { _, new in new }
        for (name, folder) in [("HOME", "home"), ("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config"),
                               ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")] {
            let path = scratch.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            values[name] = path.path
        }
        return values
    }

    /// Sets `values` in this process's environment, for a run made in this process (what it
    /// starts inherits them); what was there before is put back by the closure returned (a
    /// variable that was not set is left empty, which the XDG folders and GLib read as unset).
    public static func setProcessEnvironment(_ values: [String: String]) throws -> () -> Void {
        let before = ProcessInfo.processInfo.environment
        for (name, value) in values { try CurrentProcess.setEnvironmentVariable(name, to: value) }
        return {
            for name in values.keys { try? CurrentProcess.setEnvironmentVariable(name, to: before[name] ?? "") }
        }
    }

    /// A new file in the desktop's folder, open for writing: for a process's output that no
    /// check reads (a test's output never goes to a system path such as /dev/null).
    public func outputFile(_ name: String) throws -> FileHandle {
        let path = appFolder + "/" + name
        FileManager.default.createFile(atPath: path, contents: nil)
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// Starts a desktop running `apps` (scripts in Tests/LiveApps). A test that runs switchscan
    /// as a process may start one of its own and hand it `environment`.
    /// `environment` is added to the applications' (LONG_LIST_OBJECTS for the long list). With
    /// `windowManager`, openbox manages the windows (reparented, decorated and placed by it:
    /// window and screen coordinates differ): started (`startWindowManager`) before the
    /// applications, and stopped with the desktop. Throws `StartFailure` naming what is
    /// missing when the session script could not make the desktop (no X server, no
    /// accessibility bus, no registry).
    public init(apps: [String], environment extra: [String: String] = [:], windowManager: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        if !extra.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new } }
        // Under a window manager the applications are started after it (a window mapped
        // before it claims the screen is not decorated).
        process.arguments = [Self.appsFolder.appendingPathComponent("live-session.sh").path]
            + (windowManager ? [] : apps.map { Self.appsFolder.appendingPathComponent($0).path })
        let output = Pipe()
        process.standardInput = input
        // Only this process may hold the writing end: the session ends when it closes.
        try FileIO.setCloseOnExec(FileDescriptor(rawValue: input.fileHandleForWriting.fileDescriptor))
        process.standardOutput = output
        try process.run()
        var values = [String: String]()
        let reader = output.fileHandleForReading
        var text = ""
        while !text.contains("READY\n"), !text.contains("ERROR=") || !text.hasSuffix("\n") {
            let data = reader.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        if let error = values["ERROR"] {
            process.waitUntilExit()
            throw StartFailure(description: "the test desktop did not start: \(error)")
        }
        guard let display = values["DISPLAY"], let bus = values["DBUS_SESSION_BUS_ADDRESS"], let folder = values["APP_FOLDER"],
              let accessibility = values["ACCESSIBILITY_BUS"] else {
            throw StartFailure(description: "the test desktop did not start: its script said \(text.debugDescription)")
        }
        self.display = display
        sessionBus = bus
        accessibilityBus = accessibility
        appFolder = folder
        if windowManager {
            do {
                started.append(try startWindowManager())
                for app in apps {
                    started.append(try launch(app, environment: extra))
                }
            } catch {
                stop()
                throw error
            }
        }
    }

    /// Starts openbox (Tests/LiveApps/openbox.sh) on this desktop, and waits until it has claimed
    /// the screen (`_NET_SUPPORTING_WM_CHECK` on the root window, at most `startLimit`): the one
    /// way every test gets a window manager. The caller stops it by PID (`stop(_:)`).
    public func startWindowManager() throws -> Process {
        let windowManager = try launch("openbox.sh")
        let end = Date(timeIntervalSinceNow: Self.startLimit)
        while !(try run("/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"]).contains("window id")) {
            guard windowManager.isRunning, Date() < end else {
                Self.stop(windowManager)
                let said = (try? String(contentsOfFile: appFolder + "/openbox.sh.err", encoding: .utf8)) ?? ""
                throw StartFailure(description: "openbox did not take the screen of \(display): \(said.suffix(300))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return windowManager
    }

    /// The PID of the process that owns the AT-SPI registry's name on this desktop's
    /// accessibility bus; nil while none does.
    public func registryProcessID() throws -> Int32? {
        let answer = try run("/usr/bin/dbus-send", [
            "--bus=" + accessibilityBus, "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.a11y.atspi.Registry",
        ])
        guard let word = answer.split(whereSeparator: { $0 == " " || $0 == "\n" }).last(where: { Int32($0) != nil }),
              let pid = Int32(word), pid > 1 else { return nil }
        return pid
    }

    /// Starts an AT-SPI registry on this desktop by hand (as its bus would), printing into
    /// at-spi2-registryd.out and .err in `appFolder`; the caller stops it by PID.
    public func startRegistry() throws -> Process {
        try launch(executable: "/usr/libexec/at-spi2-registryd", arguments: [], outputName: "at-spi2-registryd")
    }

    /// Runs a program on this desktop to its end; what it printed (its errors go to a file of
    /// the desktop's folder named after it).
    private func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try outputFile((executable as NSString).lastPathComponent + ".err")
        process.standardInput = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// What one application printed (one line per handler run).
    public func output(of script: String) -> [String] {
        let path = appFolder + "/" + script + ".out"
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Starts an application on this desktop through its script in Tests/LiveApps (a shell
    /// script that starts a real application with its options and its settings in `appFolder`,
    /// or a Python test application), printing into SCRIPT.out and SCRIPT.err there. The caller stops it by the process's PID (`stop(_:)`);
    /// what it leaves running carries this desktop's XDG_RUNTIME_DIR and is stopped with the
    /// desktop.
    public func launch(_ script: String, arguments: [String] = [], environment extra: [String: String] = [:]) throws -> Process {
        try launch(
            executable: script.hasSuffix(".py") ? "/usr/bin/python3" : "/bin/sh",
            arguments: [Self.appsFolder.appendingPathComponent(script).path] + arguments, outputName: script, environment: extra)
    }

    /// Starts a program on this desktop, printing into NAME.out and NAME.err in `appFolder`.
    private func launch(executable: String, arguments: [String], outputName: String, environment extra: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let own = ["APP_FOLDER": appFolder, "XDG_RUNTIME_DIR": appFolder, "GTK_A11Y": "atspi"]
            .merging(Self.settingsInMemory) { _, new in new }.merging(extra) { _, new in new }
        process.environment = ProcessInfo.processInfo.environment
            .merging(environment.merging(own) { _, new in new }) { _, new in new }
        for (suffix, keyPath) in [("out", \Process.standardOutput), ("err", \Process.standardError)] as [(String, ReferenceWritableKeyPath<Process, Any?>)] {
            let path = appFolder + "/" + outputName + "." + suffix
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw CocoaError(.fileWriteUnknown)
            }
            process[keyPath: keyPath] = handle
        }
        // Standard input at its end at once: nothing of the runner's is read.
        let input = Pipe()
        process.standardInput = input
        try process.run()
        try? input.fileHandleForWriting.close()
        return process
    }

    /// Stops an application `launch` started, by its PID: TERM, and KILL if it is still there
    /// after `grace` seconds.
    public static func stop(_ application: Process, grace: Double = 5) {
        guard application.isRunning else { return }
        try? ProcessSignal.send(SIGTERM, to: application.processIdentifier)
        let end = Date().addingTimeInterval(grace)
        while application.isRunning, Date() < end { MonotonicClock.sleep(seconds: 0.05) }
        if application.isRunning { try? ProcessSignal.send(SIGKILL, to: application.processIdentifier) }
        application.waitUntilExit()
    }

    public func stop() {
        for program in started.reversed() { Self.stop(program, grace: 1) }
        started.removeAll()
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
