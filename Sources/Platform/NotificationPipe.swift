#if canImport(Glibc)
import Glibc
#endif

/// A pipe that another thread writes fixed records to (a C library's callbacks, on the
/// library's own thread) and whose read end the loop polls: the records reach the loop's
/// thread without a lock shared with that library. Both ends are non-blocking and close-on-exec.
public final class NotificationPipe {
    public let readEnd: Int32
    public let writeEnd: Int32

    /// pipe(2), then fcntl(2) for O_NONBLOCK and FD_CLOEXEC on both ends.
    public init() throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        try retryingInterrupts("pipe") { Int(pipe(&ends)) }
        for end in ends {
            do throws(SystemCallError) {
                try retryingInterrupts("fcntl", subject: "fd \(end)") { Int(fcntl(end, F_SETFD, FD_CLOEXEC)) }
                let flags = try retryingInterrupts("fcntl", subject: "fd \(end)") { Int(fcntl(end, F_GETFL)) }
                try retryingInterrupts("fcntl", subject: "fd \(end)") { Int(fcntl(end, F_SETFL, Int32(flags) | O_NONBLOCK)) }
            } catch {
                FileIO.close(ends[0])
                FileIO.close(ends[1])
                throw error
            }
        }
        readEnd = ends[0]
        writeEnd = ends[1]
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
