import Foundation
import Platform

/// A Baum braille display on a pseudo-terminal, for BRLTTY's Baum driver
/// (`-b bm -d serial:<slavePath>`).
///
/// It speaks the Baum "escape" protocol (19200 8N1 on real hardware; a pty has no baud rate):
/// packets are `ESC code data…`, with every ESC inside the data doubled. It answers BRLTTY's
/// probe (`8A`, `84`, `01 00`, `08`, then a module query `50 …`) with its cell count
/// `ESC 01 <cells>`, and with a 16-byte identity `ESC 84 …` when it has one; it decodes cell
/// writes (`ESC 01` + one byte per cell, bit 0 = dot 1) into `cells`; and it sends routing keys
/// (`ESC 22` + a bitmask of the pressed keys, then the same with zeros on release) and display
/// keys (`ESC 24` + a bitmask, Display1 = bit 0).
///
/// The display can start "not answering" (BRLTTY's probes go unanswered, as with a display
/// that is switched off) and start answering later. All I/O runs on the emulator's own thread;
/// the properties are safe to read from any thread.
public final class BaumDisplayEmulator: @unchecked Sendable {
    /// The pseudo-terminal's slave device, e.g. `/dev/pts/3`: give BRLTTY `serial:<slavePath>`.
    public let slavePath: String
    /// The identity sent for `GetDeviceIdentity` (`84`), padded to 16 bytes; nil: no answer.
    public let identity: String?

    private let master: FileDescriptor
    /// Held open so that the master never sees a hang-up while BRLTTY restarts.
    private let slave: FileDescriptor
    private let condition = NSCondition()
    private let sendLock = NSLock()
    private var thread: Thread?

    // Guarded by `condition`.
    private var _cellCount: Int
    private var _answering: Bool
    private var _running = true
    private var _finished = false
    private var _cells: [UInt8]
    private var _cellWrites = 0
    private var _frames: [Frame] = []
    private var _recordingFrames = false
    private var _probes = 0
    private var _requests: [(code: UInt8, data: [UInt8])] = []
    private var _failure: String?

    // Parser state, used by the I/O thread only.
    private var parser = Parser()

    /// Opens the pseudo-terminal (posix_openpt, grantpt, unlockpt, ptsname_r), puts it in raw
    /// mode, and starts the I/O thread.
    ///
    /// - Parameters:
    ///   - cells: the cell count reported to BRLTTY (1…84).
    ///   - identity: the device identity, e.g. "Refreshabraille 18" (BRLTTY picks its key table
    ///     from names such as "VarioConnect", "PocketVario", "Orbit", "Refreshabraille"); nil
    ///     to leave identity requests unanswered, as older models do.
    ///   - answering: false to leave every request unanswered until `startAnswering()`.
    public init(cells: Int = 40, identity: String? = nil, answering: Bool = true) throws(BrailleTestSupportError) {
        guard (1...84).contains(cells) else {
            throw BrailleTestSupportError("BaumDisplayEmulator", detail: "cell count \(cells) outside 1...84 (BRLTTY's Baum limit)")
        }
        let terminal: PseudoTerminal
        do {
            terminal = try PseudoTerminal.open()
        } catch {
            throw BrailleTestSupportError(error)
        }
        let path = terminal.slavePath
        self.master = terminal.master
        self.slave = terminal.slave
        self.slavePath = path
        self.identity = identity
        self._cellCount = cells
        self._answering = answering
        self._cells = [UInt8](repeating: 0, count: cells)

        // The thread holds the emulator only while it handles one batch, so that dropping the
        // emulator ends it.
        let thread = Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while let emulator = self, emulator.step(&buffer) {}
            self?.finish()
        }
        thread.name = "BaumDisplayEmulator \(path)"
        self.thread = thread
        thread.start()
    }

    deinit {
        locked { _running = false }
        FileIO.close(master)
        FileIO.close(slave)
    }

    // MARK: - State

    /// The cell count reported to BRLTTY.
    public var cellCount: Int { locked { _cellCount } }

    /// Whether the display answers BRLTTY's requests.
    public var isAnswering: Bool { locked { _answering } }

    /// The cells of BRLTTY's latest write (bit 0 = dot 1); blank before the first.
    public var cells: [UInt8] { locked { _cells } }

    /// The latest cells as Unicode braille patterns (U+2800 + dots).
    public var text: String { BrailleCells.text(cells) }

    /// How many cell writes arrived.
    public var cellWriteCount: Int { locked { _cellWrites } }

    /// One cell write as it arrived: when its last byte was read (CLOCK_MONOTONIC, the clock of
    /// evdev and raw input timestamps) and its cells.
    public struct Frame: Sendable, Equatable {
        public var time: Double
        public var cells: [UInt8]
    }

    /// The cell writes received since `startRecordingFrames()`, in order, with their times.
    public var frames: [Frame] { locked { _frames } }

    /// Starts keeping every cell write with its arrival time (forgets those kept before), so that
    /// a latency benchmark can find when given cells reached the display.
    public func startRecordingFrames() {
        locked {
            _frames = []
            _recordingFrames = true
        }
    }

    /// Stops keeping cell writes; returns those kept.
    @discardableResult
    public func stopRecordingFrames() -> [Frame] {
        locked {
            _recordingFrames = false
            defer { _frames = [] }
            return _frames
        }
    }

    /// How many probes (`01 00`, BRLTTY asking for the cell count) arrived.
    public var probeCount: Int { locked { _probes } }

    /// Every request except cell writes, in order: code and unescaped data.
    public var requests: [(code: UInt8, data: [UInt8])] { locked { _requests } }

    /// What went wrong on the I/O thread, if anything did.
    public var failure: String? { locked { _failure } }

    /// From now on, answer BRLTTY's probes (BRLTTY probes again about every 5 s after a
    /// failed start).
    public func startAnswering() {
        locked { _answering = true }
    }

    /// From now on, leave requests unanswered (the display is "off"; cell writes are still
    /// recorded).
    public func stopAnswering() {
        locked { _answering = false }
    }

    // MARK: - Waiting

    /// Waits until the cells satisfy `predicate` (checked now and after every write), at most
    /// `timeout` seconds; returns them, or nil on timeout.
    public func waitForCells(timeout: Double, where predicate: ([UInt8]) -> Bool) -> [UInt8]? {
        wait(on: condition, timeout: timeout) { predicate(_cells) ? _cells : nil }
    }

    /// Waits until the display shows exactly `cells` (shorter arrays are padded with blank
    /// cells); true if it did within `timeout` seconds.
    public func waitForCells(_ cells: [UInt8], timeout: Double) -> Bool {
        waitForCells(timeout: timeout) { shown in
            shown.count >= cells.count && Array(shown.prefix(cells.count)) == cells
                && shown.dropFirst(cells.count).allSatisfy { $0 == 0 }
        } != nil
    }

    /// Waits until at least `count` cell writes arrived in total.
    public func waitForCellWrites(atLeast count: Int, timeout: Double) -> Bool {
        wait(on: condition, timeout: timeout) { _cellWrites >= count ? true : nil } ?? false
    }

    /// Waits until at least `count` probes arrived in total.
    public func waitForProbes(atLeast count: Int, timeout: Double) -> Bool {
        wait(on: condition, timeout: timeout) { _probes >= count ? true : nil } ?? false
    }

    // MARK: - Keys

    /// The size of a routing-keys packet's bitmask for `cells` cells, as BRLTTY expects it:
    /// one bit per cell, with 3 or 4 bytes rounded up to 5.
    public static func routingMaskSize(cells: Int) -> Int {
        let size = (cells + 7) / 8
        return size > 2 && size < 5 ? 5 : size
    }

    /// Presses routing keys (0-based cells) together, holds them for `hold` seconds, and
    /// releases them: `ESC 22` + bitmask, then `ESC 22` + zeros.
    public func pressRoutingKeys(_ keys: Set<Int>, hold: Double = 0.05) throws(BrailleTestSupportError) {
        let count = cellCount
        for key in keys where !(0..<count).contains(key) {
            throw BrailleTestSupportError("pressRoutingKeys", detail: "key \(key) outside 0..<\(count)")
        }
        var mask = [UInt8](repeating: 0, count: Self.routingMaskSize(cells: count))
        for key in keys { mask[key / 8] |= UInt8(1 << (key % 8)) }
        try send(code: 0x22, data: mask)
        sleepSeconds(hold)
        try send(code: 0x22, data: [UInt8](repeating: 0, count: mask.count))
    }

    /// Presses the routing key over `cell` (0-based) and releases it.
    public func pressRoutingKey(_ cell: Int, hold: Double = 0.05) throws(BrailleTestSupportError) {
        try pressRoutingKeys([cell], hold: hold)
    }

    /// Presses display keys together (1-based: Display1…Display8; Display2 is pan left and
    /// Display5 pan right in BRLTTY's default Baum key table), holds them, and releases them:
    /// `ESC 24` + bitmask, then `ESC 24 00`.
    public func pressDisplayKeys(_ keys: Set<Int>, hold: Double = 0.05) throws(BrailleTestSupportError) {
        var mask: UInt8 = 0
        for key in keys {
            guard (1...8).contains(key) else {
                throw BrailleTestSupportError("pressDisplayKeys", detail: "Display\(key) outside Display1...Display8")
            }
            mask |= UInt8(1 << (key - 1))
        }
        try send(code: 0x24, data: [mask])
        sleepSeconds(hold)
        try send(code: 0x24, data: [0])
    }

    /// Presses one display key (1-based: Display1…Display8) and releases it.
    public func pressDisplayKey(_ key: Int, hold: Double = 0.05) throws(BrailleTestSupportError) {
        try pressDisplayKeys([key], hold: hold)
    }

    /// Reports a new cell count without being asked (`ESC 01 <cells>`), as a display does
    /// when its size changes.
    public func changeCellCount(_ cells: Int) throws(BrailleTestSupportError) {
        guard (1...84).contains(cells) else {
            throw BrailleTestSupportError("changeCellCount", detail: "cell count \(cells) outside 1...84")
        }
        locked { _cellCount = cells }
        try send(code: 0x01, data: [UInt8(cells)])
    }

    /// Sends one packet: `ESC code data…` with every ESC in the data doubled.
    public func send(code: UInt8, data: [UInt8]) throws(BrailleTestSupportError) {
        var bytes: [UInt8] = [Self.escape, code]
        for byte in data {
            bytes.append(byte)
            if byte == Self.escape { bytes.append(byte) }
        }
        sendLock.lock()
        defer { sendLock.unlock() }
        try writeAll(master, bytes, what: "Baum packet to \(slavePath)")
    }

    /// Stops the I/O thread (waits for it, at most 2 s). The pty stays open until deinit.
    public func stop() {
        locked { _running = false }
        _ = wait(on: condition, timeout: 2) { _finished || thread == nil ? true : nil }
    }

    // MARK: - I/O thread

    static let escape: UInt8 = 0x1B
    /// The most frames kept while recording (about 4 MB at 40 cells): a runaway writer cannot
    /// exhaust memory.
    static let maximumFrames = 100_000

    /// One round of the I/O thread: waits up to 50 ms for bytes and handles them; false once
    /// stopped.
    private func step(_ buffer: inout [UInt8]) -> Bool {
        guard locked({ _running }) else { return false }
        guard isReadable(master, timeout: 0.05) else { return true }
        let count: Int
        do {
            count = try buffer.withUnsafeMutableBytes { try FileIO.read(master, into: $0) } ?? 0
        } catch {
            // EIO: no slave side open (cannot happen while `slave` is held); back off.
            sleepSeconds(0.01)
            return true
        }
        if count > 0 {
            // The moment the bytes were read: a frame's arrival (the read follows poll's wake-up).
            let arrived = monotonicNow()
            let cellCount = locked { _cellCount }
            for byte in buffer[0..<count] {
                if let packet = parser.feed(byte, cellCount: cellCount) { handle(packet, arrived: arrived) }
            }
        }
        return true
    }

    private func finish() {
        locked {
            _finished = true
            condition.broadcast()
        }
    }

    private func handle(_ packet: Parser.Packet, arrived: Double) {
        switch packet {
        case .cells(let cells):
            locked {
                _cells = cells
                _cellWrites += 1
                if _recordingFrames, _frames.count < Self.maximumFrames { _frames.append(Frame(time: arrived, cells: cells)) }
                condition.broadcast()
            }
        case .request(let code, let data):
            let (answering, count) = locked { () -> (Bool, Int) in
                _requests.append((code, data))
                if code == 0x01 { _probes += 1 }
                condition.broadcast()
                return (_answering, _cellCount)
            }
            guard answering else { return }
            do throws(BrailleTestSupportError) {
                switch code {
                case 0x01:  // DisplayData with one byte 0: "how many cells?"
                    try send(code: 0x01, data: [UInt8(count)])
                case 0x84:  // GetDeviceIdentity
                    if let identity { try send(code: 0x84, data: Self.identityBytes(identity)) }
                default:
                    break  // 8A serial number, 08 key states, 50 module query: a plain display stays silent
                }
            } catch {
                locked { _failure = error.description }
            }
        }
    }

    /// The identity as BRLTTY reads it: 16 bytes, padded with spaces (18 when it starts with
    /// "Refreshabraille " or "NLS eReader Zoom", which BRLTTY reads two bytes longer).
    static func identityBytes(_ identity: String) -> [UInt8] {
        var bytes = Array(identity.utf8)
        let long = ["Refreshabraille ", "NLS eReader Zoom"].contains { bytes.starts(with: Array($0.utf8)) }
        let size = long ? 18 : 16
        bytes = Array(bytes.prefix(size))
        bytes += [UInt8](repeating: 0x20, count: size - bytes.count)
        return bytes
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Splits BRLTTY's byte stream into Baum packets.
    struct Parser {
        enum Packet: Equatable {
            /// A cell write (`01` + one byte per cell).
            case cells([UInt8])
            /// Anything else, including the probe `01 00`.
            case request(code: UInt8, data: [UInt8])
        }

        private enum State { case idle, code, data }
        private var state = State.idle
        private var escapePending = false
        private var code: UInt8 = 0
        private var data: [UInt8] = []
        private var needed = 0
        private var lengthPrefixed = false
        /// Set by the probe's first requests (`8A`, `84`): the next `01` carries one byte (the
        /// cell count question), not the cells.
        private var expectingProbe = true

        mutating func feed(_ byte: UInt8, cellCount: Int) -> Packet? {
            switch state {
            case .idle:
                if byte == BaumDisplayEmulator.escape { state = .code }
                return nil
            case .code:
                if byte == BaumDisplayEmulator.escape { return nil }
                return begin(byte, cellCount: cellCount)
            case .data:
                if escapePending {
                    escapePending = false
                    if byte == BaumDisplayEmulator.escape { return append(byte) }
                    // An undoubled ESC: the packet was cut short and a new one began.
                    return begin(byte, cellCount: cellCount)
                }
                if byte == BaumDisplayEmulator.escape {
                    escapePending = true
                    return nil
                }
                return append(byte)
            }
        }

        private mutating func begin(_ code: UInt8, cellCount: Int) -> Packet? {
            self.code = code
            data = []
            lengthPrefixed = false
            switch code {
            case 0x01: needed = expectingProbe ? 1 : cellCount
            case 0x12: needed = 2  // SetMode: mode, setting
            case 0x15, 0x16, 0x17: needed = 1  // protocol state, channel, powerdown
            case 0x50, 0x51, 0x52:  // modular: length byte, then that many bytes
                needed = 1
                lengthPrefixed = true
            default: needed = 0  // 8A, 84, 08, 05, 11 and unknown codes carry nothing
            }
            if code == 0x8A || code == 0x84 { expectingProbe = true }
            if needed == 0 { return complete() }
            state = .data
            return nil
        }

        private mutating func append(_ byte: UInt8) -> Packet? {
            data.append(byte)
            if lengthPrefixed && data.count == 1 { needed = 1 + Int(byte) }
            return data.count >= needed ? complete() : nil
        }

        private mutating func complete() -> Packet {
            state = .idle
            if code == 0x01 {
                if expectingProbe && data.count == 1 {
                    expectingProbe = false
                    return .request(code: code, data: data)
                }
                return .cells(data)
            }
            return .request(code: code, data: data)
        }
    }
}
