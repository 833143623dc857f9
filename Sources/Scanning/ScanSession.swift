import AccessibilityModel
import BrailleFormatting
import Scenes
import SwitchInput

/// One line of the trace: what happened, when (seconds since the session started).
public struct TraceEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A switch edge; `reason` says why it was rejected.
        case input(switchID: SwitchID, edge: String, accepted: Bool, reason: String?)
        case highlight(id: ElementID?, label: String?)
        case menu(entries: [String], focus: Int?)
        case perform(id: ElementID?, action: String)
        case screen(name: String)
        case announcement(text: String)
        case braille(text: String)
        /// A switch action the scanner did not act on, and why.
        case ignored(action: String, reason: String)
        case scanning(running: Bool)
        /// Something the user should know from the runtime (a device unplugged, a display gone).
        case status(text: String)
        /// A timer fired: the engine's (`advance`, `autoTap`, `dwell`, `flash`, `moveRepeat`) or
        /// the input stabilisation's (`debounce`, `hold`, `longPress`, with its switch). The
        /// decisions it led to follow it.
        case timer(name: String, switchID: SwitchID?)
        /// The stabilisation began or ended a switch action (`phase` began or ended): the
        /// decision itself, also when a timer took it (a debounce window settling, a hold).
        case action(action: String, phase: String, switchID: SwitchID)
    }

    public var time: Double
    public var kind: Kind

    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }
}

/// A scene operated by the scanner: the scene's state, the engine, the input stabilisation and
/// the braille line, joined. It is pure: the host gives it switch edges and the time, and
/// schedules what `nextDeadline` says. Scripted tests drive it in virtual time; the live runtime
/// with the monotonic clock. Both go through exactly this code.
///
/// The session never acts on what it scans: a selection ends its answer with a `.perform`
/// output and the session waits (`pendingPerform`) until the host hands back what the content
/// made of it (`SessionEvent.performed`); `SessionDriver.step` is that hand-over, the one every
/// host runs.
public struct ScanSession: Sendable {
    /// What is scanned: a scene file, or a live application. The session reads its structure
    /// here (and keeps the structure caches in it); only `SessionDriver` applies commands to it.
    /// The session keeps the value rather than being handed structures because every structure,
    /// screen name, language and learned-weights change is read at the moment the engine needs
    /// it, in the middle of an answer: handing each across would turn one read into an exchange.
    public internal(set) var content: any ScanContent
    /// The scanning keyboard offered when a text field is selected (nil: none).
    public var keyboard: KeyboardOffer?
    public private(set) var settings: ScanSettings
    public private(set) var engine: ScanningEngine
    public private(set) var stabilizer: Stabilizer
    public private(set) var time: Double
    /// The last announcement or page-scrolled message, for test expectations.
    public private(set) var lastAnnouncement: String?
    /// The line on the braille display, before translation to dots.
    public private(set) var brailleText: String = ""
    /// The same line with its segments (what each part of it routes to).
    public private(set) var brailleLine: BrailleLine = .empty
    /// `brailleLanguage` when `brailleLine` was made: stored, so that a host reads it without
    /// the session being copied to compute it.
    public private(set) var brailleLineLanguage: String?
    /// The language of the last `.line` output.
    private var shownLanguage: String?

    /// Counts what changed the session besides time passing with no timer due (edges, timers
    /// fired, content, settings, the reader's panning): a forecast holds only while it stays the
    /// same (`forecasts(edgeOf:)`).
    public private(set) var revision = 0
    /// What the session waits to hear the content's answer to; nil: nothing.
    public private(set) var pendingRequest: ContentRequest?
    /// The command the session waits on (`SessionEvent.performed` answers it): the last output
    /// of the answer that asked for it was its `.perform`.
    public var pendingPerform: PerformRequest? {
        if case .perform(let request) = pendingRequest { return request }
        return nil
    }
    /// The highlight moves whose focus hooks the session waits on (`SessionEvent.focusHooksRan`
    /// answers them).
    public var pendingHighlightMoves: [HighlightMove]? {
        if case .highlightMoved(let moves, _) = pendingRequest { return moves }
        return nil
    }
    /// What is left to do once the answer is in, innermost first (see `Resumption`).
    private var resumptions: [Resumption] = []
    /// The outputs of the event being handled, in order: every step adds its own here as it goes
    /// (one array per event, not one per step joined to its caller's), and `takeOutputs` hands
    /// them over. Empty between events.
    private var emitted: [SessionOutput] = []
    /// True while the session waits for the content's answer.
    private var awaitsContent: Bool { pendingRequest != nil }

    enum TimerKey: Hashable, Sendable {
        case engine(ScanTimer)
        case input(StabilizerTimer)
    }

    private var timers: [TimerKey: Double] = [:]
    private var formatter: BrailleFormatter
    /// What `brailleLine` was made from (nil: make it again): the same again makes the same line.
    private var brailleSource: BrailleSource?
    /// Entries' lines made ahead (`upcomingBrailleLines`), for the engine's structure of
    /// `version` and the current formatter (emptied when the settings change).
    private var preparedLines: (version: Int, lines: [ElementID: (node: ScanNode, line: BrailleLine)]) = (0, [:])

    private struct BrailleSource: Equatable {
        var flash: String?
        var menuTitle: String?
        var menuFocus: Int?
        var menuCount: Int?
        var menuItem: Element?
        var highlight: Highlight
        var scanning: Bool
    }

    /// One virtual switch per action, named after it: what scripted tests press.
    public static let actionSwitches: [SwitchID: SwitchBinding] = Dictionary(
        uniqueKeysWithValues: SwitchAction.allCases.map { ($0.rawValue, SwitchBinding(action: $0)) })

    public init(
        scene: Scene, settings: ScanSettings, bindings: [SwitchID: SwitchBinding] = ScanSession.actionSwitches,
        pulseOnly: Bool = false, pulseOnlySwitches: Set<SwitchID> = [], time: Double = 0, screen: String? = nil
    ) {
        self.init(
            content: SceneContent(scene: scene, screen: screen), settings: settings, bindings: bindings,
            pulseOnly: pulseOnly, pulseOnlySwitches: pulseOnlySwitches, time: time)
    }

    /// A session scanning any content (a live application).
    public init(
        content: any ScanContent, settings: ScanSettings, bindings: [SwitchID: SwitchBinding] = ScanSession.actionSwitches,
        pulseOnly: Bool = false, pulseOnlySwitches: Set<SwitchID> = [], time: Double = 0
    ) {
        self.content = content
        self.settings = settings
        self.engine = ScanningEngine(settings: settings)
        self.stabilizer = Stabilizer(
            configuration: Stabilizer.Configuration(
                debounceTime: settings.debounceTime, holdDuration: settings.holdDuration,
                ignoreRepeat: settings.ignoreRepeat, longPress: settings.longPress, pulseOnly: pulseOnly,
                pulseOnlySwitches: pulseOnlySwitches),
            bindings: bindings)
        self.time = time
        self.formatter = BrailleFormatter(showHints: settings.brailleHints, language: content.language, roleFirst: settings.brailleRoleFirst)
    }

    // MARK: State, for outputs and expectations

    /// The scene scanned; for live content, an empty scene with its title, size and language.
    public var scene: Scene { content.scene }
    public var sceneState: SceneState { content.sceneState }
    public var screen: String { content.screenName }
    public var state: [String: StateValue] { content.sceneState.values }
    public var focusID: ElementID? { engine.highlight.focusID }
    public var menuTitles: [String]? { engine.menu?.entries.map(\.title) }
    public var menuFocusTitle: String? { engine.menu.map { $0.entries[$0.focus].title } }
    public var isScanning: Bool { engine.isRunning }
    /// The element `id` of the current screen as it is now (bindings resolved with the current
    /// state), when it is present (not `visible: false`, nor under an element that is not); nil
    /// for live content.
    public func currentElement(_ id: ElementID) -> Element? {
        guard let screen = sceneState.resolvedScreen(in: scene) else { return nil }
        func search(_ element: Element) -> Element? {
            if element.id == id { return element }
            for child in element.children { if let found = search(child) { return found } }
            return nil
        }
        return search(Visibility.presentTree(screen.root))
    }

    // MARK: Learning what the user selects

    /// What the user selected, per screen key (`selectionKey`), as the grouping weighs it:
    /// loaded by the host at the start (`useSelections`), or empty (a scripted test that sets
    /// `learnSelections`). A session whose host never called `useSelections` learns nothing,
    /// whatever the setting (a benchmark's, `switchscan cost`'s: the plain grouping).
    public private(set) var selections = SelectionCounts()
    /// Selections made since the host last took them (`takeUnsavedSelections`) to store them.
    public private(set) var unsavedSelections: [(screen: String, id: ElementID)] = []
    /// What screen keys start with: the scene file's absolute path (empty: keys are screen names).
    public private(set) var selectionScope = ""

    /// A screen's key in the selection counts: the scene file's path and the screen's name.
    public func selectionKey(_ screen: String) -> String {
        Self.selectionKey(scope: selectionScope, screen: screen)
    }

    /// How a screen's selections are named in the store: the scene file's path, `#`, the screen
    /// (the screen alone without a scope).
    public static func selectionKey(scope: String, screen: String) -> String {
        scope.isEmpty ? screen : scope + "#" + screen
    }

    /// Learns from `counts` on (call before `start()`; `learnSelections` still decides): `scope`
    /// names the scene file; `stored`: the host takes the selections made to store them.
    public mutating func useSelections(_ counts: SelectionCounts, scope: String, stored: Bool = true) {
        revision &+= 1
        selections = counts
        selectionScope = scope
        storesSelections = stored
        learningEnabled = true
    }

    /// The host asked for learning (`useSelections`).
    private var learningEnabled = false
    /// Selections are counted and weigh in the structure: the host asked, and the setting is on.
    public var learnsSelections: Bool { learningEnabled && settings.learnSelections }

    /// A host stores the selections (`useSelections` was called): they are kept for it until taken.
    private var storesSelections = false

    /// The selections not yet stored, and forgets them (the host writes them out).
    public mutating func takeUnsavedSelections() -> [(screen: String, id: ElementID)] {
        defer { unsavedSelections = [] }
        return unsavedSelections
    }

    /// Records a selection of `element` on the current screen (learning on).
    private mutating func recordSelection(_ command: ElementCommand, on element: Element?) {
        guard learnsSelections, let element else { return }
        switch command {
        case .activate, .increment, .decrement, .customAction: break
        case .escape, .magicTap, .switchTo, .content: return  // not a choice of this item
        }
        let key = selectionKey(content.screenName)
        selections.record(element.id, screen: key)
        if storesSelections { unsavedSelections.append((key, element.id)) }
    }

    /// A calm point (the start, a new screen, scanning stopped by itself, the learning settings
    /// changed): the scene's structure takes the counts as they are now. Between calm points it
    /// keeps the weights it was built with, so nothing moves under the highlight while the user
    /// scans a screen. True when the weights changed.
    @discardableResult
    private mutating func takeLearnedWeights() -> Bool {
        // A screen without counts keeps the plain grouping (the same structure as equal weights,
        // built with the grouping memo).
        let counts = learnsSelections ? selections.counts(screen: selectionKey(content.screenName)) ?? [:] : [:]
        let learned = counts.isEmpty ? nil : LearnedWeights(counts: counts, orderByFrequency: settings.orderByFrequency)
        return content.useLearnedWeights(learned)
    }

    /// The earliest pending timer, which the host must fire with `advance(to:)`.
    public var nextDeadline: Double? { timers.values.min() }

    // MARK: Driving

    /// What happened, in: what to show, do and trace, out (in order).
    ///
    /// An answer that ends with `.perform`, or with the highlight moving between items, leaves
    /// the session waiting for the content (`pendingRequest`): the host hands the command or
    /// the moves to the content and its answer back (`.performed`, `.focusHooksRan`), and the
    /// session goes on from where it stopped. An event that comes while it waits finds the
    /// request answered as nothing handling it.
    public mutating func handle(_ event: SessionEvent) -> [SessionOutput] {
        work(on: event)
        return takeOutputs()
    }

    /// `handle` without handing the outputs over: they are added to those `takeOutputs` hands
    /// over (`SessionDriver` takes them once, after the content's answers).
    mutating func work(on event: SessionEvent) {
        switch event {
        case .performed(let update): return performed(update)
        case .focusHooksRan(let hooks): return focusHooksRan(hooks)
        default: break
        }
        while let request = pendingRequest {
            switch request {
            case .perform: performed(nil)
            case .highlightMoved: focusHooksRan(nil)
            }
        }
        switch event {
        case .start: begin()
        case .edge(let edge): take(edge)
        case let .time(target, lateness): passTime(to: target, lateness: lateness)
        case let .readerPanned(away, moment): pan(away: away, at: moment)
        case .switchesLost: releaseSwitches()
        case .contentChanged(let update): contentUpdated(update)
        case .settings(let settings): applySettings(settings)
        case .speechHolds(_, let moment), .speechBegan(_, let moment), .speechEnded(_, let moment):
            speechEvent(event, at: moment)
        case .performed, .focusHooksRan: break
        }
    }

    /// The outputs worked out since they were last taken, in order; the session keeps none.
    mutating func takeOutputs() -> [SessionOutput] {
        defer { emitted = [] }
        return emitted
    }

    /// Adds `output` to the outputs of the event being handled.
    private mutating func emit(_ output: SessionOutput) {
        // Room at once for what most events give (an edge: its input, action, highlight, line),
        // rather than the list growing from one as the event goes.
        if emitted.capacity == 0 { emitted.reserveCapacity(8) }
        emitted.append(output)
    }

    private mutating func begin() {
        revision &+= 1
        emit(SessionOutput(time: time, kind: .screen(name: content.screenName)))
        takeLearnedWeights()
        let structure = rebuildStructure()
        summaryToAnnounce = engine.summaryText(of: structure)
        apply(engine.handle(.structureChanged(structure, .initial, time: time)))
        updateBrailleUnlessWaiting()
    }

    /// A switch edge from any source (a device, a recording, a scripted test).
    private mutating func take(_ edge: SwitchEdge) {
        revision &+= 1
        if edge.time > time {
            passTime(to: edge.time, lateness: nil)
            if awaitsContent {
                resumeLater(.afterTime(.edge(edge)))
                return
            }
        }
        takeAfterTime(edge)
    }

    private mutating func takeAfterTime(_ edge: SwitchEdge) {
        let outputs = stabilizer.handle(edge)
        let rejected = outputs.contains { if case .rejected = $0 { return true } else { return false } }
        if !rejected {
            emit(SessionOutput(time: time, kind: .input(switchID: edge.switchID, edge: edge.kind, rejection: nil)))
        }
        applyInput(outputs)
        updateBrailleUnlessWaiting()
    }

    /// The braille display was panned away from the line's first window, or back to it (the
    /// runtime tells): auto scanning holds while the reader reads the rest of a long line.
    private mutating func pan(away: Bool, at moment: Double) {
        if moment > time {
            passTime(to: moment, lateness: nil)
            if awaitsContent {
                resumeLater(.afterTime(.readerPanned(away: away, at: moment)))
                return
            }
        }
        panAfterTime(away: away)
    }

    private mutating func panAfterTime(away: Bool) {
        revision &+= 1
        let actions = engine.handle(.readerPanned(away: away, time: time))
        guard !actions.isEmpty else { return }
        emit(SessionOutput(time: time, kind: .status(away
            ? "the reader panned away from the line's first window: scanning holds"
            : "the reader is back on the line's first window: scanning goes on")))
        apply(actions)
    }

    /// The number of the line shown now, for the speech output to say it with.
    public var speechUtterance: Int { engine.speech.utterance }

    /// A speech event, given to the engine with the session's time once it has caught up with `moment`.
    private mutating func speechEvent(_ event: SessionEvent, at moment: Double) {
        if moment > time {
            passTime(to: moment, lateness: nil)
            if awaitsContent {
                resumeLater(.afterTime(event))
                return
            }
        }
        speechAfterTime(event)
    }

    private mutating func speechAfterTime(_ event: SessionEvent) {
        let scanEvent: ScanEvent
        switch event {
        case .speechHolds(let on, _): scanEvent = .speechHold(on, time: time)
        case .speechBegan(let utterance, _): scanEvent = .speechBegan(utterance: utterance, time: time)
        case .speechEnded(let utterance, _): scanEvent = .speechEnded(utterance: utterance, time: time)
        default: return
        }
        revision &+= 1
        apply(engine.handle(scanEvent))
        updateBrailleUnlessWaiting()
    }

    /// The rest of an event that first let time pass, once time has passed.
    private mutating func afterTime(_ event: SessionEvent) {
        switch event {
        case .edge(let edge): takeAfterTime(edge)
        case .readerPanned(let away, _): panAfterTime(away: away)
        case .speechHolds, .speechBegan, .speechEnded: speechAfterTime(event)
        default: break
        }
    }

    /// The switch device is gone: every switch that was down is released.
    private mutating func releaseSwitches() {
        revision &+= 1
        applyInput(stabilizer.releaseAll(at: time))
        updateBrailleUnlessWaiting()
    }

    /// The line, made again; or, when the session now waits for the content, made once the
    /// answer is in (where the work this ends was heading).
    private mutating func updateBrailleUnlessWaiting() {
        if awaitsContent {
            resumeLater(.braille)
            return
        }
        return updateBraille()
    }

    /// Most timers one `advance(to:)` fires. Settings are range-checked where they are read, so
    /// this is never reached by a valid setting; it is the defence behind that check: should a
    /// timer ever come back at (nearly) the same instant, the host regains control (to read its
    /// signals, see its duration end, or fail a test) instead of spinning here for ever.
    public static let maxTimersPerAdvance = 100_000

    /// True once an `advance(to:)` stopped at `maxTimersPerAdvance` short of its target.
    public private(set) var timerLimitReached = false

    /// Lets time pass to `target`, firing every timer due on the way, in order (at most
    /// `maxTimersPerAdvance`; then `time` stays at the last one fired and `timerLimitReached`
    /// says so).
    ///
    /// `lateness`: the live runtime's stall rule. A timer that is due more than this many seconds
    /// before `target` (the process was stopped, the machine suspended, the loop held up) fires
    /// once, at `target`, and the timers it schedules count from there: the user sees one step,
    /// not a burst of every step missed meanwhile. Scripted tests pass nil: virtual time never
    /// stalls, and every timer fires at its own deadline.
    private mutating func passTime(to target: Double, lateness: Double?, fired alreadyFired: Int = 0) {
        var fired = alreadyFired
        while let (key, due) = timers.min(by: { $0.value < $1.value || ($0.value == $1.value && order($0.key) < order($1.key)) }),
              due <= target {
            if fired == ScanSession.maxTimersPerAdvance {
                timerLimitReached = true
                return
            }
            fired += 1
            revision &+= 1
            timers[key] = nil
            var deadline = due
            if let lateness, target - due > lateness {
                emit(SessionOutput(time: target, kind: .status("a \(timerName(key)) timer fired \(Self.seconds(target - due)) s late (the program was held up); missed steps are skipped")))
                deadline = target
            }
            time = max(time, deadline)
            emit(SessionOutput(time: time, kind: .timer(name: timerName(key), switchID: switchOf(key))))
            switch key {
            case .engine(let timer):
                apply(engine.handle(.timerFired(timer, time: time)))
            case .input(let timer):
                applyInput(stabilizer.timerFired(timer, at: time))
            }
            if awaitsContent {
                resumeLater(.braille)
                resumeLater(.time(target, lateness: lateness, fired: fired))
                return
            }
            updateBraille()
        }
        time = max(time, target)
    }

    private func timerName(_ key: TimerKey) -> String {
        switch key {
        case .engine(let timer): timer.rawValue
        case .input(let timer): timer.kind.rawValue
        }
    }

    private func switchOf(_ key: TimerKey) -> SwitchID? {
        if case .input(let timer) = key { return timer.switchID }
        return nil
    }

    private static func seconds(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "many" }
        return String(format: "%.3f", value)
    }

    /// Input timers fire before the engine's at the same instant: a press completes first.
    private func order(_ key: TimerKey) -> Int {
        if case .input = key { return 0 }
        return 1
    }

    // MARK: Wiring

    private mutating func applyInput(_ outputs: [StabilizerOutput]) {
        applyInput(outputs[...])
    }

    private mutating func applyInput(_ outputs: ArraySlice<StabilizerOutput>) {
        for (index, output) in zip(outputs.indices, outputs) {
            if awaitsContent {
                resumeLater(.input(outputs[index...]))
                return
            }
            switch output {
            case let .began(action, id, at):
                emit(SessionOutput(time: at, kind: .action(action, began: true, switchID: id)))
                apply(engine.handle(.began(action, time: at)))
            case let .ended(action, id, at):
                emit(SessionOutput(time: at, kind: .action(action, began: false, switchID: id)))
                apply(engine.handle(.ended(action, time: at)))
            case let .rejected(edge, reason):
                emit(SessionOutput(time: time, kind: .input(
                    switchID: edge.switchID, edge: edge.kind, rejection: reason.rawValue)))
            case let .schedule(timer, at):
                timers[.input(timer)] = at
            case let .cancel(timer):
                timers[.input(timer)] = nil
            }
        }
    }

    /// The message of the start screen's summary element, flashed when the app opens, until the display
    /// shows it (at once, or after a message posted at the same instant): then it is the last
    /// announcement, for expectations.
    private var summaryToAnnounce: String?

    /// The item under the highlight, for the scene's focus hooks (a group is no element of the
    /// app's, and the menu button none either).
    private var focusedItem: ElementID?
    /// Highlight moves from one item to another not yet told to the scene's focus hooks.
    private var focusMoves: [HighlightMove] = []
    /// How deep `apply` is: the focus hooks run when the outermost one ends.
    private var applyDepth = 0
    /// Focus hooks that move the highlight run the hooks again, up to this many rounds: a
    /// scene whose hooks keep moving the highlight cannot hang the scanner.
    static let focusHookRounds = 16

    private mutating func apply(_ actions: [ScanAction]) {
        applyDepth += 1
        applyActions(actions[...])
        endApply()
    }

    /// The end of an `apply`: the focus hooks run when it is the outermost (once the content
    /// has answered, when the session waits for it).
    private mutating func endApply() {
        if awaitsContent {
            resumeLater(.endApply(depth: applyDepth))
            applyDepth -= 1
            return
        }
        applyDepth -= 1
        if applyDepth == 0, !focusMoves.isEmpty { runFocusHooks() }
    }

    /// `didLoseFocus` of the item the highlight left, then `didBecomeFocused` of the one it
    /// landed on, run as the app's own effects (the engine only moves the highlight; what the
    /// app does about it is the scene's).
    /// The content runs them: the session asks (`pendingHighlightMoves`) and waits for
    /// `focusHooksRan`. `rounds`: rounds of hooks already run for this change.
    private mutating func runFocusHooks(rounds: Int = 0) {
        guard !focusMoves.isEmpty, rounds < Self.focusHookRounds else {
            focusMoves = []
            return
        }
        pendingRequest = .highlightMoved(focusMoves, round: rounds + 1)
        focusMoves = []
    }

    /// The content's answer to the highlight moves: the hooks that ran and what they changed
    /// (nil: the content has no hooks), then the next round, or the work the moves interrupted.
    private mutating func focusHooksRan(_ hooks: FocusHooksAnswer?) {
        guard case .highlightMoved(_, let round) = pendingRequest else { return }  // nothing was asked
        pendingRequest = nil
        if let hooks {
            if !hooks.ran.isEmpty {
                emit(SessionOutput(time: time, kind: .status("focus hooks: \(hooks.ran.joined(separator: ", "))")))
                applyDepth = 1
                applyUpdate(hooks.update)
                applyDepth = 0
            }
            runFocusHooks(rounds: round)
        } else {
            focusMoves = []
        }
        resumeLeft()
    }

    private mutating func applyActions(_ actions: ArraySlice<ScanAction>) {
        for (index, action) in zip(actions.indices, actions) {
            if awaitsContent {
                resumeLater(.actions(actions[index...], depth: applyDepth))
                return
            }
            switch action {
            case .highlight(let highlight):
                let item: ElementID? = {
                    if case .entry(let node) = highlight, !node.isGroup { return node.id }
                    return nil
                }()
                if item != focusedItem {
                    focusMoves.append(HighlightMove(lost: focusedItem, gained: item))
                    focusedItem = item
                }
                emit(SessionOutput(time: time, kind: .highlight(highlight)))
            case .menu(let entries, let focus):
                emit(SessionOutput(time: time, kind: .menu(entries: entries, focus: focus, item: engine.menuItem)))
            case .menuClosed:
                emit(SessionOutput(time: time, kind: .menuClosed))
            case .perform(let command, let element):
                emit(SessionOutput(time: time, kind: .perform(command, element: element)))
                recordSelection(command, on: element)
                // The content acts now, through the host: the rest waits for its answer.
                pendingRequest = .perform(PerformRequest(command: command, element: element, depth: applyDepth))
            case .flash(let text, _):
                if text == summaryToAnnounce {
                    lastAnnouncement = text
                    summaryToAnnounce = nil
                }
                emit(SessionOutput(time: time, kind: .announcement(text)))
            case .flashEnded:
                break
            case .schedule(let timer, let at):
                timers[.engine(timer)] = at
            case .cancel(let timer):
                timers[.engine(timer)] = nil
            case .scanning(let running):
                emit(SessionOutput(time: time, kind: .scanning(running: running)))
                // Scanning stopped by itself (its loops ran out; not paused): the highlight is
                // hidden and the next switch starts again from the top, a calm point.
                if !running, learnsSelections, !engine.isRunning, !engine.isPaused, !engine.isPausedByApp, !engine.isEmpty,
                   takeLearnedWeights() {
                    apply(engine.handle(.structureChanged(rebuildStructure(), .refreshed, time: time)))
                }
            case .ignored(let action, let reason):
                emit(SessionOutput(time: time, kind: .ignored(action, reason: reason)))
            }
        }
    }

    /// The content's answer to the pending command: the engine hears what changed, then the
    /// work the command interrupted goes on where it stopped.
    private mutating func performed(_ update: ContentUpdate?) {
        guard let request = pendingPerform else { return }  // nothing was asked
        pendingRequest = nil
        applyDepth = request.depth
        if let update {
            applyUpdate(update)
        } else {
            // Nothing handles it (a tap where no element has `activate`): the scene is unchanged,
            // and the engine still hears back, so it places the highlight and scans on.
            apply(engine.handle(.structureChanged(rebuildStructure(), .refreshed, time: time)))
        }
        resumeLeft()
    }

    /// Leaves `resumption` to be taken up once the content has answered (after what was left
    /// before it).
    private mutating func resumeLater(_ resumption: Resumption) {
        // Room at once for what a wait usually leaves (the rest of the actions, the end of the
        // apply, the rest of the input, the line), rather than the list growing from one.
        if resumptions.capacity == 0 { resumptions.reserveCapacity(8) }
        resumptions.append(resumption)
    }

    /// Takes up the work left when the session stopped to wait, until it is done or the session
    /// waits again.
    private mutating func resumeLeft() {
        guard !awaitsContent else { return }
        var left = resumptions[...]
        resumptions = []
        while let next = left.popFirst() {
            resume(next)
            if awaitsContent {
                // Another request to wait for: what it interrupted comes before what is left.
                resumptions += left
                break
            }
        }
    }

    /// Goes on with work interrupted by a request to the content.
    private mutating func resume(_ resumption: Resumption) {
        switch resumption {
        case let .actions(actions, depth):
            applyDepth = depth
            return applyActions(actions)
        case .endApply(let depth):
            applyDepth = depth
            return endApply()
        case .input(let outputs):
            applyDepth = 0
            return applyInput(outputs)
        case .braille:
            return updateBrailleUnlessWaiting()
        case let .time(target, lateness, fired):
            applyDepth = 0
            return passTime(to: target, lateness: lateness, fired: fired)
        case .afterTime(let event):
            applyDepth = 0
            return afterTime(event)
        case let .settings(old, new, inputChanged):
            applyDepth = 0
            return applySettingsAfterRelease(old: old, new: new, inputChanged: inputChanged)
        case let .settingsRest(old, new):
            applyDepth = 0
            return applySettingsRest(old: old, new: new)
        case let .update(steps, depth):
            applyDepth = depth
            return applyUpdateSteps(steps)
        }
    }

    /// The work left when the session stopped to wait for the content, in the order it is
    /// taken up again: what the innermost call had left first, then its callers'.
    private enum Resumption: Sendable {
        /// The rest of the engine's actions, at `apply` depth `depth`.
        case actions(ArraySlice<ScanAction>, depth: Int)
        /// The end of the `apply` at depth `depth` (focus hooks at the outermost).
        case endApply(depth: Int)
        /// The rest of the stabiliser's outputs.
        case input(ArraySlice<StabilizerOutput>)
        /// The braille line, made again.
        case braille
        /// Time passing on to `target` (`fired` timers already fired on the way).
        case time(Double, lateness: Double?, fired: Int)
        /// The rest of an event that first let time pass.
        case afterTime(SessionEvent)
        /// The rest of new settings, after the switches held were released. (The settings
        /// cases are indirect: settings are large, and every resumption would otherwise be
        /// twice their size to copy.)
        indirect case settings(old: ScanSettings, new: ScanSettings, inputChanged: Bool)
        /// The rest of new settings, after the engine took them.
        indirect case settingsRest(old: ScanSettings, new: ScanSettings)
        /// The rest of what the engine hears of a content update, at `apply` depth `depth`.
        case update(ArraySlice<UpdateStep>, depth: Int)
    }

    /// What the engine hears of a content update, in order.
    private enum UpdateStep: Sendable {
        case engine(ScanEvent)
        /// A notification's text, conveyed as an announcement.
        case message(String)
    }

    /// The content changed by itself (a live application's window, dialog or labels): the engine
    /// re-derives its items as after an action, and the braille line follows.
    private mutating func contentUpdated(_ update: ContentUpdate) {
        revision &+= 1
        applyUpdate(update)
        updateBrailleUnlessWaiting()
    }

    private mutating func applyUpdate(_ update: ContentUpdate) {
        let notifications = update.notifications
        if let screen = update.screen {
            emit(SessionOutput(time: time, kind: .screen(name: screen)))
            takeLearnedWeights()
        }
        // One structure change for the whole behaviour: a screen change wins over a layout change.
        var change = StructureChange.refreshed
        for notification in notifications {
            switch notification.kind {
            case .screenChanged: change = .screenChanged(focus: notification.focus)
            case .layoutChanged:
                if case .screenChanged = change { continue }
                change = .layoutChanged(focus: notification.focus)
            case .announcement, .pageScrolled, .pauseAssistiveTechnology, .resumeAssistiveTechnology: continue
            }
        }
        let structureChanged = ScanEvent.structureChanged(rebuildStructure(), change, time: time)
        // The steps after the structure change: most updates (a tap's) have none, and then no
        // list is made.
        var steps: [UpdateStep] = []
        // Pauses and resumes of Switch Control, in the order posted (the scanner is Switch
        // Control; one for VoiceOver leaves it as it is).
        for notification in notifications where notification.technology == .switchControl {
            switch notification.kind {
            case .pauseAssistiveTechnology: steps.append(.engine(.appPaused(true, time: time)))
            case .resumeAssistiveTechnology: steps.append(.engine(.appPaused(false, time: time)))
            default: continue
            }
        }
        // A layoutChanged or screenChanged posted with a string (UIKit's argument: "an NSString
        // … is read") is conveyed as an announcement is, after the highlight has moved.
        steps += notifications.compactMap { $0.text.map(UpdateStep.message) }
        guard !awaitsContent else {
            applyUpdateSteps(([.engine(structureChanged)] + steps)[...])
            return
        }
        apply(engine.handle(structureChanged))
        applyUpdateSteps(steps[...])
    }

    private mutating func applyUpdateSteps(_ steps: ArraySlice<UpdateStep>) {
        for (index, step) in zip(steps.indices, steps) {
            if awaitsContent {
                resumeLater(.update(steps[index...], depth: applyDepth))
                return
            }
            switch step {
            case .engine(let event):
                apply(engine.handle(event))
            case .message(let text):
                lastAnnouncement = text
                apply(engine.handle(.message(text, time: time)))
            }
        }
    }

    /// The current screen's scan structure, with automatic grouping when it is on: the one the
    /// engine walks (kept from the last rebuild while the state is the same).
    public func currentStructure() -> ScanStructure {
        content.currentStructure(groupItems: settings.groupItems)
    }

    private mutating func rebuildStructure() -> ScanStructure {
        content.rebuildStructure(groupItems: settings.groupItems)
    }

    /// The whole structure, built from the scene's templates.
    static func buildStructure(scene: Scene, state: SceneState, groupItems: Bool, learned: LearnedWeights? = nil) -> ScanStructure {
        guard let screen = state.resolvedScreen(in: scene) else { return ScanStructure(nodes: []) }
        return .of(screen, groupItems: groupItems, learned: learned)
    }

    /// The structure of `screen` with its scan nodes: which items have an escape handler, and
    /// which a magic tap handler.
    static func structure(of screen: Screen, nodes: [ScanNode]) -> ScanStructure {
        ScanStructure(
            nodes: nodes, escapable: reach(of: \.escape, in: screen.root, handled: false),
            screenHandlesEscape: screen.root.escape != nil,
            magicTappable: reach(of: \.magicTap, in: screen.root, handled: false),
            screenHandlesMagicTap: screen.root.magicTap != nil)
    }

    /// The elements of a present subtree that have `handler` (escape, magic tap) or sit under a
    /// present element that does (`handled`: an ancestor does), as `SceneContent.perform` looks
    /// for the handler: the element's own, else the nearest ancestor's.
    static func reach(of handler: KeyPath<Element, [Effect]?>, in element: Element, handled: Bool) -> Set<ElementID> {
        var reached = Set<ElementID>()
        func walk(_ element: Element, handled: Bool) {
            let handles = handled || element[keyPath: handler] != nil
            if handles { reached.insert(element.id) }
            for child in element.children where child.isPresent { walk(child, handled: handles) }
        }
        walk(element, handled: handled)
        return reached
    }

    /// Recomputes the braille line; a trace line when it changed.
    private mutating func updateBraille() {
        brailleLineLanguage = brailleLanguage
        // Most edges (a release, a press the stabiliser holds back) change none of it.
        let menu = engine.menu
        let source = BrailleSource(
            flash: engine.flashMessage, menuTitle: menu.map { $0.entries[$0.focus].title }, menuFocus: menu?.focus,
            menuCount: menu?.entries.count, menuItem: engine.menuItem, highlight: engine.highlight, scanning: engine.isRunning)
        if source == brailleSource { return }
        brailleSource = source
        let line: BrailleLine
        if let flash = engine.flashMessage {
            line = formatter.flash(flash)
        } else if let menu = engine.menu {
            // The scanner's own entries in the reader's language; a custom action's name as the app gives it.
            let entry = menu.entries[menu.focus]
            var title = entry.title
            let language = engine.menuItem?.language ?? scene.language
            switch entry.kind {
            case .perform(.customAction), .perform(.content): break
            case .perform(.switchTo(let target)): title = ScannerWords.switchTo(target.name, language: language)
            default: title = ScannerWords.menuTitle(title, language: language)
            }
            line = formatter.menuEntry(title, index: menu.focus, count: menu.entries.count, for: engine.menuItem)
        } else {
            switch engine.highlight {
            case .none where !engine.isRunning && !engine.isEmpty:
                line = formatter.status(ScannerWords.scanningStopped(language: brailleLanguage))
            case .none: line = .empty
            case .menuButton: line = formatter.menuButton()
            case .entry(let node): line = preparedLine(for: node) ?? formatter.line(for: node)
            case .groupExit(let node): line = formatter.outline(of: node)
            }
        }
        guard line != brailleLine || brailleLineLanguage != shownLanguage else { return }
        let textChanged = line.text != brailleText
        brailleLine = line
        brailleText = line.text
        shownLanguage = brailleLineLanguage
        emit(SessionOutput(time: time, kind: .line(line, language: brailleLineLanguage, textChanged: textChanged)))
    }

    /// The language of what the line shows (for the braille table): the highlighted element's.
    public var brailleLanguage: String? {
        switch engine.highlight {
        case .entry(let node), .groupExit(let node): return language(of: node)
        default: return content.language
        }
    }

    private func language(of node: ScanNode) -> String? {
        node.element.language ?? node.firstItem?.language ?? content.language
    }

    /// The braille lines of the entries the highlight may show next (`ScanningEngine.upcomingEntries`),
    /// nearest first, with their languages: made now, while the host is idle, and kept, so that
    /// the edge that highlights one of them does not make its line again; a display output
    /// translates them ahead too. The lines are those `brailleLine` will show (the same
    /// formatter); nothing else in the session changes.
    public mutating func upcomingBrailleLines(limit: Int) -> [(line: BrailleLine, language: String?)] {
        // Kept for one structure, and at most a few hundred (a long walk over a big screen).
        if preparedLines.version != engine.structureVersion || preparedLines.lines.count > 256 {
            preparedLines = (engine.structureVersion, [:])
        }
        return engine.upcomingEntries(limit: limit).map { node in
            let line = preparedLine(for: node) ?? formatter.line(for: node)
            preparedLines.lines[node.id] = (node, line)
            return (line, language(of: node))
        }
    }

    /// The line made ahead for `node` in the current structure, if any.
    private func preparedLine(for node: ScanNode) -> BrailleLine? {
        guard preparedLines.version == engine.structureVersion, let kept = preparedLines.lines[node.id],
              kept.node.isGroup == node.isGroup else { return nil }
        return kept.line
    }
}

extension ScanSession {
    /// New settings from now on (a settings file edited during a run). The scanner keeps its
    /// place: the current position's timer starts again with the new times; with other
    /// grouping or tap behaviour, the structure is rebuilt around the same element. When the
    /// input settings change (debounce, hold duration, ignore repeat, long press), switches held
    /// at that moment are released first, then the new filter applies to the next press.
    fileprivate mutating func applySettings(_ new: ScanSettings) {
        guard new != settings else { return }
        revision &+= 1
        let old = settings
        let inputChanged = (old.debounceTime, old.holdDuration, old.ignoreRepeat, old.longPress)
            != (new.debounceTime, new.holdDuration, new.ignoreRepeat, new.longPress)
        if inputChanged {
            applyInput(stabilizer.releaseAll(at: time))
            if awaitsContent {
                resumeLater(.settings(old: old, new: new, inputChanged: inputChanged))
                return
            }
        }
        applySettingsAfterRelease(old: old, new: new, inputChanged: inputChanged)
    }

    /// The rest of `applySettings`, once the switches held are released.
    fileprivate mutating func applySettingsAfterRelease(old: ScanSettings, new: ScanSettings, inputChanged: Bool) {
        if inputChanged {
            var configuration = stabilizer.configuration
            configuration.debounceTime = new.debounceTime
            configuration.holdDuration = new.holdDuration
            configuration.ignoreRepeat = new.ignoreRepeat
            configuration.longPress = new.longPress
            stabilizer = Stabilizer(configuration: configuration, bindings: stabilizer.bindings)
            for key in timers.keys { if case .input = key { timers[key] = nil } }
        }
        settings = new
        formatter = BrailleFormatter(showHints: new.brailleHints, language: content.language, roleFirst: new.brailleRoleFirst)
        brailleSource = nil
        preparedLines = (engine.structureVersion, [:])
        apply(engine.updateSettings(new, at: time))
        if awaitsContent {
            resumeLater(.settingsRest(old: old, new: new))
            return
        }
        applySettingsRest(old: old, new: new)
    }

    /// The rest of `applySettings`, once the engine has the new settings.
    fileprivate mutating func applySettingsRest(old: ScanSettings, new: ScanSettings) {
        if (old.learnSelections, old.orderByFrequency) != (new.learnSelections, new.orderByFrequency) {
            takeLearnedWeights()
        }
        if old.groupItems != new.groupItems || old.tapBehavior != new.tapBehavior
            || (old.learnSelections, old.orderByFrequency) != (new.learnSelections, new.orderByFrequency) {
            apply(engine.handle(.structureChanged(currentStructure(), .refreshed, time: time)))
        }
        updateBrailleUnlessWaiting()
    }
}
