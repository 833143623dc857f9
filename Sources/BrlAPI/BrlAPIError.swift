import CBrlAPI
import Platform
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed libbrlapi call: which C function, BrlAPI's error code, errno, and the message.
///
/// Read from the calling thread's `brlapi_error` (through `brlapi_error_location()`), which is
/// cleared before every call, so every field belongs to this failure.
public struct BrlAPIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// BrlAPI's error codes (`enum brlapi_error` in `<brlapi.h>`).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let success = Code(rawValue: Int32(BRLAPI_ERROR_SUCCESS))
        public static let noMemory = Code(rawValue: Int32(BRLAPI_ERROR_NOMEM.rawValue))
        public static let ttyBusy = Code(rawValue: Int32(BRLAPI_ERROR_TTYBUSY.rawValue))
        public static let deviceBusy = Code(rawValue: Int32(BRLAPI_ERROR_DEVICEBUSY.rawValue))
        public static let unknownInstruction = Code(rawValue: Int32(BRLAPI_ERROR_UNKNOWN_INSTRUCTION.rawValue))
        public static let illegalInstruction = Code(rawValue: Int32(BRLAPI_ERROR_ILLEGAL_INSTRUCTION.rawValue))
        public static let invalidParameter = Code(rawValue: Int32(BRLAPI_ERROR_INVALID_PARAMETER.rawValue))
        public static let invalidPacket = Code(rawValue: Int32(BRLAPI_ERROR_INVALID_PACKET.rawValue))
        public static let connectionRefused = Code(rawValue: Int32(BRLAPI_ERROR_CONNREFUSED.rawValue))
        public static let operationNotSupported = Code(rawValue: Int32(BRLAPI_ERROR_OPNOTSUPP.rawValue))
        /// `getaddrinfo` failed (`gaiError` says why).
        public static let addressLookup = Code(rawValue: Int32(BRLAPI_ERROR_GAIERR.rawValue))
        /// A libc call failed (`errno` says why).
        public static let libc = Code(rawValue: Int32(BRLAPI_ERROR_LIBCERR.rawValue))
        public static let unknownTTY = Code(rawValue: Int32(BRLAPI_ERROR_UNKNOWNTTY.rawValue))
        public static let protocolVersion = Code(rawValue: Int32(BRLAPI_ERROR_PROTOCOL_VERSION.rawValue))
        /// The server closed the connection (error 14), or an exception closed it.
        public static let endOfFile = Code(rawValue: Int32(BRLAPI_ERROR_EOF.rawValue))
        public static let emptyKey = Code(rawValue: Int32(BRLAPI_ERROR_EMPTYKEY.rawValue))
        public static let driverError = Code(rawValue: Int32(BRLAPI_ERROR_DRIVERERROR.rawValue))
        public static let authentication = Code(rawValue: Int32(BRLAPI_ERROR_AUTHENTICATION.rawValue))
        public static let readOnlyParameter = Code(rawValue: Int32(BRLAPI_ERROR_READONLY_PARAMETER.rawValue))

        public var description: String {
            switch self {
            case .success: "success"
            case .noMemory: "no memory"
            case .ttyBusy: "tty busy"
            case .deviceBusy: "device busy"
            case .unknownInstruction: "unknown instruction"
            case .illegalInstruction: "illegal instruction"
            case .invalidParameter: "invalid parameter"
            case .invalidPacket: "invalid packet"
            case .connectionRefused: "connection refused"
            case .operationNotSupported: "operation not supported"
            case .addressLookup: "getaddrinfo error"
            case .libc: "libc error"
            case .unknownTTY: "unknown tty"
            case .protocolVersion: "bad protocol version"
            case .endOfFile: "end of file"
            case .emptyKey: "empty key file"
            case .driverError: "driver error"
            case .authentication: "authentication failed"
            case .readOnlyParameter: "read-only parameter"
            default: "error \(rawValue)"
            }
        }
    }

    /// The libbrlapi function that failed, e.g. `brlapi__openConnection`.
    public var function: String
    /// BrlAPI's error code (`brlapi_errno`).
    public var code: Code
    /// errno (`brlapi_libcerrno`): meaningful with `.libc`; 0 when libbrlapi set none.
    public var errno: Int32
    /// The `getaddrinfo` error (`brlapi_gaierrno`), with `.addressLookup`; 0 otherwise.
    public var gaiError: Int32
    /// The libc function that failed inside libbrlapi (`brlapi_errfun`), when it says.
    public var libcFunction: String?
    /// libbrlapi's message for the error (`brlapi_strerror_r`), or this wrapper's own.
    public var message: String
    /// The server's exception that closed the connection during this call, as
    /// `brlapi__strexception` describes it (the default handler would have aborted).
    public var exception: String?

    public init(function: String, code: Code, errno: Int32 = 0, gaiError: Int32 = 0,
                libcFunction: String? = nil, message: String, exception: String? = nil) {
        self.function = function
        self.code = code
        self.errno = errno
        self.gaiError = gaiError
        self.libcFunction = libcFunction
        self.message = message
        self.exception = exception
    }

    /// The connection to BRLTTY is gone: end of file (error 14), or a libc error saying the
    /// peer went away (EPIPE, ECONNRESET, ENOTCONN, EBADF after an exception closed the
    /// descriptor). Reconnect (with backoff) and re-send the line.
    public var isConnectionLost: Bool {
        switch code {
        case .endOfFile: return true
        case .libc: return [EPIPE, ECONNRESET, ENOTCONN, EBADF].contains(errno)
        default: return false
        }
    }

    /// BRLTTY is not there (yet): nothing listens on the host (ECONNREFUSED, ENOENT for a
    /// local socket that does not exist), or it refused the connection.
    public var isServerUnavailable: Bool {
        switch code {
        case .connectionRefused: return true
        case .libc: return [ECONNREFUSED, ENOENT, ECONNRESET].contains(errno)
        default: return false
        }
    }

    public var description: String {
        var text = "\(function): \(message) (BrlAPI error \(code.rawValue): \(code)"
        if errno != 0 {
            text += ", errno \(errno): \(Errno(rawValue: errno).message)"
            if let libcFunction { text += " in \(libcFunction)" }
        }
        if gaiError != 0 { text += ", getaddrinfo error \(gaiError)" }
        text += ")"
        if let exception { text += "; exception: \(exception)" }
        return text
    }

    /// The calling thread's last libbrlapi error, for a failed call of `function`.
    static func last(_ function: String, exception: String? = nil) -> BrlAPIError {
        let error = cbrlapi_last_error()
        var buffer = [CChar](repeating: 0, count: 256)
        _ = buffer.withUnsafeMutableBufferPointer { cbrlapi_last_error_message($0.baseAddress, $0.count) }
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return BrlAPIError(
            function: function,
            code: Code(rawValue: error.code),
            errno: error.code == Code.libc.rawValue || error.code == Code.endOfFile.rawValue ? error.libcErrno : 0,
            gaiError: error.code == Code.addressLookup.rawValue ? error.gaiErrno : 0,
            libcFunction: error.function.map { String(cString: $0) },
            message: message,
            exception: exception)
    }
}
