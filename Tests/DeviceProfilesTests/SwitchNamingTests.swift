import DeviceProfiles
import SwitchInput
import Testing

/// Switch ids given to a profile's switches by whoever reads them (a device, a recording, a raw
/// stream, a scripted test's `key:` steps), and the edges of a profile's events under those ids.
@Suite struct SwitchNamingTests {
    static let keys = SwitchProfile(
        name: "Keys", matching: .manual, pulseOnly: true,
        switches: [
            .init(id: "select", code: 2, action: .next, longPressAction: .menu),
            .init(id: "two", code: 3, action: .select),
        ],
        file: "/p/keys.yaml")

    @Test func idsOfTheHostAreReservedAndGetTheProfilesPrefix() {
        let naming = SwitchNaming(profiles: [Self.keys], reserved: ["select", "next"])
        #expect(naming.id("select", of: Self.keys) == "keys:select")
        #expect(naming.id("two", of: Self.keys) == "two")
        #expect(naming.bindings == [
            "keys:select": SwitchBinding(action: .next, longPressAction: .menu), "two": SwitchBinding(action: .select),
        ])
        #expect(naming.pulseSwitches == ["keys:select", "two"])
        // Without reserved ids the profile's own are kept.
        #expect(SwitchNaming(profiles: [Self.keys]).id("select", of: Self.keys) == "select")
    }

    @Test func profileEdgesTranslateKeyEventsUnderTheNamingsIds() {
        let naming = SwitchNaming(profiles: [Self.keys], reserved: ["select"])
        var edges = ProfileEdges(profile: Self.keys, naming: naming)
        let key = DeviceEvent.EventType.key
        #expect(edges.edge(DeviceEvent(time: 1, type: key, code: 2, value: 1), at: 5) == SwitchEdge(switchID: "keys:select", kind: .down, time: 5))
        #expect(edges.edge(DeviceEvent(time: 1, type: key, code: 2, value: 2), at: 5.5) == SwitchEdge(switchID: "keys:select", kind: .repeat, time: 5.5))
        #expect(edges.edge(DeviceEvent(time: 1, type: DeviceEvent.EventType.syn, code: 0, value: 0), at: 5) == nil)
        #expect(edges.edge(DeviceEvent(time: 1, type: key, code: 30, value: 1), at: 5) == nil)
        #expect(edges.switchesDown == ["select"])
        #expect(edges.releaseAll(at: 6) == [SwitchEdge(switchID: "keys:select", kind: .up, time: 6)])
        #expect(edges.switchesDown.isEmpty)
    }

    @Test func keysDescriptionNamesCodesSwitchesAndActions() {
        #expect(Self.keys.keysDescription == "KEY_1 (select: next, long press menu), KEY_2 (two: select)")
        #expect(SwitchProfile(name: "None", matching: .manual, switches: []).keysDescription == "none")
    }
}
