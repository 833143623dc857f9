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
        isTimeout || ["was not provided by any .service files", "The name is not activatable", "disconnected"].contains { message.contains($0) }
    }

    /// Whether the call waited out its timeout (a stopped or hung application), or was not made
    /// because the application's earlier call had (`ApplicationSilence`).
    public var isTimeout: Bool {
        // libatspi says "timeout from dbind" (its own D-Bus calls), GLib "Timeout was reached",
        // libdbus "Did not receive a reply".
        let said = message.lowercased()
        return ["did not receive a reply", "timeout", "timed out", Self.notAnswering].contains { said.contains($0) }
    }

    /// The message of a call not made: the application did not answer an earlier one.
    public static let notAnswering = "the application is not answering"
}
