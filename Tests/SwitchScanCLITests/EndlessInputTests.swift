import BrailleTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Platform

/// `switchscan run` with streams that never end (issue 23, item 4) and the selections store
/// written off the loop (item 5): `--duration` and signals are obeyed whatever an input or the
/// trace does, and a press is handled while the store waits for its lock. The bounds are hang
/// guards for a loaded machine, not speed tests.
@Suite("switchscan run with endless streams", .serialized)
struct EndlessInputTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// How long a run of `--duration 1` may take on a loaded machine before it is taken to hang.
    static let hangBound = 30.0

    struct Run {
        var status: Int32
        var stderr: String
        var timedOut: Bool
    }

    /// Starts `switchscan run SCENE --no-view arguments…`; `during` runs while it runs. A run
    /// past `hangBound` is killed by its PID (SIGKILL: a run blocked in open(2) ignored SIGTERM).
    func run(_ arguments: [String], environment: [String: String] = [:], stdin: FileHandle? = nil,
             during: ((Process, URL) throws -> Void)? = nil) throws -> Run {
        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["run", InputRunTests.scene, "--no-view"] + arguments
        process.currentDirectoryURL = CLI.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path].merging(environment) { $1 }) { $1 }
        let errURL = folder.url.appendingPathComponent("stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardError = err
        let out = folder.url.appendingPathComponent("stdout-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardInput = stdin ?? FileHandle.nullDevice
        let started = MonotonicClock.now()
        try process.run()
        try during?(process, errURL)
        while process.isRunning, MonotonicClock.now() - started < Self.hangBound { Thread.sleep(forTimeInterval: 0.02) }
        let timedOut = process.isRunning
        if timedOut { try? ProcessSignal.send(SIGKILL, to: process.processIdentifier) }
        process.waitUntilExit()
        try err.close()
        return Run(status: process.terminationStatus, stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
                   timedOut: timedOut)
    }

    /// An empty regular file as the only input: it ends at once, and `--duration` ends the run.
    func emptyInput() throws -> String { try folder.write("empty.raw", "") }

    @Test func aTraceFIFOWithNoReaderIsSaidOnceAndTheRunKeepsItsDuration() throws {
        let fifo = folder.url.appendingPathComponent("trace.fifo").path
        #expect(throws: Never.self) { try FileSystem.makeFIFO(fifo) }
        let result = try run(["--input", "raw:\(try emptyInput())", "--trace", fifo, "--duration", "1"])
        #expect(!result.timedOut, "the run blocked opening the trace FIFO")
        #expect(result.status == 0, "\(result)")
        let said = result.stderr.components(separatedBy: "is a FIFO with no reader").count - 1
        #expect(said == 1, "\(result.stderr)")
        #expect(result.stderr.contains("switchscan: trace: \(fifo) is a FIFO with no reader; the run goes on"), "\(result.stderr)")
    }

    @Test func aReaderThatOpensTheTraceFIFOLaterGetsTheTraceFromTheRunLine() throws {
        let fifo = folder.url.appendingPathComponent("trace.fifo").path
        #expect(throws: Never.self) { try FileSystem.makeFIFO(fifo) }
        var lines = [String]()
        let result = try run(["--input", "raw:\(try emptyInput())", "--trace", fifo, "--duration", "3"]) { process, errURL in
            // Once the run has said that nobody reads, a reader comes, and reads until the run ends.
            let started = MonotonicClock.now()
            while !String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self).contains("no reader"),
                  MonotonicClock.now() - started < Self.hangBound {
                Thread.sleep(forTimeInterval: 0.02)
            }
            let reader = try FileIO.open(fifo, .readOnly, options: .nonBlocking)
            defer { FileIO.close(reader) }
            var data = [UInt8]()
            var running = true
            while MonotonicClock.now() - started < Self.hangBound {
                if let bytes = try FileIO.read(reader, maxBytes: 65536), !bytes.isEmpty { data += bytes; continue }
                if !running { break }  // drained after the run ended
                running = process.isRunning
                Thread.sleep(forTimeInterval: 0.02)
            }
            lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result)")
        #expect(lines.first?.contains("\"kind\":\"run\"") == true, "\(lines.prefix(3))")
        #expect(lines.contains { $0.contains("has a reader; writing the trace to it") }, "\(lines)")
        #expect(lines.contains { $0.contains("\"kind\":\"highlight\"") }, "\(lines)")
    }

    @Test func aStreamOfZerosFromADeviceNodeKeepsTheDurationAndSIGTERM() throws {
        // A device node like /dev/zero (char 1:5), made in the test's own folder.
        let zero = folder.url.appendingPathComponent("zero").path
        do {
            try FileSystem.makeCharacterDevice(zero, major: 1, minor: 5)
        } catch {
            Issue.record("\(error) (the test needs root)")
            return
        }
        let trace = folder.url.appendingPathComponent("trace.jsonl").path
        let timed = try run(["--input", "raw:\(zero)", "--trace", trace, "--duration", "1"])
        #expect(!timed.timedOut, "--duration 1 was not obeyed")
        #expect(timed.status == 0, "\(timed)")

        let signalled = try run(["--input", "raw:\(zero)", "--trace", trace]) { process, _ in
            // Once the run takes signals through its loop's descriptor (not after a fixed pause:
            // before that, SIGTERM's default action would end it, which is not what this test
            // looks at).
            #expect(ProcessStat.waitForSignalDescriptor(process.processIdentifier), "no signal descriptor")
            try? ProcessSignal.send(SIGTERM, to: process.processIdentifier)
        }
        #expect(!signalled.timedOut, "SIGTERM was not obeyed")
        #expect(signalled.status == 143, "\(signalled)")
    }

    @Test func aPressIsHandledWhileTheSelectionsStoreWaitsForItsLock() throws {
        let state = folder.url.appendingPathComponent("state").path
        let storeFolder = state + "/switchscan"
        try FileManager.default.createDirectory(atPath: storeFolder, withIntermediateDirectories: true)
        try folder.write("learn.yaml", SelectionLearningRunTests.scene)
        // Another writer holds the store's folder lock (as SafeFileWriter takes it) until the
        // test has seen the run handle the presses that follow the 16th selection.
        let lock = try FileIO.open(storeFolder, .readOnly, options: .directory)
        try FileIO.lockExclusively(lock)
        var released = false
        defer { if !released { FileIO.close(lock) } }
        let trace = folder.url.appendingPathComponent("trace.jsonl").path
        let input = Pipe()
        var performs = 0
        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["run", "learn.yaml", "--no-view", "--trace", trace, "--set", "scanning=manual",
                             "--set", "tapBehavior=alwaysTap", "--set", "groupItems=false"]
        process.currentDirectoryURL = folder.url
        process.environment = ProcessInfo.processInfo.environment.merging([
            "XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path, "XDG_STATE_HOME": state,
        ]) { $1 }
        process.standardInput = input
        let out = folder.url.appendingPathComponent("stdout")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        try process.run()
        // 16 selections (a write is due), then 4 more, each its own read.
        for _ in 0..<20 {
            input.fileHandleForWriting.write(Data((String(repeating: "\r", count: 7) + " ").utf8))
            Thread.sleep(forTimeInterval: 0.05)
        }
        let started = MonotonicClock.now()
        while performs < 20, MonotonicClock.now() - started < Self.hangBound {
            Thread.sleep(forTimeInterval: 0.05)
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            performs = text.components(separatedBy: "\"kind\":\"perform\"").count - 1
        }
        #expect(performs == 20, "the loop waited for the store's lock: \(performs) presses handled")
        // The lock released, the run ends (end of input) with every selection stored.
        FileIO.close(lock)
        released = true
        try input.fileHandleForWriting.close()
        let ending = MonotonicClock.now()
        while process.isRunning, MonotonicClock.now() - ending < Self.hangBound { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { try? ProcessSignal.send(SIGKILL, to: process.processIdentifier) }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let events = try RunCommandTests.traceEvents(trace)
        #expect(SelectionLearningRunTests.writes(events) == [16, 4], "\(SelectionLearningRunTests.writes(events))")
        let file = try String(contentsOfFile: storeFolder + "/selections.tsv", encoding: .utf8)
        let count = Double(try #require(file.split(separator: "\n").last?.split(separator: "\t").last))
        #expect(count.map { $0 > 19.5 && $0 <= 20 } == true, "\(file)")
    }
}

extension EndlessInputTests {
    @Test func aLongRecordingReplayedFastKeepsTheDuration() throws {
        // 60 MiB of presses and releases: read as replayed, so --duration 1 ends the run (it
        // was parsed whole before the run began: 18 to 86 s for a release build here).
        let path = folder.url.appendingPathComponent("long.evemu").path
        FileManager.default.createFile(atPath: path, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.write(contentsOf: Data("# EVEMU 1.3\nN: Pedal\nI: 0003 0c45 7403 0001\nB: 01 00 00 00 10 00 00 00 00\n".utf8))
        var index = 0
        var written = 0
        while written < 60 << 20 {
            var chunk = ""
            for _ in 0..<10000 {
                let micros = 1 + index * 100_000
                let time = "\(micros / 1_000_000).\(String(format: "%06d", micros % 1_000_000))"
                chunk += "E: \(time) 0001 001c \(index % 2 == 0 ? "0001" : "0000")\nE: \(time) 0000 0000 0000\n"
                index += 1
            }
            let data = Data(chunk.utf8)
            try file.write(contentsOf: data)
            written += data.count
        }
        try file.close()
        let result = try run(["--input", "evemu:\(path)", "--fast", "--duration", "1"])
        #expect(!result.timedOut, "--duration 1 was not obeyed")
        #expect(result.status == 0, "\(result)")
    }
}
