import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Platform

/// Runs the built `switchscan` executable as a subprocess, as swift-argument-parser's own
/// example tests do.
enum CLI {
    /// The package root: three levels above this file (Tests/SwitchScanCLITests/CLISupport.swift).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The products folder of the running test build (where the test bundle is), then the
    /// package's `.build/debug` as a fallback.
    static var candidateDirectories: [URL] {
        var folders = [URL]()
        let bundle = Bundle.main.bundleURL
        folders.append(bundle)                              // Linux: the folder of the test executable
        folders.append(bundle.deletingLastPathComponent())  // macOS: the folder holding the .xctest bundle
        if let executable = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        return folders
    }

    /// Every switchscan the tests start keeps what it learns of the user's selections
    /// (`learnSelections`, on by default in `switchscan run`) in this scratch folder, never in the
    /// user's state folder: set once in this process's environment, which they inherit (a test
    /// that gives its own XDG_STATE_HOME wins). Else a run's selections would change the
    /// structure the next test run sees.
    static let scratchStateHome: String = {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchscan-cli-tests-state-\(CurrentProcess.id)", isDirectory: true).path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try? CurrentProcess.setEnvironmentVariable("XDG_STATE_HOME", to: path)
        return path
    }()

    static func binary() throws -> URL {
        _ = scratchStateHome
        for folder in candidateDirectories {
            let candidate = folder.appendingPathComponent("switchscan")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw CLIError("switchscan was not found in \(candidateDirectories.map(\.path)); run `swift build` first")
    }

    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
        var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastEmpty() }
    }

    /// One 64-bit `struct input_event` (seconds, microseconds, type, code, value), as the kernel
    /// and `--input raw:PATH` read it.
    static func inputEventRecord(_ time: Double, _ type: UInt16, _ code: UInt16, _ value: Int32) -> Data {
        var data = Data()
        let seconds = Int64(time.rounded(.down))
        let micros = Int64(((time - Double(seconds)) * 1_000_000).rounded())
        withUnsafeBytes(of: seconds.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: micros.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: type.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: code.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// Opens a FIFO for writing once a reader has it open (the program under test), waiting at
    /// most `timeout` seconds: opening it blocking would hang the test for ever if the program
    /// exited first (a setting it refused, say).
    static func fifoWriter(_ path: String, timeout: Double = 15) throws -> FileHandle {
        let end = Date().addingTimeInterval(timeout)
        while true {
            do {
                let descriptor = try FileIO.open(path, .writeOnly, options: .nonBlocking)
                // Blocking writes from here on, as a device or a bridge writes.
                try? FileIO.setNonBlocking(descriptor, false)
                return FileHandle(fileDescriptor: descriptor.rawValue, closeOnDealloc: true)
            } catch {
                guard error.errno == .noSuchDeviceOrAddress, Date() < end else {
                    throw CLIError("no reader opened \(path) within \(timeout) s (\(error.errno.message))")
                }
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Runs `switchscan arguments…` in `directory` (the package root by default, so that paths
    /// such as `Scenarios/…` are relative and appear as given in the output), with `environment`
    /// added to this process's.
    static func run(_ arguments: [String], in directory: URL = packageRoot,
                    environment: [String: String] = [:]) throws -> Result {
        try runProgram(try binary().path, arguments, in: directory,
                       environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, new in new })
    }

    /// Runs any program with exactly `environment` (this process's when nil), standard input
    /// empty, and returns its exit status and output (through files: no pipe to fill up).
    static func runProgram(_ executable: String, _ arguments: [String], in directory: URL = packageRoot,
                           environment: [String: String]? = nil) throws -> Result {
        let scratch = try TemporaryFolder()
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        var attempts = 0
        var process: Process
        while true {
            process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = directory
            if let environment { process.environment = environment }
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            do {
                try process.run()
                break
            } catch let error as NSError where attempts < 50
                && (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY) {
                // A program the test just copied or unpacked: a child another test forks meanwhile
                // may hold it open for writing until that child execs. Again, a moment later.
                attempts += 1
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A fresh folder under the system's temporary folder, removed when the value is released.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchscan-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// A new file in the folder, open for writing: for a process's output that no check reads
    /// (a test's output never goes to a system path such as /dev/null).
    func outputFile(_ name: String) throws -> FileHandle {
        let file = url.appendingPathComponent(name)
        FileManager.default.createFile(atPath: file.path, contents: nil)
        return try FileHandle(forWritingTo: file)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

extension Array where Element == String {
    /// Without the empty string that follows a final newline.
    func dropLastEmpty() -> [String] {
        last == "" ? Array(dropLast()) : self
    }
}

/// tmux, run by the tests.
enum Tmux {
    /// Runs tmux on the server of `socket` (`-L`) and returns what it printed. posix_spawn and
    /// waitpid with a deadline rather than Foundation's Process: under the whole test suite,
    /// Process.waitUntilExit was seen never to return for a tmux client that had exited. Output
    /// goes through a file, not a pipe: the tmux server that `new-session` starts would inherit a
    /// pipe and keep it open forever.
    static func run(socket: String, _ arguments: [String], timeout: Double = 10) throws -> String {
        let folder = try TemporaryFolder()
        let outputPath = folder.url.appendingPathComponent("out").path
        let pid = try ChildProcess.spawn(
            "tmux", arguments: ["tmux", "-L", socket] + arguments, searchPath: true, standardInput: .reading("/dev/null"),
            standardOutput: .writing(outputPath, append: false),
            standardError: .writing(folder.url.appendingPathComponent("errors").path, append: false))
        let deadline = Date().addingTimeInterval(timeout)
        while ChildProcess.state(of: pid, blocking: false) == .running {
            if Date() > deadline {
                try? ProcessSignal.send(SIGKILL, to: pid)
                ChildProcess.wait(pid)
                throw CLIError("tmux \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
            }
            MonotonicClock.sleep(seconds: 0.01)
        }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }
}
