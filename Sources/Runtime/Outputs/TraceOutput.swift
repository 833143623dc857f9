import Presentation
import Scanning

/// The trace as an output: the run's records (the session's outputs as the loop handled them,
/// the devices' writes, speech's progress) as JSON lines (`TraceFormat`), each batch the run
/// hands over in one write (`TraceWriter`). What goes wrong with the file is reported as a
/// status, once (`TraceWriter.problem`).
final class TraceOutput: ScanOutput {
    private let writer: TraceWriter
    /// The run's start on the monotonic clock: the lines' `time` counts from it.
    private let origin: Double

    init(writer: TraceWriter, origin: Double) {
        self.writer = writer
        self.origin = origin
    }

    var name: String { "trace" }

    /// The trace is written from the records, which carry the same outputs dated.
    func present(_ outputs: [SessionOutput], shown: ShownState, at now: Double) {}

    var keepsRecords: Bool { true }

    func record(_ records: [RunRecord]) {
        writer.write(lines: records.compactMap { Self.line(of: $0, origin: origin) })
    }

    var recordRetryDue: Double? { writer.retryDue }

    func retryRecords() {
        writer.writeHeld()
    }

    func takeReports() -> [OutputReport] {
        writer.takeProblem().map { [.status($0)] } ?? []
    }

    /// A record's trace line; nil for a session output that is not traced (a line whose text
    /// did not change).
    static func line(of record: RunRecord, origin: Double) -> String? {
        switch record {
        case let .output(output, handled, timestamp, read):
            output.traceEvent.map { TraceFormat.jsonLine($0, handled: handled, timestamp: timestamp, read: read) }
        case .written(let write):
            TraceFormat.brailleWrittenLine(time: write.returned - origin, monotonic: write.returned,
                                           call: write.returned - write.started, text: write.text)
        case .spoken(let progress):
            TraceFormat.speechLine(time: progress.time - origin, monotonic: progress.time, event: progress.event,
                                   utterance: progress.utterance, text: progress.text, language: progress.language)
        }
    }
}
