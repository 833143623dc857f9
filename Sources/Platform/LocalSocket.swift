#if canImport(Glibc)
import Glibc
#endif

/// Unix-domain stream sockets (socket(2), connect(2), bind(2), listen(2), accept(2)): the tests'
/// servers (a braille display BRLTTY connects to) and their question whether a server they
/// started listens yet.
public enum LocalSocket {
    /// socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC) connected to `path`; the caller closes it.
    public static func connect(_ path: String) throws(SystemCallError) -> FileDescriptor {
        var address = try self.address(path, call: "connect")
        let made = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard made >= 0 else { throw SystemCallError.current("socket", subject: path) }
        let descriptor = FileDescriptor(rawValue: made)
        // Not retried after EINTR: the connection goes on by itself then (a second connect(2)
        // would say EALREADY); a unix socket's connect does not wait for the server anyway.
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(made, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let error = SystemCallError.current("connect", subject: path)
            FileIO.close(descriptor)
            throw error
        }
        return descriptor
    }

    /// A new socket bound to `path` (bind(2)) and listening (listen(2)), non-blocking and
    /// close-on-exec; the caller closes it.
    public static func listen(_ path: String, backlog: Int32 = 4) throws(SystemCallError) -> FileDescriptor {
        var address = try self.address(path, call: "bind")
        let made = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard made >= 0 else { throw SystemCallError.current("socket", subject: path) }
        let descriptor = FileDescriptor(rawValue: made)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(made, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        do throws(SystemCallError) {
            guard bound == 0 else { throw SystemCallError.current("bind", subject: path) }
            guard Glibc.listen(made, backlog) == 0 else { throw SystemCallError.current("listen", subject: path) }
            try FileIO.setNonBlocking(descriptor, true)
        } catch {
            FileIO.close(descriptor)
            throw error
        }
        return descriptor
    }

    /// accept(2) of the next connection on `listener`, non-blocking and close-on-exec; nil when
    /// none is waiting.
    public static func accept(_ listener: FileDescriptor) -> FileDescriptor? {
        let accepted = Glibc.accept(listener.rawValue, nil, nil)
        guard accepted >= 0 else { return nil }
        let descriptor = FileDescriptor(rawValue: accepted)
        do {
            try FileIO.setCloseOnExec(descriptor)
            try FileIO.setNonBlocking(descriptor, true)
        } catch {
            FileIO.close(descriptor)
            return nil
        }
        return descriptor
    }

    private static func address(_ path: String, call: String) throws(SystemCallError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemCallError(call: call, errno: .nameTooLong, subject: path)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }
}
