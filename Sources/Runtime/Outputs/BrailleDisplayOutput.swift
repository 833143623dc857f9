#if canImport(Glibc)
import Glibc
#endif
import BrailleFormatting
import BrlAPI
import Scanning
import DeviceProfiles
import Foundation
import RunControl
import SwitchInput
import Platform

/// A braille display through BRLTTY's BrlAPI: shows the scanner's line, and turns the display's
/// keys into switch edges (`docs/braille.md`, "BrlAPI, as the best clients use it").
///
/// **The line.** `show(_:language:at:)` translates the line with liblouis
/// (`LiblouisLineTranslator`: the table `BrailleTableChoice` gives for the element's language,
/// contracted by default; the text itself, for BRLTTY's text table, when liblouis fails), cuts it
/// into windows of the display's size (`BrailleWindow.first`: rows of its width; on a display of
/// several rows the line wraps across them and a routing key's cell number counts row by row),
/// pans to the highlighted segment and writes that window as `BrailleWindowRendering` marks it.
/// Cells of a translation are written as U+28xx characters, which BRLTTY passes through as dots.
///
/// **Writes are coalesced.** BRLTTY sends every write on to the display (~23 ms each on a Baum
/// display at 19200 baud), so a burst would queue up behind the serial line. Only the latest
/// window is written, at most once per `writeInterval`; a write that must wait is pending and
/// `deadline` says when it goes. An unchanged window is not written again.
///
/// **Keys.** In tty mode the client receives BRLTTY commands, and only those it accepts
/// (`BrailleDisplayKeyMap` decides which, and what each does): ROUTE
/// (the routing keys), the pan commands of the display's profile, and the commands the profile
/// binds to switch actions. A routing key over the element or menu entry the line shows is the
/// pulse switch `braille:route` (bound to `select`); pan keys move the window here, without the
/// scanner; a bound command is the pulse switch `braille:<COMMAND>` (`braille:LNUP` → previous).
/// The routing key over the menu button's line (`alwaysTap`) opens the menu, over a menu entry
/// chooses it: they route like the highlighted element's line.
/// The display's profile is the one BrlAPI's driver name and model identifier fit; without one
/// the commands every profile binds alike are used (all of `Devices/braille` bind LNUP to
/// previous and LNDN to next, and pan with FWINLT/FWINRT).
///
/// **The connection.** When to connect, give an attempt up, reconnect with backoff, and what to
/// say is decided by `BrailleDisplayLink` (tested with a manual clock); this class carries its
/// actions out. Opening a connection runs on a short-lived thread of its own (with every
/// signal blocked), because `brlapi__openConnection` waits for the server's first packet, which a
/// BRLTTY that is starting sends up to a second later; the loop polls a pipe meanwhile and never
/// blocks on it. An attempt that outlasts `connectTimeout` (a BRLTTY that accepts but never
/// answers) is given up, and no other starts until its thread returns. A display reporting 0 cells (BRLTTY without its display yet) is asked again every
/// `sizeRetryInterval` on a new connection. A lost connection (BRLTTY stopped or killed, EPIPE, an
/// exception such as a size change) is closed and reopened with backoff (`reconnectDelay`
/// doubling to `maximumReconnectDelay`), and the current line is written again. Writes and key
/// reads run on the loop's thread; a write returns once BRLTTY acknowledges it (well under a
/// millisecond locally), so a BRLTTY that is alive but stalled (SIGSTOP) would stall the loop.
///
/// Everything the user should know (connected, lost, no display, no BRLTTY) comes out as
/// `.status` inputs; with `quietWhileAbsent` (`--braille auto`) nothing is said while no BRLTTY
/// answers.
///
/// The loop's end-of-input rule: the output says `.endOfInput` at once, so that a run without the
/// terminal (a replayed recording) still ends with its other sources; the display keeps working
/// until then.
public final class BrailleDisplayOutput: RuntimeSource, ScanOutput {
    /// What dots 7-8 mark (`none`, `firstCell`: BrlAPI's cursor on the highlighted segment's
    /// first cell, `segment`: dots 7-8 under all of it; a line liblouis could not translate gets
    /// `firstCell` for `segment`).
    public typealias CursorMarking = BrailleCursorMarking

    public struct Configuration: Sendable {
        /// BrlAPI host (`:N`, `host:N`); nil for BrlAPI's default (`BRLAPI_HOST`, else `:0`).
        public var host: String?
        /// BrlAPI auth (`none`, `keyfile:PATH`, `polkit`); nil for BrlAPI's default
        /// (`BRLAPI_AUTH`, else the key file).
        public var auth: String?
        /// Say nothing while no BRLTTY answers (`--braille auto`).
        public var quietWhileAbsent: Bool
        /// The display profiles (`Devices/braille`), for the key bindings.
        public var profiles: [BrailleDisplayProfile]
        public var tables: BrailleTableChoice
        /// Contracted braille (the tables' grade 2) rather than computer braille.
        public var contracted: Bool
        public var cursor: CursorMarking
        /// The shortest time between the starts of two writes, in seconds.
        public var writeInterval: Double
        /// How long to wait before asking again when the display reports 0 cells.
        public var sizeRetryInterval: Double
        /// The first wait before reconnecting; doubled after each failure up to the maximum.
        public var reconnectDelay: Double
        public var maximumReconnectDelay: Double
        /// How long a connection attempt may take (BRLTTY's server answers within about 1 s
        /// while it starts); past it the attempt is abandoned and another one made later.
        public var connectTimeout: Double

        public init(host: String? = nil, auth: String? = nil, quietWhileAbsent: Bool = false,
                    profiles: [BrailleDisplayProfile] = [], tables: BrailleTableChoice = BrailleTableChoice(),
                    contracted: Bool = true, cursor: CursorMarking = .none, writeInterval: Double = 0.025,
                    sizeRetryInterval: Double = 0.5, reconnectDelay: Double = 0.25, maximumReconnectDelay: Double = 2,
                    connectTimeout: Double = 5) {
            self.host = host
            self.auth = auth
            self.quietWhileAbsent = quietWhileAbsent
            self.profiles = profiles
            self.tables = tables
            self.contracted = contracted
            self.cursor = cursor
            self.writeInterval = writeInterval
            self.sizeRetryInterval = sizeRetryInterval
            self.reconnectDelay = reconnectDelay
            self.maximumReconnectDelay = maximumReconnectDelay
            self.connectTimeout = connectTimeout
        }
    }

    /// The routing keys' switch: a pulse bound to `select`.
    public static let routeSwitch: SwitchID = BrailleDisplayKeyMap.routeSwitch

    /// The switch of a display command bound by a profile: `braille:LNUP`.
    public static func switchID(command: String) -> SwitchID { BrailleDisplayKeyMap.switchID(command: command) }

    /// Bindings when no profile is loaded (what every profile of `Devices/braille` says).
    public static let defaultCommandBindings = BrailleDisplayKeyMap.defaultCommandBindings

    public let name = "braille"
    public let configuration: Configuration
    /// Command (BRLTTY name) → action, for the whole run: the commands the profiles bind alike.
    public let commandBindings: [String: SwitchAction]

    // MARK: State

    /// A connected display.
    struct Display {
        let connection: BrlAPIConnection
        /// `columns × rows`.
        let cells: Int
        let columns: Int
        let rows: Int
        let driver: String
        let model: String
        let profile: BrailleDisplayProfile?
        let keys: BrailleDisplayKeyMap
    }

    /// The link's decisions (connect, retry, give up, what to say).
    private var link: BrailleDisplayLink
    /// The attempt in progress, on its thread.
    private var attempt: ConnectAttempt?
    /// The connected display.
    private var display: Display?
    private var pendingStatuses: [String] = []
    /// An attempt that timed out and is still blocked in libbrlapi.
    private var staleAttempt: ConnectAttempt?
    /// Whether `.endOfInput` was given (see `deadlineReached`).
    private var saidEndOfInput = false

    private var line: BrailleLine = .empty
    private var language: String?
    /// The line's cells and their source offsets (nil: the text itself is written).
    private var translation: BrailleTranslation?
    private var window: BrailleWindow?
    private var needsWrite = false
    private var lastWriteStart: Double?
    private var lastWritten: BrailleDisplayWrite?
    private var translator: LiblouisLineTranslator

    /// Writes done, and the last one's start and return (monotonic seconds).
    public private(set) var writeCount = 0
    public private(set) var lastWrite: (started: Double, returned: Double)?
    /// The text of the last write (cells as U+28xx when translated; BrlAPIConnection pads it).
    public var lastWrittenText: String? { lastWritten?.text }
    /// Called after each write returns, with its start and return times (monotonic seconds):
    /// the run's trace (`brailleWritten` lines), benchmarks.
    public var writeObserver: ((_ started: Double, _ returned: Double) -> Void)?

    /// Starts connecting at once (on the connecting thread).
    public init(_ configuration: Configuration, statuses: [String] = [], at now: Double = MonotonicClock.now()) {
        self.configuration = configuration
        self.commandBindings = Self.commandBindings(for: configuration.profiles)
        self.translator = LiblouisLineTranslator(tables: configuration.tables, contracted: configuration.contracted)
        self.link = BrailleDisplayLink(.init(
            host: Self.hostDescription(configuration.host), awaitedSocket: Self.awaitedSocket(configuration.host),
            quietWhileAbsent: configuration.quietWhileAbsent, sizeRetryInterval: configuration.sizeRetryInterval,
            reconnectDelay: configuration.reconnectDelay, maximumReconnectDelay: configuration.maximumReconnectDelay,
            connectTimeout: configuration.connectTimeout), at: now)
        pendingStatuses = statuses
        carryOut(link.start(at: now), at: now)
    }

    /// The commands the profiles bind, each to the action they all agree on (a command profiles
    /// bind differently is left out); `defaultCommandBindings` without profiles.
    public static func commandBindings(for profiles: [BrailleDisplayProfile]) -> [String: SwitchAction] {
        BrailleDisplayKeyMap.commandBindings(for: profiles, canonical: canonicalCommand)
    }

    /// A command's name as BrlAPI accepts it (`FWINLT`); nil for one it cannot accept.
    static func canonicalCommand(_ name: String) -> String? { BrlAPICommand(brlttyName: name)?.brlttyName }

    // MARK: Facts, for status and tests

    /// Whether a display is connected now.
    public var isConnected: Bool { display != nil }

    /// The connected display's cell count (columns × rows).
    public var displayCells: Int? { display?.cells }

    /// The connected display's size as BrlAPI reports it.
    public var displaySize: (columns: Int, rows: Int)? { display.map { ($0.columns, $0.rows) } }

    /// Whether a write waits for its turn (or for a connection).
    public var hasPendingWrite: Bool { needsWrite }

    /// Whether the reader panned the display away from the line's first window.
    public var isPannedAway: Bool { (window?.index ?? 0) > 0 }

    /// The current window's text (cells as U+28xx when translated), unpadded.
    public var windowText: String? { window?.text }

    /// The host as messages name it.
    static func hostDescription(_ configured: String?) -> String {
        if let host = configured, !host.isEmpty { return host }
        if let environment = CurrentProcess.environmentVariable("BRLAPI_HOST") { return environment + " (BRLAPI_HOST)" }
        return ":0"
    }

    /// The socket a local BRLTTY (host `:N`) listens on, nil for one over TCP: what a run waits
    /// for while BRLTTY is away, for whoever reads a service's journal.
    static func awaitedSocket(_ configured: String?) -> String? {
        var host = configured.flatMap { $0.isEmpty ? nil : $0 }
        if host == nil, let environment = CurrentProcess.environmentVariable("BRLAPI_HOST") { host = environment }
        let number = (host ?? ":0").dropFirst()
        guard (host ?? ":0").hasPrefix(":"), !number.isEmpty, number.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return "\(BrlAPI.socketDirectory)/\(number)"
    }

    // MARK: RuntimeSource

    public var descriptor: FileDescriptor? {
        if let display {
            let descriptor = display.connection.fileDescriptor
            return descriptor >= 0 ? FileDescriptor(rawValue: descriptor) : nil
        }
        return attempt?.readEnd
    }

    public var deadline: Double? {
        var due = link.deadline
        if let display {
            if needsWrite { due = (lastWriteStart ?? 0) + configuration.writeInterval }
            // libbrlapi closed the descriptor after an exception: notice it now.
            if display.connection.fileDescriptor < 0 { due = 0 }
        }
        // Statuses (and the first call's end of input) go out at the next call.
        if !pendingStatuses.isEmpty || !saidEndOfInput { due = min(due ?? 0, 0) }
        return due
    }

    /// The display's keys work while it is connected, but never keep a run going by themselves.
    public var isSwitchInput: Bool { false }

    public var bindings: [SwitchID: SwitchBinding] {
        var result: [SwitchID: SwitchBinding] = [Self.routeSwitch: SwitchBinding(action: .select)]
        for (command, action) in commandBindings { result[Self.switchID(command: command)] = SwitchBinding(action: action) }
        return result
    }

    public var pulseSwitches: Set<SwitchID> { Set(bindings.keys) }

    public func readable(at now: Double) -> [RuntimeInput] {
        var inputs = [RuntimeInput]()
        if let display {
            inputs += readKeys(display, at: now)
        } else if let attempt, let outcome = attempt.take() {
            self.attempt = nil
            finish(outcome, at: now)
        }
        return takeStatuses() + inputs
    }

    /// The first call also says `.endOfInput`: the display's keys never keep a run going by
    /// themselves, so a run without the terminal ends when its other sources end (a replayed
    /// recording), as it would without a display. The keys go on working until then.
    public func deadlineReached(at now: Double) -> [RuntimeInput] {
        var inputs = [RuntimeInput]()
        if !saidEndOfInput {
            saidEndOfInput = true
            inputs.append(.endOfInput(source: name))
        }
        if let stale = staleAttempt, stale.isFinished {
            staleAttempt = nil
            link.abandonedAttemptReturned()
        }
        carryOut(link.timeReached(now), at: now)
        if let display, display.connection.fileDescriptor < 0 {
            lose(display, because: BrlAPIError(function: "brlapi__getFileDescriptor", code: .endOfFile, message: "the connection was closed"), at: now)
        }
        if needsWrite { flushWrite(at: now) }
        return inputs + takeStatuses()
    }

    public func close() {
        carryOut(link.close(), at: 0)
    }

    // MARK: ScanOutput

    public var showsLines: Bool { true }
    public var isShowingLines: Bool { isConnected }

    /// The session's line, when it is not the one shown already.
    public func present(_ outputs: [SessionOutput], shown: ShownState, at now: Double) {
        if shown.lineIsNew { show(shown.line, language: shown.language, at: now) }
    }

    public func showAhead(_ line: BrailleLine, language: String?, at now: Double) {
        show(line, language: language, at: now)
    }

    /// The reader's panning, when it changed since the last report.
    public func takeReports() -> [OutputReport] {
        let away = isPannedAway
        guard away != reportedAway else { return [] }
        reportedAway = away
        return [.readerPanned(away: away)]
    }

    /// The panning last reported.
    private var reportedAway = false

    public func observeWrites(_ observer: @escaping (OutputWrite) -> Void) {
        writeObserver = { [weak self] started, returned in
            observer(OutputWrite(started: started, returned: returned, text: self?.lastWrittenText ?? ""))
        }
    }

    public func show(_ line: BrailleLine, language: String?, at now: Double) {
        if line == self.line, language == self.language, window != nil || !isConnected { return }
        self.line = line
        self.language = language
        if let size = displaySize, let prepared = preparedLines.entry(line, language: language, columns: size.columns, rows: size.rows) {
            // Made ready while the loop was idle: nothing to translate, lay out or render now.
            translation = prepared.translation
            window = prepared.window
            preparedWrite = (prepared.window.index, prepared.write)
        } else {
            translation = translator.translate(line, language: language)
            rebuildWindow()
        }
        requestWrite(at: now)
    }

    /// Makes `line` ready to show: translated, laid out in its first window for the connected
    /// display and rendered as it would be written, so that showing it later (the next highlight,
    /// made ahead while the loop is idle) only looks it up. Nothing is written; without a
    /// connected display nothing is done.
    public func prepare(_ line: BrailleLine, language: String?) {
        guard let size = displaySize, !line.text.isEmpty,
              preparedLines.entry(line, language: language, columns: size.columns, rows: size.rows) == nil else { return }
        let translation = translator.translate(line, language: language)
        let first = BrailleWindow.first(of: line, translation: translation, columns: size.columns, rows: size.rows)
        let write = self.write(first.window, translated: first.translation != nil, cells: size.columns * max(size.rows, 1))
        preparedLines.add(PreparedBrailleLines.Entry(
            line: line, language: language, columns: size.columns, rows: size.rows,
            translation: first.translation, window: first.window, write: write))
    }

    /// Lines made ready by `prepare`.
    private var preparedLines = PreparedBrailleLines()
    /// What the window shown from a prepared line writes while it stays at `index` (nil after
    /// any other window was built).
    private var preparedWrite: (index: Int, write: BrailleDisplayWrite)?

    // MARK: The line

    /// The window for the connected display's size, panned to the highlighted segment.
    private func rebuildWindow() {
        preparedWrite = nil
        guard let size = displaySize else { window = nil; return }
        let built = BrailleWindow.first(of: line, translation: translation, columns: size.columns, rows: size.rows)
        translation = built.translation
        window = built.window
    }

    /// What the current window writes.
    private func currentWrite() -> BrailleDisplayWrite? {
        guard let window, let size = displaySize else { return nil }
        if let prepared = preparedWrite, prepared.index == window.index { return prepared.write }
        return write(window, translated: translation != nil, cells: size.columns * max(size.rows, 1))
    }

    /// What `window` writes on a display of `cells` cells, the cursor marked as configured.
    private func write(_ window: BrailleWindow, translated: Bool, cells: Int) -> BrailleDisplayWrite {
        BrailleDisplayWrite(BrailleWindowRendering(window, translated: translated, marking: configuration.cursor), cells: cells)
    }

    // MARK: Writing

    private func requestWrite(at now: Double) {
        needsWrite = true
        flushWrite(at: now)
    }

    /// Writes the current window if connected and the last write is `writeInterval` old;
    /// otherwise leaves it pending (for `deadline`).
    private func flushWrite(at now: Double) {
        guard needsWrite, let display else { return }
        if let last = lastWriteStart, now < last + configuration.writeInterval { return }
        needsWrite = false
        guard let output = currentWrite() else { return }
        // The bytes compared, not the text: String equality is Unicode's (canonical equivalence),
        // slow on braille patterns, and a different byte is a different write anyway.
        if let written = lastWritten, written.cells == output.cells, written.cursor == output.cursor { return }
        let started = MonotonicClock.now()
        lastWriteStart = started
        do {
            try display.connection.write(output.cells, cursor: output.cursor)
            let returned = MonotonicClock.now()
            lastWritten = output
            writeCount += 1
            lastWrite = (started, returned)
            writeObserver?(started, returned)
        } catch {
            lose(display, because: error, at: now)
        }
    }

    // MARK: Keys

    private func readKeys(_ display: Display, at now: Double) -> [RuntimeInput] {
        var inputs = [RuntimeInput]()
        while true {
            let key: BrlAPIKey?
            do {
                key = try display.connection.readKey()
            } catch {
                lose(display, because: error, at: now)
                return inputs
            }
            guard let key else { return inputs }
            if let input = handle(key, display: display, at: now) { inputs.append(input) }
        }
    }

    private func handle(_ key: BrlAPIKey, display: Display, at now: Double) -> RuntimeInput? {
        let decoded: BrailleDisplayKeyMap.Key
        switch key {
        case .route(let cell): decoded = .route(cell: cell)
        case .panLeft: decoded = .command(BrlAPICommand.panLeft.brlttyName)
        case .panRight: decoded = .command(BrlAPICommand.panRight.brlttyName)
        case .lineUp: decoded = .command(BrlAPICommand.lineUp.brlttyName)
        case .lineDown: decoded = .command(BrlAPICommand.lineDown.brlttyName)
        case .command(let other): decoded = .command(other.brlttyName)
        case .other: return nil
        }
        switch display.keys.action(for: decoded, window: window, line: line) {
        case .panLeft:
            if window?.panLeft() == true { requestWrite(at: now) }
        case .panRight:
            if window?.panRight() == true { requestWrite(at: now) }
        case .press(let id):
            return .edge(SwitchEdge(switchID: id, kind: .down, time: now))
        case .none:
            break
        }
        return nil
    }

    // MARK: Connecting

    /// Does what the link decided.
    private func carryOut(_ actions: [BrailleDisplayLink.Action], at now: Double) {
        for action in actions {
            switch action {
            case .connect: startAttempt(at: now)
            case .abandonAttempt:
                // A BRLTTY that accepts but never answers (stopped): that thread is left to it;
                // the link starts no other until it returns.
                attempt?.abandon()
                staleAttempt = attempt
                attempt = nil
            case .closeConnection:
                display?.connection.close()
                display = nil
                window = nil
                needsWrite = true
            case .writeLine:
                lastWritten = nil
                lastWriteStart = nil
                rebuildWindow()
                requestWrite(at: now)
            case .say(let text):
                pendingStatuses.append(text)
            }
        }
    }

    private func startAttempt(at now: Double) {
        let configuration = configuration
        let bindings = commandBindings
        let attempt = ConnectAttempt(work: { () -> ConnectOutcome in
            BrailleDisplayOutput.connect(configuration: configuration, bindings: bindings)
        }, discard: { outcome in
            if case .connected(let box) = outcome { box.display.connection.close() }
        })
        if attempt.start() {
            self.attempt = attempt
        } else {
            // No thread (resources exhausted): later.
            carryOut(link.attemptNotStarted(at: now), at: now)
        }
    }

    /// On the connecting thread: open, size, profile, tty mode, keys.
    static func connect(configuration: Configuration, bindings: [String: SwitchAction]) -> ConnectOutcome {
        let connection: BrlAPIConnection
        do {
            connection = try BrlAPIConnection.open(host: configuration.host, auth: configuration.auth)
        } catch {
            return .failed(error)
        }
        do {
            let size = try connection.displaySize()
            let rows = max(size.rows, 1)
            let cells = size.columns * rows
            let driver = (try? connection.driverName()) ?? ""
            guard cells > 0 else {
                connection.close()
                return .noCells(driver: driver)
            }
            let model = (try? connection.modelIdentifier()) ?? ""
            let profile = BrailleDisplayProfile.bestMatch(in: configuration.profiles, driverName: driver, modelIdentifier: model)
            let keys = BrailleDisplayKeyMap(profile: profile, profiles: configuration.profiles, bindings: bindings,
                                            canonical: canonicalCommand)
            try connection.enterTTYMode()
            try connection.ignoreAllKeys()
            try connection.acceptKeys(Set(keys.accepted.compactMap(BrlAPICommand.init(brlttyName:))))
            return .connected(ConnectedBox(Display(connection: connection, cells: cells, columns: size.columns, rows: rows, driver: driver, model: model, profile: profile, keys: keys)))
        } catch {
            connection.close()
            return .failed(error)
        }
    }

    private func finish(_ outcome: ConnectOutcome, at now: Double) {
        switch outcome {
        case .connected(let box):
            let found = box.display
            display = found
            carryOut(link.connected(.init(driver: found.driver, model: found.model, profile: found.profile?.id,
                                          columns: found.columns, rows: found.rows), at: now), at: now)
        case .noCells(let driver):
            carryOut(link.noCells(driver: driver, at: now), at: now)
        case .failed(let error):
            let failure: BrailleDisplayLink.Failure
            if let brlapiError = error as? BrlAPIError, brlapiError.isServerUnavailable {
                failure = .serverUnavailable(message: brlapiError.message)
            } else if let brlapiError = error as? BrlAPIError, brlapiError.code == .authentication {
                failure = .authentication(message: brlapiError.message)
            } else {
                failure = .other("\(error)")
            }
            carryOut(link.failed(failure, at: now), at: now)
        }
    }

    /// A connection that failed: the link closes it and schedules the reconnection; the line
    /// is written again once connected.
    private func lose(_ display: Display, because error: any Error, at now: Double) {
        let lostConnection = (error as? BrlAPIError)?.isConnectionLost == true
        carryOut(link.lost(lostConnection ? .connectionLost : .other("\(error)"), at: now), at: now)
    }

    // MARK: Status

    private func takeStatuses() -> [RuntimeInput] {
        defer { pendingStatuses.removeAll() }
        return pendingStatuses.map { RuntimeInput.status($0) }
    }
}

/// A connected display handed from the connecting thread to the loop.
final class ConnectedBox: @unchecked Sendable {
    let display: BrailleDisplayOutput.Display
    init(_ display: BrailleDisplayOutput.Display) { self.display = display }
}

/// One connection attempt on a thread of its own (a display connected after the attempt was
/// abandoned is closed there).
typealias ConnectAttempt = BackgroundJob<ConnectOutcome>

enum ConnectOutcome {
    case connected(ConnectedBox)
    case noCells(driver: String)
    case failed(any Error)
}
