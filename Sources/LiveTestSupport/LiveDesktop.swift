import Foundation
import Runtime
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
    /// window and screen coordinates differ), stopped with the desktop.
    public init(apps: [String], environment extra: [String: String] = [:], windowManager: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let settings = extra.merging(windowManager ? ["LIVE_WINDOW_MANAGER": "openbox"] : [:]) { _, new in new }
        if !settings.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(settings) { _, new in new } }
        process.arguments = [Self.appsFolder.appendingPathComponent("live-session.sh").path]
            + apps.map { Self.appsFolder.appendingPathComponent($0).path }
        let output = Pipe()
        process.standardInput = input
        // Only this process may hold the writing end: the session ends when it closes.
        try FileIO.setCloseOnExec(input.fileHandleForWriting.fileDescriptor)
        process.standardOutput = output
        try process.run()
        var values = [String: String]()
        let reader = output.fileHandleForReading
        var text = ""
        while !text.contains("READY\n") {
            let data = reader.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard let display = values["DISPLAY"], let bus = values["DBUS_SESSION_BUS_ADDRESS"], let folder = values["APP_FOLDER"] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.display = display
        sessionBus = bus
        appFolder = folder
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
    /// `environment` is added to the application's (LONG_LIST_OBJECTS for the long list).
    public func launch(_ script: String, arguments: [String] = [], environment extra: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script.hasSuffix(".py") ? "/usr/bin/python3" : "/bin/sh")
        process.arguments = [Self.appsFolder.appendingPathComponent(script).path] + arguments
        let own = ["APP_FOLDER": appFolder, "XDG_RUNTIME_DIR": appFolder, "GTK_A11Y": "atspi"].merging(extra) { _, new in new }
        process.environment = ProcessInfo.processInfo.environment
            .merging(environment.merging(own) { _, new in new }) { _, new in new }
        for (suffix, keyPath) in [("out", \Process.standardOutput), ("err", \Process.standardError)] as [(String, ReferenceWritableKeyPath<Process, Any?>)] {
            let path = appFolder + "/" + script + "." + suffix
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
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
