import DeviceProfiles
import SwitchInput
import Testing

/// Loads `text` as `test.yaml`, expecting success.
func loadProfile(_ text: String, file: String = "test.yaml") throws -> SwitchProfile {
    try SwitchProfile.parse(yaml: text, file: file)
}

/// The problems of a profile that must fail to load.
func problems(_ text: String, file: String = "test.yaml") -> [DeviceFileProblem] {
    do {
        _ = try SwitchProfile.parse(yaml: text, file: file)
        Issue.record("the profile loaded; expected problems")
        return []
    } catch {
        return error.problems
    }
}

/// Expects exactly one problem at `line`:`column` whose message contains every fragment.
func expectProblem(
    _ text: String, at line: Int, _ column: Int, _ fragments: String..., sourceLocation: SourceLocation = #_sourceLocation
) {
    let found = problems(text)
    #expect(found.count == 1, "expected one problem, found \(found)", sourceLocation: sourceLocation)
    guard let problem = found.first else { return }
    #expect(problem.file == "test.yaml", sourceLocation: sourceLocation)
    #expect((problem.line, problem.column) == (line, column), "\(problem)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(problem.message.contains(fragment), "'\(problem.message)' lacks '\(fragment)'", sourceLocation: sourceLocation)
    }
}

let footSwitch = """
    # A foot switch with two pedals.
    name: Foot switch
    description: Two pedals
    match:
      - bus: usb
        vendor: "0c45"
        product: "7403"
      - name: "PCsensor FootSwitch*"
    pulseOnly: false
    switches:
      - id: left
        code: KEY_SPACE
        action: select
        longPressAction: menu
      - id: right
        code: KEY_ENTER
        action: next
    """

@Suite struct ProfileLoadingTests {
    @Test func fullProfile() throws {
        let profile = try loadProfile(footSwitch, file: "Devices/switches/foot-switch.yaml")
        #expect(profile.name == "Foot switch")
        #expect(profile.description == "Two pedals")
        #expect(profile.id == "foot-switch")
        #expect(profile.file == "Devices/switches/foot-switch.yaml")
        #expect(profile.pulseOnly == false)
        #expect(profile.matching == .devices([
            SwitchProfile.Match(bus: 0x03, vendor: 0x0c45, product: 0x7403),
            SwitchProfile.Match(name: "PCsensor FootSwitch*"),
        ]))
        #expect(profile.switches == [
            SwitchProfile.Switch(id: "left", code: 57, codeName: "KEY_SPACE", action: .select, longPressAction: .menu),
            SwitchProfile.Switch(id: "right", code: 28, codeName: "KEY_ENTER", action: .next),
        ])
        #expect(profile.bindings == [
            "left": SwitchBinding(action: .select, longPressAction: .menu),
            "right": SwitchBinding(action: .next),
        ])
        #expect(profile.switchID(forCode: "KEY_SPACE") == "left")
        #expect(profile.switchID(forCode: UInt16(28)) == "right")
        #expect(profile.switchID(forCode: "KEY_A") == nil)
        #expect(profile.switchID(forCode: "KEY_NOT_A_KEY") == nil)
        #expect(profile.codes == [57, 28])
    }

    @Test func matchForms() throws {
        let single = try loadProfile("name: x\nmatch: {vendor: 0c45, product: 7403}\nswitches: [{id: a, code: KEY_A, action: select}]")
        // Plain (unquoted) ids are read as hex text too.
        #expect(single.matching == .devices([SwitchProfile.Match(vendor: 0x0c45, product: 0x7403)]))
        let generic = try loadProfile("name: x\nmatch: generic\nswitches: [{id: a, code: KEY_A, action: select}]")
        #expect(generic.matching == .generic)
        let manual = try loadProfile("name: x\nswitches: [{id: a, code: KEY_A, action: select}]")
        #expect(manual.matching == .manual)
        let hexBus = try loadProfile("name: x\nmatch: {bus: \"0x05\", uniq: \"aa:bb\", phys: \"usb-*\"}\nswitches: [{id: a, code: KEY_A, action: select}]")
        #expect(hexBus.matching == .devices([SwitchProfile.Match(bus: 0x05, phys: "usb-*", uniq: "aa:bb")]))
    }

    @Test func codesByAliasAndNumber() throws {
        let profile = try loadProfile("""
            name: gamepad
            switches:
              - {id: a, code: BTN_A, action: select}
              - {id: trigger, code: BTN_TRIGGER, action: next}
              - {id: raw, code: 766, action: menu}
            """)
        #expect(profile.switches.map(\.code) == [304, 288, 766])
        // 766 has no name: the number is kept, and written back as a number.
        #expect(profile.switches.map(\.codeName) == ["BTN_A", "BTN_TRIGGER", "766"])
        #expect(profile.yamlText().contains("    code: 766\n"))
        #expect(try loadProfile(profile.yamlText()).switches == profile.switches)
        #expect(profile.switchID(forCode: "BTN_SOUTH") == "a")
        #expect(profile.switchID(forCode: "BTN_GAMEPAD") == "a")
    }

    @Test func pulseOnlyProfile() throws {
        let profile = try loadProfile("name: x\npulseOnly: true\nswitches: [{id: a, code: KEY_1, action: select}]")
        #expect(profile.pulseOnly)
    }
}

/// Every kind of problem, each with its line and column.
@Suite struct ProfileErrorTests {
    @Test func invalidYAML() {
        expectProblem("name: x\nswitches: [\n", at: 3, 1, "invalid YAML")
    }

    @Test func emptyFile() {
        expectProblem("", at: 1, 1, "the file is empty")
        expectProblem("# only a comment\n", at: 1, 1, "the file is empty")
    }

    @Test func notAMapping() {
        expectProblem("- a\n- b\n", at: 1, 1, "expected a mapping for the profile, found a list")
    }

    @Test func unknownKeyWithSuggestion() {
        let found = problems("name: x\nswitchs: []\n")
        #expect(found.map { "\($0.line):\($0.column)" } == ["1:1", "2:1"])
        #expect(found[0].message.hasPrefix("missing 'switches'"))
        #expect(found[1].message == "unknown key 'switchs' in a profile (did you mean 'switches'?); expected one of: name, description, match, pulseOnly, switches")
    }

    @Test func unknownKeysEverywhere() {
        let found = problems("""
            name: x
            pulsOnly: true
            match: {vendr: "0c45", product: "7403"}
            switches:
              - {id: a, code: KEY_A, action: select, longpress: menu}
            """)
        #expect(found.map { "\($0.line):\($0.column)" } == ["2:1", "3:8", "3:9", "5:42"])
        #expect(found[0].message.contains("unknown key 'pulsOnly' in a profile (did you mean 'pulseOnly'?)"))
        #expect(found.contains { $0.message.contains("unknown key 'vendr' in a match (did you mean 'vendor'?)") })
        #expect(found.contains { $0.message.contains("a match with product needs vendor too") })
        #expect(found[3].message.contains("unknown key 'longpress' in a switch (did you mean 'longPressAction'?)") || found[3].message.contains("unknown key 'longpress' in a switch"))
    }

    @Test func missingKeys() {
        let found = problems("description: nothing else\n")
        #expect(found.map(\.message) == [
            "missing 'name': expected the interface's name",
            "missing 'switches': expected a list of switches ({id, code, action})",
        ])
    }

    @Test func missingSwitchFields() {
        let found = problems("name: x\nswitches:\n  - id: a\n")
        #expect(found.map(\.line) == [3, 3])
        #expect(found.map(\.column) == [5, 5])
        #expect(found.contains { $0.message.contains("missing 'code'") })
        #expect(found.contains { $0.message.contains("missing 'action'") })
    }

    @Test func wrongTypes() {
        expectProblem("name: [a, b]\nswitches: [{id: a, code: KEY_A, action: select}]\n", at: 1, 7, "expected a string for name, found a list")
        expectProblem("name: x\nswitches: {id: a}\n", at: 2, 11, "expected a list for switches, found a mapping")
        expectProblem("name: x\npulseOnly: yes\nswitches: [{id: a, code: KEY_A, action: select}]\n", at: 2, 12, "expected true or false for pulseOnly, found 'yes'")
        expectProblem("name: x\nswitches: [{id: a, code: KEY_A, action: select}]\nmatch: 5\n", at: 3, 8, "match is a mapping")
    }

    @Test func emptyLists() {
        expectProblem("name: x\nswitches: []\n", at: 2, 11, "switches is empty")
        expectProblem("name: x\nmatch: []\nswitches: [{id: a, code: KEY_A, action: select}]\n", at: 2, 8, "match is an empty list")
    }

    @Test func unknownAction() {
        expectProblem("name: x\nswitches:\n  - id: a\n    code: KEY_A\n    action: selct\n", at: 5, 13,
                      "unknown action 'selct' (did you mean 'select'?)", "expected one of: select, next, previous, menu, tap, escape, stop")
        expectProblem("name: x\nswitches:\n  - {id: a, code: KEY_A, action: select, longPressAction: manu}\n", at: 3, 59,
                      "unknown longPressAction 'manu' (did you mean 'menu'?)")
    }

    @Test func unknownCode() {
        expectProblem("name: x\nswitches:\n  - {id: a, code: KEY_SPCAE, action: select}\n", at: 3, 19,
                      "unknown key code 'KEY_SPCAE' (did you mean 'KEY_SPACE'?)")
        expectProblem("name: x\nswitches:\n  - {id: a, code: space, action: select}\n", at: 3, 19,
                      "code 'space' is not an evdev key name (did you mean 'KEY_SPACE'?)")
        expectProblem("name: x\nswitches:\n  - {id: a, code: 9999, action: select}\n", at: 3, 19, "not an evdev key name")
    }

    @Test func badIDs() {
        expectProblem("name: x\nmatch: {vendor: \"c45z\", product: \"7403\"}\nswitches: [{id: a, code: KEY_A, action: select}]\n", at: 2, 17,
                      "vendor 'c45z' is not a 16-bit hex id")
        expectProblem("name: x\nmatch: {vendor: \"0c45\", product: \"17403\"}\nswitches: [{id: a, code: KEY_A, action: select}]\n", at: 2, 34,
                      "product '17403' is not a 16-bit hex id")
        expectProblem("name: x\nmatch: {bus: usbb, name: foo}\nswitches: [{id: a, code: KEY_A, action: select}]\n", at: 2, 14,
                      "unknown bus 'usbb' (did you mean 'usb'?)")
        expectProblem("name: x\nmatch: {bus: usb}\nswitches: [{id: a, code: KEY_A, action: select}]\n", at: 2, 8,
                      "a match needs vendor and product, or name")
        expectProblem("name: x\nmatch: {vendor: \"0c45\"}\nswitches: [{id: a, code: KEY_A, action: select}]\n", at: 2, 8,
                      "a match with vendor needs product too")
    }

    @Test func duplicates() {
        expectProblem("""
            name: x
            switches:
              - {id: a, code: KEY_A, action: select}
              - {id: a, code: KEY_B, action: next}
            """, at: 4, 10, "switch id 'a' is used twice (first at line 3)")
        expectProblem("""
            name: x
            switches:
              - {id: a, code: KEY_A, action: select}
              - {id: b, code: KEY_A, action: next}
            """, at: 4, 19, "code KEY_A is already switch 'a' (line 3)")
        expectProblem("name: x\nname: y\nswitches: [{id: a, code: KEY_A, action: select}]\n", at: 2, 1, "duplicate key 'name' in one mapping (first at line 1)")
    }

    @Test func badSwitchID() {
        expectProblem("name: x\nswitches: [{id: \"-a b\", code: KEY_A, action: select}]\n", at: 2, 17, "switch id '-a b' must start with a letter or digit")
    }

    @Test func longPressWithPulseOnly() {
        expectProblem("name: x\npulseOnly: true\nswitches: [{id: a, code: KEY_A, action: select, longPressAction: menu}]\n", at: 3, 66,
                      "longPressAction cannot be used with pulseOnly: true")
    }

    @Test func everyProblemIsReported() {
        let found = problems("""
            name: x
            switches:
              - {id: a, code: KEY_SPCAE, action: select}
              - {id: b, code: KEY_B, action: nxt}
            colour: red
            """)
        #expect(found.map(\.line) == [3, 4, 5])
        #expect(found.allSatisfy { $0.description.hasPrefix("test.yaml:\($0.line):\($0.column): error: ") })
    }

    @Test func aliasBombIsRefused() {
        var text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for index in 1...6 { text += "\(Character(UnicodeScalar(97 + index)!)): &\(Character(UnicodeScalar(97 + index)!)) [" + Array(repeating: "*\(Character(UnicodeScalar(96 + index)!))", count: 10).joined(separator: ", ") + "]\n" }
        text += "name: *g\nswitches: []\n"
        let found = problems(text)
        #expect(!found.isEmpty)
    }
}

@Suite struct ProfileWriterTests {
    @Test func roundTrip() throws {
        let profile = try loadProfile(footSwitch, file: "a.yaml")
        let text = profile.yamlText(comments: ["Written by a test", ""])
        #expect(text.hasPrefix("# Written by a test\n#\nname: \"Foot switch\"\n"))
        let again = try loadProfile(text, file: "a.yaml")
        #expect(again == profile)
    }

    @Test func quotingAndMatches() throws {
        let profile = SwitchProfile(
            name: "Odd \"name\": with # and \\ and\ttab", matching: .devices([SwitchProfile.Match(bus: 0x03, vendor: 0x045e, product: 0x0b0a, name: "Xbox: \"X\"")]),
            pulseOnly: true, switches: [SwitchProfile.Switch(id: "a.b-c_d", code: 304, action: .select)], file: "x.yaml")
        let text = profile.yamlText()
        let again = try loadProfile(text, file: "x.yaml")
        #expect(again == profile, "\(text)")
        #expect(text.contains("code: BTN_SOUTH"))
        #expect(text.contains("vendor: \"045e\""))
        #expect(text.contains("bus: usb"))
        let generic = SwitchProfile(name: "g", matching: .generic, switches: [SwitchProfile.Switch(id: "s", code: 57, action: .next)], file: "g.yaml")
        #expect(try loadProfile(generic.yamlText(), file: "g.yaml") == generic)
    }
}
