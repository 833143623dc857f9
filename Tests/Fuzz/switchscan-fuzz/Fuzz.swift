import AccessibilityModel
import DeviceProfiles
import Documents
import DumpImport
import Foundation
import Presentation
import Runtime
import Scanning
import Scenes
import SwitchInput
import Platform

/// A mutation fuzzer over every file kind SwitchScan reads and the raw input_event stream.
///
/// Seeds are the repository's own files (`Scenarios/`, `Devices/switches/`, `Devices/braille/`,
/// `Tests/Fuzz/seeds/`), the scenes also as JSON, and raw streams encoded from the seed
/// recordings. Each input is one seed with a few mutations (bytes flipped, inserted or
/// deleted; numbers replaced by extreme ones; lines duplicated, dropped or swapped; YAML syntax,
/// tabs, CRs and bytes that are not UTF-8 inserted; pieces of other seeds spliced in), chosen by
/// a generator seeded from `--seed` and the input's number, so that a run is the same every time
/// and any input can be made again alone.
///
/// Each input goes through its parser (scene YAML and JSON, settings file and settings applied,
/// switch profile, braille display profile, keyboard layout typed on, evemu recording, raw stream
/// decoder with its events through a profile into a scanning session, a scene's scripted tests
/// run (their `type:` steps on the English keyboard), a writing command of
/// `switchscan` against a generated kind of output path, `OutputPaths`), and must come back:
/// no trap, no hang (a watchdog thread ends the worker when one input takes longer than
/// `--time-limit` seconds), no memory past `--memory-limit` MB resident.
///
/// The supervisor runs the inputs in a worker process (this program with `--worker`), which
/// writes each input to a file before running it. When the worker dies (a trap), hangs or grows
/// too large, the supervisor keeps that input in `Tests/Fuzz/regressions/` and starts a worker
/// again after it. Every regression input is replayed first, on every run.
@main
struct SwitchScanFuzz {
    static func main() {
        var options = Options()
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            func value() -> String {
                guard let next = arguments.popFirst() else { fail("\(argument) needs a value") }
                return next
            }
            switch argument {
            case "--inputs": options.inputs = number(value(), argument, 0...10_000_000)
            case "--seed":
                guard let seed = UInt64(value()) else { fail("--seed takes a whole number") }
                options.seed = seed
            case "--root": options.root = value()
            case "--time-limit": options.timeLimit = number(value(), argument, 1...3600)
            case "--memory-limit": options.memoryLimitMB = number(value(), argument, 16...1_000_000)
            case "--worker": options.worker = true
            case "--start": options.start = number(value(), argument, 0...10_000_000)
            case "--state": options.statePath = value()
            case "--help", "-h":
                print("""
                    switchscan-fuzz [--inputs N] [--seed S] [--root REPOSITORY] [--time-limit SECONDS] [--memory-limit MB]
                    Mutation fuzzing of every file kind and the raw input stream; crashes, hangs and
                    memory growth are kept in Tests/Fuzz/regressions/ and replayed on every run.
                    """)
                return
            default: fail("unknown argument \(argument)")
            }
        }
        if options.worker {
            Worker(options: options).run()
        } else {
            Supervisor(options: options).run()
        }
    }
}

struct Options {
    var inputs = 3000
    var seed: UInt64 = 20_261_124
    var root = FileManager.default.currentDirectoryPath
    var timeLimit = 20
    var memoryLimitMB = 1024
    var worker = false
    var start = 0
    var statePath = ""

    var regressions: String { root + "/Tests/Fuzz/regressions" }
}

/// A whole number option within `range`.
func number(_ text: String, _ option: String, _ range: ClosedRange<Int>) -> Int {
    guard let value = Int(text), range.contains(value) else { fail("\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound)") }
    return value
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("switchscan-fuzz: \(message)\n".utf8))
    CurrentProcess.exit(2)
}

// MARK: - Kinds of input

/// What an input is fed to; the raw value is the prefix of a regression file's name.
enum Kind: String, CaseIterable {
    case sceneYAML = "scene-yaml"
    case sceneJSON = "scene-json"
    case settings
    case switchProfile = "switch-profile"
    case brailleProfile = "braille-profile"
    /// A scanning keyboard layout, loaded, then every key typed into a scene's text field.
    case keyboardLayout = "keyboard-layout"
    case evemu
    case raw
    case scriptedTests = "scripted-tests"
    case iosDump = "ios-dump"
    case androidDump = "android-dump"
    /// The selections store (`$XDG_STATE_HOME/switchscan/selections.tsv`), loaded and written.
    case selections
    /// A raw stream that never ends (the input's bytes over and over through a FIFO), traced:
    /// the live loop must still stop at its `--duration`.
    case endlessStream = "endless-stream"
    /// A writing command against one kind of output path (`OutputPaths`); not mutated bytes.
    case outputPath = "output-path"
}

/// Runs one input through its parser. Outcomes (accepted or refused with problems) do not
/// matter here: coming back does.
struct Targets {
    /// A small scene the raw stream's events drive.
    let streamScene: Scene?
    let genericProfile: SwitchProfile
    /// The keyboard scripted tests' `type:` steps type on (the shipped English layout).
    let keyboard: KeyboardOffer?
    /// The repository (the files the output-path cases' commands read).
    let root: String

    /// True when the input was accepted (loaded, or decoded into events that were driven).
    func run(_ kind: Kind, _ bytes: [UInt8]) -> Bool {
        switch kind {
        case .sceneYAML, .sceneJSON:
            // A scene that loads is also audited and shown (resolved, ordered, grouped) and
            // scanned for a minute, as `audit`, `inspect` and `run` would.
            guard let scene = try? SceneParser.parse(yaml: text(bytes), file: "fuzz") else { return false }
            _ = SceneAudit.audit(scene)
            var session = ScanSession(scene: scene, settings: ScanSettings())
            for line in session.start() + session.advance(to: 60) { _ = TraceFormat.jsonLine(line) }
            return true
        case .settings:
            if case .success = SettingsFile.settings(yaml: text(bytes), file: "fuzz", base: ScanSettings()) { return true }
            return false
        case .switchProfile:
            return (try? SwitchProfile.parse(yaml: text(bytes), file: "fuzz.yaml")) != nil
        case .brailleProfile:
            return (try? BrailleDisplayProfile.parse(yaml: text(bytes), file: "fuzz.yaml")) != nil
        case .keyboardLayout:
            guard let layout = try? KeyboardLayout.parse(yaml: text(bytes), file: "fuzz.yaml") else { return false }
            KeyboardCheck.typeEveryKey(layout)
            return true
        case .evemu:
            // Read whole and read as `run` streams it (in pieces of a few bytes), the same
            // events and the same first problem.
            var reader = EvemuStreamReader(file: "fuzz")
            var streamed = [DeviceEvent]()
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + 1 + offset % 13)
                streamed += reader.feed(bytes[offset..<end])
                offset = end
            }
            streamed += reader.finish()
            let whole: Result<EvemuRecording, EvemuParseError> = Result { () throws(EvemuParseError) in
                try EvemuRecording.parse(text(bytes), file: "fuzz")
            }
            if case .success = DocumentText.decode(bytes) {
                switch whole {
                case .success(let recording):
                    if reader.problem != nil || streamed != recording.events {
                        fatalError("the streamed recording differs: \(String(describing: reader.problem))")
                    }
                case .failure(let error):
                    if reader.problem?.description != error.description {
                        fatalError("the streamed recording's problem differs: \(String(describing: reader.problem)) vs \(error)")
                    }
                }
            }
            guard case .success(let recording) = whole else { return false }
            drive(recording.events)
            return true
        case .raw:
            var decoder = RawEventDecoder()
            let events = decoder.feed(bytes)
            _ = try? decoder.finish()
            drive(events)
            return !events.isEmpty
        case .scriptedTests:
            guard let scene = try? SceneParser.parse(yaml: text(bytes), file: "fuzz") else { return false }
            var runner = ScriptRunner(scene: scene, profile: genericProfile)
            runner.keyboard = keyboard
            _ = runner.runAll()
            return true
        case .selections:
            return SelectionStoreCheck.run(bytes)
        case .endlessStream:
            guard let scene = streamScene else { return false }
            return EndlessStreamCheck.run(bytes, scene: scene)
        case .iosDump, .androidDump:
            // A dump that imports must give a scene its own loader takes: a refusal there is a
            // bug of the import, made a crash so that the fuzzer keeps the input.
            let format: DumpFormat? = kind == .iosDump ? .ios : nil
            let outcome = DumpImporter.screen(bytes: bytes, file: "fuzz.xml", format: format)
            sameInUTF16(bytes, outcome, format: format)
            guard case .success(let screen) = outcome else { return false }
            switch DumpImporter.scene(title: "fuzz", screens: [screen, screen], file: "fuzz.yaml") {
            case .success(let imported):
                _ = SceneAudit.audit(imported.scene)
                var session = ScanSession(scene: imported.scene, settings: ScanSettings())
                for line in session.start() + session.advance(to: 10) { _ = TraceFormat.jsonLine(line) }
                return true
            case .failure(let error):
                fatalError("an imported dump gave a scene that does not load: \(error)")
            }
        case .outputPath:
            return OutputPaths.run(bytes, root: root)
        }
    }

    /// UTF-8 text saved as UTF-16 (its declaration saying so) must import as it does: same
    /// elements and places, or the same problem at the same place. A check that read only the
    /// UTF-8 bytes (a byte search for `<!DOCTYPE`) let libxml2 expand entities in UTF-16.
    func sameInUTF16(_ bytes: [UInt8], _ outcome: Result<ImportedScreen, DumpProblem>, format: DumpFormat?) {
        // Bytes that start with a NUL are taken for UTF-16 or UTF-32 as they are.
        guard !bytes.prefix(4).contains(0), var text = String(validating: bytes, as: UTF8.self) else { return }
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        // Only a declaration naming UTF-8 (or none) says the same thing once it names UTF-16
        // (as `UTF16`, as long as `UTF-8`, so that every column stays where it was).
        func count(_ part: String) -> Int { text.components(separatedBy: part).count - 1 }
        let named = count("encoding=\"UTF-8\"") + count("encoding='UTF-8'")
        guard count("encoding=") == named, named <= 1 else { return }
        let declaringUTF16 = text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF16\"")
            .replacingOccurrences(of: "encoding='UTF-8'", with: "encoding='UTF16'")
        let utf16 = Seeds.units16("\u{FEFF}" + declaringUTF16, bigEndian: false)
        let other = DumpImporter.screen(bytes: utf16, file: "fuzz.xml", format: format)
        func summary(_ result: Result<ImportedScreen, DumpProblem>) -> String {
            switch result {
            case .success(let screen): return "imported: \(screen.elements) \(screen.skipped)"
            case .failure(let problem): return "refused at \(problem.position.lineColumn)"
            }
        }
        let (first, second) = (summary(outcome), summary(other))
        if first != second {
            fatalError("a dump imports differently in UTF-16: UTF-8 \(first.prefix(300)); UTF-16 \(second.prefix(300))")
        }
    }

    /// Text as the reading layer gives it: UTF-8 checked, else the problem (which is the
    /// outcome; the parsers then get the text as far as it decodes, which they must survive).
    func text(_ bytes: [UInt8]) -> String {
        switch DocumentText.decode(bytes) {
        case .success(let text): return text
        case .failure: return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Events through a profile into a scanning session, timed as the live loop times a stream
    /// (offsets from the first event), and every trace event written as `--trace` writes it.
    func drive(_ events: [DeviceEvent]) {
        guard let scene = streamScene else { return }
        let naming = SwitchNaming(profiles: [genericProfile])
        var edges = ProfileEdges(profile: genericProfile, naming: naming)
        var session = ScanSession(scene: scene, settings: ScanSettings(), bindings: naming.bindings)
        var trace = session.start()
        guard let first = events.first?.time else { return }
        for event in events.prefix(10_000) {
            let time = max(0, event.time - first)
            if let edge = edges.edge(event, at: time) { trace += session.input(edge) }
            trace += session.advance(to: time)
            for line in trace { _ = TraceFormat.jsonLine(line) }
            trace.removeAll(keepingCapacity: true)
        }
        for line in session.advance(to: session.time + 30) { _ = TraceFormat.jsonLine(line) }
    }
}

// MARK: - Seeds and mutations

struct Seeds {
    var byKind: [Kind: [[UInt8]]] = [:]
    /// The words of every seed (key names, switch actions, trait names, effect kinds, …),
    /// sorted: replacing one word by another reaches the readers' deeper paths (a `route:`
    /// where a `wait:` was, an effect in a label's place) that random bytes rarely do.
    var words: [[UInt8]] = []

    init(root: String) {
        func files(_ folder: String, _ suffixes: [String]) -> [[UInt8]] {
            let path = root + "/" + folder
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
            return names.sorted().filter { name in suffixes.contains { name.hasSuffix($0) } }.compactMap {
                try? RegularFile.read(path + "/" + $0, maxBytes: 4 << 20)
            }
        }
        let scenes = files("Scenarios", [".yaml"])
        byKind[.sceneYAML] = scenes
        byKind[.scriptedTests] = scenes.filter { String(decoding: $0, as: UTF8.self).contains("\ntests:") }
        byKind[.sceneJSON] = scenes.compactMap(Seeds.json)
        byKind[.settings] = files("Tests/Fuzz/seeds", [".yaml"]) + [Array("autoScanningTime: 1\nloops: 3\n".utf8)]
        byKind[.switchProfile] = files("Devices/switches", [".yaml"])
        byKind[.brailleProfile] = files("Devices/braille", [".yaml"])
        byKind[.keyboardLayout] = files("Devices/keyboards", [".yaml"])
        // Each dump also as it may be saved: UTF-8 with a byte order mark, UTF-16 and UTF-32 in
        // both byte orders with one (the XML declaration naming the encoding), UTF-16 without.
        let dumps = files("Scenarios/imported", [".xml"])
        byKind[.iosDump] = dumps.filter { String(decoding: $0, as: UTF8.self).contains("<AppiumAUT") }.flatMap { [$0] + Seeds.encodings($0) }
        byKind[.androidDump] = dumps.filter { String(decoding: $0, as: UTF8.self).contains("<hierarchy") }.flatMap { [$0] + Seeds.encodings($0) }
        let recordings = files("Tests/Fuzz/seeds", [".evemu"])
        byKind[.evemu] = recordings
        // Output-path cases are generated, not mutated: one empty seed makes the kind run, when
        // there is a switchscan beside this program to run them with.
        byKind[.outputPath] = OutputPaths.program == nil ? [] : [[]]
        var found = Set<[UInt8]>()
        for seed in byKind.values.joined() where found.count < 4000 {
            var word = [UInt8]()
            for byte in seed + [0x20] {
                if (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || (!word.isEmpty && byte >= 0x30 && byte <= 0x39) {
                    word.append(byte)
                } else {
                    if (2...40).contains(word.count) { found.insert(word) }
                    word.removeAll(keepingCapacity: true)
                }
            }
        }
        words = found.sorted { $0.lexicographicallyPrecedes($1) }
        byKind[.raw] = recordings.compactMap { bytes in
            guard let recording = try? EvemuRecording.parse(String(decoding: bytes, as: UTF8.self), file: "seed") else { return nil }
            return recording.events.flatMap(RawEventDecoder.encode)
        }
        byKind[.endlessStream] = byKind[.raw]
        byKind[.selections] = [SelectionStoreCheck.seed]
    }

    static func units16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { unit in bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    }

    static func units32(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar -> [UInt8] in
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (8 * UInt32($0))) }
            return bigEndian ? bytes.reversed() : bytes
        }
    }

    /// A UTF-8 dump in the other encodings a dump may come in.
    static func encodings(_ utf8: [UInt8]) -> [[UInt8]] {
        var text = String(decoding: utf8, as: UTF8.self)
        let utf8WithMark = [0xEF, 0xBB, 0xBF] + utf8
        func declaring(_ name: String) -> String {
            text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"\(name)\"")
                .replacingOccurrences(of: "encoding='UTF-8'", with: "encoding='\(name)'")
        }
        text = String(text.drop { $0 == "\u{FEFF}" })
        let utf16 = declaring("UTF-16"), utf32 = declaring("UTF-32")
        return [
            utf8WithMark,
            units16("\u{FEFF}" + utf16, bigEndian: false), units16("\u{FEFF}" + utf16, bigEndian: true),
            units16(utf16, bigEndian: false),
            units32("\u{FEFF}" + utf32, bigEndian: false), units32("\u{FEFF}" + utf32, bigEndian: true),
        ]
    }

    /// A scene as strict JSON (the reader's fast path), from the shared document reader's nodes.
    static func json(_ bytes: [UInt8]) -> [UInt8]? {
        let reader = DocumentReader(file: "seed", maxNodes: 1 << 20, maxStringLength: 1 << 20)
        guard let node = reader.readDocument(String(decoding: bytes, as: UTF8.self), maxBytes: 4 << 20, expected: "a scene") else { return nil }
        var out = ""
        func write(_ node: DocumentNode) {
            switch node {
            case .scalar(let text, let isPlain, _):
                if isPlain, text == "true" || text == "false" || text == "null" || DocumentReader.parseNumber(text) != nil,
                   text.first != "+", text.first != ".", !text.hasPrefix("-."), !text.hasSuffix("."), !text.contains("_") {
                    out += text
                } else {
                    // A JSON string literal, as Foundation's encoder writes one.
                    out += (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
                }
            case .mapping(let pairs, _):
                out += "{"
                for (index, pair) in pairs.enumerated() {
                    if index > 0 { out += ",\n" }
                    write(pair.key)
                    out += ": "
                    write(pair.value)
                }
                out += "}"
            case .sequence(let items, _):
                out += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { out += ", " }
                    write(item)
                }
                out += "]"
            }
        }
        write(node)
        return Array(out.utf8)
    }
}

/// The fuzzer's choices for one input: `SplitMix64` seeded from the run's seed and the input's
/// number.
struct Generator {
    var random: SplitMix64
    init(seed: UInt64, input: Int) {
        random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: input) &* 0xBF58_476D_1CE4_E5B9)
        _ = next()
    }
    mutating func next() -> UInt64 { random.next() }
    /// 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

enum Mutator {
    static let numbers = [
        "1e300", "-1e300", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1e-6", "0", "-0",
        "0.0000001", "1e-320", "1.7976931348623157e308", "4294967296", "65535", "65536", "2147483648", "-1", ".inf",
        "-.inf", ".nan", "nan", "0x7fffffff", "1_000", "999999999999999999999999999", "3600.0001", "100000",
    ]
    static let fragments = [
        "&a ", "*a", "<<: *a\n", "[", "]", "{", "}", "- ", ": ", "? ", "!!binary ", "!tag ", "%YAML 1.2\n", "---\n", "...\n",
        "\t", "\r\n", "\r", "\u{0}", "#", "'", "\"", "|\n", ">-\n", "~", "null", "true", ",", "\\u0000", "\"\\ud800\"",
        "{a: 1, a: 2}", "[[[[[[[[[[[[[[[[", "&x [*x]", "\u{FEFF}", "é", "👍🏽",
    ]
    static let badBytes: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]]

    static func mutate(_ seed: [UInt8], others: [[UInt8]], words: [[UInt8]], kind: Kind, _ generator: inout Generator) -> [UInt8] {
        var bytes = seed
        let count = 1 + generator.below(4)
        for _ in 0..<count {
            switch generator.below(kind == .raw || kind == .endlessStream ? 4 : 13) {
            case 11, 12: // a word replaced by another word of the seeds
                bytes = replaceWord(bytes, with: words.isEmpty ? Array("x".utf8) : generator.pick(words), &generator)
            case 0: // flip a byte
                if !bytes.isEmpty { bytes[generator.below(bytes.count)] ^= UInt8(truncatingIfNeeded: 1 << generator.below(8)) }
            case 1: // a random byte inserted
                bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: generator.below(bytes.count + 1))
            case 2: // a run deleted
                if !bytes.isEmpty {
                    let start = generator.below(bytes.count)
                    bytes.removeSubrange(start..<min(bytes.count, start + 1 + generator.below(32)))
                }
            case 3: // a piece of another seed spliced in
                if let other = others.isEmpty ? nil : generator.pick(others), !other.isEmpty {
                    let start = generator.below(other.count)
                    let piece = other[start..<min(other.count, start + 1 + generator.below(200))]
                    bytes.insert(contentsOf: piece, at: generator.below(bytes.count + 1))
                }
            case 4, 5: // a number replaced by an extreme one
                bytes = replaceNumber(bytes, with: generator.pick(numbers), &generator)
            case 6: // a fragment of syntax
                bytes.insert(contentsOf: Array(generator.pick(fragments).utf8), at: generator.below(bytes.count + 1))
            case 7: // bytes that are not UTF-8
                bytes.insert(contentsOf: generator.pick(badBytes), at: generator.below(bytes.count + 1))
            default: // lines duplicated, dropped or swapped
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                guard !lines.isEmpty else { break }
                let a = generator.below(lines.count), b = generator.below(lines.count)
                switch generator.below(3) {
                case 0: lines.insert(lines[a], at: b)
                case 1: lines.remove(at: a)
                default: lines.swapAt(a, b)
                }
                bytes = Array(lines.joined(separator: [0x0A]))
            }
        }
        return bytes
    }

    /// The word (letters, digits, `_`) found from a random place replaced by `word`.
    static func replaceWord(_ bytes: [UInt8], with word: [UInt8], _ generator: inout Generator) -> [UInt8] {
        guard !bytes.isEmpty else { return word }
        let isLetter: (UInt8) -> Bool = { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }
        var index = generator.below(bytes.count)
        var scanned = 0
        while scanned < bytes.count, !isLetter(bytes[index]) {
            index = (index + 1) % bytes.count
            scanned += 1
        }
        guard scanned < bytes.count else { return bytes }
        var start = index, end = index
        while start > 0, isLetter(bytes[start - 1]) { start -= 1 }
        while end < bytes.count, isLetter(bytes[end]) || (bytes[end] >= 0x30 && bytes[end] <= 0x39) { end += 1 }
        var result = bytes
        result.replaceSubrange(start..<end, with: word)
        return result
    }

    /// The digits of a number found from a random place replaced by `number`.
    static func replaceNumber(_ bytes: [UInt8], with number: String, _ generator: inout Generator) -> [UInt8] {
        guard !bytes.isEmpty else { return Array(number.utf8) }
        let isDigit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        var index = generator.below(bytes.count)
        var scanned = 0
        while scanned < bytes.count, !isDigit(bytes[index]) {
            index = (index + 1) % bytes.count
            scanned += 1
        }
        guard scanned < bytes.count else { return bytes }
        var start = index, end = index
        while start > 0, isDigit(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: ".") { start -= 1 }
        while end < bytes.count, isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
        var result = bytes
        result.replaceSubrange(start..<end, with: Array(number.utf8))
        return result
    }
}

// MARK: - The worker

/// Runs the regressions, then inputs `start..<inputs`, writing each to the state file first.
struct Worker {
    let options: Options

    func run() {
        let root = options.root
        let streamScene: Scene? = {
            guard case .success(let text) = RegularFile.readText(root + "/Scenarios/bowler.yaml", maxBytes: 1 << 20) else { return nil }
            return try? SceneParser.parse(yaml: text, file: "bowler.yaml")
        }()
        let generic: SwitchProfile = {
            guard case .success(let text) = RegularFile.readText(root + "/Devices/switches/generic-keyboard.yaml", maxBytes: 1 << 20),
                  let profile = try? SwitchProfile.parse(yaml: text, file: "generic-keyboard.yaml") else { return .builtInGenericKeyboard }
            return profile
        }()
        let keyboard: KeyboardOffer? = {
            guard case .success(let text) = RegularFile.readText(root + "/Devices/keyboards/english-frequency.yaml", maxBytes: 1 << 16),
                  let layout = try? KeyboardLayout.parse(yaml: text, file: "english-frequency.yaml") else { return nil }
            return KeyboardOffer(layout: layout)
        }()
        let targets = Targets(streamScene: streamScene, genericProfile: generic, keyboard: keyboard, root: root)
        let seeds = Seeds(root: root)
        let watchdog = Watchdog(limit: options.timeLimit, memoryLimitMB: options.memoryLimitMB)
        watchdog.start()

        var counts = [Kind: Int]()
        if options.start == 0 {
            for (kind, bytes, name) in Regressions.load(options.regressions) {
                save(kind: kind, bytes: bytes, index: -1, label: name)
                watchdog.begin()
                _ = targets.run(kind, bytes)
                watchdog.end()
                counts[kind, default: 0] += 1
            }
            print("regressions replayed: \(counts.values.reduce(0, +))")
        }
        let kinds = Kind.allCases.filter { !(seeds.byKind[$0] ?? []).isEmpty }
        guard !kinds.isEmpty else { fail("no seeds found under \(root) (give --root the repository)") }
        if OutputPaths.program == nil {
            print("output-path inputs not run: no switchscan beside this program (swift build --product switchscan)")
        }
        var inputCounts = [Kind: Int]()
        var acceptedCounts = [Kind: Int]()
        for index in options.start..<options.inputs {
            var generator = Generator(seed: options.seed, input: index)
            let kind = kinds[index % kinds.count]
            let pool = seeds.byKind[kind]!
            let seed = generator.pick(pool)
            let bytes = kind == .outputPath
                ? OutputPaths.generate(round: index / kinds.count, &generator)
                : Mutator.mutate(seed, others: pool, words: seeds.words, kind: kind, &generator)
            save(kind: kind, bytes: bytes, index: index, label: nil)
            watchdog.begin()
            if targets.run(kind, bytes) { acceptedCounts[kind, default: 0] += 1 }
            watchdog.end()
            inputCounts[kind, default: 0] += 1
        }
        let summary = Kind.allCases.compactMap { kind in
            inputCounts[kind].map { "\(kind.rawValue) \($0) (\(acceptedCounts[kind] ?? 0) accepted)" }
        }.joined(separator: ", ")
        print("inputs run: \(inputCounts.values.reduce(0, +)) (\(summary)); slowest input \(String(format: "%.3f", watchdog.slowest)) s; peak resident \(Watchdog.peakResidentMB()) MB")
        try? FileManager.default.removeItem(atPath: options.statePath)
    }

    /// The input about to run, so that the supervisor can keep it if the worker dies:
    /// `kind index label\n` then the bytes.
    func save(kind: Kind, bytes: [UInt8], index: Int, label: String?) {
        guard !options.statePath.isEmpty else { return }
        let header = Array("\(kind.rawValue) \(index) \(label ?? "-")\n".utf8)
        FileManager.default.createFile(atPath: options.statePath, contents: Data(header + bytes))
    }
}

/// Ends the worker when one input runs longer than the limit, or resident memory passes its
/// limit (exit 3: the supervisor keeps the input).
final class Watchdog: @unchecked Sendable {
    let limit: Int
    let memoryLimitMB: Int
    private let lock = NSLock()
    private var startedAt: Double?
    private(set) var slowest = 0.0

    init(limit: Int, memoryLimitMB: Int) {
        self.limit = limit
        self.memoryLimitMB = memoryLimitMB
    }

    func start() {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.2)
                lock.lock()
                let began = startedAt
                lock.unlock()
                if let began, MonotonicClock.now() - began > Double(limit) {
                    FileHandle.standardError.write(Data("switchscan-fuzz: an input ran longer than \(limit) s (a hang)\n".utf8))
                    CurrentProcess.exitAtOnce(3)
                }
                if Watchdog.residentMB() > memoryLimitMB {
                    FileHandle.standardError.write(Data("switchscan-fuzz: resident memory passed \(memoryLimitMB) MB\n".utf8))
                    CurrentProcess.exitAtOnce(3)
                }
            }
        }
        thread.start()
    }

    func begin() {
        lock.lock()
        startedAt = MonotonicClock.now()
        lock.unlock()
    }

    func end() {
        lock.lock()
        if let began = startedAt { slowest = max(slowest, MonotonicClock.now() - began) }
        startedAt = nil
        lock.unlock()
    }

    /// Resident set size now, from /proc/self/statm.
    static func residentMB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * CurrentProcess.pageSize >> 20
    }

    /// Peak resident set size of this process (getrusage's ru_maxrss, in KB).
    static func peakResidentMB() -> Int {
        ProcessStatistics.peakResidentKilobytes >> 10
    }
}

enum Regressions {
    /// Every regression input: its kind from the file name's prefix (`scene-yaml-….input`).
    static func load(_ folder: String) -> [(Kind, [UInt8], String)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.sorted().compactMap { name in
            guard name.hasSuffix(".input"),
                  let kind = Kind.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count }).first(where: { name.hasPrefix($0.rawValue + "-") }),
                  let bytes = try? RegularFile.read(folder + "/" + name, maxBytes: 16 << 20) else { return nil }
            return (kind, bytes, name)
        }
    }
}

// MARK: - The supervisor

/// Starts workers until every input has run; keeps what killed or stopped one.
struct Supervisor {
    let options: Options

    func run() {
        let began = MonotonicClock.now()
        let state = NSTemporaryDirectory() + "switchscan-fuzz-\(CurrentProcess.id).state"
        var start = 0
        var found = [String]()
        while true {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            // A trap is the finding; Swift's backtracer would only slow the restart down.
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_BACKTRACE"] = "enable=no"
            process.environment = environment
            process.arguments = [
                "--worker", "--inputs", String(options.inputs), "--seed", String(options.seed), "--root", options.root,
                "--time-limit", String(options.timeLimit), "--memory-limit", String(options.memoryLimitMB),
                "--start", String(start), "--state", state,
            ]
            do {
                try process.run()
            } catch {
                fail("cannot start the worker: \(error)")
            }
            process.waitUntilExit()
            if process.terminationReason == .exit, process.terminationStatus == 0 { break }
            let how = process.terminationReason == .uncaughtSignal
                ? "killed by signal \(process.terminationStatus)" : "exited with \(process.terminationStatus)"
            guard let data = FileManager.default.contents(atPath: state), let newline = data.firstIndex(of: 0x0A) else {
                fail("the worker \(how) before running an input")
            }
            let header = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ")
            let bytes = Array(data[(newline + 1)...])
            guard header.count == 3, let kind = Kind(rawValue: String(header[0])), let index = Int(header[1]) else {
                fail("the worker \(how); its state file is unreadable")
            }
            if index < 0 {
                // A regression input still fails: it is already kept.
                found.append("\(header[2]) (a kept regression) \(how)")
                try? FileManager.default.removeItem(atPath: state)
                fail("regression \(header[2]) still fails: the worker \(how)")
            }
            let name = "\(kind.rawValue)-\(String(fnv1a(bytes), radix: 16)).input"
            let path = options.regressions + "/" + name
            try? FileManager.default.createDirectory(atPath: options.regressions, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            found.append("input \(index) (\(kind.rawValue)): the worker \(how); kept as \(path)")
            print("FOUND input \(index) (\(kind.rawValue)): the worker \(how); kept as \(path)")
            start = index + 1
            if start >= options.inputs { break }
        }
        try? FileManager.default.removeItem(atPath: state)
        let seconds = MonotonicClock.now() - began
        print("switchscan-fuzz: \(options.inputs) inputs, seed \(options.seed), \(String(format: "%.1f", seconds)) s; \(found.isEmpty ? "nothing found" : "\(found.count) found")")
        if !found.isEmpty {
            for line in found { print("  \(line)") }
            CurrentProcess.exit(1)
        }
    }

    func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}

// MARK: - The selections store and endless streams

/// The selections store as `switchscan run` keeps it: the mutated bytes are the file. It must
/// load without a trap; every good line (three tab-separated fields, a count from 0 to 10⁹,
/// UTF-8, no line break in the names) is kept and every bad one counted as skipped; a file
/// without this format's header is refused and stays byte for byte as it was, also when a
/// write is asked; a file that loads is written back with every good line still there. A
/// failure of these is made a trap, so that the supervisor keeps the input.
enum SelectionStoreCheck {
    /// Three scenes' screens, as a long use leaves them.
    static let seed: [UInt8] = {
        var text = "switchscan-selections 1\n"
        for (screen, ids) in [("/home/u/Scenarios/bowler.yaml#game", 6), ("/home/u/keypad.yaml#main", 12), ("/tmp/a b.yaml#list", 3)] {
            for id in 0..<ids { text += "\(screen)\tid-\(id)\t\(Double(id) * 1.75 + 0.5)\n" }
        }
        return Array(text.utf8)
    }()

    static let checkScreen = "switchscan-fuzz#written"

    static func run(_ bytes: [UInt8]) -> Bool {
        let folder = NSTemporaryDirectory() + "switchscan-fuzz-store-\(CurrentProcess.id)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/selections.tsv"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return false }
        let store = SelectionStore(path: path, halfLife: 1e9)

        // What reading line by line must give: each (screen, id)'s last good count.
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let headerIsGood = lines.first.map { $0.elementsEqual("switchscan-selections 1".utf8) } ?? false
        var expected: [String: [String: Double]] = [:]
        var bad = 0
        for line in lines.dropFirst() where !line.isEmpty {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            guard fields.count == 3, !fields[0].isEmpty, !fields[1].isEmpty,
                  let screen = String(validating: fields[0], as: UTF8.self), let id = String(validating: fields[1], as: UTF8.self),
                  let countText = String(validating: fields[2], as: UTF8.self),
                  !screen.contains(where: \.isNewline), !id.contains(where: \.isNewline),
                  let count = Double(countText), count.isFinite, count >= 0, count <= 1e9 else {
                bad += 1
                continue
            }
            expected[screen, default: [:]][id] = count
        }

        switch store.load() {
        case .failure(let problem):
            if headerIsGood { fatalError("a store with its header was refused: \(problem)") }
            _ = try? store.record([(screen: checkScreen, id: "x")])
            guard let after = FileManager.default.contents(atPath: path), Array(after) == bytes else {
                fatalError("a refused store was changed or lost: \(problem)")
            }
            return false
        case .success(let (counts, skipped)):
            guard headerIsGood else { fatalError("a file without the header loaded") }
            guard (skipped != nil) == (bad > 0) else { fatalError("\(bad) bad lines, but the store said: \(String(describing: skipped))") }
            let bounded = expected.count <= counts.maxScreens && expected.values.map(\.count).reduce(0, +) <= counts.maxEntries
            if bounded {
                for (screen, ids) in expected {
                    guard counts.screens[screen] == ids else { fatalError("the good lines of \(screen) were not all kept") }
                }
            }
            let written: SelectionCounts
            do {
                written = try store.record([(screen: checkScreen, id: "x")]).0
            } catch {
                fatalError("a store that loaded could not be written: \(error)")
            }
            guard case .success(let again) = store.load(), again.skipped == nil, again.counts.screens == written.screens else {
                fatalError("a store written back does not read back as written")
            }
            if bounded, expected[checkScreen] == nil {
                for (screen, ids) in expected {
                    guard again.counts.screens[screen] == ids else { fatalError("a write lost good lines of \(screen)") }
                }
            }
            return true
        }
    }
}

/// `switchscan run --input raw:FIFO --input raw:QUIET --trace FILE --duration …` in this
/// process: a thread writes the input's bytes (zeros when it has none) into the FIFO over and
/// over, faster than they are read. The run must end at its duration, within a bound meant for
/// a loaded machine (a hang guard, not a speed test).
enum EndlessStreamCheck {
    static let duration = 0.05
    static let bound = 30.0

    static func run(_ bytes: [UInt8], scene: Scene) -> Bool {
        let folder = NSTemporaryDirectory() + "switchscan-fuzz-stream-\(CurrentProcess.id)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let streamPath = folder + "/stream", quietPath = folder + "/quiet", tracePath = folder + "/trace"
        do {
            try FileSystem.makeFIFO(streamPath)
            try FileSystem.makeFIFO(quietPath)
        } catch {
            fatalError("\(error)")
        }
        // A second input that never sends and never ends (its writer is this process), so that
        // a stream whose bytes the decoder refuses does not end the run before its duration.
        guard let quiet = try? FileIO.open(quietPath, .readWrite, options: .nonBlocking) else { fatalError("open \(quietPath)") }
        defer { FileIO.close(quiet) }
        // Read and write, without blocking: the writer never waits for the reader to open it,
        // and never blocks once the reader stops reading.
        guard let writer = try? FileIO.open(streamPath, .readWrite, options: .nonBlocking) else { fatalError("open \(streamPath)") }
        let chunk = bytes.isEmpty ? [UInt8](repeating: 0, count: 4096) : bytes
        let stop = StopFlag()
        let thread = Thread {
            var offset = 0
            while !stop.isSet {
                let count = (try? FileIO.writeSome(writer, chunk[offset...])) ?? 0
                if count > 0 {
                    offset = (offset + count) % chunk.count
                } else {
                    MonotonicClock.sleep(seconds: 0.0002)
                }
            }
            stop.finished()
        }
        thread.start()
        defer {
            stop.set()
            stop.waitFinished()
            FileIO.close(writer)
        }
        do {
            let made = try InputSources.build([.raw(path: streamPath), .raw(path: quietPath)], profile: nil, profileDirectories: [], fast: false)
            var options = LiveRun.Options(scene: scene, settings: ScanSettings(), terminalInput: false, terminalView: false,
                                          tracePath: tracePath, duration: duration, sources: made.sources)
            options.startupStatus = []
            options.statusesOnStandardError = false
            let started = MonotonicClock.now()
            let ending = try LiveRun(options).run()
            let elapsed = MonotonicClock.now() - started
            if elapsed > bound { fatalError("a run of --duration \(duration) took \(elapsed) s (\(ending))") }
            return ending == .durationElapsed
        } catch {
            fatalError("the run could not start: \(error)")
        }
    }
}

/// A flag the endless writer polls, and its end waited for.
final class StopFlag: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false
    private var done = false

    var isSet: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    func set() {
        condition.lock()
        stopped = true
        condition.unlock()
    }

    func finished() {
        condition.lock()
        done = true
        condition.broadcast()
        condition.unlock()
    }

    func waitFinished() {
        condition.lock()
        while !done { condition.wait() }
        condition.unlock()
    }
}

/// A layout that loads drives a keyboard over a text field: every key pressed, shift on and off,
/// the field read back each time.
enum KeyboardCheck {
    static let scene: Scene? = try? SceneParser.parse(
        yaml: "scene: field\nsize: [390, 844]\nstate: {text: \"\"}\nstart: main\nscreens:\n  main:\n    elements:\n      - {id: field, label: Field, textField: text}\n",
        file: "field.yaml")

    static func typeEveryKey(_ layout: KeyboardLayout) {
        guard let scene else { fatalError("the keyboard check's scene does not load") }
        var keyboard = KeyboardContent(
            over: SceneContent(scene: scene), field: Element(id: "field", label: "Field"), offer: KeyboardOffer(layout: layout))
        for case .keys(let keys) in layout.rows {
            for key in keys where key != .close {
                _ = keyboard.press(key)
                _ = keyboard.currentStructure(groupItems: true)
            }
        }
        _ = keyboard.press(.close)
        guard keyboard.isClosed else { fatalError("the close key did not close the keyboard") }
    }
}
