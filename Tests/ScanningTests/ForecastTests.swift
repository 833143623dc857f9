import BrailleFormatting
import Foundation
import Scanning
import Scenes
import SwitchInput
import Testing

/// Forecasts (`ScanSession.forecasts(edgeOf:)`): the line a live run writes the moment it reads
/// an edge, before the session has handled it, must be the line the session then shows.
@Suite("Edge forecasts")
struct ForecastTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func scenes() throws -> [(name: String, scene: Scene)] {
        let folder = root.appendingPathComponent("Scenarios")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted().map { name in
            let path = folder.appendingPathComponent(name).path
            return (name, try SceneParser.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path))
        }
    }

    /// Four switches as a live run binds them: select (with a long press to the menu), next,
    /// escape, and a pulse-only stop (a display key or keystroke).
    static let bindings: [SwitchID: SwitchBinding] = [
        "s-select": SwitchBinding(action: .select, longPressAction: .menu),
        "s-next": SwitchBinding(action: .next),
        "s-escape": SwitchBinding(action: .escape),
        "k-stop": SwitchBinding(action: .stop),
    ]

    /// Settings drawn at random among those whose times the answer to an edge depends on.
    static func settings(_ random: inout SplitMix64) -> ScanSettings {
        var settings = ScanSettings()
        settings.scanning = ScanSettings.Style.allCases.randomElement(using: &random)!
        settings.autoScanningTime = [0.3, 1.0].randomElement(using: &random)!
        settings.dwellTime = [0.4, 2.0].randomElement(using: &random)!
        settings.debounceTime = [nil, 0.025, 0.1].randomElement(using: &random)!
        settings.holdDuration = [nil, nil, 0.1].randomElement(using: &random)!
        settings.ignoreRepeat = [nil, nil, 0.3].randomElement(using: &random)!
        settings.longPress = [nil, nil, 0.5].randomElement(using: &random)!
        settings.minimumDisplayTime = [nil, nil, 0.2].randomElement(using: &random)!
        settings.moveRepeat = [nil, 0.2].randomElement(using: &random)!
        settings.pauseOnFirstItem = [nil, 0.6].randomElement(using: &random)!
        settings.tapBehavior = ScanSettings.TapBehavior.allCases.randomElement(using: &random)!
        settings.groupItems = Bool.random(using: &random)
        settings.brailleHints = Bool.random(using: &random)
        settings.loops = [1, 4].randomElement(using: &random)!
        return settings
    }

    /// The gap before the next edge: inside a bounce window, around the hold, ignore-repeat and
    /// minimum display times, around the scanning steps, or long.
    static func gap(_ random: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: Double.random(in: 0.0005..<0.04, using: &random)
        case 1: Double.random(in: 0.04..<0.35, using: &random)
        case 2: Double.random(in: 0.35..<1.2, using: &random)
        default: Double.random(in: 1.2..<4, using: &random)
        }
    }

    @Test("Over random scenes, settings and edges, every forecast that holds for an edge is the line the session shows after it")
    func forecastsAreTheLinesShown() throws {
        let scenes = try Self.scenes()
        #expect(scenes.count >= 30)
        var random = SplitMix64(seed: 0xF0CA_5750)
        var held = 0, heldNewLines = 0, edges = 0
        var kinds = Set<String>()
        for round in 0..<8 {
            for (name, scene) in scenes {
                let settings = Self.settings(&random)
                var session = ScanSession(scene: scene, settings: settings, bindings: Self.bindings, pulseOnlySwitches: ["k-stop"])
                if Bool.random(using: &random) { session.useSelections(SelectionCounts(), scope: "", stored: false) }
                _ = session.start()
                let switches = Array(Self.bindings.keys).sorted()
                for step in 0..<120 {
                    let id = switches.randomElement(using: &random)!
                    let time = session.time + Self.gap(&random)
                    // As the live loop does between reads: time passes (timers fire), then the
                    // forecast is made while idle, a little before the edge comes.
                    if Bool.random(using: &random) {
                        _ = session.advance(to: time - Double.random(in: 0...0.05, using: &random))
                    }
                    let forecasts = session.forecasts(edgeOf: id)
                    // Mostly the edge that flips the switch; sometimes a redundant one or an
                    // autorepeat, which no forecast is for.
                    var kind = session.stabilizer.flippingEdge(of: id)
                    if Int.random(in: 0..<10, using: &random) == 0 { kind = [.down, .up, .repeat].randomElement(using: &random)! }
                    let edge = SwitchEdge(switchID: id, kind: kind, time: time)
                    let before = session.brailleLine
                    let revision = session.revision
                    _ = session.advance(to: time)
                    _ = session.input(edge)
                    edges += 1
                    guard let forecast = forecasts.first(where: { $0.holds(for: edge, revision: revision) }) else { continue }
                    held += 1
                    if forecast.line != before { heldNewLines += 1 }
                    kinds.insert("\(kind)")
                    #expect(forecast.line == session.brailleLine && forecast.language == session.brailleLineLanguage,
                            "\(name) round \(round) step \(step): \(edge) forecast \(forecast.line.text), shown \(session.brailleLine.text) (settings \(settings))")
                }
            }
        }
        // The comparison is not vacuous: most edges had a forecast, and many changed the line.
        #expect(held * 2 > edges, "\(held) of \(edges) edges had a forecast that held")
        #expect(heldNewLines * 20 > held, "\(heldNewLines) of \(held) forecasts that held showed a new line")
        #expect(kinds == ["down", "up"])
    }

    /// Two buttons, scanned by hand.
    static let yaml = """
        scene: Two
        size: [200, 100]
        start: main
        screens:
          main:
            elements:
              - {id: a, label: Alpha, traits: [button], frame: [0, 0, 100, 100]}
              - {id: b, label: Beta, traits: [button], frame: [100, 0, 100, 100]}

        """

    static func manual() -> ScanSettings {
        var settings = ScanSettings()
        settings.scanning = .manual
        settings.debounceTime = 0.025
        settings.minimumDisplayTime = 0.2
        return settings
    }

    @Test("Forecasts hold from the session's time, one span between each two moments that could change the answer, and not after anything else happened")
    func forecastSpans() throws {
        let scene = try SceneParser.parse(yaml: Self.yaml, file: "two.yaml")
        var session = ScanSession(scene: scene, settings: Self.manual(), bindings: Self.bindings)
        _ = session.start()
        #expect(session.brailleLine.text.hasPrefix("Alpha"))
        _ = session.advance(to: 1)
        // Nothing pending: one span, from now on.
        let nexts = session.forecasts(edgeOf: "s-next")
        let next = try #require(nexts.first)
        #expect(nexts.count == 1 && next.kind == .down && next.line.text.hasPrefix("Beta"))
        #expect(next.from > 1 && next.from < 1.001 && next.until == .infinity)
        #expect(next.holds(for: SwitchEdge(switchID: "s-next", kind: .down, time: 5), revision: session.revision))
        #expect(!next.holds(for: SwitchEdge(switchID: "s-next", kind: .up, time: 5), revision: session.revision))
        #expect(!next.holds(for: SwitchEdge(switchID: "s-select", kind: .down, time: 5), revision: session.revision))
        #expect(!next.holds(for: SwitchEdge(switchID: "s-next", kind: .down, time: 0.5), revision: session.revision))

        // Pressed at 1.01 and released at 1.05: the highlight moved at 1.01.
        _ = session.input(SwitchEdge(switchID: "s-next", kind: .down, time: 1.01))
        #expect(!next.holds(for: SwitchEdge(switchID: "s-next", kind: .down, time: 5), revision: session.revision))
        #expect(session.brailleLine == next.line)
        // Its release: bounce before 1.035, then accepted; the line stays either way.
        let release = session.forecasts(edgeOf: "s-next")
        #expect(release.count == 3 && release.allSatisfy { $0.kind == .up && $0.line == next.line })
        #expect(zip(release.map(\.until), [1.035, 1.21, .infinity]).allSatisfy { abs($0 - $1) < 1e-5 || $0 == $1 })
        _ = session.input(SwitchEdge(switchID: "s-next", kind: .up, time: 1.05))
        // A select (another switch: no bounce window of its own) before 1.21 is too soon
        // (minimumDisplayTime); after that it opens Beta's menu.
        let selects = session.forecasts(edgeOf: "s-select")
        #expect(selects.count == 2)
        #expect(abs(selects[0].until - 1.21) < 1e-5 && selects[0].line == next.line && selects[1].until == .infinity)
        let menu = try #require(selects.last)
        #expect(menu.line != next.line)
        let revision = session.revision
        let press = SwitchEdge(switchID: "s-select", kind: .down, time: 1.4)
        #expect(selects.filter { $0.holds(for: press, revision: revision) } == [menu])
        _ = session.input(press)
        #expect(session.brailleLine == menu.line && session.engine.menu != nil)
    }
}
