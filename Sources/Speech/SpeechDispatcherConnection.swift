import CSpeechd

/// The urgency of a message (`SPDPriority`): how speech-dispatcher orders it against what
/// other clients and this one say.
public enum SpeechPriority: Sendable {
    /// `SPD_IMPORTANT`: never interrupted, cancels others' text.
    case important
    /// `SPD_MESSAGE`: said after what is being said; cancels pending text.
    case message
    /// `SPD_TEXT`: cancelled by any later text or message of any client, the screen reader's
    /// priority for what the focus is on.
    case text
    /// `SPD_NOTIFICATION`: dropped when anything else is said.
    case notification

    var value: SPDPriority {
        switch self {
        case .important: SPD_IMPORTANT
        case .message: SPD_MESSAGE
        case .text: SPD_TEXT
        case .notification: SPD_NOTIFICATION
        }
    }
}

/// A voice by its kind (`SPDVoiceType`), which each output module maps to one of its voices.
public enum SpeechVoiceType: String, CaseIterable, Sendable {
    case male1, male2, male3, female1, female2, female3
    case childMale = "child_male"
    case childFemale = "child_female"

    var value: SPDVoiceType {
        switch self {
        case .male1: SPD_MALE1
        case .male2: SPD_MALE2
        case .male3: SPD_MALE3
        case .female1: SPD_FEMALE1
        case .female2: SPD_FEMALE2
        case .female3: SPD_FEMALE3
        case .childMale: SPD_CHILD_MALE
        case .childFemale: SPD_CHILD_FEMALE
        }
    }
}

/// One connection to speech-dispatcher through libspeechd (threaded mode, so that its
/// notifications come).
///
/// Every method is one libspeechd call, named in its documentation; a failure throws
/// `SpeechError` naming that call. The connection never spawns a server: one that is not there
/// is reported, and the caller decides when to try again. Use a connection from one thread at a
/// time; notifications arrive on libspeechd's own thread and are written, as records, to the
/// descriptor given to `routeNotifications(to:)`.
///
/// A call on a connection whose server went away fails (with SIGPIPE ignored, which the runtime
/// does); close it and open a new one.
public final class SpeechDispatcherConnection {
    private let connection: UnsafeMutablePointer<SPDConnection>
    private var isOpen = true
    private var routed = false
    /// The client id speech-dispatcher gave this connection (`spd_get_client_id`).
    public let clientID: Int

    private init(_ connection: UnsafeMutablePointer<SPDConnection>) {
        self.connection = connection
        clientID = Int(spd_get_client_id(connection))
    }

    deinit { close() }

    /// Connects to speech-dispatcher (`spd_open2`, threaded, without autospawn).
    ///
    /// - Parameters:
    ///   - client: this program's name, as speech-dispatcher shows it (`client_name`).
    ///   - address: where it listens; nil for libspeechd's default (`SPEECHD_ADDRESS`, else
    ///     `$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock`).
    public static func open(client: String, address: SpeechAddress? = nil) throws(SpeechError) -> SpeechDispatcherConnection {
        var error: UnsafeMutablePointer<CChar>?
        let opened: UnsafeMutablePointer<SPDConnection>? = client.withCString { name in
            "main".withCString { connectionName in
                switch address {
                case nil:
                    return spd_open2(name, connectionName, nil, SPD_MODE_THREADED, nil, 0, &error)
                case .unixSocket(let path):
                    return path.withCString { path in
                        var value = cspeechd_unix_socket_address(UnsafeMutablePointer(mutating: path))
                        return spd_open2(name, connectionName, nil, SPD_MODE_THREADED, &value, 0, &error)
                    }
                case .inetSocket(let host, let port):
                    return host.withCString { host in
                        var value = cspeechd_inet_socket_address(UnsafeMutablePointer(mutating: host), Int32(port))
                        return spd_open2(name, connectionName, nil, SPD_MODE_THREADED, &value, 0, &error)
                    }
                }
            }
        }
        let reason = error.map { String(cString: $0) }
        if let error { cspeechd_free(error) }
        guard let opened else {
            let place = address.map { " at \($0)" } ?? ""
            throw SpeechError(function: "spd_open2", message: "speech-dispatcher does not answer\(place)" + (reason.map { ": \(Self.reason($0))" } ?? ""))
        }
        return SpeechDispatcherConnection(opened)
    }

    /// Says `text` (`spd_say`); returns the message's id, which its notifications carry.
    @discardableResult
    public func say(_ text: String, priority: SpeechPriority) throws(SpeechError) -> Int {
        try checkOpen("spd_say")
        let id = text.withCString { spd_say(connection, priority.value, $0) }
        guard id >= 0 else { throw SpeechError(function: "spd_say", message: "the message was not accepted (speech-dispatcher gone?)") }
        return Int(id)
    }

    /// Stops what this connection is saying and drops what it has queued (`spd_cancel`).
    public func cancel() throws(SpeechError) {
        try call("spd_cancel") { spd_cancel(connection) }
    }

    /// The language of the next messages, an IETF tag such as `fr` or `en-US` (`spd_set_language`).
    public func setLanguage(_ language: String) throws(SpeechError) {
        try call("spd_set_language") { language.withCString { spd_set_language(connection, $0) } }
    }

    /// A voice of the output module by its name, as `spd-say -L` lists them (`spd_set_synthesis_voice`).
    public func setSynthesisVoice(_ name: String) throws(SpeechError) {
        try call("spd_set_synthesis_voice") { name.withCString { spd_set_synthesis_voice(connection, $0) } }
    }

    /// A voice by its kind (`spd_set_voice_type`).
    public func setVoiceType(_ type: SpeechVoiceType) throws(SpeechError) {
        try call("spd_set_voice_type") { spd_set_voice_type(connection, type.value) }
    }

    /// The output module (synthesizer) this connection's messages go to, e.g. `espeak-ng` (`spd_set_output_module`).
    public func setOutputModule(_ name: String) throws(SpeechError) {
        try call("spd_set_output_module") { name.withCString { spd_set_output_module(connection, $0) } }
    }

    /// The range of rate and volume values: speech-dispatcher's scale, 0 its default.
    public static let scale = -100...100

    /// The speaking rate, -100 (slowest) to 100 (fastest) (`spd_set_voice_rate`).
    public func setRate(_ rate: Int) throws(SpeechError) {
        try checkScale(rate, "spd_set_voice_rate", "rate")
        try call("spd_set_voice_rate") { spd_set_voice_rate(connection, Int32(rate)) }
    }

    /// The volume, -100 (quietest) to 100 (loudest) (`spd_set_volume`).
    public func setVolume(_ volume: Int) throws(SpeechError) {
        try checkScale(volume, "spd_set_volume", "volume")
        try call("spd_set_volume") { spd_set_volume(connection, Int32(volume)) }
    }

    /// Writes a record (`SpeechNotification`) to `descriptor` for each begin, end and cancel of
    /// this connection's messages, from libspeechd's thread (the callbacks, then
    /// `spd_set_notification_on` for each). `descriptor` must stay open until `close()`; a
    /// non-blocking pipe's write end, whose read end the caller polls, is what it is for.
    public func routeNotifications(to descriptor: Int32) throws(SpeechError) {
        try checkOpen("spd_set_notification_on")
        guard !routed else { return }
        guard cspeechd_route_notifications(connection, descriptor) == 0 else {
            throw SpeechError(function: "spd_set_notification_on", message: "too many connections have notifications routed in this process")
        }
        routed = true
        for (notification, name) in [(SPD_BEGIN, "begin"), (SPD_END, "end"), (SPD_CANCEL, "cancel")] {
            do throws(SpeechError) {
                try call("spd_set_notification_on") { spd_set_notification_on(connection, notification) }
            } catch {
                throw SpeechError(function: error.function, message: "\(name) notifications: \(error.message)")
            }
        }
    }

    /// Closes the connection (`spd_close`), after which no notification is written any more.
    /// Closing twice does nothing.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        if routed { cspeechd_unroute_notifications(clientID) }
        spd_close(connection)
    }

    // MARK: - Calls

    private func checkOpen(_ function: String) throws(SpeechError) {
        guard isOpen else { throw SpeechError(function: function, message: "the connection is closed") }
    }

    private func call(_ function: String, _ body: () -> Int32) throws(SpeechError) {
        try checkOpen(function)
        guard body() == 0 else { throw SpeechError(function: function, message: "speech-dispatcher refused it, or is gone") }
    }

    private func checkScale(_ value: Int, _ function: String, _ name: String) throws(SpeechError) {
        guard Self.scale.contains(value) else {
            throw SpeechError(function: function, message: "\(name) \(value) is outside -100...100")
        }
    }

    /// libspeechd's reason on one line, without its `Error: ` and its note on autospawn (never
    /// asked for here): "Can't connect to unix socket /run/…/speechd.sock: No such file or directory".
    static func reason(_ text: String) -> String {
        var line = text.split(whereSeparator: { $0.isNewline || $0 == " " }).joined(separator: " ")
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        if let autospawn = line.firstRange(of: " Autospawn:") { line = String(line[..<autospawn.lowerBound]) }
        while line.hasSuffix(".") { line.removeLast() }
        return line
    }
}
