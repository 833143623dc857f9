#if canImport(Glibc)
import Glibc
#endif
import DeviceProfiles
import SwitchInput
import Platform

/// An evemu recording (`--input evemu:FILE`) as a switch device: its events go through the
/// profile (`--profile`, else the one that fits the recorded device, else the generic keyboard
/// profile) and the session's stabilisation, like a live device's.
///
/// Replayed at the recorded times: the first event when the run starts, each other one as long
/// after it as it was recorded (the loop waits on the source's deadline; nothing sleeps). With
/// `fast`, every event is given as soon as it is read, dated as recorded (the run's start plus
/// its offset), so that bounce, autorepeat and hold timing are judged exactly as at the recorded
/// pace. The source ends (`.endOfInput`) after the last event.
///
/// Read as it is replayed, never held whole: the first `initialBytes` as the run starts (a
/// recording that fits, nearly all of them, is so checked whole before its first event), the
/// rest `bytesPerTurn` at a time, and at most `eventsPerTurn` events given per turn of the loop,
/// so that a recording of any length leaves the loop free for `--duration`, signals and the
/// other inputs. A problem is reported (`file:line:column: error: …`) as a status: found as the
/// run starts, nothing is replayed; found later in a long recording, the replay stops there.
/// The run keeps its other inputs.
public final class RecordingInput: RuntimeSource {
    public let name: String
    public let path: String
    public let fast: Bool
    /// What is wrong with the file, when it could not be used from the start.
    public private(set) var problem: String?
    /// The events read and not given yet, each with its offset from the first (seconds).
    public var schedule: ArraySlice<(offset: Double, event: DeviceEvent)> { queue[next...] }
    public private(set) var profile: SwitchProfile?
    public private(set) var deadline: Double?

    private var queue: [(offset: Double, event: DeviceEvent)] = []
    private var next = 0
    private var reader: EvemuStreamReader
    private var fileDescriptor: FileDescriptor?
    private var firstMicroseconds: Int64?
    private var edges: ProfileEdges?
    private var naming = SwitchNaming(profiles: [])
    private var start: Double?
    private var introduction: String?
    private var ended = false

    /// Read as the run starts: a description, and for nearly every recording all of it.
    static let initialBytes = 1 << 20
    /// Read in one turn of the loop afterwards.
    static let bytesPerTurn = 16 << 10
    /// Events given in one turn of the loop.
    static let eventsPerTurn = 1024

    init(path: String, chosen: SwitchProfile?, catalog: ProfileCatalog, generic: SwitchProfile, fast: Bool) {
        self.name = "evemu:\(path)"
        self.path = path
        self.fast = fast
        reader = EvemuStreamReader(file: path)
        var size = 0
        do {
            let opened = try RegularFile.open(path)
            (fileDescriptor, size) = (opened.descriptor, opened.size)
            var read = 0
            while read < Self.initialBytes, !reader.isFinished, reader.problem == nil, problem == nil {
                let count = readChunk(Self.bytesPerTurn)
                if count == 0 { break }
                read += count
            }
        } catch {
            problem = error.problem(file: path).description
        }
        if problem == nil, let error = reader.problem {
            problem = Self.describe(error)
        }
        if problem == nil, reader.description == nil {
            problem = "\(path):1:1: error: no event and no end of the device description within the first \(Self.initialBytes >> 20) MiB (an evemu recording: N:, I:, then E: <sec>.<usec> <type> <code> <value> lines)"
        }
        if problem == nil, let recording = reader.description {
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
            let extent = reader.isFinished
                ? "\(queue.count) events over \(Self.seconds(queue.last?.offset ?? 0)) s"
                : "\(size >> 20) MiB, read as it is replayed"
            introduction = "\(name): \(identity.quoted), \(extent) through profile \(chosenProfile.id) (\(how)); " + (fast ? "all at once (--fast)" : "at the recorded times")
        } else {
            closeFile()
        }
        deadline = MonotonicClock.now()
    }

    deinit { closeFile() }

    static func describe(_ error: EvemuParseError) -> String {
        "\(error.description) (an evemu recording: N:, I:, then E: <sec>.<usec> <type> <code> <value> lines)"
    }

    /// Reads up to `limit` bytes into the reader and queues their events; the count read.
    private func readChunk(_ limit: Int) -> Int {
        guard let fileDescriptor, !reader.isFinished else { return 0 }
        let chunk: [UInt8]?
        do {
            chunk = try FileIO.read(fileDescriptor, maxBytes: limit)
        } catch {
            problem = problem ?? "\(path): cannot read the file: \(error.errno.message)"
            closeFile()
            return 0
        }
        guard let chunk else { return 0 }  // a regular file never would block
        let events = chunk.isEmpty ? reader.finish() : reader.feed(chunk[...])
        if chunk.isEmpty || reader.problem != nil { closeFile() }
        for event in events {
            let first = firstMicroseconds ?? event.totalMicroseconds
            firstMicroseconds = first
            queue.append((Double(event.totalMicroseconds - first) / 1_000_000, event))
        }
        return max(chunk.count, 1)
    }

    private func closeFile() {
        if let fileDescriptor {
            FileIO.close(fileDescriptor)
            self.fileDescriptor = nil
        }
    }

    static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    public var descriptor: FileDescriptor? { nil }
    public var bindings: [SwitchID: SwitchBinding] { naming.bindings }
    public var pulseSwitches: Set<SwitchID> { naming.pulseSwitches }
    public func readable(at now: Double) -> [RuntimeInput] { [] }

    public func close() { closeFile() }

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
        // At most `eventsPerTurn` events and one read, then back to the loop (due again at
        // once): a long recording, or one whose events all fall due together, is given across
        // turns, so that `--duration`, signals and the other inputs are seen between slices.
        var given = 0
        var readThisTurn = false
        while given < Self.eventsPerTurn {
            if next == queue.count {
                guard !readThisTurn, !reader.isFinished, reader.problem == nil, fileDescriptor != nil else { break }
                readThisTurn = true
                queue.removeAll(keepingCapacity: true)
                next = 0
                _ = readChunk(Self.bytesPerTurn)
                continue
            }
            let (offset, event) = queue[next]
            guard fast || start + offset <= now else { break }
            if let edge = edges?.edge(event, at: start + offset) { inputs.append(.edge(edge)) }
            next += 1
            given += 1
        }
        if next < queue.count {
            deadline = fast || given == Self.eventsPerTurn ? now : start + queue[next].offset
        } else if let error = reader.problem {
            // Found in the part read as it was replayed: the events before it were given.
            ended = true
            deadline = nil
            inputs += [.status("\(name): \(Self.describe(error)); the replay stops there"), .endOfInput(source: name, failed: true)]
        } else if !reader.isFinished {
            deadline = now  // more to read
        } else {
            ended = true
            deadline = nil
            inputs.append(.endOfInput(source: name))
        }
        return inputs
    }
}
