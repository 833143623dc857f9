/// A liblouis call that failed: which C function, with which table, why, and what liblouis
/// logged at error level during the call.
///
/// `description` reads `lou_translate failed for table 'xx.ctb': Cannot resolve table 'xx.ctb'; …`.
public struct LouisError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// The function returned 0 (the table cannot be found or compiled, or translation failed).
        case failed
        /// The output did not fit the largest buffer tried (`capacity` cells), or the input was
        /// too long to size one.
        case outputTooLarge(capacity: Int)
        /// The table name contains a NUL character and cannot be passed to C.
        case invalidTableName
        /// The loaded liblouis's `widechar` (`lou_charSize`) is not the header's size.
        case widecharMismatch(header: Int, library: Int)
    }

    /// The C function: `lou_translate` or `lou_checkTable`.
    public let function: String
    /// The table (list) as passed.
    public let table: String
    public let reason: Reason
    /// liblouis's error messages logged during the call, in order.
    public let messages: [String]

    public init(function: String, table: String, reason: Reason, messages: [String]) {
        self.function = function
        self.table = table
        self.reason = reason
        self.messages = messages
    }

    public var description: String {
        var text = "\(function) failed for table '\(table)'"
        switch reason {
        case .failed: break
        case .outputTooLarge(let capacity): text += ": output does not fit \(capacity) cells"
        case .invalidTableName: text += ": the table name contains NUL"
        case .widecharMismatch(let header, let library):
            text += ": liblouis widechar is \(library) bytes, the header says \(header)"
        }
        if !messages.isEmpty { text += ": " + messages.joined(separator: "; ") }
        return text
    }
}
