#if canImport(Glibc)
import Glibc
#endif
import DeviceProfiles
import SwitchInput

/// A stream of raw `struct input_event` records (`--input raw:PATH`): a file, or a FIFO another
/// program writes (`cat /dev/input/event5 > fifo` elsewhere, a test, a bridge). 24 bytes a
/// record on x86_64, decoded incrementally as bytes arrive in any split; the records go through
/// the profile (`--profile`, else the generic keyboard profile) and the session's stabilisation.
///
/// Opened non-blocking, so that a FIFO does not hold the run up until a writer connects (the loop
/// polls it; a FIFO nobody has written to yet is not readable). Edge times keep the records'
/// spacing: the first record is dated when it is read, each later one by its timestamp's offset
/// from the first. At the end of the stream (EOF: the last writer closed) the source ends; a
/// trailing partial record, or bytes that are not input events, are reported with their byte
/// offset as a status.
public final class RawStreamInput: RuntimeSource {
    public let name: String
    public let path: String
    public private(set) var problem: String?
    public let profile: SwitchProfile
    public private(set) var deadline: Double?

    private var fileDescriptor: Int32 = -1
    private var decoder = RawEventDecoder()
    private var edges: ProfileEdges
    private let naming: SwitchNaming
    private var anchor: (moment: Double, first: Double)?
    private var pending: [RuntimeInput] = []
    private var ended = false

    init(path: String, profile: SwitchProfile) {
        self.name = "raw:\(path)"
        self.path = path
        self.profile = profile
        self.naming = SwitchNaming(profiles: [profile])
        self.edges = ProfileEdges(profile: profile, naming: naming)
        do {
            fileDescriptor = try FileIO.open(path, flags: O_RDONLY | O_NONBLOCK)
            var info = stat()
            if fstat(fileDescriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                FileIO.close(fileDescriptor)
                fileDescriptor = -1
                problem = "\(name): is a folder, not a stream of struct input_event records"
            }
        } catch {
            problem = "\(name): cannot open it: \(String(cString: strerror(error.errno)))"
        }
        if let problem {
            pending = [.status(problem), .endOfInput(source: name)]
            ended = true
        } else {
            pending = [.status("\(name): reading struct input_event records (\(RawEventDecoder.recordSize) bytes each) through profile \(profile.id)")]
        }
        deadline = MonotonicClock.now()
    }

    public var descriptor: Int32? { fileDescriptor >= 0 ? fileDescriptor : nil }
    public var bindings: [SwitchID: SwitchBinding] { naming.bindings }
    public var pulseSwitches: Set<SwitchID> { naming.pulseSwitches }

    public func deadlineReached(at now: Double) -> [RuntimeInput] {
        deadline = nil
        defer { pending = [] }
        return pending
    }

    public func readable(at now: Double) -> [RuntimeInput] {
        guard fileDescriptor >= 0, !ended else { return [] }
        var inputs = pending
        pending = []
        deadline = nil
        while true {
            let bytes: [UInt8]?
            do {
                bytes = try FileIO.read(fileDescriptor, maxBytes: 1 << 16)
            } catch {
                return inputs + finish(problem: "\(name): \(error)")
            }
            guard let bytes else { return inputs }  // nothing more now
            if bytes.isEmpty {
                // End of the stream.
                do {
                    try decoder.finish()
                    return inputs + finish(problem: nil)
                } catch {
                    return inputs + finish(problem: "\(name): \(error.description)")
                }
            }
            for event in decoder.feed(bytes) {
                if anchor == nil { anchor = (now, event.time) }
                let (moment, first) = anchor ?? (now, event.time)
                if let edge = edges.edge(event, at: moment + max(0, event.time - first)) { inputs.append(.edge(edge)) }
            }
            if let error = decoder.error {
                return inputs + finish(problem: "\(name): \(error.description)")
            }
        }
    }

    private func finish(problem: String?) -> [RuntimeInput] {
        ended = true
        close()
        return (problem.map { [RuntimeInput.status($0)] } ?? []) + [.endOfInput(source: name)]
    }

    public func close() {
        if fileDescriptor >= 0 {
            FileIO.close(fileDescriptor)
            fileDescriptor = -1
        }
    }
}
