#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor, as apple/swift-system's `FileDescriptor` types it: the number the
/// kernel gave, which the compiler keeps apart from a count, a PID or a signal number. The
/// calls on it are `FileIO`'s (read, write, close, fcntl, fstat) and `Poll`'s.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Standard input (descriptor 0).
    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    /// Standard output (descriptor 1).
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    /// Standard error (descriptor 2).
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// `fd 7`, as messages name it.
    public var description: String { "fd \(rawValue)" }

    /// What an open is for (open(2)'s O_RDONLY, O_WRONLY, O_RDWR).
    public enum AccessMode: Sendable {
        case readOnly, writeOnly, readWrite

        var flags: Int32 {
            switch self {
            case .readOnly: return O_RDONLY
            case .writeOnly: return O_WRONLY
            case .readWrite: return O_RDWR
            }
        }
    }

    /// How an open behaves (open(2)'s other flags; O_CLOEXEC is always set).
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// O_NONBLOCK: reads and writes that would wait fail instead (a FIFO with no writer,
        /// a device) and the open itself does not wait for the other end of a FIFO.
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// O_APPEND: every write lands whole at the end of the file.
        public static let append = OpenOptions(rawValue: O_APPEND)
        /// O_CREAT: the file is made when it does not exist.
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// O_EXCL (with `create`): fails when the file exists.
        public static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
        /// O_TRUNC: an existing regular file is emptied.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// O_NOCTTY: a terminal opened does not become the controlling terminal.
        public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
        /// O_DIRECTORY: fails unless the path is a folder.
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }
}
