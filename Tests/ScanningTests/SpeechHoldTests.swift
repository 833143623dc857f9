import AccessibilityModel
import Scanning
import Scenes
import SwitchInput
import Testing

// Auditory scanning's rule, driven with a manual clock: the engine is told when the speech of
// each line began and ended (with the line's number), as the runtime's speech output reports it.

private func item(_ id: String) -> ScanNode {
    .item(Element(id: id, label: id.capitalized, traits: [.button], frame: Rect(x: 0, y: 0, width: 40, height: 40)))
}

private let flat = ScanStructure(nodes: [item("a"), item("b"), item("c")])

private func engine(_ configure: (inout ScanSettings) -> Void = { _ in }) -> ScanningEngine {
    var settings = ScanSettings()
    configure(&settings)
    return ScanningEngine(settings: settings)
}

private func highlighted(_ actions: [ScanAction]) -> [ElementID?] {
    actions.compactMap { if case .highlight(let highlight) = $0 { return highlight.focusID } else { return nil } }
}

private func ignoredReasons(_ actions: [ScanAction]) -> [String] {
    actions.compactMap { if case .ignored(_, let reason) = $0 { return reason } else { return nil } }
}

@Suite("Scanning engine: auditory scanning holds for speech")
struct SpeechHoldTests {
    @Test func anAutoStepLastsUntilItsSpeechHasFinished() {
        var scanner = engine { $0.autoScanningTime = 1 }
        #expect(scanner.handle(.speechHold(true, time: 0)) == [])
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        let a = scanner.speech.utterance
        _ = scanner.handle(.speechBegan(utterance: a, time: 0.1))
        // The step is due at 1 s, but a's speech goes on until 2.5 s: nothing moves meanwhile.
        #expect(scanner.handle(.timerFired(.advance, time: 1)) == [])
        #expect(scanner.highlight.focusID == "a")
        #expect(scanner.speech.waitingTimer == .advance)
        // The speech ends: the step is taken then, and the next one counts from there.
        let ended = scanner.handle(.speechEnded(utterance: a, time: 2.5))
        #expect(highlighted(ended) == ["b"])
        #expect(ended.contains(.schedule(.advance, at: 3.5)))
        #expect(scanner.speech.utterance != a, "b is a new line to say")
    }

    @Test func speechThatEndsBeforeTheStepChangesNothing() {
        var scanner = engine { $0.autoScanningTime = 1 }
        _ = scanner.handle(.speechHold(true, time: 0))
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        let a = scanner.speech.utterance
        _ = scanner.handle(.speechBegan(utterance: a, time: 0.05))
        #expect(scanner.handle(.speechEnded(utterance: a, time: 0.4)) == [])
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 1))) == ["b"], "the step keeps its own time")
    }

    @Test func aStepWhoseSpeechHasNotEvenBegunWaitsToo() {
        var scanner = engine { $0.autoScanningTime = 1 }
        _ = scanner.handle(.speechHold(true, time: 0))
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        #expect(scanner.handle(.timerFired(.advance, time: 1)) == [])
        let a = scanner.speech.utterance
        _ = scanner.handle(.speechBegan(utterance: a, time: 1.2))
        #expect(highlighted(scanner.handle(.speechEnded(utterance: a, time: 1.9))) == ["b"])
    }

    @Test func aPressOnAnItemWhoseSpeechHasNotBegunIsIgnored() {
        var scanner = engine { $0.tapBehavior = .alwaysTap }
        _ = scanner.handle(.speechHold(true, time: 0))
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        let early = scanner.handle(.began(.select, time: 0.3))
        #expect(ignoredReasons(early).contains { $0.contains("speech") }, "\(early)")
        #expect(!early.contains { if case .perform = $0 { true } else { false } })
        // Once it began, the press acts (the user has heard it start: as braille, enough to choose).
        _ = scanner.handle(.speechBegan(utterance: scanner.speech.utterance, time: 0.4))
        let heard = scanner.handle(.began(.select, time: 0.5))
        #expect(heard.contains(.perform(.activate, element: Element(id: "a", label: "A", traits: [.button], frame: Rect(x: 0, y: 0, width: 40, height: 40)))), "\(heard)")
    }

    @Test func newsOfALineAlreadyLeftChangesNothing() {
        var scanner = engine { $0.autoScanningTime = 1; $0.tapBehavior = .alwaysTap }
        _ = scanner.handle(.speechHold(true, time: 0))
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        let a = scanner.speech.utterance
        _ = scanner.handle(.speechBegan(utterance: a, time: 0.1))
        // The user moves on to b; a's speech is cancelled by b's and its news comes late.
        _ = scanner.handle(.began(.next, time: 0.3))
        #expect(scanner.highlight.focusID == "b")
        #expect(scanner.handle(.speechEnded(utterance: a, time: 0.35)) == [])
        #expect(scanner.handle(.speechBegan(utterance: a, time: 0.36)) == [])
        // b's speech has not begun: a press is still ignored, and b's step waits.
        #expect(ignoredReasons(scanner.handle(.began(.select, time: 0.4))).contains { $0.contains("speech") })
        #expect(scanner.handle(.timerFired(.advance, time: 1.3)) == [])
    }

    @Test func withoutSpeechNothingWaits() {
        var scanner = engine { $0.autoScanningTime = 1; $0.tapBehavior = .alwaysTap }
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 1))) == ["b"])
        #expect(scanner.handle(.began(.select, time: 1.1)).contains { if case .perform = $0 { true } else { false } })
    }

    @Test func speechGoingAwayTakesTheWaitingStepAtOnce() {
        var scanner = engine { $0.autoScanningTime = 1 }
        _ = scanner.handle(.speechHold(true, time: 0))
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        #expect(scanner.handle(.timerFired(.advance, time: 1)) == [])
        // speech-dispatcher is gone: speech that will never come holds nothing.
        let gone = scanner.handle(.speechHold(false, time: 4))
        #expect(highlighted(gone) == ["b"])
        #expect(gone.contains(.schedule(.advance, at: 5)))
        #expect(highlighted(scanner.handle(.timerFired(.advance, time: 5))) == ["c"])
    }

    @Test func menuEntriesWaitForTheirSpeechToo() {
        var scanner = engine { $0.autoScanningTime = 1 }
        _ = scanner.handle(.speechHold(true, time: 0))
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        _ = scanner.handle(.speechBegan(utterance: scanner.speech.utterance, time: 0.1))
        _ = scanner.handle(.speechEnded(utterance: scanner.speech.utterance, time: 0.2))
        let opened = scanner.handle(.began(.select, time: 0.5))
        #expect(opened.contains { if case .menu = $0 { true } else { false } })
        let tap = scanner.speech.utterance
        #expect(scanner.handle(.timerFired(.advance, time: 1.5)) == [], "Tap is still to be said")
        _ = scanner.handle(.speechBegan(utterance: tap, time: 1.6))
        let moved = scanner.handle(.speechEnded(utterance: tap, time: 2))
        #expect(moved.contains { if case .menu(_, let focus) = $0 { focus == 1 } else { false } }, "\(moved)")
    }

    @Test func aDwellWaitsForTheSpeechOfWhatItWouldSelect() {
        var scanner = engine { $0.scanning = .singleSwitchStep; $0.dwellTime = 1; $0.tapBehavior = .alwaysTap }
        _ = scanner.handle(.speechHold(true, time: 0))
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        #expect(scanner.handle(.timerFired(.dwell, time: 1)) == [])
        _ = scanner.handle(.speechBegan(utterance: scanner.speech.utterance, time: 1.1))
        let selected = scanner.handle(.speechEnded(utterance: scanner.speech.utterance, time: 1.5))
        #expect(selected.contains { if case .perform(.activate, _) = $0 { true } else { false } }, "\(selected)")
    }

    @Test func theHighlightShownAgainAfterAMessageIsANewLineToSay() {
        var scanner = engine { $0.autoScanningTime = 1; $0.flashDuration = 1 }
        _ = scanner.handle(.speechHold(true, time: 0))
        _ = scanner.handle(.structureChanged(flat, .initial, time: 0))
        let a = scanner.speech.utterance
        _ = scanner.handle(.speechBegan(utterance: a, time: 0.05))
        _ = scanner.handle(.speechEnded(utterance: a, time: 0.2))
        _ = scanner.handle(.message("Saved", time: 0.3))
        _ = scanner.handle(.timerFired(.flash, time: 1.3))
        #expect(scanner.speech.utterance != a)
        #expect(scanner.handle(.timerFired(.advance, time: 2.3)) == [], "a is said again before the scan moves on")
    }
}

@Suite("Scan session: speech reports with the manual clock")
struct SpeechHoldSessionTests {
    static let scene = """
        scene: Three
        size: [300, 100]
        start: main
        screens:
          main:
            elements:
              - {id: one, label: One, traits: [button], frame: [0, 0, 100, 100]}
              - {id: two, label: Two, traits: [button], frame: [100, 0, 100, 100]}
              - {id: three, label: Three, traits: [button], frame: [200, 0, 100, 100]}
        """

    @Test func theSessionHoldsAStepUntilItsLineIsSpokenAndTracesWhatIsHighlightedWhen() throws {
        let scene = try SceneParser.parse(yaml: Self.scene, file: "three.yaml")
        var settings = ScanSettings()
        settings.autoScanningTime = 1
        settings.groupItems = false
        var session = ScanSession(scene: scene, settings: settings)
        _ = session.start()
        _ = session.speechHolds(true, at: 0)
        #expect(session.engine.highlight.focusID == "one")
        let one = session.speechUtterance
        _ = session.speechBegan(utterance: one, at: 0.1)
        // Time passes beyond the step: "One" is still being spoken.
        _ = session.advance(to: 1.5)
        #expect(session.engine.highlight.focusID == "one")
        #expect(session.nextDeadline == nil, "no timer: the step waits for the speech")
        let trace = session.speechEnded(utterance: one, at: 1.8)
        #expect(session.engine.highlight.focusID == "two")
        #expect(trace.contains { $0.kind == .highlight(id: "two", label: "Two") && $0.time == 1.8 }, "\(trace)")
        #expect(session.nextDeadline == 2.8)
    }
}
