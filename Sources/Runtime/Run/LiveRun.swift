#if canImport(Glibc)
import Glibc
#endif
import AccessibilityModel
import BrailleFormatting
import Presentation
import RunControl
import Scanning
import Scenes
import SwitchInput
import Platform

/// `switchscan run`: a scene operated live. One thread, one loop: poll(2) over every input's
/// descriptor and the signal descriptor, with a timeout to the earliest deadline (the session's
/// timers, the inputs' own); nothing polls on a period, so an idle scanner sleeps.
///
/// The loop is a reactor: each turn it reads the clock once, feeds what happened to
/// `RunStateMachine` (which decides deadlines, the dates of edges, job control, status pages and
/// the end of the run) and carries out the actions it returns.
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
        /// Outputs besides the terminal view and the trace (the highlight on the screen, a
        /// BrlAPI display, speech), handed the session's outputs every turn in this order;
        /// register those with a connection in `sources` too.
        public var outputs: [any ScanOutput]
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
        /// Told the highlight each time the state is shown (a live window brings an item out
        /// of view into view).
        public var highlightShown: ((Highlight) -> Void)?
        /// Told of each switch press before the session takes it (a live application drops a
        /// tap it holds for a slow application's answer: the user moved on).
        public var switchPressed: (() -> Void)?
        /// Where what the user selects is kept (`learnSelections`), and the scene file's absolute
        /// path that names its screens there; nil: nothing is read or written.
        public var selectionStore: SelectionStore?
        public var selectionScope: String?
        /// The scanning keyboard text fields open (nil: none).
        public var keyboard: KeyboardOffer?
        /// Statuses posted by parts of the run that cannot say them themselves (the keyboard's
        /// word prediction failing to start), said at the next turn.
        public var statusMailbox: StatusMailbox?

        public init(scene: Scene, settings: ScanSettings, terminalInput: Bool = true, terminalView: Bool = true,
                    tracePath: String? = nil, duration: Double? = nil, brailleCells: ((String, String?) -> String?)? = nil,
                    sources: [any RuntimeSource] = [], outputs: [any ScanOutput] = []) {
            self.scene = scene
            self.settings = settings
            self.terminalInput = terminalInput
            self.terminalView = terminalView
            self.tracePath = tracePath
            self.duration = duration
            self.brailleCells = brailleCells
            self.sources = sources
            self.outputs = outputs
        }
    }

    /// Why the run ended.
    public typealias Ending = RunEnding

    /// A timer due more than this long before the loop got to it (the process was stopped, the
    /// machine suspended) fires once, now, instead of replaying every step missed meanwhile.
    public static let stallLateness = RunStateMachine.Configuration.standardStallLateness

    private let options: Options
    private var session: ScanSession
    private let origin: Double
    /// The run's decisions.
    private var state: RunStateMachine
    /// The time of this turn of the loop (session time): the clock is read once per turn.
    private var now = 0.0
    /// The loop's waits, signals included.
    private let reactor: Reactor
    private let terminal: TerminalSession?
    /// Every output: `Options.outputs`, the trace, the terminal view last.
    private let outputs: [any ScanOutput]
    /// Some output keeps the run's records (the trace).
    private let recording: Bool
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
        var configuration = RunStateMachine.Configuration(
            origin: origin, duration: options.duration, endsWithSources: !options.terminalInput,
            sources: options.sources.map { RunStateMachine.Source(name: $0.name, isSwitchInput: $0.isSwitchInput) })
        reactor = try Reactor()
        var printedProblem: String?
        let trace = try options.tracePath.map { path throws(SystemCallError) in try TraceWriter(path: path) }
        if let problem = trace?.takeProblem() {
            // Said on stderr now, before any screen is drawn there, and on the status line.
            try? FileIO.writeAll(.standardError, "switchscan: \(problem)\n")
            traceStartProblem = problem
            printedProblem = problem
        }
        saidBeforeStart = options.saidBeforeStart.union([printedProblem].compactMap { $0 })
        trace?.writeRunStart()
        terminal = options.terminalInput && TerminalSession.isTerminal(.standardInput) ? TerminalSession() : nil
        drawsScreen = options.terminalView && TerminalSession.isTerminal(.standardOutput)
        configuration.hasTerminal = terminal != nil
        state = RunStateMachine(configuration)
        let view = drawsScreen ? terminal.map { TerminalView(terminal: $0) } : nil
        var made = options.outputs
        if let trace { made.append(TraceOutput(writer: trace, origin: origin)) }
        if let view { made.append(view) }
        outputs = made
        recording = made.contains(where: \.keepsRecords)
        view?.frame = { [unowned self] columns, rows in self.frame(columns: columns, rows: rows) }
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
            recordStatus("selections stored in \(store.path): \(outcome.count) (\(outcome.micros) µs)")
        }
    }

    /// Runs until `q`, Ctrl-C, SIGTERM, the end of piped input, or `duration`.
    public func run() throws(SystemCallError) -> Ending {
        if let terminal {
            try terminal.enterRawMode(fullScreen: drawsScreen)
        } else if options.terminalInput {
            // A pipe: non-blocking reads, end of file ends the run.
            try? FileIO.setNonBlocking(.standardInput, true)
        }
        defer {
            terminal?.restore()
            for source in options.sources { source.close() }
            options.settingsWatcher?.close()
            saveSelections(force: true)
            flushRecords()
        }
        if recording {
            // When each BrlAPI write returned, on the clock of the switches' timestamps.
            for output in outputs {
                output.observeWrites { [weak self] write in
                    // Kept as numbers: the line is made with the rest of the trace, once the
                    // write has reached the display (`RunStateMachine.Configuration.settleSeconds`).
                    self?.pendingRecords.append(.written(write))
                }
            }
        }
        now = MonotonicClock.now() - origin
        record(SessionDriver.step(.start, on: &session))
        for text in options.startupStatus + [options.settingsWatcher?.startupStatus, loadProblem, traceStartProblem].compactMap({ $0 }) {
            say(text)
        }
        if let ending = try carryOut(state.start(at: now)) { return ending }
        while true {
            // Work for idle moments (the trace written, lines made ahead) waits until the braille
            // write has had its settling time to reach the display (BRLTTY and the display's driver
            // need the CPU then, on a machine of two cores), and is done only when nothing is
            // ready: the loop looks without waiting, and sleeps once the work is done.
            let idleWork = preparationDue || !linesToPrepare.isEmpty || !pendingRecords.isEmpty || forecastsDue
            let recordRetry = outputs.compactMap(\.recordRetryDue).min().map { $0 - origin }
            let wait = state.wait(at: now, sessionDeadline: session.nextDeadline,
                                  sourceDeadlines: options.sources.compactMap { $0.deadline.map { $0 - origin } },
                                  recordRetry: recordRetry, idleWorkPending: idleWork, heldRecords: pendingRecords.count)
            var descriptors = [FileDescriptor]()
            if readsKeys { descriptors.append(.standardInput) }
            descriptors += options.sources.compactMap(\.descriptor)
            if let watch = options.settingsWatcher?.descriptor { descriptors.append(watch) }
            // A write of the selections finishing wakes the loop to say so.
            if let write = selectionWrite { descriptors.append(write.readEnd) }
            if wait.flushRecords { flushRecords() }
            let turn = try reactor.wait(descriptors, timeout: wait.timeout)
            let ready = turn.ready
            // The one reading of the clock for this turn.
            now = MonotonicClock.now() - origin
            if let ending = try carryOut(state.woke(at: now, nothingReady: ready.isEmpty && turn.signals.isEmpty, idleWorkPending: idleWork,
                                                    recordRetry: recordRetry)) { return ending }

            if !turn.signals.isEmpty {
                for signal in turn.signals {
                    let event: RunStateMachine.Signal = switch signal {
                    case SIGWINCH: .windowChanged
                    case SIGTSTP: .stop
                    case SIGCONT: .continued(foreground: terminal?.isForeground ?? false)
                    default: .terminate(signal)
                    }
                    if let ending = try carryOut(state.signal(event, at: now)) { return ending }
                }
            }
            if readsKeys, ready.contains(.standardInput) {
                guard let bytes = try FileIO.read(.standardInput) else { continue }
                if bytes.isEmpty, let ending = try carryOut(state.keysEnded()) { return ending }
                record(SessionDriver.step(.time(now, lateness: Self.stallLateness), on: &session))
                for key in TerminalKeys.decode(bytes) {
                    if TerminalKeys.isQuit(key), let ending = try carryOut(state.quitTyped()) { return ending }
                    let situation = TerminalKeys.Situation(session.engine)
                    var events = [TraceEvent]()
                    if let id = TerminalKeys.switchID(for: key) {
                        options.switchPressed?()
                        let handled = SessionDriver.step(.edge(SwitchEdge(switchID: id, kind: .down, time: now)), on: &session)
                        events = handled.traceEvents
                        record(handled, timestamp: origin + now)
                    }
                    showKeyFeedback(TerminalKeys.feedback(for: key, events: events, situation: situation))
                }
            }
            if state.isInBackground, let terminal {
                if let ending = try carryOut(state.foregroundChecked(terminal.isForeground, at: now)) { return ending }
            }
            if let ending = try carryOut(state.statusPageTime(now)) { return ending }
            if let watcher = options.settingsWatcher, let watch = watcher.descriptor, ready.contains(watch) {
                for change in watcher.readable() {
                    switch change {
                    case .applied(let settings, let text):
                        record(SessionDriver.step(.time(now, lateness: Self.stallLateness), on: &session))
                        record(SessionDriver.step(.settings(settings), on: &session))
                        say(text, from: "settings")
                    case .rejected(let text):
                        say(text, from: "settings")
                    }
                }
            }
            let moment = origin + now
            // When the loop began reading the sources, for the trace's `read` (a measurement,
            // taken only while tracing, as the trace's other times are).
            let readBegan = recording ? MonotonicClock.now() : moment
            for (sourceIndex, source) in options.sources.enumerated() {
                var inputs = [RuntimeInput]()
                if let descriptor = source.descriptor, ready.contains(descriptor) { inputs += source.readable(at: moment) }
                if let due = source.deadline, due <= moment { inputs += source.deadlineReached(at: moment) }
                // The session times of the batch's edges (see `RunStateMachine.dateEdges`); each
                // edge's own timestamp is kept for the trace.
                var times = state.dateEdges(inputs.compactMap { if case .edge(let edge) = $0 { edge.time } else { nil } },
                                            source: sourceIndex, at: now)[...]
                for input in inputs {
                    switch input {
                    case .edge(var edge):
                        let timestamp = edge.time
                        edge.time = times.removeFirst()
                        noteSwitch(edge.switchID)
                        // Forecast while idle: its line is written now, and the session catches
                        // up after the write.
                        let forecast = forecast(for: edge)
                        var forecastWrites: [RunRecord] = []
                        if let forecast { forecastWrites = showForecast(forecast) }
                        record(SessionDriver.step(.time(edge.time, lateness: Self.stallLateness), on: &session))
                        if edge.kind == .down { options.switchPressed?() }
                        record(SessionDriver.step(.edge(edge), on: &session), timestamp: timestamp, read: readBegan)
                        pendingRecords += forecastWrites
                        if let forecast { checkForecast(forecast) }
                    case .devicesLost:
                        record(SessionDriver.step(.switchesLost, on: &session))
                    case .endOfInput(let name, let sourceFailed):
                        state.sourceEnded(name, failed: sourceFailed)
                    case .status(let text):
                        say(text, from: source.name)
                    case .content(let update):
                        record(SessionDriver.step(.time(now, lateness: Self.stallLateness), on: &session))
                        record(SessionDriver.step(.contentChanged(update), on: &session))
                    }
                }
            }
            // What the outputs reported (speech's lines begun and ended, a reader's panning)
            // before the turn advances the session.
            takeOutputReports()
            // What the turn changed is shown first; the rest (selections stored, endings checked)
            // does not hold the braille write up.
            if let ending = try carryOut(state.turnEnded(at: now)) { return ending }
        }
    }

    /// Carries out the run's decisions; the ending, when one of them ends the run.
    private func carryOut(_ actions: [RunStateMachine.Action]) throws(SystemCallError) -> Ending? {
        for action in actions {
            switch action {
            case .stopProcess:
                // Ctrl-Z: the terminal as the shell expects it (cooked, main screen, cursor
                // shown), then stopped as SIGTSTP stops a program. Inputs stay open and keep their
                // state meanwhile. Back here once continued (nothing stopped when SIGTSTP is
                // ignored): the terminal is taken back before anything else happens.
                if let terminal, terminal.isForeground { terminal.suspend() }
                let stopped = reactor.stopAsDefault(SIGTSTP)
                now = MonotonicClock.now() - origin
                if let ending = try carryOut(state.stopEnded(stopped: stopped, foreground: terminal?.isForeground ?? false, at: now)) {
                    return ending
                }
            case .takeTerminal:
                for output in outputs { output.shownWasLost() }
                try terminal?.reenterRawMode(fullScreen: drawsScreen)
            case .releaseTerminal:
                terminal?.release()  // no reads, no drawing
            case .redraw:
                for output in outputs { output.shownWasLost() }
            case .recordStatus(let text):
                recordStatus(text)
            case .flushRecords:
                flushRecords()
            case .retryRecords:
                for output in outputs where output.recordRetryDue != nil { output.retryRecords() }
                takeOutputReports()
            case .idleWork:
                prepareAhead()
                // Lines made ahead may have started the keyboard's prediction, which can fail.
                if options.statusMailbox?.hasStatuses == true { output() }
            case .showStatusPage:
                break  // drawn by `present` (the frame reads `state.currentStatusPage`)
            case let .advanceSession(time, lateness):
                record(SessionDriver.step(.time(time, lateness: lateness), on: &session))
            case .present:
                output()
                saveSelections(force: false)
            case .end(let ending):
                return ending
            }
        }
        return nil
    }

    /// Shows the current state: every output is handed the turn's outputs and what they leave
    /// shown, in order (the overlay and the displays first, the terminal view last); then what
    /// they report goes to the session and the status line, and what that changed (an empty
    /// line's speech is over at once; speech gone takes a step that waited for it; speech-dispatcher
    /// not there, said) is shown at once.
    private func output() {
        for text in options.statusMailbox?.take() ?? [] { say(text) }
        // The frame follows the highlight, and the element when its window moved or a layout
        // change moved it (the overlay sends nothing to the X server when the frame stays).
        options.highlightShown?(session.engine.highlight)
        let line = session.brailleLine
        let lineIsNew = line != shownLine
        if lineIsNew { lineShown(line) }
        let shown = ShownState(
            line: line, language: session.brailleLineLanguage, lineIsNew: lineIsNew, highlight: session.engine.highlight,
            utterance: session.speechUtterance)
        let turn = turnOutputs
        turnOutputs.removeAll(keepingCapacity: true)
        var handedOver: Double?
        for output in outputs {
            output.present(turn, shown: shown, at: MonotonicClock.now())
            // When the line was handed over (a measurement, as the writes' own times are): what
            // the displays' write intervals and the settling before idle work count from.
            if lineIsNew, output.showsLines { handedOver = MonotonicClock.now() }
        }
        if let handedOver { state.brailleWritten(at: handedOver - origin) }
        let (revision, said) = (session.revision, status)
        takeOutputReports()
        if session.revision != revision || status != said { output() }
    }

    private var readerAway = false
    /// The outputs (by their place in `outputs`) whose reader is panned away.
    private var readersAway = Set<Int>()
    /// The session's outputs since the last turn was shown, and the run's statuses among them.
    private var turnOutputs: [SessionOutput] = []
    /// Some output shows the braille line.
    private lazy var showsLines = outputs.contains(where: \.showsLines)

    /// What the outputs reported, each output's in order: statuses are said; speech begun and
    /// ended, and speech heard or not, go to the session, which holds auto scanning for them;
    /// speech's progress goes to the trace. A reader panning away from the line's first window
    /// on any output holds scanning until every reader is back (a new line starts at its first
    /// window again).
    private func takeOutputReports() {
        for (index, output) in outputs.enumerated() {
            for report in output.takeReports() {
                switch report {
                case .readerPanned(let away):
                    if away { readersAway.insert(index) } else { readersAway.remove(index) }
                case .speechHeard(let on): record(SessionDriver.step(.speechHolds(on, at: now), on: &session))
                case let .speechBegan(utterance, time): record(SessionDriver.step(.speechBegan(utterance: utterance, at: time - origin), on: &session))
                case let .speechEnded(utterance, time): record(SessionDriver.step(.speechEnded(utterance: utterance, at: time - origin), on: &session))
                case .status(let text): say(text, from: output.name)
                case .spoken(let progress): if recording { pendingRecords.append(.spoken(progress)) }
                }
            }
        }
        if !readersAway.isEmpty != readerAway {
            readerAway = !readersAway.isEmpty
            record(SessionDriver.step(.readerPanned(away: readerAway, at: now), on: &session))
        }
    }

    /// A forecast's line, shown ahead of the session on every output that shows lines.
    private func showLine(_ line: BrailleLine, language: String?) {
        lineShown(line)
        for output in outputs { output.showAhead(line, language: language, at: MonotonicClock.now()) }
        if showsLines { state.brailleWritten(at: MonotonicClock.now() - origin) }
    }

    /// `line` is handed to the outputs: the lines the next edges may show are made (and
    /// translated) once the loop is idle.
    private func lineShown(_ line: BrailleLine) {
        shownLine = line
        preparationDue = true
        linesToPrepare = []
    }

    private var shownLine: BrailleLine?

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
            if !showsLines { linesToPrepare = [] }
            return
        }
        if !switchesToForecast.isEmpty {
            let id = switchesToForecast.removeFirst()
            let made = session.forecasts(edgeOf: id)
            forecasts += made
            for forecast in made where forecast.line != shownLine {
                for output in outputs { output.prepare(forecast.line, language: forecast.language) }
            }
            return
        }
        guard !linesToPrepare.isEmpty else { return }
        let next = linesToPrepare.removeFirst()
        for output in outputs { output.prepare(next.line, language: next.language) }
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
        guard !recentSwitches.isEmpty, outputs.contains(where: \.isShowingLines) else { return false }
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
    /// edge. The records of the writes are handed back, to follow the edge's own events.
    private func showForecast(_ forecast: EdgeForecast) -> [RunRecord] {
        guard forecast.line != shownLine else { return [] }
        let mark = pendingRecords.count
        showLine(forecast.line, language: forecast.language)
        defer { pendingRecords.removeSubrange(mark...) }
        return Array(pendingRecords[mark...])
    }

    /// The session has handled the edge a forecast was shown for: the same line, or a defect to
    /// find (said in the trace; `output` writes the session's line at once).
    private func checkForecast(_ forecast: EdgeForecast) {
        guard session.brailleLine != forecast.line else { return }
        recordStatus("the forecast of \(forecast.switchID)'s \(forecast.kind) showed \"\(forecast.line.text)\" where the session shows \"\(session.brailleLine.text)\"; written again")
    }

    /// Records of this turn of the loop, handed to the outputs that keep them after the turn's
    /// showing: tracing does not delay the braille write.
    private var pendingRecords: [RunRecord] = []

    /// Keeps the session's outputs for the outputs' next turn, and their records: `timestamp`
    /// (a switch edge's own) and `read` (when the loop began reading its source) go on its input
    /// lines.
    private func record(_ outputs: [SessionOutput], timestamp: Double? = nil, read: Double? = nil) {
        guard !outputs.isEmpty else { return }
        turnOutputs += outputs
        guard recording else { return }
        let handled = recordTime
        pendingRecords += outputs.map { output in
            if case .input = output.kind { return .output(output, handled: handled, timestamp: timestamp, read: read) }
            return .output(output, handled: handled, timestamp: nil, read: nil)
        }
    }

    /// A status for the trace, dated when it is recorded.
    private func recordStatus(_ text: String) {
        // Dated when it is recorded, as the trace's other lines are (see `recordTime`): a status
        // said late in a turn comes after the writes the turn made.
        record([SessionOutput(time: recording ? recordTime : now, kind: .status(text))])
    }

    /// The records' clock (seconds since the start), read as a record is made: the trace
    /// measures when the loop handled what it records, after the writes the turn made (whose
    /// returns it records too), so its lines stay in time order. Only read while recording; the
    /// run's decisions use the turn's `now`.
    private var recordTime: Double { MonotonicClock.now() - origin }

    /// Hands the records kept to the outputs that keep them (the trace writes them then), and
    /// takes what they report (a trace that cannot be written, said once).
    private func flushRecords() {
        guard !pendingRecords.isEmpty else { return }
        for output in outputs where output.keepsRecords { output.record(pendingRecords) }
        pendingRecords.removeAll(keepingCapacity: true)
        takeOutputReports()
    }

    /// A line for the user: the terminal view's status line, and the trace; and standard error
    /// when no screen is drawn. `teller` is what says it (a source's name): see `tellStandardError`.
    private func say(_ text: String, from teller: String? = nil) {
        setStatus(text)
        recordStatus(text)
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
        try? FileIO.writeAll(.standardError, "switchscan run: \(text)\n")
    }

    /// The last status each teller wrote on standard error.
    private var saidOnStandardError: [String: String] = [:]
    private var saidBeforeStart: Set<String>

    private func setStatus(_ text: String?) {
        if text != status { state.statusChanged() }
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

    /// The terminal view's frame for a terminal of `columns` × `rows`; a status too long for
    /// its rows is shown a page at a time (`RunStateMachine` turns the pages).
    private func frame(columns: Int, rows: Int) -> TerminalFrame {
        let frame = TerminalFrame(snapshot(), columns: columns, rows: rows, keys: TerminalKeys.helpItems,
                                  statusPage: state.currentStatusPage)
        state.statusDrawn(pages: frame.statusPageCount, at: now, pageSeconds: session.settings.statusPageTime)
        return frame
    }

    /// Whether keystrokes are read now: a pipe always; a terminal while the program has it in
    /// raw mode (not while suspended, nor in the background after `bg`, where a read would stop
    /// the program with SIGTTIN).
    private var readsKeys: Bool {
        guard options.terminalInput else { return false }
        guard let terminal else { return true }
        return terminal.isRaw
    }

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
