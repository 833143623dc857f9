import Presentation
import Testing

@Suite("Trace lines of a live run")
struct TraceLineTests {
    @Test func aBrailleWriteIsOneJSONObjectWithItsMonotonicReturn() {
        let line = TraceFormat.brailleWrittenLine(time: 2.25, monotonic: 81234.5678912, call: 0.000123, text: "⠠⠃⠞⠝")
        #expect(line == #"{"time":2.25,"kind":"brailleWritten","monotonic":81234.567891,"call":0.000123,"text":"⠠⠃⠞⠝"}"#)
    }

    @Test func aRunStartsWithItsStartAndProcess() {
        #expect(TraceFormat.runStartLine(started: "2026-11-24T06:31:03Z", pid: 42)
                == #"{"time":0,"kind":"run","started":"2026-11-24T06:31:03Z","pid":42}"#)
    }
}
