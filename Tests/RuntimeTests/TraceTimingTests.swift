import Runtime
import Testing

@Suite("Trace lines of the runtime")
struct TraceTimingTests {
    @Test func aBrailleWriteIsOneJSONObjectWithItsMonotonicReturn() {
        let line = TraceFormat.brailleWrittenLine(time: 2.25, monotonic: 81234.5678912, call: 0.000123, text: "⠠⠃⠞⠝")
        #expect(line == #"{"time":2.25,"kind":"brailleWritten","monotonic":81234.567891,"call":0.000123,"text":"⠠⠃⠞⠝"}"#)
    }
}
