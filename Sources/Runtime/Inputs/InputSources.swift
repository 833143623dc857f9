/// The `--input` values of `switchscan run`, turned into sources.
public enum InputSources {
    /// What `--input` asks for.
    public enum Spec: Hashable, Sendable {
        /// Every switch device a profile matches, with hotplug; the terminal keyboard too.
        case auto
        case terminal
        case evdev(path: String)
        case evemu(path: String)
        case raw(path: String)

        public init(parsing text: String) throws(InputSpecError) {
            if text == "auto" { self = .auto; return }
            if text == "terminal" { self = .terminal; return }
            for (prefix, make) in [("evdev:", Spec.evdev), ("evemu:", Spec.evemu), ("raw:", Spec.raw)] as [(String, (String) -> Spec)] {
                if text.hasPrefix(prefix) {
                    let path = String(text.dropFirst(prefix.count))
                    guard !path.isEmpty else { throw InputSpecError(text: text, message: "\(prefix) needs a path") }
                    self = make(path)
                    return
                }
            }
            throw InputSpecError(text: text, message: "expected auto, terminal, evdev:PATH, evemu:FILE or raw:PATH")
        }
    }

    public struct InputSpecError: Error, CustomStringConvertible, Sendable {
        public var text: String
        public var message: String
        public var description: String { "--input \(text): \(message)" }
    }
}
