import BrailleFormatting
import Scanning
import Speech
import SwitchInput
import Platform

/// The `--speech` value of `switchscan run`.
public enum SpeechOutputs {
    public enum Spec: Hashable, Sendable {
        /// speech-dispatcher at libspeechd's default address (`SPEECHD_ADDRESS`, else the user's
        /// socket), when it answers.
        case auto
        case address(SpeechAddress)
        case none

        public init(parsing text: String) throws(SpeechSpecError) {
            switch text {
            case "auto": self = .auto
            case "none": self = .none
            default:
                do throws(SpeechError) {
                    self = .address(try SpeechAddress(parsing: text))
                } catch {
                    throw SpeechSpecError(text: text, message: "expected auto, none, unix_socket:PATH or inet_socket:HOST:PORT")
                }
            }
        }
    }

    public struct SpeechSpecError: Error, CustomStringConvertible, Sendable {
        public var text: String
        public var message: String
        public var description: String { "--speech \(text): \(message)" }
    }
}

/// Says what the braille line shows, through speech-dispatcher: the highlighted item, a menu
/// entry with its position, a message, `scanning stopped`; in the line's language; each new line
/// interrupts the one being said.
///
/// An output like the others: each turn the run hands it the line shown, with its number
/// (`ShownState.utterance`), and takes what it reports (`takeReports`): when the speech of a line
/// began and ended, on the monotonic clock, whether speech is heard at all (auditory scanning's
/// hold applies only then), statuses, and each line's progress for the trace. It is a source of
/// the loop too, for speech-dispatcher's notifications.
///
/// speech-dispatcher not there, or gone: said once, the scan goes on without speech, and the
/// connection is tried again every `retrySeconds`. While a line is being said, the connection is
/// checked every `checkSeconds`, so a server gone mid-sentence does not leave the scan waiting
/// for an end that will never come.
public final class SpeechOutput: RuntimeSource, ScanOutput {
    public struct Voice: Hashable, Sendable {
        /// -100…100, speech-dispatcher's scale; nil leaves its default.
        public var rate: Int?
        public var volume: Int?
        /// A voice kind (`male1`, `female2`, `child_female`…) or a synthesis voice's name.
        public var voice: String?

        public init(rate: Int? = nil, volume: Int? = nil, voice: String? = nil) {
            self.rate = rate
            self.volume = volume
            self.voice = voice
        }
    }

    public let name = "speech"
    public var bindings: [SwitchID: SwitchBinding] { [:] }
    public var isSwitchInput: Bool { false }

    public static let retrySeconds = 5.0
    public static let checkSeconds = 2.0

    private let address: SpeechAddress?
    private let voice: Voice
    private var connection: SpeechDispatcherConnection?
    private let pipe: NotificationPipe?
    private var pending: [UInt8] = []
    private var nextAttempt = -Double.infinity
    private var nextCheck: Double?
    /// Speech is not heard now, and that was said.
    private var absenceSaid = false
    private var everConnected = false
    private var statuses: [String] = []
    /// Speech heard or not, lines begun and ended, for the session.
    private var reports: [OutputReport] = []
    /// Each line's progress, for the trace.
    private var progress: [OutputReport] = []

    /// The line to be said now, and whether it has been said on the connection there is.
    private var current: (utterance: Int, text: String, language: String?)?
    private var currentSaid = false
    /// The messages said, by id: their line's number and text, until they end.
    private var messages: [Int: (utterance: Int, text: String, language: String?)] = [:]
    private var languageSet: String?

    /// Rate and volume's range: speech-dispatcher's scale, 0 its default.
    public static let scale = SpeechDispatcherConnection.scale

    /// The output `spec` asks for; nil for `none`.
    public convenience init?(_ spec: SpeechOutputs.Spec, voice: Voice = Voice()) {
        switch spec {
        case .none: return nil
        case .auto: self.init(address: nil, voice: voice)
        case .address(let address): self.init(address: address, voice: voice)
        }
    }

    /// - Parameter address: nil for libspeechd's default.
    public init(address: SpeechAddress?, voice: Voice = Voice()) {
        self.address = address
        self.voice = voice
        do {
            pipe = try NotificationPipe()
        } catch {
            pipe = nil
            statuses.append("speech: no pipe for speech-dispatcher's notifications (\(error)); no speech")
        }
    }

    public var descriptor: FileDescriptor? { connection == nil ? nil : pipe?.readEnd }

    public var deadline: Double? {
        guard pipe != nil else { return nil }
        if connection == nil { return nextAttempt.isFinite ? nextAttempt : nil }
        return nextCheck
    }

    /// The line shown, said when it or its number changed.
    public func present(_ outputs: [SessionOutput], shown: ShownState, at now: Double) {
        follow(shown.line, language: shown.language, utterance: shown.utterance, at: now)
    }

    /// The line the scanner shows now, numbered: said when either changed since the last one
    /// (interrupting it). An empty line is said as nothing: its speech is over at once.
    public func follow(_ line: BrailleLine, language: String?, utterance: Int, at now: Double) {
        if let current, current.utterance == utterance, current.text == line.text, current.language == language { return }
        current = (utterance, line.text, language)
        currentSaid = false
        if connection == nil, now >= nextAttempt { connect(at: now) }
        sayCurrent(at: now)
    }

    /// What speech reported since the last call: statuses, then what the session is told, then
    /// each line's progress.
    public func takeReports() -> [OutputReport] {
        defer {
            statuses = []
            reports = []
            progress = []
        }
        return statuses.map(OutputReport.status) + reports + progress
    }

    private func noteProgress(_ event: String, of line: (utterance: Int, text: String, language: String?), at time: Double) {
        progress.append(.spoken(SpeechProgress(time: time, event: event, utterance: line.utterance, text: line.text,
                                               language: line.language)))
    }

    public func readable(at now: Double) -> [RuntimeInput] {
        guard let pipe else { return [] }
        do {
            let (notifications, rest) = SpeechNotification.decode(pending + (try pipe.drain()))
            pending = rest
            for notification in notifications { handle(notification) }
        } catch {
            statuses.append("speech: speech-dispatcher's notifications could not be read (\(error))")
        }
        return takeStatuses()
    }

    public func deadlineReached(at now: Double) -> [RuntimeInput] {
        if connection == nil {
            if now >= nextAttempt { connect(at: now) }
            sayCurrent(at: now)
        } else if let due = nextCheck, now >= due {
            check(at: now)
        }
        return takeStatuses()
    }

    public func close() {
        connection?.close()
        connection = nil
    }

    private func takeStatuses() -> [RuntimeInput] {
        defer { statuses = [] }
        return statuses.map { .status($0) }
    }

    // MARK: - The connection

    private var place: String { address.map { " at \($0)" } ?? "" }

    private func connect(at now: Double) {
        guard let pipe else { return }
        do throws(SpeechError) {
            let opened = try SpeechDispatcherConnection.open(client: "switchscan", address: address)
            try opened.routeNotifications(to: pipe.writeEnd.rawValue)
            connection = opened
        } catch {
            nextAttempt = now + Self.retrySeconds
            if !absenceSaid {
                absenceSaid = true
                statuses.append("speech: \(error.message); scanning goes on without speech (tried again every \(Int(Self.retrySeconds)) s)")
            }
            return
        }
        applyVoice()
        languageSet = nil
        currentSaid = false
        reports.append(.speechHeard(true))
        if absenceSaid || everConnected {
            statuses.append("speech: speech-dispatcher answers\(place): speaking again")
        }
        absenceSaid = false
        everConnected = true
    }

    private func applyVoice() {
        guard let connection else { return }
        var refused = [String]()
        do throws(SpeechError) {
            if let rate = voice.rate { try connection.setRate(rate) }
        } catch { refused.append("rate \(voice.rate ?? 0) (\(error))") }
        do throws(SpeechError) {
            if let volume = voice.volume { try connection.setVolume(volume) }
        } catch { refused.append("volume \(voice.volume ?? 0) (\(error))") }
        if let name = voice.voice {
            do throws(SpeechError) {
                if let type = SpeechVoiceType(rawValue: name) { try connection.setVoiceType(type) } else { try connection.setSynthesisVoice(name) }
            } catch { refused.append("voice \(name) (\(error))") }
        }
        if !refused.isEmpty { statuses.append("speech: speech-dispatcher refused \(refused.joined(separator: ", ")); its defaults are used") }
    }

    private func sayCurrent(at now: Double) {
        guard let connection, let current, !currentSaid else { return }
        currentSaid = true
        do throws(SpeechError) {
            guard !current.text.isEmpty else {
                reports += [.speechBegan(utterance: current.utterance, time: now), .speechEnded(utterance: current.utterance, time: now)]
                return
            }
            if let language = current.language, language != languageSet {
                try connection.setLanguage(language)
                languageSet = language
            }
            // Text priority: speech-dispatcher cancels what this client is saying for it, so the
            // next line interrupts the last with no call of its own (a cancel first would cost a
            // round trip before every line).
            let id = try connection.say(current.text, priority: .text)
            messages[id] = current
            nextCheck = now + Self.checkSeconds
            noteProgress("said", of: current, at: now)
        } catch {
            lost(error, at: now)
        }
    }

    /// A line is being said: the connection is asked something, to find a server that went away
    /// (a failed call); libspeechd tells nothing by itself.
    private func check(at now: Double) {
        guard let connection else { return }
        guard !messages.isEmpty else {
            nextCheck = nil
            return
        }
        do throws(SpeechError) {
            try connection.setLanguage(languageSet ?? current?.language ?? "en")
            nextCheck = now + Self.checkSeconds
        } catch {
            lost(error, at: now)
        }
    }

    private func lost(_ error: SpeechError, at now: Double) {
        connection?.close()
        connection = nil
        nextCheck = nil
        // What was being said will never end: the lines are over, as far as the scan goes.
        for message in messages.values { reports.append(.speechEnded(utterance: message.utterance, time: now)) }
        messages = [:]
        pending = []
        currentSaid = false
        reports.append(.speechHeard(false))
        nextAttempt = now + Self.retrySeconds
        if !absenceSaid {
            absenceSaid = true
            statuses.append("speech: speech-dispatcher went away\(place) (\(error)); scanning goes on without speech (tried again every \(Int(Self.retrySeconds)) s)")
        }
    }

    private func handle(_ notification: SpeechNotification) {
        guard let message = messages[notification.message] else { return }
        switch notification.event {
        case .began:
            reports.append(.speechBegan(utterance: message.utterance, time: notification.time))
            noteProgress("began", of: message, at: notification.time)
        case .ended, .cancelled:
            messages[notification.message] = nil
            reports.append(.speechEnded(utterance: message.utterance, time: notification.time))
            noteProgress(notification.event == .ended ? "ended" : "cancelled", of: message, at: notification.time)
            if messages.isEmpty { nextCheck = nil }
        case .paused, .resumed, .indexMark:
            break
        }
    }
}
