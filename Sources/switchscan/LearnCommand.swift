import ArgumentParser
import DeviceProfiles
import Evdev
import Foundation
import Runtime
import SwitchInput
import Platform

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
            ($XDG_CONFIG_HOME/switchscan/switches). An existing file is replaced only with --force, \
            and only a regular file: a folder, a FIFO, a device or the recording being read is \
            refused before any switch is pressed (exit 1).
            """)

    @Option(help: ArgumentHelp("The evdev node to learn from.", valueName: "/dev/input/eventN"), completion: Completions.devices)
    var device: String?

    @Option(name: .customLong("from-evemu"), help: ArgumentHelp("Learn from an evemu recording instead of a live device.", valueName: "file"), completion: .file())
    var fromEvemu: String?

    @Option(help: ArgumentHelp("The profile's name (default: the device's name).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("How many switches (1 to 7).", valueName: "n"))
    var switches: Int = 2

    @Option(help: ArgumentHelp("The switches' actions in order, comma-separated (instead of --switches).", valueName: "select,next,…"))
    var actions: String?

    @Option(help: ArgumentHelp("Where to write the profile (default: <profile folder>/<name>.yaml).", valueName: "file"), completion: Completions.yamlFiles)
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
                throw ValidationError("--actions: unknown switch action '\(name)'; expected some of: \(known)")
            }
            return action
        }
        guard !list.isEmpty else { throw ValidationError("--actions: give at least one action (\(known))") }
        return list
    }

    // MARK: From a recording

    func learnFromRecording(_ path: String, actions: [SwitchAction]) throws -> (DeviceIdentity, SwitchLearner) {
        let text: String
        switch RegularFile.readText(path, maxBytes: EvemuRecording.maxBytes) {
        case .success(let value): text = value
        case .failure(let failure): throw CommandFailure(failure.problem(file: path).description, status: .unloadable)
        }
        let recording: EvemuRecording
        do {
            recording = try EvemuRecording.parse(text, file: path)
        } catch {
            throw CommandFailure(error.description, status: .unloadable)
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
            // The device named on the command line cannot be read: an input, as a file is (2).
            throw CommandFailure(error.description, status: .unloadable)
        }
        defer { device.close() }
        let evdevIdentity = device.identity
        let identity = DeviceIdentity(
            name: evdevIdentity.name, bus: evdevIdentity.bus, vendor: evdevIdentity.vendor, product: evdevIdentity.product,
            version: evdevIdentity.version, phys: evdevIdentity.phys, uniq: evdevIdentity.uniq, keyCodes: Set(device.supportedKeyCodes()))
        _ = try destination(profileName: name ?? identity.name)
        print("Learning \(path): \"\(identity.name)\" \(identity.shortID)")
        // Every wait below goes through the reactor: Ctrl-C or SIGTERM ends it at once, with the
        // device released and nothing written (exit 128 + the signal).
        let reactor: Reactor
        do {
            reactor = try Reactor()
        } catch {
            throw CommandFailure(error.description)
        }
        let run = LearnRun(device: device, actions: actions, timeout: timeout, reactor: reactor) { message in
            switch message {
            case .releaseKeys:
                print("Release all keys of the device…")
            case let .press(index, count, action):
                print("Press switch \(index + 1) of \(count) (\(action.rawValue)), then release it…")
            case .learned(let learned):
                print("  switch \(learned.id): \(learned.codeName) → \(learned.action.rawValue)")
            case let .alreadyLearned(code, id):
                print("  \(KeyCodes.name(for: code) ?? String(code)) is already switch \(id); press another switch")
            }
            FileIO.flushStandardOutput()
        }
        do {
            try device.setClockMonotonic()
            if let ending = try run.waitForKeysReleased() { try fail(ending, run: run, path: path) }
            try device.grab()
        } catch let failure as CommandFailure {
            throw failure
        } catch let failure as ExitCode {
            throw failure
        } catch {
            throw CommandFailure("\(error)")
        }
        defer { try? device.ungrab() }
        let ending: LearnRun.Ending
        do {
            ending = try run.learn()
        } catch {
            throw CommandFailure("\(error)")
        }
        if ending != .learned { try fail(ending, run: run, path: path) }
        try write(learner: run.learner, device: identity, source: path)
    }

    /// Why learning stopped before every switch was learned, as the command's failure.
    func fail(_ ending: LearnRun.Ending, run: LearnRun, path: String) throws -> Never {
        let actions = run.learner.actions
        switch ending {
        case .learned:
            throw CommandFailure("internal error: learning ended without a reason")
        case .keysStayedDown:
            throw CommandFailure("\(path): keys stayed down for \(formatSeconds(timeout)) s; release them and try again")
        case .noPress(let index):
            throw CommandFailure("no switch was pressed within \(formatSeconds(timeout)) s (switch \(index + 1), \(actions[index].rawValue)); nothing was written")
        case .deviceGone:
            throw CommandFailure("\(path): the device disappeared while learning; nothing was written")
        case .signal(let signal):
            // As the shell expects after that signal; the device is released on the way out.
            throw ExitCode(128 + signal)
        }
    }

    // MARK: Writing

    func destination(profileName: String) throws -> String {
        let path = output ?? (SwitchProfileFiles.userDirectory as NSString).appendingPathComponent(ProfileFileWriter.fileName(for: profileName))
        // What the writer would refuse (a FIFO, a device, a folder, the recording itself) is
        // said before a switch is pressed; the write checks again.
        let exists: Bool
        do {
            exists = try SafeFileWriter.checkTarget(path, inputs: inputsRead).exists
        } catch {
            throw CommandFailure(error.description)
        }
        if !force, exists {
            throw CommandFailure("\(path) exists; use --force to replace it")
        }
        return path
    }

    /// The files this command reads, which its output never replaces.
    var inputsRead: [String] { [fromEvemu, device].compactMap { $0 } }

    func write(learner: SwitchLearner, device: DeviceIdentity, source: String) throws {
        let profileName = name ?? device.name
        let path = try destination(profileName: profileName)
        let profile = learner.profile(name: profileName, device: device, pulseOnly: pulseOnly, file: path)
        let text = profile.yamlText(comments: [
            "Learned by `switchscan learn` from \(source).",
            "Device: \"\(device.name)\" \(device.shortID) version \(hex4(device.version))",
            "Format: /usr/share/doc/switchscan/switch-profiles.md.gz (Devices/switches/README.md in the source tree)",
        ])
        // The text must read back: a profile that cannot be loaded is never written.
        do {
            _ = try SwitchProfile.parse(yaml: text, file: path)
        } catch {
            throw CommandFailure("internal error: the learned profile does not read back:\n\(error)")
        }
        do {
            try SafeFileWriter.write(text, to: path, replace: force, inputs: inputsRead)
        } catch let error as SafeFileWriter.WriteError where error.exists {
            throw CommandFailure("\(path) exists; use --force to replace it")
        } catch {
            throw CommandFailure("\(error)")
        }
        print("Wrote \(path): \(profile.switches.count) switch\(profile.switches.count == 1 ? "" : "es") for \"\(device.name)\"")
    }
}

func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
}

/// A learned profile's file name (written by `SafeFileWriter`: without `--force`, a file that
/// appeared meanwhile is never replaced, as the check is made under the folder's lock).
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
}
