import CBrlAPI
import Platform
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Process-wide facts and settings of libbrlapi, BRLTTY's client library.
///
/// The connection itself is `BrlAPIConnection`; keys arrive as `BrlAPIKey`; failures are
/// `BrlAPIError`, naming the C function that failed.
public enum BrlAPI {
    /// Ignores SIGPIPE for the whole process (`signal(SIGPIPE, SIG_IGN)`).
    ///
    /// A write to a BrlAPI socket whose server (BRLTTY) has gone otherwise kills the process;
    /// with SIGPIPE ignored the write fails with `EPIPE` and `BrlAPIConnection.write` throws.
    /// Call once, before the first connection.
    public static func ignoreSIGPIPE() {
        ProcessSignal.ignore(SIGPIPE)
    }

    /// The version of the libbrlapi this program runs with (`brlapi_getLibraryVersion`), e.g.
    /// 0.8.4 with BRLTTY 6.5.
    public static var libraryVersion: (major: Int, minor: Int, revision: Int) {
        var major: Int32 = 0
        var minor: Int32 = 0
        var revision: Int32 = 0
        brlapi_getLibraryVersion(&major, &minor, &revision)
        return (Int(major), Int(minor), Int(revision))
    }

    /// The directory of BrlAPI's local sockets (`BRLAPI_SOCKETPATH`): host `:N` is the socket
    /// `<directory>/N`, next to BRLTTY's lock file `.N` holding its process id.
    public static let socketDirectory: String = BRLAPI_SOCKETPATH
}
