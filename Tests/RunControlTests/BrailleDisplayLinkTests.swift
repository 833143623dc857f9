import RunControl
import Testing

/// The braille display link's decisions on a manual clock: every transition, the backoff, and
/// what is said (each thing once).
@Suite("Braille display link")
struct BrailleDisplayLinkTests {
    static let configuration = BrailleDisplayLink.Configuration(
        host: ":7", awaitedSocket: "/run/brltty/7", sizeRetryInterval: 0.5, reconnectDelay: 0.25,
        maximumReconnectDelay: 2, connectTimeout: 5)
    static let display = BrailleDisplayLink.DisplayFound(driver: "Baum", model: "Vario 40", profile: "baum-vario", columns: 40, rows: 1)
    static let refused = BrailleDisplayLink.Failure.serverUnavailable(message: "Connection refused")

    /// A link that has started at `now` (its first attempt in progress).
    static func started(_ configuration: BrailleDisplayLink.Configuration = configuration, at now: Double = 10) -> BrailleDisplayLink {
        var link = BrailleDisplayLink(configuration, at: now)
        #expect(link.start(at: now) == [.connect])
        return link
    }

    static func said(_ actions: [BrailleDisplayLink.Action]) -> [String] {
        actions.compactMap { if case .say(let text) = $0 { text } else { nil } }
    }

    @Test("The first attempt starts at once and times out after connectTimeout: abandoned, said, retried after the delay")
    func firstAttemptAndTimeout() {
        var link = Self.started()
        #expect(link.isConnecting)
        #expect(link.deadline == 15)
        #expect(link.timeReached(14.9).isEmpty)
        let actions = link.timeReached(15)
        #expect(actions.first == .abandonAttempt)
        #expect(Self.said(actions) == ["braille display: cannot connect to BRLTTY :7: no answer within 5.0 s"])
        #expect(link.deadline == 15.25)
        // The abandoned thread has not returned: no second attempt, the maximum delay instead.
        #expect(link.timeReached(15.25).isEmpty)
        #expect(link.deadline == 17.25)
        link.abandonedAttemptReturned()
        #expect(link.timeReached(17.25) == [.connect])
    }

    @Test("Connected: said with driver, model, profile and size, the line written; two rows are columns×rows")
    func connected() {
        var link = Self.started()
        let actions = link.connected(Self.display, at: 10.4)
        #expect(actions == [.say("braille display connected: Baum, model Vario 40 (profile baum-vario), 40 cells, on BRLTTY :7"), .writeLine])
        #expect(link.isConnected)
        #expect(link.deadline == nil)

        var twoRows = Self.started()
        let found = BrailleDisplayLink.DisplayFound(driver: "", model: "", profile: nil, columns: 20, rows: 2)
        #expect(Self.said(twoRows.connected(found, at: 11)) == ["braille display connected: a display, 20×2 cells, on BRLTTY :7"])
    }

    @Test("No BRLTTY: said once with the socket awaited, retried with a delay doubling up to the cap")
    func backoffGrowsToTheCap() {
        var link = Self.started(at: 0)
        var now = 0.0
        var delays = [Double]()
        var said = [String]()
        for _ in 0..<7 {
            said += Self.said(link.failed(Self.refused, at: now))
            let due = link.deadline!
            delays.append(due - now)
            now = due
            #expect(link.timeReached(now - 0.001).isEmpty)
            #expect(link.timeReached(now) == [.connect])
        }
        #expect(delays == [0.25, 0.5, 1, 2, 2, 2, 2])
        #expect(said == ["braille display: no BRLTTY at :7 (Connection refused); waiting for it (socket /run/brltty/7), trying again"])
    }

    @Test("A connection made starts the delays again")
    func connectionResetsTheBackoff() {
        var link = Self.started(at: 0)
        _ = link.failed(Self.refused, at: 0)
        _ = link.timeReached(0.25)
        _ = link.failed(Self.refused, at: 0.25)
        #expect(link.currentReconnectDelay == 1)
        _ = link.timeReached(0.75)
        _ = link.connected(Self.display, at: 0.8)
        #expect(link.currentReconnectDelay == 0.25)
    }

    @Test("--braille auto: nothing said while no BRLTTY answers; the other failures are still said")
    func quietWhileAbsent() {
        var configuration = Self.configuration
        configuration.quietWhileAbsent = true
        var link = Self.started(configuration, at: 0)
        #expect(link.failed(Self.refused, at: 0) == [])
        _ = link.timeReached(0.25)
        #expect(Self.said(link.failed(.authentication(message: "Authentication failed"), at: 0.25)).count == 1)
    }

    @Test("Refused authentication: said once with what to give, retried with backoff")
    func authenticationFailure() {
        var link = Self.started(at: 0)
        let failure = BrailleDisplayLink.Failure.authentication(message: "Authentication failed")
        #expect(Self.said(link.failed(failure, at: 0)) == [
            "braille display: BRLTTY :7 refused the authentication (Authentication failed); give --braille-auth (e.g. keyfile:/etc/brlapi.key)",
        ])
        #expect(link.deadline == 0.25)
        _ = link.timeReached(0.25)
        #expect(link.failed(failure, at: 0.25).isEmpty)
        #expect(link.deadline == 0.75)
    }

    @Test("A display of 0 cells: said once, asked again every sizeRetryInterval, without backoff")
    func noCells() {
        var link = Self.started(at: 0)
        var said = [String]()
        var now = 0.0
        for _ in 0..<4 {
            said += Self.said(link.noCells(driver: "Baum", at: now))
            #expect(link.deadline == now + 0.5)
            now += 0.5
            #expect(link.timeReached(now) == [.connect])
        }
        #expect(said == ["braille display: BRLTTY :7 answers but its display (Baum) reports 0 cells; waiting for it"])
    }

    @Test("A lost connection: closed, said, reconnected after reconnectDelay; 'no BRLTTY' is not said while reconnecting; the line written again once back")
    func lostAndReconnected() {
        var link = Self.started(at: 0)
        _ = link.connected(Self.display, at: 0)
        let lost = link.lost(.connectionLost, at: 3)
        #expect(lost == [.closeConnection, .say("braille display: BRLTTY connection lost; reconnecting")])
        #expect(!link.isConnected)
        #expect(link.deadline == 3.25)
        #expect(link.timeReached(3.25) == [.connect])
        #expect(link.failed(Self.refused, at: 3.3).isEmpty)
        #expect(link.deadline == 3.8)  // the doubled delay
        #expect(link.timeReached(3.8) == [.connect])
        #expect(link.connected(Self.display, at: 3.9).last == .writeLine)
        // Lost again after that: said again (something else was said between).
        #expect(Self.said(link.lost(.other("brlapi__writeText: exception"), at: 5)) == ["braille display: brlapi__writeText: exception; reconnecting"])
    }

    @Test("The same status is not said twice in a row; a different one in between lets it be said again")
    func saidOnce() {
        var link = Self.started(at: 0)
        _ = link.connected(Self.display, at: 0)
        #expect(Self.said(link.lost(.connectionLost, at: 1)).count == 1)
        _ = link.timeReached(1.25)
        _ = link.connected(Self.display, at: 1.3)
        // "connected" was said between the two losses.
        #expect(Self.said(link.lost(.connectionLost, at: 2)).count == 1)
        _ = link.timeReached(2.25)
        _ = link.failed(.other("no route"), at: 2.3)
        _ = link.timeReached(2.8)
        #expect(link.failed(.other("no route"), at: 2.8).isEmpty)
    }

    @Test("Outcomes that come late (after a close or a timeout) change nothing")
    func lateOutcomes() {
        var link = Self.started(at: 0)
        _ = link.timeReached(5)  // abandoned
        #expect(link.connected(Self.display, at: 6).isEmpty)
        #expect(!link.isConnected)
        #expect(link.lost(.connectionLost, at: 6).isEmpty)

        var closing = Self.started(at: 0)
        #expect(closing.close() == [.abandonAttempt])
        #expect(closing.isClosed)
        #expect(closing.deadline == nil)
        #expect(closing.timeReached(100).isEmpty)
        #expect(closing.failed(Self.refused, at: 1).isEmpty)

        var connected = Self.started(at: 0)
        _ = connected.connected(Self.display, at: 0)
        #expect(connected.close() == [.closeConnection])
    }

    @Test("No thread for the attempt: tried again after the maximum delay")
    func noThread() {
        var link = Self.started(at: 0)
        #expect(link.attemptNotStarted(at: 1).isEmpty)
        #expect(link.deadline == 3)
        #expect(link.timeReached(3) == [.connect])
    }
}
