import AccessibilityModel
import BrailleFormatting
import SwitchInput

/// What a `ScanSession` tells its host, in order, each dated: what the user is shown (the
/// highlight, the menu, the braille line and its language, announcements, the scanner running),
/// what the run must know (a command performed, a new screen, a status), and what the trace
/// records (inputs, switch actions, timers). Every output — the braille display, the terminal
/// view, the highlight, speech, the trace — reads this one stream; `traceEvent` is its trace line.
public struct SessionOutput: Sendable {
    public enum Kind: Sendable {
        /// A switch edge; `rejection` says why the stabilisation did not take it.
        case input(switchID: SwitchID, edge: SwitchEdge.Kind, rejection: String?)
        /// The stabilisation began or ended a switch action.
        case action(SwitchAction, began: Bool, switchID: SwitchID)
        /// A timer fired (the engine's or the stabilisation's, by name).
        case timer(name: String, switchID: SwitchID?)
        /// The highlight moved (`.none`: hidden).
        case highlight(Highlight)
        /// The scanner menu is open on `entries[focus]`, for `item` (nil: the screen).
        case menu(entries: [MenuEntry], focus: Int, item: Element?)
        case menuClosed
        /// A command for the content to carry out on an element (nil: on the screen). It ends
        /// the session's answer: the host hands it over and the content's answer back
        /// (`SessionDriver`).
        case perform(ElementCommand, element: Element?)
        /// The content shows another screen.
        case screen(name: String)
        /// A message for the user (an announcement, a page scrolled, a summary, "Not enabled").
        case announcement(String)
        /// The line to show changed; `language` chooses the braille table (and a voice).
        /// `textChanged`: its text differs from the last line's (only then is it traced; the
        /// segments alone may change).
        case line(BrailleLine, language: String?, textChanged: Bool)
        /// A switch action the scanner did not act on, and why.
        case ignored(SwitchAction, reason: String)
        /// Scanning started or stopped.
        case scanning(running: Bool)
        /// Something the user should know about the session itself (a late timer, focus hooks,
        /// the reader's panning holding scanning).
        case status(String)
    }

    public var time: Double
    public var kind: Kind

    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// The trace line of this output (nil: a line whose text is unchanged is not traced).
    /// (Inlined into `traceEvents`: called, it was handed a copy of the whole output each time,
    /// and made a second one.)
    @inline(__always)
    public var traceEvent: TraceEvent? {
        let traced: TraceEvent.Kind
        switch kind {
        case let .input(switchID, edge, rejection):
            traced = .input(switchID: switchID, edge: Self.name(of: edge), accepted: rejection == nil, reason: rejection)
        case let .action(action, began, switchID):
            traced = .action(action: action.rawValue, phase: began ? "began" : "ended", switchID: switchID)
        case let .timer(name, switchID):
            traced = .timer(name: name, switchID: switchID)
        case .highlight(let highlight):
            let element = highlight.element
            traced = .highlight(id: element?.id, label: element?.label)
        case let .menu(entries, focus, _):
            traced = .menu(entries: entries.map(\.title), focus: focus)
        case .menuClosed:
            traced = .menu(entries: [], focus: nil)
        case let .perform(command, element):
            traced = .perform(id: element?.id, action: command.description)
        case .screen(let name):
            traced = .screen(name: name)
        case .announcement(let text):
            traced = .announcement(text: text)
        case let .line(line, _, textChanged):
            guard textChanged else { return nil }
            traced = .braille(text: line.text)
        case let .ignored(action, reason):
            traced = .ignored(action: action.rawValue, reason: reason)
        case .scanning(let running):
            traced = .scanning(running: running)
        case .status(let text):
            traced = .status(text: text)
        }
        return TraceEvent(time: time, kind: traced)
    }

    /// An edge's name in the trace.
    static func name(of edge: SwitchEdge.Kind) -> String {
        switch edge {
        case .down: "down"
        case .up: "up"
        case .repeat: "repeat"
        }
    }
}

extension Highlight {
    /// The element the highlight shows: an entry's (an item's, or a group's), or the group's
    /// left by a group exit; nil for the menu button and no highlight.
    public var element: Element? {
        switch self {
        case .entry(let node), .groupExit(let node): node.element
        case .none, .menuButton: nil
        }
    }
}

extension Array where Element == SessionOutput {
    /// The trace lines of these outputs, in order.
    public var traceEvents: [TraceEvent] {
        // Room for every output at once (nearly all are traced): growing the array one line at
        // a time cost about as much as the lines themselves, on every switch edge.
        var events = [TraceEvent]()
        events.reserveCapacity(count)
        for index in indices {
            if let event = self[index].traceEvent { events.append(event) }
        }
        return events
    }
}

/// What happens to a session: each of `ScanSession.handle`'s inputs.
public enum SessionEvent: Sendable {
    /// Show the start screen.
    case start
    /// A switch edge from any source (a device, a recording, a scripted test).
    case edge(SwitchEdge)
    /// Time passes to this moment, firing the timers due (`lateness`: see `ScanSession.advance`).
    case time(Double, lateness: Double?)
    /// The braille reader panned away from the line's first window, or back to it.
    case readerPanned(away: Bool, at: Double)
    /// The switch device is gone: every switch that was down is released.
    case switchesLost
    /// The content changed by itself (a live application's window, dialog or labels).
    case contentChanged(ContentUpdate)
    /// New settings from now on. (Indirect: settings are large, and every event would
    /// otherwise be as large as they are to copy.)
    indirect case settings(ScanSettings)
    /// Speech is on and heard (`true`), or off or gone: auditory scanning's rule (`SpeechHold`)
    /// applies only while speech is heard.
    case speechHolds(Bool, at: Double)
    /// The speech of line `utterance` (`ScanSession.speechUtterance` when it was said) began.
    case speechBegan(utterance: Int, at: Double)
    /// The speech of line `utterance` ended, or was cancelled: a step held for it is taken.
    case speechEnded(utterance: Int, at: Double)
    /// The content's answer to `ScanSession.pendingPerform`: what changed (nil: nothing handles
    /// the command). `SessionDriver.step` gives it.
    case performed(ContentUpdate?)
    /// The content's answer to `ScanSession.pendingHighlightMoves`: the focus hooks that ran
    /// and what they changed (nil: the content has none). `SessionDriver.step` gives it.
    case focusHooksRan(FocusHooksAnswer?)
}

/// What a session waits for the content to answer.
public enum ContentRequest: Sendable {
    /// A command to carry out (the `.perform` output that ended the session's answer).
    case perform(PerformRequest)
    /// The highlight moved between items: the content runs its focus hooks (`round`: how many
    /// rounds of hooks this change has asked for, with this one).
    case highlightMoved([HighlightMove], round: Int)
}

/// The focus hooks a content ran for highlight moves, by name, and what they changed.
public struct FocusHooksAnswer: Sendable {
    public var ran: [String]
    public var update: ContentUpdate

    public init(ran: [String], update: ContentUpdate) {
        self.ran = ran
        self.update = update
    }
}

/// A command the session asks the host to hand to the content (the `.perform` output that
/// ended its answer), waiting for the answer (`SessionEvent.performed`).
public struct PerformRequest: Sendable {
    public var command: ElementCommand
    /// The element it acts on (nil: the screen).
    public var element: Element?
    /// How deep in the engine's actions the session stopped (it goes on there).
    var depth: Int
}
