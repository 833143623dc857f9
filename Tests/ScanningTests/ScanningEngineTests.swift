import AccessibilityModel
import Scanning
import SwitchInput
import Testing

// The engine driven with a manual clock: every test feeds events with explicit times and checks
// the returned actions, timers included.

private func item(_ id: String, _ traits: Traits = [.button], x: Double = 0, y: Double = 0,
                  actions: [String] = [], content: [CustomContent] = []) -> ScanNode {
    .item(Element(
        id: id, label: id.capitalized, traits: traits, frame: Rect(x: x, y: y, width: 40, height: 40),
        customActions: actions.map { CustomAction(name: $0, effects: []) }, customContent: content))
}

private func group(_ id: String, _ children: [ScanNode], style: NavigationStyle = .combined) -> ScanNode {
    .group(Element(id: id, navigationStyle: style), children)
}

private func engine(_ configure: (inout ScanSettings) -> Void = { _ in }) -> ScanningEngine {
    var settings = ScanSettings()
    configure(&settings)
    return ScanningEngine(settings: settings)
}

private func highlighted(_ actions: [ScanAction]) -> [ElementID?] {
    actions.compactMap { if case .highlight(let highlight) = $0 { return highlight.focusID } else { return nil } }
}

private func scheduled(_ actions: [ScanAction]) -> [ScanTimer: Double] {
    var result = [ScanTimer: Double]()
    for case .schedule(let timer, let at) in actions { result[timer] = at }
    return result
}

private func performed(_ actions: [ScanAction]) -> [String] {
    actions.compactMap { if case .perform(let command, let element) = $0 { return "\(command) \(element?.id ?? "screen")" } else { return nil } }
}

private let flat = ScanStructure(nodes: [item("a"), item("b"), item("c")])

@Suite("Scanning engine: auto scanning")
struct AutoScanningTests {
    @Test func startsOnTheFirstItemAndSchedulesTheStep() {
        var scanner = engine()
        let actions = scanner.handle(.structureChanged(flat, .initial, time: 10))
        #expect(actions == [.highlight(.entry(item("a"))), .schedule(.advance, at: 11)])
        #expect(scanner.highlight.focusID == "a")
        #expect(scanner.isRunning)
    }

    @Test func eachStepMovesAndSchedulesTheNext() {
        var scanner = engine { $0.autoScanningTime = 0.5 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        #expect(scanner.handle(.timerFired(.advance, time: 0.5)) == [.highlight(.entry(item("b"))), .schedule(.advance, at: 1.0)])
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 1.0))) == ["c"])
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 1.5))) == ["a"])
    }

    @Test func pauseOnFirstItemLengthensTheFirstStepOfEveryCycle() {
        var scanner = engine { $0.pauseOnFirstItem = 1.5 }
        #expect(scheduled(scanner.handle(.structureChanged(flat, .initial, time: 0))) == [.advance: 2.5])
        #expect(scheduled(scanner.handle(.timerFired(.advance, time: 2.5))) == [.advance: 3.5])
        _ = scanner.handle(.timerFired(.advance, time: 3.5))
        #expect(scheduled(scanner.handle(.timerFired(.advance, time: 4.5))) == [.advance: 7.0])
    }

    @Test func afterLoopsCyclesScanningStopsAndAnySwitchRestartsIt() {
        var scanner = engine { $0.loops = 2 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        var time = 0.0
        for _ in 0..<5 {
            time += 1
            _ = scanner.handle(.timerFired(.advance, time: time))
        }
        // a b c a b c: the sixth step would start a third cycle.
        let stop = scanner.handle(.timerFired(.advance, time: 6))
        #expect(stop == [.cancel(.advance), .cancel(.dwell), .highlight(.none), .scanning(running: false)])
        #expect(scanner.highlight == .none)
        #expect(!scanner.isRunning)
        let restart = scanner.handle(.began(.select, time: 20))
        #expect(restart == [.scanning(running: true), .highlight(.entry(item("a"))), .schedule(.advance, at: 21)])
        #expect(performed(restart).isEmpty)
    }

    @Test func theStopSwitchPausesAndResumes() {
        var scanner = engine()
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.timerFired(.advance, time: 1))
        #expect(scanner.handle(.began(.stop, time: 1.2)) == [.cancel(.advance), .cancel(.dwell), .scanning(running: false)])
        #expect(scanner.highlight.focusID == "b")
        #expect(scanner.handle(.began(.select, time: 2)) == [.ignored(.select, reason: "scanning is paused (the stop switch resumes it)")])
        #expect(scanner.handle(.began(.stop, time: 3)) == [.scanning(running: true), .highlight(.entry(item("b"))), .schedule(.advance, at: 4)])
    }

    @Test func minimumDisplayTimeIgnoresAPressBeforeTheUserCanSeeTheHighlight() {
        var scanner = engine { $0.minimumDisplayTime = 0.3; $0.tapBehavior = .alwaysTap }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.timerFired(.advance, time: 1))
        let early = scanner.handle(.began(.select, time: 1.1))
        #expect(early.count == 1)
        if case .ignored(.select, let reason) = early.first { #expect(reason.contains("minimumDisplayTime")) } else { Issue.record("not ignored: \(early)") }
        #expect(performed(scanner.handle(.began(.select, time: 1.4))) == ["activate b"])
    }
}

@Suite("Scanning engine: groups")
struct GroupTests {
    let structure = ScanStructure(nodes: [group("wrap", [item("t1"), item("t2")]), item("btn")])

    @Test func selectEntersACombinedGroupAndItsOutlineLeavesIt() {
        var scanner = engine()
        _ = scanner.handle(.structureChanged(structure, .initial, time: 0))
        #expect(scanner.highlight.focusID == "wrap")
        #expect(highlighted(scanner.handle(.began(.select, time: 0.5))) == ["t1"])
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 1.5))) == ["t2"])
        let outline = scanner.handle(.timerFired(.advance, time: 2.5))
        #expect(outline.first == .highlight(.groupExit(group("wrap", [item("t1"), item("t2")]))))
        // Selecting the outline leaves the group, highlighting it in its parent.
        #expect(scanner.handle(.began(.select, time: 3)) == [.highlight(.entry(structure.nodes[0])), .schedule(.advance, at: 4)])
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 4))) == ["btn"])
    }

    @Test func aGroupIsLeftAfterItsLoops() {
        var scanner = engine { $0.loops = 1 }
        _ = scanner.handle(.structureChanged(structure, .initial, time: 0))
        _ = scanner.handle(.began(.select, time: 0.5))  // t1
        _ = scanner.handle(.timerFired(.advance, time: 1.5))  // t2
        _ = scanner.handle(.timerFired(.advance, time: 2.5))  // outline
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 3.5))) == ["wrap"])
        #expect(scanner.isRunning)
    }

    @Test func escapeLeavesAGroupWhenNothingHandlesIt() {
        var scanner = engine { $0.scanning = .manual }
        _ = scanner.handle(.structureChanged(structure, .initial, time: 0))
        _ = scanner.handle(.began(.select, time: 1))
        #expect(scanner.highlight.focusID == "t1")
        #expect(highlighted(scanner.handle(.began(.escape, time: 2))) == ["wrap"])
    }
}

@Suite("Scanning engine: tap behaviours and the menu")
struct MenuTests {
    @Test func defaultTapBehaviourOpensTheMenu() {
        var scanner = engine()
        let adjustable = ScanStructure(nodes: [
            item("volume", [.adjustable], actions: ["Reset"], content: [CustomContent(label: "Max", value: "10")]),
        ], escapable: ["volume"])
        _ = scanner.handle(.structureChanged(adjustable, .initial, time: 0))
        let opened = scanner.handle(.began(.select, time: 0.4))
        #expect(scanner.menu?.entries.map(\.title) == ["Tap", "Increment", "Decrement", "Reset", "More content", "Escape", "Exit menu"])
        #expect(opened.contains(.schedule(.advance, at: 1.4)))
        #expect(scanner.highlight.focusID == "volume")
    }

    @Test func incrementKeepsTheMenuOpenOnTheSameEntry() {
        var scanner = engine { $0.scanning = .manual }
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [item("volume", [.adjustable])]), .initial, time: 0))
        _ = scanner.handle(.began(.select, time: 1))
        _ = scanner.handle(.began(.next, time: 2))
        #expect(scanner.menu?.focus == 1)
        #expect(performed(scanner.handle(.began(.select, time: 3))) == ["increment volume"])
        #expect(performed(scanner.handle(.began(.select, time: 4))) == ["increment volume"])
        #expect(scanner.menu?.focus == 1)
    }

    @Test func tapFromTheMenuActsAndClosesIt() {
        var scanner = engine { $0.scanning = .manual }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.began(.select, time: 1))
        let tapped = scanner.handle(.began(.select, time: 2))
        #expect(tapped.contains(.menuClosed))
        #expect(performed(tapped) == ["activate a"])
        #expect(scanner.menu == nil)
    }

    @Test func exitMenuAndTheMenuSwitchClose() {
        var scanner = engine { $0.scanning = .manual }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.began(.next, time: 0.5))
        _ = scanner.handle(.began(.select, time: 1))
        _ = scanner.handle(.began(.next, time: 2))  // Exit menu
        #expect(scanner.menu.map { $0.entries[$0.focus].title } == "Exit menu")
        let closed = scanner.handle(.began(.select, time: 3))
        #expect(closed.contains(.menuClosed))
        #expect(scanner.highlight.focusID == "b")
        _ = scanner.handle(.began(.menu, time: 4))
        #expect(scanner.menu != nil)
        #expect(scanner.handle(.began(.menu, time: 5)).contains(.menuClosed))
    }

    @Test func theMenuClosesAfterItsLoops() {
        var scanner = engine { $0.loops = 1 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.began(.select, time: 0.5))  // Tap, Exit menu
        _ = scanner.handle(.timerFired(.advance, time: 1.5))
        let closed = scanner.handle(.timerFired(.advance, time: 2.5))
        #expect(closed.contains(.menuClosed))
        #expect(scanner.highlight.focusID == "a")
    }

    @Test func alwaysTapActsAtOnceAndOffersTheMenuAtTheEndOfACycle() {
        var scanner = engine { $0.tapBehavior = .alwaysTap; $0.scanning = .manual }
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [item("a"), item("b")], screenHandlesEscape: true), .initial, time: 0))
        #expect(performed(scanner.handle(.began(.select, time: 1))) == ["activate a"])
        _ = scanner.handle(.began(.next, time: 2))
        _ = scanner.handle(.began(.next, time: 3))
        #expect(scanner.highlight == .menuButton)
        _ = scanner.handle(.began(.select, time: 4))
        #expect(scanner.menu?.entries.map(\.title) == ["Escape", "Exit menu"])
        #expect(performed(scanner.handle(.began(.select, time: 5))) == ["escape screen"])
    }

    @Test func autoTapTapsUnlessASecondSelectComes() {
        var scanner = engine { $0.tapBehavior = .autoTap; $0.autoTapTime = 0.75 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        #expect(scanner.handle(.began(.select, time: 0.5)) == [.cancel(.advance), .schedule(.autoTap, at: 1.25)])
        #expect(performed(scanner.handle(.timerFired(.autoTap, time: 1.25))) == ["activate a"])

        var second = engine { $0.tapBehavior = .autoTap }
        _ = second.handle(.structureChanged(flat, .initial, time: 0))
        _ = second.handle(.began(.select, time: 0.5))
        let menu = second.handle(.began(.select, time: 0.9))
        #expect(menu.first == .cancel(.autoTap))
        #expect(second.menu?.entries.first?.title == "Tap")
        #expect(performed(menu).isEmpty)
    }

    @Test func aNotEnabledItemIsShownButNotActivated() {
        var scanner = engine { $0.tapBehavior = .alwaysTap }
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [item("send", [.button, .notEnabled])]), .initial, time: 0))
        #expect(scanner.highlight.focusID == "send")
        let actions = scanner.handle(.began(.select, time: 0.5))
        #expect(performed(actions).isEmpty)
        #expect(actions.contains(.flash("Not enabled", until: 4.5)))
    }
}

@Suite("Scanning engine: manual and single-switch step scanning")
struct ManualScanningTests {
    @Test func nextAndPreviousMoveWithoutTimers() {
        var scanner = engine { $0.scanning = .manual }
        #expect(scanner.handle(.structureChanged(flat, .initial, time: 0)) == [.highlight(.entry(item("a")))])
        #expect(scanner.handle(.began(.next, time: 1)) == [.highlight(.entry(item("b")))])
        #expect(scanner.handle(.began(.previous, time: 2)) == [.highlight(.entry(item("a")))])
        #expect(scanner.handle(.began(.previous, time: 3)) == [.highlight(.entry(item("c")))])
    }

    @Test func moveRepeatRepeatsWhileHeld() {
        var scanner = engine { $0.scanning = .manual; $0.moveRepeat = 0.5 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        #expect(scanner.handle(.began(.next, time: 1)) == [.highlight(.entry(item("b"))), .schedule(.moveRepeat, at: 1.5)])
        #expect(scanner.handle(.timerFired(.moveRepeat, time: 1.5)) == [.highlight(.entry(item("c"))), .schedule(.moveRepeat, at: 2.0)])
        #expect(scanner.handle(.ended(.next, time: 1.7)) == [.cancel(.moveRepeat)])
    }

    @Test func singleSwitchStepMovesAndDwellSelects() {
        var scanner = engine { $0.scanning = .singleSwitchStep; $0.dwellTime = 2; $0.tapBehavior = .alwaysTap }
        #expect(scheduled(scanner.handle(.structureChanged(flat, .initial, time: 0))) == [.dwell: 2])
        #expect(scanner.handle(.began(.select, time: 1)) == [.highlight(.entry(item("b"))), .schedule(.dwell, at: 3)])
        #expect(performed(scanner.handle(.timerFired(.dwell, time: 3))) == ["activate b"])
    }
}

@Suite("Scanning engine: screen changes")
struct ScreenChangeTests {
    @Test func layoutChangedKeepsTheHighlightOnTheSameElement() {
        var scanner = engine { $0.scanning = .manual }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.began(.next, time: 1))
        let moved = ScanStructure(nodes: [item("new"), item("a"), item("b"), item("c")])
        _ = scanner.handle(.structureChanged(moved, .layoutChanged(focus: nil), time: 2))
        #expect(scanner.highlight.focusID == "b")
    }

    @Test func layoutChangedFindsTheElementByItsFrameWhenTheIdChanged() {
        var scanner = engine { $0.scanning = .manual }
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [item("q", x: 0), item("w", x: 50)]), .initial, time: 0))
        _ = scanner.handle(.began(.next, time: 1))
        let shifted = ScanStructure(nodes: [item("Q", x: 0), item("W", x: 50)])
        _ = scanner.handle(.structureChanged(shifted, .layoutChanged(focus: nil), time: 2))
        #expect(scanner.highlight.focusID == "W")
    }

    @Test func layoutChangedMovesToTheNearestFollowingItemWhenTheElementIsGone() {
        var scanner = engine { $0.scanning = .manual }
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [item("a", x: 0), item("b", x: 100), item("c", x: 200)]), .initial, time: 0))
        _ = scanner.handle(.began(.next, time: 1))
        let without = ScanStructure(nodes: [item("a", x: 0), item("c", x: 200)])
        _ = scanner.handle(.structureChanged(without, .layoutChanged(focus: nil), time: 2))
        #expect(scanner.highlight.focusID == "c")
    }

    @Test func layoutChangedUsesTheGivenFocusWhenNothingElseMatches() {
        var scanner = engine { $0.scanning = .manual }
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [item("a", x: 0), item("b", x: 100)]), .initial, time: 0))
        _ = scanner.handle(.began(.next, time: 1))
        let replaced = ScanStructure(nodes: [item("x", x: 300), item("status", x: 400)])
        _ = scanner.handle(.structureChanged(replaced, .layoutChanged(focus: "status"), time: 2))
        #expect(scanner.highlight.focusID == "status")
    }

    @Test func screenChangedStartsAtTheFirstItemWithoutFlashingTheSummaryAgain() {
        // DISIC: the summary is rendered once when the application is opened, "but not every
        // time the interface is displayed again".
        var scanner = engine()
        let summary = Element(id: "score", label: "Score", value: "13", traits: [.summaryElement])
        let game = ScanStructure(nodes: [item("done"), .item(summary)])
        let opening = scanner.handle(.structureChanged(game, .initial, time: 0))
        #expect(opening.contains(.flash("Score 13", until: 4)))
        _ = scanner.handle(.timerFired(.flash, time: 4))
        _ = scanner.handle(.structureChanged(flat, .screenChanged(focus: nil), time: 5))
        let back = scanner.handle(.structureChanged(game, .screenChanged(focus: nil), time: 6))
        #expect(scanner.highlight.focusID == "done")
        #expect(!back.contains { if case .flash = $0 { return true } else { return false } })
        #expect(scanner.flashMessage == nil)
    }

    @Test func screenChangedHighlightsTheGivenElement() {
        var scanner = engine()
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [item("x"), group("g", [item("y"), item("z")])]), .screenChanged(focus: "z"), time: 1))
        #expect(scanner.highlight.focusID == "z")
    }

    @Test func focusedItemAfterTapFirstRestartsAtTheTop() {
        var scanner = engine { $0.tapBehavior = .alwaysTap; $0.scanning = .manual }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.began(.next, time: 1))
        _ = scanner.handle(.began(.select, time: 2))
        _ = scanner.handle(.structureChanged(flat, .refreshed, time: 2))
        #expect(scanner.highlight.focusID == "a")

        var current = engine { $0.tapBehavior = .alwaysTap; $0.scanning = .manual; $0.focusedItemAfterTap = .current }
        _ = current.handle(.structureChanged(flat, .initial, time: 0))
        _ = current.handle(.began(.next, time: 1))
        _ = current.handle(.began(.select, time: 2))
        _ = current.handle(.structureChanged(flat, .refreshed, time: 2))
        #expect(current.highlight.focusID == "b")
    }

    @Test func announcementsFlashForFlashDuration() {
        var scanner = engine { $0.flashDuration = 2 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        // Auto scanning holds while the message covers the highlight.
        #expect(scanner.handle(.message("Message sent.", time: 0.5))
                == [.cancel(.advance), .cancel(.dwell), .flash("Message sent.", until: 2.5), .schedule(.flash, at: 2.5)])
        #expect(scanner.flashMessage == "Message sent.")
    }

    @Test func aScreenWithoutItemsHasNoHighlight() {
        var scanner = engine()
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: []), .initial, time: 0))
        #expect(scanner.highlight == .none)
        #expect(scanner.handle(.began(.select, time: 1)) == [.ignored(.select, reason: "the screen has no item to scan")])
    }
}

@Suite("Scanning engine: loops, messages and reporting back")
struct LoopAndMessageTests {
    @Test func aSelectionStartsTheLoopCountAgain() {
        // loops 1, three items: a full cycle is three steps from the last selection.
        var scanner = engine { $0.loops = 1 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.timerFired(.advance, time: 1))  // b
        _ = scanner.handle(.began(.select, time: 1.5))  // menu on b
        _ = scanner.handle(.began(.menu, time: 1.6))  // close: back on b
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 2.6))) == ["c"])
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 3.6))) == ["a"])
        // Without the selection, the wrap to a would have been the end (two steps were taken
        // before it); now the cycle ends on the third step after the selection.
        #expect(scanner.isRunning)
        let stop = scanner.handle(.timerFired(.advance, time: 4.6))
        #expect(stop.contains(.scanning(running: false)))
    }

    @Test func messagesPostedTogetherAreShownInTurnALaterOneReplaces() {
        var scanner = engine { $0.flashDuration = 2 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        let hold: [ScanAction] = [.cancel(.advance), .cancel(.dwell)]
        #expect(scanner.handle(.message("2 pins hit.", time: 1)) == hold + [.flash("2 pins hit.", until: 3), .schedule(.flash, at: 3)])
        #expect(scanner.handle(.message("Starting frame 3.", time: 1)) == [])
        #expect(scanner.flashMessage == "2 pins hit.")
        #expect(scanner.handle(.timerFired(.flash, time: 3)) == hold + [.flash("Starting frame 3.", until: 5), .schedule(.flash, at: 5)])
        #expect(scanner.handle(.message("Saved.", time: 4)) == hold + [.flash("Saved.", until: 6), .schedule(.flash, at: 6)])
        #expect(scanner.handle(.timerFired(.flash, time: 6)) == [.flashEnded, .schedule(.advance, at: 7)])
        #expect(scanner.flashMessage == nil)
    }

    /// Issue 12: the highlight is what the display shows.
    @Test func aMessageHoldsAutoScanningAndThePressThatEndsItActsOnNothingElse() {
        var scanner = engine { $0.flashDuration = 2; $0.minimumDisplayTime = 0.3 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.message("Saved.", time: 0.5))
        // The step that was due at 1 s was cancelled: the highlight stays on a, under the message.
        #expect(scanner.handle(.timerFired(.advance, time: 1)) == [])
        #expect(scanner.highlight.focusID == "a")
        // A select while the message is up takes it off, and selects nothing.
        let press = scanner.handle(.began(.select, time: 1.2))
        #expect(press.contains(.flashEnded))
        #expect(press.contains(.cancel(.flash)))
        #expect(press.contains { if case .ignored(.select, let reason) = $0 { reason.contains("took the message off") } else { false } })
        #expect(!press.contains { if case .menu = $0 { true } else { false } }, "no menu opened: \(press)")
        #expect(scanner.menu == nil)
        #expect(scanner.flashMessage == nil)
        // a's line is back on the display at 1.2 s: its step counts from then.
        #expect(press.contains(.schedule(.advance, at: 2.2)))
        // minimumDisplayTime counts from the line being shown, not from the highlight moving.
        let tooSoon = scanner.handle(.began(.select, time: 1.4))
        #expect(tooSoon.contains { if case .ignored(.select, let reason) = $0 { reason.contains("minimumDisplayTime") } else { false } }, "\(tooSoon)")
        let inTime = scanner.handle(.began(.select, time: 1.6))
        #expect(inTime.contains { if case .menu = $0 { true } else { false } }, "\(inTime)")
    }

    @Test func panningAwayFromTheFirstWindowHoldsAutoScanning() {
        var scanner = engine { $0.autoScanningTime = 1 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        #expect(scanner.handle(.readerPanned(away: true, time: 0.5)) == [.cancel(.advance), .cancel(.dwell)])
        #expect(scanner.handle(.timerFired(.advance, time: 1)) == [], "held: nothing moves")
        #expect(scanner.highlight.focusID == "a")
        // Back on the first window at 3 s: the step counts from then.
        #expect(scanner.handle(.readerPanned(away: false, time: 3)) == [.schedule(.advance, at: 4)])
        #expect(scanner.handle(.readerPanned(away: false, time: 3.5)) == [], "no change, no action")
    }

    @Test func aMessageStaysUpAsLongAsItsLengthTakesToRead() {
        var scanner = engine { $0.flashDuration = 4; $0.brailleReadingSpeed = 10 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        let short = scanner.handle(.message("Saved.", time: 1))
        #expect(short.contains(.schedule(.flash, at: 5)), "a short message: flashDuration")
        let long = String(repeating: "x", count: 79)
        let actions = scanner.handle(.message(long, time: 10))
        #expect(actions.contains(.schedule(.flash, at: 17.9)), "79 characters at 10 a second: \(actions)")
    }

    @Test func afterATapTheHighlightWaitsForTheSceneAndThenScansOn() {
        var scanner = engine { $0.tapBehavior = .alwaysTap }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.timerFired(.advance, time: 1))
        let tap = scanner.handle(.began(.select, time: 1.5))
        #expect(tap == [.cancel(.advance), .perform(.activate, element: item("b").element)])
        // The host reports back (nothing changed): focusedItemAfterTap first, and the timer again.
        #expect(scanner.handle(.structureChanged(flat, .refreshed, time: 1.5)) == [.highlight(.entry(item("a"))), .schedule(.advance, at: 2.5)])
    }

    @Test func aCustomActionFromTheMenuKeepsTheHighlightOnTheElementOnceTheSceneReportsBack() {
        var scanner = engine { $0.scanning = .manual }
        let structure = ScanStructure(nodes: [item("mail", actions: ["Delete"]), item("next")])
        _ = scanner.handle(.structureChanged(structure, .initial, time: 0))
        _ = scanner.handle(.began(.select, time: 1))
        _ = scanner.handle(.began(.next, time: 2))  // Delete
        let performed = scanner.handle(.began(.select, time: 3))
        #expect(performed == [.cancel(.advance), .cancel(.dwell), .menuClosed, .perform(.customAction("Delete"), element: item("mail", actions: ["Delete"]).element)])
        // The element was deleted: the highlight goes to the nearest following item.
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [item("next")]), .layoutChanged(focus: nil), time: 3))
        #expect(scanner.highlight.focusID == "next")
    }
}

/// DISIC: "`UIAccessibilityPauseAssistiveTechnologyNotification` and
/// `UIAccessibilityResumeAssistiveTechnologyNotification`: allows to temporarily pause and resume
/// the actions performed by the assistive tools specified in parameters."
@Suite("Scanning engine: paused by the app")
struct AppPauseTests {
    @Test func thePauseStopsTheStepAndTheSwitchesUntilTheResume() {
        var scanner = engine { $0.autoScanningTime = 1 }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        let paused = scanner.handle(.appPaused(true, time: 0.5))
        #expect(paused.contains(.cancel(.advance)))
        #expect(paused.contains(.scanning(running: false)))
        #expect(!scanner.isRunning && scanner.isPausedByApp && !scanner.isPaused)
        // A step that was due does nothing; a switch is ignored, saying why.
        #expect(scanner.handle(.timerFired(.advance, time: 1)) == [])
        let pressed = scanner.handle(.began(.next, time: 2))
        #expect(pressed == [.ignored(.next, reason: "scanning is paused by the app (pauseAssistiveTechnology; the app's resumeAssistiveTechnology resumes it)")])
        #expect(scanner.highlight.focusID == "a")
        // The structure may change meanwhile: no step is scheduled.
        #expect(scheduled(scanner.handle(.structureChanged(flat, .refreshed, time: 3))).isEmpty)
        let resumed = scanner.handle(.appPaused(false, time: 10))
        #expect(resumed.contains(.scanning(running: true)))
        #expect(scheduled(resumed) == [.advance: 11])
        #expect(scanner.isRunning)
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 11))) == ["b"])
    }

    @Test func aSecondPauseOrAResumeWithoutPauseDoesNothing() {
        var scanner = engine()
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        #expect(scanner.handle(.appPaused(false, time: 1)) == [])
        _ = scanner.handle(.appPaused(true, time: 1))
        #expect(scanner.handle(.appPaused(true, time: 2)) == [])
    }
}
