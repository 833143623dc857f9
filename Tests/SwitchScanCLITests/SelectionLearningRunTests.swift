import Foundation
import Testing

/// `switchscan run` learning what the user selects (issue 17, part 2): keys piped in, the counts
/// file under a temporary XDG_STATE_HOME, and the next run's structure built with it.
@Suite("switchscan run learns selections", .serialized)
struct SelectionLearningRunTests {
    /// A list of 8 buttons, one under the other.
    static let scene = (["scene: Learning", "size: [390, 844]", "start: list", "screens:", "  list:", "    elements:"]
        + (1...8).map { "      - {id: k\($0), label: K\($0), traits: [button], frame: [20, \(100 + $0 * 60), 300, 50]}" })
        .joined(separator: "\n") + "\n"

    /// Runs the scene with `keys` piped in and returns the trace's events.
    static func run(_ folder: TemporaryFolder, state: String, keys: String, _ settings: [String]) throws -> [[String: Any]] {
        try run(folder, state: state, chunks: [keys], settings)
    }

    /// `chunks` written 0.1 s apart (each read on its own).
    static func run(_ folder: TemporaryFolder, state: String, chunks: [String], _ settings: [String]) throws -> [[String: Any]] {
        let trace = folder.url.appendingPathComponent("trace-\(UUID().uuidString).jsonl").path
        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["run", "learn.yaml", "--no-view", "--trace", trace, "--set", "scanning=manual"]
            + settings.flatMap { ["--set", $0] }
        process.currentDirectoryURL = folder.url
        process.environment = ProcessInfo.processInfo.environment.merging([
            "XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path, "XDG_STATE_HOME": state,
        ]) { $1 }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try folder.outputFile("stdout-1")
        try process.run()
        for (index, chunk) in chunks.enumerated() {
            if index > 0 { Thread.sleep(forTimeInterval: 0.1) }
            input.fileHandleForWriting.write(Data(chunk.utf8))
        }
        try input.fileHandleForWriting.close()  // the end of input ends the run
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try RunCommandTests.traceEvents(trace)
    }

    static func highlights(_ events: [[String: Any]]) -> [String] {
        events.filter { $0["kind"] as? String == "highlight" }.compactMap { $0["id"] as? String }
    }

    /// Seven nexts and a select, three times: K8 tapped three times (the highlight goes back to
    /// the first item after each tap).
    static let selectK8ThreeTimes = String(repeating: String(repeating: "\r", count: 7) + " ", count: 3)

    @Test("cost --learned arranges and weighs the screen as the next run would, from what a run learnt; says when nothing was learnt")
    func costReadsWhatARunLearnt() throws {
        let folder = try TemporaryFolder()
        try folder.write("learn.yaml", Self.scene)
        let state = folder.url.appendingPathComponent("state").path
        let environment = ["XDG_STATE_HOME": state, "XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path]
        func cost(_ arguments: [String]) throws -> [String: Any] {
            let result = try CLI.run(["cost", "learn.yaml", "--json"] + arguments, in: folder.url, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
        func autoSteps(_ report: [String: Any], _ id: String) -> Int? {
            (report["items"] as? [[String: Any]])?.first { $0["id"] as? String == id }?["autoSteps"] as? Int
        }
        // Nothing learnt yet: the plain arrangement, and the reason.
        let before = try cost(["--learned"])
        #expect((before["learned"] as? String)?.hasPrefix("no selections learnt for this screen") == true, "\(before)")
        #expect(before["learnedMean"] == nil)
        let plain = try cost([])
        #expect(plain["learned"] == nil)
        let plainK8 = try #require(autoSteps(plain, "k8"))

        _ = try Self.run(folder, state: state, keys: Self.selectK8ThreeTimes, ["tapBehavior=alwaysTap", "groupItems=false"])
        // Without orderByFrequency the layout stays: K8 where it was, the learnt mean reported.
        let stable = try cost(["--learned"])
        #expect((stable["learned"] as? String)?.hasPrefix("1 item selected here before") == true, "\(stable)")
        #expect(autoSteps(stable, "k8") == plainK8)
        #expect((stable["learnedMean"] as? [String: Any])?["autoSteps"] is Double)
        let after = try cost(["--learned", "--set", "orderByFrequency=true"])
        let learntK8 = try #require(autoSteps(after, "k8"))
        #expect(learntK8 < plainK8, "K8, chosen three times, is reached sooner: \(learntK8) against \(plainK8) steps")
        // The learnt mean weighs K8 by its count: below the plain mean of the same arrangement.
        let learntMean = try #require((after["learnedMean"] as? [String: Any])?["autoSteps"] as? Double)
        let mean = try #require((after["mean"] as? [String: Any])?["autoSteps"] as? Double)
        #expect(learntMean < mean)
        // Without --learned, cost is as before: the same report as with no state at all.
        let again = try cost([])
        #expect(autoSteps(again, "k8") == plainK8)

        // A store that cannot be read is an input that does not load (exit status 2), said.
        try "not a selections file\n".write(toFile: state + "/switchscan/selections.tsv", atomically: true, encoding: .utf8)
        let broken = try CLI.run(["cost", "learn.yaml", "--learned"], in: folder.url, environment: environment)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("selections.tsv"), "\(broken.stderr)")
    }

    @Test func aRunWritesTheCountsAndTheNextRunGroupsAndOrdersWithThem() throws {
        let folder = try TemporaryFolder()
        try folder.write("learn.yaml", Self.scene)
        let state = folder.url.appendingPathComponent("state").path
        let first = try Self.run(folder, state: state, keys: Self.selectK8ThreeTimes, ["tapBehavior=alwaysTap", "groupItems=false"])
        let performed = first.filter { $0["kind"] as? String == "perform" }.compactMap { $0["id"] as? String }
        #expect(performed == ["k8", "k8", "k8"])
        // Ids and counts only, under the scene's absolute path and screen name.
        let file = try String(contentsOfFile: state + "/switchscan/selections.tsv", encoding: .utf8)
        let lines = file.split(separator: "\n").map(String.init)
        #expect(lines.first == "switchscan-selections 1")
        #expect(lines.count == 2)
        let fields = lines.last!.split(separator: "\t").map(String.init)
        let scenePath = folder.url.appendingPathComponent("learn.yaml").standardizedFileURL.path
        #expect(fields.prefix(2) == [scenePath + "#list", "k8"])
        #expect(Double(fields[2]).map { $0 > 2.9 && $0 <= 3 } == true)
        #expect(Self.writes(first) == [3])  // written once, at the end (fewer than 16 waited)

        // The next run orders by frequency: K8 is highlighted first.
        let ordered = try Self.run(folder, state: state, keys: "", ["groupItems=false", "orderByFrequency=true"])
        #expect(Self.highlights(ordered).first == "k8")
        // With grouping and orderByFrequency, the weighted structure differs from the one without
        // counts; without orderByFrequency the layout stays as it is.
        let weighted = try Self.run(folder, state: state, keys: "", ["orderByFrequency=true"])
        let fresh = try Self.run(folder, state: folder.url.appendingPathComponent("fresh").path, keys: "", [])
        let stable = try Self.run(folder, state: state, keys: "", [])
        #expect(Self.highlights(weighted).first != nil)
        #expect(Self.highlights(weighted).first != Self.highlights(fresh).first,
                "weighted \(Self.highlights(weighted)), without counts \(Self.highlights(fresh))")
        #expect(Self.highlights(stable) == Self.highlights(fresh))
        // Runs that select nothing write nothing.
        #expect(try String(contentsOfFile: state + "/switchscan/selections.tsv", encoding: .utf8) == file)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("fresh").path))
    }

    /// The "selections stored" statuses' counts.
    static func writes(_ events: [[String: Any]]) -> [Int] {
        events.compactMap { $0["text"] as? String }.filter { $0.hasPrefix("selections stored in ") }
            .compactMap { Int($0.split(separator: ":").last!.split(separator: " ").first!) }
    }

    @Test func selectionsAreWrittenSixteenAtATimeAndAtTheEnd() throws {
        let folder = try TemporaryFolder()
        try folder.write("learn.yaml", Self.scene)
        let state = folder.url.appendingPathComponent("state").path
        let events = try Self.run(folder, state: state, chunks: Array(repeating: String(repeating: "\r", count: 7) + " ", count: 17),
                                  ["tapBehavior=alwaysTap", "groupItems=false"])
        #expect(events.filter { $0["kind"] as? String == "perform" }.count == 17)
        #expect(Self.writes(events) == [16, 1])
        let file = try String(contentsOfFile: state + "/switchscan/selections.tsv", encoding: .utf8)
        let count = Double(try #require(file.split(separator: "\n").last?.split(separator: "\t").last))
        #expect(count.map { $0 > 16.5 && $0 <= 17 } == true, "\(file)")
    }

    @Test func withLearningOffNothingIsWritten() throws {
        let folder = try TemporaryFolder()
        try folder.write("learn.yaml", Self.scene)
        let state = folder.url.appendingPathComponent("state").path
        let events = try Self.run(folder, state: state, keys: Self.selectK8ThreeTimes,
                                  ["tapBehavior=alwaysTap", "groupItems=false", "learnSelections=false"])
        #expect(events.filter { $0["kind"] as? String == "perform" }.count == 3)
        #expect(!FileManager.default.fileExists(atPath: state))
    }
}
