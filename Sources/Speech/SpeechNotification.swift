import CSpeechd

/// One of speech-dispatcher's notifications about a message this client said: it began, ended,
/// or was cancelled (by a message that interrupted it), and when libspeechd's thread got it.
public struct SpeechNotification: Hashable, Sendable {
    public enum Event: Hashable, Sendable {
        case began
        case ended
        case cancelled
        case paused
        case resumed
        case indexMark
    }

    /// The message's id, as `SpeechDispatcherConnection.say` returned it.
    public var message: Int
    public var event: Event
    /// CLOCK_MONOTONIC seconds.
    public var time: Double

    public init(message: Int, event: Event, time: Double) {
        self.message = message
        self.event = event
        self.time = time
    }

    /// The size of one record on the notification descriptor.
    public static let recordSize = MemoryLayout<cspeechd_notification>.size

    /// The notifications in `bytes` read from the descriptor given to
    /// `SpeechDispatcherConnection.routeNotifications(to:)`, and the bytes of a record not yet
    /// whole (kept for the next read). Records of unknown events are passed over.
    public static func decode(_ bytes: [UInt8]) -> (notifications: [SpeechNotification], remainder: [UInt8]) {
        let whole = bytes.count / recordSize * recordSize
        var notifications = [SpeechNotification]()
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < whole {
                let record = raw.loadUnaligned(fromByteOffset: offset, as: cspeechd_notification.self)
                offset += recordSize
                let event: Event
                switch SPDNotificationType(rawValue: record.event) {
                case SPD_EVENT_BEGIN: event = .began
                case SPD_EVENT_END: event = .ended
                case SPD_EVENT_CANCEL: event = .cancelled
                case SPD_EVENT_PAUSE: event = .paused
                case SPD_EVENT_RESUME: event = .resumed
                case SPD_EVENT_INDEX_MARK: event = .indexMark
                default: continue
                }
                // Message ids count up from 1 in one server's life; one past Int's range is not
                // a message of this client.
                guard record.message <= UInt64(Int.max) else { continue }
                notifications.append(SpeechNotification(
                    message: Int(record.message), event: event, time: Double(record.monotonicNanoseconds) / 1e9))
            }
        }
        return (notifications, Array(bytes[whole...]))
    }
}
