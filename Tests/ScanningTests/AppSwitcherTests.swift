import AccessibilityModel
import BrailleFormatting
@testable import Scanning
import Scenes
import SwitchInput
import Testing

// Issue 15: the scanner menu offers the other windows a content can switch to (a live desktop's
// applications, as iOS's app switcher); choosing one is a screen change. Checked on a content
// of two windows that does what a live application does, in memory.

/// Two windows, each with two buttons; either can be switched to from the other.
private struct TwoWindows: ScanContent {
    var current = "Mail"
    var performed: [String] = []
    let language: String

    static let windows = ["Mail": ["Inbox", "Compose"], "Notes": ["New note", "Search"]]

    var title: String { "desktop" }
    var screenName: String { current }
    var size: (width: Double, height: Double) { (400, 300) }

    func currentStructure(groupItems: Bool) -> ScanStructure {
        let items = (Self.windows[current] ?? []).map { label in
            ScanNode.item(Element(id: ElementID("\(current)/\(label)"), label: label, traits: [.button],
                                  frame: Rect(x: 0, y: 0, width: 40, height: 40)))
        }
        let others = Self.windows.keys.sorted().filter { $0 != current }
        return ScanStructure(nodes: items, switchTargets: others.map { SwitchTarget(id: $0, title: $0, application: $0.lowercased()) })
    }

    mutating func rebuildStructure(groupItems: Bool) -> ScanStructure { currentStructure(groupItems: groupItems) }

    mutating func perform(_ command: ElementCommand, on element: Element?) -> ContentUpdate? {
        performed.append(command.description)
        guard case .switchTo(let target) = command else { return ContentUpdate() }
        current = target.id
        return ContentUpdate(screen: current, notifications: [AccessibilityNotification(kind: .screenChanged)])
    }
}

private func settings() -> ScanSettings {
    var settings = ScanSettings()
    settings.scanning = .manual
    settings.groupItems = false
    settings.debounceTime = nil
    return settings
}

private func press(_ action: SwitchAction, _ session: inout ScanSession, at time: inout Double) {
    time += 0.1
    _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .down, time: time))
    time += 0.1
    _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .up, time: time))
}

@Suite("Scanner menu: switching window (app switcher)")
struct AppSwitcherTests {
    @Test("the menu lists the other windows after the item's entries; choosing one makes it the screen")
    func switchWindow() {
        var session = ScanSession(content: TwoWindows(language: "en"), settings: settings())
        _ = session.start()
        var time = 0.0
        #expect(session.focusID == ElementID("Mail/Inbox"))
        press(.menu, &session, at: &time)
        #expect(session.menuTitles == ["Tap", "Switch to Notes (notes)", "Exit menu"])
        press(.next, &session, at: &time)
        #expect(session.brailleText.hasPrefix("Switch to Notes (notes) 2/3"))
        press(.select, &session, at: &time)
        #expect(session.screen == "Notes")
        #expect(session.menuTitles == nil)
        #expect(session.focusID == ElementID("Notes/New note"), "the highlight starts in the new window")
        #expect((session.content as? TwoWindows)?.performed == ["switchTo:Notes"])
        // From there, the menu offers the first window back.
        press(.menu, &session, at: &time)
        #expect(session.menuTitles == ["Tap", "Switch to Mail (mail)", "Exit menu"])
        // A scene has one window: no entry.
        #expect(ScanStructure(nodes: []).switchTargets.isEmpty)
    }

    @Test("the entry in the reader's language on the braille line; the trace keeps the English title")
    func words() {
        var session = ScanSession(content: TwoWindows(language: "fr"), settings: settings())
        _ = session.start()
        var time = 0.0
        press(.menu, &session, at: &time)
        press(.next, &session, at: &time)
        #expect(session.menuFocusTitle == "Switch to Notes (notes)")
        #expect(session.brailleText.hasPrefix("Passer à Notes (notes) 2/3"))
        #expect(ScannerWords.switchTo("Notes (notes)", language: "zh-Hans") == "切换到 Notes (notes)")
    }
}

/// A window whose content offers menu entries of its own (a live desktop's Links, Start a
/// program): they come after the item's entries and before the app switcher.
private struct OfferingWindow: ScanContent {
    var performed: [String] = []
    var title: String { "desktop" }
    var screenName: String { "Page" }
    var size: (width: Double, height: Double) { (400, 300) }
    var language: String { "en" }

    func currentStructure(groupItems: Bool) -> ScanStructure {
        var structure = ScanStructure(
            nodes: [.item(Element(id: "link", label: "Link 1", traits: [.link], frame: Rect(x: 0, y: 0, width: 40, height: 20)))],
            switchTargets: [SwitchTarget(id: "notes", title: "Notes", application: "notes")])
        structure.contentCommands = [ContentCommand(id: "list:links", title: "Links (1)"), ContentCommand(id: "close-window", title: "Close window")]
        return structure
    }

    mutating func rebuildStructure(groupItems: Bool) -> ScanStructure { currentStructure(groupItems: groupItems) }

    mutating func perform(_ command: ElementCommand, on element: Element?) -> ContentUpdate? {
        performed.append(command.description)
        return ContentUpdate()
    }
}

@Suite("Scanner menu: the content's own entries")
struct ContentCommandMenuTests {
    @Test("the content's entries follow the item's and precede the app switcher; choosing one hands it to the content")
    func contentEntries() {
        var session = ScanSession(content: OfferingWindow(), settings: settings())
        _ = session.start()
        var time = 0.0
        press(.menu, &session, at: &time)
        #expect(session.menuTitles == ["Tap", "Links (1)", "Close window", "Switch to Notes (notes)", "Exit menu"])
        press(.next, &session, at: &time)
        press(.select, &session, at: &time)
        #expect(session.menuTitles == nil)
        #expect((session.content as? OfferingWindow)?.performed == ["content:list:links"])
    }
}
