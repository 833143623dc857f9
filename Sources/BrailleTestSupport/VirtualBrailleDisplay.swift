import Foundation
import Platform

/// The other end of BRLTTY's Virtual braille driver (`-b vr -d client:<socketPath>`): a
/// local socket server that BRLTTY connects to.
///
/// The driver's text protocol: the display sends `cells 40`; BRLTTY sends lines such as
/// `Visual "text"` and `Braille "1|12|14| |…"` (the dots of each cell, `|`-separated, a space
/// for a blank cell); the display sends command names (`ROUTE 5`, `FWINLT`), which BRLTTY
/// runs as if a key bound to them had been pressed (`ROUTE N` arrives as ROUTE with argument N;
/// `ROUTE 0` is refused by the driver). The driver exists in BRLTTY 6.5 and was removed
/// upstream in the 6.9 series: check `BRLTTYProcess.hasBrailleDriver("vr")`.
public final class VirtualBrailleDisplay: @unchecked Sendable {
    /// The socket BRLTTY connects to.
    public let socketPath: String
    /// BRLTTY's device for this display: `client:<socketPath>`.
    public var device: String { "client:" + socketPath }
    /// The cell count announced to BRLTTY (columns × rows).
    public let cellCount: Int
    /// Cells per row and rows, as announced (`cells COLUMNS ROWS` when there are several rows;
    /// BRLTTY's Virtual driver then reports `COLUMNS×ROWS` through BrlAPI).
    public let columns: Int
    public let rows: Int

    private let directory: String
    private let listener: FileDescriptor
    private let condition = NSCondition()
    private var _connection: FileDescriptor?
    private var _running = true
    private var _finished = false
    private var _cells: [UInt8]
    private var _cellWrites = 0
    private var _lines: [String] = []
    private var input: [UInt8] = []

    /// Listens on a new socket in a private temporary directory and starts the I/O thread.
    /// `cells` is the width of a row.
    public init(cells: Int = 40, rows: Int = 1) throws(BrailleTestSupportError) {
        let directory: String
        let listener: FileDescriptor
        do {
            directory = try FileSystem.makeTemporaryDirectory(prefix: NSTemporaryDirectory() + "/switchscan-vr-")
            listener = try LocalSocket.listen(directory + "/display")
        } catch {
            throw BrailleTestSupportError(error)
        }
        let path = directory + "/display"
        self.directory = directory
        self.socketPath = path
        self.listener = listener
        self.columns = cells
        self.rows = max(rows, 1)
        self.cellCount = cells * max(rows, 1)
        self._cells = [UInt8](repeating: 0, count: cells * max(rows, 1))
        let thread = Thread { [weak self] in
            while let display = self, display.step() {}
            self?.finish()
        }
        thread.name = "VirtualBrailleDisplay"
        thread.start()
    }

    deinit {
        condition.lock()
        _running = false
        if let _connection { FileIO.close(_connection) }
        condition.unlock()
        FileIO.close(listener)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The cells of BRLTTY's latest `Braille` line.
    public var cells: [UInt8] { locked { _cells } }
    /// The latest cells as Unicode braille patterns.
    public var text: String { BrailleCells.text(cells) }
    /// How many `Braille` lines arrived.
    public var cellWriteCount: Int { locked { _cellWrites } }
    /// Every line BRLTTY sent.
    public var lines: [String] { locked { _lines } }
    /// Whether BRLTTY is connected.
    public var isConnected: Bool { locked { _connection != nil } }

    /// Waits until the cells satisfy `predicate`; returns them, or nil after `timeout` s.
    public func waitForCells(timeout: Double, where predicate: ([UInt8]) -> Bool) -> [UInt8]? {
        wait(on: condition, timeout: timeout) { predicate(_cells) ? _cells : nil }
    }

    /// Waits until BRLTTY is connected.
    public func waitForConnection(timeout: Double) -> Bool {
        wait(on: condition, timeout: timeout) { _connection != nil ? true : nil } ?? false
    }

    /// Sends a command line to BRLTTY, e.g. "ROUTE 5" or "FWINLT". Send one and wait for its
    /// effect before the next: BRLTTY 6.5's driver takes one line each time its input wakes it,
    /// so a second line sent together with the first is only run when more input comes.
    public func send(_ line: String) throws(BrailleTestSupportError) {
        guard let connection = locked({ _connection }) else { throw BrailleTestSupportError("VirtualBrailleDisplay.send", detail: "BRLTTY is not connected") }
        try writeAll(connection, Array((line + "\n").utf8), what: "Virtual display")
    }

    /// Stops the I/O thread (at most 2 s).
    public func stop() {
        locked { _running = false }
        _ = wait(on: condition, timeout: 2) { _finished ? true : nil }
    }

    private func step() -> Bool {
        guard locked({ _running }) else { return false }
        guard let connection = locked({ _connection }) else {
            guard isReadable(listener, timeout: 0.05) else { return true }
            guard let accepted = LocalSocket.accept(listener) else { return true }
            let announced = rows > 1 ? "cells \(columns) \(rows)\n" : "cells \(columns)\n"
            try? writeAll(accepted, Array(announced.utf8), what: "Virtual display")
            locked {
                _connection = accepted
                input = []
                condition.broadcast()
            }
            return true
        }
        guard isReadable(connection, timeout: 0.05) else { return true }
        let bytes: [UInt8]?
        do {
            bytes = try FileIO.read(connection)
        } catch {
            bytes = []
        }
        if bytes?.isEmpty == true {
            // BRLTTY went away: wait for it to connect again.
            locked {
                FileIO.close(connection)
                _connection = nil
                condition.broadcast()
            }
            return true
        }
        guard let bytes else { return true }
        input += bytes
        while let newline = input.firstIndex(of: 0x0A) {
            let line = String(decoding: input[..<newline], as: UTF8.self).trimmingCharacters(in: .init(charactersIn: "\r"))
            input.removeSubrange(...newline)
            handle(line)
        }
        return true
    }

    private func handle(_ line: String) {
        locked {
            _lines.append(line)
            if line.hasPrefix("Braille \""), let cells = Self.parseDots(line) {
                _cells = cells
                _cellWrites += 1
            }
            condition.broadcast()
        }
    }

    /// The cells of a `Braille "1|12| |…"` line.
    static func parseDots(_ line: String) -> [UInt8]? {
        guard let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close else { return nil }
        let body = line[line.index(after: open)..<close]
        return body.split(separator: "|", omittingEmptySubsequences: false).map { field in
            field.reduce(UInt8(0)) { cell, digit in
                guard let dot = digit.wholeNumberValue, (1...8).contains(dot) else { return cell }
                return cell | UInt8(1 << (dot - 1))
            }
        }
    }

    private func finish() {
        locked {
            _finished = true
            condition.broadcast()
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
