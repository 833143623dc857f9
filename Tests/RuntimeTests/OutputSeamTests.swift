import AccessibilityModel
import Foundation
import Presentation
import Runtime
import Scanning
import Scenes
import SwitchInput
import Testing
import Platform

/// Every output of a live run is a `ScanOutput` handed the same typed stream: the session's
/// outputs (highlight, menu with its item, line with its language) and the run's statuses; and
/// any output, not only the braille display, can tell the run that its reader panned away.
@Suite("Outputs as one seam")
struct OutputSeamTests {
    /// Presses of switches bound to `actions`, one every 50 ms from the start, then the end.
    final class ScriptedPresses: RuntimeSource {
        private var actions: [SwitchAction]
        private(set) var deadline: Double?
        init(_ actions: [SwitchAction]) {
            self.actions = actions
            deadline = MonotonicClock.now()
        }
        var name: String { "scripted presses" }
        var descriptor: FileDescriptor? { nil }
        func readable(at now: Double) -> [RuntimeInput] { [] }
        func deadlineReached(at now: Double) -> [RuntimeInput] {
            guard !actions.isEmpty else {
                deadline = nil
                return [.endOfInput(source: name)]
            }
            let action = actions.removeFirst()
            deadline = now + 0.05
            return [.edge(SwitchEdge(switchID: "scripted:" + action.rawValue, kind: .down, time: now))]
        }
        var bindings: [SwitchID: SwitchBinding] {
            Dictionary(uniqueKeysWithValues: SwitchAction.allCases.map { ("scripted:" + $0.rawValue, SwitchBinding(action: $0)) })
        }
        var pulseSwitches: Set<SwitchID> { Set(bindings.keys) }
    }

    /// Keeps what it is handed; with `pansAway`, reports its reader away once it has a line.
    final class RecordingOutput: ScanOutput {
        var received: [SessionOutput] = []
        var newLines: [String] = []
        let pansAway: Bool
        private var reported = false
        init(pansAway: Bool) { self.pansAway = pansAway }
        func present(_ outputs: [SessionOutput], shown: ShownState, at now: Double) {
            received += outputs
            if shown.lineIsNew { newLines.append(shown.line.text) }
        }
        func takeReports() -> [OutputReport] {
            guard pansAway, !reported, !newLines.isEmpty else { return [] }
            reported = true
            return [.readerPanned(away: true)]
        }
    }

    /// A source that says nothing and never ends (the run ends at its `duration`).
    final class Quiet: RuntimeSource {
        var name: String { "quiet" }
        var descriptor: FileDescriptor? { nil }
        var deadline: Double? { nil }
        func readable(at now: Double) -> [RuntimeInput] { [] }
        func deadlineReached(at now: Double) -> [RuntimeInput] { [] }
        var bindings: [SwitchID: SwitchBinding] { [:] }
    }

    /// Keeps the run's records; says one status (as speech or the trace would) after its first turn.
    final class RecordKeeper: ScanOutput {
        var presented: [SessionOutput] = []
        var records: [RunRecord] = []
        private var told = false
        var name: String { "record keeper" }
        func present(_ outputs: [SessionOutput], shown: ShownState, at now: Double) { presented += outputs }
        var keepsRecords: Bool { true }
        func record(_ records: [RunRecord]) { self.records += records }
        func takeReports() -> [OutputReport] {
            guard !told, !presented.isEmpty else { return [] }
            told = true
            return [.status("said by an output")]
        }
    }

    static let yaml = """
        scene: Seam
        size: [390, 844]
        start: main
        screens:
          main:
            elements:
              - {id: first, label: First, traits: [button], frame: [0, 0, 390, 44]}
              - {id: second, label: Second, traits: [button], frame: [0, 100, 390, 44]}
        """

    @Test func everyOutputIsHandedTheSameTypedStreamAndAnyCanHoldScanning() throws {
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.groupItems = false
        let plain = RecordingOutput(pansAway: false), panning = RecordingOutput(pansAway: true)
        var options = LiveRun.Options(
            scene: try SceneParser.parse(yaml: Self.yaml, file: "seam.yaml"), settings: settings,
            terminalInput: false, terminalView: false, sources: [ScriptedPresses([.next, .menu, .menu])],
            outputs: [plain, panning])
        options.startupStatus = ["said by the run"]
        options.statusesOnStandardError = false
        #expect(try LiveRun(options).run() == .endOfInput)

        // The same stream, in the same order, to both.
        #expect(plain.received.map(\.traceEvent) == panning.received.map(\.traceEvent))
        #expect(plain.newLines == panning.newLines)

        let highlighted = plain.received.compactMap { output -> ElementID? in
            if case .highlight(let highlight) = output.kind { return highlight.element?.id }
            return nil
        }
        #expect(highlighted.starts(with: ["first", "second"]), "\(highlighted)")
        let menus = plain.received.compactMap { output -> (focus: Int, count: Int, item: ElementID?)? in
            if case let .menu(entries, focus, item) = output.kind { return (focus, entries.count, item?.id) }
            return nil
        }
        #expect(menus.first?.item == "second" && menus.first?.focus == 0 && (menus.first?.count ?? 0) > 1)
        #expect(plain.received.contains { if case .menuClosed = $0.kind { true } else { false } })
        #expect(plain.newLines.contains { $0.hasPrefix("Second") }, "\(plain.newLines)")
        // The run's own statuses are in the stream.
        #expect(plain.received.contains { if case .status("said by the run") = $0.kind { true } else { false } })
        // One output's reader panned away: the session held scanning, and every output heard it.
        let held = "the reader panned away from the line's first window: scanning holds"
        #expect(plain.received.contains { if case .status(held) = $0.kind { true } else { false } })
    }

    @Test func anOutputKeepingRecordsGetsTheSameStreamDatedAndTheTraceIsMadeFromIt() throws {
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.groupItems = false
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-seam-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tracePath = folder.appendingPathComponent("trace.jsonl").path
        let plain = RecordingOutput(pansAway: false), keeper = RecordKeeper()
        var options = LiveRun.Options(
            scene: try SceneParser.parse(yaml: Self.yaml, file: "seam.yaml"), settings: settings,
            terminalInput: false, terminalView: false, tracePath: tracePath,
            sources: [ScriptedPresses([.next, .next, .menu])], outputs: [plain, keeper])
        options.statusesOnStandardError = false
        #expect(try LiveRun(options).run() == .endOfInput)

        // The records are the outputs presented, in the same order (and those of the run's
        // last moments, recorded after the last turn was shown).
        let recorded = keeper.records.compactMap { record -> SessionOutput? in
            if case .output(let output, _, _, _) = record { return output }
            return nil
        }
        #expect(plain.received.count > 3)
        #expect(recorded.map(\.traceEvent).starts(with: plain.received.map(\.traceEvent)))
        // An output's status is said: in every output's stream, and in the trace.
        #expect(plain.received.contains { if case .status("said by an output") = $0.kind { true } else { false } })
        // The trace file is made from the same records: one line per traced record, after the run line.
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
        let kinds = lines.compactMap { Self.kind(ofLine: $0) }
        #expect(kinds.first == "run")
        #expect(Array(kinds.dropFirst()) == recorded.compactMap(\.traceEvent).compactMap { Self.kind(of: $0) })
        #expect(kinds.contains("status") && kinds.filter { $0 == "highlight" }.count >= 3, "\(kinds)")
    }

    @Test func theStepsOfAutoScanningReachEveryOutputAsTheyReachTheRecord() throws {
        var settings = ScanSettings()
        settings.scanning = .auto
        settings.autoScanningTime = 0.1
        settings.groupItems = false
        let plain = RecordingOutput(pansAway: false), keeper = RecordKeeper()
        var options = LiveRun.Options(
            scene: try SceneParser.parse(yaml: Self.yaml, file: "seam.yaml"), settings: settings,
            terminalInput: false, terminalView: false, duration: 0.6, sources: [Quiet()], outputs: [plain, keeper])
        options.statusesOnStandardError = false
        #expect(try LiveRun(options).run() == .durationElapsed)

        func highlights(_ outputs: [SessionOutput]) -> [ElementID?] {
            outputs.compactMap { if case .highlight(let highlight) = $0.kind { highlight.element?.id } else { nil } }
        }
        let recorded = keeper.records.compactMap { record -> SessionOutput? in
            if case .output(let output, _, _, _) = record { return output }
            return nil
        }
        // The timer's steps, not only the first highlight: first, second, first…
        #expect(highlights(plain.received).starts(with: ["first", "second", "first"]), "\(highlights(plain.received))")
        #expect(highlights(recorded).starts(with: highlights(plain.received)))
    }

    /// A trace event's `kind` as the trace format writes it.
    static func kind(of event: TraceEvent) -> String? {
        kind(ofLine: TraceFormat.jsonLine(event))
    }

    static func kind<Line: StringProtocol>(ofLine line: Line) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["kind"] as? String
    }
}
