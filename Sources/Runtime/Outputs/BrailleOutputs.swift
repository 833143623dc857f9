/// The `--braille` value of `switchscan run`.
public enum BrailleOutputs {
    public enum Spec: Hashable, Sendable {
        /// A BrlAPI display when BRLTTY answers (BrlAPI's defaults: BRLAPI_HOST, BRLAPI_AUTH),
        /// and the terminal view.
        case auto
        /// A BrlAPI display at `host` (nil: BrlAPI's default), with optional `auth`.
        case brlapi(host: String?)
        /// Only the terminal view's braille line.
        case terminal
        case none

        public init(parsing text: String) throws(BrailleSpecError) {
            switch text {
            case "auto": self = .auto
            case "terminal": self = .terminal
            case "none": self = .none
            case "brlapi": self = .brlapi(host: nil)
            default:
                guard text.hasPrefix("brlapi:") else {
                    throw BrailleSpecError(text: text, message: "expected auto, brlapi[:HOST], terminal or none")
                }
                self = .brlapi(host: String(text.dropFirst("brlapi:".count)))
            }
        }
    }

    public struct BrailleSpecError: Error, CustomStringConvertible, Sendable {
        public var text: String
        public var message: String
        public var description: String { "--braille \(text): \(message)" }
    }
}
