import DeviceProfiles
import Foundation
import Testing

/// The repository's Devices/switches: every profile loads, the ids agree with the udev rule, and
/// the key code table agrees with the kernel header of this machine.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let switchesFolder = packageRoot.appendingPathComponent("Devices/switches")

private func shippedProfiles() throws -> [SwitchProfile] {
    let names = try FileManager.default.contentsOfDirectory(atPath: switchesFolder.path).filter { $0.hasSuffix(".yaml") }.sorted()
    return try names.map { name in
        let text = try String(contentsOf: switchesFolder.appendingPathComponent(name), encoding: .utf8)
        return try SwitchProfile.parse(yaml: text, file: "Devices/switches/\(name)")
    }
}

@Suite struct ShippedProfilesTests {
    @Test func everyProfileLoads() throws {
        let profiles = try shippedProfiles()
        #expect(Set(profiles.map(\.id)) == [
            "generic-keyboard", "pcsensor-footswitch", "xkeys-switch-interface", "xbox-adaptive-controller",
            "pretorian-joycable", "origin-tapio", "origin-breeze", "pretorian-quester",
        ])
    }

    @Test func genericKeyboardIsSpaceAndEnter() throws {
        let profile = try #require(try shippedProfiles().first { $0.id == "generic-keyboard" })
        #expect(profile.matching == .generic)
        #expect(profile.bindings == ["space": .init(action: .select), "enter": .init(action: .next)])
        #expect(profile.switchID(forCode: "KEY_SPACE") == "space")
        #expect(profile.switchID(forCode: "KEY_ENTER") == "enter")
    }

    /// The copy built in (for an installed binary, and scripted tests run as a library) is the file.
    @Test func theBuiltInGenericKeyboardIsTheShippedOne() throws {
        let shipped = try #require(try shippedProfiles().first { $0.id == SwitchProfile.genericKeyboardID })
        let builtIn = SwitchProfile.builtInGenericKeyboard
        #expect(builtIn.switches == shipped.switches)
        #expect(builtIn.matching == shipped.matching)
        #expect(builtIn.pulseOnly == shipped.pulseOnly)
        #expect(shipped.keysDescription == "KEY_SPACE (space: select), KEY_ENTER (enter: next)")
    }

    /// Only the ids of the design note, each in the udev rule.
    @Test func vendorIDsAreTheKnownOnesAndInTheUdevRule() throws {
        let known: Set<String> = [
            "0c45:7403", "0c45:7404", "413d:2107", "1a86:e026", "3553:b001",
            "05f3:0232", "05f3:0261", "05f3:0264", "045e:0b0a",
        ]
        var ids = Set<String>()
        for profile in try shippedProfiles() {
            guard case .devices(let matches) = profile.matching else { continue }
            for match in matches {
                if let vendor = match.vendor, let product = match.product { ids.insert("\(hex4(vendor)):\(hex4(product))") }
            }
        }
        #expect(ids == known)
        let rules = try String(contentsOf: switchesFolder.appendingPathComponent("70-switchscan.rules"), encoding: .utf8)
        var ruleIDs = Set<String>()
        for line in rules.split(separator: "\n") where !line.hasPrefix("#") && line.contains("TAG+=\"uaccess\"") {
            let vendor = line.firstMatch(of: /ATTRS\{idVendor\}=="([0-9a-f]{4})"/)?.1
            let product = line.firstMatch(of: /ATTRS\{idProduct\}=="([0-9a-f]{4})"/)?.1
            #expect(line.contains("SUBSYSTEM==\"input\""))
            if let vendor, let product { ruleIDs.insert("\(vendor):\(product)") }
        }
        #expect(ruleIDs == known)
    }

    @Test func matchingAmongTheShippedProfiles() throws {
        let catalog = ProfileCatalog(try shippedProfiles())
        let keyboard = DeviceIdentity(name: "AT Translated Set 2 keyboard", bus: 0x11, vendor: 1, product: 1, keyCodes: Set(1...120))
        #expect(catalog.bestMatch(for: keyboard)?.profile.id == "generic-keyboard")
        let pedal = DeviceIdentity(name: "FootSwitch", bus: 0x03, vendor: 0x3553, product: 0xb001, keyCodes: [30])
        #expect(catalog.bestMatch(for: pedal)?.profile.id == "pcsensor-footswitch")
        #expect(catalog.bestMatch(for: pedal)?.specificity == .vendorProduct)
        let xac = DeviceIdentity(name: "Microsoft Xbox Adaptive Controller", bus: 0x03, vendor: 0x045e, product: 0x0b0a, keyCodes: [304, 305])
        #expect(catalog.bestMatch(for: xac)?.profile.id == "xbox-adaptive-controller")
        let joystick = DeviceIdentity(name: "USB Joystick", bus: 0x03, vendor: 0x1111, product: 0x2222, keyCodes: [288, 289])
        #expect(catalog.bestMatch(for: joystick)?.profile.id == "pretorian-joycable")
        let mouse = DeviceIdentity(name: "USB Mouse", bus: 0x03, vendor: 0x046d, product: 0xc077, keyCodes: [272, 273, 274])
        #expect(catalog.bestMatch(for: mouse) == nil)
        #expect(catalog.profile(named: "origin-tapio")?.matching == .manual)
    }
}

@Suite struct KeyCodeTableTests {
    @Test func knownCodes() {
        #expect(KeyCodes.code(named: "KEY_SPACE") == 57)
        #expect(KeyCodes.code(named: "KEY_ENTER") == 28)
        #expect(KeyCodes.code(named: "BTN_TRIGGER") == 288)
        #expect(KeyCodes.code(named: "BTN_THUMB") == 289)
        #expect(KeyCodes.code(named: "BTN_A") == 304)
        #expect(KeyCodes.code(named: "BTN_JOYSTICK") == 288)
        #expect(KeyCodes.name(for: 57) == "KEY_SPACE")
        #expect(KeyCodes.name(for: 288) == "BTN_TRIGGER")
        #expect(KeyCodes.name(for: 304) == "BTN_SOUTH")
        #expect(KeyCodes.name(for: 256) == "BTN_0")
        #expect(KeyCodes.name(for: 0x2fe) == nil)
        #expect(KeyCodes.code(named: "KEY_CNT") == nil)
        #expect(KeyCodes.code(named: "space") == nil)
    }

    /// Every `#define KEY_…`/`BTN_…` of the kernel header resolves to the same number here.
    @Test func agreesWithTheKernelHeader() throws {
        let header = "/usr/include/linux/input-event-codes.h"
        guard let text = try? String(contentsOfFile: header, encoding: .utf8) else {
            // linux-libc-dev is installed with libevdev-dev; without it there is nothing to compare.
            return
        }
        var defines = [String: String]()
        for line in text.split(separator: "\n") {
            guard let match = line.firstMatch(of: /^#define\s+((?:KEY|BTN)_\w+)\s+(\S+)/) else { continue }
            defines[String(match.1)] = String(match.2)
        }
        func resolve(_ value: String) -> Int? {
            if value.hasPrefix("0x") { return Int(value.dropFirst(2), radix: 16) }
            if let number = Int(value) { return number }
            return defines[value].flatMap(resolve)
        }
        var checked = 0
        for (name, value) in defines where !["KEY_MAX", "KEY_CNT", "KEY_MIN_INTERESTING"].contains(name) {
            guard let number = resolve(value) else { continue }
            #expect(KeyCodes.code(named: name).map(Int.init) == number, "\(name)")
            checked += 1
        }
        #expect(checked > 600)
    }
}
