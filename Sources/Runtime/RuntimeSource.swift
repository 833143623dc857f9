import BrailleFormatting
import SwitchInput

/// What a source tells the loop.
public enum RuntimeInput: Sendable {
    /// A switch edge; its time is on the monotonic clock (evdev timestamps, or the moment read).
    case edge(SwitchEdge)
    /// The device carrying these switches is gone: release whatever was down.
    case devicesLost
    /// The source has nothing more (a recording replayed, a stream closed).
    case endOfInput(source: String)
    /// Something the user should know, for the status line and the trace (a device unplugged,
    /// BRLTTY restarting, a permission problem with what to do).
    case status(String)
}

/// An input (or an output with a connection to keep) that the loop polls: its descriptor when it
/// has one now, its own deadline when it has one (a replay's next event, a reconnection's
/// retry), and what it does when either comes. Sources never block and never sleep.
public protocol RuntimeSource: AnyObject {
    var name: String { get }
    /// The descriptor to poll for reading, if any now.
    var descriptor: Int32? { get }
    /// The next moment (monotonic seconds) the source wants to be called, if any.
    var deadline: Double? { get }
    func readable(at now: Double) -> [RuntimeInput]
    func deadlineReached(at now: Double) -> [RuntimeInput]
    /// The switches this source produces, bound to their actions.
    var bindings: [SwitchID: SwitchBinding] { get }
    /// Switches with no release timing (keystrokes, display keys): pulses, no bounce filter.
    var pulseSwitches: Set<SwitchID> { get }
    /// Closes descriptors and releases grabs (called once, when the run ends).
    func close()
}

extension RuntimeSource {
    public var pulseSwitches: Set<SwitchID> { [] }
    public func close() {}
}

/// An output that shows the braille line: the terminal view, a BrlAPI display.
public protocol BrailleSink: AnyObject {
    /// Shows `line` (the scanner's current line); `language` chooses the braille table.
    func show(_ line: BrailleLine, language: String?, at now: Double)
}
