import ArgumentParser
import DeviceProfiles
import Evdev
import Foundation
import Runtime
import SwitchInput

struct LearnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Make a switch profile: press each switch in turn, and the profile is written.",
        discussion: """
            With --device, the device is grabbed (its keys reach no other program while learning) \
            once no key is down, and you are asked to press each switch in turn; the actions are \
            select, next, previous, menu, tap, escape, stop, in that order (or --actions). With \
            --from-evemu, the presses are taken from an evemu recording instead. The profile matches \
            the device by bus, vendor, product and name, and is written atomically (a temporary file, \
            then a rename) to --output, or to the user's profile folder \
            ($XDG_CONFIG_HOME/switchscan/switches). An existing file is replaced only with --force.
            """)

    @Option(help: ArgumentHelp("The evdev node to learn from.", valueName: "/dev/input/eventN"))
    var device: String?

    @Option(name: .customLong("from-evemu"), help: ArgumentHelp("Learn from an evemu recording instead of a live device.", valueName: "file"))
    var fromEvemu: String?

    @Option(help: ArgumentHelp("The profile's name (default: the device's name).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("How many switches (1 to 7).", valueName: "n"))
    var switches: Int = 2

    @Option(help: ArgumentHelp("The switches' actions in order, comma-separated (instead of --switches).", valueName: "select,next,…"))
    var actions: String?

    @Option(help: ArgumentHelp("Where to write the profile (default: <profile folder>/<name>.yaml).", valueName: "file"))
    var output: String?

    @Flag(help: "Replace an existing profile.")
    var force = false

    @Flag(name: .customLong("pulse-only"), help: "The interface sends a pulse per press, with no release timing.")
    var pulseOnly = false

    @Option(help: ArgumentHelp("Seconds to wait for each switch (live device).", valueName: "seconds"))
    var timeout: Double = 30

    func validate() throws {
        if (device == nil) == (fromEvemu == nil) {
            throw ValidationError("give either --device /dev/input/eventN or --from-evemu FILE")
        }
        if actions == nil, !(1...SwitchAction.allCases.count).contains(switches) {
            throw ValidationError("--switches must be between 1 and \(SwitchAction.allCases.count)")
        }
        if !(timeout > 0 && timeout <= 86_400) { throw ValidationError("--timeout must be from a positive number of seconds up to 86400 (a day); found \(timeout)") }
    }

    func run() throws {
        let actionList = try chosenActions()
        if let fromEvemu {
            let (identity, learner) = try learnFromRecording(fromEvemu, actions: actionList)
            try write(learner: learner, device: identity, source: "the evemu recording \(fromEvemu)")
        } else if let device {
            try learnLive(device, actions: actionList)
        }
    }

    func chosenActions() throws -> [SwitchAction] {
        guard let actions else { return SwitchLearner.defaultActions(count: switches) }
        let names = actions.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let known = SwitchAction.allCases.map(\.rawValue).joined(separator: ", ")
        let list = try names.map { name -> SwitchAction in
            guard let action = SwitchAction(rawValue: name) else {
                throw CommandFailure("--actions: unknown switch action '\(name)'; expected some of: \(known)")
            }
            return action
        }
        guard !list.isEmpty else { throw CommandFailure("--actions: give at least one action (\(known))") }
        return list
    }

    // MARK: From a recording

    func learnFromRecording(_ path: String, actions: [SwitchAction]) throws -> (DeviceIdentity, SwitchLearner) {
        let text: String
        switch RegularFile.readText(path, maxBytes: EvemuRecording.maxBytes) {
        case .success(let value): text = value
        case .failure(let failure): throw CommandFailure(failure.problem(file: path).description)
        }
        let recording: EvemuRecording
        do {
            recording = try EvemuRecording.parse(text, file: path)
        } catch {
            throw CommandFailure(error.description)
        }
        var learner = SwitchLearner(actions: actions)
        // Check the destination before the work, so a refusal comes first.
        _ = try destination(profileName: name ?? recording.name)
        for event in recording.events where !learner.isComplete {
            _ = learner.handle(event)
        }
        _ = learner.finish()
        guard learner.isComplete else {
            throw CommandFailure("\(path): the recording has \(learner.switches.count) distinct key press\(learner.switches.count == 1 ? "" : "es"); \(actions.count) switches were asked for (--switches or --actions)")
        }
        for learned in learner.switches {
            print("switch \(learned.id): \(learned.codeName) → \(learned.action.rawValue)")
        }
        return (recording.identity, learner)
    }

    // MARK: From a live device

    func learnLive(_ path: String, actions: [SwitchAction]) throws {
        let device: EvdevDevice
        do {
            device = try EvdevDevice.open(path: path)
        } catch {
            throw CommandFailure(error.description)
        }
        defer { device.close() }
        let evdevIdentity = device.identity
        let identity = DeviceIdentity(
            name: evdevIdentity.name, bus: evdevIdentity.bus, vendor: evdevIdentity.vendor, product: evdevIdentity.product,
            version: evdevIdentity.version, phys: evdevIdentity.phys, uniq: evdevIdentity.uniq, keyCodes: Set(device.supportedKeyCodes()))
        _ = try destination(profileName: name ?? identity.name)
        print("Learning \(path): \"\(identity.name)\" \(identity.shortID)")
        do {
            try device.setClockMonotonic()
            try waitForKeysReleased(device)
            try device.grab()
        } catch let error as EvdevError {
            throw CommandFailure(error.description)
        }
        defer { try? device.ungrab() }
        var learner = SwitchLearner(actions: actions)
        while !learner.isComplete {
            let index = learner.currentIndex
            print("Press switch \(index + 1) of \(actions.count) (\(actions[index].rawValue)), then release it…")
            fflush(nil)
            let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
            while learner.currentIndex == index {
                guard ContinuousClock.now < deadline else {
                    throw CommandFailure("no switch was pressed within \(formatSeconds(timeout)) s (switch \(index + 1), \(actions[index].rawValue)); nothing was written")
                }
                try waitReadable(device, until: deadline)
                let batch: EvdevDevice.ReadBatch
                do {
                    batch = try device.readAvailable()
                } catch {
                    throw CommandFailure(error.description)
                }
                for event in batch.events {
                    let step = learner.handle(DeviceEvent(
                        seconds: event.seconds, microseconds: event.microseconds, type: event.type, code: event.code, value: event.value))
                    switch step {
                    case .learned(let learned):
                        print("  switch \(learned.id): \(learned.codeName) → \(learned.action.rawValue)")
                    case .alreadyLearned(let code, let id):
                        print("  \(KeyCodes.name(for: code) ?? String(code)) is already switch \(id); press another switch")
                    case .nothing, .pressed:
                        break
                    }
                }
                if batch.deviceGone {
                    throw CommandFailure("\(path): the device disappeared while learning; nothing was written")
                }
            }
        }
        try write(learner: learner, device: identity, source: path)
    }

    /// Waits (up to `timeout`) until no key is down (`EVIOCGKEY`), so that the grab does not
    /// keep a key stuck down for other programs.
    func waitForKeysReleased(_ device: EvdevDevice) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var told = false
        while try device.keysDown() {
            guard ContinuousClock.now < deadline else {
                throw CommandFailure("\(device.path): keys stayed down for \(formatSeconds(timeout)) s; release them and try again")
            }
            if !told {
                print("Release all keys of the device…")
                told = true
            }
            usleep(50_000)
        }
    }

    /// `poll` on the device until it is readable or the deadline passes.
    func waitReadable(_ device: EvdevDevice, until deadline: ContinuousClock.Instant) throws {
        if (try? device.hasEventPending()) == true { return }
        let remaining = deadline - ContinuousClock.now
        let milliseconds = max(0, Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
        var descriptor = pollfd(fd: device.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let result = poll(&descriptor, 1, milliseconds)
        if result < 0, errno != EINTR {
            throw CommandFailure("\(device.path): poll: \(Errno(rawValue: errno))")
        }
    }

    // MARK: Writing

    func destination(profileName: String) throws -> String {
        let path = output ?? (SwitchProfileFiles.userDirectory as NSString).appendingPathComponent(ProfileFileWriter.fileName(for: profileName))
        if !force, FileManager.default.fileExists(atPath: path) {
            throw CommandFailure("\(path) exists; use --force to replace it")
        }
        return path
    }

    func write(learner: SwitchLearner, device: DeviceIdentity, source: String) throws {
        let profileName = name ?? device.name
        let path = try destination(profileName: profileName)
        let profile = learner.profile(name: profileName, device: device, pulseOnly: pulseOnly, file: path)
        let text = profile.yamlText(comments: [
            "Learned by `switchscan learn` from \(source).",
            "Device: \"\(device.name)\" \(device.shortID) version \(hex4(device.version))",
            "Format: Devices/switches/README.md",
        ])
        // The text must read back: a profile that cannot be loaded is never written.
        do {
            _ = try SwitchProfile.parse(yaml: text, file: path)
        } catch {
            throw CommandFailure("internal error: the learned profile does not read back:\n\(error)")
        }
        do {
            try ProfileFileWriter.write(text, to: path, replace: force)
        } catch let failure as CommandFailure {
            throw failure
        }
        print("Wrote \(path): \(profile.switches.count) switch\(profile.switches.count == 1 ? "" : "es") for \"\(device.name)\"")
    }
}

private func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
}

/// Writing a profile atomically: a temporary file in the same folder, flushed, then renamed over
/// the destination (with `replace`) or linked to it (without: `link` fails if the destination
/// appeared meanwhile, so a profile is never replaced by accident).
enum ProfileFileWriter {
    /// `my-foot-switch.yaml` from a profile name.
    static func fileName(for profileName: String) -> String {
        var slug = ""
        for scalar in profileName.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return (slug.isEmpty ? "switch-interface" : String(slug.prefix(80))) + ".yaml"
    }

    static func write(_ text: String, to path: String, replace: Bool) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let directory = folder.isEmpty ? "." : folder
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(directory): cannot create the folder: \((error as NSError).localizedDescription)")
        }
        let base = (path as NSString).lastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".\(base).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CommandFailure("\(temporary): open: \(Errno(rawValue: errno))")
        }
        var failure: String?
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count, failure == nil {
            let result = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno != EINTR { failure = "write: \(Errno(rawValue: errno))" }
            } else {
                written += result
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = "fsync: \(Errno(rawValue: errno))" }
        if close(fd) != 0, failure == nil { failure = "close: \(Errno(rawValue: errno))" }
        if let failure {
            unlink(temporary)
            throw CommandFailure("\(temporary): \(failure)")
        }
        if replace {
            if rename(temporary, path) != 0 {
                let error = Errno(rawValue: errno)
                unlink(temporary)
                throw CommandFailure("\(path): rename: \(error)")
            }
        } else {
            if link(temporary, path) != 0 {
                let error = Errno(rawValue: errno)
                if error.rawValue == EEXIST || ![EPERM, EOPNOTSUPP, EXDEV, EMLINK].contains(error.rawValue) { unlink(temporary) }
                if error.rawValue == EEXIST { throw CommandFailure("\(path) exists; use --force to replace it") }
                // A file system without hard links: check, then rename (a narrow race remains).
                guard [EPERM, EOPNOTSUPP, EXDEV, EMLINK].contains(error.rawValue) else {
                    throw CommandFailure("\(path): link: \(error)")
                }
                if FileManager.default.fileExists(atPath: path) { throw CommandFailure("\(path) exists; use --force to replace it") }
                if rename(temporary, path) != 0 {
                    let error = Errno(rawValue: errno)
                    unlink(temporary)
                    throw CommandFailure("\(path): rename: \(error)")
                }
                return
            }
            unlink(temporary)
        }
        // The rename is durable once the folder is flushed.
        let folderFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            _ = fsync(folderFD)
            close(folderFD)
        }
    }
}
