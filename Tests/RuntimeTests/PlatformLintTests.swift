import Foundation
import Testing

/// Finds calls of libc functions in Swift source text: the rule that every libc call goes
/// through the platform layer (the `Platform` module, Sources/Platform), where it is wrapped
/// once, EINTR retried and its failure turned into `SystemCallError`.
///
/// Comments and string literals are left out (their words are not calls); an interpolation in a
/// string is code. A call is the function's name followed by `(`, not a member (`FileIO.close`),
/// not a declaration (`func close`), with no argument labels and as many arguments as the C
/// prototype takes: `close()` or `write(lines: x)` are Swift methods, `close(fd)` is libc's.
/// Anything qualified by a C module (`Glibc.write`, `Glibc.errno`) is a call, and so is a bare
/// `errno` in a file that declares nothing of that name. A function the file declares itself
/// (`func time(_ event:)`) is that file's, not libc's.
struct PlatformLint {
    struct Finding: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var column: Int
        var name: String
        var description: String { "\(file):\(line):\(column): error: libc call \(name) outside the platform layer (Sources/Platform); use or add its wrapper there" }
    }

    /// The libc functions checked, with the argument counts of their C prototypes.
    static let functions: [String: Set<Int>] = [
        "open": [2, 3], "openat": [3, 4], "read": [3], "write": [3], "close": [1], "lseek": [3], "ftruncate": [2],
        "fsync": [1], "fstat": [2], "stat": [2], "lstat": [2], "fcntl": [2, 3], "ioctl": [2, 3], "poll": [3],
        "rename": [2], "unlink": [1], "mkdir": [2], "rmdir": [1], "readlink": [3], "realpath": [2], "flock": [2],
        "opendir": [1], "readdir": [1], "closedir": [1],
        "signal": [2], "sigaction": [3], "sigprocmask": [3], "pthread_sigmask": [3], "signalfd": [3], "raise": [1],
        "kill": [2], "getpid": [0], "waitpid": [3], "fork": [0], "execv": [2], "execve": [3], "execvp": [2],
        "posix_spawn": [6], "posix_spawnp": [6], "exit": [1], "_exit": [1],
        "usleep": [1], "nanosleep": [2], "sleep": [1], "clock_gettime": [2], "time": [1], "gmtime_r": [2],
        "localtime_r": [2], "strftime": [4],
        "tcgetattr": [2], "tcsetattr": [3], "tcgetpgrp": [1], "isatty": [1],
        "inotify_init": [0], "inotify_init1": [1], "inotify_add_watch": [3], "inotify_rm_watch": [2],
        "dup": [1], "dup2": [2], "pipe": [1], "pipe2": [2],
        "getenv": [1], "setenv": [3], "unsetenv": [1], "strerror": [1], "fflush": [1], "mkfifo": [2], "mkdtemp": [1],
        "access": [2], "socket": [3], "connect": [3], "bind": [3], "listen": [2], "accept": [3],
        "chmod": [2], "fchmod": [2], "symlink": [2], "mknod": [3], "getuid": [0], "geteuid": [0],
        "sysconf": [1], "getrusage": [2],
    ]

    /// Modules whose members are C's.
    static let cModules: Set<String> = ["Glibc", "Musl", "Darwin", "CLinux"]

    /// The findings in one file's text.
    static func findings(in source: String, file: String) -> [Finding] {
        let code = codeOnly(Array(source.utf8))
        let lineStarts = [0] + code.indices.filter { code[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        func position(_ offset: Int) -> (line: Int, column: Int) {
            var low = 0, high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            return (low + 1, offset - lineStarts[low] + 1)
        }
        let words = identifiers(code)
        let declared = Set(words.indices.dropFirst().compactMap { index -> String? in
            ["var", "let", "func", "case"].contains(words[index - 1].name) ? words[index].name : nil
        })
        let declaredFunctions = Set(words.indices.dropFirst().compactMap { index -> String? in
            words[index - 1].name == "func" ? words[index].name : nil
        })
        var found = [Finding]()
        for (index, word) in words.enumerated() {
            let previous = previousSignificant(code, before: word.start)
            var name = word.name
            var isCall = false
            if previous == UInt8(ascii: ".") {
                // A member: a call only when what it belongs to is a C module.
                guard index > 0, cModules.contains(words[index - 1].name),
                      words[index - 1].end == dotPosition(code, before: word.start) else { continue }
                name = "\(words[index - 1].name).\(word.name)"
                isCall = true
            } else if word.name == "errno" {
                isCall = !declared.contains("errno") && nextSignificant(code, after: word.end)?.byte != UInt8(ascii: ":")
            } else if let counts = functions[word.name], !declaredFunctions.contains(word.name) {
                if index > 0, ["func", "case", "var", "let"].contains(words[index - 1].name),
                   words[index - 1].end == previousWordEnd(code, before: word.start) { continue }
                guard let open = nextSignificant(code, after: word.end), open.byte == UInt8(ascii: "(") else { continue }
                guard let arguments = arguments(code, openingAt: open.offset), !arguments.labeled else { continue }
                isCall = counts.contains(arguments.count)
            }
            if isCall {
                let place = position(word.start)
                found.append(Finding(file: file, line: place.line, column: place.column, name: name))
            }
        }
        return found
    }

    // MARK: Reading Swift text

    /// The text with comments and string literals blanked (newlines kept, so offsets and lines
    /// stay those of the file); interpolations inside strings stay code.
    static func codeOnly(_ bytes: [UInt8]) -> [UInt8] {
        enum Context { case code(parentheses: Int), string(hashes: Int, multiline: Bool) }
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        let backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        var out = bytes
        var stack: [Context] = [.code(parentheses: 0)]
        func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        func blank(_ range: Range<Int>) {
            for index in range where index < out.count && out[index] != newline { out[index] = space }
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch stack[stack.count - 1] {
            case .code(let parentheses):
                if byte == slash, at(index + 1) == slash {
                    var end = index
                    while end < bytes.count, bytes[end] != newline { end += 1 }
                    blank(index..<end)
                    index = end
                } else if byte == slash, at(index + 1) == star {
                    var depth = 0, end = index
                    repeat {
                        if at(end) == slash, at(end + 1) == star { depth += 1; end += 2 }
                        else if at(end) == star, at(end + 1) == slash { depth -= 1; end += 2 }
                        else { end += 1 }
                    } while depth > 0 && end < bytes.count
                    blank(index..<end)
                    index = end
                } else if byte == quote || byte == hash {
                    var end = index
                    while at(end) == hash { end += 1 }
                    guard at(end) == quote else { index = end; continue }  // #if, #expect
                    let hashes = end - index
                    let multiline = at(end + 1) == quote && at(end + 2) == quote
                    end += multiline ? 3 : 1
                    blank(index..<end)
                    out[index] = quote  // a literal is still an argument: `getenv("HOME")` has one
                    stack.append(.string(hashes: hashes, multiline: multiline))
                    index = end
                } else if byte == UInt8(ascii: "(") {
                    stack[stack.count - 1] = .code(parentheses: parentheses + 1)
                    index += 1
                } else if byte == UInt8(ascii: ")") {
                    if parentheses == 0, stack.count > 1 {
                        out[index] = space  // the end of an interpolation
                        stack.removeLast()
                    } else {
                        stack[stack.count - 1] = .code(parentheses: max(0, parentheses - 1))
                    }
                    index += 1
                } else {
                    index += 1
                }
            case .string(let hashes, let multiline):
                let hashesFollow = { (start: Int) in (start..<start + hashes).allSatisfy { at($0) == hash } }
                if byte == backslash, hashesFollow(index + 1) {
                    let after = index + 1 + hashes
                    if at(after) == UInt8(ascii: "(") {
                        blank(index..<after + 1)
                        stack.append(.code(parentheses: 0))
                        index = after + 1
                    } else {
                        blank(index..<after + 1)  // an escape and the character it escapes
                        index = after + 1
                    }
                } else if byte == quote, !multiline || (at(index + 1) == quote && at(index + 2) == quote) {
                    let length = multiline ? 3 : 1
                    if hashesFollow(index + length) {
                        blank(index..<index + length + hashes)
                        stack.removeLast()
                        index += length + hashes
                    } else {
                        blank(index..<index + 1)
                        index += 1
                    }
                } else {
                    blank(index..<index + 1)
                    index += 1
                }
            }
        }
        return out
    }

    struct Word { var name: String; var start: Int; var end: Int }

    static func identifiers(_ code: [UInt8]) -> [Word] {
        func isHead(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) }
        func isBody(_ byte: UInt8) -> Bool { isHead(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) }
        var words = [Word]()
        var index = 0
        while index < code.count {
            if isHead(code[index]), index == 0 || !(isBody(code[index - 1]) || code[index - 1] == UInt8(ascii: "$") || code[index - 1] >= 0x80) {
                var end = index + 1
                while end < code.count, isBody(code[end]) { end += 1 }
                words.append(Word(name: String(decoding: code[index..<end], as: UTF8.self), start: index, end: end))
                index = end
            } else {
                index += 1
            }
        }
        return words
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    static func previousSignificant(_ code: [UInt8], before offset: Int) -> UInt8? {
        var index = offset - 1
        while index >= 0, isSpace(code[index]) { index -= 1 }
        return index >= 0 ? code[index] : nil
    }

    /// Where the word before `offset` ends (after the spaces between them).
    static func previousWordEnd(_ code: [UInt8], before offset: Int) -> Int {
        var index = offset
        while index > 0, isSpace(code[index - 1]) { index -= 1 }
        return index
    }

    /// Where the identifier before the `.` before `offset` ends.
    static func dotPosition(_ code: [UInt8], before offset: Int) -> Int {
        previousWordEnd(code, before: previousWordEnd(code, before: offset) - 1)
    }

    static func nextSignificant(_ code: [UInt8], after offset: Int) -> (byte: UInt8, offset: Int)? {
        var index = offset
        while index < code.count, isSpace(code[index]) { index += 1 }
        return index < code.count ? (code[index], index) : nil
    }

    /// The arguments of the call whose `(` is at `open`: how many, and whether one has a label.
    static func arguments(_ code: [UInt8], openingAt open: Int) -> (count: Int, labeled: Bool)? {
        var depth = 0, count = 0, labeled = false, sawContent = false
        var argumentStart = open + 1
        func checkLabel(_ start: Int) {
            guard let first = nextSignificant(code, after: start) else { return }
            var end = first.offset
            while end < code.count, code[end] == UInt8(ascii: "_") || (code[end] | 0x20 >= UInt8(ascii: "a") && code[end] | 0x20 <= UInt8(ascii: "z"))
                || (code[end] >= UInt8(ascii: "0") && code[end] <= UInt8(ascii: "9")) { end += 1 }
            guard end > first.offset, let colon = nextSignificant(code, after: end), colon.byte == UInt8(ascii: ":"),
                  code.count <= colon.offset + 1 || code[colon.offset + 1] != UInt8(ascii: ":") else { return }
            labeled = true
        }
        var index = open
        while index < code.count {
            let byte = code[index]
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > 1 { sawContent = true }
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    if sawContent { count += 1; checkLabel(argumentStart) }
                    return (count, labeled)
                }
            case UInt8(ascii: ",") where depth == 1:
                count += 1
                checkLabel(argumentStart)
                argumentStart = index + 1
            default:
                if depth >= 1, !isSpace(byte) { sawContent = true }
            }
            index += 1
        }
        return nil
    }

    // MARK: The tree

    /// The folders of the package whose Swift files are checked: the program, its tests (the
    /// test supports, the fuzzer and the test suites) and its benchmarks.
    static let checkedRoots = ["Sources", "Tests", "Benchmarks"]

    /// Where libc may be called: the platform layer alone. The C-library wrappers (Evdev,
    /// BrlAPI, Atspi…) call their own library directly, but plain libc through it too.
    static let allowedFolders = ["Sources/Platform/"]

    /// Every `.swift` file under the checked roots of `package` outside the allowed folders, as
    /// (path relative to `package`, text).
    static func checkedFiles(under package: URL) throws -> [(path: String, text: String)] {
        try SwiftSourceTree.files(under: package, roots: checkedRoots, skipping: allowedFolders)
    }
}

@Suite("Platform lint: no libc call outside the Platform module")
struct PlatformLintTests {
    static let package = SwiftSourceTree.package

    func names(_ source: String) -> [String] {
        PlatformLint.findings(in: source, file: "inline.swift").map(\.name)
    }

    @Test("No Swift file of Sources, Tests or Benchmarks outside the platform layer calls libc")
    func treeHasNoLibcCall() throws {
        let files = try PlatformLint.checkedFiles(under: Self.package)
        // The tree was found: the CLI, the runtime's loop, the C-library wrappers, the test
        // supports, the tests, the fuzzer and the benchmarks are among the files checked.
        for path in [
            "Sources/switchscan/LearnCommand.swift", "Sources/Runtime/Run/LiveRun.swift", "Sources/Evdev/Evdev.swift",
            "Sources/BrailleTestSupport/BRLTTYProcess.swift", "Sources/SpeechTestSupport/SpeechDispatcherProcess.swift",
            "Sources/LiveTestSupport/LiveDesktop.swift", "Tests/SwitchScanCLITests/CLISupport.swift",
            "Tests/Fuzz/switchscan-fuzz/Fuzz.swift", "Benchmarks/switchscan-bench/main.swift",
        ] {
            #expect(files.contains { $0.path == path }, "\(path) is checked")
        }
        #expect(!files.contains { $0.path.hasPrefix("Sources/Platform/") })
        let findings = files.flatMap { PlatformLint.findings(in: $0.text, file: $0.path) }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("A call planted in a real source file is found at its line and column")
    func plantedCallInRealFile() throws {
        let path = "Sources/Runtime/Run/LiveRun.swift"
        let text = try String(contentsOf: Self.package.appendingPathComponent(path), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let planted = try #require(lines.firstIndex { $0.contains("public func run()") }) + 1
        lines.insert("        let flags = fcntl(STDIN_FILENO, F_GETFL)", at: planted)
        let findings = PlatformLint.findings(in: lines.joined(separator: "\n"), file: path)
        #expect(findings == [PlatformLint.Finding(file: path, line: planted + 1, column: 21, name: "fcntl")])
        #expect(findings.first?.description.hasPrefix("Sources/Runtime/Run/LiveRun.swift:\(planted + 1):21: error: libc call fcntl") == true)
    }

    @Test("A call planted in a test support, a test or a benchmark is found")
    func plantedCallInTestCode() throws {
        let plants = [
            ("Sources/BrailleTestSupport/Support.swift", "public func monotonicNow() -> Double {", "    _ = kill(getpid(), 0)", ["kill", "getpid"]),
            ("Tests/SwitchScanCLITests/CLISupport.swift", "static func fifoWriter(", "        usleep(1000)", ["usleep"]),
            ("Benchmarks/switchscan-bench/BenchProcess.swift", "func benchNow() -> Double", "let started = Glibc.time(nil)", ["Glibc.time"]),
        ]
        for (path, anchor, call, names) in plants {
            let text = try String(contentsOf: Self.package.appendingPathComponent(path), encoding: .utf8)
            #expect(PlatformLint.findings(in: text, file: path).isEmpty, "\(path) is clean before the plant")
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let planted = try #require(lines.firstIndex { $0.contains(anchor) }, "\(anchor) in \(path)") + 1
            lines.insert(call, at: planted)
            let findings = PlatformLint.findings(in: lines.joined(separator: "\n"), file: path)
            #expect(findings.map(\.name) == names, "\(path): \(findings)")
            #expect(findings.allSatisfy { $0.line == planted + 1 && $0.file == path })
        }
    }

    @Test("Calls are found with their place")
    func callsFound() {
        let source = """
            import Glibc
            func f(fd: Int32) {
                let count = read(fd, &buffer, 4)
                _ = Glibc.write(fd, pointer, 1)
                usleep(50_000)
                if errno == EINTR { return }
                let pid = getpid()
                _ = poll(&descriptors,
                         1, -1)
                let home = getenv("HOME")
            }
            """
        let findings = PlatformLint.findings(in: source, file: "inline.swift")
        #expect(findings.map(\.name) == ["read", "Glibc.write", "usleep", "errno", "getpid", "poll", "getenv"])
        #expect(findings.map(\.line) == [3, 4, 5, 6, 7, 8, 10])
        #expect(findings[0].column == 17)
    }

    @Test("The calls tests made to set modes, make links and device nodes, ask for root and read limits are found")
    func fileModesAndLimitsFound() {
        let source = """
            #expect(chmod(path, 0o600) == 0)
            guard symlink("real", output) == 0 else { return }
            _ = mknod(node, S_IFCHR | 0o600, device)
            let asRoot = getuid() == 0 || geteuid() == 0
            let ticks = sysconf(Int32(_SC_CLK_TCK))
            getrusage(RUSAGE_SELF, &usage)
            """
        #expect(names(source) == ["chmod", "symlink", "mknod", "getuid", "geteuid", "sysconf", "getrusage"])
    }

    @Test("A call inside a string's interpolation is code")
    func interpolationIsCode() {
        #expect(names(#"let text = "reason: \(String(cString: strerror(code)))""#) == ["strerror"])
        #expect(names(##"let text = #"pid \#(getpid()) and \(getpid())"#"##) == ["getpid"])
        #expect(names("let text = \"\"\"\n  \\(isatty(1)) \"quoted\" read(a, b, c)\n  \"\"\"") == ["isatty"])
    }

    @Test("Words in comments and strings, members, declarations and Swift methods are not calls")
    func notCalls() {
        let source = #"""
            // usleep(1) and close(fd) in a line comment
            /* a block /* nested close(3) */ still a comment: read(a, b, c) */
            /// open(2) with O_CLOEXEC: `open(path, flags)`
            let a = "close(fd) in a string"
            let b = #"raw "quoted" poll(a, b, c)"#
            let c = """
                write(fd, p, n) in a multi-line string with "quotes"
                """
            FileIO.close(descriptor)
            try FileIO.writeAll(descriptor, bytes)
            func close(_ descriptor: Int32) {}
            enum Ending { case signal(Int32) }
            close()
            write(lines: lines)
            select(at: time)
            read(Int64.self, 0)
            SystemCallError(call: "open", errno: error)
            exit(withError: error)
            let errnoText = error.errno.name
            """#
        #expect(names(source) == [])
    }

    @Test("A bare errno is not flagged in a file that declares its own")
    func declaredErrno() {
        #expect(names("struct Row { var errno: String? }\nfunc f() { encode(errno) }") == [])
        #expect(names("func f() { encode(errno) }") == ["errno"])
    }

    @Test("A function the file declares is not libc's; in a file that does not, it is")
    func declaredFunction() {
        let local = "func f(_ e: [Double]) -> Double { func time(_ x: Double) -> Double { x }\n return time(e[0]) }"
        #expect(names(local) == [])
        #expect(names("func f() -> Int { time(nil) }") == ["time"])
    }
}
