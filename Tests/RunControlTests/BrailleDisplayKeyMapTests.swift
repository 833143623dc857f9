import BrailleFormatting
import DeviceProfiles
import RunControl
import SwitchInput
import Testing

/// The braille display's keys as decisions, on inline profiles and lines: what the run accepts
/// from the display, and what each key does.
@Suite("Braille display key map")
struct BrailleDisplayKeyMapTests {
    /// The names BrlAPI accepts, upper-case (a stand-in for the BrlAPI wrapper's list).
    static func canonical(_ name: String) -> String? {
        let known: Set<String> = ["ROUTE", "FWINLT", "FWINRT", "LNUP", "LNDN", "TOP", "BOT", "HOME"]
        return known.contains(name.uppercased()) ? name.uppercased() : nil
    }

    static func profile(_ name: String, panLeft: String = "FWINLT", panRight: String = "FWINRT", routing: Bool = true,
                        switches: [(String, SwitchAction)]) -> BrailleDisplayProfile {
        BrailleDisplayProfile(
            name: name, driver: "bm", routingKeys: routing, panLeft: .init(command: panLeft, keys: ["Display2"]),
            panRight: .init(command: panRight, keys: ["Display5"]),
            switches: switches.map { .init(command: $0.0, keys: ["Display1"], action: $0.1) })
    }

    /// "Tap 1/2: Send btn": the menu entry 1 is what the line shows.
    static let line = BrailleLine(text: "Tap 1/2: Send btn", segments: [
        BrailleLine.Segment(range: 0..<9, target: nil),
        BrailleLine.Segment(range: 9..<17, target: .menuEntry(1)),
    ])

    @Test("Profiles that agree bind their commands; a command bound differently, or unknown to BrlAPI, is left out")
    func commandBindings() {
        let a = Self.profile("a", switches: [("LNUP", .previous), ("LNDN", .next), ("TOP", .select)])
        let b = Self.profile("b", switches: [("LNDN", .next), ("TOP", .menu), ("NOSUCH", .select)])
        #expect(BrailleDisplayKeyMap.commandBindings(for: [a, b], canonical: Self.canonical) == ["LNUP": .previous, "LNDN": .next])
        #expect(BrailleDisplayKeyMap.commandBindings(for: [], canonical: Self.canonical) == ["LNUP": .previous, "LNDN": .next])
    }

    @Test("The display's profile: its pan commands, its bindings that the run shares, routing as it says; a pan command is never a switch")
    func mapOfAProfile() {
        let profile = Self.profile("orbit", panLeft: "lnup", panRight: "FWINRT", routing: false,
                                   switches: [("LNUP", .previous), ("LNDN", .next), ("HOME", .menu)])
        let map = BrailleDisplayKeyMap(profile: profile, profiles: [profile],
                                       bindings: ["LNUP": .previous, "LNDN": .next, "HOME": .select],
                                       canonical: Self.canonical)
        #expect(map.panLeft == ["LNUP"])
        #expect(map.panRight == ["FWINRT"])
        #expect(map.switches == ["LNDN": "braille:LNDN"], "LNUP pans; HOME is bound otherwise by the run")
        #expect(!map.routing)
        #expect(map.accepted == ["LNUP", "FWINRT", "LNDN"])
    }

    @Test("No profile for the display: every profile's pan commands and the run's bindings; no profile at all: FWINLT and FWINRT")
    func mapWithoutAProfile() {
        let a = Self.profile("a", panLeft: "FWINLT", switches: [])
        let b = Self.profile("b", panLeft: "TOP", switches: [])
        let map = BrailleDisplayKeyMap(profile: nil, profiles: [a, b], bindings: ["LNUP": .previous], canonical: Self.canonical)
        #expect(map.panLeft == ["FWINLT", "TOP"])
        #expect(map.switches == ["LNUP": "braille:LNUP"])
        #expect(map.routing)
        #expect(map.accepted.contains("ROUTE"))
        let bare = BrailleDisplayKeyMap(profile: nil, profiles: [], bindings: [:], canonical: Self.canonical)
        #expect(bare.panLeft == ["FWINLT"] && bare.panRight == ["FWINRT"])
        #expect(bare.accepted == ["ROUTE", "FWINLT", "FWINRT"])
    }

    @Test("A routing key over what the line shows selects; over its message, past its text or with no window it does nothing")
    func routing() {
        let map = BrailleDisplayKeyMap(profile: nil, profiles: [], bindings: ["LNDN": .next], canonical: Self.canonical)
        let window = BrailleWindow(line: Self.line, width: 40)
        #expect(map.action(for: .route(cell: 9), window: window, line: Self.line) == .press("braille:route"))
        #expect(map.action(for: .route(cell: 16), window: window, line: Self.line) == .press("braille:route"))
        #expect(map.action(for: .route(cell: 2), window: window, line: Self.line) == .none)
        #expect(map.action(for: .route(cell: 30), window: window, line: Self.line) == .none)
        #expect(map.action(for: .route(cell: 9), window: nil, line: Self.line) == .none)
        var off = map
        off.routing = false
        #expect(off.action(for: .route(cell: 9), window: window, line: Self.line) == .none)
    }

    @Test("Pan commands pan; a bound command presses its switch; another command does nothing")
    func commands() {
        let map = BrailleDisplayKeyMap(profile: nil, profiles: [], bindings: ["LNDN": .next], canonical: Self.canonical)
        let window = BrailleWindow(line: Self.line, width: 40)
        #expect(map.action(for: .command("FWINLT"), window: window, line: Self.line) == .panLeft)
        #expect(map.action(for: .command("FWINRT"), window: nil, line: Self.line) == .panRight)
        #expect(map.action(for: .command("LNDN"), window: window, line: Self.line) == .press("braille:LNDN"))
        #expect(map.action(for: .command("TOP"), window: window, line: Self.line) == .none)
    }
}
