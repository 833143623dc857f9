import SwitchInput
import Testing

private let select = SwitchBinding(action: .select)
private let selectOrMenu = SwitchBinding(action: .select, longPressAction: .menu)

private func stabilizer(
    _ configuration: Stabilizer.Configuration = .init(), _ bindings: [SwitchID: SwitchBinding] = ["a": select]
) -> Stabilizer {
    Stabilizer(configuration: configuration, bindings: bindings)
}

@Suite struct ConfigurationTests {
    @Test func defaults() {
        let configuration = Stabilizer.Configuration()
        #expect(configuration.debounceTime == 0.025)
        #expect(configuration.holdDuration == nil)
        #expect(configuration.ignoreRepeat == nil)
        #expect(configuration.longPress == nil)
        #expect(configuration.pulseOnly == false)
    }

    @Test func zeroTimesAreOff() {
        var s = stabilizer(.init(debounceTime: 0, holdDuration: 0, ignoreRepeat: 0, longPress: 0), ["a": selectOrMenu])
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.handle(up(0.001)) == [ended(.select, 0.001)])
        #expect(s.handle(down(0.002)) == [began(.select, 0.002)])
    }

    @Test func traceLines() {
        #expect("\(began(.select, 0.025))" == "0.025 began select (a)")
        #expect("\(rejected(up(0.01), .bounce))" == "0.01 rejected up (a): bounce")
        #expect("\(schedule(.debounce, 0.025))" == "schedule debounce (a) at 0.025")
        #expect("\(cancel(.hold, "b"))" == "cancel hold (b)")
    }
}

@Suite struct FilterTests {
    @Test func plainPressActsOnDownAndEndsOnUp() {
        var s = stabilizer()
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.activeAction(of: "a") == .select)
        #expect(s.handle(up(0.2)) == [ended(.select, 0.2)])
        #expect(s.activeAction(of: "a") == nil)
        #expect(s.pendingTimers.isEmpty)
    }

    @Test func unboundSwitchesAreRejectedAndKeepNoState() {
        var s = stabilizer()
        #expect(s.handle(down(0, "x")) == [rejected(down(0, "x"), .unbound)])
        #expect(s.handle(up(0.005, "x")) == [rejected(up(0.005, "x"), .unbound)])
        #expect(s.handle(autorepeat(0.5, "x")) == [rejected(autorepeat(0.5, "x"), .autorepeat)])
        #expect(s.pendingTimers.isEmpty)
        #expect(s.handle(down(0.01)) == [began(.select, 0.01)])
    }

    @Test func redundantEdgesAfterALostRelease() {
        var s = stabilizer()
        #expect(s.handle(up(0)) == [rejected(up(0), .redundant)])
        #expect(s.handle(down(1)) == [began(.select, 1)])
        // The release was lost: a second down is redundant and nothing begins again.
        #expect(s.handle(down(5)) == [rejected(down(5), .redundant)])
        #expect(s.handle(up(5.1)) == [ended(.select, 5.1)])
        #expect(s.handle(up(6)) == [rejected(up(6), .redundant)])
    }

    @Test func minuteLongHoldWithAutorepeat() {
        var driver = ManualClockDriver(bindings: ["a": select])
        driver.send(down(0))
        var repeats: [SwitchEdge] = []
        var i = 0
        while 0.5 + Double(i) * 0.033 < 60 {
            repeats.append(autorepeat(0.5 + Double(i) * 0.033))
            i += 1
        }
        for edge in repeats {
            #expect(driver.send(edge) == [rejected(edge, .autorepeat)])
        }
        driver.send(up(60))
        #expect(repeats.count > 1700)
        #expect(driver.actions == [began(.select, 0), ended(.select, 60)])
        #expect(driver.trace.count == repeats.count + 2)
    }

    @Test func minuteLongHoldWithAutorepeatAndLongPress() {
        var driver = ManualClockDriver(.init(holdDuration: 0.25, longPress: 1.0), bindings: ["a": selectOrMenu])
        driver.send(down(0))
        var t = 0.5
        while t < 60 {
            driver.send(autorepeat(t))
            t += 0.033
        }
        driver.send(up(60))
        #expect(driver.actions == [began(.menu, 0.25 + 1.0), ended(.menu, 60)])
        let rejections = driver.events.filter { if case .rejected = $0 { true } else { false } }
        #expect(rejections.count == driver.events.count - 2)
        #expect(rejections.allSatisfy { if case .rejected(_, .autorepeat) = $0 { true } else { false } })
    }
}

@Suite struct DebounceTests {
    @Test func contactBounceOnPressAndRelease() {
        var s = stabilizer()
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.handle(up(0.003)) == [rejected(up(0.003), .bounce), schedule(.debounce, 0.025)])
        #expect(s.handle(down(0.006)) == [rejected(down(0.006), .bounce)])
        #expect(s.handle(up(0.009)) == [rejected(up(0.009), .bounce)])
        #expect(s.handle(down(0.012)) == [rejected(down(0.012), .bounce)])
        // The contacts settled closed, as accepted: the window ends with nothing to do.
        #expect(s.timerFired(timer(.debounce), at: 0.025) == [])
        #expect(s.activeAction(of: "a") == .select)
        // The real release, 200 ms later, bounces too.
        #expect(s.handle(up(0.212)) == [ended(.select, 0.212)])
        #expect(s.handle(down(0.215)) == [rejected(down(0.215), .bounce), schedule(.debounce, 0.212 + 0.025)])
        #expect(s.handle(up(0.218)) == [rejected(up(0.218), .bounce)])
        #expect(s.timerFired(timer(.debounce), at: 0.212 + 0.025) == [])
        #expect(s.pendingTimers.isEmpty)
    }

    @Test func contactBounceThroughADriverGivesOnePress() {
        var driver = ManualClockDriver(bindings: ["a": select])
        driver.send([down(0), up(0.003), down(0.006), up(0.009), down(0.012), up(0.212), down(0.215), up(0.218)])
        driver.advance(to: 1)
        #expect(driver.actions == [began(.select, 0), ended(.select, 0.212)])
        #expect(driver.events.filter { $0 == rejected(up(0.003), .bounce) }.count == 1)
        #expect(driver.events.count == 2 + 6)
    }

    @Test func fastTapIsNotStuck() {
        var s = stabilizer()
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.handle(up(0.010)) == [rejected(up(0.010), .bounce), schedule(.debounce, 0.025)])
        #expect(s.activeAction(of: "a") == .select)
        #expect(s.pendingTimers == [timer(.debounce): 0.025])
        #expect(s.timerFired(timer(.debounce), at: 0.025) == [ended(.select, 0.025)])
        #expect(s.activeAction(of: "a") == nil)
        #expect(s.pendingTimers.isEmpty)
        #expect(s.handle(down(0.5)) == [began(.select, 0.5)])
    }

    @Test func aPressInsideTheWindowIsAcceptedAtItsEnd() {
        var s = stabilizer()
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.handle(up(0.1)) == [ended(.select, 0.1)])
        #expect(s.handle(down(0.11)) == [rejected(down(0.11), .bounce), schedule(.debounce, 0.1 + 0.025)])
        #expect(s.timerFired(timer(.debounce), at: 0.1 + 0.025) == [began(.select, 0.1 + 0.025)])
        #expect(s.handle(up(0.4)) == [ended(.select, 0.4)])
    }

    @Test func theWindowEndsExactlyAtDebounceTime() {
        var s = stabilizer(.init(debounceTime: 0.03125))
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.handle(up(0.03125)) == [ended(.select, 0.03125)])
        #expect(s.handle(down(0.0625 - 0.001)) == [rejected(down(0.0625 - 0.001), .bounce), schedule(.debounce, 0.0625)])
    }

    @Test func offAcceptsEveryFlip() {
        var s = stabilizer(.init(debounceTime: nil))
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.handle(up(0.003)) == [ended(.select, 0.003)])
        #expect(s.handle(down(0.006)) == [began(.select, 0.006)])
        #expect(s.pendingTimers.isEmpty)
    }
}

@Suite struct HoldDurationTests {
    @Test func releasedEarlyNothingBegins() {
        var s = stabilizer(.init(holdDuration: 0.25))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        #expect(s.activeAction(of: "a") == nil)
        #expect(s.handle(up(0.1)) == [rejected(up(0.1), .releasedBeforeHoldDuration), cancel(.hold)])
        #expect(s.pendingTimers.isEmpty)
    }

    @Test func heldBeginsAtDownPlusHold() {
        var s = stabilizer(.init(holdDuration: 0.25))
        #expect(s.handle(down(1)) == [schedule(.hold, 1.25)])
        #expect(s.timerFired(timer(.hold), at: 1.25) == [began(.select, 1.25)])
        #expect(s.handle(up(2)) == [ended(.select, 2)])
    }

    @Test func releasedExactlyAtTheHoldDurationCounts() {
        var s = stabilizer(.init(holdDuration: 0.25))
        #expect(s.handle(down(3)) == [schedule(.hold, 3.25)])
        #expect(s.handle(up(3.25)) == [began(.select, 3.25), ended(.select, 3.25), cancel(.hold)])
    }

    @Test func fastTapReleasedByTheDebounceTimerIsTooShort() {
        var s = stabilizer(.init(holdDuration: 0.25))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        #expect(s.handle(up(0.010)) == [rejected(up(0.010), .bounce), schedule(.debounce, 0.025)])
        #expect(s.timerFired(timer(.debounce), at: 0.025) == [
            rejected(up(0.025), .releasedBeforeHoldDuration), cancel(.hold),
        ])
        #expect(s.pendingTimers.isEmpty)
    }
}

@Suite struct TimerTieTests {
    /// The raw release (at 0.010) came before the hold deadline, though the debounce window
    /// delays accepting it to the same moment.
    @Test func aReleaseHeldInTheDebounceWindowComesBeforeAHoldDeadlineAtTheSameTime() {
        var s = stabilizer(.init(holdDuration: 0.025))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.025)])
        #expect(s.handle(up(0.010)) == [rejected(up(0.010), .bounce), schedule(.debounce, 0.025)])
        #expect(s.timerFired(timer(.hold), at: 0.025) == [
            rejected(up(0.025), .releasedBeforeHoldDuration), cancel(.debounce),
        ])
        #expect(s.pendingTimers.isEmpty)
    }

    @Test func aReleaseHeldInTheDebounceWindowComesBeforeALongPressDeadlineAtTheSameTime() {
        var s = stabilizer(.init(debounceTime: 0.5, longPress: 0.5), ["a": selectOrMenu])
        #expect(s.handle(down(0)) == [schedule(.longPress, 0.5)])
        #expect(s.handle(up(0.25)) == [rejected(up(0.25), .bounce), schedule(.debounce, 0.5)])
        // Both timers were due; the next press moves the long-press timer (a schedule replaces).
        #expect(s.handle(down(1)) == [
            began(.select, 0.5), ended(.select, 0.5), cancel(.debounce), schedule(.longPress, 1.5),
        ])
    }
}

@Suite struct IgnoreRepeatTests {
    @Test func pressesWithinTheWindowOfTheLastAcceptedPressAreIgnored() {
        var s = stabilizer(.init(ignoreRepeat: 0.5))
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.handle(up(0.1)) == [ended(.select, 0.1)])
        #expect(s.handle(down(0.3)) == [rejected(down(0.3), .ignoreRepeat)])
        #expect(s.handle(up(0.35)) == [rejected(up(0.35), .ignoreRepeat)])
        // The window runs from the accepted press at 0, not from the ignored one.
        #expect(s.handle(down(0.4)) == [rejected(down(0.4), .ignoreRepeat)])
        #expect(s.handle(up(0.44)) == [rejected(up(0.44), .ignoreRepeat)])
        #expect(s.handle(down(0.5)) == [began(.select, 0.5)])
        #expect(s.handle(up(0.6)) == [ended(.select, 0.6)])
        #expect(s.handle(down(0.9)) == [rejected(down(0.9), .ignoreRepeat)])
        #expect(s.pendingTimers.isEmpty)
    }

    @Test func measuredFromWhenThePressWouldBeginAfterHold() {
        var s = stabilizer(.init(holdDuration: 0.25, ignoreRepeat: 1.0))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        #expect(s.timerFired(timer(.hold), at: 0.25) == [began(.select, 0.25)])
        #expect(s.handle(up(0.5)) == [ended(.select, 0.5)])
        // Would begin at 0.8 + 0.25, within 1.0 of 0.25.
        #expect(s.handle(down(0.8)) == [schedule(.hold, 0.8 + 0.25)])
        #expect(s.timerFired(timer(.hold), at: 0.8 + 0.25) == [rejected(down(0.8), .ignoreRepeat)])
        #expect(s.handle(up(0.9)) == [rejected(up(0.9), .ignoreRepeat)])
        // Down at 1.0 (0.75 after the last press began) would begin at 1.25: accepted.
        #expect(s.handle(down(1.0)) == [schedule(.hold, 1.25)])
        #expect(s.timerFired(timer(.hold), at: 1.25) == [began(.select, 1.25)])
    }

    @Test func aShortPressReleasedBeforeHoldIsNotIgnoreRepeat() {
        var s = stabilizer(.init(holdDuration: 0.25, ignoreRepeat: 1.0))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        #expect(s.timerFired(timer(.hold), at: 0.25) == [began(.select, 0.25)])
        #expect(s.handle(up(0.5)) == [ended(.select, 0.5)])
        // holdDuration comes first: a press too short to count is reported as such.
        #expect(s.handle(down(0.6)) == [schedule(.hold, 0.6 + 0.25)])
        #expect(s.handle(up(0.7)) == [rejected(up(0.7), .releasedBeforeHoldDuration), cancel(.hold)])
    }
}

@Suite struct LongPressTests {
    @Test func shortPressActsOnReleaseLongPressAtTheTimer() {
        var s = stabilizer(.init(longPress: 1.0), ["a": selectOrMenu])
        #expect(s.handle(down(0)) == [schedule(.longPress, 1.0)])
        #expect(s.activeAction(of: "a") == nil)
        #expect(s.handle(up(0.4)) == [began(.select, 0.4), ended(.select, 0.4), cancel(.longPress)])

        #expect(s.handle(down(2)) == [schedule(.longPress, 3)])
        #expect(s.timerFired(timer(.longPress), at: 3) == [began(.menu, 3)])
        #expect(s.activeAction(of: "a") == .menu)
        #expect(s.handle(up(3.5)) == [ended(.menu, 3.5)])
        #expect(s.pendingTimers.isEmpty)
    }

    @Test func heldExactlyLongPressIsALongPress() {
        var s = stabilizer(.init(longPress: 1.0), ["a": selectOrMenu])
        #expect(s.handle(down(0)) == [schedule(.longPress, 1.0)])
        #expect(s.handle(up(1.0)) == [began(.menu, 1.0), ended(.menu, 1.0), cancel(.longPress)])
    }

    @Test func bindingsWithoutALongPressActionActOnPress() {
        var s = stabilizer(.init(longPress: 1.0), ["a": selectOrMenu, "b": SwitchBinding(action: .next)])
        #expect(s.handle(down(4, "b")) == [began(.next, 4, "b")])
        #expect(s.handle(up(6, "b")) == [ended(.next, 6, "b")])
    }

    @Test func longPressOffActsOnPressWithTheAction() {
        var s = stabilizer(.init(), ["a": selectOrMenu])
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.handle(up(2)) == [ended(.select, 2)])
    }

    @Test func longPressCountsFromTheAcceptedPress() {
        var s = stabilizer(.init(holdDuration: 0.25, longPress: 1.0), ["a": selectOrMenu])
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        #expect(s.timerFired(timer(.hold), at: 0.25) == [schedule(.longPress, 1.25)])
        #expect(s.handle(up(1.0)) == [began(.select, 1.0), ended(.select, 1.0), cancel(.longPress)])

        #expect(s.handle(down(2)) == [schedule(.hold, 2.25)])
        #expect(s.timerFired(timer(.hold), at: 2.25) == [schedule(.longPress, 3.25)])
        #expect(s.timerFired(timer(.longPress), at: 3.25) == [began(.menu, 3.25)])
        #expect(s.handle(up(4)) == [ended(.menu, 4)])
    }

    @Test func ignoredPressesDoNotStartALongPress() {
        var s = stabilizer(.init(ignoreRepeat: 2.0, longPress: 1.0), ["a": selectOrMenu])
        #expect(s.handle(down(0)) == [schedule(.longPress, 1.0)])
        #expect(s.handle(up(0.2)) == [began(.select, 0.2), ended(.select, 0.2), cancel(.longPress)])
        #expect(s.handle(down(0.5)) == [rejected(down(0.5), .ignoreRepeat)])
        #expect(s.handle(up(1.8)) == [rejected(up(1.8), .ignoreRepeat)])
        #expect(s.pendingTimers.isEmpty)
    }
}

@Suite struct PulseOnlyTests {
    @Test func eachDownIsAWholePressAndUpsAreRejected() {
        var s = stabilizer(.init(holdDuration: 0.25, longPress: 1.0, pulseOnly: true), ["a": selectOrMenu])
        #expect(s.handle(down(0)) == [began(.select, 0), ended(.select, 0)])
        #expect(s.handle(up(0.005)) == [rejected(up(0.005), .pulseRelease)])
        #expect(s.handle(down(0.010)) == [rejected(down(0.010), .bounce)])
        #expect(s.handle(up(0.015)) == [rejected(up(0.015), .pulseRelease)])
        #expect(s.handle(down(0.5)) == [began(.select, 0.5), ended(.select, 0.5)])
        // Pulses need no release between them.
        #expect(s.handle(down(0.7)) == [began(.select, 0.7), ended(.select, 0.7)])
        #expect(s.handle(autorepeat(0.8)) == [rejected(autorepeat(0.8), .autorepeat)])
        #expect(s.handle(down(0.9, "x")) == [rejected(down(0.9, "x"), .unbound)])
        #expect(s.pendingTimers.isEmpty)
        #expect(s.activeAction(of: "a") == nil)
    }

    @Test func ignoreRepeatStillApplies() {
        var s = stabilizer(.init(ignoreRepeat: 0.5, pulseOnly: true))
        #expect(s.handle(down(0)) == [began(.select, 0), ended(.select, 0)])
        #expect(s.handle(down(0.3)) == [rejected(down(0.3), .ignoreRepeat)])
        #expect(s.handle(down(0.6)) == [began(.select, 0.6), ended(.select, 0.6)])
    }

    @Test func releaseAllHasNothingToEnd() {
        var s = stabilizer(.init(pulseOnly: true))
        #expect(s.handle(down(0)) == [began(.select, 0), ended(.select, 0)])
        #expect(s.releaseAll(at: 0.001) == [])
    }
}

@Suite struct ReleaseAllTests {
    @Test func endsOnlyBegunActionsAndCancelsTimers() {
        let bindings: [SwitchID: SwitchBinding] = [
            "a": select, "b": selectOrMenu, "c": SwitchBinding(action: .next), "d": SwitchBinding(action: .previous),
        ]
        var driver = ManualClockDriver(.init(holdDuration: 0.25, longPress: 1.0), bindings: bindings)
        driver.send([down(0, "a"), down(0, "d"), down(0.1, "b"), down(0.5, "c"), up(0.6, "d"), down(0.61, "d")])
        #expect(driver.actions == [
            began(.select, 0.25, "a"), began(.previous, 0.25, "d"), ended(.previous, 0.6, "d"),
        ])
        #expect(driver.timers == [
            timer(.longPress, "b"): 0.1 + 0.25 + 1.0, timer(.hold, "c"): 0.75, timer(.debounce, "d"): 0.6 + 0.025,
        ])
        // a: begun; b: waiting for a long press; c: waiting for holdDuration; d: up, bouncing.
        #expect(driver.releaseAll(at: 0.62) == [
            ended(.select, 0.62, "a"), cancel(.longPress, "b"), cancel(.hold, "c"), cancel(.debounce, "d"),
        ])
        for id in ["a", "b", "c", "d"] { #expect(driver.stabilizer.activeAction(of: id) == nil) }
        #expect(driver.stabilizer.pendingTimers.isEmpty)

        // The device is back: every switch is up.
        #expect(driver.send(up(1, "a")) == [rejected(up(1, "a"), .redundant)])
        #expect(driver.send(down(1, "c")) == [schedule(.hold, 1.25, "c")])
        #expect(driver.send(down(1, "d")) == [schedule(.hold, 1.25, "d")])
    }

    @Test func appliesTimersAlreadyDueFirst() {
        var s = stabilizer(.init(holdDuration: 0.25))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        #expect(s.releaseAll(at: 1.0) == [began(.select, 0.25), ended(.select, 1.0), cancel(.hold)])
        #expect(s.releaseAll(at: 2.0) == [])
    }

    @Test func keepsTheIgnoreRepeatWindow() {
        var s = stabilizer(.init(ignoreRepeat: 1.0))
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.releaseAll(at: 0.2) == [ended(.select, 0.2)])
        #expect(s.handle(down(0.5)) == [rejected(down(0.5), .ignoreRepeat)])
    }

    @Test func staleTimerFiringsAfterwardsDoNothing() {
        var s = stabilizer(.init(holdDuration: 0.25))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        #expect(s.releaseAll(at: 0.1) == [cancel(.hold)])
        #expect(s.timerFired(timer(.hold), at: 0.25) == [])
        #expect(s.timerFired(timer(.debounce, "x"), at: 0.25) == [])
    }
}

@Suite struct IndependenceTests {
    @Test func twoSwitchesInterleaved() {
        var s = stabilizer(.init(holdDuration: 0.25), ["a": select, "b": SwitchBinding(action: .next)])
        #expect(s.handle(down(0, "a")) == [schedule(.hold, 0.25, "a")])
        // Within a's debounce window, but another switch.
        #expect(s.handle(down(0.01, "b")) == [schedule(.hold, 0.01 + 0.25, "b")])
        #expect(s.handle(up(0.1, "a")) == [rejected(up(0.1, "a"), .releasedBeforeHoldDuration), cancel(.hold, "a")])
        #expect(s.timerFired(timer(.hold, "b"), at: 0.01 + 0.25) == [began(.next, 0.01 + 0.25, "b")])
        #expect(s.handle(down(0.3, "a")) == [schedule(.hold, 0.3 + 0.25, "a")])
        #expect(s.handle(up(0.31, "b")) == [ended(.next, 0.31, "b")])
        #expect(s.handle(down(0.32, "b")) == [rejected(down(0.32, "b"), .bounce), schedule(.debounce, 0.31 + 0.025, "b")])
        #expect(s.timerFired(timer(.debounce, "b"), at: 0.31 + 0.025) == [schedule(.hold, 0.31 + 0.025 + 0.25, "b")])
        #expect(s.timerFired(timer(.hold, "a"), at: 0.3 + 0.25) == [began(.select, 0.3 + 0.25, "a")])
        #expect(s.timerFired(timer(.hold, "b"), at: 0.31 + 0.025 + 0.25) == [began(.next, 0.31 + 0.025 + 0.25, "b")])
        #expect(s.handle(up(1, "a")) == [ended(.select, 1, "a")])
        #expect(s.activeAction(of: "b") == .next)
        #expect(s.handle(up(1, "b")) == [ended(.next, 1, "b")])
        #expect(s.pendingTimers.isEmpty)
    }

    @Test func ignoreRepeatIsPerSwitch() {
        var s = stabilizer(.init(ignoreRepeat: 1.0), ["a": select, "b": SwitchBinding(action: .next)])
        #expect(s.handle(down(0, "a")) == [began(.select, 0, "a")])
        #expect(s.handle(down(0.1, "b")) == [began(.next, 0.1, "b")])
    }
}

@Suite struct LateTimerTests {
    @Test func holdTimerNotYetFiredWhenTheReleaseArrives() {
        var s = stabilizer(.init(holdDuration: 0.25))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        #expect(s.handle(up(0.5)) == [began(.select, 0.25), ended(.select, 0.5), cancel(.hold)])
        // The driver fires it after all: stale.
        #expect(s.timerFired(timer(.hold), at: 0.51) == [])
    }

    @Test func lateFiringIsDatedAtTheDeadline() {
        var s = stabilizer(.init(holdDuration: 0.25, longPress: 1.0), ["a": selectOrMenu])
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        // Fired late, after both deadlines: the hold and the long press both apply, at their times.
        #expect(s.timerFired(timer(.hold), at: 1.4) == [began(.menu, 1.25)])
        #expect(s.timerFired(timer(.longPress), at: 1.41) == [])
        #expect(s.handle(up(2)) == [ended(.menu, 2)])
    }

    @Test func debounceTimerNotYetFiredWhenTheNextEdgeArrives() {
        var s = stabilizer()
        #expect(s.handle(down(0)) == [began(.select, 0)])
        #expect(s.handle(up(0.010)) == [rejected(up(0.010), .bounce), schedule(.debounce, 0.025)])
        // The window ended at 0.025 with the switch up; the down at 0.040 is within the new window.
        #expect(s.handle(down(0.040)) == [
            ended(.select, 0.025), rejected(down(0.040), .bounce), schedule(.debounce, 0.025 + 0.025),
        ])
        // The old firing arrives late and early for the new deadline: the timer is asked for again.
        #expect(s.timerFired(timer(.debounce), at: 0.041) == [schedule(.debounce, 0.025 + 0.025)])
        #expect(s.timerFired(timer(.debounce), at: 0.025 + 0.025) == [began(.select, 0.025 + 0.025)])
    }

    @Test func earlyFiringReschedules() {
        var s = stabilizer(.init(holdDuration: 0.25))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        #expect(s.timerFired(timer(.hold), at: 0.1) == [schedule(.hold, 0.25)])
        #expect(s.timerFired(timer(.hold), at: 0.25) == [began(.select, 0.25)])
    }

    @Test func autorepeatAlsoBringsTimersUpToDate() {
        var s = stabilizer(.init(holdDuration: 0.25))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        #expect(s.handle(autorepeat(0.5)) == [began(.select, 0.25), rejected(autorepeat(0.5), .autorepeat), cancel(.hold)])
    }
}

@Suite struct BindingChangeTests {
    @Test func aPressUnderWayKeepsItsBinding() {
        var s = stabilizer()
        #expect(s.handle(down(0)) == [began(.select, 0)])
        s.bindings["a"] = SwitchBinding(action: .next)
        #expect(s.handle(up(1)) == [ended(.select, 1)])
        #expect(s.handle(down(2)) == [began(.next, 2)])
        s.bindings["a"] = nil
        #expect(s.handle(up(3)) == [ended(.next, 3)])
        #expect(s.handle(down(4)) == [rejected(down(4), .unbound)])
        #expect(s.handle(up(5)) == [rejected(up(5), .unbound)])
        #expect(s.pendingTimers.isEmpty)
    }

    @Test func aBindingRemovedDuringHoldRejectsTheLaterPress() {
        var s = stabilizer(.init(holdDuration: 0.25))
        #expect(s.handle(down(0)) == [schedule(.hold, 0.25)])
        s.bindings = [:]
        // The press began under its binding and completes.
        #expect(s.timerFired(timer(.hold), at: 0.25) == [began(.select, 0.25)])
        #expect(s.handle(up(1)) == [ended(.select, 1)])
        #expect(s.handle(down(2)) == [rejected(down(2), .unbound)])
    }
}

/// Random edge streams on a few configurations: fired on time or never fired (the stabilizer
/// catching up from later edges and `releaseAll`), every switch gets the same outputs; actions
/// begin and end in pairs, in time order; the driver's timers always match.
@Suite struct ScriptedRandomTests {
    static let configurations: [Stabilizer.Configuration] = [
        .init(),
        .init(holdDuration: 0.1),
        .init(ignoreRepeat: 0.3, longPress: 0.5),
        .init(holdDuration: 0.1, ignoreRepeat: 0.3, longPress: 0.5),
        .init(debounceTime: 0.04, holdDuration: 0.05, longPress: 0.2),
        .init(ignoreRepeat: 0.2, pulseOnly: true),
    ]

    @Test(arguments: 0..<configurations.count)
    func onTimeAndLateTimersAgree(configurationIndex: Int) {
        let configuration = Self.configurations[configurationIndex]
        let bindings: [SwitchID: SwitchBinding] = ["a": selectOrMenu, "b": SwitchBinding(action: .next)]
        for seed in UInt64(1)...40 {
            var random = SplitMix64(seed: seed &* 7919 &+ UInt64(configurationIndex))
            var edges: [SwitchEdge] = []
            var time = 0.0
            var isDown: [SwitchID: Bool] = [:]
            for _ in 0..<200 {
                let steps = [0.002, 0.005, 0.01, 0.02, 0.03, 0.06, 0.15, 0.4, 0.8]
                time += steps.randomElement(using: &random)!
                let id = ["a", "b", "x"].randomElement(using: &random)!
                let roll = Int.random(in: 0..<10, using: &random)
                let kind: SwitchEdge.Kind
                if roll == 0 {
                    kind = .repeat
                } else if roll == 1 {
                    kind = isDown[id, default: false] ? .down : .up  // redundant
                } else {
                    kind = isDown[id, default: false] ? .up : .down
                }
                if kind != .repeat { isDown[id] = kind == .down }
                edges.append(SwitchEdge(switchID: id, kind: kind, time: time))
            }
            var onTime = ManualClockDriver(configuration, bindings: bindings)
            var late = ManualClockDriver(configuration, bindings: bindings, firesTimers: false)
            onTime.send(edges)
            late.send(edges)
            onTime.releaseAll(at: time + 0.01)
            late.releaseAll(at: time + 0.01)
            for id in ["a", "b", "x"] {
                let expected = onTime.events.filter { $0.switchID == id }
                #expect(late.events.filter { $0.switchID == id } == expected, "seed \(seed), switch \(id)")
                checkPairs(expected, switchID: id)
            }
            #expect(onTime.events.count(where: { $0.switchID == "x" })
                == edges.count(where: { $0.switchID == "x" }))
        }
    }

    private func checkPairs(_ events: [StabilizerOutput], switchID: SwitchID) {
        var active: SwitchAction?
        var lastTime = -Double.infinity
        for event in events {
            switch event {
            case .began(let action, _, let time):
                #expect(active == nil, "\(switchID): began while \(String(describing: active)) active")
                #expect(time >= lastTime)
                active = action
                lastTime = time
            case .ended(let action, _, let time):
                #expect(active == action, "\(switchID): ended \(action) while \(String(describing: active)) active")
                #expect(time >= lastTime)
                active = nil
                lastTime = time
            case .rejected, .schedule, .cancel:
                break
            }
        }
        #expect(active == nil)
    }
}
