import DeviceProfiles
import SwitchInput
import Testing

@Suite struct DeviceEventTranslatorTests {
    @Test func keyValuesBecomeEdges() {
        var translator = DeviceEventTranslator(profile: genericKeyboard)
        #expect(translator.translate(DeviceEvent(time: 1, type: 1, code: 57, value: 1)) == .edge(SwitchEdge(switchID: "space", kind: .down, time: 1)))
        #expect(translator.switchesDown == ["space"])
        #expect(translator.translate(DeviceEvent(time: 1.25, type: 1, code: 57, value: 2)) == .edge(SwitchEdge(switchID: "space", kind: .repeat, time: 1.25)))
        #expect(translator.translate(DeviceEvent(time: 1.3, type: 1, code: 57, value: 0)) == .edge(SwitchEdge(switchID: "space", kind: .up, time: 1.3)))
        #expect(translator.switchesDown.isEmpty)
        // A key value other than 0, 1, 2 is no edge.
        #expect(translator.translate(DeviceEvent(time: 2, type: 1, code: 57, value: 3)) == .ignored)
    }

    @Test func otherEventsAreIgnored() {
        var translator = DeviceEventTranslator(profile: genericKeyboard)
        #expect(translator.translate(DeviceEvent(time: 0, type: DeviceEvent.EventType.syn, code: 0, value: 0)) == .ignored)
        #expect(translator.translate(DeviceEvent(time: 0, type: DeviceEvent.EventType.msc, code: 4, value: 458796)) == .ignored)
        #expect(translator.translate(DeviceEvent(time: 0, type: DeviceEvent.EventType.rel, code: 0, value: 5)) == .ignored)
        // EV_SYN SYN_DROPPED is handled by the reader (libevdev's resync), not here.
        #expect(translator.translate(DeviceEvent(time: 0, type: 0, code: 3, value: 0)) == .ignored)
    }

    @Test func unmappedCodesAreReported() {
        var translator = DeviceEventTranslator(profile: genericKeyboard)
        #expect(translator.translate(DeviceEvent(time: 0, type: 1, code: 30, value: 1)) == .unmapped(code: 30, name: "KEY_A", value: 1))
        #expect(translator.translate(DeviceEvent(time: 0, type: 1, code: 0x2fe, value: 1)) == .unmapped(code: 0x2fe, name: nil, value: 1))
        #expect(translator.translate(codeName: "KEY_NOPE", value: 1, time: 0) == .unmapped(code: nil, name: "KEY_NOPE", value: 1))
        #expect(translator.switchesDown.isEmpty)
    }

    @Test func scriptedKeyStepsByName() {
        var translator = DeviceEventTranslator(profile: genericKeyboard)
        #expect(translator.translate(codeName: "KEY_ENTER", value: 1, time: 3) == .edge(SwitchEdge(switchID: "enter", kind: .down, time: 3)))
        #expect(translator.translate(codeName: "KEY_ENTER", value: 0, time: 3.05) == .edge(SwitchEdge(switchID: "enter", kind: .up, time: 3.05)))
    }

    @Test func deviceGoneReleasesWhatWasDown() {
        var translator = DeviceEventTranslator(profile: genericKeyboard)
        _ = translator.translate(DeviceEvent(time: 1, type: 1, code: 57, value: 1))
        _ = translator.translate(DeviceEvent(time: 1.1, type: 1, code: 28, value: 1))
        #expect(translator.releaseAll(at: 2) == [
            SwitchEdge(switchID: "enter", kind: .up, time: 2),
            SwitchEdge(switchID: "space", kind: .up, time: 2),
        ])
        #expect(translator.switchesDown.isEmpty)
        #expect(translator.releaseAll(at: 3).isEmpty)
    }

    /// The recording through the profile and the stabilizer: autorepeat becomes `.repeat`
    /// edges, which the stabilizer rejects; one select, one next.
    @Test func recordingThroughTheStabilizer() throws {
        let recording = try EvemuRecording.parse(footSwitchRecording, file: "foot.evemu")
        var translator = DeviceEventTranslator(profile: genericKeyboard)
        var stabilizer = Stabilizer(configuration: .init(pulseOnly: genericKeyboard.pulseOnly), bindings: genericKeyboard.bindings)
        var edges = [SwitchEdge]()
        var outputs = [StabilizerOutput]()
        for event in recording.events {
            if case .edge(let edge) = translator.translate(event) {
                edges.append(edge)
                outputs += stabilizer.handle(edge)
            }
        }
        #expect(edges.map(\.kind) == [.down, .repeat, .up, .down, .up])
        #expect(edges.map(\.switchID) == ["space", "space", "space", "enter", "enter"])
        #expect(outputs == [
            .began(.select, switchID: "space", time: 0.000001),
            .rejected(SwitchEdge(switchID: "space", kind: .repeat, time: 0.250123), reason: .autorepeat),
            .ended(.select, switchID: "space", time: 0.312),
            .began(.next, switchID: "enter", time: 1.25),
            .ended(.next, switchID: "enter", time: 1.33),
        ])
    }

    /// A raw stream gives the same edges as the recording it was made from.
    @Test func rawStreamThroughTheSamePath() throws {
        let recording = try EvemuRecording.parse(footSwitchRecording, file: "foot.evemu")
        var decoder = RawEventDecoder()
        let bytes = recording.events.flatMap(RawEventDecoder.encode)
        let decoded = decoder.feed(bytes)
        #expect(decoded == recording.events)
        var fromRecording = DeviceEventTranslator(profile: genericKeyboard)
        var fromRaw = DeviceEventTranslator(profile: genericKeyboard)
        #expect(recording.events.map { fromRecording.translate($0) } == decoded.map { fromRaw.translate($0) })
    }
}

@Suite struct SwitchLearnerTests {
    @Test func learnsEachSwitchOnRelease() throws {
        let recording = try EvemuRecording.parse(footSwitchRecording, file: "foot.evemu")
        var learner = SwitchLearner(actions: SwitchLearner.defaultActions(count: 2))
        var steps = [SwitchLearner.Step]()
        for event in recording.events {
            let step = learner.handle(event)
            if step != .nothing { steps.append(step) }
        }
        #expect(steps == [
            .pressed(index: 0, code: 57),
            .learned(SwitchProfile.Switch(id: "space", code: 57, action: .select)),
            .pressed(index: 1, code: 28),
            .learned(SwitchProfile.Switch(id: "enter", code: 28, action: .next)),
        ])
        #expect(learner.isComplete)
        let profile = learner.profile(name: "My pedals", device: recording.identity, file: "my-pedals.yaml")
        #expect(profile.matching == .devices([SwitchProfile.Match(bus: 0x03, vendor: 0x0c45, product: 0x7403, name: "PCsensor FootSwitch Keyboard")]))
        #expect(try SwitchProfile.parse(yaml: profile.yamlText(), file: "my-pedals.yaml") == profile)
    }

    @Test func samKeyTwiceAndUnfinishedPress() {
        var learner = SwitchLearner(actions: [.select, .menu])
        _ = learner.handle(DeviceEvent(time: 0, type: 1, code: 2, value: 1))
        _ = learner.handle(DeviceEvent(time: 0.1, type: 1, code: 2, value: 0))
        #expect(learner.handle(DeviceEvent(time: 1, type: 1, code: 2, value: 1)) == .alreadyLearned(code: 2, switchID: "key-1"))
        #expect(learner.handle(DeviceEvent(time: 2, type: 1, code: 0x120, value: 1)) == .pressed(index: 1, code: 0x120))
        #expect(learner.handle(DeviceEvent(time: 2.1, type: 1, code: 0x120, value: 2)) == .nothing)
        #expect(learner.finish() == .learned(SwitchProfile.Switch(id: "trigger", code: 0x120, action: .menu)))
        #expect(learner.switches.map(\.id) == ["key-1", "trigger"])
    }

    @Test func switchIDs() {
        #expect(SwitchLearner.switchID(forCode: 57) == "space")
        #expect(SwitchLearner.switchID(forCode: 288) == "trigger")
        #expect(SwitchLearner.switchID(forCode: 2) == "key-1")
        #expect(SwitchLearner.switchID(forCode: 256) == "btn-0")
        #expect(SwitchLearner.switchID(forCode: 272) == "left")
        #expect(SwitchLearner.switchID(forCode: 0x2fe) == "code-766")
        let noVendor = SwitchLearner(actions: [.select]).profile(name: "x", device: DeviceIdentity(name: "Virtual pad", bus: 0x06))
        #expect(noVendor.matching == .devices([SwitchProfile.Match(bus: 0x06, name: "Virtual pad")]))
    }
}
