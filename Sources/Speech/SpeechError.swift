/// A failed libspeechd call: which C function, and what it said (or what this wrapper checked).
///
/// libspeechd reports most failures only as -1 (it prints its reasons to its own log), so the
/// message says what the call was doing; `spd_open2` gives its own reason text.
public struct SpeechError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The libspeechd function that failed, e.g. `spd_open2`.
    public var function: String
    public var message: String

    public init(function: String, message: String) {
        self.function = function
        self.message = message
    }

    public var description: String { "\(function): \(message)" }
}
