#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX error number, as apple/swift-system's `Errno` models it: the raw value, its symbolic
/// name (`ENOTTY`) and the C library's message (`strerror`). The one errno type of the program:
/// `SystemCallError` carries it, and so do the C-library wrappers' errors (`EvdevError`).
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `EPERM`
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `ENOENT`
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// `EINTR`: the call was interrupted by a signal; the wrappers retry it.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EIO`
    public static let ioError = Errno(rawValue: EIO)
    /// `ENXIO`
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    /// `EBADF`
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `EAGAIN`: nothing to read now on a non-blocking descriptor.
    public static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)
    /// `ENOMEM`
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// `EACCES`
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EBUSY`: for `EVIOCGRAB`, another file descriptor holds the grab.
    public static let resourceBusy = Errno(rawValue: EBUSY)
    /// `ENODEV`: the device was unplugged.
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    /// `ENOTDIR`
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// `EISDIR`
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// `EINVAL`
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `EMFILE`
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// `ENAMETOOLONG`
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    /// `EEXIST`
    public static let fileExists = Errno(rawValue: EEXIST)
    /// `ESRCH`: no process has that PID.
    public static let noSuchProcess = Errno(rawValue: ESRCH)
    /// `EPIPE`: the reader of a pipe or FIFO went away.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// `ENOTTY`: the ioctl is not for this kind of file (what an evdev ioctl gives on a file
    /// that is not an evdev device).
    public static let notTTY = Errno(rawValue: ENOTTY)

    private static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF",
        EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EBUSY: "EBUSY", ENODEV: "ENODEV",
        ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL", EMFILE: "EMFILE", ENOTTY: "ENOTTY",
        EEXIST: "EEXIST", ESRCH: "ESRCH", EPIPE: "EPIPE", ENOSYS: "ENOSYS", EROFS: "EROFS", ELOOP: "ELOOP", ENAMETOOLONG: "ENAMETOOLONG",
    ]

    /// The calling thread's `errno`, read right after the call that set it.
    public static var current: Errno { Errno(rawValue: errno) }

    /// The symbolic name (`ENOTTY`), or `errno N` for one this table does not know.
    public var name: String { Errno.names[rawValue] ?? "errno \(rawValue)" }

    /// The C library's message for it (`strerror`).
    public var message: String { String(cString: strerror(rawValue)) }

    /// `ENOTTY (Inappropriate ioctl for device)`
    public var description: String { "\(name) (\(message))" }
}
