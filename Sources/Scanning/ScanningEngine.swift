import AccessibilityModel
import SwitchInput

/// Switch Control's item mode as a sans-IO state machine.
///
/// It is told what happens (switch actions that began or ended, timers that fired, the scan
/// structure changing, messages to flash), each with its time, and returns what to do:
/// highlight, open or move the menu, perform a command on an element, flash a message, schedule
/// or cancel a timer. It never reads a clock and never sleeps, so scripted tests drive it in
/// virtual time and the runtime with the monotonic clock, through the same code.
///
/// Walking: a level is a list of entries (items and groups). In a group, after the last child
/// the group's outline is highlighted (`Highlight.groupExit`): selecting it leaves the group.
/// At the top level with `alwaysTap`, the menu button takes that place. A full pass over a level
/// is a cycle; after `loops` steps without a selection a group is left, the menu closes, and at
/// the top level scanning stops with the highlight hidden (any switch then starts again).
public struct ScanningEngine: Sendable {
    public private(set) var settings: ScanSettings

    /// One level of the walk: the entries, where the highlight is, how many steps passed.
    struct Level: Hashable, Sendable {
        var entries: [ScanNode]
        /// nil at the top level.
        var group: ScanNode?
        /// `entries.count` means the terminal position: the group's exit, or the menu button.
        var index: Int
        /// Steps since the level was entered or something was selected: `loops` full cycles are
        /// `loops` × the number of positions.
        var steps: Int
    }

    struct MenuState: Hashable, Sendable {
        /// nil for the screen's menu (reached from the menu button).
        var item: Element?
        var entries: [MenuEntry]
        var index: Int
        var steps: Int
    }

    enum Phase: Hashable, Sendable {
        /// No structure yet, or a screen without items.
        case empty
        case scanning
        /// The loops ran out: highlight hidden; any switch starts again.
        case stopped
        /// The stop switch paused scanning: highlight kept, no timer.
        case paused
        case menu(MenuState)
        /// `autoTap`: a select on an item waits for a second one.
        case autoTapPending(Element)
    }

    private var structure = ScanStructure(nodes: [])
    /// Counts the structures handed in (`structureChanged`): what was made for one structure's
    /// entries (a braille line made ahead) holds while this stays the same.
    public private(set) var structureVersion = 0
    private var levels: [Level] = []
    private var phase: Phase = .empty
    private var highlightTime = 0.0
    private var flashText: String?
    /// The reader panned away from the line's first window: scanning holds until they are back.
    private var readerAway = false
    /// The app paused Switch Control: no step, no action, until it resumes it.
    public private(set) var isPausedByApp = false
    private var flashQueue: [String] = []
    /// When the message shown was posted (queued ones keep their turn from then).
    private var flashStart = -Double.infinity
    /// After a tap, where the highlight goes when the scene reports back.
    private var pendingFocusAfterTap: ScanSettings.FocusAfterTap?
    private var heldMove: SwitchAction?
    /// Auditory scanning's rule: steps wait for speech, presses for it to begin.
    public private(set) var speech = SpeechHold()

    public init(settings: ScanSettings) {
        self.settings = settings
    }

    /// The moments at which the answer to a switch action may change with its time alone: the
    /// end of `minimumDisplayTime` after the highlight moved, and the instant a message was
    /// posted (a second message at that instant queues; later, it replaces). The rest of what
    /// the engine does with an action's time is scheduling its timers (`ScanSession.forecast`).
    public var actionTimeBoundaries: [Double] {
        var boundaries = [flashStart]
        if let minimum = settings.minimumDisplayTime { boundaries.append(highlightTime + minimum) }
        return boundaries
    }

    // MARK: State, for outputs and tests

    public var highlight: Highlight {
        switch phase {
        case .empty, .stopped: return .none
        default: return currentHighlight
        }
    }

    /// The open menu's entries and focused index.
    public var menu: (entries: [MenuEntry], focus: Int)? {
        if case .menu(let state) = phase { return (state.entries, state.index) }
        return nil
    }

    /// The element the menu was opened for.
    public var menuItem: Element? {
        if case .menu(let state) = phase { return state.item }
        return nil
    }

    /// No structure yet, or a screen without items.
    public var isEmpty: Bool { phase == .empty }

    public var isRunning: Bool {
        switch phase {
        case .stopped, .paused, .empty: return false
        default: return !isPausedByApp
        }
    }

    /// The stop switch paused scanning (the highlight stays; the stop switch resumes it).
    public var isPaused: Bool { phase == .paused }

    public var flashMessage: String? { flashText }

    // MARK: Events

    public mutating func handle(_ event: ScanEvent) -> [ScanAction] {
        switch event {
        case let .structureChanged(structure, change, time): return structureChanged(structure, change, at: time)
        case let .began(action, time): return began(action, at: time)
        case let .ended(action, time): return ended(action, at: time)
        case let .timerFired(timer, time): return timerFired(timer, at: time)
        case let .message(text, time): return flash(text, at: time)
        case let .readerPanned(away, time): return readerPanned(away: away, at: time)
        case let .appPaused(paused, time): return appPaused(paused, at: time)
        case let .speechHold(on, time): return speechHold(on, at: time)
        case let .speechBegan(utterance, _): return speechBegan(utterance)
        case let .speechEnded(utterance, time): return speechEnded(utterance, at: time)
        }
    }

    // MARK: Switch actions

    private mutating func began(_ action: SwitchAction, at time: Double) -> [ScanAction] {
        // What the display shows is what a press acts on: a message covers the highlight, so a
        // press first takes the message away (as a display key dismisses a screen reader's
        // message) and acts on nothing else.
        if flashText != nil { return dismissFlash(action, at: time) }
        if isPausedByApp {
            return [.ignored(action, reason: "scanning is paused by the app (pauseAssistiveTechnology; the app's resumeAssistiveTechnology resumes it)")]
        }
        switch phase {
        case .empty:
            return [.ignored(action, reason: "the screen has no item to scan")]
        case .stopped:
            // Any switch starts scanning again, from the first entry; the press does nothing else.
            return restart(at: time)
        case .paused:
            if action == .stop { return resume(at: time) }
            return [.ignored(action, reason: "scanning is paused (the stop switch resumes it)")]
        case .menu(var menu):
            return menuAction(action, &menu, at: time)
        case .autoTapPending(let item):
            if action == .select {
                // A second select within autoTapTime opens the menu.
                var actions: [ScanAction] = [.cancel(.autoTap)]
                actions += openMenu(for: item, at: time)
                return actions
            }
            phase = .scanning
            var actions: [ScanAction] = [.cancel(.autoTap)]
            actions += began(action, at: time)
            return actions
        case .scanning:
            let actions = scanningAction(action, at: time)
            if action == .select || action == .tap, !actions.contains(where: \.isIgnored) {
                // Loops count steps without a selection: a selection starts the count again.
                for index in levels.indices { levels[index].steps = 0 }
            }
            return actions
        }
    }

    private mutating func ended(_ action: SwitchAction, at time: Double) -> [ScanAction] {
        guard heldMove == action else { return [] }
        heldMove = nil
        return [.cancel(.moveRepeat)]
    }

    private mutating func scanningAction(_ action: SwitchAction, at time: Double) -> [ScanAction] {
        switch action {
        case .select:
            if let ignored = tooSoon(action, at: time) { return [ignored] }
            if settings.scanning == .singleSwitchStep { return move(by: 1, byUser: true, at: time) }
            return select(at: time)
        case .next, .previous:
            var actions = move(by: action == .next ? 1 : -1, byUser: true, at: time)
            if let interval = settings.moveRepeat {
                heldMove = action
                actions.append(.schedule(.moveRepeat, at: time + interval))
            }
            return actions
        case .tap:
            if let ignored = tooSoon(action, at: time) { return [ignored] }
            switch currentHighlight {
            case .entry(let node) where !node.isGroup: return tap(node.element, at: time)
            case .entry, .groupExit, .menuButton: return select(at: time)
            case .none: return [.ignored(action, reason: "nothing is highlighted")]
            }
        case .menu:
            switch currentHighlight {
            case .entry(let node) where !node.isGroup: return openMenu(for: node.element, at: time)
            default: return openMenu(for: nil, at: time)
            }
        case .escape:
            return escape(at: time)
        case .stop:
            return pause(at: time)
        }
    }

    /// `minimumDisplayTime`: a press that comes before the user can have perceived the
    /// highlight is ignored.
    private func tooSoon(_ action: SwitchAction, at time: Double) -> ScanAction? {
        if speech.holdsPress {
            return .ignored(action, reason: "pressed before the speech of what is highlighted began (speech holds presses until it is heard)")
        }
        guard let minimum = settings.minimumDisplayTime, time - highlightTime < minimum else { return nil }
        return .ignored(action, reason: "pressed \(formatSeconds(time - highlightTime)) after the highlight moved, under minimumDisplayTime \(formatSeconds(minimum))")
    }

    private mutating func select(at time: Double) -> [ScanAction] {
        switch currentHighlight {
        case .none:
            return [.ignored(.select, reason: "nothing is highlighted")]
        case .menuButton:
            return openMenu(for: nil, at: time)
        case .groupExit:
            return leaveGroup(at: time)
        case .entry(let node):
            if node.isGroup { return enter(node, at: time) }
            if structure.tapsKeysOnSelect, node.element.traits.contains(.keyboardKey) { return tap(node.element, at: time) }
            switch settings.tapBehavior {
            case .default:
                return openMenu(for: node.element, at: time)
            case .alwaysTap:
                return tap(node.element, at: time)
            case .autoTap:
                phase = .autoTapPending(node.element)
                return [.cancel(.advance), .schedule(.autoTap, at: time + settings.autoTapTime)]
            }
        }
    }

    private mutating func tap(_ element: Element, at time: Double) -> [ScanAction] {
        phase = .scanning
        if element.traits.contains(.notEnabled) {
            // Told on the display, and in the trace as an action that had no effect.
            var actions: [ScanAction] = [.ignored(.select, reason: "not enabled: '\(element.label ?? element.id)' has the notEnabled trait")]
            actions += flash("Not enabled", at: time)
            actions += restartTimer(at: time)
            return actions
        }
        pendingFocusAfterTap = settings.focusedItemAfterTap
        var actions: [ScanAction] = [.cancel(.advance)]
        actions.append(.perform(.activate, element: element))
        return actions
    }

    private mutating func escape(at time: Double) -> [ScanAction] {
        if case .entry(let node) = currentHighlight, !node.isGroup, structure.escapable.contains(node.id) {
            return [.perform(.escape, element: node.element)]
        }
        if structure.screenHandlesEscape { return [.perform(.escape, element: nil)] }
        // Inside a group, escape leaves it, as on iOS.
        if levels.count > 1 { return leaveGroup(at: time) }
        return [.ignored(.escape, reason: "nothing here handles escape")]
    }

    private mutating func pause(at time: Double) -> [ScanAction] {
        phase = .paused
        return [.cancel(.advance), .cancel(.dwell), .scanning(running: false)]
    }

    private mutating func resume(at time: Double) -> [ScanAction] {
        phase = .scanning
        var actions: [ScanAction] = [.scanning(running: true), .highlight(currentHighlight)]
        actions += restartTimer(at: time)
        return actions
    }

    private mutating func restart(at time: Double) -> [ScanAction] {
        levels = [Level(entries: structure.nodes, group: nil, index: 0, steps: 0)]
        phase = .scanning
        var actions: [ScanAction] = [.scanning(running: true)]
        actions += highlightCurrent(at: time)
        return actions
    }

    // MARK: Moving

    /// `byUser`: the user's own next, previous (also held) or single-switch step, which starts the
    /// loops count again as a selection does; only the scanner's own steps run the loops out.
    private mutating func move(by step: Int, byUser: Bool = false, at time: Double) -> [ScanAction] {
        guard var level = levels.last else { return [] }
        let positions = positionCount(of: level)
        guard positions > 0 else { return [] }
        var next = level.index + step
        var actions = [ScanAction]()
        level.steps = byUser ? 0 : level.steps + 1
        if settings.scanning == .auto, level.steps >= positions * settings.loops {
            levels[levels.count - 1] = level
            return loopsExhausted(at: time)
        }
        if next >= positions {
            next = 0
        } else if next < 0 {
            next = positions - 1
        }
        level.index = next
        levels[levels.count - 1] = level
        actions += highlightCurrent(at: time)
        return actions
    }

    /// The number of positions in a level: its entries, plus the group exit or the menu button.
    private func positionCount(of level: Level) -> Int {
        let hasTerminal = level.group != nil || settings.tapBehavior == .alwaysTap
        return level.entries.count + (hasTerminal ? 1 : 0)
    }

    private mutating func loopsExhausted(at time: Double) -> [ScanAction] {
        if levels.count > 1 {
            // In a group: leave it.
            return leaveGroup(at: time)
        }
        phase = .stopped
        return [.cancel(.advance), .cancel(.dwell), .highlight(.none), .scanning(running: false)]
    }

    private mutating func enter(_ group: ScanNode, at time: Double) -> [ScanAction] {
        levels.append(Level(entries: group.children, group: group, index: 0, steps: 0))
        return highlightCurrent(at: time)
    }

    private mutating func leaveGroup(at time: Double) -> [ScanAction] {
        guard levels.count > 1 else { return [] }
        levels.removeLast()
        return highlightCurrent(at: time)
    }

    private var currentHighlight: Highlight {
        guard let level = levels.last else { return .none }
        if level.index < level.entries.count { return .entry(level.entries[level.index]) }
        if let group = level.group { return .groupExit(group) }
        if settings.tapBehavior == .alwaysTap { return .menuButton }
        return .none
    }

    /// The entries the highlight may show next, nearest first, at most `limit`: a group's first
    /// entry (a select enters it), the entries after the highlight on its level (wrapping round
    /// to the level's start), then the one before it. What an output prepares while it is idle
    /// (a braille line made and translated ahead), never what the engine does. Empty while a
    /// menu is open, the scan is stopped or there is nothing to scan.
    public func upcomingEntries(limit: Int) -> [ScanNode] {
        guard limit > 0, let level = levels.last, !level.entries.isEmpty else { return [] }
        switch phase {
        case .scanning, .paused, .autoTapPending: break
        case .empty, .stopped, .menu: return []
        }
        let count = level.entries.count
        var result = [ScanNode]()
        if level.index < count, let first = level.entries[level.index].children.first { result.append(first) }
        // Entry indices forward from the highlight, wrapping; the terminal position (`count`: a
        // group's exit, the menu button) shows no entry and is passed over.
        var taken: Set<Int> = level.index < count ? [level.index] : []
        var index = level.index
        while result.count < limit - 1, taken.count < count {
            index = index + 1 >= count ? 0 : index + 1
            if taken.insert(index).inserted { result.append(level.entries[index]) }
        }
        let before = level.index == 0 || level.index >= count ? count - 1 : level.index - 1
        if result.count < limit, taken.insert(before).inserted { result.append(level.entries[before]) }
        return result
    }

    /// Shows the current highlight and starts its timer.
    private mutating func highlightCurrent(at time: Double) -> [ScanAction] {
        highlightTime = time
        speech.lineShown()
        var actions: [ScanAction] = [.highlight(currentHighlight)]
        actions += restartTimer(at: time)
        return actions
    }

    /// The timer of the current position: auto scanning's step (longer on a level's first entry
    /// with pauseOnFirstItem), or singleSwitchStep's dwell. None while a message covers the
    /// highlight: the step starts when the highlight's line is on the display again.
    private func restartTimer(at time: Double) -> [ScanAction] {
        guard flashText == nil, !readerAway, !isPausedByApp else { return [] }
        switch settings.scanning {
        case .auto:
            var delay = settings.autoScanningTime
            if let pause = settings.pauseOnFirstItem, levels.last?.index == 0 { delay += pause }
            return [.schedule(.advance, at: time + delay)]
        case .singleSwitchStep:
            return [.schedule(.dwell, at: time + settings.dwellTime)]
        case .manual:
            return []
        }
    }

    // MARK: Timers

    private mutating func timerFired(_ timer: ScanTimer, at time: Double) -> [ScanAction] {
        switch timer {
        case .flash:
            guard flashText != nil else { return [] }
            flashText = nil
            if !flashQueue.isEmpty { return show(flashQueue.removeFirst(), at: time) }
            speech.lineShown()
            return [.flashEnded] + lineShownAgain(at: time)
        case .advance:
            // Held under a message or while the reader pans (a host that fires a cancelled
            // timer moves nothing).
            guard flashText == nil, !readerAway, !isPausedByApp else { return [] }
            if speech.holdsStep {
                speech.waitingTimer = .advance
                return []
            }
            switch phase {
            case .scanning: return move(by: 1, at: time)
            case .menu(var menu): return moveMenu(&menu, by: 1, at: time)
            default: return []
            }
        case .dwell:
            guard flashText == nil, !readerAway, !isPausedByApp else { return [] }
            if speech.holdsStep {
                speech.waitingTimer = .dwell
                return []
            }
            switch phase {
            case .scanning: return select(at: time)
            case .menu(var menu): return selectMenuEntry(&menu, at: time)
            default: return []
            }
        case .autoTap:
            guard case .autoTapPending(let item) = phase else { return [] }
            return tap(item, at: time)
        case .moveRepeat:
            guard let held = heldMove, let interval = settings.moveRepeat else { return [] }
            var actions: [ScanAction]
            switch phase {
            case .scanning: actions = move(by: held == .next ? 1 : -1, byUser: true, at: time)
            case .menu(var menu): actions = moveMenu(&menu, by: held == .next ? 1 : -1, byUser: true, at: time)
            default: return []
            }
            actions.append(.schedule(.moveRepeat, at: time + interval))
            return actions
        }
    }

    // MARK: The scanner menu

    /// The menu for an item (Tap; Increment/Decrement for adjustable elements; custom actions by
    /// name; More content; Escape and Magic tap when handled) or, with no item, the screen's menu;
    /// then the other windows to switch to, if the content has any.
    func menuEntries(for item: Element?) -> [MenuEntry] {
        var entries = [MenuEntry]()
        if let item {
            entries.append(MenuEntry(title: "Tap", kind: .perform(.activate)))
            if item.traits.contains(.adjustable) {
                entries.append(MenuEntry(title: "Increment", kind: .perform(.increment)))
                entries.append(MenuEntry(title: "Decrement", kind: .perform(.decrement)))
            }
            for action in item.customActions {
                entries.append(MenuEntry(title: action.name, kind: .perform(.customAction(action.name))))
            }
            // Important content is on the item's own line; More content holds the rest.
            if item.customContent.contains(where: { !$0.isImportant }) {
                entries.append(MenuEntry(title: "More content", kind: .moreContent))
            }
            if structure.escapable.contains(item.id) || structure.screenHandlesEscape {
                entries.append(MenuEntry(title: "Escape", kind: .perform(.escape)))
            }
            // As Escape: the item's own handler, an ancestor's, else the screen's (VoiceOver's
            // two-finger double tap goes to the focused element first, then up to the app).
            if structure.magicTappable.contains(item.id) || structure.screenHandlesMagicTap {
                entries.append(MenuEntry(title: "Magic tap", kind: .perform(.magicTap)))
            }
        } else {
            if structure.screenHandlesEscape { entries.append(MenuEntry(title: "Escape", kind: .perform(.escape))) }
            if structure.screenHandlesMagicTap { entries.append(MenuEntry(title: "Magic tap", kind: .perform(.magicTap))) }
        }
        for command in structure.contentCommands {
            entries.append(MenuEntry(title: command.title, kind: .perform(.content(command))))
        }
        // The app switcher: after what the item and screen offer, so they stay near the top.
        for target in structure.switchTargets {
            entries.append(MenuEntry(title: "Switch to \(target.name)", kind: .perform(.switchTo(target))))
        }
        entries.append(MenuEntry(title: "Exit menu", kind: .exit))
        return entries
    }

    private mutating func openMenu(for item: Element?, at time: Double) -> [ScanAction] {
        let menu = MenuState(item: item, entries: menuEntries(for: item), index: 0, steps: 0)
        phase = .menu(menu)
        highlightTime = time
        speech.lineShown()
        var actions: [ScanAction] = [.cancel(.advance), .cancel(.dwell), .menu(entries: menu.entries, focus: 0)]
        actions += menuTimer(at: time)
        return actions
    }

    private func menuTimer(at time: Double) -> [ScanAction] {
        guard flashText == nil, !readerAway, !isPausedByApp else { return [] }
        switch settings.scanning {
        case .auto: return [.schedule(.advance, at: time + settings.autoScanningTime)]
        case .singleSwitchStep: return [.schedule(.dwell, at: time + settings.dwellTime)]
        case .manual: return []
        }
    }

    private mutating func menuAction(_ action: SwitchAction, _ menu: inout MenuState, at time: Double) -> [ScanAction] {
        switch action {
        case .select:
            if let ignored = tooSoon(action, at: time) { return [ignored] }
            if settings.scanning == .singleSwitchStep { return moveMenu(&menu, by: 1, byUser: true, at: time) }
            return selectMenuEntry(&menu, at: time)
        case .next, .previous:
            var actions = moveMenu(&menu, by: action == .next ? 1 : -1, byUser: true, at: time)
            if let interval = settings.moveRepeat {
                heldMove = action
                actions.append(.schedule(.moveRepeat, at: time + interval))
            }
            return actions
        case .menu, .escape:
            return closeMenu(at: time)
        case .tap:
            if let item = menu.item {
                var actions = closeMenuQuietly()
                actions += tap(item, at: time)
                return actions
            }
            return selectMenuEntry(&menu, at: time)
        case .stop:
            var actions = closeMenuQuietly()
            actions += pause(at: time)
            return actions
        }
    }

    private mutating func moveMenu(_ menu: inout MenuState, by step: Int, byUser: Bool = false, at time: Double) -> [ScanAction] {
        var next = menu.index + step
        menu.steps = byUser ? 0 : menu.steps + 1
        if settings.scanning == .auto, menu.steps >= menu.entries.count * settings.loops { return closeMenu(at: time) }
        if next >= menu.entries.count {
            next = 0
        } else if next < 0 {
            next = menu.entries.count - 1
        }
        menu.index = next
        phase = .menu(menu)
        highlightTime = time
        speech.lineShown()
        var actions: [ScanAction] = [.menu(entries: menu.entries, focus: next)]
        actions += menuTimer(at: time)
        return actions
    }

    private mutating func selectMenuEntry(_ menu: inout MenuState, at time: Double) -> [ScanAction] {
        let entry = menu.entries[menu.index]
        menu.steps = 0
        phase = .menu(menu)
        for index in levels.indices { levels[index].steps = 0 }
        switch entry.kind {
        case .exit:
            return closeMenu(at: time)
        case .moreContent:
            let text = (menu.item?.customContent ?? []).filter { !$0.isImportant }
                .map { "\($0.label): \($0.value)" }.joined(separator: "; ")
            var actions = flash(text, at: time)
            actions += menuTimer(at: time)
            return actions
        case .perform(let command):
            switch command {
            case .increment, .decrement:
                // The menu stays open on the same entry, so repeated steps are cheap.
                var actions: [ScanAction] = [.perform(command, element: menu.item)]
                actions += menuTimer(at: time)
                return actions
            case .activate:
                guard let item = menu.item else { return closeMenu(at: time) }
                var actions = closeMenuQuietly()
                actions += tap(item, at: time)
                return actions
            case .customAction, .escape, .magicTap, .switchTo, .content:
                // The highlight is shown again when the scene reports back (structureChanged).
                var actions = closeMenuQuietly()
                actions.append(.perform(command, element: menu.item))
                return actions
            }
        }
    }

    /// Closes the menu and shows the highlight again.
    private mutating func closeMenu(at time: Double) -> [ScanAction] {
        var actions = closeMenuQuietly()
        actions += highlightCurrent(at: time)
        return actions
    }

    private mutating func closeMenuQuietly() -> [ScanAction] {
        phase = .scanning
        return [.cancel(.advance), .cancel(.dwell), .menuClosed]
    }

    // MARK: Messages

    /// Shows a message for `flashDuration`. Messages posted at the same instant (one behaviour
    /// announcing twice) are shown in turn, so both are read; a later message replaces the one
    /// shown, as screen readers interrupt a stale announcement.
    private mutating func flash(_ text: String, at time: Double) -> [ScanAction] {
        if flashText != nil, time == flashStart {
            flashQueue.append(text)
            return []
        }
        flashQueue.removeAll()
        return show(text, at: time)
    }

    /// A message on the display, for as long as it takes to read (`ScanSettings.flashTime`).
    /// Auto scanning and single-switch dwell hold meanwhile: the highlight under the message is
    /// not on the display, so it must not move, nor be selected by a dwell.
    private mutating func show(_ text: String, at time: Double) -> [ScanAction] {
        flashText = text
        flashStart = time
        let until = time + settings.flashTime(for: text)
        return [.cancel(.advance), .cancel(.dwell), .flash(text, until: until), .schedule(.flash, at: until)]
    }

    /// The reader panned away from the line's first window (its step holds, as under a
    /// message), or came back to it (its step counts from now).
    /// The app's pause keeps the highlight where it is and stops its steps (and any held move);
    /// the resume starts the step again from the highlight, as after a message.
    private mutating func appPaused(_ paused: Bool, at time: Double) -> [ScanAction] {
        guard paused != isPausedByApp else { return [] }
        isPausedByApp = paused
        if paused {
            heldMove = nil
            return [.cancel(.advance), .cancel(.dwell), .cancel(.moveRepeat), .scanning(running: false)]
        }
        var actions: [ScanAction] = [.scanning(running: isRunning)]
        if flashText == nil { actions += lineShownAgain(at: time) }
        return actions
    }

    // MARK: Speech

    /// Speech came or went. Gone, a step waiting for it is taken now: speech that will never come
    /// must not hold the scan.
    private mutating func speechHold(_ on: Bool, at time: Double) -> [ScanAction] {
        guard on != speech.isOn else { return [] }
        speech.isOn = on
        guard !on, let waiting = speech.waitingTimer else { return [] }
        speech.waitingTimer = nil
        return timerFired(waiting, at: time)
    }

    private mutating func speechBegan(_ utterance: Int) -> [ScanAction] {
        guard utterance == speech.utterance, speech.progress == .notBegun else { return [] }
        speech.progress = .speaking
        return []
    }

    /// The line's speech ended: a step that came due meanwhile is taken now.
    private mutating func speechEnded(_ utterance: Int, at time: Double) -> [ScanAction] {
        guard utterance == speech.utterance, speech.progress != .finished else { return [] }
        speech.progress = .finished
        guard let waiting = speech.waitingTimer else { return [] }
        speech.waitingTimer = nil
        return timerFired(waiting, at: time)
    }

    private mutating func readerPanned(away: Bool, at time: Double) -> [ScanAction] {
        guard away != readerAway else { return [] }
        readerAway = away
        if away { return [.cancel(.advance), .cancel(.dwell)] }
        return lineShownAgain(at: time)
    }

    /// A press while a message is shown: the message goes (with any queued after it), the
    /// highlight's line is back, and the press does nothing else.
    private mutating func dismissFlash(_ action: SwitchAction, at time: Double) -> [ScanAction] {
        flashText = nil
        flashQueue.removeAll()
        speech.lineShown()
        var actions: [ScanAction] = [.cancel(.flash), .flashEnded,
                                     .ignored(action, reason: "the press took the message off the display; it acts on nothing else")]
        actions += lineShownAgain(at: time)
        return actions
    }

    /// The highlight's (or the menu entry's) line is on the display again: its step and
    /// `minimumDisplayTime` count from now.
    private mutating func lineShownAgain(at time: Double) -> [ScanAction] {
        switch phase {
        case .scanning:
            highlightTime = time
            return restartTimer(at: time)
        case .menu:
            highlightTime = time
            return menuTimer(at: time)
        default:
            return []
        }
    }

    // MARK: Structure changes

    private mutating func structureChanged(_ new: ScanStructure, _ change: StructureChange, at time: Double) -> [ScanAction] {
        // The old structure's items are needed only when the highlighted element is gone.
        let oldNodes = structure.nodes
        let oldHighlight = currentHighlight
        let oldLevels = levels
        let wasScanning = phase == .scanning
        let focusAfterTap = pendingFocusAfterTap
        pendingFocusAfterTap = nil
        structure = new
        structureVersion &+= 1

        guard !new.nodes.isEmpty else {
            let menuWasOpen: Bool = { if case .menu = phase { return true } else { return false } }()
            levels = []
            phase = .empty
            var actions: [ScanAction] = [.cancel(.advance), .cancel(.dwell), .cancel(.autoTap)]
            if menuWasOpen { actions.append(.menuClosed) }
            actions.append(.highlight(.none))
            return actions
        }
        var actions = [ScanAction]()
        if case .menu = phase {
            // The menu's element may be gone or changed: close it. Increment and decrement keep it
            // open (adjusting is cheap), so a refresh of the same element keeps the menu.
            // A layout change the application made by itself (no element to focus) keeps it too
            // while its element is there: a browser's changes elsewhere on the page must not
            // close the menu the user is choosing in.
            let keepsMenu: Bool = {
                switch change {
                case .refreshed, .layoutChanged(focus: nil): return true
                default: return false
                }
            }()
            if keepsMenu, case .menu(var menu) = phase, let item = menu.item,
               let updated = firstItem(in: new.nodes, where: { $0.id == item.id }) {
                menu.item = updated
                menu.entries = menuEntries(for: updated)
                menu.index = min(menu.index, menu.entries.count - 1)
                phase = .menu(menu)
                // The walk holds the element too: take the updated one, so the line shows the
                // new value once the menu closes.
                levels = relocate(oldHighlight, oldNodes: oldNodes, focus: nil, after: nil, in: new.nodes, entered: oldLevels)
                return [.menu(entries: menu.entries, focus: menu.index)]
            }
            actions += closeMenuQuietly()
        }
        if case .autoTapPending = phase {
            actions.append(.cancel(.autoTap))
            phase = .scanning
        }
        if phase == .empty { phase = .scanning }

        switch change {
        case .initial:
            levels = [Level(entries: new.nodes, group: nil, index: 0, steps: 0)]
            actions += summary(of: new, at: time)
        case .screenChanged(let focus):
            levels = [Level(entries: new.nodes, group: nil, index: 0, steps: 0)]
            if let focus, let path = path(to: focus, in: new.nodes) { levels = path }
            // No summary here: VoiceOver reads the summary element once, when the app opens,
            // "but not every time the interface is displayed again" (DISIC).
        case .layoutChanged(let focus):
            // Posted with an element, layoutChanged moves the highlight to it (the Orange guide:
            // "With a UIObject, focus is shifted to the user interface element"); without one,
            // or when that element is no item, the highlight stays where it was.
            if let focus, let path = path(to: focus, in: new.nodes) {
                levels = path
            } else {
                levels = relocate(oldHighlight, oldNodes: oldNodes, focus: focus, after: focusAfterTap, in: new.nodes, entered: oldLevels)
            }
        case .refreshed:
            levels = relocate(oldHighlight, oldNodes: oldNodes, focus: nil, after: focusAfterTap, in: new.nodes, entered: oldLevels)
        }
        if phase == .stopped || phase == .paused {
            actions.append(.highlight(phase == .paused ? currentHighlight : .none))
            return actions
        }
        if case .layoutChanged(focus: nil) = change, focusAfterTap == nil, wasScanning, phase == .scanning, actions.isEmpty {
            // The application changed by itself (not as the answer to a tap, whose step starts
            // again from the tap) around the highlight: an unchanged highlight is
            // not shown again, and a changed one (its label) is shown without restarting its
            // step, so that auto scanning moves on however often the application changes.
            if currentHighlight == oldHighlight { return [] }
            if currentHighlight.focusID != nil, currentHighlight.focusID == oldHighlight.focusID { return [.highlight(currentHighlight)] }
        }
        actions += highlightCurrent(at: time)
        return actions
    }

    /// The levels that put the highlight where it belongs after a layout change: on the same
    /// element (by id, else by the most overlapping frame), else on `focus`, else on the nearest
    /// following item that still exists; never silently at the top. After a tap,
    /// `focusedItemAfterTap: first` starts again at the first item.
    private func relocate(
        _ old: Highlight, oldNodes: [ScanNode], focus: ElementID?, after tap: ScanSettings.FocusAfterTap?,
        in nodes: [ScanNode], entered: [Level]
    ) -> [Level] {
        let top = [Level(entries: nodes, group: nil, index: 0, steps: 0)]
        if tap == .first { return top }
        guard let oldNode: ScanNode = {
            switch old {
            case .entry(let node), .groupExit(let node): return node
            default: return nil
            }
        }() else {
            if let focus, let path = path(to: focus, in: nodes) { return path }
            return top
        }
        if var path = path(to: oldNode.id, in: nodes) {
            // Into the groups the user had entered, no further: when the element is now inside
            // another group (a new row changed the automatic groups), that group is highlighted.
            if let leaves = path.indices.dropFirst().first(where: { $0 >= entered.count || path[$0].group?.id != entered[$0].group?.id }) {
                path.removeSubrange(leaves...)
                return path
            }
            if case .groupExit = old, path.last?.group == nil, let group = path.last?.entries[path.last!.index], group.isGroup {
                // Keep the outline of the same group highlighted.
                path.append(Level(entries: group.children, group: group, index: group.children.count, steps: 0))
            }
            return path
        }
        if let frame = oldNode.element.resolvedFrame ?? oldNode.firstItem?.resolvedFrame,
           let overlapping = mostOverlapping(frame, in: nodes), let path = path(to: overlapping, in: nodes) {
            return path
        }
        if let focus, let path = path(to: focus, in: nodes) { return path }
        let newIDs = Set(nodes.flatMap(\.items).map(\.id))
        let oldItems = oldNodes.flatMap(\.items)
        if let position = oldItems.firstIndex(where: { $0.id == oldNode.id || $0.id == oldNode.firstItem?.id }) {
            for candidate in oldItems[position...] + oldItems[..<position].reversed() where newIDs.contains(candidate.id) {
                if let path = path(to: candidate.id, in: nodes) { return path }
            }
        }
        return top
    }

    private func mostOverlapping(_ frame: Rect, in nodes: [ScanNode]) -> ElementID? {
        var best: (id: ElementID, area: Double)?
        for item in nodes.flatMap(\.items) {
            guard let itemFrame = item.resolvedFrame, let overlap = frame.intersection(itemFrame) else { continue }
            if best == nil || overlap.area > best!.area { best = (item.id, overlap.area) }
        }
        return best?.id
    }

    /// The first item in scan order that satisfies `matches`, without listing every item.
    private func firstItem(in nodes: [ScanNode], where matches: (Element) -> Bool) -> Element? {
        for node in nodes {
            switch node {
            case .item(let element): if matches(element) { return element }
            case .group(_, let children): if let found = firstItem(in: children, where: matches) { return found }
            }
        }
        return nil
    }

    /// The levels from the top to the entry with `id` (an item or a group).
    private func path(to id: ElementID, in nodes: [ScanNode]) -> [Level]? {
        func search(_ entries: [ScanNode], group: ScanNode?) -> [Level]? {
            for (index, node) in entries.enumerated() {
                let level = Level(entries: entries, group: group, index: index, steps: 0)
                if node.id == id { return [level] }
                if node.isGroup, let below = search(node.children, group: node) { return [level] + below }
            }
            return nil
        }
        return search(nodes, group: nil)
    }

    /// `summaryElement`: announced first when the app opens (the initial structure only).
    private mutating func summary(of structure: ScanStructure, at time: Double) -> [ScanAction] {
        guard let text = summaryText(of: structure) else { return [] }
        return flash(text, at: time)
    }

    /// What `summary(of:at:)` flashes for `structure`: the summary element's label and value.
    func summaryText(of structure: ScanStructure) -> String? {
        guard let element = firstItem(in: structure.nodes, where: { $0.traits.contains(.summaryElement) }) else { return nil }
        let text = [element.label, element.value].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return text.isEmpty ? nil : text
    }
}

func formatSeconds(_ seconds: Double) -> String {
    let milliseconds = (seconds * 1000).rounded()
    return "\(formatPoints(milliseconds / 1000)) s"
}

extension ScanningEngine {
    /// New settings from `time` on (a settings file edited during a run): the current
    /// position's timer starts again with them (auto scanning's step, the dwell), or stops
    /// (manual scanning); other pending timers keep their times.
    public mutating func updateSettings(_ new: ScanSettings, at time: Double) -> [ScanAction] {
        settings = new
        switch phase {
        case .scanning:
            highlightTime = time
            return [.cancel(.advance), .cancel(.dwell)] + restartTimer(at: time)
        case .menu:
            highlightTime = time
            return [.cancel(.advance), .cancel(.dwell)] + menuTimer(at: time)
        default:
            return []
        }
    }
}
