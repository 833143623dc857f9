import RunControl
import Scanning
import Scenes
import SwitchInput
import Testing

/// The run loop's decisions on a manual clock: the wait, idle work, the dates of edges, job
/// control, status pages, and the end of a run. `LiveRun` carries these actions out; the tests
/// here need no process, terminal or sleep.
@Suite("Run state machine")
struct RunStateMachineTests {
    typealias Machine = RunStateMachine

    static func machine(origin: Double = 1000, duration: Double? = nil, endsWithSources: Bool = false,
                        sources: [Machine.Source] = [], hasTerminal: Bool = true) -> Machine {
        var machine = Machine(.init(origin: origin, duration: duration, endsWithSources: endsWithSources,
                                    sources: sources, hasTerminal: hasTerminal))
        #expect(machine.start(at: 0) == [.present])
        return machine
    }

    static func wait(_ machine: Machine, at now: Double, session: Double? = nil, sources: [Double] = [],
                     recordRetry: Double? = nil, idleWork: Bool = false, held: Int = 0) -> Machine.Wait {
        machine.wait(at: now, sessionDeadline: session, sourceDeadlines: sources, recordRetry: recordRetry,
                     idleWorkPending: idleWork, heldRecords: held)
    }

    // MARK: Waiting and idle work

    @Test("The wait lasts until the earliest deadline: the session's, a source's, the duration, the records' retry; none: no timeout")
    func waitUntilTheEarliestDeadline() {
        let machine = Self.machine(duration: 30)
        #expect(Self.wait(machine, at: 1, session: 2.5, sources: [4, 3], recordRetry: 9).timeout == 1.5)
        #expect(Self.wait(machine, at: 1, session: 7, sources: [4, 3], recordRetry: 2).timeout == 1)
        #expect(Self.wait(machine, at: 1, sources: [1.25]).timeout == 0.25)
        #expect(Self.wait(machine, at: 1).timeout == 29)
        // A deadline already past: no wait at all.
        #expect(Self.wait(machine, at: 5, session: 4).timeout == 0)
        let endless = Self.machine()
        #expect(Self.wait(endless, at: 1).timeout == nil)
    }

    @Test("Idle work waits until the braille write has settled (2 ms), then is done without waiting; the records are handed on once settled or when 256 are held")
    func idleWorkWaitsForTheWriteToSettle() {
        var machine = Self.machine()
        machine.brailleWritten(at: 10)
        let early = Self.wait(machine, at: 10.0005, session: 11, idleWork: true, held: 3)
        #expect(abs(early.timeout! - 0.0015) < 1e-9)
        #expect(!early.flushRecords)
        #expect(Self.wait(machine, at: 10.0005, idleWork: true, held: 256).flushRecords)
        let settled = Self.wait(machine, at: 10.002, session: 11, idleWork: true, held: 3)
        #expect(settled == .init(timeout: 0, flushRecords: true))
        // Without idle work the settling does not shorten the wait.
        #expect(Self.wait(machine, at: 10.0005, session: 11).timeout.map { abs($0 - 0.9995) < 1e-9 } == true)

        #expect(machine.woke(at: 10.001, nothingReady: true, idleWorkPending: true, recordRetry: nil).isEmpty)
        #expect(machine.woke(at: 10.002, nothingReady: false, idleWorkPending: true, recordRetry: nil).isEmpty)
        #expect(machine.woke(at: 10.002, nothingReady: true, idleWorkPending: true, recordRetry: nil) == [.flushRecords, .idleWork])
        #expect(machine.woke(at: 10.002, nothingReady: true, idleWorkPending: false, recordRetry: nil).isEmpty)
    }

    @Test("Records an output holds back (a trace FIFO without a reader) are offered again when their retry is due")
    func recordRetry() {
        var machine = Self.machine()
        #expect(machine.woke(at: 4.99, nothingReady: true, idleWorkPending: false, recordRetry: 5).isEmpty)
        #expect(machine.woke(at: 5, nothingReady: true, idleWorkPending: false, recordRetry: 5) == [.retryRecords])
    }

    // MARK: Edges

    @Test("Edges get session times from their monotonic timestamps; a source's edges never go back in time; sources are dated apart")
    func edgesAreDatedOnTheSessionClock() {
        var machine = Self.machine(origin: 1000, sources: [.init(name: "a"), .init(name: "b")])
        #expect(machine.dateEdges([1001, 1001.5], source: 0, at: 2) == [1, 1.5])
        // Earlier than the last edge of the same source (a clock that jumped back): held at it.
        #expect(machine.dateEdges([1001.25], source: 0, at: 2) == [1.5])
        // Another source has its own.
        #expect(machine.dateEdges([1001.25], source: 1, at: 2) == [1.25])
        // Not dated (infinite): the turn's time.
        #expect(machine.dateEdges([.infinity], source: 1, at: 3) == [3])
    }

    @Test("A batch dated before the start moves as a whole to begin at the start: a 100 ms press stays 100 ms, not squeezed into a bounce")
    func aBatchBeforeTheStartMovesAsAWhole() {
        var machine = Self.machine(origin: 1000, sources: [.init(name: "file")])
        let dates = machine.dateEdges([990, 990.1, 990.5], source: 0, at: 0.01)
        #expect(dates.count == 3)
        #expect(dates[0] == 0)
        #expect(abs(dates[1] - 0.1) < 1e-9 && abs(dates[2] - 0.5) < 1e-9)
    }

    // MARK: Job control

    @Test("Ctrl-Z: recorded, the records handed on, the process stopped; continued in the foreground: the terminal taken back, the frame drawn whole; the SIGCONT that continued it is passed over")
    func ctrlZThenForeground() {
        var machine = Self.machine()
        #expect(machine.signal(.stop, at: 5) == [.recordStatus("suspended (SIGTSTP)"), .flushRecords, .stopProcess])
        #expect(machine.stopEnded(stopped: true, foreground: true, at: 60) == [.recordStatus("continued (SIGCONT)"), .redraw, .takeTerminal])
        #expect(!machine.isInBackground)
        #expect(machine.signal(.continued(foreground: true), at: 60).isEmpty)
        // A later SIGCONT from outside (after a SIGSTOP) is handled again.
        #expect(machine.signal(.continued(foreground: true), at: 90) == [.recordStatus("continued (SIGCONT)"), .redraw, .takeTerminal])
    }

    @Test("SIGTSTP ignored (nothing stopped): the next SIGCONT is not passed over")
    func stopIgnored() {
        var machine = Self.machine()
        _ = machine.signal(.stop, at: 5)
        _ = machine.stopEnded(stopped: false, foreground: true, at: 5)
        #expect(machine.signal(.continued(foreground: true), at: 6).contains(.takeTerminal))
    }

    @Test("Continued in the background (bg): the terminal released, a look every 0.25 s whether it is the foreground again (fg), then taken back")
    func backgroundThenForeground() {
        var machine = Self.machine()
        _ = machine.signal(.stop, at: 5)
        #expect(machine.stopEnded(stopped: true, foreground: false, at: 20) == [.recordStatus("continued (SIGCONT)"), .redraw, .releaseTerminal])
        #expect(machine.isInBackground)
        #expect(Self.wait(machine, at: 20).timeout == 0.25)
        #expect(Self.wait(machine, at: 20, session: 20.1).timeout.map { abs($0 - 0.1) < 1e-9 } == true)
        #expect(machine.foregroundChecked(false, at: 20.25).isEmpty)
        #expect(machine.foregroundChecked(true, at: 20.5) == [.recordStatus("in the foreground again (fg)"), .redraw, .takeTerminal])
        #expect(!machine.isInBackground)
        #expect(Self.wait(machine, at: 21).timeout == nil)
        #expect(machine.foregroundChecked(true, at: 21).isEmpty)
    }

    @Test("Without a terminal (a service), SIGCONT is recorded and the frame marked for drawing; nothing is taken or released")
    func continuedWithoutATerminal() {
        var machine = Self.machine(hasTerminal: false)
        #expect(machine.signal(.continued(foreground: false), at: 3) == [.recordStatus("continued (SIGCONT)"), .redraw])
        #expect(!machine.isInBackground)
    }

    @Test("SIGWINCH draws the frame whole; SIGTERM, SIGINT end the run with the signal, and nothing happens after the end")
    func otherSignals() {
        var machine = Self.machine()
        #expect(machine.signal(.windowChanged, at: 1) == [.redraw])
        #expect(machine.signal(.terminate(15), at: 2) == [.end(.signal(15))])
        #expect(machine.ending == .signal(15))
        #expect(machine.signal(.terminate(2), at: 3).isEmpty)
        #expect(machine.signal(.stop, at: 3).isEmpty)
        #expect(machine.turnEnded(at: 3).isEmpty)
        #expect(machine.ending == .signal(15))
    }

    // MARK: Status pages

    @Test("A status of several pages turns a page every statusPageTime while drawn (a new time from the next page); a new status starts at its first page; one page never turns")
    func statusPaging() {
        var machine = Self.machine()
        machine.statusDrawn(pages: 1, at: 0, pageSeconds: 4)
        #expect(Self.wait(machine, at: 0).timeout == nil)
        machine.statusDrawn(pages: 3, at: 1, pageSeconds: 4)
        #expect(Self.wait(machine, at: 1).timeout == 4)
        // Drawn again before the turn, with another page time: the page's time is not moved.
        machine.statusDrawn(pages: 3, at: 2, pageSeconds: 1.5)
        #expect(machine.statusPageTime(4.99).isEmpty)
        #expect(machine.statusPageTime(5) == [.showStatusPage(1)])
        #expect(machine.currentStatusPage == 1)
        #expect(machine.statusPageTime(6).isEmpty)
        // The next page lasts the new time.
        machine.statusDrawn(pages: 3, at: 5, pageSeconds: 1.5)
        #expect(Self.wait(machine, at: 5).timeout == 1.5)
        #expect(machine.statusPageTime(6.49).isEmpty)
        #expect(machine.statusPageTime(6.5) == [.showStatusPage(2)])
        machine.statusChanged()
        #expect(machine.currentStatusPage == 0)
        #expect(machine.statusPageTime(100).isEmpty)
    }

    // MARK: The end of a run

    @Test("Every turn brings the session to its time and shows it; the duration ends the run once reached")
    func durationElapsed() {
        var machine = Self.machine(duration: 10)
        #expect(machine.turnEnded(at: 9.99) == [.advanceSession(to: 9.99, lateness: 0.25), .present])
        #expect(machine.turnEnded(at: 10) == [.advanceSession(to: 10, lateness: 0.25), .present, .end(.durationElapsed)])
        #expect(machine.ending == .durationElapsed)
    }

    @Test("Without the terminal: the run ends when every source has ended (not with a duration), or when every switch input failed")
    func endOfSources() {
        let sources: [Machine.Source] = [.init(name: "evemu"), .init(name: "braille", isSwitchInput: false)]
        var machine = Self.machine(endsWithSources: true, sources: sources)
        machine.sourceEnded("braille", failed: false)
        #expect(machine.turnEnded(at: 1).last == .present)
        machine.sourceEnded("evemu", failed: false)
        #expect(machine.turnEnded(at: 2).last == .end(.endOfInput))

        var timed = Self.machine(duration: 5, endsWithSources: true, sources: sources)
        timed.sourceEnded("braille", failed: false)
        timed.sourceEnded("evemu", failed: false)
        #expect(timed.turnEnded(at: 2).last == .present)
        #expect(timed.turnEnded(at: 5).last == .end(.durationElapsed))

        var failing = Self.machine(endsWithSources: true, sources: sources + [.init(name: "evdev")])
        failing.sourceEnded("evemu", failed: true)
        #expect(failing.turnEnded(at: 1).last == .present)
        failing.sourceEnded("evdev", failed: true)
        // The display's keys are still there, but they never keep a run going.
        #expect(failing.turnEnded(at: 1).last == .end(.inputsFailed(["evemu", "evdev"])))
    }

    @Test("With the terminal's keys, ended sources do not end the run; q ends it; the end of piped keys ends it")
    func keys() {
        var machine = Self.machine(endsWithSources: false, sources: [.init(name: "evemu")])
        machine.sourceEnded("evemu", failed: true)
        #expect(machine.turnEnded(at: 1).last == .present)
        #expect(machine.quitTyped() == [.end(.quit)])
        var piped = Self.machine(endsWithSources: false)
        #expect(piped.keysEnded() == [.end(.endOfInput)])
        #expect(piped.quitTyped().isEmpty)
    }

    // MARK: Late timers

    static let scene = """
        scene: Steps
        size: [390, 844]
        start: main
        screens:
          main:
            elements:
              - {id: one, label: One, traits: [button], frame: [0, 0, 390, 44]}
              - {id: two, label: Two, traits: [button], frame: [0, 100, 390, 44]}
              - {id: three, label: Three, traits: [button], frame: [0, 200, 390, 44]}
              - {id: four, label: Four, traits: [button], frame: [0, 300, 390, 44]}
        """

    /// A session auto scanning every 0.1 s, and a run of it turned by the machine at `turns`,
    /// with the process stopped (SIGSTOP from outside: no signal seen) between two turns.
    static func highlights(turns: [Double]) throws -> (moves: [Double], statuses: [String]) {
        var settings = ScanSettings()
        settings.scanning = .auto
        settings.autoScanningTime = 0.1
        settings.groupItems = false
        settings.loops = 1000
        var session = ScanSession(scene: try SceneParser.parse(yaml: scene, file: "steps.yaml"), settings: settings)
        var machine = Self.machine()
        var trace = session.start()
        for now in turns {
            for action in machine.turnEnded(at: now) {
                if case let .advanceSession(time, lateness) = action { trace += session.advance(to: time, lateness: lateness) }
            }
        }
        let moves = trace.compactMap { event -> Double? in
            if case .highlight = event.kind { return event.time }
            return nil
        }
        let statuses = trace.compactMap { event -> String? in
            if case .status(let text) = event.kind { return text }
            return nil
        }
        return (moves, statuses)
    }

    @Test("A step missed while the process was stopped comes once, late, and scanning goes on from there; on time, every step comes")
    func lateTimersComeOnce() throws {
        // On time: a turn at each step.
        let onTime = try Self.highlights(turns: stride(from: 0.1, through: 1.0, by: 0.1).map { $0 })
        #expect(onTime.moves.count >= 10, "\(onTime.moves)")
        #expect(!onTime.statuses.contains { $0.contains("late") })

        // Stopped from 0.3 to 2.3: one move at 2.3 for the 20 steps missed, then steps again.
        let stopped = try Self.highlights(turns: [0.1, 0.2, 0.3, 2.3, 2.4, 2.5])
        let during = stopped.moves.filter { $0 > 0.3 && $0 <= 2.3 }
        #expect(during == [2.3], "\(stopped.moves)")
        #expect(stopped.moves.filter { $0 > 2.3 }.count == 2, "\(stopped.moves)")
        #expect(stopped.statuses.contains { $0.hasSuffix("s late (the program was held up); missed steps are skipped") }, "\(stopped.statuses)")
    }
}
