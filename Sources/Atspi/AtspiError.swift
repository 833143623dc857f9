/// A libatspi call that failed: the call's name and what it said.
public struct AtspiError: Error, Equatable, Sendable, CustomStringConvertible {
    public var call: String
    public var message: String

    public init(call: String, message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "\(call): \(message)" }

    /// Whether the application did not answer (the call's timeout passed, or it left the bus
    /// meanwhile): any further call to it would wait out the timeout too.
    public var isNoReply: Bool {
        ["Did not receive a reply", "Timeout was reached", "timed out", "was not provided by any .service files",
         "The name is not activatable", "disconnected"].contains { message.contains($0) }
    }
}
