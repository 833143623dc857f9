import AccessibilityModel
import Foundation
import Runtime
import Scanning
import SwitchInput
import Platform

/// A live application joined to a session, pumped the way the run's loop does: wait on its
/// descriptor until its deadline, hand its updates to the session.
struct LiveDriver {
    let live: LiveApplication
    var session: ScanSession
    var time = 0.0
    /// Switch presses made so far.
    var presses = 0
    /// Predicted words chosen on the scanning keyboard so far (`type(_:)`).
    var predictedWordsChosen = 0

    init(live: LiveApplication, settings: ScanSettings) {
        self.live = live
        session = ScanSession(content: live, settings: settings)
        _ = session.start()
    }

    /// Runs the loop until `done` holds or `timeout` seconds pass; returns `done`'s last answer.
    @discardableResult
    mutating func pump(timeout: Double = 5, until done: (ScanSession) -> Bool) throws -> Bool {
        let end = MonotonicClock.now() + timeout
        while true {
            if done(session) { return true }
            let now = MonotonicClock.now()
            if now >= end { return false }
            let deadline = live.deadline ?? end
            let ready = try Poll.readable([live.descriptor!], timeout: max(0, min(deadline, end) - now))
            let inputs = ready.isEmpty ? live.deadlineReached(at: MonotonicClock.now()) : live.readable(at: MonotonicClock.now())
            for case .content(let update) in inputs { _ = session.contentChanged(update) }
        }
    }

    /// Presses and releases the switch of `action`.
    mutating func press(_ action: SwitchAction) {
        presses += 1
        // As the run does: a press drops a tap held for a slow application's answer.
        live.switchPressed()
        time += 0.05
        _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .down, time: time))
        time += 0.05
        _ = session.input(SwitchEdge(switchID: action.rawValue, kind: .up, time: time))
    }

    /// Moves the open menu's focus to the entry titled `title` (once round at most).
    mutating func moveMenuFocus(to title: String) {
        let count = session.menuTitles?.count ?? 0
        for _ in 0..<count where session.menuFocusTitle != title { press(.next) }
    }

    var highlightedElement: AccessibilityModel.Element? {
        switch session.engine.highlight {
        case .entry(let node), .groupExit(let node): return node.element
        default: return nil
        }
    }

    var highlightedLabel: String? { highlightedElement?.label }
}
