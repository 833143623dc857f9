import AccessibilityModel
import Atspi
import Desktop
import Foundation
import LiveTree
import Scanning
import Platform

/// A list the scanner shows in place of the window: a page's links (headings, landmarks, form
/// fields), or the installed programs by category. Choosing an entry ends it.
struct LiveChooser {
    enum Purpose: Equatable {
        case elements(ElementList.Kind)
        case programs
    }

    var purpose: Purpose
    var structure: ScanStructure
    /// The list's name, as the screen's.
    var title: String
}

/// A program started from the scanner menu, whose first window the scanner follows.
struct LaunchWatch {
    var name: String
    /// The applications on the bus when it was started (bus name and path).
    var before: Set<String>
    /// Past this moment (monotonic seconds) a window that appears is not taken for it.
    var until: Double
}

/// The scanner menu's own entries on a live desktop: jumps by headings, links, landmarks and
/// form fields; scrolling; starting a program; closing the window. And the highlight brought
/// into view when it is on an item out of view.
extension LiveApplication {
    /// Ids of the content commands.
    enum CommandID {
        static let listPrefix = "list:"
        static let scrollDown = "scroll-down"
        static let scrollUp = "scroll-up"
        static let startProgram = "start-program"
        static let closeWindow = "close-window"
    }

    /// How long a started program's first window is waited for, in seconds (a browser on a busy
    /// machine takes tens of seconds).
    static let launchWait = 120.0

    /// The entries offered now: an element list for each kind the window has (on a document,
    /// or more of them than one group holds), Scroll down and up when there is more that way,
    /// Keyboard while a text field has the focus, Start a program, and Close window.
    func desktopCommands(in window: AccessibleNode?) -> [ContentCommand] {
        var commands = [ContentCommand]()
        if let window {
            let isDocument = Self.holdsDocument(window)
            for kind in ElementList.Kind.allCases {
                let count = ElementList.objects(of: kind, in: window).count
                if count > 0, isDocument || count > ElementList.groupSize {
                    commands.append(ContentCommand(id: CommandID.listPrefix + kind.rawValue, title: "\(kind.title) (\(count))"))
                }
            }
            if !Viewport.items(.below, in: window).isEmpty || scrollBar(in: window, canGo: 1) != nil {
                commands.append(ContentCommand(id: CommandID.scrollDown, title: "Scroll down"))
            }
            if !Viewport.items(.above, in: window).isEmpty || scrollBar(in: window, canGo: -1) != nil {
                commands.append(ContentCommand(id: CommandID.scrollUp, title: "Scroll up"))
            }
        }
        if focusedTextField != nil { commands.append(ContentCommand(id: KeyboardContent.openCommandID, title: "Keyboard")) }
        commands.append(ContentCommand(id: CommandID.startProgram, title: "Start a program"))
        if window != nil { commands.append(ContentCommand(id: CommandID.closeWindow, title: "Close window")) }
        return commands
    }

    static func holdsDocument(_ node: AccessibleNode) -> Bool {
        !ElementList.shownDocuments(in: node).isEmpty
    }

    /// A vertical scroll bar (a Value, taller than wide) that can move `direction` (1 down, -1 up).
    func scrollBar(in snapshot: AccessibleNode, canGo direction: Double) -> AccessibleNode? {
        let window = WindowCoordinates(window: snapshot).resolved(snapshot)
        func find(_ node: AccessibleNode) -> AccessibleNode? {
            guard AccessibleMapping.isShown(node) else { return nil }
            if node.role == "scroll bar", let value = node.value, let extents = node.extents, extents.height > extents.width,
               direction > 0 ? value.current < value.maximum : value.current > value.minimum {
                return node
            }
            for child in node.children { if let found = find(child) { return found } }
            return nil
        }
        return find(window)
    }

    /// The content's own commands, and what the user chooses in a list this content shows;
    /// nil for anything else (the element's own commands).
    func performDesktopCommand(_ command: ElementCommand, on element: Element?) -> ContentUpdate? {
        if case .content(let chosen) = command { return performContentCommand(chosen) }
        guard let chooser else { return nil }
        switch command {
        case .escape:
            self.chooser = nil
            return ContentUpdate(screen: screenName, notifications: [AccessibilityNotification(kind: .screenChanged)])
        case .activate:
            guard let element else { return nil }
            self.chooser = nil
            switch chooser.purpose {
            case .programs: return startProgram(element)
            case .elements: return jump(to: element)
            }
        default:
            return ContentUpdate()
        }
    }

    private func performContentCommand(_ command: ContentCommand) -> ContentUpdate? {
        switch command.id {
        case CommandID.scrollDown: return scroll(down: true)
        case CommandID.scrollUp: return scroll(down: false)
        case CommandID.startProgram: return showPrograms()
        case CommandID.closeWindow: return closeWindow()
        default:
            guard command.id.hasPrefix(CommandID.listPrefix),
                  let kind = ElementList.Kind(rawValue: String(command.id.dropFirst(CommandID.listPrefix.count))),
                  let window = currentSnapshot else { return nil }
            let items = ElementList.items(of: kind, in: window)
            guard !items.isEmpty else { return said("no \(kind.title.lowercased()) here") }
            var structure = ScanStructure(nodes: ElementList.nodes(items), screenHandlesEscape: true)
            structure.switchTargets = []
            chooser = LiveChooser(purpose: .elements(kind), structure: structure, title: kind.title)
            return ContentUpdate(screen: kind.title, notifications: [AccessibilityNotification(kind: .screenChanged)])
        }
    }

    private func said(_ text: String) -> ContentUpdate {
        ContentUpdate(notifications: [AccessibilityNotification(kind: .announcement, text: text)])
    }

    // MARK: Jumps

    /// Back to the window with the highlight on `element`, scrolled into view.
    private func jump(to element: Element) -> ContentUpdate {
        bringIntoView(element.id, force: true)
        scrolledSinceRead = false
        return ContentUpdate(screen: screenName, notifications: [AccessibilityNotification(kind: .screenChanged, focus: scannedItem(holding: element.id))])
    }

    /// The item scanned for the object `id`: itself, else the nearest object around it that is
    /// an item (a list row holding the link: the row is the item, its link is not scanned alone).
    func scannedItem(holding id: String) -> String {
        guard let window = currentSnapshot else { return id }
        let items = Set(ScanStructure.of(currentScreen, groupItems: false).nodes.flatMap(\.items).map(\.id))
        var path = [String]()
        func walk(_ node: AccessibleNode) -> Bool {
            path.append(node.id)
            if node.id == id { return true }
            for child in node.children where walk(child) { return true }
            path.removeLast()
            return false
        }
        guard walk(window) else { return id }
        return path.reversed().first(where: items.contains) ?? id
    }

    /// The one object inside `node` that has an action, when there is exactly one (a list row
    /// holding a link): what a tap on an item with no action of its own does.
    static func soleActionable(in node: AccessibleNode) -> AccessibleNode? {
        var found = [AccessibleNode]()
        func walk(_ node: AccessibleNode) {
            for child in node.children {
                if AccessibleMapping.tapAction(of: child) != nil { found.append(child) } else { walk(child) }
                if found.count > 1 { return }
            }
        }
        walk(node)
        return found.count == 1 ? found[0] : nil
    }

    /// Most time a scroll is waited for before the window is read again, in seconds (a browser
    /// scrolls after the call has returned).
    static let scrollWait = 1.0

    /// The last item highlighted, so that it is brought into view once, when highlighted.
    public func highlightShown(_ highlight: Highlight) {
        guard case .entry(let node) = highlight, case .item(let element) = node, chooser == nil else { return }
        guard element.id != lastHighlighted else { return }
        lastHighlighted = element.id
        bringIntoView(element.id, force: false)
    }

    /// Scrolls the object into view when it is out of view (or always, `force`), reads the
    /// window again so that the frames are where they now are, and leaves the change to be
    /// handed to the session at the loop's next turn (`takeScrollUpdate`).
    private func bringIntoView(_ id: String, force: Bool) {
        guard let window = currentSnapshot, let object = liveObject(id) else {
            Self.say("bring \(id) into view: not in the window read")
            return
        }
        let place = Viewport.place(of: id, in: window)
        guard force || (place != nil && place != .inView) else { return }
        let before = try? object.windowExtents()
        let scrolledItself = (try? object.scroll(to: .anywhere)) ?? false
        // GTK 3's list rows do not scroll to themselves: a big list is scrolled by its scroll bar,
        // which the application has moved when the call returns (nothing to wait for: a row GTK
        // already gave a place below the window would cost the whole wait at each highlight).
        let scrolled = scrolledItself || scrollBigList(to: id)
        // The browser scrolls after answering: its new place is waited for (briefly).
        let end = MonotonicClock.now() + Self.scrollWait
        while scrolledItself, MonotonicClock.now() < end, (try? object.windowExtents()) == before {
            _ = try? Poll.readable([], timeout: 0.05)
        }
        Self.say("scroll \(id) into view (\(place.map { "\($0)" } ?? "not in the window")): \(scrolled ? "done" : "not done")")
        if scrolled {
            // In a big list only its rows' frames move (no event says so): those are read again.
            if !readFramesAfterScroll(to: id) { readWindowAgain() }
            scrolledSinceRead = true
        }
    }

    /// The window read again after a scroll, as a layout change (the highlight stays).
    func takeScrollUpdate() -> [RuntimeInput] {
        guard scrolledSinceRead else { return [] }
        scrolledSinceRead = false
        return [.content(ContentUpdate(notifications: [AccessibilityNotification(kind: .layoutChanged)]))]
    }

    /// Scroll down (up): the first item below the view to its top edge (the last above, to the
    /// bottom edge); where the application does not scroll to objects, the scroll bar a tenth
    /// of its range.
    private func scroll(down: Bool) -> ContentUpdate {
        guard let window = currentSnapshot else { return said("nothing to scroll") }
        let candidates = Viewport.items(down ? .below : .above, in: window)
        if let id = down ? candidates.first : candidates.last, let object = liveObject(id),
           (try? object.scroll(to: down ? .topEdge : .bottomEdge)) == true {
            readWindowAgain()
            return ContentUpdate(notifications: [AccessibilityNotification(kind: .layoutChanged)])
        }
        if let bar = scrollBar(in: window, canGo: down ? 1 : -1), let value = bar.value, let object = liveObject(bar.id) {
            let step = max(value.step, (value.maximum - value.minimum) / 10)
            do {
                try object.setValue(min(value.maximum, max(value.minimum, value.current + (down ? step : -step))))
                readWindowAgain()
                return ContentUpdate(notifications: [AccessibilityNotification(kind: .layoutChanged)])
            } catch {
                return said("could not scroll: \(error)")
            }
        }
        return said(down ? "nothing more below" : "nothing more above")
    }

    // MARK: Programs

    private func showPrograms() -> ContentUpdate {
        let programs = DesktopEntries.installed()
        guard !programs.isEmpty else { return said("no programs found (no desktop entries)") }
        var notifications = [AccessibilityNotification(kind: .screenChanged)]
        var uses = [String: Double]()
        if let usage = programUses {
            let loaded = usage.load()
            uses = loaded.uses
            if let problem = loaded.problem { notifications.append(AccessibilityNotification(kind: .announcement, text: problem)) }
        }
        let structure = ScanStructure(nodes: ProgramMenu.nodes(programs, uses: uses), screenHandlesEscape: true)
        chooser = LiveChooser(purpose: .programs, structure: structure, title: "Programs")
        return ContentUpdate(screen: "Programs", notifications: notifications)
    }

    private func startProgram(_ element: Element) -> ContentUpdate {
        guard element.id.hasPrefix(ProgramMenu.itemPrefix) else { return ContentUpdate() }
        let id = String(element.id.dropFirst(ProgramMenu.itemPrefix.count))
        let name = element.label ?? id
        let before = Set(((try? Atspi.desktop().children()) ?? []).map(\.id))
        var notifications = [AccessibilityNotification(kind: .screenChanged)]
        do throws(DesktopError) {
            try DesktopEntries.launch(id: id)
        } catch {
            notifications.append(AccessibilityNotification(kind: .announcement, text: "could not start \(name): \(error)"))
            return ContentUpdate(screen: screenName, notifications: notifications)
        }
        launchWatch = LaunchWatch(name: name, before: before, until: MonotonicClock.now() + Self.launchWait)
        notifications.append(AccessibilityNotification(kind: .announcement, text: "starting \(name)"))
        if let problem = programUses?.record(id) { notifications.append(AccessibilityNotification(kind: .announcement, text: problem)) }
        return ContentUpdate(screen: screenName, notifications: notifications)
    }

    /// The program started last, once its first visible window is on the bus: its application
    /// is the one scanned from then on (as if the user had switched to it). True when it was
    /// found now.
    func followLaunchedProgram() -> Bool {
        guard let watch = launchWatch else { return false }
        guard MonotonicClock.now() < watch.until else {
            launchWatch = nil
            return false
        }
        for application in (try? Atspi.desktop().children()) ?? [] where !watch.before.contains(application.id) {
            if let window = ((try? application.children()) ?? []).last(where: { $0.states().contains(.visible) }) {
                Self.say("started program \(watch.name): window found")
                launchWatch = nil
                pin(window, of: application)
                return true
            }
        }
        return false
    }

    // MARK: Closing

    /// The window's own close action if it has one, else Alt+F4 (the window manager closes
    /// the focused window); which one was used is said.
    private func closeWindow() -> ContentUpdate {
        guard let window = liveWindow else { return said("no window to close") }
        let title = screenName
        do throws(AtspiError) {
            if try window.actionNames().contains("close"), try window.doAction(named: "close") {
                return said("\(title): closed through its close action")
            }
            try Atspi.pressKey(keysym: Atspi.f4Keysym, modifiers: Atspi.altModifier)
            return said("\(title): Alt+F4 sent (the window manager closes the focused window)")
        } catch {
            return said("could not close \(title): \(error)")
        }
    }
}
