import Foundation
import Runtime
import Platform

/// The `output-path` kind: a command that writes a file (`test --junit`, `learn --output --force`,
/// `import -o`, `settings set --file`) run as the user runs it, the built `switchscan` beside this
/// program, against one kind of thing at the output path, made in a fresh temporary folder. What
/// must hold: nothing but a regular file (or a new file) is ever replaced, a link stays a link,
/// the files read are unchanged, no temporary file is left, and the exit status is 0 when the
/// file was written and 1 when it was refused. A breach is a crash (`fatalError`), so that the
/// supervisor keeps the case (its text, `COMMAND TARGET`) in the regressions.
enum OutputPaths {
    enum Command: String, CaseIterable {
        case junit, learn, `import`, settings
    }

    enum Target: String, CaseIterable {
        case newFile = "new-file"
        case regularFile = "regular-file"
        case linkToFile = "link-to-file"
        case linkToFolder = "link-to-folder"
        case danglingLink = "dangling-link"
        case fifo
        case deviceNode = "device-node"
        case folder
        /// The file the command reads (for `settings`, the file it edits is its output: not run).
        case input
        /// A new file in a folder without write permission (written anyway when running as root).
        case unwritableFolder = "unwritable-folder"
        /// A new file under a path whose "folder" is a regular file.
        case parentIsFile = "parent-is-file"
    }

    /// `switchscan` beside this program (both are products of the same build), or nil.
    static let program: String? = {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("switchscan").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// The case of the kind's `round`th input, as text (the input's bytes). Each case starts a
    /// process, so the first rounds go through every command and target once, and later rounds
    /// run a case picked by the generator one time in eight (an empty input, not run, otherwise):
    /// a run of 5000 inputs stays short.
    static func generate(round: Int, _ generator: inout Generator) -> [UInt8] {
        let all = Command.allCases.count * Target.allCases.count
        let command: Command, target: Target
        if round < all {
            command = Command.allCases[round / Target.allCases.count]
            target = Target.allCases[round % Target.allCases.count]
        } else {
            guard generator.below(8) == 0 else { return [] }
            command = generator.pick(Command.allCases)
            target = generator.pick(Target.allCases)
        }
        return Array("\(command.rawValue) \(target.rawValue)\n".utf8)
    }

    static let scene = """
        scene: Output paths
        size: [390, 844]
        start: main
        screens:
          main:
            elements:
              - {id: a, label: A, traits: [button], frame: [0, 0, 100, 50]}
              - {id: b, label: B, traits: [button], frame: [0, 60, 100, 50]}
        tests:
          - name: next moves to B
            settings: {scanning: manual, groupItems: false}
            steps:
              - press: next
              - expect: {focus: b}

        """

    /// Runs the case; false when it does not apply (a text that is not a case, `settings input`,
    /// a device node without the right to make one, no `switchscan` built).
    static func run(_ bytes: [UInt8], root: String) -> Bool {
        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count == 2, let command = Command(rawValue: words[0]), let target = Target(rawValue: words[1]),
              !(command == .settings && target == .input), let program else { return false }
        let folder = NSTemporaryDirectory() + "switchscan-fuzz-output-\(CurrentProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        guard (try? FileSystem.makeDirectory(folder, permissions: 0o700)) != nil else { return false }
        defer {
            try? FileSystem.setPermissions(folder + "/locked", 0o700)
            try? FileManager.default.removeItem(atPath: folder)
        }
        return Case(command: command, target: target, folder: folder, root: root, program: program).run()
    }

    struct Case {
        let command: Command
        let target: Target
        let folder: String
        let root: String
        let program: String

        var name: String { "\(command.rawValue) \(target.rawValue)" }

        /// The finding: the case's folder is removed (the worker dies without unwinding), then a trap.
        func breach(_ what: String) -> Never {
            try? FileSystem.setPermissions(folder + "/locked", 0o700)
            try? FileManager.default.removeItem(atPath: folder)
            fatalError("output-path \(name): \(what)")
        }

        func write(_ path: String, _ text: String) {
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { breach("cannot set up \(path)") }
        }

        func contents(_ path: String) -> [UInt8]? { try? RegularFile.read(path, maxBytes: 1 << 20) }

        func kind(_ path: String) -> FileSystem.FileKind? { try? FileSystem.linkStatus(path).kind }

        func run() -> Bool {
            // The files the commands read.
            let scenePath = folder + "/scene.yaml", recordingPath = folder + "/switches.evemu", dumpPath = folder + "/login.xml"
            write(scenePath, OutputPaths.scene)
            guard let recording = contents(root + "/Tests/Fuzz/seeds/two-switches.evemu"),
                  let dump = contents(root + "/Scenarios/imported/ios-login.xml") else { return false }
            write(recordingPath, String(decoding: recording, as: UTF8.self))
            write(dumpPath, String(decoding: dump, as: UTF8.self))
            let input: String
            let old: String
            switch command {
            case .junit: input = scenePath; old = "old report\n"
            case .learn: input = recordingPath; old = "old profile\n"
            case .import: input = dumpPath; old = "# an old scene, without tests\n"
            // `settings set` edits its file, which must hold settings; it reads no other.
            case .settings: input = folder + "/settings.yaml"; old = "loops: 2\n"
            }

            // What is at the output path, and where a write through it would land.
            var output = folder + "/out"
            var landing: String?
            var written: Bool
            switch target {
            case .newFile:
                landing = output; written = true
            case .regularFile:
                write(output, old); landing = output; written = true
            case .linkToFile:
                write(folder + "/real", old)
                guard (try? FileSystem.makeSymbolicLink(output, to: "real")) != nil else { breach("symlink") }
                landing = folder + "/real"; written = true
            case .linkToFolder:
                guard (try? FileSystem.makeDirectory(folder + "/sub", permissions: 0o700)) != nil, (try? FileSystem.makeSymbolicLink(output, to: "sub")) != nil else {
                    breach("mkdir, symlink")
                }
                written = false
            case .danglingLink:
                guard (try? FileSystem.makeSymbolicLink(output, to: "named-by-link")) != nil else { breach("symlink") }
                landing = folder + "/named-by-link"; written = true
            case .fifo:
                guard (try? FileSystem.makeFIFO(output)) != nil else { breach("mkfifo") }
                written = false
            case .deviceNode:
                // /dev/null's device number (1:3), made in this case's own folder; only root may.
                guard (try? FileSystem.makeCharacterDevice(output, major: 1, minor: 3)) != nil else { return false }
                written = false
            case .folder:
                guard (try? FileSystem.makeDirectory(output, permissions: 0o700)) != nil else { breach("mkdir") }
                written = false
            case .input:
                output = input; written = false
            case .unwritableFolder:
                guard (try? FileSystem.makeDirectory(folder + "/locked", permissions: 0o500)) != nil else { breach("mkdir") }
                output = folder + "/locked/out"
                // Root may write there all the same: then the file is written.
                written = FileSystem.isAccessible(folder + "/locked", .writable)
                landing = written ? output : nil
            case .parentIsFile:
                write(folder + "/plain", "a file, not a folder\n")
                output = folder + "/plain/out"; written = false
            }
            let kindBefore = kind(output)
            let readBefore = [scenePath, recordingPath, dumpPath].map { contents($0) }
            let oldBytes = landing.flatMap { contents($0) }

            let arguments: [String]
            switch command {
            case .junit: arguments = ["test", scenePath, "--junit", output]
            case .learn: arguments = ["learn", "--from-evemu", recordingPath, "--output", output, "--force"]
            case .import: arguments = ["import", dumpPath, "-o", output]
            case .settings: arguments = ["settings", "set", "loops", "3", "--file", output]
            }
            let (status, errors) = spawn(arguments)

            let expected: Int32 = written ? 0 : 1
            guard status == expected else { breach("exit \(status), expected \(expected); standard error: \(errors)") }
            guard [scenePath, recordingPath, dumpPath].map({ contents($0) }) == readBefore else { breach("a file it read changed") }
            if written, let landing {
                guard kind(landing) == .regular, let now = contents(landing), !now.isEmpty, now != oldBytes else {
                    breach("\(landing) was not written")
                }
                if target == .linkToFile || target == .danglingLink, kind(output) != .symbolicLink { breach("the link is no longer a link") }
            } else {
                guard kind(output) == kindBefore else { breach("\(output) was replaced (\(kindBefore.map { "\($0)" } ?? "nothing") → \(kind(output).map { "\($0)" } ?? "nothing"))") }
                if target == .linkToFolder, (try? FileManager.default.contentsOfDirectory(atPath: folder + "/sub")) != [] {
                    breach("something was written into the folder the link names")
                }
                if target == .folder, (try? FileManager.default.contentsOfDirectory(atPath: output)) != [] {
                    breach("something was written into the folder")
                }
                guard errors.contains("nothing was written") || errors.contains("mkdir") || errors.contains("open") else {
                    breach("the refusal does not say why: \(errors)")
                }
            }
            let left = (FileManager.default.subpaths(atPath: folder) ?? []).filter { $0.hasSuffix(".tmp") }
            guard left.isEmpty else { breach("temporary files left: \(left)") }
            return true
        }

        /// Runs switchscan with its output in this case's folder and a private configuration and
        /// state; a run that does not end within 10 s is stopped by its PID and is a breach (a
        /// FIFO opened for writing blocks).
        func spawn(_ arguments: [String]) -> (status: Int32, errors: String) {
            let outPath = folder + "/.stdout", errPath = folder + "/.stderr", inPath = folder + "/.stdin"
            write(inPath, "")
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CONFIG_HOME"] = folder + "/.config"
            environment["XDG_STATE_HOME"] = folder + "/.state"
            environment["SWIFT_BACKTRACE"] = "enable=no"
            let pid: Int32
            do {
                pid = try ChildProcess.spawn(
                    program, arguments: [program] + arguments, environment: environment.map { "\($0.key)=\($0.value)" },
                    standardInput: .reading(inPath), standardOutput: .writing(outPath, append: false),
                    standardError: .writing(errPath, append: false))
            } catch {
                breach("cannot start \(program)")
            }
            let deadline = MonotonicClock.now() + 10
            var ending: ChildProcess.Ending
            while true {
                let state = ChildProcess.state(of: pid, blocking: false)
                if case .ended(let ended) = state { ending = ended; break }
                if state == .notAChild { breach("waitpid") }
                if MonotonicClock.now() > deadline {
                    try? ProcessSignal.send(SIGKILL, to: pid)
                    ChildProcess.wait(pid)
                    breach("switchscan \(arguments.joined(separator: " ")) did not end within 10 s (stopped)")
                }
                MonotonicClock.sleep(seconds: 0.002)
            }
            let errors = String(decoding: contents(errPath) ?? [], as: UTF8.self)
            switch ending {
            case .exited(let code): return (code, errors)
            case .signalled(let signal): return (128 + signal, errors)
            }
        }
    }
}
