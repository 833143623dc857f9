import ArgumentParser
import Scenes

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scene files against the scene contract and report every problem.",
        discussion: "Folders are searched for .yaml, .yml and .json files. Exits 1 when any file has a problem.")

    @Argument(help: "Scene files or folders.", completion: Completions.scenes)
    var paths: [String]

    func run() throws {
        let files = try SceneFiles.expand(paths)
        var failed = 0
        var problemCount = 0
        for file in files {
            switch SceneFiles.loadEntry(file) {
            case .success(let entry):
                let scene = entry.scene
                if let sceneFile = entry.testsFor {
                    print("\(file): ok (\(scene.tests.count) tests of \(sceneFile))")
                } else {
                    print("\(file): ok (\(scene.screens.count) screens, \(scene.elementCount) elements, \(scene.tests.count) tests)")
                }
            case .failure(let error):
                failed += 1
                problemCount += error.problems.count
                for problem in error.problems { print(problem) }
            }
        }
        print("\(files.count) files checked, \(failed) with problems, \(problemCount) problems")
        if failed > 0 { throw ExitCode(1) }
    }
}
