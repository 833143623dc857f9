import ArgumentParser
import DumpImport
import Foundation
import Runtime
import Scanning
import Scenes
import Platform

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn accessibility dumps of real iOS and Android screens into a scene.",
        discussion: """
            Reads Appium's XCUITest page source (iOS) or a UI Automator dump (Android), the \
            format guessed from the content; each file becomes a screen of one scene. Elements a \
            scanner would skip (invisible, zero size, off screen, not accessible) are left out and \
            counted. The scene goes to -o FILE (replaced, unless it holds scripted tests: keep \
            those in a tests file, docs/importing.md), else to standard output with the summary on \
            standard error. A page source without `accessible` attributes is read with UIKit's \
            defaults. --report adds why each element was kept, each screen's scan cost (as `cost`) \
            and the audit's findings (as `audit`). Exits 2 when a dump cannot be read or imported, \
            or when nothing in it would be scanned (nothing is written), \
            1 when the scene cannot be written: -o names what is not a regular file (a folder, a \
            FIFO, a device) or one of the dumps being read.
            """)

    @Argument(help: "Dump files (XML); each becomes a screen.", completion: Completions.dumps)
    var files: [String]

    @Option(help: ArgumentHelp("The dumps' format, when not guessed from the content.", valueName: "ios|android"))
    var format: DumpFormat?

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the scene to this file.", valueName: "scene"), completion: Completions.scenes)
    var output: String?

    @Option(help: ArgumentHelp("The scene's title (default: the first file's name).", valueName: "text"))
    var title: String?

    @Flag(help: "Also print each screen's scan cost (mean and worst steps and seconds) and the audit's findings.")
    var report = false

    func run() throws {
        // Without -o the scene is standard output; everything else goes to standard error.
        let toStandardError = output == nil
        let say: (String) -> Void = { line in
            if toStandardError { printError(line) } else { print(line) }
        }
        var screens = [ImportedScreen]()
        var failed = false
        for file in files {
            let bytes: [UInt8]
            do {
                bytes = try RegularFile.read(file, maxBytes: DumpLimits.standard.maxBytes)
            } catch {
                printError(error.problem(file: file).description)
                failed = true
                continue
            }
            switch DumpImporter.screen(bytes: bytes, file: file, format: format) {
            case .failure(let problem):
                printError(problem.description)
                failed = true
            case .success(let screen):
                screens.append(screen)
            }
        }
        guard !failed else { throw ExitCode.unloadable }
        let sceneFile = output ?? "(standard output)"
        let sceneTitle = title ?? DumpImporter.screenName(files[0])
        let imported: (text: String, scene: Scene, warnings: [String])
        switch DumpImporter.scene(title: sceneTitle, screens: screens, file: sceneFile) {
        case .success(let value): imported = value
        case .failure(let error):
            // The import wrote a scene its own loader refuses: a bug, said as such.
            printError("switchscan import: the scene made from these dumps does not load (please report this):")
            for problem in error.problems { printError(problem.description) }
            throw ExitCode(1)
        }
        for (index, screen) in screens.enumerated() {
            let name = imported.scene.screens[index].name
            let kept = screen.elementCount
            let counts = screen.skippedCounts
            let left = counts.reduce(0) { $0 + $1.count }
            var line = "\(screen.file) (\(screen.format.rawValue)) → screen '\(name)': \(kept) element\(kept == 1 ? "" : "s") kept"
            if left > 0 {
                line += ", \(left) left out: " + counts.map { "\($0.count) \($0.reason.rawValue)" }.joined(separator: ", ")
            }
            say(line)
            for (reason, _) in counts {
                let examples = screen.skipped.filter { $0.reason == reason }
                let shown = examples.prefix(5).map { "\($0.type) at \($0.position.lineColumn)" }.joined(separator: ", ")
                say("  \(reason.rawValue) (\(reason.explanation)): \(shown)\(examples.count > 5 ? ", …" : "")")
            }
            if report {
                say("  kept, and why:")
                for line in screen.keptLines { say("    \(line)") }
            }
        }
        for warning in imported.warnings { say("warning: \(warning)") }
        if let output {
            do {
                try SafeFileWriter.update(output, maxBytes: SceneLimits.standard.maxBytes, inputs: files) { existing in
                    if let existing, Self.holdsTests(existing, file: output) {
                        throw CommandFailure("\(output) holds scripted tests, which importing again would lose: move them to a tests file (scene: \((output as NSString).lastPathComponent) and tests:, docs/importing.md), or write the scene elsewhere")
                    }
                    return imported.text
                }
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                throw CommandFailure("switchscan import: the scene was not written to \(output): \(error)")
            }
            say("wrote \(output): \(imported.scene.screens.count) screen\(imported.scene.screens.count == 1 ? "" : "s"), \(imported.scene.elementCount) elements")
        } else {
            print(imported.text, terminator: "")
        }
        if report { ImportReport.print(imported.scene, say: say) }
    }

    /// Whether a scene file's text has `tests:` that a new import would replace.
    static func holdsTests(_ text: String, file: String) -> Bool {
        if let scene = try? SceneParser.parse(yaml: text, file: file) { return !scene.tests.isEmpty }
        // A file that does not load as a scene: tests are there when a line starts with `tests:`.
        return text.split(separator: "\n").contains { $0.hasPrefix("tests:") || $0.hasPrefix("\"tests\":") }
    }
}

extension DumpFormat: ExpressibleByArgument {}

/// `import --report`: per screen what a switch user pays (as `cost` computes it), then the audit.
enum ImportReport {
    static func print(_ scene: Scene, say: (String) -> Void) {
        say("")
        say("scan cost (default settings; auto: one switch, \(formatCost(ScanSettings().autoScanningTime)) s per step; manual: next and select, \(formatCost(ScanCost.defaultPressInterval)) s per press):")
        for template in scene.screens {
            guard let screen = scene.screen(template.name, state: scene.initialState) else { continue }
            let cost = ScanCost.report(for: screen)
            guard !cost.items.isEmpty else {
                say("  \(template.name): no items")
                continue
            }
            let mean = cost.mean, worst = cost.worst
            say("  \(template.name): \(cost.items.count) items; mean \(formatCost(mean.autoSteps)) steps / \(formatCost(mean.autoSeconds)) s auto, \(formatCost(mean.manualSteps)) presses / \(formatCost(mean.manualSeconds)) s manual; worst \(formatCost(worst.autoSteps)) steps / \(formatCost(worst.autoSeconds)) s auto, \(formatCost(worst.manualSteps)) presses / \(formatCost(worst.manualSeconds)) s manual (\(cost.worstItem()?.id ?? ""))")
        }
        let findings = SceneAudit.audit(scene)
        say("")
        say("audit: \(findings.count) finding\(findings.count == 1 ? "" : "s")")
        for finding in findings { say("  \(finding)") }
    }
}
