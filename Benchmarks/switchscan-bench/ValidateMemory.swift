// Peak memory of `switchscan validate` on hostile and large inputs under 1 MB (issue 11: under
// 64 MB each). Each input is validated by a fresh `switchscan` process; its peak resident size
// is the kernel's (wait4's ru_maxrss), its time the wall clock around it, median of 3 runs.
import Foundation
import Platform
#if canImport(Glibc)
import Glibc
#endif

func runValidateMemoryBenchmark(arguments: [String]) {
    let markdown = arguments.contains("--markdown")
    do {
        let package = try BenchPackage.locate()
        let switchscan = try package.switchscan()
        let folder = NSTemporaryDirectory() + "switchscan-validate-memory-\(CurrentProcess.id)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        var inputs = validateMemoryInputs(root: package.root)
        inputs.sort { $0.text.utf8.count < $1.text.utf8.count }
        var rows = [(name: String, bytes: Int, peakMB: Double, seconds: Double, exit: Int32)]()
        for (index, input) in inputs.enumerated() {
            let path = "\(folder)/\(index)-\(input.name.replacingOccurrences(of: " ", with: "-")).\(input.ext)"
            try input.text.write(toFile: path, atomically: false, encoding: .utf8)
            var peaks = [Double](), times = [Double](), exit: Int32 = 0
            for _ in 0..<3 {
                let run = try measuredThroughHelper(switchscan, ["validate", path])
                peaks.append(Double(run.maxResidentKB) / 1024)
                times.append(run.seconds)
                exit = run.exit
            }
            rows.append((input.name, input.text.utf8.count, median(peaks), median(times), exit))
            FileHandle.standardError.write(Data("validate-memory: \(input.name) done\n".utf8))
        }
        let worst = rows.map(\.peakMB).max() ?? 0
        if markdown {
            print("## validate: peak memory on inputs under 1 MB\n")
            print("Each input validated by a fresh `switchscan validate` (peak resident size from wait4, median of 3 runs). Target: under 64 MB.\n")
            print("| input | bytes | peak MB | seconds | exit |")
            print("| --- | ---: | ---: | ---: | ---: |")
            for row in rows {
                print("| \(row.name) | \(row.bytes) | \(String(format: "%.1f", row.peakMB)) | \(String(format: "%.3f", row.seconds)) | \(row.exit) |")
            }
            print("\nLargest peak: \(String(format: "%.1f", worst)) MB (target < 64 MB: \(worst < 64 ? "met" : "missed")).")
        } else {
            print("validate peak memory (median of 3 runs, fresh process each):")
            for row in rows {
                print("  \(row.name.padding(toLength: 36, withPad: " ", startingAt: 0)) \(String(row.bytes).leftPadded(8)) bytes  \(String(format: "%6.1f", row.peakMB)) MB  \(String(format: "%6.3f", row.seconds)) s  exit \(row.exit)")
            }
            print("largest peak \(String(format: "%.1f", worst)) MB; target < 64 MB: \(worst < 64 ? "met" : "missed")")
        }
    } catch {
        FileHandle.standardError.write(Data("validate-memory: \(error)\n".utf8))
        CurrentProcess.exit(1)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

/// The inputs: honest large scenes, and what an attacker or a careless user would hand over.
func validateMemoryInputs(root: String) -> [(name: String, ext: String, text: String)] {
    var inputs = [(name: String, ext: String, text: String)]()
    // Honest scenes just under 1 MB, YAML and JSON.
    var elements = 1000
    while generateScene(elements: elements * 2).text.utf8.count < 1_000_000 { elements *= 2 }
    while generateScene(elements: elements + 500).text.utf8.count < 1_000_000 { elements += 500 }
    inputs.append(("generated scene YAML", "yaml", generateScene(elements: elements).text))
    var jsonElements = elements
    while generateJSONScene(elements: jsonElements).utf8.count >= 1_000_000 { jsonElements -= 500 }
    inputs.append(("generated scene JSON", "json", generateJSONScene(elements: jsonElements)))
    // The densest honest scenes: one short key per element.
    let header = "scene: F\nsize: [100, 100]\nstart: main\nscreens:\n  main:\n    elements:\n"
    inputs.append(("50k one-key elements YAML", "yaml", header + String(repeating: "      - {label: x}\n", count: 50_000)))
    inputs.append(("60k one-key elements JSON", "json",
                   "{\"scene\": \"F\", \"size\": [100, 100], \"start\": \"main\", \"screens\": {\"main\": {\"elements\": [\n"
                       + Array(repeating: "{\"label\": \"x\"}", count: 60_000).joined(separator: ",\n") + "]}}}\n"))
    // The largest seed scene.
    if let names = try? FileManager.default.contentsOfDirectory(atPath: root + "/Scenarios") {
        let texts = names.filter { $0.hasSuffix(".yaml") }.compactMap { try? String(contentsOfFile: root + "/Scenarios/" + $0, encoding: .utf8) }
        if let largest = texts.max(by: { $0.utf8.count < $1.utf8.count }) { inputs.append(("largest seed scene", "yaml", largest)) }
    }
    // Alias bombs: nested (ten aliases per level), small and wide.
    func bomb(levels: Int, width: Int) -> String {
        var lines = ["scene: Bomb", "size: [100, 100]", "start: main", "screens:", "  main:", "    elements:", "      - &l0 {label: boom}"]
        for level in 1...levels {
            lines.append("      - &l\(level) {elements: [\(Array(repeating: "*l\(level - 1)", count: width).joined(separator: ", "))]}")
        }
        return lines.joined(separator: "\n") + "\n"
    }
    inputs.append(("nested alias bomb (9 levels × 10)", "yaml", bomb(levels: 9, width: 10)))
    var wide = 10
    while bomb(levels: 9, width: wide * 2).utf8.count < 160_000 { wide *= 2 }
    inputs.append(("nested alias bomb (9 levels, wide)", "yaml", bomb(levels: 9, width: wide)))
    // Anchors used many times each, just under the node budget a size allows.
    var flat = ["scene: Flat", "size: [100, 100]", "start: main", "screens:", "  main:", "    elements:", "      - &e {label: same, frame: [0, 0, 10, 10]}"]
    while flat.joined(separator: "\n").utf8.count < 900_000 { flat.append("      - *e") }
    inputs.append(("one anchor used 100k times", "yaml", flat.joined(separator: "\n") + "\n"))
    // Not a scene at all.
    inputs.append(("deep flow nesting", "yaml", String(repeating: "[", count: 400_000) + String(repeating: "]", count: 400_000)))
    inputs.append(("deep block nesting", "yaml", String(repeating: "- ", count: 450_000) + "x\n"))
    inputs.append(("70k one-line keys", "yaml", (0..<70_000).map { "k\($0): \($0)" }.joined(separator: "\n") + "\n"))
    inputs.append(("one 1 MB line", "yaml", "label: " + String(repeating: "x", count: 999_000) + "\n"))
    inputs.append(("1 MB of JSON numbers", "json", "[" + Array(repeating: "1", count: 480_000).joined(separator: ",") + "]"))
    return inputs
}

/// `validate-memory-child EXECUTABLE ARGUMENTS…`: runs the command and prints its exit, wall
/// time and peak resident size. The measuring parent is this small process: a child started by
/// posix_spawn (vfork) inherits its parent's high-water mark in ru_maxrss, so the benchmark's own
/// memory (the generated inputs) must not be that parent.
func runValidateMemoryChild(arguments: [String]) {
    guard let executable = arguments.first else { CurrentProcess.exit(2) }
    do {
        let run = try spawnMeasured(executable, Array(arguments.dropFirst()))
        print("\(run.exit) \(run.seconds) \(run.maxResidentKB)")
    } catch {
        FileHandle.standardError.write(Data("validate-memory-child: \(error)\n".utf8))
        CurrentProcess.exit(1)
    }
}

/// The command measured by a `validate-memory-child` of this executable.
func measuredThroughHelper(_ executable: String, _ arguments: [String]) throws -> (exit: Int32, seconds: Double, maxResidentKB: Int) {
    let helper = Process()
    helper.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    helper.arguments = ["validate-memory-child", executable] + arguments
    let pipe = Pipe()
    helper.standardOutput = pipe
    try helper.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    helper.waitUntilExit()
    let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    guard fields.count == 3, let exit = Int32(fields[0]), let seconds = Double(fields[1]), let kilobytes = Int(fields[2]) else {
        throw BenchFailure("validate-memory-child gave no figures for \(arguments.joined(separator: " "))")
    }
    return (exit, seconds, kilobytes)
}

/// Runs `executable` with its output kept in a temporary folder removed after it (nothing reads
/// it); its exit, wall time and peak resident size.
func spawnMeasured(_ executable: String, _ arguments: [String]) throws -> (exit: Int32, seconds: Double, maxResidentKB: Int) {
    let scratch = try makeScratchFolder("validate-memory-child")
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let started = Date()
    let pid: Int32
    do {
        pid = try ChildProcess.spawn(
            executable, arguments: [executable] + arguments, standardInput: .reading("/dev/null"),
            standardOutput: .writing(scratch + "/output.txt", append: false), standardError: .standardOutput)
    } catch {
        throw BenchFailure("cannot start \(executable): \(error.errno.message)")
    }
    guard let (ending, kilobytes) = ChildProcess.waitMeasured(pid) else { throw BenchFailure("wait4: \(executable) is not a child") }
    let exited: Int32
    switch ending {
    case .exited(let code): exited = code
    case .signalled(let signal): exited = 128 + signal
    }
    return (exited, Date().timeIntervalSince(started), kilobytes)
}
