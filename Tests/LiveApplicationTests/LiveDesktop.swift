import Foundation
import Runtime
import Scanning
import SwitchInput

/// Tests/LiveApps/live-session.sh running one test application: a private D-Bus session, Xvfb
/// and the AT-SPI bus. It stops them (by PID) when its standard input ends: when `stop()` closes
/// it, or when the kernel does at the runner's death.
final class LiveDesktop {
    let process = Process()
    private let input = Pipe()
    let appOutputPath: String

    static let appsFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("LiveApps")

    /// Whether the machine can run it (scripts/setup --tests installs these).
    static var isAvailable: Bool {
        ["/usr/bin/Xvfb", "/usr/bin/dbus-daemon", "/usr/libexec/at-spi-bus-launcher", "/usr/bin/python3"]
            .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// One desktop at a time in this process: libatspi and the environment (DISPLAY, the bus
    /// address) are the process's own. Taken by `init`, given back by `stop()`.
    private static let oneAtATime = DispatchSemaphore(value: 1)
    /// The desktop's DISPLAY and session bus address.
    let display: String
    let busAddress: String
    /// The environment for a process run on this desktop.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        return environment
    }

    init(app: String) throws {
        Self.oneAtATime.wait()
        var started = false
        defer { if !started { Self.oneAtATime.signal() } }
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [Self.appsFolder.appendingPathComponent("live-session.sh").path,
                             Self.appsFolder.appendingPathComponent(app).path]
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
        guard let display = values["DISPLAY"], let bus = values["DBUS_SESSION_BUS_ADDRESS"], let app = values["APP_OUTPUT"] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        // libatspi finds the accessibility bus through these, at its first use in this process.
        setenv("DISPLAY", display, 1)
        setenv("DBUS_SESSION_BUS_ADDRESS", bus, 1)
        appOutputPath = app
        self.display = display
        busAddress = bus
        started = true
    }

    /// What the application printed (one line per handler run).
    var appOutput: [String] {
        ((try? String(contentsOfFile: appOutputPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        Self.oneAtATime.signal()
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

    var highlightedLabel: String? {
        switch session.engine.highlight {
        case .entry(let node), .groupExit(let node): return node.element.label
        default: return nil
        }
    }
}
