/// A libatspi call that failed: the call's name and what it said.
public struct AtspiError: Error, Equatable, Sendable, CustomStringConvertible {
    public var call: String
    public var message: String

    public init(call: String, message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "\(call): \(message)" }
}
