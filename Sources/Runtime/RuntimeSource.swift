import BrailleFormatting
import Scanning
import SwitchInput
import Platform

/// What a source tells the loop.
public enum RuntimeInput: Sendable {
    /// A switch edge; its time is on the monotonic clock (evdev timestamps, or the moment read).
    case edge(SwitchEdge)
    /// The device carrying these switches is gone: release whatever was down.
    case devicesLost
    /// The source has nothing more (a recording replayed, a file's end), or `failed`: it could
    /// not be opened or read (a run whose every switch input failed exits non-zero).
    case endOfInput(source: String, failed: Bool = false)
    /// Something the user should know, for the status line and the trace (a device unplugged,
    /// BRLTTY restarting, a permission problem with what to do).
    case status(String)
    /// The scanned content changed by itself (a live application's window, dialog, labels).
    case content(ContentUpdate)
}

/// An input (or an output with a connection to keep) that the loop polls: its descriptor when it
/// has one now, its own deadline when it has one (a replay's next event, a reconnection's
/// retry), and what it does when either comes. Sources never block and never sleep.
public protocol RuntimeSource: AnyObject {
    var name: String { get }
    /// The descriptor to poll for reading, if any now.
    var descriptor: FileDescriptor? { get }
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
    /// Whether the source carries the user's switches (false: a notice, a display whose keys
    /// never keep a run going by themselves).
    var isSwitchInput: Bool { get }
}

extension RuntimeSource {
    public var pulseSwitches: Set<SwitchID> { [] }
    public var isSwitchInput: Bool { true }
    public func close() {}
}
