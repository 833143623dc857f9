import DeviceProfiles
import Evdev
import SwitchInput
import Platform

/// One switch device read through evdev: a slot of the `DeviceWatcher`, which puts a device in
/// it (`attach`) and, after an unplug, the same device back when it returns.
///
/// - The device is opened non-blocking (`EvdevDevice.open`), its timestamps set to
///   `CLOCK_MONOTONIC`, and grabbed (`EVIOCGRAB`) once no key is down (`EVIOCGKEY` empty, as keyd
///   does: grabbing while a key is down would leave other programs without its release); until
///   the grab is granted it is tried again after each read.
/// - Each readable batch is read to `EAGAIN` (`readAvailable`): after a `SYN_DROPPED`, libevdev's
///   delta events carry the lost presses and releases. Key events go through the profile's
///   translator; edges carry the kernel's timestamps (monotonic). Autorepeat (value 2) becomes a
///   `.repeat` edge, which the stabilizer rejects visibly.
/// - `ENODEV`: the device is gone. Every switch that was down gets a release at that moment (the
///   kernel's own release is lost when the device went away before it was read), the slot says
///   so, closes the device and keeps its identity so that the watcher can bring it back.
public final class EvdevInput: RuntimeSource {
    public enum State: Equatable {
        /// No device.
        case empty
        /// A device is open and read.
        case open
        /// The device was unplugged; waiting for it (its identity) to return.
        case gone
    }

    public let name: String
    public private(set) var state = State.empty
    /// The device's identity (kept while it is gone).
    public private(set) var identity: DeviceIdentity?
    /// The node of the device (the last one while it is gone).
    public private(set) var path: String?
    /// Whether the device is grabbed now.
    public private(set) var grabbed = false

    private var device: EvdevDevice?
    private var edges: ProfileEdges?
    private var monotonicTimestamps = false
    /// When to try a refused grab (`EBUSY`) again.
    private var grabRetry: Double?
    private var grabRetries = 0

    init(name: String) {
        self.name = name
    }

    public var profile: SwitchProfile? { edges?.profile }
    public var descriptor: FileDescriptor? {
        guard let device, device.fileDescriptor >= 0 else { return nil }
        return FileDescriptor(rawValue: device.fileDescriptor)
    }
    public var deadline: Double? { grabRetry }
    /// The watcher carries the bindings of every profile its slots may use.
    public var bindings: [SwitchID: SwitchBinding] { [:] }

    /// Takes `device` (open) with its profile: sets the clock, grabs when no key is down.
    /// Returns the status to show.
    func attach(_ device: EvdevDevice, identity: DeviceIdentity, profile: SwitchProfile, naming: SwitchNaming,
                returning: Bool, at now: Double) -> [RuntimeInput] {
        self.device = device
        self.identity = identity
        self.path = device.path
        self.edges = ProfileEdges(profile: profile, naming: naming)
        self.state = .open
        self.grabbed = false
        self.grabRetry = nil
        self.grabRetries = 0
        var notes = [String]()
        do {
            try device.setClockMonotonic()
            monotonicTimestamps = true
        } catch {
            monotonicTimestamps = false
            notes.append("event times are the moment read (\(error))")
        }
        let grab = tryGrab(at: now)
        let what = returning ? "is back" : "is a switch device"
        var text = "\(device.path) \(identity.quoted) \(what): profile \(profile.id) (\(switchList(profile)))"
        switch grab {
        case .grabbed: text += "; grabbed"
        case .keysDown: text += "; waiting for its keys to be released to grab it"
        case .refused(let reason): text += "; not grabbed: \(reason)"
        }
        if !notes.isEmpty { text += "; " + notes.joined(separator: "; ") }
        return [.status(text)]
    }

    private func switchList(_ profile: SwitchProfile) -> String {
        profile.switches.map { "\($0.codeName) → \($0.action.rawValue)" }.joined(separator: ", ")
    }

    enum GrabOutcome: Equatable {
        case grabbed
        case keysDown
        case refused(String)
    }

    /// Grabs when no key is down (`EVIOCGKEY`), as keyd does.
    private func tryGrab(at now: Double) -> GrabOutcome {
        guard let device, !grabbed else { return .grabbed }
        do {
            if try device.keysDown() { return .keysDown }
            try device.grab()
            grabbed = true
            grabRetry = nil
            return .grabbed
        } catch {
            if error.kind == .busy, grabRetries < 30 {
                // Another program holds it (keyd, another switchscan): its keys reach us only
                // once it lets go. Try again now and then.
                grabRetries += 1
                grabRetry = now + 2
            } else {
                grabRetry = nil
            }
            return .refused(error.description)
        }
    }

    public func readable(at now: Double) -> [RuntimeInput] {
        guard let device, state == .open else { return [] }
        var inputs = [RuntimeInput]()
        let batch: EvdevDevice.ReadBatch
        do {
            batch = try device.readAvailable()
        } catch {
            if error.kind == .deviceGone { return lost(at: now) }
            // An error that is not an unplug (EIO on a failing device): say it, let it go.
            return [.status("\(device.path): \(error)")] + lost(at: now, reason: "a read failed")
        }
        if batch.resynchronized {
            inputs.append(.status("\(device.path): the kernel dropped events (SYN_DROPPED); the switch state was brought up to date from the device"))
        }
        for event in batch.events {
            let deviceEvent = DeviceEvent(
                seconds: event.seconds, microseconds: event.microseconds, type: event.type, code: event.code, value: event.value)
            // Kernel timestamps (monotonic) unless the clock could not be set or the time is not
            // plausible (then the moment read).
            let time = monotonicTimestamps && abs(deviceEvent.time - now) < 5 ? min(deviceEvent.time, now) : now
            if let edge = edges?.edge(deviceEvent, at: time) { inputs.append(.edge(edge)) }
        }
        if batch.deviceGone { return inputs + lost(at: now) }
        if !grabbed, grabRetry == nil {
            if case .grabbed = tryGrab(at: now) { inputs.append(.status("\(device.path) \(identity?.quoted ?? ""): grabbed")) }
        }
        return inputs
    }

    public func deadlineReached(at now: Double) -> [RuntimeInput] {
        guard state == .open, grabRetry != nil, let device else { grabRetry = nil; return [] }
        grabRetry = nil
        switch tryGrab(at: now) {
        case .grabbed: return [.status("\(device.path) \(identity?.quoted ?? ""): grabbed")]
        case .keysDown, .refused: return []
        }
    }

    /// The device is gone: releases for the switches that were down, a status, the device
    /// closed; the identity stays for its return.
    private func lost(at now: Double, reason: String = "unplugged (ENODEV)") -> [RuntimeInput] {
        let down = edges?.switchesDown ?? []
        let releases = edges?.releaseAll(at: now) ?? []
        var text = "\(path ?? "the device") \(identity?.quoted ?? ""): \(reason)"
        if !down.isEmpty { text += "; released: \(releases.map(\.switchID).joined(separator: ", "))" }
        text += "; waiting for it to come back"
        device?.close()
        device = nil
        grabbed = false
        grabRetry = nil
        state = .gone
        return releases.map(RuntimeInput.edge) + [.status(text)]
    }

    /// Gives the device up (the run ends): closing releases the grab.
    public func close() {
        device?.close()
        device = nil
        grabbed = false
        if state == .open { state = .empty }
    }
}
