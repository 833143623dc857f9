import BrailleTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Speech
import SpeechTestSupport
import Testing
import TestTier
import Platform

/// The libspeechd wrapper at a real speech-dispatcher on a private socket, whose recorder
/// module writes down what it says.
@Suite("speech-dispatcher through libspeechd", .serialized,
       .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips the tests that start speech-dispatcher"),
       .enabled(if: FileSystem.isAccessible("/usr/bin/speech-dispatcher", .executable), "speech-dispatcher is not installed (scripts/setup --tests installs it)"))
struct SpeechDispatcherConnectionTests {
    /// Waits until `condition` holds, at most `timeout` s (a bound for a hang, not a measure).
    static func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = monotonicNow() + timeout
        while !condition(), monotonicNow() < deadline { sleepSeconds(0.02) }
        return condition()
    }

    /// A new folder of the test's own (short: a unix socket's path has at most 107 bytes).
    static func makeFolder() throws -> String {
        let folder = "/tmp/switchscan-speech-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        return folder
    }

    /// A private folder, speech-dispatcher in it, and a pipe for the notifications.
    final class Rig {
        let folder: String
        let server: SpeechDispatcherProcess
        let pipe: (read: FileDescriptor, write: FileDescriptor)

        init() throws {
            folder = try SpeechDispatcherConnectionTests.makeFolder()
            server = try SpeechDispatcherProcess(directory: folder)
            let ends = try FileIO.pipe()
            pipe = (ends.readEnd, ends.writeEnd)
            try server.start()
        }

        deinit {
            server.stop()
            FileIO.close(pipe.read)
            FileIO.close(pipe.write)
            try? FileManager.default.removeItem(atPath: folder)
        }

        func connect() throws -> SpeechDispatcherConnection {
            let connection = try SpeechDispatcherConnection.open(client: "switchscan-test", address: SpeechAddress(parsing: server.address))
            try connection.routeNotifications(to: pipe.write.rawValue)
            return connection
        }

        private var pending: [UInt8] = []
        private(set) var notifications: [SpeechNotification] = []

        /// Reads notifications until `done` holds of those read so far (at most `timeout` s: a
        /// bound for a hang, not a measure).
        func waitFor(timeout: Double = 10, _ done: ([SpeechNotification]) -> Bool) -> Bool {
            let deadline = monotonicNow() + timeout
            while !done(notifications), monotonicNow() < deadline {
                _ = try? Poll.readable([pipe.read], timeout: 0.1)
                guard let bytes = try? FileIO.read(pipe.read), !bytes.isEmpty else { continue }
                let (decoded, rest) = SpeechNotification.decode(pending + bytes)
                pending = rest
                notifications += decoded
            }
            return done(notifications)
        }
    }

    @Test func aMessageIsSpokenInItsLanguageAndItsBeginAndEndAreNotified() throws {
        let rig = try Rig()
        let connection = try rig.connect()
        try connection.setLanguage("fr")
        let id = try connection.say("Bonjour l'ami", priority: .text)
        #expect(rig.waitFor { $0.contains { $0.message == id && $0.event == .ended } })
        let events = rig.notifications.filter { $0.message == id }.map(\.event)
        #expect(events == [.began, .ended])
        let spoken = rig.server.spoken()
        #expect(spoken.map(\.text) == ["Bonjour l'ami"])
        #expect(spoken.first?.language == "fr")
        #expect(spoken.first?.voice == SpeechDispatcherProcess.voices["fr"])
        #expect(spoken.first?.finished == true)
        // The times are CLOCK_MONOTONIC's: the end comes after the begin by about the speaking time.
        let began = try #require(rig.notifications.first { $0.message == id && $0.event == .began })
        let ended = try #require(rig.notifications.first { $0.message == id && $0.event == .ended })
        #expect(ended.time - began.time >= 0.2, "the recorder speaks for at least 0.2 s")
        #expect(abs(began.time - monotonicNow()) < 60)
    }

    @Test func aTextMessageIsInterruptedByTheNextOne() throws {
        let rig = try Rig()
        let connection = try rig.connect()
        try connection.setLanguage("en")
        let first = try connection.say(String(repeating: "a long item label ", count: 10), priority: .text)
        #expect(rig.waitFor { $0.contains { $0.message == first && $0.event == .began } })
        // The recorder has begun saying it (speech-dispatcher's begin comes as its module starts).
        #expect(Self.waitUntil { rig.server.spoken().count == 1 })
        try connection.cancel()
        let second = try connection.say("Play button", priority: .text)
        #expect(rig.waitFor { $0.contains { $0.message == second && $0.event == .ended } })
        #expect(rig.notifications.contains { $0.message == first && $0.event == .cancelled })
        #expect(!rig.notifications.contains { $0.message == first && $0.event == .ended })
        let spoken = rig.server.spoken()
        #expect(spoken.map(\.text) == [String(repeating: "a long item label ", count: 10), "Play button"], "\(spoken)")
        #expect(spoken.map(\.finished) == [false, true])
    }

    @Test func noServerAtTheAddressIsAnErrorNamingTheCallAndTheAddress() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let address = try SpeechAddress(parsing: "unix_socket:\(folder)/speechd.sock")
        #expect {
            _ = try SpeechDispatcherConnection.open(client: "switchscan-test", address: address)
        } throws: { error in
            let error = error as? SpeechError
            return error?.function == "spd_open2" && error?.message.contains("\(folder)/speechd.sock") == true
        }
    }

    @Test func speechDispatcherStartedByATestIsStoppedWhenTheRunnersEndOfThePipeCloses() throws {
        let rig = try Rig()
        let (server, watchdog) = try #require(rig.server.abandonToWatchdog())
        func alive(_ pid: pid_t) -> Bool { ProcessStatistics.state(of: pid).map { $0 != "Z" } ?? false }
        #expect(alive(server))
        let stopped = Self.waitUntil { !alive(server) }
        #expect(stopped, "speech-dispatcher \(server) is gone")
        // Should the watchdog fail, this test's own child is not left running.
        if !stopped { try? ProcessSignal.send(SIGKILL, to: server) }
        #expect(Self.waitUntil { !alive(watchdog) }, "the watchdog \(watchdog) is gone")
        ChildProcess.wait(server)
        ChildProcess.wait(watchdog)
    }

    @Test func addressesRatesAndVolumesOutOfRangeAreRefusedBeforeAnyCall() throws {
        for bad in ["", "unix_socket:", "inet_socket:host", "inet_socket:host:0", "inet_socket:host:70000", "tcp:x"] {
            #expect(throws: SpeechError.self) { try SpeechAddress(parsing: bad) }
        }
        #expect(try SpeechAddress(parsing: "inet_socket:localhost:6560") == .inetSocket(host: "localhost", port: 6560))
        let rig = try Rig()
        let connection = try rig.connect()
        for bad in [-101, 101, Int.max, Int.min] {
            #expect(throws: SpeechError.self) { try connection.setRate(bad) }
            #expect(throws: SpeechError.self) { try connection.setVolume(bad) }
        }
        try connection.setRate(-100)
        try connection.setVolume(100)
    }
}
