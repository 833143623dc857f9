import SwitchInput
import Testing

// Shorthand for edges and outputs; the switch is "a" unless named.

func down(_ time: Double, _ id: SwitchID = "a") -> SwitchEdge { SwitchEdge(switchID: id, kind: .down, time: time) }
func up(_ time: Double, _ id: SwitchID = "a") -> SwitchEdge { SwitchEdge(switchID: id, kind: .up, time: time) }
func autorepeat(_ time: Double, _ id: SwitchID = "a") -> SwitchEdge { SwitchEdge(switchID: id, kind: .repeat, time: time) }

func began(_ action: SwitchAction, _ time: Double, _ id: SwitchID = "a") -> StabilizerOutput {
    .began(action, switchID: id, time: time)
}
func ended(_ action: SwitchAction, _ time: Double, _ id: SwitchID = "a") -> StabilizerOutput {
    .ended(action, switchID: id, time: time)
}
func rejected(_ edge: SwitchEdge, _ reason: Rejection) -> StabilizerOutput { .rejected(edge, reason: reason) }
func timer(_ kind: StabilizerTimer.Kind, _ id: SwitchID = "a") -> StabilizerTimer { StabilizerTimer(switchID: id, kind: kind) }
func schedule(_ kind: StabilizerTimer.Kind, _ time: Double, _ id: SwitchID = "a") -> StabilizerOutput {
    .schedule(timer(kind, id), at: time)
}
func cancel(_ kind: StabilizerTimer.Kind, _ id: SwitchID = "a") -> StabilizerOutput { .cancel(timer(kind, id)) }

extension StabilizerOutput {
    var isTimer: Bool {
        switch self {
        case .schedule, .cancel: true
        case .began, .ended, .rejected: false
        }
    }

    var switchID: SwitchID {
        switch self {
        case .began(_, let id, _), .ended(_, let id, _): id
        case .rejected(let edge, _): edge.switchID
        case .schedule(let timer, _), .cancel(let timer): timer.switchID
        }
    }
}

/// Runs a stabilizer as a live driver would, on a manual clock: it keeps the timers the
/// stabilizer asks for and, before each edge, fires those due by then in deadline order (or, with
/// `firesTimers` off, never: the stabilizer then catches up from the edges' times alone). After
/// every call it checks that its timers are exactly the ones the stabilizer expects.
struct ManualClockDriver {
    var stabilizer: Stabilizer
    var firesTimers = true
    private(set) var timers: [StabilizerTimer: Double] = [:]
    private(set) var trace: [StabilizerOutput] = []

    init(_ configuration: Stabilizer.Configuration = .init(), bindings: [SwitchID: SwitchBinding], firesTimers: Bool = true) {
        stabilizer = Stabilizer(configuration: configuration, bindings: bindings)
        self.firesTimers = firesTimers
    }

    /// Outputs other than timer requests.
    var events: [StabilizerOutput] { trace.filter { !$0.isTimer } }
    var actions: [StabilizerOutput] {
        trace.filter {
            switch $0 {
            case .began, .ended: true
            default: false
            }
        }
    }

    mutating func advance(to time: Double) {
        guard firesTimers else { return }
        while let (timer, deadline) = timers.min(by: { ($0.value, $0.key.switchID, $0.key.kind.rawValue) < ($1.value, $1.key.switchID, $1.key.kind.rawValue) }),
              deadline <= time {
            timers[timer] = nil
            apply(stabilizer.timerFired(timer, at: deadline))
        }
    }

    @discardableResult
    mutating func send(_ edge: SwitchEdge) -> [StabilizerOutput] {
        advance(to: edge.time)
        return apply(stabilizer.handle(edge))
    }

    mutating func send(_ edges: [SwitchEdge]) {
        for edge in edges { send(edge) }
    }

    @discardableResult
    mutating func releaseAll(at time: Double) -> [StabilizerOutput] {
        advance(to: time)
        let outputs = apply(stabilizer.releaseAll(at: time))
        #expect(timers.isEmpty)
        return outputs
    }

    @discardableResult
    private mutating func apply(_ outputs: [StabilizerOutput]) -> [StabilizerOutput] {
        for output in outputs {
            switch output {
            case .schedule(let timer, let deadline): timers[timer] = deadline
            case .cancel(let timer):
                #expect(timers[timer] != nil, "cancel of a timer not pending: \(timer)")
                timers[timer] = nil
            case .began, .ended, .rejected: break
            }
        }
        trace += outputs
        #expect(timers == stabilizer.pendingTimers)
        return outputs
    }
}
