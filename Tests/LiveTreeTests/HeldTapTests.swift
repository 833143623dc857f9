import LiveTree
import Testing

/// A tap held for a slow application's answer, on a clock the test sets.
@Suite("A held tap")
struct HeldTapTests {
    @Test("held while nothing has come, until the bound at the latest")
    func waits() {
        let held = HeldTap(since: 100)
        #expect(held.next(.waiting, at: 100) == .wait(until: 100 + HeldTap.answerBound))
        #expect(held.next(.waiting, at: 104.9) == .wait(until: 105))
    }

    @Test("carried out when the application answers, even at the bound")
    func answered() {
        let held = HeldTap(since: 100)
        #expect(held.next(.answered, at: 100.5) == .carryOut)
        #expect(held.next(.answered, at: 105) == .carryOut)
    }

    @Test("an unanswered question is asked again while time is left; not done once the bound passed")
    func bound() {
        let held = HeldTap(since: 100)
        #expect(held.next(.unanswered, at: 101) == .askAgain)
        #expect(held.next(.unanswered, at: 105) == .giveUp)
        #expect(held.next(.waiting, at: 105) == .giveUp)
        #expect(held.next(.waiting, at: 200) == .giveUp)
    }

    @Test("an application that left: not done at once")
    func left() {
        #expect(HeldTap(since: 100).next(.left, at: 100.1) == .giveUp)
    }
}
