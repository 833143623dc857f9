/// Why a run ended.
public enum RunEnding: Equatable, Sendable {
    case quit
    case signal(Int32)
    case endOfInput
    case durationElapsed
    /// Every switch input failed (could not be opened or read), and no terminal was there to
    /// take over: the run cannot be operated. The names and the reasons were said as statuses.
    case inputsFailed([String])
}

/// The decisions of `switchscan run`'s loop, fed what happened and the time, returning what to do:
/// when the loop wakes next, how switch edges are dated, when idle work and the run's records go out,
/// which page of a long status shows, what Ctrl-Z, `bg`, `fg` and SIGCONT do to the terminal, and
/// when and why the run ends. The loop (`LiveRun`) polls its descriptors, reads the clock once per
/// turn, feeds this machine and carries its actions out; nothing here reads a clock or a file.
///
/// Times are session times: seconds since the run started (`Configuration.origin` on the
/// monotonic clock). Timers are not replayed: a step missed while the process was stopped comes
/// once, late (`stallLateness`, applied by the session's `advance`).
public struct RunStateMachine: Sendable {
    public struct Configuration: Sendable {
        /// The monotonic time of the start: sources date their edges on the monotonic clock.
        public var origin: Double
        /// Stop after this many seconds.
        public var duration: Double?
        /// Without the terminal's keys the run ends when its sources end (or its switch inputs
        /// all fail); with them, only by a key, a signal or the duration.
        public var endsWithSources: Bool
        /// The sources, by their place in the run's list.
        public var sources: [Source]
        /// A terminal the run takes (raw mode): job control hands it back and takes it again.
        public var hasTerminal: Bool
        /// How often a run in the background looks whether it is in the foreground again: `fg`
        /// sends no signal to a job already running, and reading the terminal to be stopped by
        /// SIGTTIN would stop the scan too. The only periodic wake-up, and only in the background.
        public var foregroundCheckSeconds = 0.25
        /// How long after a braille write the loop leaves the CPU to BRLTTY and the display before
        /// handing its records to the outputs that keep them (the trace) and preparing lines (both wait;
        /// nothing the user sees does).
        public var settleSeconds = 0.002
        /// Records held while writes keep coming faster than `settleSeconds`: past this, handed
        /// on anyway.
        public var recordsHeld = 256
        /// A timer due more than this long before the loop got to it fires once, now.
        public var stallLateness = Configuration.standardStallLateness
        public static let standardStallLateness = 0.25

        public init(origin: Double, duration: Double? = nil, endsWithSources: Bool, sources: [Source] = [], hasTerminal: Bool = false) {
            self.origin = origin
            self.duration = duration
            self.endsWithSources = endsWithSources
            self.sources = sources
            self.hasTerminal = hasTerminal
        }
    }

    public struct Source: Sendable, Equatable {
        public var name: String
        /// Carries the user's switches (a display's keys do not keep a run going).
        public var isSwitchInput: Bool

        public init(name: String, isSwitchInput: Bool = true) {
            self.name = name
            self.isSwitchInput = isSwitchInput
        }
    }

    /// A signal, as the run sees it.
    public enum Signal: Sendable, Equatable {
        /// SIGTSTP (Ctrl-Z).
        case stop
        /// SIGCONT; whether the process has the terminal's foreground now.
        case continued(foreground: Bool)
        /// SIGWINCH.
        case windowChanged
        /// SIGINT, SIGTERM, SIGHUP (the signals the run takes through its descriptor): the run ends.
        case terminate(Int32)
    }

    public enum Action: Sendable, Equatable {
        /// Hand the terminal back (cooked, main screen, cursor shown), hand the records on, and stop
        /// the process as SIGTSTP would; report the return with `stopEnded`.
        case stopProcess
        /// Take the terminal again (raw mode) and draw the frame whole.
        case takeTerminal
        /// Continued in the background: leave the terminal alone (no reads, no drawing).
        case releaseTerminal
        /// Draw the whole frame again.
        case redraw
        /// A status for the run's records (the trace's status lines).
        case recordStatus(String)
        /// Hand the records held to the outputs that keep them.
        case flushRecords
        /// Offer records an output holds back (a trace FIFO without a reader) again.
        case retryRecords
        /// Idle work: the records handed on and the lines that may come next prepared.
        case idleWork
        /// Show this page of the long status.
        case showStatusPage(Int)
        /// Bring the session to this time (its timers: one late step at most, `lateness`).
        case advanceSession(to: Double, lateness: Double)
        /// Show what the turn changed (braille, overlay, frame), then store selections.
        case present
        case end(RunEnding)
    }

    /// What the loop does before it waits.
    public struct Wait: Sendable, Equatable {
        /// How long poll may wait (nil: until a descriptor is readable).
        public var timeout: Double?
        /// Hand the records held on first.
        public var flushRecords: Bool

        public init(timeout: Double?, flushRecords: Bool) {
            self.timeout = timeout
            self.flushRecords = flushRecords
        }
    }

    /// Where the run is in its life.
    private enum Phase: Sendable, Equatable {
        case notStarted
        case running
        /// SIGTSTP handled: the process stops itself; the SIGCONT that continues it is its own.
        case stopping
        /// Continued in the background (`bg`): no terminal until it is in the foreground.
        case background
        case ended(RunEnding)
    }

    public let configuration: Configuration
    private var phase = Phase.notStarted
    /// The session time of each source's last edge: a source's edges never go back in time.
    private var lastEdgeTime: [Double]
    private var endedSources = Set<String>()
    private var failedSources = Set<String>()
    /// When the braille line was last handed to the displays (session time).
    private var lastWrite = -Double.infinity
    private var statusPage = 0
    private var statusPageDue: Double?
    /// A stop the process made itself was continued: the SIGCONT record still to come is that one.
    private var continuedHere = false

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        lastEdgeTime = [Double](repeating: 0, count: configuration.sources.count)
    }

    // MARK: Facts

    public var ending: RunEnding? {
        if case .ended(let ending) = phase { return ending }
        return nil
    }
    public var isInBackground: Bool { phase == .background }
    /// The page of the long status shown now.
    public var currentStatusPage: Int { statusPage }
    /// The latest braille write has had `settleSeconds` to reach the display.
    public func isSettled(at now: Double) -> Bool { now >= lastWrite + configuration.settleSeconds }

    // MARK: Events

    public mutating func start(at now: Double) -> [Action] {
        guard phase == .notStarted else { return [] }
        phase = .running
        return [.present]
    }

    /// The loop is about to wait: until the earliest deadline, or not at all when idle work is
    /// waiting and the last write has settled. Deadlines are session times.
    public func wait(at now: Double, sessionDeadline: Double?, sourceDeadlines: [Double], recordRetry: Double?,
                     idleWorkPending: Bool, heldRecords: Int) -> Wait {
        var deadline = sessionDeadline
        func include(_ time: Double?) {
            guard let time else { return }
            deadline = min(deadline ?? .infinity, time)
        }
        for due in sourceDeadlines { include(due) }
        include(configuration.duration)
        include(statusPageDue)
        // `fg` sends no signal to a job already running: the only periodic wake-up.
        if phase == .background { include(now + configuration.foregroundCheckSeconds) }
        include(recordRetry)
        let settled = isSettled(at: now)
        if idleWorkPending, !settled { include(lastWrite + configuration.settleSeconds) }
        let timeout = idleWorkPending && settled ? 0 : deadline.map { max(0, $0 - now) }
        return Wait(timeout: timeout, flushRecords: settled || heldRecords >= configuration.recordsHeld)
    }

    /// The loop woke at `now`: idle work when nothing was ready, held records offered again, the
    /// status's next page.
    public mutating func woke(at now: Double, nothingReady: Bool, idleWorkPending: Bool, recordRetry: Double?) -> [Action] {
        var actions = [Action]()
        if idleWorkPending, nothingReady, isSettled(at: now) { actions += [.flushRecords, .idleWork] }
        if let due = recordRetry, now >= due { actions.append(.retryRecords) }
        return actions
    }

    /// The status page turns when due (after the turn's signals and keys, as it is drawn).
    public mutating func statusPageTime(_ now: Double) -> [Action] {
        guard let due = statusPageDue, now >= due else { return [] }
        statusPage += 1
        statusPageDue = nil
        return [.showStatusPage(statusPage)]
    }

    public mutating func signal(_ signal: Signal, at now: Double) -> [Action] {
        guard ending == nil else { return [] }
        switch signal {
        case .windowChanged:
            return [.redraw]
        case .stop:
            phase = .stopping
            return [.recordStatus("suspended (SIGTSTP)"), .flushRecords, .stopProcess]
        case .continued(let foreground):
            if continuedHere {
                continuedHere = false
                return []
            }
            return continued(foreground: foreground)
        case .terminate(let number):
            return end(.signal(number))
        }
    }

    /// `stopProcess` returned: `stopped` when the process was stopped and continued (not when
    /// SIGTSTP is ignored); `foreground`, whether it has the terminal now.
    public mutating func stopEnded(stopped: Bool, foreground: Bool, at now: Double) -> [Action] {
        continuedHere = stopped
        return continued(foreground: foreground)
    }

    private mutating func continued(foreground: Bool) -> [Action] {
        var actions: [Action] = [.recordStatus("continued (SIGCONT)"), .redraw]
        guard configuration.hasTerminal else {
            phase = .running
            return actions
        }
        if foreground {
            phase = .running
            actions.append(.takeTerminal)
        } else {
            phase = .background
            actions.append(.releaseTerminal)
        }
        return actions
    }

    /// In the background, the loop looked whether the terminal is its own again.
    public mutating func foregroundChecked(_ foreground: Bool, at now: Double) -> [Action] {
        guard phase == .background, foreground else { return [] }
        phase = .running
        return [.recordStatus("in the foreground again (fg)"), .redraw, .takeTerminal]
    }

    /// The terminal's keys: `q` or Ctrl-C typed.
    public mutating func quitTyped() -> [Action] { end(.quit) }

    /// Standard input (a pipe) ended.
    public mutating func keysEnded() -> [Action] { end(.endOfInput) }

    /// The session times of a batch of edges one source gave in one read, from their monotonic
    /// timestamps (nil: not dated, the turn's `now`). A batch dated before the start (a file or
    /// FIFO written before the run began, read at once) is moved as a whole to begin at the
    /// start: clamping each edge to 0 alone squeezed its first press into a bounce. A source's
    /// edges never go back in time, also after a moved batch.
    public mutating func dateEdges(_ timestamps: [Double], source index: Int, at now: Double) -> [Double] {
        var earliest = Double.infinity
        for time in timestamps where time.isFinite { earliest = min(earliest, time) }
        let batchShift = earliest.isFinite ? max(0, configuration.origin - earliest) : 0
        return timestamps.map { timestamp in
            let previous = lastEdgeTime[index]
            let time = timestamp.isFinite ? max(previous, timestamp - configuration.origin + batchShift) : now
            lastEdgeTime[index] = time
            return time
        }
    }

    /// A source has nothing more, or could not be opened or read (`failed`).
    public mutating func sourceEnded(_ name: String, failed: Bool) {
        endedSources.insert(name)
        if failed { failedSources.insert(name) }
    }

    /// The braille line was handed to the displays.
    public mutating func brailleWritten(at time: Double) {
        lastWrite = time
    }

    /// The status line's text changed: its first page, no turn pending.
    public mutating func statusChanged() {
        statusPage = 0
        statusPageDue = nil
    }

    /// The frame was drawn with this many pages of status: the next page `pageSeconds` later (the
    /// `statusPageTime` setting, read when the page is drawn: a change applies from the next page).
    public mutating func statusDrawn(pages: Int, at now: Double, pageSeconds: Double) {
        if pages > 1, statusPageDue == nil { statusPageDue = now + pageSeconds }
    }

    /// The turn's inputs are handled: the session brought to `now`, the outputs shown, and the
    /// run ended if its time is up or its sources are done.
    public mutating func turnEnded(at now: Double) -> [Action] {
        guard ending == nil else { return [] }
        var actions: [Action] = [.advanceSession(to: now, lateness: configuration.stallLateness), .present]
        if let duration = configuration.duration, now >= duration { return actions + end(.durationElapsed) }
        if configuration.endsWithSources {
            let inputs = configuration.sources.filter(\.isSwitchInput).map(\.name)
            if !inputs.isEmpty, inputs.allSatisfy(failedSources.contains) { return actions + end(.inputsFailed(inputs)) }
            if !configuration.sources.isEmpty, endedSources.count == configuration.sources.count, configuration.duration == nil {
                actions += end(.endOfInput)
            }
        }
        return actions
    }

    private mutating func end(_ ending: RunEnding) -> [Action] {
        guard self.ending == nil else { return [] }
        phase = .ended(ending)
        return [.end(ending)]
    }
}
