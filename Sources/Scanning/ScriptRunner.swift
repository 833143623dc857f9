import AccessibilityModel
import DeviceProfiles
import Scenes
import SwitchInput

/// Runs a scene's scripted tests (`tests:` in a scene file, docs/scene-format.md,
/// "Scripted tests") in virtual time.
///
/// Each test runs on a fresh `ScanSession` — the same code the live runtime drives — started at
/// virtual time 0 with `baseSettings` (by default `ScanSettings()`) plus the test's `settings`, applied in order with
/// `ScanSettings.set(_:_:)`. Steps only ever call the session's public driving API (`start()`,
/// `input(_:)`, `advance(to:)`) and read its state; there is no test-only path. It is pure: no
/// I/O, no clock.
///
/// Steps:
/// - `press: X` presses the virtual switch named `X` (the session's default bindings,
///   `ScanSession.actionSwitches`, name one switch per action): down now, up `pressDuration`
///   later — 0.05 s, or `holdDuration` + 0.05 s when `holdDuration` is set, so that a press
///   counts — and the time advances to the release; timers due on the way fire in order.
///   `press: {switch: X, longPressAction: Y}` is a long press: a virtual switch bound to `X`
///   with the long-press action `Y` (`longPressSwitch`), held `longPress` longer, through the
///   stabiliser's long-press handling (the `longPress` setting must be on).
/// - `hold: {switch: X, seconds: s}`: down now, up `s` seconds later (timers fire in between);
///   with `longPressAction: Y`, the switch also carries that long-press action.
/// - `app: EFFECTS` / `post: {notification: …}`: the app changes by itself, with no press: the
///   scene's effects run now (`ScanSession.appChanged`), and the engine hears what changed.
/// - `wait: s`: time advances by `s` seconds, firing every timer due.
/// - `route: n`: a braille routing key on cell `n` (0 is the first cell). For now it acts as
///   `select` on what is highlighted (a press of the `select` switch), when `n` is within the
///   braille line's length; beyond the line the test fails.
/// - `key: {code, value}`: a raw evdev key event, at the current time, through the test's switch
///   profile — the same path as a device's events in `switchscan run`: `ProfileEdges`
///   (`DeviceEventTranslator` with the runtime's switch naming), then the session's
///   stabilisation, with the profile's switches bound next to the virtual ones. The profile is
///   the test's `profile:` (resolved by the host, `testProfiles`), else `profile` (the shipped
///   generic keyboard profile: KEY_SPACE → select, KEY_ENTER → next; `switchscan test --profile`
///   picks another). Its long-press actions apply (with the `longPress` setting on), and a
///   pulse-only profile's switches are pulses, as live. Value 1 is a down, 0 an up, 2 a kernel
///   autorepeat. Key steps do not advance the time: put a `wait` between a down and its up (an up
///   at the same instant is contact bounce to the stabiliser, accepted only when its debounce
///   window ends). A code the profile has no switch for fails the test, naming the profile's keys.
/// - `expect:` compares each given key with the session: `focus` (the highlighted item or
///   group), `braille` (the line before translation to dots), `menu` (the open menu's entry
///   titles; expecting a menu when none is open fails), `menuFocus`, `screen`, `state` (only
///   the names listed), `announcement` (the last announcement or page-scrolled message, or the
///   summary element's message once shown), `scanning` (`running` or `stopped`), and the
///   additions: `highlight` (`none`, `menuButton`, `item`), `focus: {groupContaining: ID}`,
///   `braille`/`announcement` as `{contains:}` or `{matches:}` (`TextPattern`, whole text),
///   `rejected`/`ignored` (the trace of the last input step: a rejected edge's reason, an
///   ignored action's reason containing the text), `element` (attributes of an element as
///   resolved now, or of the highlighted item). Every mismatch of the step is reported together.
///
/// Pressing speed: `press`, `hold` and `route` never press a switch again within the
/// stabiliser's `debounceTime` of that switch's previous edge (no person can; the stabiliser
/// would take it for contact bounce): such a press starts when the window ends. So
/// `press: next` twice in a row is two presses, 0.075 s apart by default. Raw `key` steps are
/// sent exactly when written.
///
/// A failure names the step by its number (1 is the first step) and its file, line and column:
/// `Scenarios/switch-control-groups.yaml:45:9: test "a combined group is entered": step 5
/// (expect): focus is 'test-1', expected 'test-2'`, with the last trace lines.
public struct ScriptRunner: Sendable {
    public let scene: Scene
    /// How many of the last trace events a failure shows.
    public var recentTraceCount: Int = 10
    /// The profile `key:` steps go through in tests with no `profile:` of their own.
    public var profile: SwitchProfile
    /// The profiles tests name with `profile:`, by the name as written, as the host found them
    /// (a file read and parsed, or a profile of its catalog), or why not.
    public var testProfiles: [String: Result<SwitchProfile, ProfileLookupError>]
    /// The settings each test starts from, before its own `settings` (a settings file given to
    /// `switchscan test --settings`).
    public var baseSettings = ScanSettings()
    /// The scanning keyboard text fields open (`type:` steps type on it); nil: none.
    public var keyboard: KeyboardOffer?

    public init(
        scene: Scene, profile: SwitchProfile = .builtInGenericKeyboard,
        testProfiles: [String: Result<SwitchProfile, ProfileLookupError>] = [:]
    ) {
        self.scene = scene
        self.profile = profile
        self.testProfiles = testProfiles
    }

    /// The profile names the scene's tests give with `profile:`, for the host to resolve.
    public var profileNames: [String] {
        var seen = Set<String>()
        return scene.tests.compactMap { $0.profile?.name }.filter { seen.insert($0).inserted }
    }

    /// A press held this long counts: 0.05 s, plus `holdDuration` when it is set.
    public static func pressDuration(for settings: ScanSettings) -> Double {
        basePressDuration + (settings.holdDuration ?? 0)
    }

    /// Most trace events one test may produce (about 100 MB of trace); past it the test fails.
    public static let maxTraceEvents = 1_000_000

    /// How long a `press` step holds its switch when no `holdDuration` is set.
    public static let basePressDuration = 0.05

    /// A profile as messages name it: `generic-keyboard (Devices/switches/generic-keyboard.yaml)`.
    public static func describeProfile(_ profile: SwitchProfile) -> String {
        if profile.file.hasSuffix(".yaml") || profile.file.hasSuffix(".yml") { return "\(profile.id) (\(profile.file))" }
        return profile.file.isEmpty ? "'\(profile.name)'" : profile.file
    }

    /// Runs every test of the scene, in file order.
    public func runAll() -> [ScriptResult] {
        scene.tests.map { run($0) }
    }

    /// Runs one test on a fresh session.
    public func run(_ test: ScriptedTest) -> ScriptResult {
        var execution = Execution(scene: scene, test: test, recentTraceCount: recentTraceCount, baseSettings: baseSettings)
        execution.keyboard = keyboard
        if let reference = test.profile {
            execution.profile = testProfiles[reference.name]
                ?? .failure(ProfileLookupError("it was not looked up (the host gave no profile by that name)"))
        } else {
            execution.profile = .success(profile)
        }
        let failure = execution.run()
        return ScriptResult(
            testName: test.name, location: test.location, failure: failure, trace: execution.trace,
            endTime: execution.session?.time ?? 0)
    }
}

/// Why a test's `profile:` could not be used: the host's message (`no such file, and no profile
/// has that id`, or the profile file's errors with their positions).
public struct ProfileLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The outcome of one scripted test.
public struct ScriptResult: Hashable, Sendable {
    public var testName: String
    /// Where the test is declared.
    public var location: SourceLocation
    /// Nil when the test passed.
    public var failure: ScriptFailure?
    /// Everything that happened, from the start of the session.
    public var trace: [TraceEvent]
    /// The virtual time when the test ended (or failed).
    public var endTime: Double

    public var passed: Bool { failure == nil }
    public var file: String { location.file }
}

/// Why a scripted test failed.
public struct ScriptFailure: Hashable, Sendable, CustomStringConvertible {
    public enum Cause: Hashable, Sendable {
        /// A setting could not be applied.
        case setting(name: String, message: String)
        /// The test's `profile:` could not be found or read.
        case profile(name: String, message: String)
        /// An `expect` step found other values.
        case expectation([Mismatch])
        /// A step could not be performed (a route beyond the braille line, an unknown key code).
        case step(String)
    }

    /// The failing step, 0-based (nil when a setting or the profile failed).
    public var stepIndex: Int?
    /// The failing step's kind (`press`, `hold`, `wait`, `route`, `key`, `expect`).
    public var stepKind: String?
    /// The failing step's location, or the setting's value, or the test's `profile:` value.
    public var location: SourceLocation
    public var testName: String
    public var cause: Cause
    /// The last trace events before the failure, one line each (`1.050 highlight test-2 "Test 2"`).
    public var recentTrace: [String]

    /// The step's number as the message shows it (1 is the first step).
    public var stepNumber: Int? { stepIndex.map { $0 + 1 } }

    /// The mismatches of a failed `expect` step (empty for other failures).
    public var mismatches: [Mismatch] {
        if case .expectation(let mismatches) = cause { return mismatches }
        return []
    }

    /// One line: `file:line:column: test "name": step 5 (expect): focus is 'test-1', expected 'test-2'`.
    public var message: String {
        var text = "\(location): test \"\(testName)\": "
        if let stepNumber, let stepKind { text += "step \(stepNumber) (\(stepKind)): " }
        switch cause {
        case .setting(let name, let message): text += "setting '\(name)': \(message)"
        case .profile(let name, let message): text += "profile '\(name)': \(message)"
        case .expectation(let mismatches): text += mismatches.map(\.description).joined(separator: "; ")
        case .step(let message): text += message
        }
        return text
    }

    /// The message, then the recent trace lines, indented.
    public var report: String {
        guard !recentTrace.isEmpty else { return message }
        return ([message, "  recent trace:"] + recentTrace.map { "    " + $0 }).joined(separator: "\n")
    }

    public var description: String { report }
}

/// One key of an `expect` step that differed. Values are shown as in the message: strings in
/// single quotes, lists as `['Tap', 'Exit menu']`, numbers and booleans bare, and words such as
/// `none` or `not open` when there is nothing.
public struct Mismatch: Hashable, Sendable, CustomStringConvertible {
    /// `focus`, `braille`, `menu`, `menuFocus`, `screen`, `state.NAME`, `announcement`, `scanning`.
    public var key: String
    public var expected: String
    public var actual: String

    public init(key: String, expected: String, actual: String) {
        self.key = key
        self.expected = expected
        self.actual = actual
    }

    /// `focus is 'test-1', expected 'test-2'`.
    public var description: String { "\(key) is \(actual), expected \(expected)" }
}

// MARK: - Running

/// One test's run: the session, the trace so far, and each switch's last edge.
private struct Execution {
    let scene: Scene
    let test: ScriptedTest
    let recentTraceCount: Int
    var session: ScanSession?
    var trace: [TraceEvent] = []
    /// Each virtual switch's last edge sent, to keep presses out of the debounce window.
    var lastEdge: [SwitchID: Double] = [:]
    /// The braille line on the display when the last press landed (`expect: pressedOn`).
    var lineAtLastPress: String?
    /// Set when a press acted while a message covered the highlight: the test fails.
    var unseenAction: String?
    /// The profile `key:` steps go through, or why the test's own could not be had.
    var profile: Result<SwitchProfile, ProfileLookupError> = .success(.builtInGenericKeyboard)
    /// The profile's translator and switch ids (set once the session starts).
    var keys: ProfileEdges?
    /// Where the last input step's events begin in the trace, and its number (1 is the first).
    var lastInputStart: Int?
    var lastInputStep: Int?
    /// The step being performed (1 is the first).
    var currentStep = 0

    let baseSettings: ScanSettings
    var keyboard: KeyboardOffer?

    init(scene: Scene, test: ScriptedTest, recentTraceCount: Int, baseSettings: ScanSettings) {
        self.baseSettings = baseSettings
        self.scene = scene
        self.test = test
        self.recentTraceCount = recentTraceCount
    }

    mutating func run() -> ScriptFailure? {
        var settings = baseSettings
        // Deterministic tests: no learnt weights unless the test itself turns learning on (then
        // from empty counts, in memory: a session never reads or writes the user's state).
        settings.learnSelections = false
        for setting in test.settings {
            do {
                try settings.set(setting.name, setting.value)
            } catch {
                return ScriptFailure(
                    stepIndex: nil, stepKind: nil, location: setting.location, testName: test.name,
                    cause: .setting(name: setting.name, message: error.message), recentTrace: [])
            }
        }
        let chosen: SwitchProfile
        let profileName = "(default)"
        switch profile {
        case .success(let found): chosen = found
        case .failure(let error):
            return ScriptFailure(
                stepIndex: nil, stepKind: nil, location: test.profile?.location ?? test.location, testName: test.name,
                cause: .profile(name: test.profile?.name ?? profileName, message: error.message), recentTrace: [])
        }
        // The profile's switches next to the virtual ones `press` uses, as a device's next to the
        // terminal's live: their own ids, unless one is a virtual switch's name.
        let naming = SwitchNaming(profiles: [chosen], reserved: Set(ScanSession.actionSwitches.keys))
        keys = ProfileEdges(profile: chosen, naming: naming)
        var bindings = ScanSession.actionSwitches.merging(naming.bindings) { $1 }
        // A switch per (action, long-press action) the test's long presses use, bound as a
        // profile's switch with a `longPressAction` is: the stabiliser's long-press handling.
        for step in test.steps {
            switch step.kind {
            case .press(let action, let long?), .hold(let action, _, let long?):
                bindings[ScriptRunner.longPressSwitch(action, long)] = SwitchBinding(action: action, longPressAction: long)
            default: break
            }
        }
        var session = ScanSession(
            scene: scene, settings: settings, bindings: bindings, pulseOnlySwitches: naming.pulseSwitches, screen: test.screen)
        // A test that sets learnSelections learns from empty counts, in memory only.
        if settings.learnSelections { session.useSelections(SelectionCounts(), scope: "", stored: false) }
        session.keyboard = keyboard
        trace += session.start()
        self.session = session
        for (index, step) in test.steps.enumerated() {
            currentStep = index + 1
            var cause = perform(step)
            if cause == nil, let unseenAction { cause = .step(unseenAction) }
            if cause == nil, self.session?.timerLimitReached == true {
                cause = .step("more than \(ScanSession.maxTimersPerAdvance) timers fired at once; the scanner cannot honour timers this close together (a time setting too small?)")
            }
            // Every step is bounded (an hour at most), but a file may hold millions of steps:
            // the trace a test keeps is bounded too.
            if cause == nil, trace.count > ScriptRunner.maxTraceEvents {
                cause = .step("the test's trace passed \(ScriptRunner.maxTraceEvents) events; split it into shorter tests")
            }
            if let cause {
                return ScriptFailure(
                    stepIndex: index, stepKind: step.kindName, location: step.location, testName: test.name,
                    cause: cause, recentTrace: trace.suffix(recentTraceCount).map(ScriptRunner.describe))
            }
        }
        return nil
    }

    /// Performs a step; a cause when it fails.
    mutating func perform(_ step: TestStep) -> ScriptFailure.Cause? {
        guard let current = session else { return nil }
        let settings = current.settings
        switch step.kind {
        case .press(let action, nil):
            startInputStep()
            press(action.rawValue, for: ScriptRunner.pressDuration(for: settings))
        case .press(let action, let long?):
            guard let longPress = settings.longPress else {
                return .step("a long press (longPressAction: \(long.rawValue)) needs the longPress setting on: add longPress: 1.0 (seconds) to the test's settings")
            }
            startInputStep()
            press(ScriptRunner.longPressSwitch(action, long), for: ScriptRunner.pressDuration(for: settings) + longPress)
        case .hold(let action, let seconds, let long):
            startInputStep()
            press(long.map { ScriptRunner.longPressSwitch(action, $0) } ?? action.rawValue, for: seconds)
        case .app(let effects):
            trace.append(TraceEvent(time: current.time, kind: .status(text: "the app: \(effects.map(ScriptRunner.describe).joined(separator: ", "))")))
            trace += session!.appChanged(effects) ?? []
        case .wait(let seconds):
            trace += session!.advance(to: current.time + seconds)
        case .route(let cell):
            let cells = current.brailleText.count
            guard cell < cells else {
                let line = cells == 0 ? "the braille line is empty" : "the braille line has \(cells) cells ('\(current.brailleText)')"
                return .step("cell \(cell) is beyond the braille line: \(line); cells are numbered from 0")
            }
            startInputStep()
            press(SwitchAction.select.rawValue, for: ScriptRunner.pressDuration(for: settings))
        case .key(let code, let value):
            guard var keys else { return nil }
            let profile = keys.profile
            let described = ScriptRunner.describeProfile(profile)
            guard let number = KeyCodes.code(named: code) else {
                return .step("\(code) is not an evdev key name this program knows; the switch profile \(described) has \(profile.keysDescription)")
            }
            guard profile.switchID(forCode: number) != nil else {
                return .step("\(code) is not a key of the switch profile \(described); its keys are \(profile.keysDescription)")
            }
            startInputStep()
            let event = DeviceEvent(time: current.time, type: DeviceEvent.EventType.key, code: number, value: Int32(value))
            if let edge = keys.edge(event, at: current.time) { send(edge) }
            self.keys = keys
        case .type(let text):
            startInputStep()
            return typeOnKeyboard(text)
        case .expect(let expectation):
            let mismatches = compare(expectation, with: current)
            return mismatches.isEmpty ? nil : .expectation(mismatches)
        }
        return nil
    }

    /// A press, hold, route or key step begins: `rejected` and `ignored` look from here.
    /// `type:`: the choices a user who makes no mistakes makes (`PerfectTypist`), each reached
    /// as they reach it, through the session's switches.
    mutating func typeOnKeyboard(_ text: String) -> ScriptFailure.Cause? {
        let limit = text.count * 4 + 10
        for _ in 0..<limit {
            guard let keyboard = session?.keyboardContent else {
                return .step("no scanning keyboard is open: select a text field (an element with textField:) first")
            }
            let choice: PerfectTypist.Choice?
            do { choice = try PerfectTypist.nextChoice(toType: text, on: keyboard) } catch {
                return .step("cannot type '\(text)': \(error)")
            }
            guard let choice else { return nil }
            guard let target = keyboard.elementID(of: choice) else { return .step("cannot type '\(text)': \(choice) is not on the keyboard") }
            if let failure = reachAndSelect(target) { return failure }
        }
        return .step("typing '\(text)' took more than \(limit) selections")
    }

    /// Moves or waits until `target` is highlighted, entering the groups that hold it, and selects it.
    mutating func reachAndSelect(_ target: ElementID) -> ScriptFailure.Cause? {
        for _ in 0..<10_000 {
            guard let current = session else { return nil }
            let pressing = ScriptRunner.pressDuration(for: current.settings)
            switch current.perfectMove(toward: target) {
            case .select(let reachesTarget):
                press(SwitchAction.select.rawValue, for: pressing)
                if reachesTarget { return nil }
            case .next:
                press(SwitchAction.next.rawValue, for: pressing)
            case .wait(let until):
                trace += session!.advance(to: until)
            case .stuck(let why):
                return .step(why)
            }
        }
        return .step("\(target) was not reached")
    }

    mutating func startInputStep() {
        lastInputStart = trace.count
        lastInputStep = currentStep
    }

    /// Down, then up `duration` later; the time advances to the release. A press never starts
    /// within the debounce window of the switch's previous edge.
    mutating func press(_ switchID: SwitchID, for duration: Double) {
        guard let current = session else { return }
        var start = current.time
        if let debounce = current.settings.debounceTime, debounce > 0, let last = lastEdge[switchID] {
            var earliest = last + debounce
            while earliest - last < debounce { earliest = earliest.nextUp }
            start = max(start, earliest)
        }
        send(SwitchEdge(switchID: switchID, kind: .down, time: start))
        send(SwitchEdge(switchID: switchID, kind: .up, time: start + duration))
    }

    mutating func send(_ edge: SwitchEdge) {
        lastEdge[edge.switchID] = edge.time
        guard edge.kind == .down else {
            trace += session!.input(edge)
            return
        }
        // What the display shows when the press lands (timers due before it have fired).
        if edge.time > session!.time { trace += session!.advance(to: edge.time) }
        lineAtLastPress = session!.brailleText
        let messageShown = session!.engine.flashMessage
        let events = session!.input(edge)
        trace += events
        // The rule every test checks (docs/braille-reader.md): a press while a message covers
        // the highlight acts on nothing that is not on the display.
        if let messageShown, unseenAction == nil, let acted = events.first(where: { event in
            switch event.kind {
            case .perform, .highlight: return true
            case .menu(let entries, _): return !entries.isEmpty
            default: return false
            }
        }) {
            unseenAction = "a press at \(ScriptRunner.formatTime(edge.time)) s acted (\(ScriptRunner.describe(acted))) while the display showed the message '\(messageShown)', not what it acted on"
        }
    }

    func compare(_ expected: Expectation, with session: ScanSession) -> [Mismatch] {
        var mismatches = [Mismatch]()
        func check(_ key: String, _ expected: String, _ actual: String) {
            if expected != actual { mismatches.append(Mismatch(key: key, expected: expected, actual: actual)) }
        }
        if let shown = expected.pressedOn {
            check("pressedOn", quote(shown), lineAtLastPress.map(quote) ?? "none (no press yet)")
        }
        if let focus = expected.focus {
            let actual: String
            if let id = session.focusID {
                actual = quote(id)
            } else if session.engine.highlight == .menuButton {
                actual = "none (the scanner menu button is highlighted)"
            } else {
                actual = "none"
            }
            check("focus", quote(focus), actual)
        }
        if let highlight = expected.highlight {
            let actual: Expectation.HighlightKind
            switch session.engine.highlight {
            case .none: actual = .none
            case .menuButton: actual = .menuButton
            case .entry, .groupExit: actual = .item
            }
            let described = session.focusID.map { "item (\(quote($0)))" } ?? actual.rawValue
            if actual != highlight { mismatches.append(Mismatch(key: "highlight", expected: highlight.rawValue, actual: described)) }
        }
        if let member = expected.focusContaining {
            let holds: Bool
            switch session.engine.highlight {
            case .entry(let node), .groupExit(let node):
                holds = ScriptRunner.holds(node, member)
            default: holds = false
            }
            if !holds {
                mismatches.append(Mismatch(
                    key: "focus", expected: "\(quote(member)) or a group holding it", actual: session.focusID.map(quote) ?? "none"))
            }
        }
        if let braille = expected.braille {
            check("braille", quote(braille), quote(session.brailleText))
        }
        if let match = expected.brailleMatch, !match.accepts(session.brailleText) {
            mismatches.append(Mismatch(key: "braille", expected: match.description, actual: quote(session.brailleText)))
        }
        if let menu = expected.menu {
            // `menu: []`: no menu is open (a menu always has at least Exit menu).
            check("menu", menu.isEmpty ? "not open" : list(menu), session.menuTitles.map(list) ?? "not open")
        }
        if let menuFocus = expected.menuFocus {
            check("menuFocus", quote(menuFocus), session.menuFocusTitle.map(quote) ?? "none (no menu is open)")
        }
        if let screen = expected.screen {
            check("screen", quote(screen), quote(session.screen))
        }
        if let state = expected.state {
            let values = session.state
            for (name, value) in state {
                guard let actual = values[name] else {
                    mismatches.append(Mismatch(key: "state.\(name)", expected: show(value), actual: "none"))
                    continue
                }
                if !same(actual, value) {
                    mismatches.append(Mismatch(key: "state.\(name)", expected: show(value), actual: show(actual)))
                }
            }
        }
        if let announcement = expected.announcement {
            check("announcement", quote(announcement), session.lastAnnouncement.map(quote) ?? "none")
        }
        if let match = expected.announcementMatch {
            if let last = session.lastAnnouncement, match.accepts(last) {} else {
                mismatches.append(Mismatch(key: "announcement", expected: match.description, actual: session.lastAnnouncement.map(quote) ?? "none"))
            }
        }
        if expected.rejected != nil || expected.ignored != nil {
            mismatches += compareLastInput(expected)
        }
        if let element = expected.element {
            mismatches += compareElement(element, with: session)
        }
        if let scanning = expected.scanning {
            let actual: Expectation.ScanningStatus = session.isScanning ? .running : .stopped
            check("scanning", scanning.rawValue, actual.rawValue)
        }
        return mismatches
    }

    /// `rejected` and `ignored`: what the trace says of the edges and actions of the last
    /// input step (press, hold, route, key), from its start to now.
    func compareLastInput(_ expected: Expectation) -> [Mismatch] {
        guard let start = lastInputStart, let step = lastInputStep else {
            var mismatches = [Mismatch]()
            if let rejected = expected.rejected, rejected != "none" {
                mismatches.append(Mismatch(key: "rejected", expected: quote(rejected), actual: "none (no press yet)"))
            }
            if let ignored = expected.ignored, ignored != "none" {
                mismatches.append(Mismatch(key: "ignored", expected: "a reason containing \(quote(ignored))", actual: "none (no press yet)"))
            }
            return mismatches
        }
        let events = trace[min(start, trace.count)...]
        var rejections = [String]()
        var ignored = [String]()
        for event in events {
            switch event.kind {
            case let .input(switchID, edge, false, reason): rejections.append("\(switchID) \(edge): \(reason ?? "no reason")")
            case let .ignored(action, reason): ignored.append("\(action): \(reason)")
            default: break
            }
        }
        let reasons = events.compactMap { event -> String? in
            if case let .input(_, _, false, reason) = event.kind { return reason }
            return nil
        }
        var mismatches = [Mismatch]()
        let whose = "of step \(step)"
        if let rejected = expected.rejected {
            if rejected == "none" {
                if !rejections.isEmpty { mismatches.append(Mismatch(key: "rejected", expected: "none", actual: list(rejections) + " " + whose)) }
            } else if !reasons.contains(rejected) {
                mismatches.append(Mismatch(
                    key: "rejected", expected: quote(rejected),
                    actual: (rejections.isEmpty ? "none (every edge \(whose) was accepted)" : list(rejections) + " " + whose)))
            }
        }
        if let text = expected.ignored {
            if text == "none" {
                if !ignored.isEmpty { mismatches.append(Mismatch(key: "ignored", expected: "none", actual: list(ignored) + " " + whose)) }
            } else if !ignored.contains(where: { $0.range(of: text, options: .caseInsensitive) != nil }) {
                mismatches.append(Mismatch(
                    key: "ignored", expected: "a reason containing \(quote(text))",
                    actual: ignored.isEmpty ? "none (every action \(whose) acted)" : list(ignored) + " " + whose))
            }
        }
        return mismatches
    }

    /// `element:` attributes, of the element resolved with the current state (or the
    /// highlighted item when no id is given).
    func compareElement(_ expected: ElementExpectation, with session: ScanSession) -> [Mismatch] {
        let element: Element
        if let id = expected.id {
            guard let found = session.currentElement(id) else {
                return [Mismatch(key: "element", expected: quote(id), actual: "not on the screen '\(session.screen)' (or not present)")]
            }
            element = found
        } else {
            guard case .entry(let node) = session.engine.highlight, !node.isGroup else {
                return [Mismatch(key: "element", expected: "a highlighted item (no id given)", actual: session.focusID.map { "the group \(quote($0))" } ?? "nothing highlighted")]
            }
            element = node.element
        }
        let prefix = "element \(element.id)."
        var mismatches = [Mismatch]()
        func check(_ key: String, _ expected: String?, _ actual: String?) {
            guard let expected, expected != actual else { return }
            mismatches.append(Mismatch(key: prefix + key, expected: quote(expected), actual: actual.map(quote) ?? "none"))
        }
        check("label", expected.label, element.label)
        check("value", expected.value, element.value)
        check("hint", expected.hint, element.hint)
        check("language", expected.language, element.language)
        if let traits = expected.traits, traits != element.traits {
            mismatches.append(Mismatch(key: prefix + "traits", expected: traitList(traits), actual: traitList(element.traits)))
        }
        if let frame = expected.frame {
            let actual = element.resolvedFrame
            if actual.map({ !close($0, frame) }) ?? true {
                mismatches.append(Mismatch(key: prefix + "frame", expected: describe(frame), actual: actual.map(describe) ?? "none"))
            }
        }
        if let point = expected.activationPoint {
            let actual = element.resolvedActivationPoint
            if actual.map({ abs($0.x - point.x) > 1e-9 || abs($0.y - point.y) > 1e-9 }) ?? true {
                mismatches.append(Mismatch(key: prefix + "activationPoint", expected: describe(point), actual: actual.map(describe) ?? "none"))
            }
        }
        return mismatches
    }

    func close(_ a: Rect, _ b: Rect) -> Bool {
        [a.x - b.x, a.y - b.y, a.width - b.width, a.height - b.height].allSatisfy { abs($0) <= 1e-9 }
    }

    func describe(_ rect: Rect) -> String {
        "[" + [rect.x, rect.y, rect.width, rect.height].map(formatPoints).joined(separator: ", ") + "]"
    }

    func describe(_ point: Point) -> String { "[\(formatPoints(point.x)), \(formatPoints(point.y))]" }

    func traitList(_ traits: Traits) -> String { "[" + traits.names.joined(separator: ", ") + "]" }

    /// State values compare exactly, but numbers within 1e-9 (sums of steps such as 0.1).
    func same(_ a: StateValue, _ b: StateValue) -> Bool {
        if case .number(let x) = a, case .number(let y) = b { return abs(x - y) <= 1e-9 * max(1, abs(x), abs(y)) }
        return a == b
    }

    func show(_ value: StateValue) -> String {
        if case .string(let text) = value { return quote(text) }
        return value.description
    }

    func quote(_ text: String) -> String { "'\(text)'" }

    func list(_ items: [String]) -> String { "[" + items.map(quote).joined(separator: ", ") + "]" }
}

extension TestStep {
    /// The step's kind as written in the file.
    public var kindName: String {
        switch kind {
        case .press: return "press"
        case .hold: return "hold"
        case .wait: return "wait"
        case .route: return "route"
        case .type: return "type"
        case .key: return "key"
        case .app: return "app"
        case .expect: return "expect"
        }
    }
}

// MARK: - Trace lines

extension ScriptRunner {
    /// True when `node` is `id` or holds it (an item or a group, at any depth).
    static func holds(_ node: ScanNode, _ id: ElementID) -> Bool {
        node.id == id || node.children.contains { holds($0, id) }
    }

    /// The virtual switch of a long press: `select/long-menu`, bound to `select` with the
    /// long-press action `menu` (never a profile switch's id: those have no `/`).
    public static func longPressSwitch(_ action: SwitchAction, _ long: SwitchAction) -> SwitchID {
        "\(action.rawValue)/long-\(long.rawValue)"
    }

    /// An effect as a trace line shows it: `set price=5`, `post layoutChanged focus buy`.
    static func describe(_ effect: Effect) -> String {
        switch effect {
        case .set(let values): return "set " + values.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        case .toggle(let name): return "toggle \(name)"
        case .add(let name, let amount, _, _): return "add \(name) \(formatPoints(amount))"
        case .go(let screen): return "go \(screen)"
        case .announce(let text): return "announce '\(text)'"
        case .post(let notification):
            return "post \(notification.kind.rawValue)" + (notification.focus.map { " focus \($0)" } ?? "")
                + (notification.technology.map { " technology \($0.rawValue)" } ?? "")
                + (notification.text.map { " '\($0)'" } ?? "")
        }
    }

    /// One trace event as a line: the time in seconds (3 decimals), then what happened.
    /// `0.000 screen main`, `1.000 highlight test-2 "Test 2"`, `1.050 input select down`,
    /// `1.075 input select down rejected (bounce)`, `2.000 menu ['Tap', 'Exit menu'] focus 'Tap'`,
    /// `2.100 perform activate on test-2`, `2.100 braille 'Test 2 btn'`.
    public static func describe(_ event: TraceEvent) -> String {
        let what: String
        switch event.kind {
        case let .input(switchID, edge, accepted, reason):
            what = "input \(switchID) \(edge)" + (accepted ? "" : " rejected (\(reason ?? "no reason"))")
        case let .highlight(id, label):
            if let id {
                what = "highlight \(id)" + (label.map { " \"\($0)\"" } ?? "")
            } else {
                what = "highlight none"
            }
        case let .menu(entries, focus):
            if entries.isEmpty {
                what = "menu closed"
            } else {
                let focused = focus.flatMap { entries.indices.contains($0) ? " focus '\(entries[$0])'" : nil } ?? ""
                what = "menu [" + entries.map { "'\($0)'" }.joined(separator: ", ") + "]" + focused
            }
        case let .perform(id, action):
            what = "perform \(action) on \(id ?? "the screen")"
        case .screen(let name):
            what = "screen \(name)"
        case .announcement(let text):
            what = "announcement '\(text)'"
        case .braille(let text):
            what = "braille '\(text)'"
        case let .ignored(action, reason):
            what = "ignored \(action): \(reason)"
        case .scanning(let running):
            what = "scanning \(running ? "running" : "stopped")"
        case .status(let text):
            what = "status \(text)"
        case let .timer(name, switchID):
            what = "timer \(name)" + (switchID.map { " (\($0))" } ?? "")
        case let .action(action, phase, switchID):
            what = "\(phase) \(action) (\(switchID))"
        }
        return "\(formatTime(event.time)) \(what)"
    }

    /// Seconds with three decimals: `1.050`.
    static func formatTime(_ seconds: Double) -> String {
        let scaled = (seconds * 1000).rounded()
        guard let milliseconds = Int64(exactly: scaled) else { return String(seconds) }
        let sign = milliseconds < 0 ? "-" : ""
        let whole = abs(milliseconds) / 1000, fraction = abs(milliseconds) % 1000
        let digits = String(fraction)
        return "\(sign)\(whole).\(String(repeating: "0", count: 3 - digits.count))\(digits)"
    }
}
