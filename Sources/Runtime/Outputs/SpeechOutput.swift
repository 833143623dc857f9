import BrailleFormatting
import Presentation
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
/// The loop hands it each line with its number (`ScanSession.speechUtterance`) and feeds back
/// what it reports (`takeReports`): when the speech of a line began and ended, on the monotonic
/// clock, and whether speech is heard at all (auditory scanning's hold applies only then).
///
/// speech-dispatcher not there, or gone: said once, the scan goes on without speech, and the
/// connection is tried again every `retrySeconds`. While a line is being said, the connection is
/// checked every `checkSeconds`, so a server gone mid-sentence does not leave the scan waiting
/// for an end that will never come.
public final class SpeechOutput: RuntimeSource {
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

    /// What the loop hands to the session.
    public enum Report: Hashable, Sendable {
        /// Speech is heard (`true`: connected), or not.
        case hold(Bool)
        /// The speech of line `utterance` began, at `time` (CLOCK_MONOTONIC seconds).
        case began(utterance: Int, time: Double)
        /// It ended, or was cancelled.
        case ended(utterance: Int, time: Double)
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
    private var reports: [Report] = []
    private var traceLines: [(time: Double, event: String, utterance: Int, text: String, language: String?)] = []

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

    /// The line the scanner shows now, numbered: said when either changed since the last one
    /// (interrupting it). An empty line is said as nothing: its speech is over at once.
    public func follow(_ line: BrailleLine, language: String?, utterance: Int, at now: Double) {
        if let current, current.utterance == utterance, current.text == line.text, current.language == language { return }
        current = (utterance, line.text, language)
        currentSaid = false
        if connection == nil, now >= nextAttempt { connect(at: now) }
        sayCurrent(at: now)
    }

    /// What speech reported since the last call, for the session.
    public func takeReports() -> [Report] {
        defer { reports = [] }
        return reports
    }

    /// The trace lines of what was said, began and ended since the last call; `origin` is the
    /// run's start on the monotonic clock (the lines' `time` counts from it, as the trace's do).
    public func takeTraceLines(origin: Double) -> [String] {
        defer { traceLines = [] }
        return traceLines.map {
            TraceFormat.speechLine(time: $0.time - origin, monotonic: $0.time, event: $0.event, utterance: $0.utterance,
                                   text: $0.text, language: $0.language)
        }
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

    /// Statuses made outside `readable` and `deadlineReached` (by `follow`), for the loop.
    public func takeStatuses() -> [RuntimeInput] {
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
        reports.append(.hold(true))
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
                reports += [.began(utterance: current.utterance, time: now), .ended(utterance: current.utterance, time: now)]
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
            traceLines.append((now, "said", current.utterance, current.text, current.language))
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
        for message in messages.values { reports.append(.ended(utterance: message.utterance, time: now)) }
        messages = [:]
        pending = []
        currentSaid = false
        reports.append(.hold(false))
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
            reports.append(.began(utterance: message.utterance, time: notification.time))
            traceLines.append((notification.time, "began", message.utterance, message.text, message.language))
        case .ended, .cancelled:
            messages[notification.message] = nil
            reports.append(.ended(utterance: message.utterance, time: notification.time))
            traceLines.append((notification.time, notification.event == .ended ? "ended" : "cancelled", message.utterance,
                               message.text, message.language))
            if messages.isEmpty { nextCheck = nil }
        case .paused, .resumed, .indexMark:
            break
        }
    }
}
