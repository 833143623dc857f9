import Platform
import DeviceProfiles
import Evdev
import SwitchInput

/// What `switchscan learn` reads a live device through: its descriptor to wait on, its events
/// as they come, and whether a key is held down. `EvdevDevice` is one; the tests use a pipe.
public protocol LearnableDevice: AnyObject {
    var path: String { get }
    /// The descriptor the reactor waits on (readable: events to read).
    var fileDescriptor: Int32 { get }
    /// Events already taken from the descriptor and waiting in the reader's own queue.
    func hasEventPending() throws -> Bool
    /// Every event waiting, and whether the device went away.
    func readEvents() throws -> (events: [DeviceEvent], gone: Bool)
    /// Whether some key of the device is down now.
    func keysDown() throws -> Bool
}

extension EvdevDevice: LearnableDevice {
    public func readEvents() throws -> (events: [DeviceEvent], gone: Bool) {
        let batch = try readAvailable()
        return (batch.events.map {
            DeviceEvent(seconds: $0.seconds, microseconds: $0.microseconds, type: $0.type, code: $0.code, value: $0.value)
        }, batch.deviceGone)
    }
}

/// `switchscan learn` on a live device, through the reactor: each wait (for the keys to be
/// released, for each switch) is one wait on the device's descriptor to a deadline, which
/// Ctrl-C or SIGTERM ends at once. The command prints what `say` is told and writes the profile.
public final class LearnRun {
    /// What the user is told while learning.
    public enum Message: Sendable, Equatable {
        /// A key is down: the device is grabbed only once every key is up.
        case releaseKeys
        /// Switch `index` (0-based) of `count` is asked for.
        case press(index: Int, count: Int, action: SwitchAction)
        case learned(SwitchProfile.Switch)
        case alreadyLearned(code: UInt16, switchID: SwitchID)
    }

    /// How learning ended.
    public enum Ending: Sendable, Equatable {
        /// Every switch is learned (`learner` holds them).
        case learned
        /// Keys stayed down for the whole timeout.
        case keysStayedDown
        /// No switch was pressed within the timeout: the switch asked for (0-based).
        case noPress(index: Int)
        /// The device disappeared.
        case deviceGone
        /// SIGINT, SIGTERM or SIGHUP.
        case signal(Int32)
    }

    public private(set) var learner: SwitchLearner
    private let device: any LearnableDevice
    private let reactor: Reactor
    /// Seconds each wait lasts at most.
    private let timeout: Double
    private let say: (Message) -> Void

    public init(device: any LearnableDevice, actions: [SwitchAction], timeout: Double, reactor: Reactor,
                say: @escaping (Message) -> Void) {
        self.device = device
        self.reactor = reactor
        self.timeout = timeout
        self.say = say
        learner = SwitchLearner(actions: actions)
    }

    /// Waits (up to the timeout) until no key is down, so that a grab does not keep a key stuck
    /// down for other programs. A release is an event on the descriptor: the wait wakes for it.
    /// Nil: no key is down.
    public func waitForKeysReleased() throws -> Ending? {
        let deadline = MonotonicClock.now() + timeout
        var told = false
        while try device.keysDown() {
            if !told {
                say(.releaseKeys)
                told = true
            }
            switch try reactor.waitReadable([FileDescriptor(rawValue: device.fileDescriptor)], until: deadline) {
            case .deadline: return try device.keysDown() ? .keysStayedDown : nil
            case .signal(let signal): return .signal(signal)
            case .ready:
                // Read so that the descriptor is not readable again for the same events.
                if try device.readEvents().gone { return .deviceGone }
            }
        }
        return nil
    }

    /// Asks for each switch in turn and learns it from the device's events.
    public func learn() throws -> Ending {
        let count = learner.actions.count
        while !learner.isComplete {
            let index = learner.currentIndex
            say(.press(index: index, count: count, action: learner.actions[index]))
            let deadline = MonotonicClock.now() + timeout
            while learner.currentIndex == index {
                // Keys other than a switch (a device that sends events all the time) do not
                // keep the wait going past its deadline.
                guard MonotonicClock.now() < deadline else { return .noPress(index: index) }
                if try !device.hasEventPending() {
                    switch try reactor.waitReadable([FileDescriptor(rawValue: device.fileDescriptor)], until: deadline) {
                    case .deadline: return .noPress(index: index)
                    case .signal(let signal): return .signal(signal)
                    case .ready: break
                    }
                }
                let (events, gone) = try device.readEvents()
                for event in events {
                    switch learner.handle(event) {
                    case .learned(let learned): say(.learned(learned))
                    case .alreadyLearned(let code, let id): say(.alreadyLearned(code: code, switchID: id))
                    case .nothing, .pressed: break
                    }
                }
                if gone { return .deviceGone }
            }
        }
        return .learned
    }
}
