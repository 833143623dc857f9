import DeviceProfiles
import Testing

private func profile(_ id: String, _ matching: SwitchProfile.Matching, codes: [UInt16] = [57, 28]) -> SwitchProfile {
    SwitchProfile(
        name: id, matching: matching,
        switches: codes.enumerated().map { SwitchProfile.Switch(id: "s\($0.offset)", code: $0.element, action: $0.offset == 0 ? .select : .next) },
        file: "/profiles/\(id).yaml")
}

private let pcsensor = DeviceIdentity(name: "PCsensor FootSwitch Keyboard", bus: 0x03, vendor: 0x0c45, product: 0x7403, version: 0x0001, keyCodes: [30, 48, 46])
private let laptopKeyboard = DeviceIdentity(name: "AT Translated Set 2 keyboard", bus: 0x11, vendor: 0x0001, product: 0x0001, keyCodes: Set(1...120))
private let joystick = DeviceIdentity(name: "Generic USB Joystick", bus: 0x03, vendor: 0x1234, product: 0x5678, keyCodes: [288, 289, 290])
private let mouse = DeviceIdentity(name: "Mouse", bus: 0x03, vendor: 0x046d, product: 0xc077, keyCodes: [272, 273, 274])

@Suite struct ProfileMatchingTests {
    let specific = profile("pcsensor", .devices([
        SwitchProfile.Match(bus: 0x03, vendor: 0x0c45, product: 0x7403),
        SwitchProfile.Match(bus: 0x03, vendor: 0x0c45, product: 0x7404),
    ]))
    let byName = profile("by-name", .devices([SwitchProfile.Match(name: "pcsensor footswitch*")]))
    let generic = profile("generic-keyboard", .generic)
    let joystickGeneric = profile("joycable", .generic, codes: [288, 289])
    let manual = profile("tapio", .manual)

    @Test func vendorProductBeatsNameBeatsGeneric() {
        let catalog = ProfileCatalog([generic, byName, specific, manual])
        let matches = catalog.matches(for: DeviceIdentity(name: pcsensor.name, bus: 0x03, vendor: 0x0c45, product: 0x7403))
        #expect(matches.map(\.profile.id) == ["pcsensor", "by-name", "generic-keyboard"])
        #expect(matches.map(\.specificity) == [.vendorProduct, .name, .generic])
        #expect(catalog.bestMatch(for: pcsensor)?.profile.id == "pcsensor")
    }

    @Test func nameIsAGlobIgnoringCase() {
        let catalog = ProfileCatalog([byName])
        #expect(catalog.bestMatch(for: DeviceIdentity(name: "PCsensor FootSwitch"))?.profile.id == "by-name")
        #expect(catalog.bestMatch(for: DeviceIdentity(name: "PCsensor FootSwitch Mouse"))?.profile.id == "by-name")
        #expect(catalog.bestMatch(for: DeviceIdentity(name: "Other PCsensor FootSwitch")) == nil)
        let question = ProfileCatalog([profile("q", .devices([SwitchProfile.Match(name: "Pad ?")]))])
        #expect(question.bestMatch(for: DeviceIdentity(name: "pad 2")) != nil)
        #expect(question.bestMatch(for: DeviceIdentity(name: "pad 22")) == nil)
    }

    @Test func everyFieldMustMatch() {
        let catalog = ProfileCatalog([specific])
        // Same ids over Bluetooth: the profile says usb.
        #expect(catalog.bestMatch(for: DeviceIdentity(name: "x", bus: 0x05, vendor: 0x0c45, product: 0x7403)) == nil)
        #expect(catalog.bestMatch(for: DeviceIdentity(name: "x", bus: 0x03, vendor: 0x0c45, product: 0x7404))?.profile.id == "pcsensor")
        #expect(catalog.bestMatch(for: DeviceIdentity(name: "x", bus: 0x03, vendor: 0x0c45, product: 0x7405)) == nil)
        let byUniq = ProfileCatalog([profile("left-pedal", .devices([SwitchProfile.Match(vendor: 0x0c45, product: 0x7403, uniq: "A1")]))])
        #expect(byUniq.bestMatch(for: DeviceIdentity(name: "x", vendor: 0x0c45, product: 0x7403, uniq: "A1")) != nil)
        #expect(byUniq.bestMatch(for: DeviceIdentity(name: "x", vendor: 0x0c45, product: 0x7403, uniq: "B2")) == nil)
        #expect(byUniq.bestMatch(for: DeviceIdentity(name: "x", vendor: 0x0c45, product: 0x7403)) == nil)
    }

    @Test func moreFieldsWinThenCatalogOrder() {
        // A learned profile (bus, vendor, product, name) beats the shipped one (bus, vendor, product).
        let learned = profile("learned", .devices([SwitchProfile.Match(bus: 0x03, vendor: 0x0c45, product: 0x7403, name: pcsensor.name)]))
        #expect(ProfileCatalog([specific, learned]).bestMatch(for: pcsensor)?.profile.id == "learned")
        // Equal specificity: the first in the catalog (the user's folder comes first).
        let mine = profile("mine", .devices([SwitchProfile.Match(bus: 0x03, vendor: 0x0c45, product: 0x7403)]))
        #expect(ProfileCatalog([mine, specific]).bestMatch(for: pcsensor)?.profile.id == "mine")
        #expect(ProfileCatalog([specific, mine]).bestMatch(for: pcsensor)?.profile.id == "pcsensor")
    }

    @Test func genericNeedsOneOfItsCodes() {
        let catalog = ProfileCatalog([generic, joystickGeneric])
        #expect(catalog.bestMatch(for: laptopKeyboard)?.profile.id == "generic-keyboard")
        #expect(catalog.bestMatch(for: joystick)?.profile.id == "joycable")
        #expect(catalog.bestMatch(for: mouse) == nil)
        // Capabilities unknown: any generic profile fits; catalog order decides.
        #expect(catalog.bestMatch(for: DeviceIdentity(name: "unknown"))?.profile.id == "generic-keyboard")
    }

    @Test func manualProfilesAreFoundByName() {
        let catalog = ProfileCatalog([generic, manual])
        #expect(catalog.matches(for: laptopKeyboard).map(\.profile.id) == ["generic-keyboard"])
        #expect(catalog.profile(named: "tapio")?.id == "tapio")
        #expect(catalog.profile(named: "generic-keyboard")?.matching == .generic)
        #expect(catalog.profile(named: "nothing") == nil)
    }

    @Test func busNames() {
        #expect(BusType.name(0x03) == "usb")
        #expect(BusType.name(0x05) == "bluetooth")
        #expect(BusType.name(0x42) == "0042")
        #expect(BusType.value(named: "USB") == 0x03)
        #expect(BusType.value(named: "0x11") == 0x11)
        #expect(BusType.value(named: "usbb") == nil)
        #expect(hex4(0x0c45) == "0c45")
        #expect(pcsensor.shortID == "usb 0c45:7403")
    }
}
