/// Where speech-dispatcher listens, in its own notation (`SPEECHD_ADDRESS`):
/// `unix_socket:/path/to/speechd.sock` or `inet_socket:host:port`.
public enum SpeechAddress: Hashable, Sendable, CustomStringConvertible {
    case unixSocket(path: String)
    case inetSocket(host: String, port: Int)

    /// Parses speech-dispatcher's address notation; the error says what was expected.
    public init(parsing text: String) throws(SpeechError) {
        if text.hasPrefix("unix_socket:") {
            let path = String(text.dropFirst("unix_socket:".count))
            guard !path.isEmpty, !path.contains("\0") else {
                throw SpeechError(function: "spd_open2", message: "\(text): a unix_socket address needs a socket path, e.g. unix_socket:/run/user/1000/speech-dispatcher/speechd.sock")
            }
            self = .unixSocket(path: path)
            return
        }
        if text.hasPrefix("inet_socket:") {
            let rest = text.dropFirst("inet_socket:".count)
            guard let colon = rest.lastIndex(of: ":"), !rest[..<colon].isEmpty,
                  let port = Int(rest[rest.index(after: colon)...]), (1...65535).contains(port) else {
                throw SpeechError(function: "spd_open2", message: "\(text): an inet_socket address is inet_socket:HOST:PORT, with a port from 1 to 65535")
            }
            self = .inetSocket(host: String(rest[..<colon]), port: port)
            return
        }
        throw SpeechError(function: "spd_open2", message: "\(text): expected unix_socket:PATH or inet_socket:HOST:PORT")
    }

    public var description: String {
        switch self {
        case .unixSocket(let path): "unix_socket:\(path)"
        case .inetSocket(let host, let port): "inet_socket:\(host):\(port)"
        }
    }
}
