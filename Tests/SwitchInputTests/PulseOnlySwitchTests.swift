import SwitchInput
import Testing

@Suite("Pulse-only switches next to real ones")
struct PulseOnlySwitchTests {
    @Test func aPulseOnlySwitchActsOnItsDownWhileOthersKeepHoldDuration() {
        var stabilizer = Stabilizer(
            configuration: .init(holdDuration: 0.2, pulseOnlySwitches: ["terminal-space"]),
            bindings: ["terminal-space": SwitchBinding(action: .select), "jack": SwitchBinding(action: .next)])
        // The terminal's keystroke: no release timing; it acts at once, hold duration does not apply.
        #expect(stabilizer.handle(down(1.0, "terminal-space")) == [began(.select, 1.0, "terminal-space"), ended(.select, 1.0, "terminal-space")])
        // A second keystroke read at the same time is a second press: the keyboard debounced it.
        #expect(stabilizer.handle(down(1.0, "terminal-space")) == [began(.select, 1.0, "terminal-space"), ended(.select, 1.0, "terminal-space")])
        // The real switch still needs its hold duration.
        #expect(stabilizer.handle(down(2.0, "jack")) == [schedule(.hold, 2.2, "jack")])
        #expect(stabilizer.handle(up(2.1, "jack")) == [rejected(up(2.1, "jack"), .releasedBeforeHoldDuration), cancel(.hold, "jack")])
    }
}
