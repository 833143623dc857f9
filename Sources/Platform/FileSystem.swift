#if canImport(Glibc)
import Glibc
#endif

/// What is at a path, and the calls on paths that are not reading or writing a file: stat(2),
/// rename(2), realpath(3) and listing a folder. Values are Swift's (`FileKind`, `Int`), never
/// `struct stat`.
public enum FileSystem {
    /// The kind of file at a path (`st_mode & S_IFMT`).
    public enum FileKind: Hashable, Sendable {
        case regular, directory, fifo, characterDevice, blockDevice, socket, symbolicLink, other

        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regular
            case S_IFDIR: self = .directory
            case S_IFIFO: self = .fifo
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            case S_IFSOCK: self = .socket
            case S_IFLNK: self = .symbolicLink
            default: self = .other
            }
        }
    }

    /// What stat(2) says of a file.
    public struct Status: Hashable, Sendable {
        public var kind: FileKind
        /// Bytes, for a regular file.
        public var size: Int

        public init(kind: FileKind, size: Int) {
            self.kind = kind
            self.size = size
        }

        init(_ info: stat) {
            kind = FileKind(mode: info.st_mode)
            size = Int(info.st_size)
        }
    }

    /// stat(2) (links followed), retried while interrupted.
    public static func status(_ path: String) throws(SystemCallError) -> Status {
        var info = stat()
        try retryingInterrupts("stat", subject: path) { Int(stat(path, &info)) }
        return Status(info)
    }

    /// stat(2)'s permission bits of the file (`st_mode & 0o7777`: 0o644).
    public static func permissions(_ path: String) throws(SystemCallError) -> Int {
        var info = stat()
        try retryingInterrupts("stat", subject: path) { Int(stat(path, &info)) }
        return Int(info.st_mode & 0o7777)
    }

    /// lstat(2): what is at `path` itself, a symbolic link not followed (`.symbolicLink`).
    public static func linkStatus(_ path: String) throws(SystemCallError) -> Status {
        var info = stat()
        try retryingInterrupts("lstat", subject: path) { Int(lstat(path, &info)) }
        return Status(info)
    }

    /// rename(2): `source` replaces `destination` at once (in one file system).
    public static func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try retryingInterrupts("rename", subject: source) { Int(Glibc.rename(source, destination)) }
    }

    /// realpath(3): the path with every symbolic link, `.` and `..` resolved; nil when it
    /// does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The names in a folder, `.` and `..` left out (opendir(3), readdir(3), closedir(3)).
    public static func entries(ofDirectory path: String) throws(SystemCallError) -> [String] {
        guard let stream = opendir(path) else { throw SystemCallError.current("opendir", subject: path) }
        defer { closedir(stream) }
        var names = [String]()
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// unlink(2): the name is removed (the file goes once nothing has it open). A missing
    /// file is `.noSuchFileOrDirectory`.
    public static func remove(_ path: String) throws(SystemCallError) {
        try retryingInterrupts("unlink", subject: path) { Int(unlink(path)) }
    }

    /// mkdir(2) with `permissions` (less the umask); a folder already there is `.fileExists`.
    public static func makeDirectory(_ path: String, permissions: Int = 0o755) throws(SystemCallError) {
        guard (0...0o7777).contains(permissions) else {
            throw SystemCallError(call: "mkdir", errno: .invalidArgument, subject: path)
        }
        try retryingInterrupts("mkdir", subject: path) { Int(mkdir(path, mode_t(permissions))) }
    }

    /// mkdtemp(3): a new folder `PREFIX` + six random characters, 0700; its path.
    public static func makeTemporaryDirectory(prefix: String) throws(SystemCallError) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw SystemCallError.current("mkdtemp", subject: prefix) }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// mkfifo(3): a named pipe at `path` with `permissions` (less the umask).
    public static func makeFIFO(_ path: String, permissions: Int = 0o600) throws(SystemCallError) {
        guard (0...0o7777).contains(permissions) else {
            throw SystemCallError(call: "mkfifo", errno: .invalidArgument, subject: path)
        }
        try retryingInterrupts("mkfifo", subject: path) { Int(mkfifo(path, mode_t(permissions))) }
    }

    /// chmod(2): `path`'s permission bits set to `permissions` (the umask does not apply).
    public static func setPermissions(_ path: String, _ permissions: Int) throws(SystemCallError) {
        guard (0...0o7777).contains(permissions) else {
            throw SystemCallError(call: "chmod", errno: .invalidArgument, subject: path)
        }
        try retryingInterrupts("chmod", subject: path) { Int(chmod(path, mode_t(permissions))) }
    }

    /// symlink(2): a symbolic link at `path` whose text is `target` (resolved from the link's
    /// folder when relative; it need not exist).
    public static func makeSymbolicLink(_ path: String, to target: String) throws(SystemCallError) {
        try retryingInterrupts("symlink", subject: path) { Int(symlink(target, path)) }
    }

    /// mknod(2) of a character device node at `path` for the device `major`:`minor` (1:3 is the
    /// null device, 1:5 the zero device), with `permissions` (less the umask). Only root may.
    public static func makeCharacterDevice(_ path: String, major: Int, minor: Int, permissions: Int = 0o600) throws(SystemCallError) {
        guard (0...0o7777).contains(permissions), (0...0xFFF).contains(major), (0...0xFF).contains(minor) else {
            throw SystemCallError(call: "mknod", errno: .invalidArgument, subject: path)
        }
        let device = dev_t((major << 8) | minor)
        try retryingInterrupts("mknod", subject: path) { Int(mknod(path, S_IFCHR | mode_t(permissions), device)) }
    }

    /// What access(2) is asked about.
    public enum Access: Sendable {
        case exists, readable, writable, executable

        var mode: Int32 {
            switch self {
            case .exists: return F_OK
            case .readable: return R_OK
            case .writable: return W_OK
            case .executable: return X_OK
            }
        }
    }

    /// access(2): whether this process (by its real user) may use `path` so.
    public static func isAccessible(_ path: String, _ access: Access) -> Bool {
        Glibc.access(path, access.mode) == 0
    }
}
