#if canImport(Glibc)
import Glibc
#endif
import DeviceProfiles
import SwitchInput
import Platform

/// A stream of raw `struct input_event` records (`--input raw:PATH`): a file, or a FIFO another
/// program writes (`cat /dev/input/event5 > fifo` elsewhere, a test, a bridge). 24 bytes a
/// record on x86_64, decoded incrementally as bytes arrive in any split; the records go through
/// the profile (`--profile`, else the generic keyboard profile) and the session's stabilisation.
///
/// Opened non-blocking, so that a FIFO does not hold the run up until a writer connects (the loop
/// polls it; a FIFO nobody has written to yet is not readable). When a FIFO's writer closes, the
/// FIFO is opened again and waits for the next writer (a bridge restarting must not end the
/// user's run); a regular file's end ends the source. A trailing partial record, or bytes that
/// are not input events, are reported with their byte offset as a status.
///
/// Edge times keep the records' spacing, on the loop's clock: the first record of a writer is
/// dated when it is read, each later one by its timestamp's offset from the first. The stream's
/// clock is not trusted beyond that: a record dated after the moment it was read (a clock that
/// jumped ahead), or before the previous record (one that jumped back), is dated when it is read
/// and starts a new anchor, with a status saying so once. So a record dated an hour ahead cannot
/// hold auto scanning back for an hour, and none can move time backwards.
public final class RawStreamInput: RuntimeSource {
    public let name: String
    public let path: String
    public private(set) var problem: String?
    public let profile: SwitchProfile
    public private(set) var deadline: Double?

    private var fileDescriptor: FileDescriptor?
    private var isFIFO = false
    private var decoder = RawEventDecoder()
    private var edges: ProfileEdges
    private let naming: SwitchNaming
    private var anchor: (moment: Double, first: Double)?
    private var lastEdgeMoment = -Double.infinity
    private var saidClockJump = false
    private var pending: [RuntimeInput] = []
    /// Where each read(2) lands (64 KiB, made once).
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    private var ended = false
    /// The writer of a FIFO closed it, and no next writer has written yet.
    private var waitingForWriter = false
    public private(set) var failed = false

    /// How far a batch of records may sit ahead of the moment it was read (or before the previous
    /// record) before the writer's clock is taken to have jumped.
    static let clockJump = 1.0
    /// How far ahead of the moment it was read a record may stay dated: the first record's own
    /// reading was late by about this much (scheduling), and moving the anchor for it would
    /// change the spacing the writer recorded.
    static let readingJitter = 0.05

    init(path: String, profile: SwitchProfile) {
        self.name = "raw:\(path)"
        self.path = path
        self.profile = profile
        self.naming = SwitchNaming(profiles: [profile])
        self.edges = ProfileEdges(profile: profile, naming: naming)
        do {
            let opened = try FileIO.open(path, .readOnly, options: .nonBlocking)
            fileDescriptor = opened
            if let kind = try? FileIO.status(opened).kind {
                if kind == .directory {
                    FileIO.close(opened)
                    fileDescriptor = nil
                    problem = "\(name): is a folder, not a stream of struct input_event records"
                }
                isFIFO = kind == .fifo
            }
        } catch {
            problem = "\(name): cannot open it: \(error.errno.message)"
        }
        if let problem {
            pending = [.status(problem), .endOfInput(source: name, failed: true)]
            ended = true
            failed = true
        } else {
            pending = [.status("\(name): reading struct input_event records (\(RawEventDecoder.recordSize) bytes each) through profile \(profile.id)")]
        }
        deadline = MonotonicClock.now()
    }

    deinit {
        buffer.deallocate()
    }

    public var descriptor: FileDescriptor? { fileDescriptor }
    public var bindings: [SwitchID: SwitchBinding] { naming.bindings }
    public var pulseSwitches: Set<SwitchID> { naming.pulseSwitches }

    public func deadlineReached(at now: Double) -> [RuntimeInput] {
        deadline = nil
        defer { pending = [] }
        return pending
    }

    public func readable(at now: Double) -> [RuntimeInput] {
        guard let fileDescriptor, !ended else { return [] }
        var inputs = pending
        pending = []
        deadline = nil
        // At most `bytesPerTurn`, then back to the loop: a stream that never ends (`/dev/zero`,
        // a writer faster than the decoding, a file of gigabytes) is read across turns, so that
        // the loop still sees signals, `--duration` and the other inputs between chunks (poll
        // reports the descriptor readable again at once).
        var bytesThisTurn = 0
        while bytesThisTurn < Self.bytesPerTurn {
            let count: Int?
            do {
                count = try FileIO.read(fileDescriptor, into: buffer)
            } catch {
                return inputs + finish(problem: "\(name): \(error)", failed: true)
            }
            guard let count else { return inputs }  // nothing more now
            if count == 0 {
                // End of the stream: the last writer closed (a FIFO), or the end of a file.
                var problem: String?
                do {
                    try decoder.finish()
                } catch {
                    problem = "\(name): \(error.description)"
                }
                if isFIFO { return inputs + waitForNextWriter(problem: problem) }
                return inputs + finish(problem: problem, failed: false)
            }
            bytesThisTurn += count
            if waitingForWriter {
                // Said as the closing was: a journal shows the stream's story.
                waitingForWriter = false
                inputs.append(.status("\(name): a writer is back; reading its records"))
            }
            let events = decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            anchorBatch(events, readAt: now, inputs: &inputs)
            for event in events {
                if let edge = edges.edge(event, at: moment(of: event.time, readAt: now, inputs: &inputs)) {
                    inputs.append(.edge(edge))
                }
            }
            if let error = decoder.error {
                return inputs + finish(problem: "\(name): \(error.description)", failed: true)
            }
            // A FIFO read short has nothing more now (a writer adding more meanwhile makes it
            // readable again for the next poll): no second read just to hear EAGAIN.
            if isFIFO, count < buffer.count { return inputs }
        }
        return inputs
    }

    /// Bytes read in one turn of the loop: one full buffer (2,730 records).
    static let bytesPerTurn = 1 << 16

    /// Places a batch of records read at `now` on the loop's clock. Records read together all
    /// happened by now: the anchor is chosen so that the newest of them is dated no later than
    /// now, keeping their spacing (the first batch of a stream, a file read whole), unless that
    /// would date the oldest before the previous record: then the batch starts at the previous
    /// record and may end a little after now (a writer sending faster than its timestamps say
    /// keeps its press lengths, which the stabilisation judges). A batch whose newest record
    /// would be dated more than `clockJump` ahead of now, or whose oldest would fall more than
    /// that before the previous record, means the writer's clock jumped: said once, and the
    /// records are dated from now on.
    private func anchorBatch(_ events: [DeviceEvent], readAt now: Double, inputs: inout [RuntimeInput]) {
        var newest = -Double.infinity, oldest = Double.infinity
        for event in events where event.time.isFinite {
            newest = max(newest, event.time)
            oldest = min(oldest, event.time)
        }
        guard newest.isFinite, oldest.isFinite else { return }
        let span = newest - oldest
        guard let (moment, first) = anchor else {
            anchor = (now - span, oldest)
            return
        }
        let latest = moment + (newest - first), earliest = moment + (oldest - first)
        if latest > now + Self.clockJump || earliest < lastEdgeMoment - Self.clockJump {
            if !saidClockJump {
                saidClockJump = true
                let direction = latest > now ? "ahead" : "back"
                inputs.append(.status("\(name): the stream's clock jumped \(direction) (a record dated \(Self.describe(latest > now ? newest : oldest)) s); its records are dated as they are read"))
            }
            anchor = (max(now - span, lastEdgeMoment), oldest)
        } else if latest > now + Self.readingJitter {
            // Moved back so that the batch ends now, but not before the previous record.
            let target = max(now, lastEdgeMoment + span)
            if latest > target { anchor = (moment - (latest - target), first) }
        }
    }

    /// The loop-clock moment of a record dated `time` by its writer: never before the previous
    /// record's, never more than `clockJump` after now.
    private func moment(of time: Double, readAt now: Double, inputs: inout [RuntimeInput]) -> Double {
        guard let (moment, first) = anchor, time.isFinite else { return max(lastEdgeMoment, now) }
        lastEdgeMoment = min(max(lastEdgeMoment, moment + (time - first)), now + Self.clockJump)
        return lastEdgeMoment
    }

    private static func describe(_ time: Double) -> String {
        guard time.isFinite, abs(time) < 1e15 else { return String(time) }
        return String(format: "%.6f", time)
    }

    /// A FIFO's writer closed: open it again, so that the next writer is read (the open does
    /// not block; poll does not report the new descriptor until a writer connects and writes or
    /// closes).
    private func waitForNextWriter(problem: String?) -> [RuntimeInput] {
        var inputs = problem.map { [RuntimeInput.status($0)] } ?? []
        close()
        decoder = RawEventDecoder()
        anchor = nil
        saidClockJump = false
        do {
            fileDescriptor = try FileIO.open(path, .readOnly, options: .nonBlocking)
        } catch {
            return inputs + finish(problem: "\(name): cannot open it again: \(error.errno.message)", failed: true)
        }
        // Like a device unplugged: a switch held when its writer went away is released.
        inputs.append(.devicesLost)
        inputs.append(.status("\(name): the writer closed the stream; waiting for the next writer"))
        waitingForWriter = true
        return inputs
    }

    private func finish(problem: String?, failed: Bool) -> [RuntimeInput] {
        ended = true
        self.failed = failed
        close()
        return (problem.map { [RuntimeInput.status($0)] } ?? []) + [.endOfInput(source: name, failed: failed)]
    }

    public func close() {
        if let fileDescriptor {
            FileIO.close(fileDescriptor)
            self.fileDescriptor = nil
        }
    }
}
