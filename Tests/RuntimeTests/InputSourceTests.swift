import DeviceProfiles
import Foundation
@testable import Runtime
import SwitchInput
import Testing
@testable import Platform

/// The parts of the inputs that need no device: the `--input` vocabulary, what `build` makes of
/// it, the replay schedule of a recording (driven with made-up clock readings), raw streams from
/// a file, switch ids across profiles, and inotify records.
@Suite("Input sources")
struct InputSourceTests {
    // MARK: --input

    @Test func specsParse() throws {
        #expect(try InputSources.Spec(parsing: "auto") == .auto)
        #expect(try InputSources.Spec(parsing: "terminal") == .terminal)
        #expect(try InputSources.Spec(parsing: "evdev:/dev/input/event3") == .evdev(path: "/dev/input/event3"))
        #expect(try InputSources.Spec(parsing: "evdev:auto") == .evdev(path: "auto"))
        #expect(try InputSources.Spec(parsing: "evemu:rec.evemu") == .evemu(path: "rec.evemu"))
        #expect(try InputSources.Spec(parsing: "raw:/tmp/fifo") == .raw(path: "/tmp/fifo"))
        #expect(throws: InputSources.InputSpecError.self) { try InputSources.Spec(parsing: "evemu:") }
        #expect(throws: InputSources.InputSpecError.self) { try InputSources.Spec(parsing: "usb") }
    }

    func build(_ specs: [InputSources.Spec], profile: String? = nil, fast: Bool = false,
               directory: String = "/nonexistent-input") throws -> InputSources.Made {
        try InputSources.build(specs, profile: profile, profileDirectories: [Self.profiles], fast: fast, inputDirectory: directory)
    }

    static let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Devices/switches").path

    @Test func noInputMeansAutoTheTerminalAndTheDeviceWatcher() throws {
        let made = try build([])
        #expect(made.terminal)
        #expect(made.sources.first is DeviceWatcher)
        #expect(made.sources.filter { $0 is EvdevInput }.count == 16, "the watcher's slots")
        // A machine without /dev/input: nothing to say about it beside the terminal.
        #expect(made.problems.isEmpty)
        #expect(made.sources.compactMap(\.deadline).isEmpty, "\(made.sources.map(\.name))")
    }

    @Test func terminalOnlyHasNoSources() throws {
        let made = try build([.terminal])
        #expect(made.terminal)
        #expect(made.sources.isEmpty)
    }

    @Test func evdevAutoHasNoTerminalAndSaysWhenThereAreNoDevices() throws {
        let made = try build([.evdev(path: "auto")])
        #expect(!made.terminal)
        #expect(made.problems == ["no input devices: /nonexistent-input does not exist"], "\(made.problems)")
        let watcher = try #require(made.sources.first as? DeviceWatcher)
        // The bindings of every profile a device may get: the generic keyboard's among them.
        #expect(watcher.bindings["space"] == SwitchBinding(action: .select))
        #expect(watcher.bindings["enter"] == SwitchBinding(action: .next))
        #expect(watcher.bindings["fire-1"] == SwitchBinding(action: .select))
    }

    @Test func aNodeThatIsNotADeviceIsAProblem() throws {
        let made = try build([.evdev(path: "/dev/null"), .terminal])
        #expect(made.terminal)
        #expect(made.problems.count == 1)
        #expect(made.problems.first?.hasPrefix("/dev/null is not an evdev input device") == true, "\(made.problems)")
    }

    @Test func fastNeedsARecordingAndAnUnknownProfileStopsTheRun() throws {
        #expect(throws: InputSetupError.self) { try build([.terminal], fast: true) }
        #expect(throws: InputSetupError.self) { try build([.raw(path: "/dev/null")], profile: "no-such-profile") }
        // A profile by its id.
        let made = try build([.raw(path: "/dev/null")], profile: "pretorian-quester")
        let raw = try #require(made.sources.first as? RawStreamInput)
        #expect(raw.profile.id == "pretorian-quester")
        #expect(raw.bindings["enter"] == SwitchBinding(action: .select))
    }

    // MARK: Recordings

    static let recording = """
        N: Pedal
        I: 0003 0c45 7403 0001
        B: 01 00 00 00 10 00 00 00 00
        B: 01 00 00 00 00 00 00 00 02
        E: 10.000001 0001 001c 0001
        E: 10.000001 0000 0000 0000
        E: 10.250001 0001 001c 0000
        E: 10.250001 0000 0000 0000
        E: 11.000001 0001 0039 0001
        E: 11.000001 0001 0039 0002
        E: 11.500001 0001 0039 0000

        """

    func recordingFile(_ text: String = Self.recording) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("input-source-\(UUID().uuidString).evemu").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func recording(fast: Bool, path: String) throws -> RecordingInput {
        let catalog = ProfileFiles.loadCatalog(directories: [Self.profiles]).catalog
        return RecordingInput(path: path, chosen: nil, catalog: catalog, generic: ProfileFiles.builtInGenericKeyboard, fast: fast)
    }

    static func edges(_ inputs: [RuntimeInput]) -> [SwitchEdge] {
        inputs.compactMap { if case .edge(let edge) = $0 { edge } else { nil } }
    }

    static func ended(_ inputs: [RuntimeInput]) -> Bool {
        inputs.contains { if case .endOfInput = $0 { true } else { false } }
    }

    @Test func aRecordingIsReplayedAtItsRecordedOffsetsFromTheStart() throws {
        let path = try recordingFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try recording(fast: false, path: path)
        #expect(input.problem == nil)
        // The vendor/product profile of the recorded device (a PCsensor foot switch).
        #expect(input.profile?.id == "pcsensor-footswitch")
        #expect(input.schedule.map(\.offset) == [0, 0, 0.25, 0.25, 1, 1, 1.5])
        #expect(input.deadline != nil, "due at once, to start")

        // The run's loop calls it at its deadlines; here with made-up clock readings.
        var inputs = input.deadlineReached(at: 100)
        #expect(Self.edges(inputs) == [SwitchEdge(switchID: "enter", kind: .down, time: 100)])
        #expect(inputs.contains { if case .status(let text) = $0 { text.contains("7 events over 1.500 s") } else { false } })
        #expect(input.deadline == 100.25)
        // Called late: what was due is given, dated when it was recorded.
        inputs = input.deadlineReached(at: 101.1)
        #expect(Self.edges(inputs) == [
            SwitchEdge(switchID: "enter", kind: .up, time: 100.25),
            SwitchEdge(switchID: "space", kind: .down, time: 101),
            SwitchEdge(switchID: "space", kind: .repeat, time: 101),
        ])
        #expect(!Self.ended(inputs))
        #expect(input.deadline == 101.5)
        inputs = input.deadlineReached(at: 101.5)
        #expect(Self.edges(inputs) == [SwitchEdge(switchID: "space", kind: .up, time: 101.5)])
        #expect(Self.ended(inputs))
        #expect(input.deadline == nil)
    }

    @Test func fastGivesEverythingAtOnceWithTheRecordedSpacing() throws {
        let path = try recordingFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try recording(fast: true, path: path)
        let inputs = input.deadlineReached(at: 50)
        #expect(Self.edges(inputs).map(\.time) == [50, 50.25, 51, 51, 51.5])
        #expect(Self.ended(inputs))
        #expect(input.deadline == nil)
    }

    @Test func aLongRecordingReplayedFastIsGivenAcrossTurnsOfTheLoop() throws {
        // 3,000 presses and releases of Enter, 0.2 s apart: given at most `eventsPerTurn` at a
        // time, each call due again at once, so that the loop sees --duration and signals between.
        var text = "N: Pedal\nI: 0003 0c45 7403 0001\nB: 01 00 00 00 10 00 00 00 00\n"
        for index in 0..<3000 {
            let micros = 1 + index * 200_000
            text += "E: \(micros / 1_000_000).\(String(format: "%06d", micros % 1_000_000)) 0001 001c \(index % 2 == 0 ? 1 : 0)\n"
        }
        let path = try recordingFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try recording(fast: true, path: path)
        #expect(input.problem == nil, "\(input.problem ?? "")")
        var edges = [SwitchEdge]()
        var calls = 0
        var ended = false
        while !ended, calls < 100 {
            let now = 50 + Double(calls) * 0.001
            let inputs = input.deadlineReached(at: now)
            let given = Self.edges(inputs)
            #expect(given.count <= RecordingInput.eventsPerTurn)
            edges += given
            ended = Self.ended(inputs)
            calls += 1
            if !ended { #expect(input.deadline == now, "due again at once") }
        }
        #expect(ended)
        #expect(calls == 3, "3,000 events at 1,024 a turn")
        // Dated as recorded from the first call's moment, whatever call gave them.
        #expect(edges.count == 3000)
        #expect(edges.last.map { abs($0.time - (50 + 2999 * 0.2)) < 1e-6 } == true)
    }

    /// A recording of `count` presses and releases of Enter, 0.1 s apart, as evemu-record writes.
    static func longRecording(_ count: Int) -> String {
        var text = "# EVEMU 1.3\nN: Pedal\nI: 0003 0c45 7403 0001\nB: 01 00 00 00 10 00 00 00 00\n"
        text.reserveCapacity(count * 60)
        for index in 0..<count {
            let micros = 1 + index * 100_000
            let time = "\(micros / 1_000_000).\(String(format: "%06d", micros % 1_000_000))"
            text += "E: \(time) 0001 001c \(index % 2 == 0 ? "0001" : "0000")\n"
            text += "E: \(time) 0000 0000 0000\t# ------------ SYN_REPORT (0) ----------\n"
        }
        return text
    }

    @Test func aLongRecordingIsReadAsItIsReplayedNotHeldWhole() throws {
        // 40,000 events (1.7 MB): a megabyte read as the run starts, the rest a slice per turn.
        let path = try recordingFile(Self.longRecording(20000))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try recording(fast: true, path: path)
        #expect(input.problem == nil, "\(input.problem ?? "")")
        let initial = input.schedule.count
        #expect(initial > 0 && initial < 40000, "\(initial) events read as the run started")
        var edges = [SwitchEdge]()
        var calls = 0
        var ended = false
        while !ended, calls < 10000 {
            let inputs = input.deadlineReached(at: 50 + Double(calls) * 0.001)
            let given = Self.edges(inputs)
            #expect(given.count <= RecordingInput.eventsPerTurn)
            #expect(input.schedule.count <= initial, "held: \(input.schedule.count)")
            edges += given
            ended = Self.ended(inputs)
            calls += 1
        }
        #expect(ended)
        #expect(edges.count == 20000)
        #expect(edges.last.map { abs($0.time - (50 + 19999 * 0.1)) < 1e-6 } == true)
        #expect(inputs(of: input).isEmpty)
    }

    func inputs(of input: RecordingInput) -> [RuntimeInput] { input.deadlineReached(at: 1e6) }

    @Test func aProblemFoundLateInALongRecordingStopsTheReplayThere() throws {
        var text = Self.longRecording(20000)
        let bad = text.range(of: "E: 1900.000001 0001 001c 0001\n")!
        text.replaceSubrange(bad, with: "E: 1900.000001 0001 001c\n")
        let line = text[..<bad.lowerBound].filter { $0 == "\n" }.count + 1
        let path = try recordingFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try recording(fast: true, path: path)
        #expect(input.problem == nil, "found beyond the first megabyte")
        var statuses = [String]()
        var edges = 0
        var ended = false
        var calls = 0
        while !ended, calls < 10000 {
            let inputs = input.deadlineReached(at: 50 + Double(calls) * 0.001)
            edges += Self.edges(inputs).count
            statuses += inputs.compactMap { if case .status(let text) = $0 { text } else { nil } }
            ended = Self.ended(inputs)
            calls += 1
        }
        #expect(edges == 19000, "the events before the bad line")
        #expect(statuses.last?.contains("\(path):\(line):1: error: an event line needs a time, a type, a code and a value") == true, "\(statuses.last ?? "")")
        #expect(statuses.last?.hasSuffix("; the replay stops there") == true)
    }

    @Test func aMalformedRecordingEndsAtOnceWithItsPosition() throws {
        let path = try recordingFile(Self.recording.replacingOccurrences(of: "E: 10.250001 0001 001c 0000", with: "E: 10.25 0001 001c 0000"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try recording(fast: false, path: path)
        #expect(input.problem?.contains("\(path):7:4: error: the event time '10.25' is not <seconds>.<6 digits") == true, "\(input.problem ?? "")")
        let inputs = input.deadlineReached(at: 1)
        #expect(Self.edges(inputs).isEmpty)
        #expect(Self.ended(inputs))
    }

    // MARK: Raw streams

    @Test func aRawFileIsReadToItsEndAndATruncatedRecordIsReported() throws {
        var bytes = [UInt8]()
        for (time, code, value) in [(7.5, UInt16(57), Int32(1)), (7.6, 57, 0), (7.9, 28, 1)] {
            bytes += RawEventDecoder.encode(DeviceEvent(time: time, type: 1, code: code, value: value))
        }
        bytes += [1, 2, 3]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = RawStreamInput(path: path, profile: ProfileFiles.builtInGenericKeyboard)
        #expect(input.problem == nil)
        #expect(input.descriptor != nil)
        let inputs = input.readable(at: 20)
        let edges = Self.edges(inputs)
        #expect(edges.map(\.switchID) == ["space", "space", "enter"])
        #expect(edges.map(\.kind) == [.down, .up, .down])
        // Read together, so all of them happened by the moment read: the newest is dated then,
        // and the records keep their spacing.
        #expect(edges.map { ($0.time - 20) * 1000 }.map { $0.rounded() } == [-400, -300, 0])
        let statuses = inputs.compactMap { if case .status(let text) = $0 { text } else { nil } }
        #expect(statuses.contains { $0.contains("3 of 24 bytes at byte offset 72") }, "\(statuses)")
        #expect(Self.ended(inputs))
        #expect(input.descriptor == nil, "closed at the end")
    }

    @Test func aLongRawStreamIsReadAcrossTurnsOfTheLoop() throws {
        // 8,000 records (192 KB): one call reads at most `bytesPerTurn`, so that a stream that
        // never ends (a device node of zeros, a writer faster than the decoding) cannot hold the
        // loop in one call.
        var bytes = [UInt8]()
        for index in 0..<8000 {
            bytes += RawEventDecoder.encode(DeviceEvent(time: 1 + Double(index) * 0.2, type: 1, code: 28, value: Int32(1 - index % 2)))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = RawStreamInput(path: path, profile: ProfileFiles.builtInGenericKeyboard)
        var edges = 0
        var calls = 0
        var ended = false
        while !ended, calls < 100 {
            let inputs = input.readable(at: 2000 + Double(calls))
            let given = Self.edges(inputs).count
            #expect(given <= RawStreamInput.bytesPerTurn / RawEventDecoder.recordSize + 1)  // + a record begun in the previous read
            edges += given
            ended = Self.ended(inputs)
            calls += 1
        }
        #expect(ended)
        #expect(edges == 8000)
        #expect(calls == 3 || calls == 4, "192,000 bytes at 65,536 a turn: \(calls) calls")
    }

    @Test func aRawPathThatCannotBeOpenedEndsWithAStatus() throws {
        let input = RawStreamInput(path: "/nonexistent/stream", profile: ProfileFiles.builtInGenericKeyboard)
        #expect(input.problem == "raw:/nonexistent/stream: cannot open it: No such file or directory")
        let inputs = input.deadlineReached(at: 1)
        #expect(Self.ended(inputs))
    }

    // MARK: Switch ids, devices, inotify

    @Test func switchIdsStayTheProfilesOwnUnlessTwoProfilesBindThemDifferently() {
        let a = SwitchProfile(name: "A", matching: .generic, switches: [
            .init(id: "enter", code: 28, action: .next), .init(id: "space", code: 57, action: .select),
        ], file: "/p/a.yaml")
        let b = SwitchProfile(name: "B", matching: .generic, pulseOnly: true, switches: [
            .init(id: "enter", code: 28, action: .select), .init(id: "one", code: 2, action: .menu),
        ], file: "/p/b.yaml")
        let naming = SwitchNaming(profiles: [a, b])
        #expect(naming.id("space", of: a) == "space")
        #expect(naming.id("enter", of: a) == "a:enter")
        #expect(naming.id("enter", of: b) == "b:enter")
        #expect(naming.bindings["a:enter"]?.action == .next)
        #expect(naming.bindings["b:enter"]?.action == .select)
        #expect(naming.pulseSwitches == ["b:enter", "one"])
    }

    @Test func aReturningDeviceIsRecognisedByBusVendorProductAndNameNotItsPort() {
        let before = DeviceIdentity(name: "QEMU QEMU USB Keyboard", bus: 3, vendor: 0x0627, product: 1, phys: "usb-0000:00:01.0-1/input0")
        var after = before
        after.phys = "usb-0000:00:01.0-2/input0"
        #expect(DeviceWatcher.sameDevice(before, after))
        after.product = 2
        #expect(!DeviceWatcher.sameDevice(before, after))
        // QEMU's usb-kbd puts its port in its serial number.
        var serial = before
        serial.uniq = "68284-0000:00:01.0-1"
        var other = before
        other.uniq = "68284-0000:00:01.0-2"
        #expect(DeviceWatcher.sameDevice(serial, other))
        #expect(DeviceWatcher.isKeyboard(DeviceIdentity(name: "k", keyCodes: [1, 16, 28, 30, 57])))
        #expect(!DeviceWatcher.isKeyboard(DeviceIdentity(name: "joystick", keyCodes: [288, 289])))
    }

    @Test func theWatcherSeesNodesAppearThroughInotify() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let named = folder + "/event9"
        let watcher = DeviceWatcher(
            directory: folder, catalog: ProfileFiles.loadCatalog(directories: [Self.profiles]).catalog, chosen: nil,
            selection: .everyMatch, paths: [named])
        defer { watcher.close() }
        let descriptor = try #require(watcher.descriptor, "inotify on the folder")
        // At start: the named device is not there yet; an empty folder has nothing else.
        let start = try #require(watcher.deadline)
        let said = watcher.deadlineReached(at: start).compactMap { if case .status(let text) = $0 { text } else { nil } }
        #expect(said == ["\(named): no such device now; waiting for it to appear"])
        #expect(watcher.deadline == nil)

        // A node that is not a device appears, then the named one (not a device either).
        FileManager.default.createFile(atPath: folder + "/event3", contents: Data("x".utf8))
        FileManager.default.createFile(atPath: named, contents: Data("x".utf8))
        #expect(try Poll.readable([descriptor], timeout: 2) == [descriptor])
        let statuses = watcher.readable(at: MonotonicClock.now()).compactMap { if case .status(let text) = $0 { text } else { nil } }
        // Only the named one is worth a word.
        #expect(statuses.count == 1)
        #expect(statuses.first?.hasPrefix("\(named) is not an evdev input device") == true, "\(statuses)")
        #expect(watcher.slots.allSatisfy { $0.state == .empty })
        // Its attributes change: it was looked at already, nothing new to say.
        try FileSystem.setPermissions(named, 0o600)
        #expect(try Poll.readable([descriptor], timeout: 2) == [descriptor])
        #expect(watcher.readable(at: MonotonicClock.now()).isEmpty)
    }

    @Test func devicesOnlyWithNoneThereSaysWhatItWaitsFor() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A node that is no device: nothing a profile fits.
        FileManager.default.createFile(atPath: folder + "/event3", contents: Data("x".utf8))
        let catalog = ProfileFiles.loadCatalog(directories: [Self.profiles]).catalog
        let devicesOnly = DeviceWatcher(directory: folder, catalog: catalog, chosen: nil, selection: .everyMatch, paths: [])
        defer { devicesOnly.close() }
        let start = try #require(devicesOnly.deadline)
        let said = devicesOnly.deadlineReached(at: start).compactMap { if case .status(let text) = $0 { text } else { nil } }
        #expect(said == ["no switch device in \(folder) yet (none that a profile fits); waiting for one to be plugged in"])
        #expect(devicesOnly.startupProblems.isEmpty, "waiting is not a problem: \(devicesOnly.startupProblems)")
        // Beside the terminal keyboard (`auto`) the terminal works meanwhile: nothing to say.
        let beside = DeviceWatcher(directory: folder, catalog: catalog, chosen: nil, selection: .withOwnProfile, paths: [])
        defer { beside.close() }
        #expect(beside.deadline == nil)
    }

    @Test func inotifyRecordsAreParsed() {
        func record(_ mask: UInt32, _ name: String) -> [UInt8] {
            var bytes = [UInt8]()
            for value in [UInt32(1), mask, 0, 16] { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
            var padded = Array(name.utf8)
            padded += [UInt8](repeating: 0, count: 16 - padded.count)
            return bytes + padded
        }
        let parsed = Inotify.parse(record(0x100, "event7") + record(0x4, "event7") + record(0x4000, ""))
        #expect(parsed.events.map(\.name) == ["event7", "event7"])
        #expect(parsed.events.map(\.mask) == [0x100, 0x4])
        #expect(parsed.overflow)
        #expect(DeviceWatcher.isEventNode("event12") && !DeviceWatcher.isEventNode("mice") && !DeviceWatcher.isEventNode("eventx"))
    }
}
