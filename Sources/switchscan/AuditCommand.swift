import ArgumentParser
import Foundation
import Scenes

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Report violations of the accessibility guidelines of the seed documents.",
        discussion: """
            Rules: label-names-type, label-capital, label-period, hint-capital, hint-period, \
            hint-gesture, hint-names-control, hint-names-type, hint-command, hint-terse, missing-label, \
            adjustable-effects, unreachable, behind-modal, hidden-container, none-combined.

            Exits 1 when there are findings, 2 when a file cannot be loaded (a missing one too).
            """)

    @Argument(help: "Scene files or folders.", completion: Completions.scenes)
    var paths: [String]

    func run() throws {
        let files = try SceneFiles.expandKeepingMissing(paths)
        var findings = 0
        var unloadable = 0
        for file in files {
            switch SceneFiles.loadEntry(file) {
            case .success(let entry):
                // A tests file's scene is audited once: not again when it is audited on its own.
                if let sceneFile = entry.testsFor, files.contains(where: { samePath($0, sceneFile) }) { continue }
                let found = SceneAudit.audit(entry.scene)
                findings += found.count
                for finding in found { print(finding) }
            case .failure(let error):
                unloadable += 1
                for problem in error.problems { print(problem) }
            }
        }
        print("\(files.count) files audited, \(findings) findings" + SceneFiles.notLoaded(unloadable))
        if unloadable > 0 { throw ExitCode(2) }
        if findings > 0 { throw ExitCode(1) }
    }

    func samePath(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
    }
}
