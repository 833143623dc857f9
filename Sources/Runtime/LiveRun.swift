#if canImport(Glibc)
import Glibc
#endif
import AccessibilityModel
import BrailleFormatting
import Scanning
import Scenes
import SwitchInput

/// `switchscan run`: a scene operated live. One thread, one loop: poll(2) over every input's
/// descriptor and the signal descriptor, with a timeout to the earliest deadline (the session's
/// timers, the inputs' own); nothing polls on a period, so an idle scanner sleeps.
public final class LiveRun {
    public struct Options {
        public var scene: Scene
        public var settings: ScanSettings
        /// Read keystrokes from standard input (a terminal, or a pipe whose end stops the run).
        public var terminalInput: Bool
        /// Draw the screen, the highlight, the menu and the braille line on standard output.
        public var terminalView: Bool
        public var tracePath: String?
        /// Stop after this many seconds (for unattended runs).
        public var duration: Double?
        /// Turns braille text into cells (U+28xx) for the terminal view, when available.
        public var brailleCells: ((String, String?) -> String?)?
        /// Other inputs: devices, recordings, streams, braille display keys.
        public var sources: [any RuntimeSource]
        /// Outputs of the braille line besides the terminal view (a BrlAPI display).
        public var brailleSinks: [any BrailleSink]
        /// The settings file, watched: an edit applies at once; a bad one is said and ignored.
        public var settingsWatcher: SettingsWatcher?
        /// Said on the status line and in the trace as the run starts (a settings file with
        /// errors, read with the defaults instead).
        public var startupStatus: [String] = []
        /// Statuses the command already printed on standard error (the inputs' problems as the
        /// run starts): without a screen they are not written there a second time.
        public var saidBeforeStart: Set<String> = []
        /// Without a screen, statuses go to standard error (a service's journal); a caller that
        /// runs many short runs in one process (the fuzzer) turns that off: the trace has them.
        public var statusesOnStandardError = true
        /// What is scanned instead of `scene` (a live application; register it in `sources` too).
        public var content: (any ScanContent)?
        /// The highlight drawn on the screen (register it in `sources` too, for its connection).
        public var highlightOverlay: HighlightOverlay?
        /// Told the highlight each time the state is shown (a live window brings an item out
        /// of view into view).
        public var highlightShown: ((Highlight) -> Void)?
        /// Where what the user selects is kept (`learnSelections`), and the scene file's absolute
        /// path that names its screens there; nil: nothing is read or written.
        public var selectionStore: SelectionStore?
        public var selectionScope: String?
        /// Speech through speech-dispatcher (register it in `sources` too, for its connection).
        public var speech: SpeechOutput?
        /// The scanning keyboard text fields open (nil: none).
        public var keyboard: KeyboardOffer?

        public init(scene: Scene, settings: ScanSettings, terminalInput: Bool = true, terminalView: Bool = true,
                    tracePath: String? = nil, duration: Double? = nil, brailleCells: ((String, String?) -> String?)? = nil,
                    sources: [any RuntimeSource] = [], brailleSinks: [any BrailleSink] = []) {
            self.scene = scene
            self.settings = settings
            self.terminalInput = terminalInput
            self.terminalView = terminalView
            self.tracePath = tracePath
            self.duration = duration
            self.brailleCells = brailleCells
            self.sources = sources
            self.brailleSinks = brailleSinks
        }
    }

    /// Why the run ended.
    public enum Ending: Equatable, Sendable {
        case quit
        case signal(Int32)
        case endOfInput
        case durationElapsed
        /// Every switch input failed (could not be opened or read), and no terminal was there to
        /// take over: the run cannot be operated. The names and the reasons were said as statuses.
        case inputsFailed([String])
    }

    /// A timer due more than this long before the loop got to it (the process was stopped, the
    /// machine suspended) fires once, now, instead of replaying every step missed meanwhile.
    public static let stallLateness = 0.25

    private let options: Options
    private var session: ScanSession
    private let origin: Double
    /// The session time of each source's last edge, by its place in `options.sources` (its
    /// edges never go back in time).
    private lazy var lastEdgeTime = [Double](repeating: 0, count: options.sources.count)
    private let signals: SignalDescriptor
    private let terminal: TerminalSession?
    private let trace: TraceWriter?
    private var lastFrame: String?
    private var status: String?

    public init(_ options: Options) throws(SystemCallError) {
        self.options = options
        var bindings = ScanSession.actionSwitches
        bindings.merge(TerminalKeys.bindings) { $1 }
        var pulses = Set(TerminalKeys.bindings.keys)
        for source in options.sources {
            bindings.merge(source.bindings) { $1 }
            pulses.formUnion(source.pulseSwitches)
        }
        session = ScanSession(
            content: options.content ?? SceneContent(scene: options.scene), settings: options.settings, bindings: bindings,
            pulseOnlySwitches: pulses)
        session.keyboard = options.keyboard
        if let store = options.selectionStore, let scope = options.selectionScope, options.content == nil {
            switch store.load() {
            case .success(let (counts, skipped)):
                session.useSelections(counts, scope: scope)
                if let skipped {
                    loadProblem = skipped.description
                    saidStoreProblems.insert(skipped.description)
                }
            case .failure(let problem):
                // Not a reason to stop a switch user's scan: said, and this run learns for
                // itself only; the file is never written (nothing in it is lost).
                session.useSelections(SelectionCounts(halfLife: store.halfLife), scope: scope)
                loadProblem = "\(problem); selections are learnt for this run only"
                storeWritable = false
            }
        }
        origin = MonotonicClock.now()
        signals = try SignalDescriptor()
        var printedProblem: String?
        trace = try options.tracePath.map { path throws(SystemCallError) in try TraceWriter(path: path) }
        if let problem = trace?.takeProblem() {
            // Said on stderr now, before any screen is drawn there, and on the status line.
            try? FileIO.writeAll(STDERR_FILENO, "switchscan: \(problem)\n")
            traceStartProblem = problem
            printedProblem = problem
        }
        saidBeforeStart = options.saidBeforeStart.union([printedProblem].compactMap { $0 })
        trace?.writeRunStart()
        terminal = options.terminalInput && TerminalSession.isTerminal(STDIN_FILENO) ? TerminalSession() : nil
        drawsScreen = options.terminalView && TerminalSession.isTerminal(STDOUT_FILENO)
    }

    /// Whether the screen is drawn (a view was asked for and standard output is a terminal).
    private let drawsScreen: Bool

    /// The selection store could not be read as the run started (said then).
    private var loadProblem: String?
    /// The trace could not be opened for writing yet as the run started (a FIFO with no reader).
    private var traceStartProblem: String?
    /// When the selections were last written (session time).
    private var selectionsSaved = 0.0
    /// Selections are written when this many are waiting, or the oldest has waited
    /// `selectionSaveSeconds`, and when the run ends: a write locks, reads and renames a file
    /// (about a millisecond), which a press must not wait for every time.
    public static let selectionSaveCount = 16
    public static let selectionSaveSeconds = 30.0

    /// The store was unreadable or must be left alone as the run started: never written.
    private var storeWritable = true
    /// The store's problems said already (a skipped line is said once, not at every write).
    private var saidStoreProblems = Set<String>()
    /// The write in progress on its own thread, if any.
    private var selectionWrite: BackgroundJob<SelectionWriteOutcome>?

    /// What a write of the selections did, for the status line and the trace.
    private struct SelectionWriteOutcome: Sendable {
        var count: Int
        var micros: Int
        var problem: String?
        var failure: String?
    }

    /// Starts writing the waiting selections (when `force`, or when due) on a thread of its
    /// own: a write locks, reads, merges and renames the file, which a press must never wait
    /// for. One write at a time; at the end of the run (`force`) the one in progress is waited
    /// for and the rest written before the program exits.
    private func saveSelections(force: Bool) {
        guard let store = options.selectionStore, storeWritable else { return }
        if let job = selectionWrite {
            guard let outcome = force ? job.wait() : job.take() else { return }  // still writing
            selectionWrite = nil
            report(outcome, store: store)
        }
        guard !session.unsavedSelections.isEmpty else { return }
        let time = now
        guard force || session.unsavedSelections.count >= Self.selectionSaveCount
            || time - selectionsSaved >= Self.selectionSaveSeconds else { return }
        selectionsSaved = time
        let selections = session.takeUnsavedSelections()
        let write: @Sendable () -> SelectionWriteOutcome = {
            let started = MonotonicClock.now()
            var outcome = SelectionWriteOutcome(count: selections.count, micros: 0)
            do {
                outcome.problem = try store.record(selections).1?.description
            } catch {
                outcome.failure = "the selections could not be stored in \(store.path): \(error)"
            }
            outcome.micros = Int(((MonotonicClock.now() - started) * 1e6).rounded())
            return outcome
        }
        if !force {
            let job = BackgroundJob(work: write)
            if job.start() {
                selectionWrite = job
                return
            }
        }
        report(write(), store: store)  // the run is ending, or no thread could start
    }

    private func report(_ outcome: SelectionWriteOutcome, store: SelectionStore) {
        if let problem = outcome.problem, saidStoreProblems.insert(problem).inserted { say(problem) }
        if let failure = outcome.failure {
            say(failure)
        } else {
            record([TraceEvent(time: now, kind: .status(text: "selections stored in \(store.path): \(outcome.count) (\(outcome.micros) µs)"))])
        }
    }

    private var now: Double { MonotonicClock.now() - origin }

    /// Runs until `q`, Ctrl-C, SIGTERM, the end of piped input, or `duration`.
    public func run() throws(SystemCallError) -> Ending {
        if let terminal {
            try terminal.enterRawMode(fullScreen: drawsScreen)
        } else if options.terminalInput {
            // A pipe: non-blocking reads, end of file ends the run.
            let flags = fcntl(STDIN_FILENO, F_GETFL)
            _ = fcntl(STDIN_FILENO, F_SETFL, flags | O_NONBLOCK)
        }
        defer {
            terminal?.restore()
            for source in options.sources { source.close() }
            options.settingsWatcher?.close()
            saveSelections(force: true)
            flushTrace()
        }
        if trace != nil {
            // When each BrlAPI write returned, on the clock of the switches' timestamps.
            for case let display as BrailleDisplayOutput in options.brailleSinks {
                display.writeObserver = { [weak self, weak display] started, returned in
                    guard let self else { return }
                    // Kept as numbers: the line is made with the rest of the trace, once the
                    // write has reached the display (`settleSeconds`).
                    pendingTrace.append(.brailleWritten(started: started, returned: returned, text: display?.lastWrittenText ?? ""))
                }
            }
        }
        record(session.start())
        for text in options.startupStatus + [options.settingsWatcher?.startupStatus, loadProblem, traceStartProblem].compactMap({ $0 }) {
            say(text)
        }
        output()
        var ended = Set<String>()
        var failed = Set<String>()
        while true {
            // Deadlines in session time: the session's timers, the sources' own, the duration.
            var deadline = session.nextDeadline
            for source in options.sources { if let due = source.deadline { deadline = min(deadline ?? .infinity, due - origin) } }
            if let duration = options.duration { deadline = min(deadline ?? duration, duration) }
            if let due = statusPageDue { deadline = min(deadline ?? .infinity, due - origin) }
            if inBackground { deadline = min(deadline ?? .infinity, now + Self.foregroundCheckSeconds) }
            // Trace lines held for a FIFO's reader (none yet, or a slow one) are offered again.
            if let due = trace?.retryDue { deadline = min(deadline ?? .infinity, due - origin) }
            // Work for idle moments (the trace written, lines made ahead) waits until the braille
            // write has had `settleSeconds` to reach the display (BRLTTY and the display's driver
            // need the CPU then, on a machine of two cores), and is done only when nothing is
            // ready: the loop looks without waiting, and sleeps once the work is done.
            let settled = isSettled
            let idleWork = preparationDue || !linesToPrepare.isEmpty || !pendingTrace.isEmpty || forecastsDue
            if idleWork, !settled { deadline = min(deadline ?? .infinity, lastWrite + Self.settleSeconds - origin) }
            let timeout = idleWork && settled ? 0 : deadline.map { max(0, $0 - now) }
            var descriptors = [signals.descriptor]
            if readsKeys { descriptors.append(STDIN_FILENO) }
            descriptors += options.sources.compactMap(\.descriptor)
            if let watch = options.settingsWatcher?.descriptor { descriptors.append(watch) }
            // A write of the selections finishing wakes the loop to say so.
            if let write = selectionWrite { descriptors.append(write.readEnd) }
            // A long burst of events does not hold its trace back without bound.
            if settled || pendingTrace.count >= Self.traceLinesHeld { flushTrace() }
            let ready = try Poll.readable(descriptors, timeout: timeout)
            if idleWork, ready.isEmpty, isSettled {
                flushTrace()
                prepareAhead()
            }
            if let trace, let due = trace.retryDue, MonotonicClock.now() >= due {
                trace.writeHeld()
                sayTraceProblem()
            }

            if ready.contains(signals.descriptor) {
                for signal in signals.pending() {
                    switch signal {
                    case SIGWINCH: lastFrame = nil
                    case SIGTSTP: try suspend()
                    case SIGCONT:
                        if continuedHere { continuedHere = false } else { try resumeTerminal() }
                    default: return .signal(signal)
                    }
                }
            }
            if readsKeys, ready.contains(STDIN_FILENO) {
                guard let bytes = try FileIO.read(STDIN_FILENO) else { continue }
                if bytes.isEmpty { return .endOfInput }
                let time = now
                record(session.advance(to: time, lateness: Self.stallLateness))
                for key in TerminalKeys.decode(bytes) {
                    if TerminalKeys.isQuit(key) { return .quit }
                    let situation = TerminalKeys.Situation(session.engine)
                    var events = [TraceEvent]()
                    if let id = TerminalKeys.switchID(for: key) {
                        events = session.input(SwitchEdge(switchID: id, kind: .down, time: time))
                        record(events, timestamp: MonotonicClock.now())
                    }
                    showKeyFeedback(TerminalKeys.feedback(for: key, events: events, situation: situation))
                }
            }
            if inBackground, let terminal, terminal.isForeground {
                inBackground = false
                record([TraceEvent(time: now, kind: .status(text: "in the foreground again (fg)"))])
                lastFrame = nil
                try terminal.reenterRawMode(fullScreen: drawsScreen)
            }
            if let due = statusPageDue, MonotonicClock.now() >= due {
                statusPage += 1
                statusPageDue = nil
            }
            if let watcher = options.settingsWatcher, let watch = watcher.descriptor, ready.contains(watch) {
                for change in watcher.readable() {
                    switch change {
                    case .applied(let settings, let text):
                        let time = now
                        record(session.advance(to: time, lateness: Self.stallLateness))
                        record(session.updateSettings(settings))
                        say(text, from: "settings")
                    case .rejected(let text):
                        say(text, from: "settings")
                    }
                }
            }
            let moment = MonotonicClock.now()
            for (sourceIndex, source) in options.sources.enumerated() {
                var inputs = [RuntimeInput]()
                if let descriptor = source.descriptor, ready.contains(descriptor) { inputs += source.readable(at: moment) }
                if let due = source.deadline, due <= moment { inputs += source.deadlineReached(at: moment) }
                // A batch dated before the start (a file or FIFO written before the run began, read
                // at once) is moved as a whole to begin at the start: clamping each edge to 0 alone
                // squeezed its first press into a bounce (seen: an Enter held 100 ms whose release
                // was dated 20 ms after its press).
                var earliest = Double.infinity
                for case .edge(let edge) in inputs where edge.time.isFinite { earliest = min(earliest, edge.time) }
                let batchShift = earliest.isFinite ? max(0, origin - earliest) : 0
                for input in inputs {
                    switch input {
                    case .edge(var edge):
                        // The source's own timestamp, kept for the trace; the session gets it
                        // since the start. Sources date their edges on the monotonic clock
                        // (evdev's timestamps; a raw stream re-dates a clock that jumps; a fast
                        // replay dates ahead on purpose, in virtual time). A source's edges never
                        // go back in time, also after a moved batch.
                        let timestamp = edge.time
                        let previous = lastEdgeTime[sourceIndex]
                        edge.time = timestamp.isFinite ? max(previous, timestamp - origin + batchShift) : now
                        lastEdgeTime[sourceIndex] = edge.time
                        noteSwitch(edge.switchID)
                        // Forecast while idle: its line is written now, and the session catches
                        // up after the write.
                        let forecast = forecast(for: edge)
                        var forecastWrites: [PendingTraceLine] = []
                        if let forecast { forecastWrites = showForecast(forecast) }
                        record(session.advance(to: edge.time, lateness: Self.stallLateness))
                        record(session.input(edge), timestamp: timestamp, read: moment)
                        pendingTrace += forecastWrites
                        if let forecast { checkForecast(forecast) }
                    case .devicesLost:
                        record(session.releaseAllSwitches())
                    case .endOfInput(let name, let sourceFailed):
                        ended.insert(name)
                        if sourceFailed { failed.insert(name) }
                    case .status(let text):
                        say(text, from: source.name)
                    case .content(let update):
                        record(session.advance(to: now, lateness: Self.stallLateness))
                        record(session.contentChanged(update))
                    }
                }
            }
            takeSpeechReports()
            record(session.advance(to: now, lateness: Self.stallLateness))
            // What the turn changed is shown first; the rest (selections stored, endings checked)
            // does not hold the braille write up.
            output()
            saveSelections(force: false)
            if let duration = options.duration, now >= duration { return .durationElapsed }
            // Without the terminal: a run whose every switch input failed cannot be operated;
            // otherwise it ends when every source has ended.
            if !options.terminalInput {
                let inputs = options.sources.filter(\.isSwitchInput).map(\.name)
                if !inputs.isEmpty, inputs.allSatisfy(failed.contains) { return .inputsFailed(inputs) }
                if !options.sources.isEmpty, ended.count == options.sources.count, options.duration == nil {
                    return .endOfInput
                }
            }
        }
    }

    /// Shows the current state: the braille line on every display, the frame on the screen,
    /// then the terminal.
    private func output() {
        // The frame follows the highlight, and the element when its window moved or a layout
        // change moved it (the overlay sends nothing to the X server when the frame stays).
        options.highlightShown?(session.engine.highlight)
        options.highlightOverlay?.show(HighlightOverlay.frame(of: session.engine.highlight))
        if session.brailleLine != shownLine { showLine(session.brailleLine, language: session.brailleLineLanguage) }
        if let speech = options.speech {
            speech.follow(session.brailleLine, language: session.brailleLineLanguage, utterance: session.speechUtterance,
                          at: MonotonicClock.now())
            // A report can move the scan on (an empty line's speech is over at once; speech gone
            // takes a step that waited for it): what it changed is shown now.
            let revision = session.revision
            takeSpeechReports()
            if session.revision != revision {
                output()
                return
            }
        }
        // A reader panning away from the line's first window holds scanning until they are back
        // (a new line starts at its first window again).
        var away = false
        for case let display as BrailleDisplayOutput in options.brailleSinks where display.isPannedAway { away = true }
        if away != readerAway {
            readerAway = away
            record(session.readerPanned(away: away, at: now))
        }
        draw()
    }

    private var readerAway = false

    /// What speech reported (its lines begun and ended, speech-dispatcher come or gone) goes to
    /// the session, which holds auto scanning for it, and to the trace.
    private func takeSpeechReports() {
        guard let speech = options.speech else { return }
        for case .status(let text) in speech.takeStatuses() { say(text, from: speech.name) }
        for report in speech.takeReports() {
            switch report {
            case .hold(let on): record(session.speechHolds(on, at: now))
            case let .began(utterance, time): record(session.speechBegan(utterance: utterance, at: time - origin))
            case let .ended(utterance, time): record(session.speechEnded(utterance: utterance, at: time - origin))
            }
        }
        if trace != nil { pendingTrace += speech.takeTraceLines(origin: origin).map(PendingTraceLine.line) }
    }

    /// Hands `line` to every display (the session's, or a forecast's ahead of it).
    private func showLine(_ line: BrailleLine, language: String?) {
        shownLine = line
        for sink in options.brailleSinks { sink.show(line, language: language, at: MonotonicClock.now()) }
        if !options.brailleSinks.isEmpty { lastWrite = MonotonicClock.now() }
        // The lines the next edges may show are made (and translated) once the loop is idle.
        preparationDue = true
        linesToPrepare = []
    }

    private var shownLine: BrailleLine?

    /// When the braille line was last handed to the displays (monotonic seconds).
    private var lastWrite = -Double.infinity
    /// The last braille write has had `settleSeconds` to reach the display.
    private var isSettled: Bool { MonotonicClock.now() >= lastWrite + Self.settleSeconds }
    /// How long after a braille write the loop leaves the CPU to BRLTTY and the display before
    /// writing its trace and preparing lines (both wait; nothing the user sees does).
    static let settleSeconds = 0.002
    /// Trace lines held while writes keep coming faster than `settleSeconds`: then written anyway.
    static let traceLinesHeld = 256

    /// How many lines of the highlights the scanner may show next are made ahead.
    static let linesPreparedAhead = 6
    /// The line shown changed: the lines that may come next are to be asked of the session.
    private var preparationDue = false
    /// Lines made by the session, still to be prepared by the displays (one per idle turn).
    private var linesToPrepare: [(line: BrailleLine, language: String?)] = []

    /// One piece of idle work: the session makes the lines of the highlights that may come next
    /// (kept, so the edge that shows one does not make it again), then the forecast of one
    /// switch's next edge is made (and its line prepared by the displays), then each display
    /// prepares one of the lines (translation, window, rendering). A press that arrives
    /// meanwhile waits for at most one such piece (a line's translation, about 0.1 ms).
    private func prepareAhead() {
        if forecastsDue, forecastRevision != session.revision {
            // Anything but time passing changed the session: every forecast is made again.
            forecastRevision = session.revision
            forecasts = []
            switchesToForecast = Array(recentSwitches.prefix(Self.switchesForecast))
        }
        if preparationDue {
            preparationDue = false
            linesToPrepare = session.upcomingBrailleLines(limit: Self.linesPreparedAhead)
            if options.brailleSinks.isEmpty { linesToPrepare = [] }
            return
        }
        if !switchesToForecast.isEmpty {
            let id = switchesToForecast.removeFirst()
            let made = session.forecasts(edgeOf: id)
            forecasts += made
            for forecast in made where forecast.line != shownLine {
                for sink in options.brailleSinks { sink.prepare(forecast.line, language: forecast.language) }
            }
            return
        }
        guard !linesToPrepare.isEmpty else { return }
        let next = linesToPrepare.removeFirst()
        for sink in options.brailleSinks { sink.prepare(next.line, language: next.language) }
    }

    // MARK: Forecasts

    /// How many switches' next edges are forecast (the most recently used first).
    static let switchesForecast = 8
    /// The forecasts made at `forecastRevision` of the session, each switch's spans together (a
    /// short list: searched without hashing ids).
    private var forecasts: [EdgeForecast] = []
    private var forecastRevision: Int?
    /// Switches whose forecast is still to be made for this revision.
    private var switchesToForecast: [SwitchID] = []
    /// The sources' switches, the most recently used first (bound switches of switch inputs
    /// before the others at the start).
    private lazy var recentSwitches: [SwitchID] = {
        let inputs = options.sources.filter(\.isSwitchInput).flatMap { $0.bindings.keys.sorted() }
        let others = options.sources.filter { !$0.isSwitchInput }.flatMap { $0.bindings.keys.sorted() }
        var seen = Set<SwitchID>()
        return (inputs + others).filter { seen.insert($0).inserted }
    }()

    /// Forecasts are to be made: a display shows the line (none while BRLTTY is away), and the
    /// session changed since (or some switches are still to do).
    private var forecastsDue: Bool {
        guard !recentSwitches.isEmpty, options.brailleSinks.contains(where: \.isShowing) else { return false }
        return forecastRevision != session.revision || !switchesToForecast.isEmpty
    }

    /// An edge of `id` was read: its switch goes first in the forecasts.
    private func noteSwitch(_ id: SwitchID) {
        guard recentSwitches.first != id else { return }
        if let index = recentSwitches.firstIndex(of: id) { recentSwitches.remove(at: index) }
        recentSwitches.insert(id, at: 0)
    }

    /// The forecast made for `edge` that holds for it, if any.
    private func forecast(for edge: SwitchEdge) -> EdgeForecast? {
        let revision = session.revision
        return forecasts.first { $0.holds(for: edge, revision: revision) }
    }

    /// Writes a forecast's line (when it is not the one shown) before the session handles the
    /// edge. The trace lines of the writes are handed back, to follow the edge's own events.
    private func showForecast(_ forecast: EdgeForecast) -> [PendingTraceLine] {
        guard forecast.line != shownLine else { return [] }
        let mark = pendingTrace.count
        showLine(forecast.line, language: forecast.language)
        defer { pendingTrace.removeSubrange(mark...) }
        return Array(pendingTrace[mark...])
    }

    /// The session has handled the edge a forecast was shown for: the same line, or a defect to
    /// find (said in the trace; `output` writes the session's line at once).
    private func checkForecast(_ forecast: EdgeForecast) {
        guard session.brailleLine != forecast.line else { return }
        record([TraceEvent(time: now, kind: .status(text: "the forecast of \(forecast.switchID)'s \(forecast.kind) showed \"\(forecast.line.text)\" where the session shows \"\(session.brailleLine.text)\"; written again"))])
    }

    /// Trace lines of this turn of the loop, written after the outputs: tracing does not delay
    /// the braille write.
    private var pendingTrace: [PendingTraceLine] = []
    private enum PendingTraceLine {
        /// An event, the moment the loop handled it (seconds since start), and for a switch
        /// edge its source's own timestamp (CLOCK_MONOTONIC seconds).
        /// `read`: when the loop began reading the edge's source (CLOCK_MONOTONIC seconds).
        case event(TraceEvent, handled: Double, timestamp: Double?, read: Double?)
        case line(String)
        /// A BrlAPI write's start and return (CLOCK_MONOTONIC seconds) and the text written.
        case brailleWritten(started: Double, returned: Double, text: String)
    }

    /// Keeps the events for the trace; `timestamp` (a switch edge's own) and `read` (when the
    /// loop began reading its source) go on its input lines.
    private func record(_ events: [TraceEvent], timestamp: Double? = nil, read: Double? = nil) {
        guard trace != nil, !events.isEmpty else { return }
        let handled = now
        pendingTrace += events.map { event in
            if case .input = event.kind { return .event(event, handled: handled, timestamp: timestamp, read: read) }
            return .event(event, handled: handled, timestamp: nil, read: nil)
        }
    }

    private func flushTrace() {
        guard let trace, !pendingTrace.isEmpty else { return }
        trace.write(lines: pendingTrace.map {
            switch $0 {
            case let .event(event, handled, timestamp, read): TraceFormat.jsonLine(event, handled: handled, timestamp: timestamp, read: read)
            case .line(let line): line
            case let .brailleWritten(started, returned, text):
                TraceFormat.brailleWrittenLine(time: returned - origin, monotonic: returned, call: returned - started, text: text)
            }
        })
        pendingTrace.removeAll(keepingCapacity: true)
        sayTraceProblem()
    }

    /// What the trace writer found (a failed write, a FIFO's reader gone or come), once.
    private func sayTraceProblem() {
        if let problem = trace?.takeProblem() {
            // Said on the status line, and on stderr when no screen is drawn there (the trace
            // itself may be what fails, and a service's stderr goes to its journal).
            setStatus(problem)
            if !drawsScreen { try? FileIO.writeAll(STDERR_FILENO, "switchscan: \(problem)\n") }
            record([TraceEvent(time: now, kind: .status(text: problem))])
        }
    }

    /// A line for the user: the terminal view's status line, and the trace; and standard error
    /// when no screen is drawn. `teller` is what says it (a source's name): see `tellStandardError`.
    private func say(_ text: String, from teller: String? = nil) {
        setStatus(text)
        record([TraceEvent(time: now, kind: .status(text: text))])
        tellStandardError(text, from: teller ?? text)
    }

    /// Without a screen (a service, `--no-view`) the status line is nowhere, and the trace may
    /// not be looked at: what went wrong, what the run waits for, and what came back are said on
    /// standard error (a systemd unit's journal). Each once: a teller's status is written when it
    /// differs from the last one it wrote (a source retrying says nothing new), and a status the
    /// command printed before the run (`Options.saidBeforeStart`) is not written again.
    private func tellStandardError(_ text: String, from teller: String) {
        guard !drawsScreen, options.statusesOnStandardError else { return }
        if saidBeforeStart.remove(text) != nil {
            saidOnStandardError[teller] = text
            return
        }
        guard saidOnStandardError[teller] != text else { return }
        saidOnStandardError[teller] = text
        try? FileIO.writeAll(STDERR_FILENO, "switchscan run: \(text)\n")
    }

    /// The last status each teller wrote on standard error.
    private var saidOnStandardError: [String: String] = [:]
    private var saidBeforeStart: Set<String>

    private func setStatus(_ text: String?) {
        if text != status {
            statusPage = 0
            statusPageDue = nil
        }
        status = text
        statusIsKeyFeedback = false
    }

    /// What a key that did nothing did not do, on the status line only (the trace has the
    /// rejected input or the ignored action already). Nil (the key did something) takes the
    /// previous key's feedback away, not other statuses.
    private func showKeyFeedback(_ text: String?) {
        if let text {
            setStatus(text)
            statusIsKeyFeedback = true
        } else if statusIsKeyFeedback {
            setStatus(nil)
        }
    }

    private var statusIsKeyFeedback = false
    /// The page of a status too long for its rows, and when the next one is shown.
    private var statusPage = 0
    private var statusPageDue: Double?
    /// How long each page of a long status stays (monotonic seconds).
    static let statusPageSeconds = 4.0

    /// Redraws the terminal when what it shows changed.
    private func draw() {
        guard drawsScreen, let terminal, terminal.isRaw, let size = terminal.size() else { return }
        let frame = TerminalFrame(snapshot(), columns: size.columns, rows: size.rows, keys: TerminalKeys.helpItems,
                                  statusPage: statusPage)
        if frame.statusPageCount > 1, statusPageDue == nil {
            statusPageDue = MonotonicClock.now() + Self.statusPageSeconds
        }
        let text = frame.ansi
        guard text != lastFrame else { return }
        lastFrame = text
        try? FileIO.writeAll(terminal.output, text)
    }

    /// Whether keystrokes are read now: a pipe always; a terminal while the program has it in
    /// raw mode (not while suspended, nor in the background after `bg`, where a read would stop
    /// the program with SIGTTIN).
    private var readsKeys: Bool {
        guard options.terminalInput else { return false }
        guard let terminal else { return true }
        return terminal.isRaw
    }

    /// Ctrl-Z (SIGTSTP): the terminal as the shell expects it (cooked, main screen, cursor
    /// shown), then stopped as SIGTSTP stops a program; once continued (SIGCONT), the terminal
    /// is taken back and the frame drawn whole. Inputs stay open and keep their state meanwhile, and
    /// the scan goes on from where it was (a step missed while stopped fires once, late).
    private func suspend() throws(SystemCallError) {
        if let terminal, terminal.isForeground { terminal.suspend() }
        record([TraceEvent(time: now, kind: .status(text: "suspended (SIGTSTP)"))])
        flushTrace()
        // Back here once continued: the terminal is taken back before anything else happens;
        // the SIGCONT that continued the process, waiting on the signal descriptor, is then
        // passed over. (Nothing stopped when SIGTSTP is ignored.)
        continuedHere = signals.stopAsDefault(SIGTSTP)
        try resumeTerminal()
    }

    /// The process stopped itself and was continued: the next SIGCONT record is that one.
    private var continuedHere = false

    /// Continued (SIGCONT, after Ctrl-Z or an outside SIGSTOP): raw mode again when the program
    /// has the terminal (in the foreground), and the frame drawn whole. In the background (`bg`)
    /// the terminal is left alone until the program is in the foreground again.
    private func resumeTerminal() throws(SystemCallError) {
        record([TraceEvent(time: now, kind: .status(text: "continued (SIGCONT)"))])
        lastFrame = nil
        guard let terminal else { return }
        guard terminal.isForeground else {
            terminal.release()  // no reads, no drawing
            inBackground = true
            return
        }
        inBackground = false
        try terminal.reenterRawMode(fullScreen: drawsScreen)
    }

    /// In the background after `bg`, with the terminal released.
    private var inBackground = false
    /// How often a run in the background looks whether it is in the foreground again: `fg` sends
    /// no signal to a job already running, and reading the terminal to be stopped by SIGTTIN
    /// would stop the scan too. The only periodic wake-up, and only in the background.
    static let foregroundCheckSeconds = 0.25

    /// What the terminal view shows now.
    func snapshot() -> TerminalFrame.Snapshot {
        let structure = session.currentStructure()
        let items = structure.nodes.flatMap(\.items)
        var highlighted = Set<ElementID>()
        var note: String?
        switch session.engine.highlight {
        case .entry(let node) where node.isGroup:
            highlighted = Set(node.items.map(\.id))
            note = "group: select enters it"
        case .entry(let node):
            highlighted = [node.id]
        case .groupExit(let node):
            highlighted = Set(node.items.map(\.id))
            note = "end of group: select leaves it"
        case .menuButton:
            note = "scanner menu: select opens it"
        case .none:
            note = session.isScanning ? nil : "scanning stopped: any switch starts it again"
        }
        if session.engine.isPaused { note = "scanning paused: press s to resume it" }
        if session.engine.isPausedByApp { note = "scanning paused by the app until it resumes it (pauseAssistiveTechnology)" }
        let language = items.first { highlighted.contains($0.id) }?.language ?? session.scene.language
        return TerminalFrame.Snapshot(
            title: session.scene.title, screen: session.screen,
            sceneSize: (session.scene.size.width, session.scene.size.height), items: items,
            highlighted: highlighted, highlightNote: note,
            menu: session.engine.menu.map { ($0.entries.map(\.title), $0.focus) },
            brailleText: session.brailleText,
            brailleCells: options.brailleCells?(session.brailleText, language),
            scanning: session.isScanning, status: status, paused: session.engine.isPaused)
    }
}
