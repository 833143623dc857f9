import CAtspi
import LiveTree

/// Applications that stopped answering (a call to them timed out: a stopped or hung process),
/// by their bus name. Calls to them fail at once instead of each waiting out the call timeout,
/// so one hung application costs the loop one timeout, not one a call; in the background a
/// D-Bus `Peer.Ping` is sent to each now and then without waiting, and the first answer makes
/// it an application like any other again. Each change is kept once for the caller to say
/// (`takeChanges`). Only used on the thread of the run's loop, as libatspi itself.
public final class ApplicationSilence: @unchecked Sendable {
    /// The one set of this process (libatspi connects it to one bus).
    public static let shared = ApplicationSilence()

    public enum Change: Hashable, Sendable {
        /// A call to the application timed out: it is not asked again until it answers a ping.
        case stoppedAnswering(busName: String)
        /// It answered a ping.
        case answersAgain(busName: String)
        /// It left the bus (its process ended) while it was not answering.
        case left(busName: String)
    }

    /// Seconds between pings to an application that does not answer.
    public static let pingInterval = 2.0
    /// How long a ping waits for its answer, in milliseconds (in the background: the loop
    /// never waits on it).
    public static let pingTimeout: Int32 = 1_000

    private struct Silent {
        var ping: OpaquePointer?
        var lastPing: Double
    }

    private var silent: [String: Silent] = [:]
    private var changes: [Change] = []
    /// Silent ones taken so without a word to the user (`markSilentQuietly`): their answering
    /// again is not news either.
    private var quiet: Set<String> = []

    /// Whether `busName` is not answering.
    public func contains(_ busName: String) -> Bool { !busName.isEmpty && silent[busName] != nil }

    /// Whether no application is silent.
    public var isEmpty: Bool { silent.isEmpty }

    /// A call to `busName` went unanswered.
    func note(_ busName: String) {
        guard !busName.isEmpty, silent[busName] == nil else { return }
        // The first ping goes at the next poll.
        silent[busName] = Silent(ping: nil, lastPing: -.infinity)
        changes.append(.stoppedAnswering(busName: busName))
    }

    /// When the next ping is due (nil when none is silent): the loop wakes for it.
    public var nextPingDue: Double? {
        silent.values.filter { $0.ping == nil }.map { $0.lastPing + Self.pingInterval }.min()
    }

    /// Sends the pings that are due and takes in their answers: an answer ends the
    /// application's silence; a name with no owner any more is an application that left.
    public func poll(at now: Double) {
        for (busName, entry) in silent {
            var entry = entry
            if let ping = entry.ping {
                let result = catspi_ping_result(ping)
                guard result != 0 else { continue }
                catspi_ping_free(ping)
                entry.ping = nil
                if result > 0 {
                    silent[busName] = nil
                    if quiet.remove(busName) == nil { changes.append(.answersAgain(busName: busName)) }
                    continue
                }
                if result == -2 {
                    silent[busName] = nil
                    quiet.remove(busName)
                    changes.append(.left(busName: busName))
                    continue
                }
            } else if now >= entry.lastPing + Self.pingInterval {
                entry.ping = busName.withCString { catspi_ping_send($0, Self.pingTimeout) }
                entry.lastPing = now
            }
            silent[busName] = entry
        }
    }

    /// Whether a change is waiting to be taken.
    public var hasChanges: Bool { !changes.isEmpty }

    /// Longest wait for the applications' answers in `check` and `answersBriefly`
    /// (milliseconds): a stopped application costs the loop this once, not a call's whole
    /// timeout (1.5 s, and some of libatspi's calls then say nothing: no actions, no name). An
    /// application that answers later (held up on a busy machine) is not refused for it: a tap
    /// on it is held (`HeldTap`) while `awaitAnswer` asks it again in the background.
    public static let checkTimeout: Int32 = 400

    /// Pings each of `busNames` that is not known to be silent, all at once, and waits for the
    /// answers (at most `checkTimeout`); those that do not answer are silent from now on.
    /// Before acting on an application, and before asking every application for its windows.
    public func check(_ busNames: [String]) {
        var pending = [(String, OpaquePointer?)]()
        for busName in Set(busNames) where !busName.isEmpty && silent[busName] == nil {
            pending.append((busName, busName.withCString { catspi_ping_send($0, Self.checkTimeout) }))
        }
        for (busName, ping) in pending {
            let result = catspi_ping_wait(ping)
            catspi_ping_free(ping)
            if result == -1 { note(busName) }
        }
    }

    /// Whether `busName` answers a ping within `checkTimeout` (the loop waits that long at
    /// most). False at once for one known to be silent. Unlike `check`, one that does not answer
    /// in time is not made silent: the caller holds its tap and decides (`HeldTap`).
    public func answersBriefly(_ busName: String) -> Bool {
        guard !busName.isEmpty else { return true }
        guard silent[busName] == nil else { return false }
        let ping = busName.withCString { catspi_ping_send($0, Self.checkTimeout) }
        defer { catspi_ping_free(ping) }
        // An application that left the bus is not held for: the calls say what happened.
        return catspi_ping_wait(ping) != -1
    }

    /// The background questions of held taps, by bus name.
    private var awaited: [String: OpaquePointer?] = [:]

    /// Asks `busName` in the background whether it answers (at most `milliseconds`), in place
    /// of a question asked before; `awaitedAnswer` takes the answer without waiting.
    public func awaitAnswer(_ busName: String, milliseconds: Int32) {
        stopAwaiting(busName)
        awaited[busName] = busName.withCString { catspi_ping_send($0, milliseconds) }
    }

    /// What the background question to `busName` has come to. An answer ends its silence (said
    /// as `answersAgain` when it was silent).
    public func awaitedAnswer(_ busName: String) -> HeldTap.Answer {
        guard let ping = awaited[busName] else { return .unanswered }
        let result = catspi_ping_result(ping)
        switch result {
        case 0: return .waiting
        case 1:
            stopAwaiting(busName)
            if let entry = silent.removeValue(forKey: busName) {
                catspi_ping_free(entry.ping)
                if quiet.remove(busName) == nil { changes.append(.answersAgain(busName: busName)) }
            }
            return .answered
        case -2:
            stopAwaiting(busName)
            return .left
        default:
            stopAwaiting(busName)
            return .unanswered
        }
    }

    /// Drops the background question to `busName`, if any.
    public func stopAwaiting(_ busName: String) {
        if let ping = awaited.removeValue(forKey: busName) { catspi_ping_free(ping) }
    }

    /// `busName` did not answer a held tap's questions in time: silent from now on.
    public func markSilent(_ busName: String) {
        if quiet.remove(busName) != nil { changes.append(.stoppedAnswering(busName: busName)) }
        note(busName)
    }

    /// `busName` has not answered since a tap on it was said pending, and the user has moved
    /// on: silent, so that looking for windows does not ask it again and wait, but not said
    /// (the pending tap was; a message now would take the user's next press off the display).
    public func markSilentQuietly(_ busName: String) {
        guard !busName.isEmpty, silent[busName] == nil else { return }
        silent[busName] = Silent(ping: nil, lastPing: -.infinity)
        quiet.insert(busName)
    }

    /// Whether an application's bus name is still on the bus (asked of the bus daemon: quick
    /// even when the application is stopped). True when the bus cannot tell.
    public static func isOnBus(_ busName: String) -> Bool {
        busName.isEmpty || busName.withCString { catspi_bus_has_name($0) } != 0
    }

    /// What changed since the last call, in order, each once.
    public func takeChanges() -> [Change] {
        defer { changes.removeAll() }
        return changes
    }
}
