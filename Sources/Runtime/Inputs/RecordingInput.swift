import DeviceProfiles
import SwitchInput

/// An evemu recording (`--input evemu:FILE`) as a switch device: its events go through the
/// profile (`--profile`, else the one that fits the recorded device, else the generic keyboard
/// profile) and the session's stabilisation, like a live device's.
///
/// Replayed at the recorded times: the first event when the run starts, each other one as long
/// after it as it was recorded (the loop waits on the source's deadline; nothing sleeps). With
/// `fast`, every event is given at once, dated as recorded (the run's start plus its offset), so
/// that bounce, autorepeat and hold timing are judged exactly as at the recorded pace. The source
/// ends (`.endOfInput`) after the last event.
///
/// A file that cannot be read or parsed is reported (`file:line:column: error: …`) as a status,
/// and the source ends at once; the run keeps its other inputs.
public final class RecordingInput: RuntimeSource {
    public let name: String
    public let path: String
    public let fast: Bool
    /// What is wrong with the file, when it could not be used.
    public private(set) var problem: String?
    /// The recording's events, each with its offset from the first (seconds).
    public private(set) var schedule: [(offset: Double, event: DeviceEvent)] = []
    public private(set) var profile: SwitchProfile?
    public private(set) var deadline: Double?

    private var edges: ProfileEdges?
    private let naming: SwitchNaming
    private var next = 0
    private var start: Double?
    private var introduction: String?
    private var ended = false

    init(path: String, chosen: SwitchProfile?, catalog: ProfileCatalog, generic: SwitchProfile, fast: Bool) {
        self.name = "evemu:\(path)"
        self.path = path
        self.fast = fast
        var recording: EvemuRecording?
        switch RegularFile.readText(path, maxBytes: EvemuRecording.maxBytes) {
        case .failure(let failure):
            problem = failure.problem(file: path).description
        case .success(let text):
            do throws(EvemuParseError) {
                recording = try EvemuRecording.parse(text, file: path)
            } catch {
                problem = "\(error.description) (an evemu recording: N:, I:, then E: <sec>.<usec> <type> <code> <value> lines)"
            }
        }
        if let recording {
            let identity = recording.identity
            let chosenProfile: SwitchProfile
            let how: String
            if let chosen {
                chosenProfile = chosen
                how = "--profile"
            } else if let match = catalog.bestMatch(for: identity) {
                chosenProfile = match.profile
                how = "\(match.specificity) match"
            } else {
                chosenProfile = generic
                how = "no profile fits the recorded device; the generic keyboard"
            }
            profile = chosenProfile
            naming = SwitchNaming(profiles: [chosenProfile])
            edges = ProfileEdges(profile: chosenProfile, naming: naming)
            schedule = Self.schedule(recording.events)
            let span = schedule.last?.offset ?? 0
            introduction = "\(name): \(identity.quoted), \(schedule.count) events over \(Self.seconds(span)) s through profile \(chosenProfile.id) (\(how)); " + (fast ? "all at once (--fast)" : "at the recorded times")
        } else {
            naming = SwitchNaming(profiles: [])
        }
        deadline = MonotonicClock.now()
    }

    /// Events with their offsets from the first one.
    static func schedule(_ events: [DeviceEvent]) -> [(offset: Double, event: DeviceEvent)] {
        guard let first = events.first?.totalMicroseconds else { return [] }
        return events.map { (Double($0.totalMicroseconds - first) / 1_000_000, $0) }
    }

    /// Events given in one turn of the loop.
    static let eventsPerTurn = 1024

    static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    public var descriptor: Int32? { nil }
    public var bindings: [SwitchID: SwitchBinding] { naming.bindings }
    public var pulseSwitches: Set<SwitchID> { naming.pulseSwitches }
    public func readable(at now: Double) -> [RuntimeInput] { [] }

    public func deadlineReached(at now: Double) -> [RuntimeInput] {
        guard !ended else { deadline = nil; return [] }
        if let problem {
            ended = true
            deadline = nil
            return [.status("\(name): \(problem)"), .endOfInput(source: name, failed: true)]
        }
        var inputs = [RuntimeInput]()
        if start == nil {
            start = now
            if let introduction { inputs.append(.status(introduction)) }
        }
        let start = self.start ?? now
        // At most `eventsPerTurn` events, then back to the loop (due again at once): a long
        // recording replayed fast, or one whose events all fall due together, is given across
        // turns, so that `--duration`, signals and the other inputs are seen between slices.
        let last = min(schedule.count, next + Self.eventsPerTurn)
        while next < last, fast || start + schedule[next].offset <= now {
            let (offset, event) = schedule[next]
            if let edge = edges?.edge(event, at: start + offset) { inputs.append(.edge(edge)) }
            next += 1
        }
        if next < schedule.count {
            deadline = fast || next == last ? now : start + schedule[next].offset
        } else {
            ended = true
            deadline = nil
            inputs.append(.endOfInput(source: name))
        }
        return inputs
    }
}
