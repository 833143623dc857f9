/// A pipe that another thread writes fixed records to (a C library's callbacks, on the
/// library's own thread) and whose read end the loop polls: the records reach the loop's
/// thread without a lock shared with that library. Both ends are non-blocking and close-on-exec.
public final class NotificationPipe {
    public let readEnd: FileDescriptor
    public let writeEnd: FileDescriptor

    /// pipe(2), then fcntl(2) for O_NONBLOCK and FD_CLOEXEC on both ends (`FileIO.pipe`).
    public init() throws(SystemCallError) {
        (readEnd, writeEnd) = try FileIO.pipe()
    }

    deinit {
        FileIO.close(readEnd)
        FileIO.close(writeEnd)
    }

    /// Everything written so far (empty when nothing is waiting).
    public func drain() throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8]()
        while let chunk = try FileIO.read(readEnd), !chunk.isEmpty {
            bytes += chunk
        }
        return bytes
    }
}
