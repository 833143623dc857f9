import DeviceProfiles
import SwitchInput
import Testing

/// A recording in the form evemu-record 2.7 writes (format 1.3), written by hand: a USB foot
/// switch programmed to Space and Enter. Space is held long enough for one kernel autorepeat
/// (value 2); Enter is tapped. The header comments, the description comments, the "waiting for
/// events" banner and the per-event comments are as evemu-record prints them.
let footSwitchRecording = """
    # EVEMU 1.3
    # Kernel: 6.1.0-18-amd64
    # DMI: dmi:bvnSeaBIOS:bvr1.16.2-debian-1.16.2-1:bd04/01/2014:svnQEMU:pnStandardPC:
    # Input device name: "PCsensor FootSwitch Keyboard"
    # Input device ID: bus 0x03 vendor 0xc45 product 0x7403 version 0x110
    # Supported events:
    #   Event type 0 (EV_SYN)
    #     Event code 0 (SYN_REPORT)
    #     Event code 1 (SYN_CONFIG)
    #     Event code 3 (SYN_DROPPED)
    #   Event type 1 (EV_KEY)
    #     Event code 28 (KEY_ENTER)
    #     Event code 57 (KEY_SPACE)
    #   Event type 4 (EV_MSC)
    #     Event code 4 (MSC_SCAN)
    #   Event type 20 (EV_REP)
    #     Event code 0 (REP_DELAY)
    #       Value    250
    #     Event code 1 (REP_PERIOD)
    #       Value     33
    # Properties:
    N: PCsensor FootSwitch Keyboard
    I: 0003 0c45 7403 0110
    P: 00 00 00 00 00 00 00 00
    B: 00 0b 00 00 00 00 00 00 00
    B: 01 00 00 00 10 00 00 00 02
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 02 00 00 00 00 00 00 00 00
    B: 03 00 00 00 00 00 00 00 00
    B: 04 10 00 00 00 00 00 00 00
    B: 05 00 00 00 00 00 00 00 00
    B: 11 00 00 00 00 00 00 00 00
    B: 12 00 00 00 00 00 00 00 00
    B: 14 03 00 00 00 00 00 00 00
    B: 15 00 00 00 00 00 00 00 00
    B: 15 00 00 00 00 00 00 00 00
    ################################
    #      Waiting for events      #
    ################################
    E: 0.000001 0004 0004 458796\t# EV_MSC / MSC_SCAN             458796
    E: 0.000001 0001 0039 0001\t# EV_KEY / KEY_SPACE            1
    E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
    E: 0.250123 0001 0039 0002\t# EV_KEY / KEY_SPACE            2
    E: 0.250123 0000 0000 0001\t# ------------ SYN_REPORT (1) ---------- +250ms
    E: 0.312000 0004 0004 458796\t# EV_MSC / MSC_SCAN             458796
    E: 0.312000 0001 0039 0000\t# EV_KEY / KEY_SPACE            0
    E: 0.312000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +62ms
    E: 1.250000 0004 0004 458792\t# EV_MSC / MSC_SCAN             458792
    E: 1.250000 0001 001c 0001\t# EV_KEY / KEY_ENTER            1
    E: 1.250000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +938ms
    E: 1.330000 0004 0004 458792\t# EV_MSC / MSC_SCAN             458792
    E: 1.330000 0001 001c 0000\t# EV_KEY / KEY_ENTER            0
    E: 1.330000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +80ms

    """

/// The generic keyboard profile as shipped (Space select, Enter next).
let genericKeyboard = try! SwitchProfile.parse(yaml: """
    name: Generic keyboard-emulating switch interface (Space, Enter)
    match: generic
    switches:
      - {id: space, code: KEY_SPACE, action: select}
      - {id: enter, code: KEY_ENTER, action: next}
    """, file: "generic-keyboard.yaml")

private func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> DeviceFileProblem? {
    do {
        let recording = try EvemuRecording.parse(text, file: "rec.evemu")
        Issue.record("parsed \(recording.events.count) events; expected an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.problem.file == "rec.evemu", sourceLocation: sourceLocation)
        return error.problem
    }
}

/// Expects a parse error at `line` whose message contains the fragments.
private func expectError(_ text: String, line: Int, _ fragments: String..., sourceLocation: SourceLocation = #_sourceLocation) {
    guard let problem = parseError(text, sourceLocation: sourceLocation) else { return }
    #expect(problem.line == line, "\(problem)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(problem.message.contains(fragment), "'\(problem.message)' lacks '\(fragment)'", sourceLocation: sourceLocation)
    }
}

private let header = "N: Switch\nI: 0003 0c45 7403 0110\n"

@Suite struct EvemuParsingTests {
    @Test func realRecording() throws {
        let recording = try EvemuRecording.parse(footSwitchRecording, file: "foot.evemu")
        #expect(recording.formatVersion == "1.3")
        #expect(recording.name == "PCsensor FootSwitch Keyboard")
        #expect((recording.bus, recording.vendor, recording.product, recording.version) == (0x03, 0x0c45, 0x7403, 0x0110))
        #expect(recording.properties == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(recording.eventBits[1]?.count == 96)
        #expect(recording.eventBits[0x15]?.count == 16)
        #expect(recording.supports(type: 1, code: 57))
        #expect(recording.supports(type: 1, code: 28))
        #expect(!recording.supports(type: 1, code: 30))
        #expect(recording.supports(type: 4, code: 4))
        #expect(recording.identity == DeviceIdentity(
            name: "PCsensor FootSwitch Keyboard", bus: 0x03, vendor: 0x0c45, product: 0x7403, version: 0x0110, keyCodes: [28, 57]))
        #expect(recording.events.count == 14)
        #expect(recording.events[1] == DeviceEvent(seconds: 0, microseconds: 1, type: 1, code: 57, value: 1))
        #expect(recording.events[0].value == 458796)
        #expect(recording.events[3] == DeviceEvent(seconds: 0, microseconds: 250123, type: 1, code: 57, value: 2))
        #expect(recording.events[13].time == 1.33)
        #expect(recording.eventLines.first == 50)
        #expect(recording.eventLines.last == 63)
    }

    @Test func minimalFiles() throws {
        // No version line, no bits, no events (evemu-describe's output can be this short).
        let bare = try EvemuRecording.parse("N: x\nI: 0006 0000 0000 0000", file: "r")
        #expect(bare.formatVersion == nil)
        #expect(bare.identity.keyCodes == nil)
        #expect(bare.events.isEmpty)
        // CRLF line ends, blank lines, comments anywhere, a name with spaces and a '#'.
        let crlf = try EvemuRecording.parse("# EVEMU 1.2\r\n\r\nN:  Pad #2 (left) \r\n# comment\r\nI: 3 c45 7403 1\r\nE: 0.000001 0001 0039 -001\r\n", file: "r")
        #expect(crlf.formatVersion == "1.2")
        #expect(crlf.name == "Pad #2 (left) ")
        #expect((crlf.bus, crlf.vendor) == (3, 0x0c45))
        #expect(crlf.events == [DeviceEvent(seconds: 0, microseconds: 1, type: 1, code: 57, value: -1)])
        // A: with 5 numbers (format 1.0 had no resolution), L: and S: lines.
        let axes = try EvemuRecording.parse("N: x\nI: 0 0 0 0\nA: 00 0 255 0 15 0\nA: 01 -10 10 1 2\nL: 00 1\nS: 05 1\n", file: "r")
        #expect(axes.absAxes == [
            EvemuRecording.AbsAxis(code: 0, minimum: 0, maximum: 255, fuzz: 0, flat: 15, resolution: 0),
            EvemuRecording.AbsAxis(code: 1, minimum: -10, maximum: 10, fuzz: 1, flat: 2, resolution: 0),
        ])
        #expect(axes.ledStates == [EvemuRecording.CodeState(code: 0, value: 1)])
        #expect(axes.switchStates == [EvemuRecording.CodeState(code: 5, value: 1)])
    }

    @Test func malformedHeader() {
        expectError("", line: 1, "no device description")
        expectError("# only comments\n\n", line: 1, "no device description")
        expectError("# EVEMU 1.3\nI: 0003 0c45 7403 0110\n", line: 2, "expected the device name first")
        expectError("N:\nI: 0 0 0 0\n", line: 1, "no device name")
        expectError("N: x\nE: 0.000001 0001 0039 0001\n", line: 2, "expected the device id after the name")
        expectError("N: x\n", line: 1, "ends after the N: line")
        expectError("N: x\nI: 0003 0c45 7403\n", line: 2, "needs 4 hex numbers", "found 3")
        expectError("N: x\nI: 0003 0c45 74g3 0110\n", line: 2, "product '74g3' is not a hex number")
        expectError(header + "P: 00 00 00\n", line: 3, "a P: line has 8 hex bytes, found 3")
        expectError(header + "B: 01 00 00 00 00 00 00 00\n", line: 3, "a B: line has an event type and 8 hex bytes, found 8")
        expectError(header + "B: 20 00 00 00 00 00 00 00 00\n", line: 3, "'20' is not an event type")
        expectError(header + "B: 01 00 00 00 100 00 00 00 00\n", line: 3, "'100' is not a hex byte")
        expectError(header + "A: 00 0 255\n", line: 3, "an A: line has an axis code")
        expectError(header + "L: 00\n", line: 3, "an L: line has a code (hex) and a state, found 1")
        expectError(header + "X: 1 2 3\n", line: 3, "'X: 1 2 3' is not an evemu line")
        expectError(header + "N: again\n", line: 3, "a second N: line")
        expectError(header + "E: 0.000001 0001 0039 0001\nB: 01 00 00 00 00 00 00 00 00\n", line: 4, "a B: line after the first event (line 3)")
    }

    @Test func malformedEvents() {
        expectError(header + "E: 0.5 0001 0039 0001\n", line: 3, "the event time '0.5' is not <seconds>.<6 digits")
        expectError(header + "E: 1 0001 0039 0001\n", line: 3, "the event time '1'")
        expectError(header + "E: 0.000001 00zz 0039 0001\n", line: 3, "the event type '00zz' is not an input event type")
        expectError(header + "E: 0.000001 0020 0039 0001\n", line: 3, "the event type '0020'")
        expectError(header + "E: 0.000001 0001 12345 0001\n", line: 3, "the event code '12345'")
        expectError(header + "E: 0.000001 0001 0039 one\n", line: 3, "the event value 'one' is not a whole number")
        expectError(header + "E: 0.000001 0001 0039 0001 0002\n", line: 3, "unexpected '0002' after the event's value")
        expectError(header + "E: 0.000001 0001 0039\n", line: 3, "found 3 of the 4")
        expectError(header + "E: 0.500000 0001 0039 0001\nE: 0.400000 0001 0039 0000\n", line: 4,
                    "the event time 0.400000 is before the previous event's (0.500000, line 3)")
        // Columns point at the field.
        let problem = parseError(header + "E: 0.000001 0001 0039 x\n")
        #expect(problem?.column == 23)
    }

    @Test func truncatedRecording() {
        // The recording stops in the middle of an event line (no final newline).
        let cut = String(footSwitchRecording.dropLast(1 + "0000\t# ------------ SYN_REPORT (0) ---------- +80ms".count + " 0000 ".count))
        #expect(cut.hasSuffix("E: 1.330000 0000"))
        expectError(cut, line: 63, "found 2 of the 4", "the file ends in the middle of this line: is it truncated?")
        // A recording cut between lines is whole: its events so far are read.
        let whole = String(footSwitchRecording.prefix(upTo: footSwitchRecording.range(of: "E: 1.250000")!.lowerBound))
        #expect((try? EvemuRecording.parse(whole, file: "r"))?.events.count == 8)
    }
}

@Suite struct EvemuWritingTests {
    @Test func roundTrip() throws {
        let recording = try EvemuRecording.parse(footSwitchRecording, file: "foot.evemu")
        let text = recording.text(comments: ["Recorded by a test"])
        let again = try EvemuRecording.parse(text, file: "again.evemu")
        #expect(again.name == recording.name)
        #expect(again.formatVersion == "1.3")
        #expect(again.identity == recording.identity)
        #expect(again.properties == recording.properties)
        #expect(again.eventBits == recording.eventBits)
        #expect(again.events == recording.events)
        // The lines evemu-record writes.
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.prefix(4) == [
            "# EVEMU 1.3",
            "# Input device name: \"PCsensor FootSwitch Keyboard\"",
            "# Input device ID: bus 0x0003 vendor 0x0c45 product 0x7403 version 0x0110",
            "# Recorded by a test",
        ])
        #expect(lines.contains("N: PCsensor FootSwitch Keyboard"))
        #expect(lines.contains("I: 0003 0c45 7403 0110"))
        #expect(lines.contains("B: 01 00 00 00 10 00 00 00 02"))
        #expect(lines.filter { $0.hasPrefix("B: 01 ") }.count == 12)
        #expect(lines.contains("E: 0.000001 0001 0039 0001\t# EV_KEY / KEY_SPACE            1"))
        #expect(lines.contains("E: 0.000001 0004 0004 458796\t# EV_MSC / MSC_SCAN             458796"))
        #expect(lines.contains("E: 0.250123 0000 0000 0001\t# ------------ SYN_REPORT (1) ---------- +250ms"))
        #expect(lines.contains("E: 1.330000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +80ms"))
    }

    @Test func recordingOfADevice() throws {
        let device = DeviceIdentity(name: "Pedal", bus: 0x03, vendor: 0x1a86, product: 0xe026, version: 1, keyCodes: [57])
        let absolute = [
            DeviceEvent(seconds: 5000, microseconds: 999_999, type: 1, code: 57, value: 1),
            DeviceEvent(seconds: 5000, microseconds: 999_999, type: 0, code: 0, value: 0),
            DeviceEvent(seconds: 5001, microseconds: 100_000, type: 1, code: 57, value: 0),
            DeviceEvent(seconds: 5001, microseconds: 100_000, type: 0, code: 0, value: 0),
        ]
        let events = EvemuRecording.relativeToFirst(absolute)
        #expect(events.map(\.totalMicroseconds) == [1, 1, 100_002, 100_002])
        let recording = EvemuRecording(device: device, events: events)
        let again = try EvemuRecording.parse(recording.text(), file: "r")
        #expect(again.events == events)
        #expect(again.identity == DeviceIdentity(name: "Pedal", bus: 0x03, vendor: 0x1a86, product: 0xe026, version: 1, keyCodes: [57]))
        #expect(again.eventBits == recording.eventBits)
        #expect(again.properties == recording.properties)
        #expect(recording.text().contains("E: 0.100002 0001 0039 0000\t# EV_KEY / KEY_SPACE            0\n"))
        // Negative values as evemu prints them (%04d).
        let negative = EvemuRecording(device: device, events: [DeviceEvent(seconds: 0, microseconds: 1, type: 2, code: 8, value: -1)])
        #expect(negative.text().contains("E: 0.000001 0002 0008 -001\t"))
        #expect(try EvemuRecording.parse(negative.text(), file: "r").events.first?.value == -1)
    }
}
