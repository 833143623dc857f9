/// The link to a braille display through BRLTTY, as decisions: when to connect, when to give an
/// attempt up, when to try again (backoff), and what to tell the user (each thing once). Fed what
/// happened (time passed, an attempt's outcome, the connection lost), it returns what to do; the
/// output that owns the connector thread and the BrlAPI calls carries the actions out.
///
/// After a failure the next attempt waits `reconnectDelay`, doubled after each further failure up
/// to `maximumReconnectDelay`; a connection made starts the delays again. A display that reports
/// 0 cells (BRLTTY without its display yet) is asked again every `sizeRetryInterval`. An attempt
/// that outlasts `connectTimeout` (a BRLTTY that accepts but never answers) is abandoned, and no
/// other starts until its thread has returned, so threads never pile up.
public struct BrailleDisplayLink: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// The host as messages name it (`:0`, `host:1`, `:1 (BRLAPI_HOST)`).
        public var host: String
        /// The socket a local BRLTTY listens on (said while it is awaited); nil over TCP.
        public var awaitedSocket: String?
        /// Say nothing while no BRLTTY answers (`--braille auto`).
        public var quietWhileAbsent: Bool
        public var sizeRetryInterval: Double
        public var reconnectDelay: Double
        public var maximumReconnectDelay: Double
        public var connectTimeout: Double

        public init(host: String, awaitedSocket: String? = nil, quietWhileAbsent: Bool = false,
                    sizeRetryInterval: Double = 0.5, reconnectDelay: Double = 0.25, maximumReconnectDelay: Double = 2,
                    connectTimeout: Double = 5) {
            self.host = host
            self.awaitedSocket = awaitedSocket
            self.quietWhileAbsent = quietWhileAbsent
            self.sizeRetryInterval = sizeRetryInterval
            self.reconnectDelay = reconnectDelay
            self.maximumReconnectDelay = maximumReconnectDelay
            self.connectTimeout = connectTimeout
        }
    }

    /// A display the connector found.
    public struct DisplayFound: Sendable, Equatable {
        public var driver: String
        public var model: String
        /// The id of the display profile its driver and model fit, if any.
        public var profile: String?
        public var columns: Int
        public var rows: Int

        public init(driver: String, model: String, profile: String?, columns: Int, rows: Int) {
            self.driver = driver
            self.model = model
            self.profile = profile
            self.columns = columns
            self.rows = rows
        }
    }

    /// Why an attempt failed or a connection was lost, as far as the decisions go.
    public enum Failure: Sendable, Equatable {
        /// Nothing listens on the host (BRLTTY not started yet, or gone).
        case serverUnavailable(message: String)
        /// BRLTTY refused the authentication.
        case authentication(message: String)
        /// The connection to BRLTTY went away (end of file, a broken pipe).
        case connectionLost
        /// Anything else, as its error says it.
        case other(String)
    }

    public enum Action: Sendable, Equatable {
        /// Start a connection attempt (on a thread of its own).
        case connect
        /// Leave the attempt in progress to its thread (it timed out); report its end with
        /// `abandonedAttemptReturned()`.
        case abandonAttempt
        /// Close the connection (it failed), and write the line again once connected.
        case closeConnection
        /// Lay the line out for the connected display and write it.
        case writeLine
        /// Tell the user (status line, trace, a service's journal).
        case say(String)
    }

    private enum State: Sendable, Equatable {
        /// Not connected; the next attempt at this time.
        case waiting(until: Double)
        case connecting(since: Double)
        case connected
        case closed
    }

    public let configuration: Configuration
    private var state: State
    private var nextReconnectDelay: Double
    /// A connection was lost and not yet made again: "no BRLTTY" is not said meanwhile.
    private var reconnecting = false
    /// An abandoned attempt whose thread has not returned yet.
    private var abandonedAttemptRunning = false
    /// The last thing said: the same status is not said twice in a row.
    private var lastSaid: String?

    /// The first attempt is due at `now`: call `timeReached(now)` (or `start(at:)`).
    public init(_ configuration: Configuration, at now: Double) {
        self.configuration = configuration
        nextReconnectDelay = configuration.reconnectDelay
        state = .waiting(until: now)
    }

    // MARK: Facts

    public var isConnected: Bool { state == .connected }
    public var isConnecting: Bool {
        if case .connecting = state { return true }
        return false
    }
    public var isClosed: Bool { state == .closed }

    /// When the link wants `timeReached` next: the next attempt, or the attempt's timeout.
    public var deadline: Double? {
        switch state {
        case .waiting(let until): until
        case .connecting(let since): since + configuration.connectTimeout
        case .connected, .closed: nil
        }
    }

    /// The wait before the attempt after the next failure.
    public var currentReconnectDelay: Double { nextReconnectDelay }

    // MARK: Events

    /// The link starts: the first attempt now.
    public mutating func start(at now: Double) -> [Action] {
        state = .waiting(until: now)
        return timeReached(now)
    }

    /// The clock reached `now`: an attempt due starts, one that outlasted its timeout is
    /// abandoned and counted as failed.
    public mutating func timeReached(_ now: Double) -> [Action] {
        switch state {
        case .waiting(let until) where now >= until:
            guard !abandonedAttemptRunning else {
                state = .waiting(until: now + configuration.maximumReconnectDelay)
                return []
            }
            state = .connecting(since: now)
            return [.connect]
        case .connecting(let since) where now >= since + configuration.connectTimeout:
            abandonedAttemptRunning = true
            return [.abandonAttempt] + failed(.other(Self.noAnswer(within: configuration.connectTimeout)), at: now)
        default:
            return []
        }
    }

    /// No thread could be started for the attempt (resources exhausted): later.
    public mutating func attemptNotStarted(at now: Double) -> [Action] {
        state = .waiting(until: now + configuration.maximumReconnectDelay)
        return []
    }

    /// The thread of an abandoned attempt returned: attempts may start again.
    public mutating func abandonedAttemptReturned() {
        abandonedAttemptRunning = false
    }

    /// The attempt connected to a display.
    public mutating func connected(_ display: DisplayFound, at now: Double) -> [Action] {
        guard isConnecting else { return [] }
        state = .connected
        nextReconnectDelay = configuration.reconnectDelay
        reconnecting = false
        var description = display.driver.isEmpty ? "a display" : display.driver
        if !display.model.isEmpty { description += ", model \(display.model)" }
        if let profile = display.profile { description += " (profile \(profile))" }
        let size = display.rows > 1 ? "\(display.columns)×\(display.rows)" : "\(display.columns * max(display.rows, 1))"
        return say("braille display connected: \(description), \(size) cells, on BRLTTY \(configuration.host)") + [.writeLine]
    }

    /// BRLTTY answered but its display reports 0 cells: asked again after `sizeRetryInterval`.
    public mutating func noCells(driver: String, at now: Double) -> [Action] {
        guard isConnecting else { return [] }
        state = .waiting(until: now + configuration.sizeRetryInterval)
        let what = driver.isEmpty ? "its display" : "its display (\(driver))"
        return say("braille display: BRLTTY \(configuration.host) answers but \(what) reports 0 cells; waiting for it")
    }

    /// The attempt failed: the next one after the current delay, which doubles up to the cap.
    public mutating func failed(_ failure: Failure, at now: Double) -> [Action] {
        guard isConnecting else { return [] }
        let delay = nextReconnectDelay
        nextReconnectDelay = min(nextReconnectDelay * 2, configuration.maximumReconnectDelay)
        state = .waiting(until: now + delay)
        let host = configuration.host
        switch failure {
        case .serverUnavailable(let message):
            // Said while BRLTTY is awaited, not while a lost connection is being made again.
            guard !reconnecting, !configuration.quietWhileAbsent else { return [] }
            let socket = configuration.awaitedSocket.map { " (socket \($0))" } ?? ""
            return say("braille display: no BRLTTY at \(host) (\(message)); waiting for it\(socket), trying again")
        case .authentication(let message):
            return say("braille display: BRLTTY \(host) refused the authentication (\(message)); give --braille-auth (e.g. keyfile:/etc/brlapi.key)")
        case .connectionLost:
            return say("braille display: cannot connect to BRLTTY \(host): the connection was lost")
        case .other(let description):
            return say("braille display: cannot connect to BRLTTY \(host): \(description)")
        }
    }

    /// The connection failed (a write or read error, an exception, BRLTTY gone): closed, and made
    /// again after `reconnectDelay` (the delays start again); the line is written once connected.
    public mutating func lost(_ failure: Failure, at now: Double) -> [Action] {
        guard isConnected else { return [] }
        reconnecting = true
        state = .waiting(until: now + configuration.reconnectDelay)
        nextReconnectDelay = min(configuration.reconnectDelay * 2, configuration.maximumReconnectDelay)
        let text = switch failure {
        case .connectionLost: "braille display: BRLTTY connection lost; reconnecting"
        case .serverUnavailable(let message), .authentication(let message): "braille display: \(message); reconnecting"
        case .other(let description): "braille display: \(description); reconnecting"
        }
        return [.closeConnection] + say(text)
    }

    /// The run ends: nothing more is attempted.
    public mutating func close() -> [Action] {
        defer { state = .closed }
        switch state {
        case .connected: return [.closeConnection]
        case .connecting: return [.abandonAttempt]
        case .waiting, .closed: return []
        }
    }

    // MARK: Said once

    private mutating func say(_ text: String) -> [Action] {
        guard text != lastSaid else { return [] }
        lastSaid = text
        return [.say(text)]
    }

    /// What a timed-out attempt's failure says.
    public static func noAnswer(within seconds: Double) -> String { "no answer within \(seconds) s" }
}
