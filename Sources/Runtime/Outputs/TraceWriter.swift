import Platform
import Presentation
import Scanning

/// Appends trace lines to a file, each turn's lines in one write(2) (a trace must survive a
/// crash, and a line is never torn: O_APPEND puts each write whole at the end).
///
/// The previous run's lines are kept: a run appends after a `run` line that says when it started
/// (a restart after a crash keeps the crash's trace). A file over `rotationBytes` at the start is
/// renamed to `PATH.1` first (replacing an older one), so a trace never grows without bound over
/// restarts.
///
/// A write that fails (a full disk, an I/O error) is dropped whole, never half-written, and
/// `problem` says so once (the loop shows it on the status line); later writes are tried again,
/// and a write that succeeds after failures says how many turns were lost.
///
/// A path that is not a regular file (a FIFO another program reads, a terminal) is a *stream*:
/// opened and written without blocking, so that the loop never waits for its reader. A FIFO
/// with no reader yet (ENXIO) is said once, and the run goes on: its lines are held (at most
/// `heldBytes`, the oldest whole lines dropped past that) and the open is tried again every
/// `readerRetrySeconds` while lines wait; the first reader gets them from the `run` line on.
/// A reader that reads slowly gets what its pipe takes, the rest later; a reader that closes
/// the FIFO is said once, and the next reader starts at a whole line.
public final class TraceWriter {
    /// nil while a FIFO has no reader.
    private var descriptor: FileDescriptor?
    public let path: String
    /// At the start, a trace file larger than this is renamed to `PATH.1`.
    public static let rotationBytes = 8 << 20
    /// What a stream holds back for a reader that is not there or not reading.
    public static let heldBytes = 1 << 20
    /// How often the open of a FIFO with no reader is tried again, while lines wait.
    public static let readerRetrySeconds = 1.0

    /// What went wrong with the last write, once: the caller says it and clears it.
    public private(set) var problem: String?
    private var failedWrites = 0
    private var failing = false

    /// Not a regular file: written without blocking, through `held`.
    private let isStream: Bool
    /// A stream's bytes not written yet; its first `begun` bytes are the rest of a line the
    /// reader has the start of.
    private var held: [UInt8] = []
    private var begun = 0
    /// Lines dropped from `held` since a reader last took lines.
    private var droppedLines = 0
    /// When the loop should call `writeHeld()` again (monotonic seconds): lines wait for a
    /// reader, or for one that is slow.
    public private(set) var retryDue: Double?

    public init(path: String) throws(SystemCallError) {
        self.path = path
        if let status = try? FileSystem.status(path), status.kind == .regular, status.size > Self.rotationBytes {
            try? FileSystem.rename(path, to: path + ".1")
        }
        do {
            let opened = try FileIO.open(path, .writeOnly, options: [.create, .append, .nonBlocking])
            descriptor = opened
            isStream = try FileIO.status(opened, subject: path).kind != .regular
        } catch where error.errno == .noSuchDeviceOrAddress {
            // A FIFO nobody reads: open(2) without O_NONBLOCK would wait for a reader, and no
            // signal, `--duration` or switch would be seen meanwhile.
            isStream = true
            problem = "trace: \(path) is a FIFO with no reader; the run goes on, and the trace is written once a program opens it for reading (up to \(Self.heldBytes >> 20) MiB of lines are held until then)"
            return
        }
    }

    /// Whether lines wait for a stream's reader.
    public var isHolding: Bool { !held.isEmpty }

    /// The first line of a run: `{"time":0,"kind":"run","started":"2026-11-24T06:31:03Z","pid":42}`.
    public func writeRunStart(pid: Int32 = CurrentProcess.id) {
        write(lines: [TraceFormat.runStartLine(started: WallClock.utcStamp(), pid: pid)])
    }
    public func write(_ events: [TraceEvent]) {
        write(lines: events.map { TraceFormat.jsonLine($0) })
    }

    /// Writes lines made by `TraceFormat` (the runtime's own kinds, such as `brailleWritten`).
    public func write(lines: [String]) {
        guard !lines.isEmpty else { return }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        if isStream {
            hold(bytes)
            writeHeld()
            return
        }
        guard let descriptor else { return }
        do {
            // One write(2) of whole lines; a short write (a disk filling up midway) is cut back
            // to the last whole line so that the file never holds half a line.
            let written = try FileIO.writeOnce(descriptor, bytes[...], subject: path)
            if written < bytes.count { try finishShortWrite(bytes, written: written) }
            if failing {
                failing = false
                problem = "trace: writing \(path) again; \(failedWrites) turn\(failedWrites == 1 ? "" : "s") of trace lines were lost"
                failedWrites = 0
            }
        } catch {
            failedWrites += 1
            if !failing {
                failing = true
                problem = "trace: cannot write \(path): \(error.errno.message); scanning goes on without the trace"
            }
        }
    }

    /// A short write (a disk filling up midway): write the rest; when that fails, cut the file
    /// back to its last whole line, so that it never holds half a line.
    private func finishShortWrite(_ bytes: [UInt8], written: Int) throws(SystemCallError) {
        guard let descriptor else { return }
        var offset = written
        while offset < bytes.count {
            do {
                offset += try FileIO.writeOnce(descriptor, bytes[offset...], subject: path)
            } catch {
                let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                FileIO.truncateEnd(descriptor, by: offset - lineStart)
                throw error
            }
        }
    }

    // MARK: Streams

    /// Adds `bytes` (whole lines) to what waits; past `heldBytes`, the oldest whole lines go
    /// (never the rest of a line the reader has begun).
    private func hold(_ bytes: [UInt8]) {
        held += bytes
        let excess = held.count - Self.heldBytes
        guard excess > 0 else { return }
        var cut = begun
        while cut - begun < excess, let newline = held[cut...].firstIndex(of: UInt8(ascii: "\n")) {
            cut = newline + 1
            droppedLines += 1
        }
        held.removeSubrange(begun..<cut)
    }

    /// Writes what a stream holds, as far as its reader takes it now; opens a FIFO again when
    /// it had no reader. Never blocks.
    public func writeHeld() {
        guard isStream else { return }
        retryDue = nil
        guard !held.isEmpty else { return }
        if descriptor == nil {
            do {
                // No O_CREAT: a FIFO removed meanwhile is not replaced by a regular file.
                descriptor = try FileIO.open(path, .writeOnly, options: [.append, .nonBlocking])
            } catch {
                if error.errno != .noSuchDeviceOrAddress, !failing {
                    failing = true
                    problem = "trace: cannot open \(path) again: \(error.errno.message); its lines are held while the run goes on"
                }
                retryDue = MonotonicClock.now() + Self.readerRetrySeconds
                return
            }
            failing = false
            problem = "trace: \(path) has a reader; writing the trace to it"
                + (droppedLines > 0 ? " (\(droppedLines) line\(droppedLines == 1 ? "" : "s") dropped while none was there)" : "")
            droppedLines = 0
        }
        while !held.isEmpty {
            guard let descriptor else { break }
            let written: Int?
            do {
                written = try FileIO.writeSome(descriptor, held[...])
            } catch {
                if error.errno == .brokenPipe {
                    // The reader closed it: the next one starts at a whole line.
                    FileIO.close(descriptor)
                    self.descriptor = nil
                    held.removeFirst(begun)
                    begun = 0
                    problem = "trace: the reader of \(path) closed it; lines are held until a program opens it again"
                } else if !failing {
                    failing = true
                    problem = "trace: cannot write \(path): \(error.errno.message); its lines are held while the run goes on"
                }
                break
            }
            guard let written, written > 0 else { break }  // full: the reader is slow
            let endsLine = held[written - 1] == UInt8(ascii: "\n")
            held.removeFirst(written)
            begun = endsLine ? 0 : (held.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? held.count)
        }
        if !held.isEmpty { retryDue = MonotonicClock.now() + Self.readerRetrySeconds }
    }

    /// The problem to say, once.
    public func takeProblem() -> String? {
        defer { problem = nil }
        return problem
    }

    deinit {
        if let descriptor { FileIO.close(descriptor) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
