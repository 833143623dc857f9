import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Platform

/// A run without a screen (the systemd unit, `--no-view`): what fails, what it waits for and what
/// comes back is said on standard error, each once, so that the journal tells the story.
extension InputRunTests {
    /// The lines of standard error that start with `prefix`.
    static func lines(_ stderr: String, containing text: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.contains(text) }
    }

    @Test func aMissingDeviceAndAnAbsentBRLTTYAreSaidOnceOnStandardError() throws {
        let device = folder.url.appendingPathComponent("event99").path
        // A BrlAPI socket number no BRLTTY of this machine uses.
        let number = try #require((90...99).first { !FileManager.default.fileExists(atPath: "/var/lib/BrlAPI/\($0)") })
        // 2.5 s: the display output tries again several times meanwhile (backoff from 0.1 s).
        let result = try run(["--input", "evdev:\(device)", "--braille", "brlapi::\(number)", "--duration", "2.5"])
        #expect(result.status == 0, "\(result)")
        let waiting = Self.lines(result.stderr, containing: "\(device): no such device now; waiting for it to appear")
        #expect(waiting == ["switchscan run: \(device): no such device now; waiting for it to appear"], "\(result)")
        let braille = Self.lines(result.stderr, containing: "braille display:")
        #expect(braille.count == 1, "once, not every retry: \(result)")
        #expect(braille.first?.hasPrefix("switchscan run: braille display: no BRLTTY at :\(number) (") == true, "\(result)")
        #expect(braille.first?.hasSuffix("waiting for it (socket /var/lib/BrlAPI/\(number)), trying again") == true, "\(result)")
        // What standard error says is what the trace says.
        #expect(result.statuses.contains { $0.hasPrefix("braille display: no BRLTTY at :\(number)") }, "\(result)")
    }

    @Test func inputsThatCannotBeOpenedAreEachSaidOnceOnStandardError() throws {
        let result = try run(["--input", "raw:\(folder.url.path)/missing.fifo", "--input", "evemu:\(folder.url.path)/missing.evemu"])
        #expect(result.status == 1, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("missing.evemu:1:1: error: cannot read the file: No such file or directory") }.count == 1, "\(result)")
        #expect(lines.filter { $0.contains("missing.fifo: cannot open it: No such file or directory") }.count == 1, "\(result)")
        #expect(Set(lines).count == lines.count, "no line twice: \(result)")
    }

    @Test func aStreamWhoseWriterLeavesAndComesBackIsToldOnStandardError() throws {
        let fifo = folder.url.appendingPathComponent("switch.fifo").path
        #expect(throws: Never.self) { try FileSystem.makeFIFO(fifo) }
        let record = CLI.inputEventRecord
        let trace = tracePath
        func waitForTrace(_ text: String, times: Int = 1) {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline,
                  ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").components(separatedBy: text).count <= times {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        let result = try run(["--input", "raw:\(fifo)", "--input", "terminal"]) { _ in
            waitForTrace("reading struct input_event records")
            let first = try CLI.fifoWriter(fifo)
            first.write(record(1.0, 1, 28, 1) + record(1.0, 0, 0, 0) + record(1.05, 1, 28, 0) + record(1.05, 0, 0, 0))
            Thread.sleep(forTimeInterval: 0.2)
            try first.close()
            waitForTrace("waiting for the next writer")
            let second = try CLI.fifoWriter(fifo)
            second.write(record(2.0, 1, 28, 1) + record(2.0, 0, 0, 0) + record(2.05, 1, 28, 0) + record(2.05, 0, 0, 0))
            waitForTrace("a writer is back")
            try second.close()
            waitForTrace("waiting for the next writer", times: 2)
        }
        #expect(result.status == 0, "\(result)")
        let told = Self.lines(result.stderr, containing: "raw:\(fifo):")
        #expect(told == [
            "switchscan run: raw:\(fifo): reading struct input_event records (24 bytes each) through profile generic-keyboard",
            "switchscan run: raw:\(fifo): the writer closed the stream; waiting for the next writer",
            "switchscan run: raw:\(fifo): a writer is back; reading its records",
            "switchscan run: raw:\(fifo): the writer closed the stream; waiting for the next writer",
        ], "\(result)")
        #expect(result.inputs.filter(\.accepted).count == 4, "\(result)")
    }

    @Test func aProfileFileWithErrorsStopsTheRunWithItsProblems() throws {
        let profile = try folder.write("broken.yaml", "name: Broken\nswitches:\n  - {id: a, code: KEY_NOPE, action: select}\n")
        let problem = "\(profile):3:19: error: unknown key code 'KEY_NOPE'"
        let byFile = try run(["--input", "raw:\(folder.url.path)/none.fifo", "--profile", profile])
        #expect(byFile.status == 2, "\(byFile)")
        #expect(byFile.stderr.hasPrefix(problem), "\(byFile)")
        #expect(byFile.stderr.contains("--profile \(profile) has errors"), "\(byFile)")

        // The same file in the user's profile folder, chosen by its id.
        let switches = folder.url.appendingPathComponent("config/switchscan/switches")
        try FileManager.default.createDirectory(at: switches, withIntermediateDirectories: true)
        let installed = switches.appendingPathComponent("broken.yaml").path
        try FileManager.default.copyItem(atPath: profile, toPath: installed)
        let byID = try run(["--input", "raw:\(folder.url.path)/none.fifo", "--profile", "broken"])
        #expect(byID.status == 2, "\(byID)")
        #expect(byID.stderr.hasPrefix("\(installed):3:19: error: unknown key code 'KEY_NOPE'"), "\(byID)")
        #expect(byID.stderr.contains("--profile broken: the profile \(installed) has errors"), "\(byID)")
        #expect(!byID.stderr.contains("no such file"), "\(byID)")
    }
}
