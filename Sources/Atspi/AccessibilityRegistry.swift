import CAtspi

/// Whether the AT-SPI registry (at-spi2-registryd, `org.a11y.atspi.Registry` on the
/// accessibility bus) is running and answering. libatspi asks the registry for the desktop and
/// registers its event listeners with it, each with a blocking call that no timeout of ours
/// bounds (the bus may hold a call to a registry it is starting for minutes): while the registry
/// is away, none of those calls is made. Known by two bounded calls, neither of which starts the
/// registry: the bus daemon says who owns the registry's name, then that connection is pinged
/// (a stopped registry owns its name but does not answer). A registry that went away is asked
/// of the bus now and then (D-Bus activation, not waited for), as any call to it would. Each
/// change is kept once for the caller to say (`takeChanges`). Only used on the thread of the
/// run's loop, as libatspi itself.
public final class AccessibilityRegistry: @unchecked Sendable {
    /// The one registry of this process's accessibility bus.
    public static let shared = AccessibilityRegistry()

    /// The registry's name on the accessibility bus.
    public static let busName = "org.a11y.atspi.Registry"

    public enum Change: Hashable, Sendable {
        /// It stopped answering, or its name has no owner.
        case stopped
        /// It answers again (a new registry, or the stopped one continued).
        case runningAgain
    }

    /// What a user is told, once, for each change.
    public static func text(of change: Change) -> String {
        switch change {
        case .stopped: return "the accessibility registry is not running"
        case .runningAgain: return "the accessibility registry is running again"
        }
    }

    /// The message of a libatspi call not made while the registry is away.
    public static let notRunning = "the accessibility registry (at-spi2-registryd) is not running"

    /// How long each of the two calls waits for its answer, in milliseconds.
    public static let checkTimeout: Int32 = 400
    /// Seconds between checks while it runs (a registry that went away is noticed within this).
    public static let runningInterval = 2.0
    /// Seconds between checks while it is away.
    public static let awayInterval = 1.0
    /// Seconds between requests to the bus to start it while it is away (a registry that fails
    /// at start costs the machine one start this often, not one a check).
    public static let startInterval = 5.0

    /// Whether it answered the last check (true before the first).
    public private(set) var isRunning = true
    /// The connection that owned the registry's name and answered, at the last check.
    private var owner: String?
    private var ownerQuery: OpaquePointer?
    private var ping: OpaquePointer?
    private var pingedOwner = ""
    private var nextCheck = -Double.infinity
    private var lastStart = -Double.infinity
    private var lastCheck = -Double.infinity
    private var changes: [Change] = []

    /// Checks now, waiting for the answers (at most twice `checkTimeout`): at start, and before
    /// the calls that need the registry (the desktop's applications). Whether it is running.
    @discardableResult
    public func check(at now: Double) -> Bool {
        cancelPending()
        let query = Self.busName.withCString { catspi_name_owner_send($0, Self.checkTimeout) }
        catspi_pending_block(query)
        var buffer = [CChar](repeating: 0, count: 256)
        let owned = catspi_name_owner_result(query, &buffer, buffer.count)
        catspi_ping_free(query)
        guard owned == 1 else {
            settle(answering: nil, at: now)
            return isRunning
        }
        let unique = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let ping = unique.withCString { catspi_ping_send($0, Self.checkTimeout) }
        let answered = catspi_ping_wait(ping) > 0
        catspi_ping_free(ping)
        settle(answering: answered ? unique : nil, at: now)
        return isRunning
    }

    /// Longest a check's answer that the registry runs is trusted before a call that would wait
    /// on it, in seconds.
    public static let freshness = 0.5

    /// Before calls that would wait on the registry (the desktop's applications): checks now
    /// (`check`) unless the last check is recent, or said it is away and the next is not due
    /// (a stopped registry costs one check's wait a second at most, not one a call).
    public func refresh(at now: Double) {
        if isRunning ? now < lastCheck + Self.freshness : now < nextCheck { return }
        check(at: now)
    }

    /// When the next check is due (nil while one is under way: its answer wakes the loop).
    public var nextCheckDue: Double? { ownerQuery == nil && ping == nil ? nextCheck : nil }

    /// Takes in the answers of a check under way, or starts one when it is due; never waits.
    public func poll(at now: Double) {
        if let query = ownerQuery {
            var buffer = [CChar](repeating: 0, count: 256)
            let owned = catspi_name_owner_result(query, &buffer, buffer.count)
            guard owned != 0 else { return }
            catspi_ping_free(query)
            ownerQuery = nil
            guard owned == 1 else { return settle(answering: nil, at: now) }
            pingedOwner = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            ping = pingedOwner.withCString { catspi_ping_send($0, Self.checkTimeout) }
            if ping == nil { settle(answering: nil, at: now) }
            return
        }
        if let pending = ping {
            let result = catspi_ping_result(pending)
            guard result != 0 else { return }
            catspi_ping_free(pending)
            ping = nil
            return settle(answering: result > 0 ? pingedOwner : nil, at: now)
        }
        guard now >= nextCheck else { return }
        ownerQuery = Self.busName.withCString { catspi_name_owner_send($0, Self.checkTimeout) }
        if ownerQuery == nil { settle(answering: nil, at: now) }
    }

    /// Whether a change is waiting to be taken.
    public var hasChanges: Bool { !changes.isEmpty }

    /// What changed since the last call, in order, each once.
    public func takeChanges() -> [Change] {
        defer { changes.removeAll() }
        return changes
    }

    /// A check's outcome: `owner` answered, or nothing did.
    private func settle(answering answered: String?, at now: Double) {
        lastCheck = now
        if let answered {
            nextCheck = now + Self.runningInterval
            // A registry that went away and came back between two checks (a new connection
            // owns the name) is one that runs again: what it knew of the applications was lost.
            if !isRunning || (owner != nil && owner != answered) { changes.append(.runningAgain) }
            isRunning = true
            owner = answered
            return
        }
        nextCheck = now + Self.awayInterval
        if isRunning { changes.append(.stopped) }
        isRunning = false
        if now >= lastStart + Self.startInterval {
            lastStart = now
            _ = Self.busName.withCString { catspi_start_service($0) }
        }
    }

    private func cancelPending() {
        catspi_ping_free(ownerQuery)
        catspi_ping_free(ping)
        ownerQuery = nil
        ping = nil
    }
}
