import AccessibilityModel
import Atspi
import Foundation
import LiveTree
import Scanning
import SwitchInput
import Platform

/// A running application's window as scanned content, read through AT-SPI. It is also the
/// loop's source for the accessibility bus: the GLib main context's descriptors (one epoll
/// descriptor) and timeout join the run's poll, and what the application changes comes back as
/// `RuntimeInput.content` updates (a new window or dialog: screenChanged; children, states,
/// bounds, names: layoutChanged, which keeps the highlight on the same object).
public final class LiveApplication: ScanContent, RuntimeSource, @unchecked Sendable {
    /// Which window to scan: an application's (by name, else the focused one), or a window by
    /// its title.
    public struct Target: Sendable {
        public var application: String?
        public var window: String?
        public init(application: String? = nil, window: String? = nil) {
            self.application = application
            self.window = window
        }
    }

    public let target: Target
    private let context: MainContextPoll
    let listener: EventListener
    /// Whether the event listeners are registered (not while the registry is away).
    var listensForEvents = false
    private var window: AccessibleObject?
    private var snapshot: AccessibleNode?
    /// A `<select>`'s popup outside the window's tree (Firefox).
    private var detachedPopups = DetachedPopups()
    private var objects: [String: AccessibleObject]? = [:]
    private var screen: Screen
    /// The application and window the user switched to (the scanner menu's app switcher, or the
    /// focus moved to another application's window): its windows are the candidates from then
    /// on, whatever the command line named, until it leaves the bus.
    private var pinnedApplication: AccessibleObject?
    private var pinnedWindow: AccessibleObject?
    /// The other windows on the desktop, offered in the scanner menu, by their object ids.
    private var switchTargets: [SwitchTarget] = []
    private var targetWindows: [String: AccessibleObject] = [:]
    /// A list shown in place of the window (`LiveDesktopCommands`), the program started last,
    /// the item last brought into view, and whether a scroll changed the window since.
    var chooser: LiveChooser?
    var launchWatch: LaunchWatch?
    var lastHighlighted: String?
    var scrolledSinceRead = false
    /// Text fields whose EditableText answered an edit without making it: typed into with key events.
    var fieldsTakingKeyEvents = Set<ElementID>()
    /// Where the programs started from the menu are counted; nil: not counted.
    public var programUses: ProgramUses?
    var currentSnapshot: AccessibleNode? { snapshot }
    var liveWindow: AccessibleObject? { window }
    func liveObject(_ id: String) -> AccessibleObject? { objects?[id] }
    func readWindowAgain() { reread() }
    /// The name of the application whose window is scanned.
    public private(set) var applicationName = ""
    /// Most objects read from one window (the rest are left out, and said).
    public static let maxObjects = 100_000
    /// Longest one window read may hold the loop, in seconds (a slow application's answers each
    /// come just inside the call timeout): what was read by then is scanned.
    public static let mostReadSeconds = 10.0

    public init(target: Target) throws(AtspiError) {
        self.target = target
        try Atspi.initialize()
        context = try MainContextPoll()
        listener = try EventListener()
        screen = Screen(name: "no window", elements: [])
        // Registering waits on the registry: while it is away, when it is back (`registryNotes`).
        if AccessibilityRegistry.shared.check(at: MonotonicClock.now()) { try listen() }
        _ = findWindow()
    }

    // MARK: ScanContent

    public var title: String { target.application ?? target.window ?? "live application" }
    public var screenName: String { chooser?.title ?? screen.name }
    public var size: (width: Double, height: Double) {
        let frame = screen.root.frame
        return (frame?.width ?? 0, frame?.height ?? 0)
    }
    public var language: String { "en" }
    /// The window as last read, as a screen of model elements ("no window" while none).
    public var currentScreen: Screen { screen }

    public func currentStructure(groupItems: Bool) -> ScanStructure {
        if let chooser { return chooser.structure }
        var structure = ScanStructure.of(screen, groupItems: groupItems)
        structure.switchTargets = switchTargets
        structure.contentCommands = desktopCommands(in: snapshot)
        return structure
    }
    public func rebuildStructure(groupItems: Bool) -> ScanStructure { currentStructure(groupItems: groupItems) }

    public func perform(_ command: ElementCommand, on element: Element?) -> ContentUpdate? {
        perform(command, on: element, mayHold: true)
    }

    /// `perform`; with `mayHold`, the application is asked first, and a command on one that does
    /// not answer at once is held for its answer (`holdTap`) instead of being refused. Without
    /// it (a held tap carried out) it has just answered, and is not asked again: on a machine
    /// that starves it, a second question could go unanswered and refuse the tap it answered for.
    func perform(_ command: ElementCommand, on element: Element?, mayHold: Bool) -> ContentUpdate? {
        if case .switchTo(let target) = command { return switchWindow(to: target) }
        if let update = performDesktopCommand(command, on: element) { return update }
        guard let element, let object = objects?[element.id], let node = snapshot?.node(withID: element.id) else {
            Self.say("\(command) not done: \(element?.label ?? "no item") is not in the window read")
            return nil
        }
        // Asked first, briefly: a stopped application would hold the loop for a call's timeout.
        if mayHold, !ApplicationSilence.shared.answersBriefly(object.busName) {
            return holdTap(command, on: element, busName: object.busName)
        }
        if ApplicationSilence.shared.contains(object.busName) {
            Self.say("\(command) not done on \(element.label ?? ""): \(applicationName) did not answer a ping")
            // Said in one message (a second would wait behind it, and a press takes both away).
            let others = silenceNotes(except: object.busName)
            return ContentUpdate(notifications: [AccessibilityNotification(kind: .announcement, text: "not done: \(applicationName) is not answering")] + others)
        }
        var notifications = [AccessibilityNotification]()
        let before = screen
        do throws(AtspiError) {
            switch command {
            case .activate:
                if AccessibleMapping.isTextField(node) {
                    try object.grabFocus()
                    notifications.append(AccessibilityNotification(
                        kind: .announcement, text: "\(element.label ?? "text field") has the keyboard focus: type on the keyboard"))
                } else if node.role.hasSuffix("menu item"), AccessibleMapping.isShown(node), !detachedPopups.holds(node.id, in: snapshot),
                          let frame = try object.screenExtents() {
                    // A menu item is clicked, as a user does: a GTK 3 item whose action opens a
                    // modal dialog (Mousepad's Save) runs the dialog inside that action, and the
                    // application answers nothing more on this connection until it closes. The
                    // click closes its popup as a user's does: an Escape sent after it could reach
                    // the window (a GTK 3 combo box's option clicked: Mousepad's Preferences closed).
                    try Atspi.click(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2)
                } else if AccessibleMapping.selectsThroughTabList(node), try selectThroughTabList(object) {
                    // A page tab without an action (a GTK 3 notebook's): its tab list selects it.
                } else if let action = AccessibleMapping.tapAction(of: node) {
                    if Popups.isOpener(node), let window { LivePopups.activate(window, through: object) }
                    try object.doAction(named: action)
                    // The choice is made; a popup that stays open is closed, as a user's click
                    // does (Firefox's detached popup closes by itself).
                    if !detachedPopups.holds(node.id, in: snapshot), LivePopups.staysOpenAfterChoosing(node.id, in: snapshot) { try LivePopups.close() }
                } else if let inner = Self.soleActionable(in: node), let innerObject = objects?[inner.id],
                          let action = AccessibleMapping.tapAction(of: inner) {
                    // A row holding one link (a page's list): the link's action, not a click
                    // at the row's middle, which misses the link.
                    try innerObject.doAction(named: action)
                } else if let frame = try object.screenExtents() {
                    // No action (a GTK 4.8 check box): a pointer click at the activation point.
                    try Atspi.click(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2)
                } else {
                    return nil
                }
            case .increment, .decrement:
                guard let value = node.value else { return nil }
                try object.setValue(value.stepped(by: command == .increment ? 1 : -1))
            case .customAction(let name):
                guard try object.doAction(named: name) else { return nil }
            case .escape:
                // Escape reaches an item only inside an open popup (its level handles it).
                guard LivePopups.openLevel(on: screen) != nil else { return nil }
                try LivePopups.close()
            case .magicTap, .switchTo, .content:
                return nil
            }
        } catch {
            let text = error.isTimeout ? "not done: \(applicationName) is not answering" : "could not do it: \(error)"
            notifications.append(AccessibilityNotification(kind: .announcement, text: text))
        }
        // What the action changed, as far as it shows at once (a value set is read back now);
        // the rest comes as events.
        reread()
        // Some libatspi calls say nothing when the application does not answer (no actions, no
        // name): a tap the application never got is said not done once a call has timed out.
        if ApplicationSilence.shared.contains(object.busName), !notifications.contains(where: { $0.text?.hasPrefix("not done") == true }) {
            notifications.append(AccessibilityNotification(kind: .announcement, text: "not done: \(applicationName) is not answering"))
        }
        notifications += silenceNotes()
        return ContentUpdate(notifications: (LivePopups.notification(from: before, to: screen).map { [$0] } ?? []) + notifications)
    }

    /// The AT-SPI object and its snapshot behind element `id`, as last read.
    func accessible(forElement id: ElementID) -> (object: AccessibleObject, node: AccessibleNode)? {
        guard let object = objects?[id], let node = snapshot?.node(withID: id) else { return nil }
        return (object, node)
    }

    // MARK: Windows

    /// Looks for the window to scan; true when it changed. The other windows are listed again.
    private func findWindow() -> Bool {
        AccessibilityRegistry.shared.refresh(at: MonotonicClock.now())
        defer { listSwitchTargets() }
        guard let found = try? locateWindow() else { return false }
        if found == window { return false }
        window = found
        chooser = nil
        hiddenByEvent.removeAll()
        shownByEvent.removeAll()
        detachedPopups = DetachedPopups()
        applicationName = (try? found.parent()?.name()) ?? ""
        windowBusName = found.busName
        applicationNames[windowBusName] = applicationName
        reread()
        return true
    }

    /// The app switcher: makes `target` the screen (its application's modal dialog, if one is
    /// open, as the application shows it).
    private func switchWindow(to target: SwitchTarget) -> ContentUpdate? {
        guard let chosen = targetWindows[target.id], let application = try? chosen.parent() else {
            return ContentUpdate(notifications: [AccessibilityNotification(kind: .announcement, text: "\(target.name) is gone")])
        }
        pin(chosen, of: application)
        // The user leaves the window scanned, even one whose application stopped answering
        // (which otherwise stays the screen): the window is looked for without it.
        let left = window
        window = nil
        if !findWindow() { window = left }
        return ContentUpdate(screen: screen.name, notifications: [AccessibilityNotification(kind: .screenChanged)])
    }

    func pin(_ chosen: AccessibleObject, of application: AccessibleObject) {
        pinnedApplication = application
        pinnedWindow = chosen
    }

    /// Every visible top-level window on the accessibility bus, with its application's name.
    static func visibleWindows() -> [(application: String, window: AccessibleObject)] {
        var found = [(application: String, window: AccessibleObject)]()
        let applications = (try? Atspi.desktop().children()) ?? []
        ApplicationSilence.shared.check(applications.map(\.busName))
        for application in applications {
            // One that is not answering is not offered (each call would wait on it); it is said.
            guard !ApplicationSilence.shared.contains(application.busName) else { continue }
            let name = (try? application.name()) ?? ""
            for candidate in (try? application.children()) ?? [] where candidate.states().contains(.visible) {
                found.append((name, candidate))
            }
        }
        return found
    }

    /// What `--app` and `--window` can name, for a message when nothing matched: `'Demo'
    /// (application python)` for each visible window on the bus.
    public static func describeVisibleWindows() -> [String] {
        visibleWindows().map { "'\((try? $0.window.name()) ?? "")' (application \($0.application))" }
    }

    /// Every visible top-level window of every application but the one scanned.
    private func listSwitchTargets() {
        var targets = [SwitchTarget]()
        var windows = [String: AccessibleObject]()
        for (name, candidate) in Self.visibleWindows() {
            applicationNames[candidate.busName] = name
            guard candidate != window else { continue }
            let id = candidate.id
            targets.append(SwitchTarget(id: id, title: (try? candidate.name()) ?? "", application: name))
            windows[id] = candidate
        }
        switchTargets = targets
        targetWindows = windows
    }

    private func locateWindow() throws(AtspiError) -> AccessibleObject? {
        // The window of an application that stopped answering stays the screen, as last read:
        // the user leaves it through the app switcher, or it answers again.
        if let window, ApplicationSilence.shared.contains(window.busName) { return window }
        if let application = pinnedApplication {
            let windows = ((try? application.children()) ?? []).filter { $0.states().contains(.visible) }
            if !windows.isEmpty {
                if let modal = windows.last(where: { $0.states().contains(.modal) && $0.states().contains(.visible) }) { return modal }
                if let pinnedWindow, windows.contains(pinnedWindow) { return pinnedWindow }
                return windows.last(where: { $0.states().contains(.active) }) ?? windows.last
            }
            // The application left the bus (or shows no window): back to what the command line named.
            pinnedApplication = nil
            pinnedWindow = nil
        }
        var candidates = [AccessibleObject]()
        let applications = try Atspi.desktop().children()
        ApplicationSilence.shared.check(applications.map(\.busName))
        for application in applications {
            guard !ApplicationSilence.shared.contains(application.busName) else { continue }
            // An application that does not answer (hung, or gone meanwhile) is passed over: it
            // costs its own windows, not every application's.
            guard let name = try? application.name() else { continue }
            if let wanted = target.application {
                guard name.localizedLowercase.contains(wanted.lowercased()) else { continue }
            }
            for window in (try? application.children()) ?? [] {
                if let title = target.window, !((try? window.name()) ?? "").contains(title) { continue }
                // A closed dialog can stay an application's child, hidden (Qt's QDialog).
                guard window.states().contains(.visible) else { continue }
                candidates.append(window)
            }
        }
        // A modal dialog first, then the active window, then the newest.
        if let modal = candidates.last(where: { $0.states().contains(.modal) && $0.states().contains(.visible) }) { return modal }
        if let active = candidates.last(where: { $0.states().contains(.active) }) { return active }
        return candidates.last
    }

    /// How many times the whole window was read (a test's and the status's measure of the cost
    /// of changes: a rename is one object read, a relayout at most one window read a loop turn).
    public private(set) var windowReads = 0
    /// How many subtrees were read again (a children change, a subtree shown or hidden).
    public private(set) var subtreeReads = 0
    /// How many event batches were handled (each one loop turn's events, drained together).
    public private(set) var eventBatches = 0

    /// Reads the window again.
    private func reread() {
        guard let window else { return }
        // Not answering: what was read stays (a read would fail at once and empty the screen).
        if ApplicationSilence.shared.contains(window.busName), snapshot != nil { return }
        windowReads += 1
        Self.say("window read \(windowReads)")
        var objects: [String: AccessibleObject]? = [:]
        // The loop waits on the read: past `mostReadSeconds` the rest of the window is left out.
        // A big list's rows past its first screenful are read afterwards, between presses.
        let end = MonotonicClock.now() + Self.mostReadSeconds
        var deferred = [DeferredChildren]()
        deferredChildren = []
        guard let node = try? window.snapshot(
            limit: Self.maxObjects, objects: &objects, deferred: &deferred, isWindow: true, goOn: { MonotonicClock.now() < end }) else {
            // It stopped answering meanwhile: what was read stays.
            if ApplicationSilence.shared.contains(window.busName), snapshot != nil { return }
            self.window = nil
            snapshot = nil
            self.objects = [:]
            screen = Screen(name: "no window", elements: [])
            return
        }
        var read = node
        carryReadRows(of: snapshot, into: &read, deferred: &deferred, objects: &objects)
        read.hide(hiddenByEvent)
        forgetGoneShown(in: read)
        read.markExpanded(Popups.expandedOpeners(shown: shownByEvent, in: read))
        detachedPopups.graft(into: &read, objects: &objects)
        snapshot = read
        self.objects = objects
        deferredChildren = deferred
        screen = AccessibleMapping.screen(of: read)
        coordinates = WindowCoordinates(window: read)
    }

    /// Where the window is on the screen, for the overlay (GTK 4 knows no window position on
    /// any display server and reports window coordinates for the screen: origin 0, 0).
    private var coordinates: WindowCoordinates?

    /// A frame of the current screen (relative to the window's corner) on the screen; nil
    /// without a window.
    public func screenRect(of frame: Rect) -> Rect? {
        guard window != nil else { return nil }
        return coordinates?.screenRect(of: frame) ?? frame
    }

    /// Applications' names by bus name, for saying which one stopped answering.
    private(set) var applicationNames: [String: String] = [:]
    /// The bus name of the scanned window's application, as found.
    private var windowBusName = ""

    /// What changed in which applications answer (`ApplicationSilence`), each said once: one
    /// that stopped answering (a stopped or hung process), one that answers again, one that
    /// left the bus while it did not answer.
    func silenceNotes(except stopped: String? = nil) -> [AccessibilityNotification] {
        registryNotes() + ApplicationSilence.shared.takeChanges().filter { $0 != .stoppedAnswering(busName: stopped ?? "") }.map { change in
            let text: String
            switch change {
            case .stoppedAnswering(let bus): text = "\(applicationNames[bus] ?? bus) is not answering"
            case .answersAgain(let bus): text = "\(applicationNames[bus] ?? bus) answers again"
            case .left(let bus): text = "\(applicationNames[bus] ?? bus) has closed"
            }
            return AccessibilityNotification(kind: .announcement, text: text)
        }
    }

    /// "NAME has closed" when the window scanned before belonged to an application (`bus`) that left the bus
    /// (its process ended: the scan went to what is left); nil while it is there.
    private func closedApplication(_ bus: String) -> AccessibilityNotification? {
        // (The bus name as found: libatspi forgets a gone application's.)
        guard !bus.isEmpty, bus != windowBusName, !ApplicationSilence.isOnBus(bus) else { return nil }
        return AccessibilityNotification(kind: .announcement, text: "\(applicationNames[bus] ?? bus) has closed")
    }

    /// SWITCHSCAN_LIVE_DEBUG set: each event batch is said on standard error.
    static let debug = ProcessInfo.processInfo.environment["SWITCHSCAN_LIVE_DEBUG"] != nil
    static func say(_ text: String) { if debug { try? FileIO.writeAll(.standardError, "live: \(text)\n") } }

    /// Applies a batch's plan (`ChangePlan`) to the snapshot: each source named for a read in
    /// place is read alone (a label renamed in a window of 10,000 objects is one object read),
    /// each subtree named is read again and put in its place, each object gone is taken out
    /// with its subtree, and the window is mapped again. A container that moved is read again
    /// with its subtree (its children moved with it, unannounced). False when the snapshot
    /// cannot take it (no snapshot, or a source that cannot be read in place): the caller
    /// reads the window.
    private func apply(_ plan: ChangePlan, sources: [String: AccessibleObject] = [:]) -> Bool {
        guard var updated = snapshot else { return false }
        for id in plan.attached {
            guard let object = sources[id] else { continue }
            if !attach(object, in: &updated) { Self.say("attached: \(id) not placed") }
        }
        for id in plan.removed {
            let ids = updated.node(withID: id)?.subtreeIDs() ?? []
            updated.removeSubtree(id)
            for gone in ids { objects?[gone] = nil }
        }
        var read = [String: AccessibleNode]()
        var subtrees = plan.readSubtrees
        for id in plan.readInPlace {
            guard let object = objects?[id], let properties = try? object.properties(isWindow: id == updated.id) else {
                // Gone meanwhile (its defunct event is on its way): it goes now.
                Self.say("read in place: \(id) not read: left out")
                updated.removeSubtree(id)
                continue
            }
            read[id] = properties
        }
        if !read.isEmpty {
            let result = updated.updateProperties(from: read)
            subtrees += result.movedContainers.filter { !subtrees.contains($0) && !holdsAllRows($0, in: updated) }
        }
        let end = MonotonicClock.now() + Self.mostReadSeconds
        for id in subtrees {
            guard let object = objects?[id] else { continue }
            subtreeReads += 1
            let before = updated.node(withID: id)?.subtreeIDs() ?? []
            var found: [String: AccessibleObject]? = [:]
            var deferred = [DeferredChildren]()
            if var subtree = try? object.snapshot(
                limit: Self.maxObjects, objects: &found, deferred: &deferred, isWindow: id == updated.id, goOn: { MonotonicClock.now() < end }) {
                carryReadRows(of: updated.node(withID: id), into: &subtree, deferred: &deferred, objects: &found)
                let replaced = Set(before)
                deferredChildren = deferredChildren.filter { !replaced.contains($0.containerID) } + deferred
                for gone in before { objects?[gone] = nil }
                for (key, value) in found ?? [:] { objects?[key] = value }
                updated.replaceSubtree(with: subtree)
            } else {
                for gone in before { objects?[gone] = nil }
                updated.removeSubtree(id)
            }
        }
        updated.hide(hiddenByEvent)
        forgetGoneShown(in: updated)
        updated.markExpanded(Popups.expandedOpeners(shown: shownByEvent, in: updated))
        detachedPopups.graft(into: &updated, objects: &objects)
        snapshot = updated
        screen = AccessibleMapping.screen(of: updated)
        coordinates = WindowCoordinates(window: updated)
        return true
    }

    /// Objects an event said were hidden (`showing` cleared: a browser's background tab) and
    /// no event has shown again: left out of the scan whatever their states read.
    private var hiddenByEvent = Set<String>()
    /// Objects an event said were shown and none has hidden since (a `<select>`'s popup opened).
    private var shownByEvent = Set<String>()

    // MARK: Big windows

    /// The rows of big lists not read with the window yet (`Atspi.childrenReadAtOnce` each
    /// were): read a little each loop turn while nothing else is due, so that a press is
    /// answered between two parts.
    private var deferredChildren: [DeferredChildren] = []
    /// When rows read in the background were last shown (mapped and said as a layout change),
    /// and how long that mapping took.
    private var deferredShown = 0.0
    private var deferredShowCost = 0.0
    private var deferredShowPending = false
    /// Longest one loop turn reads deferred rows, and how often what was read is shown, in seconds.
    static let deferredReadSeconds = 0.04
    static let deferredShowSeconds = 0.5

    /// Whether the window is read whole: no big list's rows are still to be read.
    public var isReadWhole: Bool { deferredChildren.isEmpty }

    /// Reads deferred rows for at most `deferredReadSeconds`; the screen is updated when all are
    /// read or `deferredShowSeconds` after it last was (each update maps the whole window).
    private func readDeferredChildren() -> [RuntimeInput]? {
        guard var updated = snapshot, let window, !ApplicationSilence.shared.contains(window.busName) else {
            deferredChildren = []
            return nil
        }
        countDeferredShowCost()
        let end = MonotonicClock.now() + Self.deferredReadSeconds
        while MonotonicClock.now() < end, let first = deferredChildren.first {
            deferredChildren.removeFirst()
            guard let container = objects?[first.containerID] else { continue }
            var found: [String: AccessibleObject]? = [:]
            var more = [DeferredChildren]()
            let read = container.children(from: first.next, to: first.count, limit: Self.maxObjects, objects: &found, deferred: &more,
                                          goOn: { MonotonicClock.now() < end })
            guard updated.placeChildren(read.nodes, from: first.next, in: first.containerID) else { continue }
            for (key, value) in found ?? [:] { objects?[key] = value }
            if read.next < first.count {
                deferredChildren.insert(DeferredChildren(containerID: first.containerID, next: read.next, count: first.count), at: 0)
            }
            deferredChildren += more
        }
        updated.hide(hiddenByEvent)
        snapshot = updated
        let now = MonotonicClock.now()
        // Showing the rows read costs more the more rows are in: the mapping here, and the
        // session's new scan structure after it (the time until the loop is back here): it is
        // done at most a fifth of the time, or the list would take quadratic time to read.
        guard deferredChildren.isEmpty || now - deferredShown >= max(Self.deferredShowSeconds, 4 * deferredShowCost) else { return [] }
        let before = screen
        screen = AccessibleMapping.screen(of: updated)
        coordinates = WindowCoordinates(window: updated)
        deferredShown = MonotonicClock.now()
        deferredShowCost = deferredShown - now
        deferredShowPending = true
        Self.say("deferred rows read: \(deferredChildren.count) containers still in part")
        return update(from: before, notifications: [])
    }

    /// At the first loop turn after rows read in the background were shown: the time the
    /// session took over them is counted into the cost of showing.
    private func countDeferredShowCost() {
        guard deferredShowPending else { return }
        deferredShowPending = false
        deferredShowCost += MonotonicClock.now() - deferredShown
    }

    /// After a scroll to `id` in a big list (`bigListRow`), the frames of the rows it can have
    /// moved in or out of view (those around `id`, those in view before) are read again in
    /// place and the window mapped: not the window read again (20,000 objects for a list of
    /// 10,000 rows, each highlight of a row out of view). False when no big list holds `id`:
    /// the caller reads the window.
    func readFramesAfterScroll(to id: String) -> Bool {
        guard var updated = snapshot, let (listID, row) = updated.bigListRow(holding: id, rowsReadAtOnce: Atspi.childrenReadAtOnce) else {
            return false
        }
        let end = MonotonicClock.now() + Self.mostReadSeconds
        var read = [String: AccessibleNode]()
        let bar = updated.scrollBar(of: listID).map { [$0.id] } ?? []
        for rowID in bar + updated.rowsMovedByScroll(in: listID, to: row, reach: Atspi.childrenReadAtOnce) where MonotonicClock.now() < end {
            guard let object = objects?[rowID], let properties = try? object.properties() else { continue }
            read[rowID] = properties
        }
        _ = updated.updateProperties(from: read)
        if let window = WindowCoordinates.usable(updated.screenExtents) { updated.dropFramesOutside(window, inList: listID) }
        updated.hide(hiddenByEvent)
        snapshot = updated
        screen = AccessibleMapping.screen(of: updated)
        coordinates = WindowCoordinates(window: updated)
        frameReads += 1
        Self.say("scroll in a big list: \(read.count) objects read again in place; \(id) at \(read[id]?.screenExtents.map { "\($0)" } ?? "no extents")")
        return true
    }

    /// Scrolls the big list that holds `id` (`bigListRow`) by its scroll bar so that the row
    /// holding it is in view: GTK 3's rows refuse to scroll to themselves (`scroll_to`). False
    /// when no big list holds it, it has no scroll bar, or the bar refuses.
    func scrollBigList(to id: String) -> Bool {
        guard let snapshot, let (listID, row) = snapshot.bigListRow(holding: id, rowsReadAtOnce: Atspi.childrenReadAtOnce),
              let count = snapshot.node(withID: listID)?.children.count, let bar = snapshot.scrollBar(of: listID), let value = bar.value,
              let object = objects?[bar.id] else { return false }
        do {
            try object.setValue(AccessibleNode.scrollValue(showing: row, of: count, on: value))
            return true
        } catch {
            Self.say("scroll bar of \(listID): \(error)")
            return false
        }
    }

    /// How many scrolls in a big list read the frames of its rows in place of the window.
    public private(set) var frameReads = 0

    /// The rows of big lists read before (in `previous`) past those `read` holds, put back as they
    /// were read (their frames too): a window read after a scroll, or a list read again, must not
    /// take the highlighted row away for the seconds the rest of the list takes.
    private func carryReadRows(
        of previous: AccessibleNode?, into read: inout AccessibleNode, deferred: inout [DeferredChildren], objects found: inout [String: AccessibleObject]?
    ) {
        guard let previous else { return }
        for (position, entry) in deferred.enumerated() {
            guard let old = previous.node(withID: entry.containerID), old.children.count > entry.next else { continue }
            let carried = Array(old.children[entry.next..<min(old.children.count, entry.count)])
            read.placeChildren(carried, from: entry.next, in: entry.containerID)
            for id in carried.flatMap({ $0.subtreeIDs() }) { found?[id] = objects?[id] }
            // The background read goes on after the rows carried: a highlight on a row out of view
            // scrolls and reads the window again, and starting the list over each time would
            // never reach its end.
            deferred[position].next = entry.next + carried.count
        }
        deferred.removeAll { $0.next >= $0.count }
    }

    /// Puts `object` (not in the snapshot; an event said it has a new parent) in its place: its
    /// parents are followed up to one in the snapshot, and the highest one not in it is read
    /// with its subtree and put at its index (GTK 3's appended row: the label says its parent,
    /// the new row, whose parent is the list). False when no place was found.
    private func attach(_ object: AccessibleObject, in updated: inout AccessibleNode) -> Bool {
        guard let (current, parent) = placeInBigList(object, in: updated), let index = try? current.indexInParent() else { return false }
        // A list still read in part: its rows past those read come with the rest.
        if let pending = deferredChildren.firstIndex(where: { $0.containerID == parent.id }), index >= deferredChildren[pending].next {
            deferredChildren[pending].count = max(deferredChildren[pending].count, index + 1)
            return true
        }
        var found: [String: AccessibleObject]? = [:]
        var more = [DeferredChildren]()
        guard let subtree = try? current.snapshot(limit: Self.maxObjects, objects: &found, deferred: &more),
              updated.insertChild(subtree, at: index, in: parent.id) else { return false }
        for (key, value) in found ?? [:] { objects?[key] = value }
        deferredChildren += more
        placedObjects += 1
        Self.say("attached \(current.id) at \(index) in \(parent.id)")
        return true
    }

    /// Where `object` (not in the snapshot; an event said it has a new parent) hangs: its
    /// highest parent not in the snapshot, and that one's parent, when it is a big list's row
    /// (a container that manages its descendants); nil elsewhere, where children changes say
    /// what was added (as the window was read before parent changes were listened to).
    private func placeInBigList(_ object: AccessibleObject, in updated: AccessibleNode) -> (AccessibleObject, AccessibleObject)? {
        var current = object
        for _ in 0..<Self.mostAttachDepth {
            guard objects?[current.id] == nil, let parent = try? current.parent() else { return nil }
            guard objects?[parent.id] != nil else {
                current = parent
                continue
            }
            guard updated.node(withID: parent.id)?.states.contains(.managesDescendants) == true else { return nil }
            return (current, parent)
        }
        return nil
    }

    /// How many objects an event's parent change placed (`attach`: GTK 3's appended rows).
    public private(set) var placedObjects = 0

    /// How many parents `attach` follows at most.
    static let mostAttachDepth = 8

    /// Whether the big list `id` (more children than are read at once) holds as many rows as
    /// the application says, counting those still to be read: its size changed with rows
    /// already placed (an appended row), and reading its 10,000 rows again would add nothing.
    private func holdsAllRows(_ id: String, in updated: AccessibleNode) -> Bool {
        guard let object = objects?[id], let node = updated.node(withID: id), let count = try? object.childCount(),
              count > Atspi.childrenReadAtOnce else { return false }
        let expected = deferredChildren.first(where: { $0.containerID == id })?.count ?? node.children.count
        return count == expected
    }

    /// Forgets the objects shown by an event that are no longer in `window` (a popup destroyed
    /// with no hiding event), so that the set does not grow, nor speak for an object that comes
    /// later under the same id.
    private func forgetGoneShown(in window: AccessibleNode) {
        guard !shownByEvent.isEmpty else { return }
        shownByEvent.formIntersection(window.subtreeIDs())
    }

    /// Whether an event of `type` reads its source alone (not a subtree, not a removal).
    static func readsInPlace(_ type: String) -> Bool {
        !ChangePlan.readsSubtree(type) && !ChangePlan.isDefunct(type) && !type.hasPrefix("window:")
    }

    static func changeEvent(_ event: AccessibleEvent) -> ChangeEvent {
        ChangeEvent(type: event.type, sourceID: event.sourceID, detail1: event.detail1)
    }

    // MARK: RuntimeSource

    public var name: String { "accessibility bus" }
    public var descriptor: FileDescriptor? { FileDescriptor(rawValue: context.descriptor) }
    public var bindings: [SwitchID: SwitchBinding] { [:] }
    public var isSwitchInput: Bool { false }

    public var deadline: Double? {
        // The loop asks before each wait: a context prepared last turn but not dispatched (its
        // descriptor was not ready) is dispatched first, so nothing is left pending, and what
        // has arrived meanwhile is taken in with it (libatspi's D-Bus source hands over one
        // message a dispatch: left to one a turn, a burst keeps the loop turning at once).
        context.drain()
        // Events waiting: due at once. A moment already past, not `now()`: the loop asks again
        // after its poll and compares with the moment it took before (a `now()` read later is
        // after it, and the events were left waiting, the loop turning at once, until the bus
        // sent something more: seconds of a busy core after a relayout).
        pendingEvents += listener.take()
        if !pendingEvents.isEmpty || scrolledSinceRead || !deferredChildren.isEmpty { return Self.dueAtOnce }
        let silence = ApplicationSilence.shared
        silence.poll(at: MonotonicClock.now())
        AccessibilityRegistry.shared.poll(at: MonotonicClock.now())
        let held = heldTapDue(at: MonotonicClock.now())
        if silence.hasChanges || AccessibilityRegistry.shared.hasChanges || held == Self.dueAtOnce { return Self.dueAtOnce }
        do {
            let wait = try context.prepare().map { MonotonicClock.now() + $0 }
            // A program started from the menu is looked for until its window shows, events or
            // none (its window's events can come before the registry lists its application).
            let launch = launchWatch != nil ? MonotonicClock.now() + Self.launchPoll : nil
            let due = [wait, launch, held, silence.nextPingDue, AccessibilityRegistry.shared.nextCheckDue].compactMap { $0 }.min()
            return due
        } catch {
            // A context that cannot be prepared (held by another thread, too many descriptors)
            // is tried again in a second, and said.
            return MonotonicClock.now() + 1
        }
    }

    /// The tap held while its application is asked whether it answers (`HeldTap`).
    var heldTap: HeldTapRequest?
    private var pendingEvents: [AccessibleEvent] = []
    /// The window read that the last batch left to this turn (once: a steady trickle of
    /// in-place events must not put it off for ever).
    private var deferredWindowRead = false
    /// How often a started program's window is looked for while no event comes, in seconds.
    static let launchPoll = 0.5
    /// A deadline that is always past (the monotonic clock's start).
    static let dueAtOnce = 0.0

    public func readable(at now: Double) -> [RuntimeInput] {
        context.dispatch()
        return handleEvents() + takeHeldTap(at: MonotonicClock.now())
    }

    public func deadlineReached(at now: Double) -> [RuntimeInput] {
        context.dispatch()
        return handleEvents() + takeHeldTap(at: MonotonicClock.now())
    }

    /// The events since the last turn as one update: a new window or dialog is a screen
    /// change, anything else in the window a layout change, announcements flash.
    private func handleEvents() -> [RuntimeInput] {
        // Everything that has arrived, not only the one message this turn's dispatch handed
        // over: a relayout's dozens of events are one update, one window read at most.
        context.drain()
        let events = pendingEvents + listener.take()
        pendingEvents.removeAll()
        let said = silenceNotes()
        guard !events.isEmpty else {
            if !deferredChildren.isEmpty, said.isEmpty, let update = readDeferredChildren() { return update }
            if followLaunchedProgram(), findWindow() {
                return [.content(ContentUpdate(screen: screen.name, notifications: [AccessibilityNotification(kind: .screenChanged)] + said))]
            }
            guard !said.isEmpty else { return takeScrollUpdate() }
            // The window list changed (one left out or back); the scanned window's application
            // left the bus: another window is the screen.
            let previous = windowBusName
            if findWindow() {
                return [.content(ContentUpdate(screen: screen.name, notifications: [AccessibilityNotification(kind: .screenChanged)] + said
                    + (closedApplication(previous).map { [$0] } ?? [])))]
            }
            // An application that answers again: its window may have changed meanwhile.
            let before = screen
            if let window, !ApplicationSilence.shared.contains(window.busName) { reread() }
            return update(from: before, notifications: said)
        }
        eventBatches += 1
        if Self.debug {
            var counts: [String: Int] = [:]
            for event in events { counts[event.type, default: 0] += 1 }
            Self.say("batch \(eventBatches) of \(events.count) events, \(windowReads) window reads so far: \(counts.sorted { $0.key < $1.key })")
        }
        var notifications = said
        let previous = windowBusName
        let windowEvent = events.contains { $0.type.hasPrefix("window:") || $0.type.hasPrefix("object:state-changed:modal") }
        // The user gave another application's window the focus by other means (a window
        // manager, the mouse): the scanner follows, unless the command line named one application.
        for event in events where event.type.hasPrefix("window:activate") {
            guard let source = event.source, source != window, let application = try? source.parent() else { continue }
            if let wanted = target.application, !((try? application.name()) ?? "").localizedLowercase.contains(wanted.lowercased()) { continue }
            pin(source, of: application)
        }
        // The window scanned was closed or hidden (a dialog's OK) with no window event: another.
        let windowHidden = window.map { !ApplicationSilence.shared.contains($0.busName) && !$0.states().contains(.visible) } ?? true
        let launched = followLaunchedProgram()
        if window == nil || windowEvent || windowHidden || launched, findWindow() {
            notifications.append(AccessibilityNotification(kind: .screenChanged))
            if let closed = closedApplication(previous) { notifications.append(closed) }
            return [.content(ContentUpdate(screen: screen.name, notifications: notifications))]
        }
        let before = screen
        // Firefox's `<select>`: its popup opened outside the window's tree (or may have closed).
        let popupsChanged = detachedPopups.note(events, in: snapshot)
        for event in events where event.type.hasPrefix("object:announcement") {
            if let text = try? event.source?.name(), !text.isEmpty {
                notifications.append(AccessibilityNotification(kind: .announcement, text: text))
            }
        }
        // Each event costs the object it names (`ChangePlan`): a name or a state read in place,
        // a children change that object's subtree, a `defunct` object taken out; events about
        // objects not scanned (a background tab, a closed menu, one already gone) change
        // nothing and say nothing, so the highlight's step and an open menu go on undisturbed.
        var plan = snapshot.map { ChangePlan.plan(events.map(Self.changeEvent), in: $0) } ?? { var whole = ChangePlan(); whole.readWindow = true; return whole }()
        let sources = Dictionary(events.compactMap { event in event.source.map { (event.sourceID ?? $0.id, $0) } }, uniquingKeysWith: { first, _ in first })
        if let snapshot, !plan.attached.isEmpty {
            plan.attached = plan.attached.filter { id in sources[id].map { placeInBigList($0, in: snapshot) != nil } ?? false }
        }
        for change in plan.showing {
            if change.isShown { hiddenByEvent.remove(change.id) } else { hiddenByEvent.insert(change.id) }
            if change.isShown { shownByEvent.insert(change.id) } else { shownByEvent.remove(change.id) }
        }
        if Self.debug {
            Self.say("plan: \(plan.readInPlace.count) read in place, \(plan.readSubtrees.count) subtrees (\(subtreeReads) so far), \(plan.removed.count) removed, window \(plan.readWindow), \(plan.ignored) ignored, \(plan.showing.count) shown or hidden")
        }
        if plan.isEmpty, !popupsChanged {
            deferredWindowRead = false
            // Events about nothing scanned (the defunct events GTK 3 sends while a big list's rows
            // are read) do not hold the rest of the list up.
            if !deferredChildren.isEmpty, notifications.isEmpty, let update = readDeferredChildren() { return update }
            return notifications.isEmpty ? [] : [.content(ContentUpdate(notifications: notifications))]
        }
        if plan.readWindow {
            // What reads in place is shown first: the window read is left to the next turn,
            // after this update is out (a rename in a window of 10,000 objects shows in
            // milliseconds, not after the seconds of a whole read). One window read a turn at most.
            var partial = plan
            partial.readWindow = false
            if !deferredWindowRead, !partial.isEmpty, apply(partial) {
                pendingEvents = events.filter { !Self.readsInPlace($0.type) }
                if pendingEvents.isEmpty { pendingEvents = events }
                deferredWindowRead = true
                return update(from: before, notifications: notifications)
            }
            reread()
        } else if !apply(plan, sources: sources) {
            reread()
        }
        deferredWindowRead = false
        // The window went away while it was read: the next one is a new screen.
        if window == nil, findWindow() {
            return [.content(ContentUpdate(screen: screen.name, notifications: [AccessibilityNotification(kind: .screenChanged)]
                + (closedApplication(previous).map { [$0] } ?? [])))]
        }
        return update(from: before, notifications: notifications)
    }

    /// What the application changed by itself, as the session hears it: a popup opened or
    /// closed as `LivePopups` says; any other change a `layoutChanged` (the engine keeps the
    /// highlight, its step and an open scanner menu); no change at all, nothing.
    private func update(from before: Screen, notifications: [AccessibilityNotification]) -> [RuntimeInput] {
        if screen == before, notifications.isEmpty { return [] }
        let change = LivePopups.notification(from: before, to: screen)
            ?? (screen == before ? nil : AccessibilityNotification(kind: .layoutChanged))
        return [.content(ContentUpdate(notifications: (change.map { [$0] } ?? []) + notifications))]
    }
}
