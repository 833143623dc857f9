import AccessibilityModel
import ArgumentParser
import Documents
import Foundation
import Runtime
import Scenes
import Platform

/// `switchscan snapshot`: a live window written as a scene file, for scripted tests against it.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Write a running application's window (through AT-SPI) as a scene file: elements, frames, traits, named actions as custom actions.")

    @Option(help: ArgumentHelp("The application whose window is written (its name contains NAME).", valueName: "name"))
    var app: String?

    @Option(help: ArgumentHelp("The window whose title contains TITLE.", valueName: "title"))
    var window: String?

    @Option(help: ArgumentHelp("Wait this many seconds at most for the window to appear.", valueName: "seconds"))
    var wait: Double = 10

    @Option(name: .shortAndLong, help: ArgumentHelp("The scene file to write (default: standard output).", valueName: "file"), completion: Completions.scenes)
    var output: String?

    func validate() throws {
        if !(wait >= 0 && wait <= 3600) { throw ValidationError("--wait takes seconds from 0 to 3600; found \(wait)") }
    }

    func run() throws {
        // Made before libatspi starts its threads, so that Ctrl-C comes to the wait below, which
        // it ends at once (exit 130), instead of ending the program in the middle of a call.
        let reactor: Reactor
        do {
            reactor = try Reactor()
        } catch {
            throw CommandFailure("switchscan snapshot: \(error)")
        }
        var found: LiveApplication?
        var registryAnswers = true
        let waited = try reactor.retry(every: 0.2, until: MonotonicClock.now() + wait) { () throws -> LiveApplication? in
            do {
                // The registry is asked first, with bounded calls: while it is away libatspi would
                // wait on it past any --wait.
                registryAnswers = try LiveApplication.registryAnswers()
                guard registryAnswers else { return nil }
                let live = try LiveApplication(target: LiveApplication.Target(application: app, window: window))
                return live.currentScreen.name != "no window" ? live : nil
            } catch {
                throw CommandFailure("switchscan snapshot: \(error) (is the accessibility bus running?)")
            }
        }
        switch waited {
        case .found(let live): found = live
        case .timedOut: found = nil
        case .signal(let signal): throw ExitCode(128 + signal)
        }
        guard let live = found else {
            if !registryAnswers {
                throw CommandFailure("switchscan snapshot: no window within \(formatSeconds(wait)) s: the accessibility registry"
                    + " (at-spi2-registryd) is not running on the accessibility bus, or does not answer")
            }
            let windows = LiveApplication.describeVisibleWindows()
            let named = [app.map { "--app \($0)" }, window.map { "--window \($0)" }].compactMap { $0 }
            throw CommandFailure("switchscan snapshot: no window\(named.isEmpty ? "" : " matching " + named.joined(separator: " "))"
                + " within \(formatSeconds(wait)) s; "
                + (windows.isEmpty ? "no application shows a window on the accessibility bus"
                   : "windows on the accessibility bus: \(windows.joined(separator: ", ")) (--app takes part of an application's name, --window part of a title)"))
        }
        let text = SceneSnapshot.yaml(of: live.currentScreen)
        if let output {
            // Written whole to a temporary file and renamed, as every file switchscan writes.
            do { _ = try SafeFileWriter.write(text, to: output, replace: true) } catch {
                throw CommandFailure("switchscan snapshot: cannot write \(output): \(error)")
            }
        } else {
            print(text, terminator: "")
        }
    }
}

/// A screen of model elements as scene YAML (docs/scene-format.md's keys). Ids are made short and
/// unique (e1, e2… in tree order); the AT-SPI object each came from is in a comment. Custom
/// actions keep their names and announce themselves (a scene cannot know what the application
/// did); elements that were not present are left out.
enum SceneSnapshot {
    static func yaml(of screen: Screen) -> String {
        let size = screen.root.frame ?? Rect(x: 0, y: 0, width: 0, height: 0)
        var lines = [
            "# Written by switchscan snapshot from a live window through AT-SPI.",
            "scene: \(quote(screen.name))",
            "size: [\(number(size.width)), \(number(size.height))]",
            "start: window",
            "screens:",
            "  window:",
            "    title: \(quote(screen.name))",
            "    elements:",
        ]
        var counter = 0
        func write(_ element: Element, indent: String) {
            guard element.isPresent else { return }
            counter += 1
            lines.append("\(indent)# \(element.id)")
            lines.append("\(indent)- id: e\(counter)")
            let inner = indent + "  "
            if let label = element.label { lines.append("\(inner)label: \(quoteTemplate(label))") }
            if let value = element.value { lines.append("\(inner)value: \(quoteTemplate(value))") }
            if let hint = element.hint { lines.append("\(inner)hint: \(quoteTemplate(hint))") }
            let traits = Traits.named.filter { element.traits.contains($0.trait) }.map(\.name)
            if !traits.isEmpty { lines.append("\(inner)traits: [\(traits.joined(separator: ", "))]") }
            if let frame = element.frame {
                lines.append("\(inner)frame: [\(number(frame.x)), \(number(frame.y)), \(number(frame.width)), \(number(frame.height))]")
            }
            if element.accessibilityViewIsModal { lines.append("\(inner)accessibilityViewIsModal: true") }
            if !element.customActions.isEmpty {
                lines.append("\(inner)customActions:")
                for action in element.customActions {
                    lines.append("\(inner)  - {name: \(quote(action.name)), do: [{announce: \(quoteTemplate(action.name))}]}")
                }
            }
            if element.isAccessibilityElementDeclared == false {
                lines.append("\(inner)isAccessibilityElement: false")
                let present = element.children.filter(\.isPresent)
                if !present.isEmpty {
                    lines.append("\(inner)elements:")
                    for child in present { write(child, indent: inner + "  ") }
                }
            }
        }
        for child in screen.root.children { write(child, indent: "      ") }
        if counter == 0 { lines[lines.count - 1] = "    elements: []" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML double-quoted scalar (the writers' one form, `YAMLText`).
    static func quote(_ text: String) -> String { YAMLText.quoted(text) }

    /// Text a scene reads as a template (labels, values, hints, announcements): braces doubled
    /// so that a window's `{x}` stays text.
    static func quoteTemplate(_ text: String) -> String { YAMLText.quoted(TextTemplate.escaped(text)) }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
