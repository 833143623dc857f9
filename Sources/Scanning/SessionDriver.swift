import AccessibilityModel
import Scenes
import SwitchInput

/// The one step between a session and what it scans, run by every host (the live run, the
/// scripted tests, the benchmarks, the fuzzer, forecasts): the event goes to the session; each
/// command the session asks for (`ScanSession.pendingPerform`, after its `.perform` output) is
/// handed to the content, the scanning keyboard first, and each highlight move to the content's
/// focus hooks; the answers go back to the session (`SessionEvent.performed`,
/// `.focusHooksRan`), until the session asks nothing more.
public enum SessionDriver {
    /// `event`, and every request to the content it leads to answered: the outputs, in order.
    public static func step(_ event: SessionEvent, on session: inout ScanSession) -> [SessionOutput] {
        // The session adds to one list of outputs through the event and every answer.
        session.work(on: event)
        return answerPending(on: &session)
    }

    /// Hands each request the session waits on to the content, and the answer back, until it
    /// waits on none: the outputs worked out since they were last handed over (in `step`, the
    /// event's, then the answers').
    public static func answerPending(on session: inout ScanSession) -> [SessionOutput] {
        while let request = session.pendingRequest {
            session.work(on: answer(request, on: &session))
        }
        return session.takeOutputs()
    }

    /// `step` for a copy working out a forecast: nil when the edge would hand a command to
    /// content that acts outside the copy (a live application), which a forecast never does. A
    /// scene's behaviour runs on the copy's own value.
    static func forecastStep(_ event: SessionEvent, on trial: inout ScanSession) -> [SessionOutput]? {
        trial.work(on: event)
        while let request = trial.pendingRequest {
            if case .perform = request, trial.content.actsOutsideItself { return nil }
            trial.work(on: answer(request, on: &trial))
        }
        return trial.takeOutputs()
    }

    /// The app changes by itself, with no user press (a timer of the app firing, data arriving):
    /// a scene's effects (state changes, `go`, `announce`, `post`) run as a behaviour's would,
    /// and the session hears what changed. Nil when the content has no such behaviour (a live
    /// application changes by itself through `SessionEvent.contentChanged`).
    public static func appChanged(_ effects: [Effect], on session: inout ScanSession) -> [SessionOutput]? {
        guard let update = session.content.runAppEffects(effects) else { return nil }
        return step(.contentChanged(update), on: &session)
    }

    /// The content's answer to `request`.
    private static func answer(_ request: ContentRequest, on session: inout ScanSession) -> SessionEvent {
        switch request {
        case .perform(let command):
            return .performed(perform(command, on: &session))
        case .highlightMoved(let moves, _):
            return .focusHooksRan(session.content.highlightMoved(moves).map { FocusHooksAnswer(ran: $0.ran, update: $0.update) })
        }
    }

    /// Hands the command to the scanning keyboard, else to the content: what changed (nil:
    /// nothing handles it).
    private static func perform(_ request: PerformRequest, on session: inout ScanSession) -> ContentUpdate? {
        if let update = keyboardUpdate(request.command, on: request.element, in: &session.content, offer: session.keyboard) {
            return update
        }
        return session.content.perform(request.command, on: request.element)
    }

    /// The scanning keyboard's part of performing `command`: selecting a text field of content
    /// that takes typed text opens the keyboard over it (after the field's own activation, which
    /// gives it the focus); on the keyboard, keys type and closing goes back to the content, the
    /// field highlighted. Nil when the keyboard has no part in it.
    private static func keyboardUpdate(
        _ command: ElementCommand, on element: Element?, in content: inout any ScanContent, offer: KeyboardOffer?
    ) -> ContentUpdate? {
        if var typing = content.scanningKeyboard {
            guard let update = typing.perform(command, on: element) else { return nil }
            if typing.isClosed {
                content = typing.base
                return ContentUpdate(
                    screen: content.screenName,
                    notifications: [AccessibilityNotification(kind: .screenChanged, focus: typing.field)])
            }
            content = typing
            return update
        }
        if case .content(let chosen) = command, chosen.id == KeyboardContent.openCommandID {
            return openKeyboardFromMenu(on: element, in: &content, offer: offer)
        }
        guard command == .activate, let element, let offer,
              var target = content.textEntryTarget, target.isTextField(element) else { return nil }
        // The field's own activation gives it the focus; what it says ("type on the keyboard")
        // is what the keyboard now does.
        _ = target.perform(.activate, on: element)
        let typing = KeyboardContent(over: target, field: element, offer: offer)
        content = typing
        return ContentUpdate(screen: typing.screenName, notifications: [AccessibilityNotification(kind: .screenChanged)])
    }

    /// The scanner menu's Keyboard entry: the keyboard over the item the menu is for when it is a
    /// text field, else over the field that has the keyboard focus.
    private static func openKeyboardFromMenu(
        on element: Element?, in content: inout any ScanContent, offer: KeyboardOffer?
    ) -> ContentUpdate {
        func said(_ text: String) -> ContentUpdate {
            ContentUpdate(notifications: [AccessibilityNotification(kind: .announcement, text: text)])
        }
        guard let offer else { return said("no keyboard layout is loaded") }
        guard var target = content.textEntryTarget else { return said("nothing here takes typed text") }
        guard let field = element.flatMap({ target.isTextField($0) ? $0 : nil }) ?? target.focusedTextField else {
            return said("no text field has the keyboard focus")
        }
        _ = target.perform(.activate, on: field)
        let typing = KeyboardContent(over: target, field: field, offer: offer)
        content = typing
        return ContentUpdate(screen: typing.screenName, notifications: [AccessibilityNotification(kind: .screenChanged)])
    }
}

// The session driven by `SessionDriver`, for hosts that keep the trace only (scripted tests,
// benchmarks, the fuzzer).
extension ScanSession {
    /// Shows the start screen.
    public mutating func start() -> [TraceEvent] { SessionDriver.step(.start, on: &self).traceEvents }
    /// A switch edge from any source (a device, a recording, a scripted test).
    public mutating func input(_ edge: SwitchEdge) -> [TraceEvent] { SessionDriver.step(.edge(edge), on: &self).traceEvents }
    /// See `SessionEvent.readerPanned`.
    public mutating func readerPanned(away: Bool, at moment: Double) -> [TraceEvent] {
        SessionDriver.step(.readerPanned(away: away, at: moment), on: &self).traceEvents
    }
    /// The switch device is gone: every switch that was down is released.
    public mutating func releaseAllSwitches() -> [TraceEvent] { SessionDriver.step(.switchesLost, on: &self).traceEvents }
    /// Lets time pass to `target`, firing the timers due on the way (`lateness`: see `SessionEvent.time`).
    public mutating func advance(to target: Double, lateness: Double? = nil) -> [TraceEvent] {
        SessionDriver.step(.time(target, lateness: lateness), on: &self).traceEvents
    }
    /// The content changed by itself (see `SessionEvent.contentChanged`).
    public mutating func contentChanged(_ update: ContentUpdate) -> [TraceEvent] {
        SessionDriver.step(.contentChanged(update), on: &self).traceEvents
    }
    /// New settings from now on (see `SessionEvent.settings`).
    public mutating func updateSettings(_ new: ScanSettings) -> [TraceEvent] {
        SessionDriver.step(.settings(new), on: &self).traceEvents
    }
    /// Speech is on and heard (`true`), or off or gone: see `SessionEvent.speechHolds`.
    public mutating func speechHolds(_ on: Bool, at moment: Double) -> [TraceEvent] {
        SessionDriver.step(.speechHolds(on, at: moment), on: &self).traceEvents
    }
    /// The speech of line `utterance` began: see `SessionEvent.speechBegan`.
    public mutating func speechBegan(utterance: Int, at moment: Double) -> [TraceEvent] {
        SessionDriver.step(.speechBegan(utterance: utterance, at: moment), on: &self).traceEvents
    }
    /// The speech of line `utterance` ended: see `SessionEvent.speechEnded`.
    public mutating func speechEnded(utterance: Int, at moment: Double) -> [TraceEvent] {
        SessionDriver.step(.speechEnded(utterance: utterance, at: moment), on: &self).traceEvents
    }
    /// The app changes by itself (see `SessionDriver.appChanged`): the trace; nil when the
    /// content has no such behaviour.
    public mutating func appChanged(_ effects: [Effect]) -> [TraceEvent]? {
        SessionDriver.appChanged(effects, on: &self)?.traceEvents
    }
}
