import Scanning

/// The trace as JSON lines, one per event: `time` (seconds since start) and `kind`, with the
/// fields of that kind (issue 6's format).
public enum TraceFormat {
    /// `handled`: when the live loop handled it (seconds since start), `timestamp`: a switch
    /// edge's own timestamp from its source (CLOCK_MONOTONIC seconds), both only from `run`.
    public static func jsonLine(_ event: TraceEvent, handled: Double? = nil, timestamp: Double? = nil, read: Double? = nil) -> String {
        var fields: [(String, String)] = [("time", number(event.time))]
        if let handled { fields.append(("handled", number(handled))) }
        if let timestamp { fields.append(("timestamp", number(timestamp))) }
        if let read { fields.append(("read", number(read))) }
        switch event.kind {
        case let .input(switchID, edge, accepted, reason):
            fields += [("kind", string("input")), ("switch", string(switchID)), ("edge", string(edge)),
                       ("accepted", accepted ? "true" : "false")]
            if let reason { fields.append(("reason", string(reason))) }
        case let .highlight(id, label):
            fields += [("kind", string("highlight")), ("id", id.map(string) ?? "null"), ("label", label.map(string) ?? "null")]
        case let .menu(entries, focus):
            fields += [("kind", string("menu")), ("entries", "[" + entries.map(string).joined(separator: ",") + "]"),
                       ("focus", focus.map { entries.indices.contains($0) ? string(entries[$0]) : "null" } ?? "null")]
        case let .perform(id, action):
            fields += [("kind", string("perform")), ("id", id.map(string) ?? "null"), ("action", string(action))]
        case .screen(let name):
            fields += [("kind", string("screen")), ("name", string(name))]
        case .announcement(let text):
            fields += [("kind", string("announcement")), ("text", string(text))]
        case .braille(let text):
            fields += [("kind", string("braille")), ("text", string(text))]
        case let .ignored(action, reason):
            fields += [("kind", string("ignored")), ("action", string(action)), ("reason", string(reason))]
        case .scanning(let running):
            fields += [("kind", string("scanning")), ("running", running ? "true" : "false")]
        case .status(let text):
            fields += [("kind", string("status")), ("text", string(text))]
        case let .timer(name, switchID):
            fields += [("kind", string("timer")), ("timer", string(name))]
            if let switchID { fields.append(("switch", string(switchID))) }
        case let .action(action, phase, switchID):
            fields += [("kind", string("action")), ("action", string(action)), ("phase", string(phase)), ("switch", string(switchID))]
        }
        return object(fields)
    }

    /// A `brailleWritten` line: a BrlAPI write returned at `time` (seconds since start);
    /// `monotonic` is that moment on CLOCK_MONOTONIC (the clock of evdev and raw stream
    /// timestamps), `call` the seconds the write took, `text` the window written.
    public static func brailleWrittenLine(time: Double, monotonic: Double, call: Double, text: String) -> String {
        object([("time", number(time)), ("kind", string("brailleWritten")), ("monotonic", number(monotonic)),
                ("call", number(call)), ("text", string(text))])
    }

    /// The first line of a run: `{"time":0,"kind":"run","started":"2026-11-24T06:31:03Z","pid":42}`
    /// (`started`: the UTC time the run started, as ISO 8601).
    public static func runStartLine(started: String, pid: Int32) -> String {
        object([("time", "0"), ("kind", string("run")), ("started", string(started)), ("pid", String(pid))])
    }

    /// A line of speech: `said` (handed to speech-dispatcher), `began`, `ended` or `cancelled`,
    /// with the moment on the monotonic clock (`began` and `ended`: when libspeechd's thread got
    /// the news) and the line's number (`ScanSession.speechUtterance`).
    public static func speechLine(time: Double, monotonic: Double, event: String, utterance: Int, text: String, language: String?) -> String {
        object([("time", number(time)), ("kind", string("speech")), ("event", string(event)), ("monotonic", number(monotonic)),
                ("utterance", String(utterance)), ("text", string(text)), ("language", language.map(string) ?? "null")])
    }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func number(_ value: Double) -> String {
        // JSON has no infinity; a time from a stream's clock can be anything a record holds.
        guard value.isFinite else { return "null" }
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        guard rounded.isFinite else { return String(value) }
        if rounded == rounded.rounded(), let whole = Int64(exactly: rounded) { return String(whole) }
        return String(rounded)
    }

    /// A JSON string literal.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
