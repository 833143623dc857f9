#if canImport(Glibc)
import Glibc
#endif
import DeviceProfiles
import Evdev
import SwitchInput
import Platform

/// Finds switch devices and keeps them: a scan of `/dev/input` at start, then inotify on the
/// folder (`IN_CREATE`, `IN_ATTRIB`, `IN_DELETE`) for devices plugged in later and devices
/// coming back.
///
/// A device is taken when a profile fits it (`ProfileCatalog`: vendor/product over name over
/// generic), and put in a free `EvdevInput` slot, which grabs it. The slots are sources of their
/// own (the loop polls each slot's descriptor; the set of slots is fixed when the run starts, the
/// devices in them are not). A device that was unplugged is taken back into its slot when a
/// device with the same bus, vendor, product and name (and unique id, when both have one)
/// appears, whatever its node and physical path (a replugged USB device gets another port path).
///
/// udev sets a node's permissions just after the kernel creates it, so an open right after
/// `IN_CREATE` can fail with `EACCES`: it is tried again on the node's `IN_ATTRIB` and a few
/// times over about 3 seconds before the permission problem is reported with what to do.
public final class DeviceWatcher: RuntimeSource {
    /// Which devices are taken without being named.
    public enum Selection: Sendable {
        /// Devices that have a profile of their own, and generic matches that are not keyboards
        /// (beside the terminal keyboard: a keyboard would be the terminal's own).
        case withOwnProfile
        /// Every device a profile fits, the generic keyboard profile included.
        case everyMatch
    }

    public let name = "evdev"
    public let directory: String
    public let slots: [EvdevInput]
    /// Problems found by the scan at start (for standard error).
    public private(set) var startupProblems: [String] = []

    private let catalog: ProfileCatalog
    private let chosen: SwitchProfile?
    private let selection: Selection?
    private let naming: SwitchNaming
    private var pinned: [String]
    private var inotify: Inotify?
    /// Nodes whose open failed with `EACCES`, to try again.
    private var retries: [String: Retry] = [:]
    /// Nodes looked at and not taken (until they are deleted).
    private var ignored = Set<String>()
    /// Statuses to say at the next call.
    private var notices: [RuntimeInput] = []
    private var noticesDue: Double?

    struct Retry {
        var attempts: Int
        var due: Double
        var giveUpAt: Double
        var lastError: EvdevError
    }

    /// How long a node refused with `EACCES` is tried again.
    static let permissionGrace = 3.0

    init(directory: String = Evdev.inputDirectory, catalog: ProfileCatalog, chosen: SwitchProfile?, selection: Selection?,
         paths: [String], slotCount: Int = 16) {
        self.directory = directory
        self.catalog = catalog
        self.chosen = chosen
        self.selection = selection
        self.pinned = paths
        self.slots = (0..<slotCount).map { EvdevInput(name: "evdev slot \($0 + 1)") }
        self.naming = SwitchNaming(profiles: chosen.map { [$0] } ?? catalog.profiles.filter { $0.matching != .manual })
        start()
    }

    public var descriptor: FileDescriptor? { inotify?.descriptor }
    public var deadline: Double? {
        let due = retries.values.map(\.due).min()
        switch (due, noticesDue) {
        case let (a?, b?): return min(a, b)
        case let (a, b): return a ?? b
        }
    }
    public var bindings: [SwitchID: SwitchBinding] { naming.bindings }
    public var pulseSwitches: Set<SwitchID> { naming.pulseSwitches }

    // MARK: Start

    private func start() {
        let now = MonotonicClock.now()
        do {
            let inotify = try Inotify()
            do {
                try inotify.watch(directory, for: [.created, .attributes, .deleted, .movedIn])
                self.inotify = inotify
            } catch {
                inotify.close()
                // A machine or container without input devices has no /dev/input: nothing to say
                // unless devices were asked for by name.
                if error.errno != .noSuchFileOrDirectory || selection == .everyMatch || pinned.contains(where: { $0.hasPrefix(join(directory, "")) }) {
                    note("cannot watch \(directory) for switch devices plugged in later: \(error)", problem: error.errno != .noSuchFileOrDirectory)
                }
            }
        } catch {
            note("cannot watch \(directory) for switch devices plugged in later: \(error)", problem: true)
        }

        var refused = [EvdevError]()
        for path in pinned {
            notices += consider(path, at: now, startup: true, refused: &refused)
        }
        if selection != nil {
            let names: [String]
            var listed = true
            do {
                names = try FileSystem.entries(ofDirectory: directory).filter(Self.isEventNode).sorted(by: Self.nodeOrder)
            } catch {
                names = []
                listed = false
                if selection == .everyMatch {
                    note(error.errno == .noSuchFileOrDirectory ? "no input devices: \(directory) does not exist" : "cannot list \(directory): \(error)", problem: true)
                }
            }
            var keyboards = [String]()
            for name in names {
                let path = join(directory, name)
                notices += consider(path, at: now, startup: true, refused: &refused, leftOut: &keyboards)
            }
            // Devices only (`evdev:auto`, a service): a run that starts with none says what it
            // waits for, so that the journal does not stay silent until one is plugged in.
            if selection == .everyMatch, listed, pinned.isEmpty, refused.isEmpty, !slots.contains(where: { $0.state == .open }) {
                note("no switch device in \(directory) yet (none that a profile fits); waiting for one to be plugged in")
            }
            if !keyboards.isEmpty {
                note("not taken as switches beside the terminal keyboard (keyboards only the generic profile fits): \(keyboards.joined(separator: ", ")); to use one: --input evdev:PATH (or evdev:auto)")
            }
        }
        if let first = refused.first {
            let paths = refused.compactMap(\.path).joined(separator: ", ")
            note(refused.count == 1 ? first.description : "cannot open \(refused.count) input devices (\(paths)): \(first.description)", problem: true)
        }
        if !notices.isEmpty { noticesDue = now }
    }

    private func note(_ text: String, problem: Bool = false) {
        notices.append(.status(text))
        if problem { startupProblems.append(text) }
    }

    static func isEventNode(_ name: String) -> Bool {
        name.hasPrefix("event") && Int(name.dropFirst(5)) != nil
    }

    static func nodeOrder(_ a: String, _ b: String) -> Bool {
        (Int(a.dropFirst(5)) ?? 0) < (Int(b.dropFirst(5)) ?? 0)
    }

    private func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    // MARK: One node

    /// Whether `path` is one of the devices named with `evdev:PATH` (also through a symlink).
    private func isPinned(_ path: String) -> Bool {
        pinned.contains { $0 == path || Self.resolve($0) == path }
    }

    static func resolve(_ path: String) -> String? {
        FileSystem.realPath(path)
    }

    private func consider(_ path: String, at now: Double, startup: Bool, refused: inout [EvdevError]) -> [RuntimeInput] {
        var leftOut = [String]()
        let inputs = consider(path, at: now, startup: startup, refused: &refused, leftOut: &leftOut)
        return inputs + leftOut.map {
            .status("\($0): a keyboard only the generic profile fits; not taken as a switch beside the terminal keyboard (to use it: --input evdev:\(path))")
        }
    }

    /// Opens `path` and takes it when it is a switch device (or a device coming back).
    private func consider(_ path: String, at now: Double, startup: Bool, refused: inout [EvdevError],
                          leftOut: inout [String]) -> [RuntimeInput] {
        if slots.contains(where: { $0.state == .open && $0.path == path }) { return [] }
        let named = isPinned(path)
        let device: EvdevDevice
        do {
            device = try EvdevDevice.open(path: path)
        } catch {
            return refusal(error, path: path, named: named, at: now, startup: startup, refused: &refused)
        }
        retries[path] = nil
        let identity = DeviceIdentity(device)

        // A device coming back to its slot (of two identical devices, the one with the same
        // unique id first).
        let returning = slots.filter { $0.state == .gone && Self.sameDevice($0.identity, identity) }
        if let slot = returning.first(where: { $0.identity?.uniq == identity.uniq }) ?? returning.first, let profile = slot.profile {
            return slot.attach(device, identity: identity, profile: profile, naming: naming, returning: true, at: now)
        }

        var profile: SwitchProfile?
        var inputs = [RuntimeInput]()
        if named {
            profile = chosen ?? catalog.bestMatch(for: identity)?.profile
            if profile == nil {
                let text = "\(path) \(identity.quoted): no switch profile fits it; choose one with --profile FILE, or make one with `switchscan learn --device \(path)`"
                if startup { startupProblems.append(text) }
                inputs.append(.status(text))
            }
        } else if let selection {
            if let chosen {
                profile = ProfileCatalog.match(chosen, identity) != nil ? chosen : nil
            } else if let best = catalog.bestMatch(for: identity) {
                if best.specificity > .generic || selection == .everyMatch || !Self.isKeyboard(identity) {
                    profile = best.profile
                } else {
                    leftOut.append("\(path) \(identity.quoted)")
                }
            }
        }
        guard let profile else {
            device.close()
            ignored.insert(path)
            return inputs
        }
        guard let slot = slots.first(where: { $0.state == .empty }) else {
            device.close()
            ignored.insert(path)
            return inputs + [.status("\(path) \(identity.quoted): not taken: already \(slots.count) switch devices")]
        }
        return inputs + slot.attach(device, identity: identity, profile: profile, naming: naming, returning: false, at: now)
    }

    /// An open that failed: permission problems are tried again for a while (udev may not have
    /// set the node's group yet); a node named with `evdev:PATH` says what is wrong with it.
    private func refusal(_ error: EvdevError, path: String, named: Bool, at now: Double, startup: Bool,
                         refused: inout [EvdevError]) -> [RuntimeInput] {
        switch error.kind {
        case .permissionDenied:
            if startup {
                refused.append(error)
                return []
            }
            var retry = retries[path] ?? Retry(attempts: 0, due: now, giveUpAt: now + Self.permissionGrace, lastError: error)
            retry.attempts += 1
            retry.lastError = error
            if now >= retry.giveUpAt {
                retries[path] = nil
                ignored.insert(path)
                return [.status(error.description)]
            }
            retry.due = min(retry.giveUpAt, now + 0.05 * Double(1 << min(retry.attempts, 6)))
            retries[path] = retry
            return []
        case .notFound, .deviceGone:
            retries[path] = nil
            if named, startup {
                return [.status("\(path): no such device now; waiting for it to appear")]
            }
            return []
        default:
            retries[path] = nil
            ignored.insert(path)
            guard named else { return [] }
            if startup { startupProblems.append(error.description) }
            return [.status(error.description)]
        }
    }

    /// The same device (after an unplug): bus, vendor, product and name. Neither the physical
    /// path nor the unique id is compared: a replugged USB device may be on another port, and
    /// some devices put the port in their serial number (QEMU's usb-kbd: `68284-0000:00:01.0-1`).
    static func sameDevice(_ a: DeviceIdentity?, _ b: DeviceIdentity) -> Bool {
        guard let a else { return false }
        return a.bus == b.bus && a.vendor == b.vendor && a.product == b.product && a.name == b.name
    }

    /// A device with letter keys (Q and A): a keyboard someone types on.
    static func isKeyboard(_ identity: DeviceIdentity) -> Bool {
        guard let codes = identity.keyCodes else { return false }
        return codes.contains(16) && codes.contains(30)  // KEY_Q, KEY_A
    }

    // MARK: Hotplug

    public func readable(at now: Double) -> [RuntimeInput] {
        var inputs = [RuntimeInput]()
        var changed = [(String, UInt32)]()
        var overflow = false
        if let inotify {
            do {
                let pending = try inotify.readPending()
                changed = pending.events.map { ($0.name, $0.mask) }
                overflow = pending.overflow
            } catch {
                inputs.append(.status("\(directory): reading inotify failed (\(error)); devices plugged in from now on are not seen"))
                close()
            }
        }
        if overflow {
            // Events were lost: look at every node again.
            let names = (try? FileSystem.entries(ofDirectory: directory).filter(Self.isEventNode).sorted(by: Self.nodeOrder)) ?? []
            ignored.removeAll()
            changed += names.map { ($0, Inotify.Change.created.rawValue) }
        }
        var refused = [EvdevError]()
        for (name, mask) in changed where Self.isEventNode(name) || pinned.contains(where: { $0.hasSuffix("/" + name) }) {
            let path = join(directory, name)
            if mask & Inotify.Change.deleted.rawValue != 0 {
                ignored.remove(path)
                retries[path] = nil
                continue
            }
            if mask & Inotify.Change([.created, .movedIn]).rawValue != 0 { ignored.remove(path) }
            // IN_ATTRIB of a node already looked at (or open) says nothing new, unless its open was refused.
            if ignored.contains(path), retries[path] == nil { continue }
            inputs += consider(path, at: now, startup: false, refused: &refused)
        }
        return inputs
    }

    public func deadlineReached(at now: Double) -> [RuntimeInput] {
        var inputs = [RuntimeInput]()
        if let due = noticesDue, due <= now {
            inputs += notices
            notices = []
            noticesDue = nil
        }
        var refused = [EvdevError]()
        for (path, retry) in retries.sorted(by: { $0.key < $1.key }) where retry.due <= now {
            inputs += consider(path, at: now, startup: false, refused: &refused)
        }
        return inputs
    }

    public func close() {
        inotify?.close()
        inotify = nil
    }
}
