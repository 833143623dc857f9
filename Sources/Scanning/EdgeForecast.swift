import BrailleFormatting
import SwitchInput

/// The braille line a switch's next edge will show, worked out while the host is idle: the host
/// writes it the moment it reads the edge, and the session catches up after the write (issue 17,
/// part 3: the work between reading a press and writing its line).
///
/// A forecast is the session's own answer, made by a copy of it given the edge; it holds for an
/// edge of `switchID` and `kind` dated from `from` to before `until`, while the session's
/// `revision` is the one it was made at. Within that span the answer cannot depend on the edge's
/// time: the session is given an edge's time only to fire the timers due by then (none are due
/// before `until`), to compare it with the stabiliser's bounce and ignore-repeat windows
/// (`Stabilizer.edgeTimeBoundaries`) and the engine's minimum display time and message instant
/// (`ScanningEngine.actionTimeBoundaries`), none of which ends inside the span; and to date
/// outputs and schedule timers, which the line does not show. `ForecastTests` checks the
/// forecasts against the session over random scenes, settings and edges.
public struct EdgeForecast: Sendable, Equatable {
    public let switchID: SwitchID
    public let kind: SwitchEdge.Kind
    /// The span of edge times it holds for: `from` ≤ time < `until` (session time).
    public let from: Double
    public let until: Double
    /// `ScanSession.revision` when it was made.
    public let revision: Int
    /// What the session shows after the edge, and in which language.
    public let line: BrailleLine
    public let language: String?

    /// Whether the session at `revision` answers `edge` with this forecast's line.
    public func holds(for edge: SwitchEdge, revision: Int) -> Bool {
        revision == self.revision && edge.switchID == switchID && edge.kind == kind
            && edge.time >= from && edge.time < until
    }

    /// How far inside a boundary a forecast stops (seconds): comparisons such as
    /// `time - last < window` and `time < last + window` can differ in the last bit.
    static let boundaryMargin = 1e-6
}

extension ScanSession {
    /// The lines the next edge of `switchID` (the one that flips it) will show, one forecast for
    /// each span between the moments its answer may change (a bounce window ending, an
    /// ignore-repeat window, the minimum display time), up to the next timer: so that an edge
    /// dated after a window closes finds its forecast made too. Empty when the edge would act on
    /// a live application (a forecast never acts).
    public func forecasts(edgeOf switchID: SwitchID) -> [EdgeForecast] {
        let kind = stabilizer.flippingEdge(of: switchID)
        let margin = EdgeForecast.boundaryMargin
        let end = nextDeadline ?? .infinity
        let boundaries = Set((stabilizer.edgeTimeBoundaries(of: switchID) + engine.actionTimeBoundaries)
            .filter { $0 > time - margin && $0 < end }).sorted()
        var forecasts: [EdgeForecast] = []
        var start = time
        for boundary in boundaries + [end] {
            defer { start = boundary }
            let from = start + margin, until = boundary - margin
            guard until > from else { continue }
            var trial = self
            guard SessionDriver.forecastStep(.edge(SwitchEdge(switchID: switchID, kind: kind, time: from)), on: &trial) != nil
            else { return [] }
            forecasts.append(EdgeForecast(
                switchID: switchID, kind: kind, from: from, until: until, revision: revision,
                line: trial.brailleLine, language: trial.brailleLineLanguage))
        }
        return forecasts
    }
}
