#if canImport(Glibc)
import Glibc
#endif

/// The one writer of every file switchscan writes (settings, learned switch profiles, imported
/// and snapshot scenes, JUnit reports, the selections store), so that nothing is ever lost:
///
/// - **Only a regular file is replaced.** A device node, a FIFO, a socket or a folder at the
///   path (or at the end of its links) is refused with what it is, before anything is written: as
///   root, `--junit /dev/null` must not turn the system's /dev/null into a regular file.
/// - **Never an input.** The file the command reads (`inputs`: the dump being imported, the
///   scenes being tested, the recording being learned from) is refused as the output when it is
///   the same file (device and inode: a link or a hard link to it too).
/// - **One writer at a time.** The folder is locked (`flock(2)` on the folder itself, so no lock
///   file is left behind) for the whole read–change–write, and the file is read again under the
///   lock: two `switchscan settings set` at once both land.
/// - **Through symbolic links.** A link is followed to its target, which is written; the link
///   stays a link (a settings file kept in a dotfiles repository stays there). A link to a
///   folder is refused (the folder is not a file); a link to nothing yet creates what it names.
/// - **Mode and owner kept.** The new file gets the old one's permission bits (a 0600 file stays
///   0600) and, where the writer may, its owner and group; a new file gets 0644 less the umask.
/// - **Atomic.** The text goes to a temporary file in the same folder, is flushed, renamed over
///   the target, and the folder is flushed: a reader sees the old file or the new one.
/// - **No temporary file left.** SIGINT, SIGTERM, SIGHUP and SIGQUIT are held back from the
///   temporary file's creation to its rename (or removal) and delivered after; every error
///   removes it. SIGKILL cannot be held back: the temporary file it leaves (`.NAME.PID.N.tmp`)
///   is removed by the next writer of that file, once no process has that PID.
public enum SafeFileWriter {
    public struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        /// The target exists and replacing it was not asked for.
        public var exists: Bool
        public var description: String { "\(path): \(message)" }
    }

    /// Writes `text` to `path`. Without `replace`, a file already there is an error
    /// (`exists`), checked under the lock. `inputs` are the files the command read, never
    /// replaced. Returns the path written (a link's target).
    @discardableResult
    public static func write(_ text: String, to path: String, replace: Bool, inputs: [String] = []) throws -> String {
        try update(path, reading: nil, inputs: inputs, { _ in text }, onExisting: { target in
            if !replace { throw WriteError(path: target, message: "exists", exists: true) }
        })
    }

    /// Reads the file (nil when there is none) under the folder's lock, passes its bytes to
    /// `change`, and writes what that returns. The read goes through `RegularFile` (a regular
    /// file of at most `maxBytes`). `inputs` are the files the command read, never replaced.
    /// Returns the path written (a link's target). (The runtime's `update(_:maxBytes:inputs:_:)`
    /// hands the change the text instead.)
    @discardableResult
    public static func update(
        _ path: String, maxBytes: Int, inputs: [String] = [], bytes change: ([UInt8]?) throws -> String
    ) throws -> String {
        try update(path, reading: maxBytes, inputs: inputs, change, onExisting: { _ in })
    }

    /// What `path` would be written as: the file at the end of its links, and whether one is
    /// there. Throws what the write would refuse (not a regular file, one of `inputs`), so that
    /// a command can say so before it does work whose result could not be kept (`learn` asking
    /// for key presses). The write checks again, under the folder's lock.
    @discardableResult
    public static func checkTarget(_ path: String, inputs: [String] = []) throws(WriteError) -> (target: String, exists: Bool) {
        let target = try resolveLinks(path)
        var existing = stat()
        guard stat(target, &existing) == 0 else { return (target, false) }
        try checkReplaceable(target, existing, named: path, inputs: inputs)
        return (target, true)
    }

    private static func update(
        _ path: String, reading maxBytes: Int?, inputs: [String], _ change: ([UInt8]?) throws -> String,
        onExisting: (String) throws -> Void
    ) throws -> String {
        // What is there is refused before the folder is created or locked (a FIFO, a folder),
        // and again under the lock (it may have changed meanwhile).
        let target = try checkTarget(path, inputs: inputs).target
        let folder = directoryName(target)
        try makeFolders(folder)
        let lock = try lockFolder(folder)
        defer { close(lock) }
        removeStaleTemporaries(in: folder, of: baseName(target))

        var current: [UInt8]?
        var existing = stat()
        let exists = stat(target, &existing) == 0
        if exists {
            try checkReplaceable(target, existing, named: path, inputs: inputs)
            try onExisting(target)
            if let maxBytes {
                do {
                    current = try RegularFile.read(target, maxBytes: maxBytes)
                } catch {
                    if !error.isMissing { throw error }  // RegularFile.ReadError, with its place
                }
            }
        }
        let text = try change(current)
        try replace(target, in: folder, with: text, keeping: exists ? existing : nil)
        return target
    }

    // MARK: Steps

    /// Refuses what is at `target` unless it is a regular file that is none of `inputs`.
    static func checkReplaceable(_ target: String, _ existing: stat, named path: String, inputs: [String]) throws(WriteError) {
        let shown = target == path ? path : "\(path) (→ \(target))"
        let kind = FileSystem.FileKind(mode: existing.st_mode)
        guard kind == .regular else {
            throw WriteError(
                path: shown, message: "\(RegularFile.describe(kind)), not a regular file; nothing was written (give the path of a regular file, or of a new one)",
                exists: false)
        }
        if let input = input(sameAs: existing, among: inputs) {
            let same = input == path ? "" : " (\(input))"
            throw WriteError(
                path: shown, message: "it is the file this command reads\(same); nothing was written (write the output to another file)",
                exists: false)
        }
    }

    /// The one of `inputs` that is the file at `path` (the same device and inode, links
    /// followed), or nil: for an output written another way (the trace, appended to).
    public static func input(at path: String, among inputs: [String]) -> String? {
        var existing = stat()
        guard stat(path, &existing) == 0 else { return nil }
        return input(sameAs: existing, among: inputs)
    }

    static func input(sameAs existing: stat, among inputs: [String]) -> String? {
        inputs.first { input in
            var info = stat()
            return stat(input, &info) == 0 && info.st_dev == existing.st_dev && info.st_ino == existing.st_ino
        }
    }

    /// Follows symbolic links (at most 40, as the kernel does) to the file they name; a link to
    /// nothing yet resolves to the path it names, which is then created.
    static func resolveLinks(_ path: String) throws(WriteError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw failure(current, "readlink") }
            let destination = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = destination.hasPrefix("/") ? destination : joined(directoryName(current), destination)
        }
        throw WriteError(path: path, message: "too many symbolic links", exists: false)
    }

    /// mkdir(2) of `folder` and of every missing folder above it (0755).
    public static func makeFolders(_ folder: String) throws(WriteError) {
        var info = stat()
        if stat(folder, &info) == 0 { return }
        let parent = directoryName(folder)
        if parent != folder { try makeFolders(parent) }
        if mkdir(folder, 0o755) != 0, errno != EEXIST { throw failure(folder, "mkdir") }
    }

    static func lockFolder(_ folder: String) throws(WriteError) -> Int32 {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(folder, "open") }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let error = failure(folder, "flock")
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// `.NAME.PID.N.tmp` files whose process is gone (a writer killed by SIGKILL).
    static func removeStaleTemporaries(in folder: String, of name: String) {
        guard let entries = try? FileSystem.entries(ofDirectory: folder) else { return }
        let prefix = ".\(name)."
        for entryName in entries {
            guard entryName.hasPrefix(prefix), entryName.hasSuffix(".tmp") else { continue }
            let middle = entryName.dropFirst(prefix.count).dropLast(4).split(separator: ".")
            guard middle.count == 2, let pid = Int32(middle[0]), pid > 0, UInt64(middle[1]) != nil else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { unlink(joined(folder, entryName)) }
        }
    }

    /// The temporary file, written, flushed and renamed over `target`, with signals held back.
    static func replace(_ target: String, in folder: String, with text: String, keeping existing: stat?) throws(WriteError) {
        var held = sigset_t(), previous = sigset_t()
        sigemptyset(&held)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&held, signal) }
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }

        let temporary = joined(folder, ".\(baseName(target)).\(getpid()).\(UInt64.random(in: 0...UInt64(UInt32.max))).tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(temporary, "open") }
        var problem: WriteError?
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count, problem == nil {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno != EINTR { problem = failure(temporary, "write") }
            } else {
                offset += count
            }
        }
        if problem == nil {
            let mode: mode_t
            if let existing {
                mode = existing.st_mode & 0o7777
                // Keep the owner where the writer may (root editing a user's file); otherwise the
                // file is the writer's, as any editor would leave it.
                if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                    _ = fchown(descriptor, existing.st_uid, existing.st_gid)
                }
            } else {
                let mask = umask(0)
                umask(mask)
                mode = 0o666 & ~mask
            }
            if fchmod(descriptor, mode) != 0 { problem = failure(temporary, "fchmod") }
        }
        if problem == nil, fsync(descriptor) != 0 { problem = failure(temporary, "fsync") }
        if close(descriptor) != 0, problem == nil { problem = failure(temporary, "close") }
        if problem == nil, rename(temporary, target) != 0 { problem = failure(target, "rename") }
        if let problem {
            unlink(temporary)
            throw problem
        }
        // The rename is durable once the folder is flushed.
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    // MARK: Paths

    static func directoryName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }

    static func baseName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func failure(_ path: String, _ call: String) -> WriteError {
        let code = errno
        return WriteError(path: path, message: "\(call): \(String(cString: strerror(code))) (errno \(code))", exists: false)
    }
}
