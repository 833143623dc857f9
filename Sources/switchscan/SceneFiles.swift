import ArgumentParser
import Foundation
import Runtime
import Scenes
import Platform

/// Reading scene files for the commands: the only I/O around the pure loader.
enum SceneFiles {
    static let extensions: Set<String> = ["yaml", "yml", "json"]

    /// The given files, with folders expanded to the scene files inside them (sorted). A path
    /// that does not exist is an input that cannot be read (exit 2).
    static func expand(_ paths: [String]) throws -> [String] {
        var files = [String]()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandFailure("\(path): no such file or folder", status: .unloadable)
            }
            if !isDirectory.boolValue {
                files.append(path)
                continue
            }
            guard let enumerator = FileManager.default.enumerator(atPath: path) else {
                throw CommandFailure("\(path): cannot list the folder", status: .unloadable)
            }
            var found = [String]()
            for case let relative as String in enumerator
            where extensions.contains((relative as NSString).pathExtension.lowercased()) {
                found.append((path as NSString).appendingPathComponent(relative))
            }
            files += found.sorted()
        }
        return files
    }

    /// `expand`, but a path that does not exist is kept as a file: loading it then fails with
    /// its own message (`missing.yaml:1:1: error: cannot read the file: …`), counted as a file
    /// that cannot be loaded (exit 2 for `test` and `audit`, as their documentation says).
    static func expandKeepingMissing(_ paths: [String]) throws -> [String] {
        var files = [String]()
        for path in paths {
            if FileManager.default.fileExists(atPath: path) { files += try expand([path]) } else { files.append(path) }
        }
        return files
    }

    /// The closing line's count of files that could not be loaded: `, 1 file not loaded`; empty
    /// when there are none.
    static func notLoaded(_ count: Int) -> String {
        count == 0 ? "" : ", \(count) file\(count == 1 ? "" : "s") not loaded"
    }

    /// Loads one scene; a file that cannot be read becomes a problem at line 1. A tests file
    /// gives the scene it names, with the tests file's tests.
    static func load(_ path: String) -> Result<Scene, SceneLoadError> {
        loadEntry(path).map(\.scene)
    }

    /// A loaded file: its scene, and for a tests file the scene file it names.
    struct Entry {
        var scene: Scene
        var testsFor: String?
    }

    static func loadEntry(_ path: String) -> Result<Entry, SceneLoadError> {
        let text: String
        switch readText(path) {
        case .success(let value): text = value
        case .failure(let error): return .failure(error)
        }
        let content: SceneFileContent
        do {
            content = try SceneParser.parseFile(yaml: text, file: path)
        } catch {
            return .failure(error)
        }
        switch content {
        case .scene(let scene):
            return .success(Entry(scene: scene))
        case .tests(let reference):
            return loadTests(path, text: text, reference: reference).map { Entry(scene: $0, testsFor: $0.file) }
        }
    }

    /// How a tests file's `scene:` is refused when it leaves the tests file's folder.
    static let sceneWording = ContainedPath.Wording(
        folder: "the tests file's folder", advice: "name a scene file in the tests file's own folder")

    /// A tests file's scene (`scene:`, a scene file's name inside the tests file's own folder, as
    /// `ContainedPath` allows: no absolute path, no `..`, no symbolic link out of it), loaded,
    /// then its tests read against that scene.
    static func loadTests(_ path: String, text: String, reference: TestsFileReference) -> Result<Scene, SceneLoadError> {
        func refuse(_ message: String) -> Result<Scene, SceneLoadError> {
            .failure(SceneLoadError(problems: [SceneProblem(location: reference.location, message: message)]))
        }
        let named = reference.scenePath
        guard extensions.contains((named as NSString).pathExtension.lowercased()) else {
            return refuse("scene '\(named)' is not a scene file's name (.yaml, .yml or .json); a tests file's scene: names the scene file it drives")
        }
        let scenePath: String
        switch ContainedPath.resolve(named, besideFile: path, wording: sceneWording) {
        case .success(let resolved): scenePath = resolved
        case .failure(let refusal): return refuse("scene '\(named)': \(refusal.message)")
        }
        let sceneText: String
        switch readText(scenePath) {
        case .success(let value): sceneText = value
        case .failure(let error):
            let reason = error.problems.first?.message ?? "cannot be read"
            return refuse("scene '\(named)' (\(scenePath)): \(reason)")
        }
        // Its problems are counted and placed, never quoted: a tests file must not be able to make
        // the program print a file's content (in the terminal or the JUnit report) by naming a
        // file that is not a scene. `switchscan validate SCENE` shows them in full.
        let scene: Scene
        do {
            switch try SceneParser.parseFile(yaml: sceneText, file: scenePath) {
            case .scene(let loaded): scene = loaded
            case .tests: return refuse("scene '\(named)' is itself a tests file; name the scene file")
            }
        } catch {
            let count = error.problems.count
            let first = error.problems.first.map { " (the first at line \($0.location.line), column \($0.location.column))" } ?? ""
            return refuse("scene '\(named)' (\(scenePath)) does not load as a scene: \(count) problem\(count == 1 ? "" : "s")\(first); `switchscan validate \(scenePath)` shows them")
        }
        do {
            var driven = scene
            driven.tests = try SceneParser.parseTests(yaml: text, file: path, scene: scene)
            return .success(driven)
        } catch {
            return .failure(error)
        }
    }

    static func readText(_ path: String) -> Result<String, SceneLoadError> {
        RegularFile.readText(path, maxBytes: SceneLimits.standard.maxBytes).mapError { failure in
            let problem = failure.problem(file: path)
            return SceneLoadError(problems: [SceneProblem(
                location: SourceLocation(file: path, line: problem.line, column: problem.column), message: problem.message)])
        }
    }
}

/// A command that failed for a reason the user can act on; printed without a stack of context
/// (`Error: …` on standard error), then the program exits with `status` (README's table: 1 work
/// not done, 2 an input that could not be read or loaded, 64 a malformed argument).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    var status: ExitCode
    init(_ description: String, status: ExitCode = .failure) {
        self.description = description
        self.status = status
    }
}

/// Standard error, for diagnostics.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
