import AccessibilityModel
import Foundation
import Runtime
import Scanning
import SwitchInput

/// Tests/LiveApps/live-session.sh running the test applications: a private D-Bus session, Xvfb
/// and the AT-SPI bus. It stops them (by PID) when its standard input ends: when `stop()` closes
/// it, or when the kernel does at the runner's death.
///
/// One desktop serves the whole test process (`shared`), every demo application running in it:
/// libatspi connects to one accessibility bus per process, once, and the display and session
/// bus it finds are process-wide environment variables.
final class LiveDesktop: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    let appFolder: String
    let display: String
    let sessionBus: String

    static let appsFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("LiveApps")

    /// Whether the machine can run it (scripts/setup --tests installs these).
    static var isAvailable: Bool {
        ["/usr/bin/Xvfb", "/usr/bin/dbus-daemon", "/usr/libexec/at-spi-bus-launcher", "/usr/bin/python3", "/usr/bin/xprop"]
            .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether Debian's python3-pyqt5 is installed (the Qt 5 demo).
    static var hasPyQt5: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/PyQt5/QtWidgets.abi3.so")
    }

    /// The demo applications this desktop runs.
    static var demoScripts: [String] {
        ["gtk4_demo.py", "gtk3_demo.py"] + (hasPyQt5 ? ["qt5_demo.py"] : [])
    }

    /// The one desktop of this test process, started at first use with every demo application.
    static let shared: Result<LiveDesktop, Error> = Result { try LiveDesktop(apps: demoScripts) }

    init(apps: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [Self.appsFolder.appendingPathComponent("live-session.sh").path]
            + apps.map { Self.appsFolder.appendingPathComponent($0).path }
        let output = Pipe()
        process.standardInput = input
        // Only this process may hold the writing end: the session ends when it closes.
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
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
        // libatspi finds the accessibility bus through these, at its first use in this process.
        setenv("DISPLAY", display, 1)
        setenv("DBUS_SESSION_BUS_ADDRESS", bus, 1)
        self.display = display
        sessionBus = bus
        appFolder = folder
    }

    /// What one application printed (one line per handler run).
    func output(of script: String) -> [String] {
        let path = appFolder + "/" + script + ".out"
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// A live application joined to a session, pumped the way the run's loop does: wait on its
/// descriptor until its deadline, hand its updates to the session.
struct LiveDriver {
    let live: LiveApplication
    var session: ScanSession
    var time = 0.0

    init(live: LiveApplication, settings: ScanSettings) {
        self.live = live
        session = ScanSession(content: live, settings: settings)
        _ = session.start()
    }

    /// Runs the loop until `done` holds or `timeout` seconds pass; returns `done`'s last answer.
    @discardableResult
    mutating func pump(timeout: Double = 5, until done: (ScanSession) -> Bool) throws -> Bool {
        let end = MonotonicClock.now() + timeout
        while true {
            if done(session) { return true }
            let now = MonotonicClock.now()
            if now >= end { return false }
            let deadline = live.deadline ?? end
            let ready = try Poll.readable([live.descriptor!], timeout: max(0, min(deadline, end) - now))
            let inputs = ready.isEmpty ? live.deadlineReached(at: MonotonicClock.now()) : live.readable(at: MonotonicClock.now())
            for case .content(let update) in inputs { _ = session.contentChanged(update) }
        }
    }

    /// Presses and releases the switch of `action`.
    mutating func press(_ action: SwitchAction) {
        time += 0.05
        _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .down, time: time))
        time += 0.05
        _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .up, time: time))
    }

    var highlightedElement: AccessibilityModel.Element? {
        switch session.engine.highlight {
        case .entry(let node), .groupExit(let node): return node.element
        default: return nil
        }
    }

    var highlightedLabel: String? { highlightedElement?.label }
}
