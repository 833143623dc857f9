#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair whose slave side a program opens as a serial line (BRLTTY's
/// `serial:/dev/pts/N`) while this process speaks on the master side.
public struct PseudoTerminal: Sendable {
    /// The master side: non-blocking and close-on-exec.
    public let master: FileDescriptor
    /// The slave side, in raw mode, held open by this process so that the master never sees a
    /// hang-up while the program on the other side restarts.
    public let slave: FileDescriptor
    /// The slave's path (`/dev/pts/3`).
    public let slavePath: String

    /// posix_openpt(3), grantpt(3), unlockpt(3) and ptsname_r(3) (looked up with dlsym(3):
    /// Swift's Glibc module leaves them out, as they need _XOPEN_SOURCE), then open(2) of the
    /// slave and cfmakeraw(3) on it (tcgetattr(3), tcsetattr(3)); both sides are closed by the
    /// caller (`FileIO.close`).
    public static func open() throws(SystemCallError) -> PseudoTerminal {
        let made = try call("posix_openpt", as: DescriptorCall.self)(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard made >= 0 else { throw SystemCallError.current("posix_openpt") }
        let master = FileDescriptor(rawValue: made)
        let path: String
        do throws(SystemCallError) {
            guard try call("grantpt", as: DescriptorCall.self)(made) == 0 else { throw SystemCallError.current("grantpt") }
            guard try call("unlockpt", as: DescriptorCall.self)(made) == 0 else { throw SystemCallError.current("unlockpt") }
            var name = [CChar](repeating: 0, count: 128)
            let ptsname = try call("ptsname_r", as: NameCall.self)
            let result = name.withUnsafeMutableBufferPointer { ptsname(made, $0.baseAddress, $0.count) }
            guard result == 0 else { throw SystemCallError(call: "ptsname_r", errno: Errno(rawValue: result)) }
            path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            try FileIO.setNonBlocking(master, true)
        } catch {
            FileIO.close(master)
            throw error
        }
        let slave: FileDescriptor
        do {
            slave = try FileIO.open(path, .readWrite, options: .noControllingTerminal)
        } catch {
            FileIO.close(master)
            throw error
        }
        var settings = termios()
        if tcgetattr(slave.rawValue, &settings) == 0 {
            cfmakeraw(&settings)
            _ = tcsetattr(slave.rawValue, TCSANOW, &settings)
        }
        return PseudoTerminal(master: master, slave: slave, slavePath: path)
    }

    private typealias DescriptorCall = @convention(c) (Int32) -> Int32
    private typealias NameCall = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    /// dlsym(3) of a C library function by name.
    private static func call<T>(_ name: String, as type: T.Type) throws(SystemCallError) -> T {
        guard let symbol = dlsym(nil, name) else {
            throw SystemCallError(call: "dlsym", errno: .noSuchFileOrDirectory, subject: name)
        }
        return unsafeBitCast(symbol, to: type)
    }
}
