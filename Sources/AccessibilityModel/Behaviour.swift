/// Behaviour as data: what activating, adjusting or a custom action does to a scene.
/// The model only carries these values; the Scenes module executes them on a scene's state.

/// A value in a scene's named state.
public enum StateValue: Hashable, Sendable, CustomStringConvertible {
    case bool(Bool)
    case number(Double)
    case string(String)

    /// The text a `{name}` binding shows: numbers without a needless `.0`.
    public var description: String {
        switch self {
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return formatPoints(value)
        case .string(let value): return value
        }
    }

    /// Truth for `visible` and conditional traits: false, 0 and "" are false.
    public var isTruthy: Bool {
        switch self {
        case .bool(let value): return value
        case .number(let value): return value != 0
        case .string(let value): return !value.isEmpty
        }
    }

    public var typeName: String {
        switch self {
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        }
    }
}

/// `UIAccessibilityNotifications` that a scene can post, as values.
public enum NotificationKind: String, Hashable, Sendable, CaseIterable {
    case screenChanged
    case layoutChanged
    case announcement
    case pageScrolled
    /// `UIAccessibilityPauseAssistiveTechnologyNotification`: pauses the assistive technology
    /// named in its argument (DISIC: "temporarily pause and resume the actions performed by the
    /// assistive tools specified in parameters"), as an app does while it plays a video or an
    /// animation that scanning would interrupt.
    case pauseAssistiveTechnology
    /// `UIAccessibilityResumeAssistiveTechnologyNotification`: resumes it.
    case resumeAssistiveTechnology
}

/// The argument of a pause or resume notification: which assistive technology it is for
/// (`UIAccessibilityNotificationSwitchControlIdentifier`,
/// `UIAccessibilityNotificationVoiceOverIdentifier`). The scanner is Switch Control: a pause for
/// VoiceOver leaves it running.
public enum AssistiveTechnology: String, Hashable, Sendable, CaseIterable {
    case switchControl
    case voiceOver
}

/// A posted notification: the kind, the element to focus (screenChanged, layoutChanged) and the
/// text to convey (announcement and pageScrolled need it; screenChanged and layoutChanged may
/// carry it, as UIKit's argument may be a string, which VoiceOver reads).
public struct AccessibilityNotification: Hashable, Sendable {
    public var kind: NotificationKind
    public var focus: ElementID?
    public var text: String?
    /// The technology a pause or resume is for.
    public var technology: AssistiveTechnology?

    public init(kind: NotificationKind, focus: ElementID? = nil, text: String? = nil, technology: AssistiveTechnology? = nil) {
        self.kind = kind
        self.focus = focus
        self.text = text
        self.technology = technology
    }
}

/// One step of a behaviour, as the scene contract writes it.
public enum Effect: Hashable, Sendable {
    /// `set: {wifi: false}`: assign state values, in the order written.
    case set([(name: String, value: StateValue)])
    /// `toggle: wifi`: flip a boolean.
    case toggle(String)
    /// `add: {volume: 1, min: 0, max: 10}`: step a number, clamped to the bounds.
    case add(name: String, amount: Double, min: Double?, max: Double?)
    /// `go: settings`: change screen; posts screenChanged.
    case go(String)
    /// `announce: "Message sent."`: posts an announcement.
    case announce(String)
    /// `post: {notification: layoutChanged, focus: status-label}`.
    case post(AccessibilityNotification)

    public static func == (lhs: Effect, rhs: Effect) -> Bool {
        switch (lhs, rhs) {
        case let (.set(a), .set(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        case let (.toggle(a), .toggle(b)): return a == b
        case let (.add(n1, a1, lo1, hi1), .add(n2, a2, lo2, hi2)):
            return n1 == n2 && a1 == a2 && lo1 == lo2 && hi1 == hi2
        case let (.go(a), .go(b)): return a == b
        case let (.announce(a), .announce(b)): return a == b
        case let (.post(a), .post(b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .set(let pairs):
            hasher.combine(0)
            for pair in pairs { hasher.combine(pair.name); hasher.combine(pair.value) }
        case let .toggle(name): hasher.combine(1); hasher.combine(name)
        case let .add(name, amount, min, max):
            hasher.combine(2); hasher.combine(name); hasher.combine(amount); hasher.combine(min); hasher.combine(max)
        case let .go(screen): hasher.combine(3); hasher.combine(screen)
        case let .announce(text): hasher.combine(4); hasher.combine(text)
        case let .post(notification): hasher.combine(5); hasher.combine(notification)
        }
    }
}

/// `UIAccessibilityCustomAction`: a named action offered in the scanner menu.
public struct CustomAction: Hashable, Sendable {
    public var name: String
    public var effects: [Effect]

    public init(name: String, effects: [Effect]) {
        self.name = name
        self.effects = effects
    }
}

/// `AXCustomContent`: extra label/value pairs offered as "More content".
public struct CustomContent: Hashable, Sendable {
    public var label: String
    public var value: String
    /// `AXCustomContent.importance`: high-importance content is read with the element.
    public var isImportant: Bool

    public init(label: String, value: String, isImportant: Bool = false) {
        self.label = label
        self.value = value
        self.isImportant = isImportant
    }
}
