import Foundation
internal import CLouis

/// liblouis, the braille translator (`lou_translate`, `lou_checkTable`, `lou_version`), as a
/// thin typed wrapper: Swift strings in, Unicode braille cells (U+2800–U+28FF) and position maps
/// out, typed errors that name the C function and the table. No C type passes this module.
///
/// Tables are named as liblouis names them (`en-ueb-g2.ctb`, `fr-bfu-g2.ctb`, `zhcn-cbs.ctb`,
/// or a comma-separated list) and are found on liblouis's table path (`/usr/share/liblouis/tables`
/// on Debian, or `LOUIS_TABLEPATH`).
///
/// Thread safety: liblouis keeps process-wide state — the cache of compiled tables, the
/// translation work buffers (reused across calls), the log callback and log level — and is not
/// safe to call from two threads at once. Every call of this wrapper holds one process-wide lock
/// for the whole of its C calls, so the wrapper may be used from any thread or task; calls are
/// serialised, not parallel. The guarantee covers only calls made through this module: other
/// code in the process must not call liblouis directly. The wrapper installs its own log
/// callback (collecting liblouis's error messages for `LouisError.messages`; warnings, such as
/// the "Duplicate emphasis class" ones `zhcn-cbs.ctb` gives in 3.24, are dropped rather than
/// printed to standard error) and sets the log level to warnings. Compiled tables stay cached for
/// the life of the process (the wrapper never calls `lou_free`).
public enum Louis {
    /// Translation options. Cells are always Unicode braille (the wrapper adds liblouis's
    /// `dotsIO | ucBrl` itself).
    public struct Mode: OptionSet, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Uncontracted (grade 1) output from a contracted table (`noContractions`).
        public static let noContractions = Mode(rawValue: SWITCHSCAN_LOU_MODE_NO_CONTRACTIONS)
        /// The word under the cursor in computer braille (`compbrlAtCursor`); needs `cursor`.
        public static let computerBrailleAtCursor = Mode(rawValue: SWITCHSCAN_LOU_MODE_COMPBRL_AT_CURSOR)
        /// The word from its start up to the cursor in computer braille (`compbrlLeftCursor`).
        public static let computerBrailleLeftOfCursor = Mode(rawValue: SWITCHSCAN_LOU_MODE_COMPBRL_LEFT_CURSOR)
        /// Characters the table does not define give no cells, instead of a `\x….` escape
        /// (`noUndefined`).
        public static let noUndefined = Mode(rawValue: SWITCHSCAN_LOU_MODE_NO_UNDEFINED)
    }

    /// liblouis's version (`lou_version`), e.g. `3.24.0`.
    public static var version: String {
        lock.withLock { String(cString: lou_version()) }
    }

    /// The size in bytes of liblouis's `widechar` in the library loaded at run time
    /// (`lou_charSize`): 2 (UTF-16) or 4 (UTF-32, Debian's build).
    public static var widecharSize: Int {
        lock.withLock { Int(lou_charSize()) }
    }

    /// Compiles a table (or checks it is cached) with `lou_checkTable`.
    /// - Throws: `LouisError` naming `lou_checkTable` and the table, with liblouis's messages
    ///   ("Cannot resolve table 'x.ctb'") when the table cannot be found or compiled.
    public static func checkTable(_ name: String) throws(LouisError) {
        try locked(function: "lou_checkTable", table: name) { () throws(LouisError) in
            if name.withCString({ lou_checkTable($0) }) == 0 {
                throw LouisError(function: "lou_checkTable", table: name, reason: .failed, messages: takeLog())
            }
        }
    }

    /// Translates `text` to braille cells with `lou_translate` (mode `dotsIO | ucBrl` plus
    /// `mode`).
    ///
    /// Positions count `Character`s of `text` (grapheme clusters: an emoji with a skin tone or a
    /// letter with a combining accent is one), so a routing key over a cell leads to the
    /// character a `BrailleLine` offset names. A contracted group maps every cell to the group's
    /// first character (liblouis's `inputPos`): routing any cell of `⠡⠝` ("children") lands on
    /// its `c`.
    ///
    /// The output buffer starts at three cells per input unit plus headroom and doubles until the
    /// whole input is translated with headroom to spare (liblouis 3.24 reports the input as fully
    /// consumed even when the output was cut at the end of the buffer, so a full buffer is never
    /// trusted). It is never smaller than the input: liblouis 3.24 sizes an internal buffer by
    /// the output capacity and clears it by the input length, and overflows the heap otherwise.
    ///
    /// - Parameters:
    ///   - cursor: a `Character` offset of `text` (for the `computerBraille…Cursor` modes and to
    ///     learn which cell shows it); ignored when outside `0..<text.count`.
    /// - Throws: `LouisError` naming `lou_translate` and the table when liblouis fails (a table
    ///   that cannot be found or compiled), the table name contains NUL, the output would pass
    ///   `Int32` sizes, or the library's `widechar` differs from the header's.
    public static func translate(
        _ text: String, table: String, mode: Mode = [], cursor: Int? = nil
    ) throws(LouisError) -> LouisTranslation {
        let function = "lou_translate"
        let wide = WideText(text, unitSize: Int(SWITCHSCAN_LOU_WIDECHAR_SIZE))
        let count = wide.units.count
        guard count <= maximumInput else {
            throw LouisError(function: function, table: table, reason: .outputTooLarge(capacity: count), messages: [])
        }
        var input = wide.units.map { widechar(truncatingIfNeeded: $0) }
        input.append(0)                       // never an empty buffer (a nil base address)
        let cursorUnit: Int32? = cursor.flatMap { offset in
            wide.characterCount > offset && offset >= 0 ? Int32(wide.firstUnit[offset]) : nil
        }
        let modeBits = mode.rawValue | SWITCHSCAN_LOU_MODE_DOTS_IO | SWITCHSCAN_LOU_MODE_UC_BRL

        return try locked(function: function, table: table) { () throws(LouisError) -> LouisTranslation in
            var capacity = initialCapacity(forInput: count)
            while true {
                var output = [widechar](repeating: 0, count: capacity)
                var inputPos = [Int32](repeating: 0, count: capacity)
                var outputPos = [Int32](repeating: 0, count: max(count, 1))
                var inLength = Int32(count)
                var outLength = Int32(capacity)
                var cursorPos = cursorUnit ?? -1
                let status = table.withCString { cTable in
                    input.withUnsafeBufferPointer { inBuffer in
                        output.withUnsafeMutableBufferPointer { outBuffer in
                            inputPos.withUnsafeMutableBufferPointer { inPosBuffer in
                                outputPos.withUnsafeMutableBufferPointer { outPosBuffer in
                                    withUnsafeMutablePointer(to: &cursorPos) { cursorPointer in
                                        lou_translate(
                                            cTable, inBuffer.baseAddress, &inLength,
                                            outBuffer.baseAddress, &outLength,
                                            nil, nil,
                                            outPosBuffer.baseAddress, inPosBuffer.baseAddress,
                                            cursorUnit == nil ? nil : cursorPointer, modeBits)
                                    }
                                }
                            }
                        }
                    }
                }
                if status == 0 {
                    throw LouisError(function: function, table: table, reason: .failed, messages: takeLog())
                }
                let produced = Int(outLength)
                if Int(inLength) == count, capacity - produced >= headroom {
                    return LouisTranslation(
                        table: table, wide: wide,
                        output: output.prefix(produced).map { UInt32(truncatingIfNeeded: $0) },
                        inputPos: Array(inputPos.prefix(produced)), outputPos: Array(outputPos.prefix(count)),
                        cursor: cursorUnit == nil ? nil : cursorPos)
                }
                guard capacity < maximumCapacity(forInput: count) else {
                    throw LouisError(function: function, table: table, reason: .outputTooLarge(capacity: capacity), messages: [])
                }
                capacity = min(capacity * 2, maximumCapacity(forInput: count))
            }
        }
    }

    // MARK: Buffer sizing

    /// Free cells the output buffer must still have after a translation for it to be trusted:
    /// far more than any one liblouis rule or `\y1f44d/` escape writes at once.
    static let headroom = 256
    /// The longest input accepted, in widechar units (so that every capacity fits `Int32`).
    static let maximumInput = 1 << 24

    /// Three cells per input unit (contracted English needs about one; Chinese current braille
    /// with tones three; an undefined character's escape eight or nine) plus the headroom;
    /// never below the input length (see `translate`).
    static func initialCapacity(forInput count: Int) -> Int {
        max(count, 3 * count + 2 * headroom)
    }

    /// The largest buffer tried: 64 cells per unit plus headroom (beyond this liblouis is
    /// looping, not translating).
    static func maximumCapacity(forInput count: Int) -> Int {
        min(Int(Int32.max), 64 * count + 4 * headroom)
    }

    // MARK: The lock and liblouis's log

    private static let lock = NSLock()

    /// Runs `body` holding the lock, after the first-use setup (log callback, widechar check).
    private static func locked<T>(
        function: String, table: String, _ body: () throws(LouisError) -> T
    ) throws(LouisError) -> T {
        lock.lock()
        defer { lock.unlock() }
        setUpOnce()
        if libraryWidecharSize != Int(SWITCHSCAN_LOU_WIDECHAR_SIZE) {
            throw LouisError(
                function: function, table: table,
                reason: .widecharMismatch(header: Int(SWITCHSCAN_LOU_WIDECHAR_SIZE), library: libraryWidecharSize),
                messages: [])
        }
        if table.utf8.contains(0) {
            throw LouisError(function: function, table: table, reason: .invalidTableName, messages: [])
        }
        louisLog.removeAll()
        return try body()
    }

    nonisolated(unsafe) private static var isSetUp = false
    /// `lou_charSize()`, read once under the lock (text would be garbled, and buffers overrun,
    /// if it were not the header's `sizeof(widechar)`).
    nonisolated(unsafe) private static var libraryWidecharSize = 0

    /// Under the lock: reads the widechar size, installs the log callback and the log level,
    /// once.
    private static func setUpOnce() {
        guard !isSetUp else { return }
        isSetUp = true
        libraryWidecharSize = Int(lou_charSize())
        switchscan_lou_set_log_level(SWITCHSCAN_LOU_LOG_WARN)
        lou_registerLogCallback { level, message in
            guard switchscan_lou_log_level(level) >= SWITCHSCAN_LOU_LOG_ERROR, let message else { return }
            louisLog.append(String(cString: message))
        }
    }

    /// Under the lock: the messages liblouis logged since the call began.
    private static func takeLog() -> [String] {
        defer { louisLog.removeAll() }
        return louisLog
    }
}

/// liblouis's error messages during the current call; only touched while `Louis.lock` is held
/// (the callback runs synchronously inside the C call that holds it).
nonisolated(unsafe) private var louisLog: [String] = []
