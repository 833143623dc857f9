#if canImport(Glibc)
import Glibc
#endif

/// The one way every file kind is read (scenes, settings files, switch and braille display
/// profiles, evemu recordings, the profiles scripted tests name): opened without blocking and
/// close-on-exec, refused unless it is a regular file (a FIFO or a device named as
/// `settings.yaml` must not block the event loop, a folder is not a file), its size checked
/// with fstat before a byte is read, then read with a bound (a file that grows while it is
/// read stops at the bound). Decoding the bytes as text is the runtime's (`RegularFile.text`,
/// UTF-8 with the line and column of the first bad byte).
public enum RegularFile {
    /// Why a file was not read: the message says what to do; `isMissing` when there is none.
    public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var isMissing: Bool
        /// Where the problem is, when it is in the bytes (not UTF-8): line and column, from 1.
        public var line: Int
        public var column: Int

        public var description: String { message }

        public init(message: String, isMissing: Bool, line: Int = 1, column: Int = 1) {
            self.message = message
            self.isMissing = isMissing
            self.line = line
            self.column = column
        }
    }

    /// `path` opened for reading (without blocking, close-on-exec) once it is known to be a
    /// regular file, and its size; the caller closes it.
    public static func open(_ path: String) throws(ReadError) -> (descriptor: FileDescriptor, size: Int) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileIO.open(path, .readOnly, options: [.nonBlocking, .noControllingTerminal])
        } catch {
            throw ReadError(
                message: "cannot read the file: \(error.errno.message)",
                isMissing: error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory)
        }
        let status: FileSystem.Status
        do {
            status = try FileIO.status(descriptor, subject: path)
        } catch {
            FileIO.close(descriptor)
            throw ReadError(message: "cannot read the file: \(error)", isMissing: false)
        }
        guard status.kind == .regular else {
            FileIO.close(descriptor)
            throw ReadError(message: "\(describe(status.kind)), not a regular file; give a regular file", isMissing: false)
        }
        return (descriptor, status.size)
    }

    /// The bytes of `path`, at most `maxBytes` of them.
    public static func read(_ path: String, maxBytes: Int) throws(ReadError) -> [UInt8] {
        let (descriptor, size) = try open(path)
        defer { FileIO.close(descriptor) }
        guard size <= maxBytes else {
            throw ReadError(message: "the file is \(size) bytes; at most \(maxBytes) are accepted", isMissing: false)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(size)
        while true {
            let chunk: [UInt8]?
            do {
                chunk = try FileIO.read(descriptor, maxBytes: min(1 << 16, maxBytes + 1 - bytes.count))
            } catch {
                throw ReadError(message: "cannot read the file: \(error.errno.message)", isMissing: false)
            }
            guard let chunk, !chunk.isEmpty else { break }
            bytes += chunk
            if bytes.count > maxBytes {
                throw ReadError(message: "the file grew past \(maxBytes) bytes while it was read; at most \(maxBytes) are accepted", isMissing: false)
            }
        }
        return bytes
    }

    /// Whether something exists at `path` (following symbolic links).
    public static func exists(_ path: String) -> Bool {
        (try? FileSystem.status(path)) != nil
    }

    /// What a file that is not a regular one is, for a message (`it is a folder`).
    public static func describe(_ kind: FileSystem.FileKind) -> String {
        switch kind {
        case .directory: return "it is a folder"
        case .fifo: return "it is a FIFO (named pipe)"
        case .characterDevice: return "it is a character device"
        case .blockDevice: return "it is a block device"
        case .socket: return "it is a socket"
        case .regular, .symbolicLink, .other: return "it is not a file"
        }
    }
}

/// Paths that a file names (a scene's test `profile:`, a tests file's `scene:`): resolved only
/// inside the naming file's own folder. No absolute path, no `..`, and no symbolic link that
/// leads out of the folder, so that a scene cannot make the program read `/etc/passwd` or
/// `~/.ssh` and show it.
public enum ContainedPath {
    /// How a refusal is worded for one kind of naming file.
    public struct Wording: Sendable {
        /// The naming file's folder, as the message calls it (`the scene's folder`).
        public var folder: String
        /// What to name instead.
        public var advice: String

        public init(folder: String, advice: String) {
            self.folder = folder
            self.advice = advice
        }

        /// A scripted test's `profile:`.
        public static let testProfile = Wording(
            folder: "the scene's folder", advice: "name a file in the scene's own folder, or a profile's id")
    }

    /// The path of `relative` inside the folder of `namingFile`, or why it is refused.
    public static func resolve(
        _ relative: String, besideFile namingFile: String, wording: Wording = .testProfile
    ) -> Result<String, RegularFile.ReadError> {
        func refuse(_ message: String) -> Result<String, RegularFile.ReadError> {
            .failure(RegularFile.ReadError(message: "\(message); \(wording.advice)", isMissing: false))
        }
        guard !relative.hasPrefix("/") else {
            return refuse("an absolute path is not accepted")
        }
        let components = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.contains("..") else {
            return refuse("a path with '..' is not accepted")
        }
        let slash = namingFile.lastIndex(of: "/")
        let folder = slash.map { String(namingFile[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let path = folder == "/" ? "/" + relative : folder + "/" + relative
        guard let realFolder = FileSystem.realPath(folder) else {
            return .failure(RegularFile.ReadError(message: "\(wording.folder) cannot be resolved", isMissing: false))
        }
        guard let realFile = FileSystem.realPath(path) else {
            return .failure(RegularFile.ReadError(message: "\(path): no such file", isMissing: true))
        }
        let prefix = realFolder.hasSuffix("/") ? realFolder : realFolder + "/"
        guard realFile.hasPrefix(prefix) else {
            return refuse("the file leads out of \(wording.folder) (a symbolic link)")
        }
        return .success(path)
    }
}
