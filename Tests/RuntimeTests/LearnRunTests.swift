import Platform
import DeviceProfiles
import Foundation
import Runtime
import SwitchInput
import Testing

/// `switchscan learn` on a live device goes through the reactor: each wait is a wait on the
/// device's descriptor to a deadline. Here the device is a pipe: a batch of events written to it
/// makes it readable, as a key press makes an evdev node readable.
@Suite("Learning a live device through the reactor")
struct LearnRunTests {
    /// Events given in batches, read one batch at a time; one byte on the pipe per batch keeps
    /// the descriptor readable while batches wait.
    final class PipeDevice: LearnableDevice {
        private let pipe = Pipe()
        private var batches: [[DeviceEvent]] = []
        /// Keys down until a release is read.
        private var keyDown: Bool
        var gone = false
        init(keyDown: Bool = false) { self.keyDown = keyDown }

        var path: String { "pipe device" }
        var fileDescriptor: Int32 { pipe.fileHandleForReading.fileDescriptor }
        func hasEventPending() throws -> Bool { false }
        func keysDown() throws -> Bool { keyDown }

        func send(_ events: [DeviceEvent]) {
            batches.append(events)
            pipe.fileHandleForWriting.write(Data([1]))
        }

        func readEvents() throws -> (events: [DeviceEvent], gone: Bool) {
            guard !batches.isEmpty else { return ([], gone) }
            _ = pipe.fileHandleForReading.readData(ofLength: 1)
            let events = batches.removeFirst()
            if events.contains(where: { $0.type == DeviceEvent.EventType.key && $0.value == DeviceEvent.KeyValue.release }) {
                keyDown = false
            }
            return (events, gone)
        }
    }

    static func key(_ code: UInt16, _ value: Int32, at second: Int64) -> DeviceEvent {
        DeviceEvent(seconds: second, microseconds: 0, type: DeviceEvent.EventType.key, code: code, value: value)
    }

    /// A press and release of `code`.
    static func tap(_ code: UInt16, at second: Int64) -> [DeviceEvent] {
        [key(code, 1, at: second), key(code, 0, at: second)]
    }

    @Test("Two switches pressed in turn are learned in order; a key pressed again is refused with its switch, and the next key is asked for")
    func learnsEachSwitchInTurn() throws {
        let device = PipeDevice()
        device.send(Self.tap(30, at: 1))  // KEY_A
        device.send(Self.tap(30, at: 2))  // KEY_A again
        device.send(Self.tap(48, at: 3))  // KEY_B
        var messages: [LearnRun.Message] = []
        let run = LearnRun(device: device, actions: [.select, .next], timeout: 30, reactor: try Reactor()) { messages.append($0) }
        #expect(try run.waitForKeysReleased() == nil)
        #expect(try run.learn() == .learned)
        #expect(run.learner.switches.map(\.code) == [30, 48])
        #expect(run.learner.switches.map(\.action) == [.select, .next])
        let first = try #require(run.learner.switches.first)
        let second = try #require(run.learner.switches.last)
        #expect(messages == [
            .press(index: 0, count: 2, action: .select), .learned(first),
            .press(index: 1, count: 2, action: .next), .alreadyLearned(code: 30, switchID: first.id), .learned(second),
        ])
    }

    @Test("A key held down: the user is told to release it, once; the wait ends with the release, not at its deadline")
    func waitsForTheRelease() throws {
        let device = PipeDevice(keyDown: true)
        device.send([Self.key(30, 0, at: 1)])
        var messages: [LearnRun.Message] = []
        // A day's timeout: only the release can end the wait.
        let run = LearnRun(device: device, actions: [.select], timeout: 86_400, reactor: try Reactor()) { messages.append($0) }
        #expect(try run.waitForKeysReleased() == nil)
        #expect(messages == [.releaseKeys])
    }

    @Test("No press before the deadline: the switch asked for is named; keys that stay down: said so; the device gone: said so")
    func endsWithoutAProfile() throws {
        let reactor = try Reactor()
        let silent = PipeDevice()
        let waited = LearnRun(device: silent, actions: [.select, .next], timeout: 0.05, reactor: reactor) { _ in }
        #expect(try waited.learn() == .noPress(index: 0))

        let held = PipeDevice(keyDown: true)
        let stuck = LearnRun(device: held, actions: [.select], timeout: 0.05, reactor: reactor) { _ in }
        #expect(try stuck.waitForKeysReleased() == .keysStayedDown)

        let unplugged = PipeDevice()
        unplugged.send([Self.key(30, 1, at: 1)])
        unplugged.gone = true
        let lost = LearnRun(device: unplugged, actions: [.select], timeout: 30, reactor: reactor) { _ in }
        #expect(try lost.learn() == .deviceGone)
    }

    @Test("The reactor's retry: tried until it finds, or once more at the deadline and then timed out")
    func retry() throws {
        let reactor = try Reactor()
        var attempts = 0
        let found = try reactor.retry(every: 0, until: MonotonicClock.now() + 86_400) { () -> Int? in
            attempts += 1
            return attempts == 3 ? attempts : nil
        }
        guard case .found(3) = found else {
            Issue.record("\(found)")
            return
        }
        attempts = 0
        let timedOut = try reactor.retry(every: 0.01, until: MonotonicClock.now() - 1) { () -> Int? in
            attempts += 1
            return nil
        }
        guard case .timedOut = timedOut else {
            Issue.record("\(timedOut)")
            return
        }
        #expect(attempts == 1)
    }
}
