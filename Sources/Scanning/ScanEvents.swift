import AccessibilityModel
import SwitchInput

/// What the scanner walks for one screen: the scan structure (after automatic grouping when it
/// is on) and what the screen offers beyond its items.
public struct ScanStructure: Hashable, Sendable {
    public var nodes: [ScanNode]
    /// Items for which an escape is handled (by the item, an ancestor, or the screen).
    public var escapable: Set<ElementID>
    /// The screen itself handles escape (offered in the menu reached at the end of a cycle).
    public var screenHandlesEscape: Bool
    /// Items for which a magic tap is handled (by the item or an ancestor; the screen's own
    /// handler is `screenHandlesMagicTap`).
    public var magicTappable: Set<ElementID>
    public var screenHandlesMagicTap: Bool
    /// The other windows the content can make the screen (a live desktop's other applications
    /// and windows, as iOS's app switcher); offered in every scanner menu. None for a scene.
    public var switchTargets: [SwitchTarget]
    /// What the content itself offers in every scanner menu, before the app switcher (a live
    /// desktop's Links, Scroll down, Start a program, Close window). None for a scene.
    public var contentCommands: [ContentCommand] = []
    /// Keys (`keyboardKey` items) are typed on their select, with no scanner menu between, as
    /// iOS's "Always Tap Keyboard Keys": true on the scanning keyboard.
    public var tapsKeysOnSelect = false

    public init(
        nodes: [ScanNode], escapable: Set<ElementID> = [], screenHandlesEscape: Bool = false,
        magicTappable: Set<ElementID> = [], screenHandlesMagicTap: Bool = false, switchTargets: [SwitchTarget] = []
    ) {
        self.nodes = nodes
        self.escapable = escapable
        self.screenHandlesEscape = screenHandlesEscape
        self.magicTappable = magicTappable
        self.screenHandlesMagicTap = screenHandlesMagicTap
        self.switchTargets = switchTargets
    }
}

/// A window the scanner can switch to: what identifies it to the content, and what the menu
/// says (its title and its application's name).
public struct SwitchTarget: Hashable, Sendable {
    public var id: String
    public var title: String
    public var application: String

    public init(id: String, title: String, application: String) {
        self.id = id
        self.title = title
        self.application = application
    }

    /// `Demo (qt5_demo)`: windows of different applications often share a title.
    public var name: String { application.isEmpty ? title : "\(title) (\(application))" }
}

/// A scanner menu entry the content offers of its own (not an element's action): what
/// identifies it to the content, and the entry's title.
public struct ContentCommand: Hashable, Sendable {
    public var id: String
    public var title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

/// Why the structure changed, as the scene's notifications say.
public enum StructureChange: Hashable, Sendable {
    /// The first screen.
    case initial
    /// `screenChanged`: start again, at `focus` if given.
    case screenChanged(focus: ElementID?)
    /// `layoutChanged`: move the highlight to `focus` if given and an item, else keep it on the
    /// same element if it still exists.
    case layoutChanged(focus: ElementID?)
    /// An action changed the scene without a notification (labels, values, traits may differ):
    /// the highlight stays on the same element.
    case refreshed
}

/// The engine's timers. At most one of each kind is pending.
public enum ScanTimer: String, Hashable, Sendable, CaseIterable {
    /// Auto scanning: move to the next entry.
    case advance
    /// `autoTap`: no second select came; tap.
    case autoTap
    /// `singleSwitchStep`: the user stayed still; select.
    case dwell
    /// A flash message's time is over.
    case flash
    /// `moveRepeat`: the move switch is still held; move again.
    case moveRepeat
}

/// What the engine is told.
public enum ScanEvent: Hashable, Sendable {
    case structureChanged(ScanStructure, StructureChange, time: Double)
    /// A switch action began (after stabilisation).
    case began(SwitchAction, time: Double)
    /// The switch carrying an action was released.
    case ended(SwitchAction, time: Double)
    case timerFired(ScanTimer, time: Double)
    /// An announcement or a page-scrolled message to flash.
    case message(String, time: Double)
    /// The braille reader panned the display away from the line's first window (`away`), or
    /// back to it: scanning holds while the reader reads the rest of the line.
    case readerPanned(away: Bool, time: Double)
    /// The app paused Switch Control (`pauseAssistiveTechnology`), or resumed it (`false`).
    case appPaused(Bool, time: Double)
    /// Speech is on and heard (`true`), or off or gone: whether `SpeechHold`'s rule applies.
    case speechHold(Bool, time: Double)
    /// The speech of line `utterance` (`SpeechHold.utterance`) began.
    case speechBegan(utterance: Int, time: Double)
    /// The speech of line `utterance` ended, or was cancelled.
    case speechEnded(utterance: Int, time: Double)

    public var time: Double {
        switch self {
        case .structureChanged(_, _, let time), .began(_, let time), .ended(_, let time),
            .timerFired(_, let time), .message(_, let time), .readerPanned(_, let time), .appPaused(_, let time),
            .speechHold(_, let time), .speechBegan(_, let time), .speechEnded(_, let time):
            return time
        }
    }
}

/// What to do to an element (the session runs the scene's effects).
public enum ElementCommand: Hashable, Sendable, CustomStringConvertible {
    case activate
    case increment
    case decrement
    case customAction(String)
    case escape
    case magicTap
    /// Make another window the screen (the scanner menu's app switcher).
    case switchTo(SwitchTarget)
    /// One of the content's own menu entries (`ScanStructure.contentCommands`).
    case content(ContentCommand)

    public var description: String {
        switch self {
        case .activate: return "activate"
        case .increment: return "increment"
        case .decrement: return "decrement"
        case .customAction(let name): return "customAction:\(name)"
        case .escape: return "escape"
        case .magicTap: return "magicTap"
        case .switchTo(let target): return "switchTo:\(target.id)"
        case .content(let command): return "content:\(command.id)"
        }
    }
}

/// What is highlighted.
public enum Highlight: Hashable, Sendable {
    /// Nothing: scanning stopped after its loops, or the screen has no item.
    case none
    /// An item, or a group (selecting enters it).
    case entry(ScanNode)
    /// A group's outline after its last child: selecting leaves the group.
    case groupExit(ScanNode)
    /// `alwaysTap`: the scanner menu button at the end of a cycle.
    case menuButton

    /// The id a test's `focus` names: the item's or the group's.
    public var focusID: ElementID? {
        switch self {
        case .entry(let node), .groupExit(let node): return node.id
        case .none, .menuButton: return nil
        }
    }
}

/// One entry of the scanner menu.
public struct MenuEntry: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case perform(ElementCommand)
        /// Shows the element's custom content.
        case moreContent
        case exit
    }

    public var title: String
    public var kind: Kind

    public init(title: String, kind: Kind) {
        self.title = title
        self.kind = kind
    }
}

/// What the engine asks for. Timers are actions: the host schedules them and reports firings.
public enum ScanAction: Hashable, Sendable {
    case highlight(Highlight)
    /// The menu opened, or its focus moved.
    case menu(entries: [MenuEntry], focus: Int)
    case menuClosed
    /// Run the element's behaviour; `element` is nil for the screen (escape, magic tap).
    /// The host then always reports back with `structureChanged` (`.refreshed` when nothing
    /// changed): the engine waits for it to place the highlight and restart its timer.
    case perform(ElementCommand, element: Element?)
    /// Show a message instead of the highlight until `until`.
    case flash(String, until: Double)
    case flashEnded
    case schedule(ScanTimer, at: Double)
    case cancel(ScanTimer)
    /// Scanning stopped (after its loops, or by the stop switch) or resumed.
    case scanning(running: Bool)
    /// A switch action that had no effect, and why (visible in the trace).
    case ignored(SwitchAction, reason: String)
}

extension ScanAction {
    var isIgnored: Bool {
        if case .ignored = self { return true }
        return false
    }
}
