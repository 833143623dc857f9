import CBrlAPI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One connection to BRLTTY's BrlAPI server, over libbrlapi's handle API (`brlapi__*`).
///
/// The class owns the handle's memory and the record of the server's last exception: the
/// aborting default exception handler is replaced, so an exception makes the pending call
/// throw (with `BrlAPIError.exception` set) instead of ending the process.
///
/// Every method is one libbrlapi call (named in its documentation); failures throw
/// `BrlAPIError` naming that call. Calls that fail with `EINTR` are retried. Use a connection
/// from one thread at a time; `fileDescriptor` is for poll(2).
///
/// The sequence that works with BRLTTY 6.5: `BrlAPI.ignoreSIGPIPE()`, `open`, `displaySize()`
/// (0 columns: the display is not there yet; close and retry), `enterTTYMode()`,
/// `ignoreAllKeys()`, `acceptKeys(_:)`, then `write` and `readKey()` when the descriptor is
/// readable. On an error with `isConnectionLost`, close and open a new connection.
public final class BrlAPIConnection {
    /// `brlapi_handle_t *`, `brlapi_getHandleSize()` bytes owned by this object.
    private let handle: OpaquePointer
    private let handleMemory: UnsafeMutableRawPointer
    private let exceptionRecord: UnsafeMutablePointer<cbrlapi_exception_record>
    private var isOpen = true
    private var columns = 0
    private var rows = 0

    private init(handleMemory: UnsafeMutableRawPointer, exceptionRecord: UnsafeMutablePointer<cbrlapi_exception_record>) {
        self.handleMemory = handleMemory
        self.handle = OpaquePointer(handleMemory)
        self.exceptionRecord = exceptionRecord
    }

    deinit {
        close()
        handleMemory.deallocate()
        exceptionRecord.deallocate()
    }

    /// Connects to BrlAPI and authenticates (`brlapi__openConnection`), then installs the
    /// recording exception handler (`brlapi__setExceptionHandler`).
    ///
    /// - Parameters:
    ///   - host: `":N"` (local socket N, then localhost TCP port 4101+N), `"name:N"`; nil for
    ///     libbrlapi's default: `BRLAPI_HOST` from the environment, else `:0`.
    ///   - auth: `"none"`, `"keyfile:/etc/brlapi.key"`, `"polkit"`…; nil for libbrlapi's
    ///     default: `BRLAPI_AUTH` from the environment, else the key file (and polkit).
    public static func open(host: String? = nil, auth: String? = nil) throws(BrlAPIError) -> BrlAPIConnection {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: brlapi_getHandleSize(), alignment: 16)
        let record = UnsafeMutablePointer<cbrlapi_exception_record>.allocate(capacity: 1)
        record.initialize(to: cbrlapi_exception_record())
        let handle = OpaquePointer(memory)
        do throws(BrlAPIError) {
            try retryingInterrupts("brlapi__openConnection") {
                withOptionalCString(host) { host in
                    withOptionalCString(auth) { auth in
                        var settings = brlapi_connectionSettings_t(auth: auth, host: host)
                        return brlapi__openConnection(handle, &settings, nil)
                    }
                }
            }
        } catch {
            memory.deallocate()
            record.deallocate()
            throw error
        }
        cbrlapi_install_recording_exception_handler(handle, record)
        return BrlAPIConnection(handleMemory: memory, exceptionRecord: record)
    }

    /// The connection's socket, for poll(2) (`brlapi__getFileDescriptor`); -1 once closed
    /// (by `close()`, or by libbrlapi after an exception).
    public var fileDescriptor: Int32 {
        isOpen ? brlapi__getFileDescriptor(handle) : -1
    }

    /// Whether `close()` has not been called yet.
    public var isClosed: Bool { !isOpen }

    /// The display's size in cells (`brlapi__getDisplaySize`). 0×0 means BRLTTY has no display
    /// yet: close and retry later. libbrlapi keeps the first non-zero answer for the life of the
    /// connection (even after BRLTTY exits), so only a new connection sees a new size.
    public func displaySize() throws(BrlAPIError) -> (columns: Int, rows: Int) {
        var x: UInt32 = 0
        var y: UInt32 = 0
        try call("brlapi__getDisplaySize") { brlapi__getDisplaySize(handle, &x, &y) }
        columns = Int(x)
        rows = Int(y)
        return (columns, rows)
    }

    /// The name of BRLTTY's braille driver, e.g. "Baum" (`brlapi__getDriverName`).
    public func driverName() throws(BrlAPIError) -> String {
        try nameCall("brlapi__getDriverName") { brlapi__getDriverName(handle, $0, $1) }
    }

    /// The display model as the driver identifies it (`brlapi__getModelIdentifier`); may be
    /// empty.
    public func modelIdentifier() throws(BrlAPIError) -> String {
        try nameCall("brlapi__getModelIdentifier") { brlapi__getModelIdentifier(handle, $0, $1) }
    }

    /// Takes the display for this client (`brlapi__enterTtyModeWithPath` with no path and the
    /// default key codes: BRLTTY commands). The tty path comes from `WINDOWPATH` when set.
    public func enterTTYMode() throws(BrlAPIError) {
        try call("brlapi__enterTtyModeWithPath") { brlapi__enterTtyModeWithPath(handle, nil, 0, nil) }
    }

    /// Gives the display back (`brlapi__leaveTtyMode`).
    public func leaveTTYMode() throws(BrlAPIError) {
        try call("brlapi__leaveTtyMode") { brlapi__leaveTtyMode(handle) }
    }

    /// Stops delivery of every key (`brlapi__ignoreKeys` with `brlapi_rangeType_all`; what the
    /// `brlapi__ignoreAllKeys` macro expands to).
    public func ignoreAllKeys() throws(BrlAPIError) {
        try call("brlapi__ignoreKeys") { cbrlapi_ignore_all_keys(handle) }
    }

    /// Delivers the given commands to this client (`brlapi__acceptKeys`): commands with an
    /// argument (ROUTE) as a whole command block (`brlapi_rangeType_command`, every cell), the
    /// others as keys with any flags (`brlapi_rangeType_key`). One C call per range type.
    public func acceptKeys(_ commands: Set<BrlAPICommand>) throws(BrlAPIError) {
        let sorted = commands.sorted { $0.code < $1.code }
        let blocks = sorted.filter(\.hasArgument).map(\.keyCode)
        let keys = sorted.filter { !$0.hasArgument }.map(\.keyCode)
        for (type, codes) in [(brlapi_rangeType_command, blocks), (brlapi_rangeType_key, keys)] where !codes.isEmpty {
            try call("brlapi__acceptKeys") {
                codes.withUnsafeBufferPointer { brlapi__acceptKeys(handle, type, $0.baseAddress, UInt32($0.count)) }
            }
        }
    }

    /// Shows a line (`brlapi__write`): region from cell 1 over the whole display (the size
    /// from the last `displaySize()`), UTF-8 text cut or padded with spaces to exactly that
    /// many characters (Unicode scalars). Braille pattern characters U+2800…U+28FF pass
    /// through as dots (bit 0 = dot 1).
    ///
    /// - Parameter cursor: the cell that shows the cursor (dots 7-8), 1-based as in BrlAPI
    ///   (1 = the first cell); nil for no cursor.
    public func write(text: String, cursor: Int?) throws(BrlAPIError) {
        try write(BrlAPICells(text, cells: columns * max(rows, 1)), cursor: cursor)
    }

    /// `write(text:cursor:)` with the text made ready beforehand (`BrlAPICells`, for this
    /// display's size): a line made ahead is sent without converting it again.
    public func write(_ line: BrlAPICells, cursor: Int?) throws(BrlAPIError) {
        let cells = columns * max(rows, 1)
        guard cells > 0 else {
            throw BrlAPIError(function: "brlapi__write", code: .invalidParameter,
                              message: "the display has no cells (displaySize() was 0×0 or not read)")
        }
        guard line.cells == cells else {
            throw BrlAPIError(function: "brlapi__write", code: .invalidParameter,
                              message: "the text was made for \(line.cells) cells; the display has \(cells)")
        }
        if let cursor, !(1...cells).contains(cursor) {
            throw BrlAPIError(function: "brlapi__write", code: .invalidParameter,
                              message: "cursor \(cursor) is outside the cells 1...\(cells)")
        }
        try call("brlapi__write") {
            line.utf8.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { text in
                    "UTF-8".withCString { charset in
                        var arguments = cbrlapi_write_arguments()
                        arguments.regionBegin = 1
                        arguments.regionSize = Int32(cells)
                        arguments.text = text.baseAddress
                        arguments.textSize = Int32(text.count)
                        arguments.cursor = Int32(cursor ?? 0)
                        arguments.charset = charset
                        return brlapi__write(handle, &arguments)
                    }
                }
            }
        }
    }

    /// The next key, without waiting (`brlapi__readKey` with wait 0); nil when none is
    /// pending. Keys may already sit in libbrlapi's buffer, so call this until nil before
    /// polling `fileDescriptor` again.
    public func readKey() throws(BrlAPIError) -> BrlAPIKey? {
        var code: brlapi_keyCode_t = 0
        let result = try call("brlapi__readKey") { brlapi__readKey(handle, 0, &code) }
        guard result == 1 else { return nil }
        return BrlAPIKey.decode(code, columns: columns * max(rows, 1))
    }

    /// The last exception the server sent on this connection (as `brlapi__strexception`
    /// describes it), or nil.
    public var lastException: String? {
        exceptionRecord.pointee.count == 0 ? nil : Self.exceptionDescription(exceptionRecord)
    }

    /// Closes the connection (`brlapi__closeConnection`). Later calls throw (`EBADF`);
    /// closing twice does nothing.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        brlapi__closeConnection(handle)
    }

    // MARK: - Calls

    /// Runs a libbrlapi call that returns -1 on failure: clears the thread's error first,
    /// retries `EINTR`, and throws the error (with the exception, if one came in meanwhile).
    @discardableResult
    private func call(_ function: String, _ body: () -> Int32) throws(BrlAPIError) -> Int32 {
        guard isOpen else {
            throw BrlAPIError(function: function, code: .libc, errno: EBADF, message: "the connection is closed")
        }
        let exceptionsBefore = exceptionRecord.pointee.count
        do throws(BrlAPIError) {
            return try retryingInterrupts(function, body)
        } catch var error {
            if exceptionRecord.pointee.count != exceptionsBefore {
                error.exception = Self.exceptionDescription(exceptionRecord)
            }
            throw error
        }
    }

    private func nameCall(_ function: String, _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws(BrlAPIError) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        try call(function) { buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count - 1) } }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func exceptionDescription(_ record: UnsafeMutablePointer<cbrlapi_exception_record>) -> String {
        withUnsafeBytes(of: &record.pointee.description) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// Runs a libbrlapi call that returns -1 on failure, with the thread's error cleared first
/// (libbrlapi never resets it), again while it fails with `EINTR`.
@discardableResult
func retryingInterrupts(_ function: String, _ body: () -> Int32) throws(BrlAPIError) -> Int32 {
    while true {
        cbrlapi_clear_error()
        let result = body()
        if result != -1 { return result }
        let error = cbrlapi_last_error()
        if error.code == BrlAPIError.Code.libc.rawValue, error.libcErrno == EINTR { continue }
        throw BrlAPIError.last(function)
    }
}

private func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// A line as `BrlAPIConnection.write` sends it to a display of `cells` cells: the UTF-8 bytes of
/// its first `cells` characters (Unicode scalars), then spaces. Made once per line, and
/// compared byte for byte (two renderings of one line are the same bytes).
public struct BrlAPICells: Equatable, Sendable {
    public let cells: Int
    let utf8: [UInt8]

    public init(_ text: String, cells: Int) {
        self.cells = max(0, cells)
        // Built byte by byte: the generic scalar-view appends took most of a write's time.
        var utf8 = [UInt8]()
        utf8.reserveCapacity(self.cells * 3)
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < self.cells else { break }
            utf8.append(contentsOf: scalar.utf8)
            count += 1
        }
        if count < self.cells { utf8.append(contentsOf: repeatElement(UInt8(ascii: " "), count: self.cells - count)) }
        self.utf8 = utf8
    }
}
