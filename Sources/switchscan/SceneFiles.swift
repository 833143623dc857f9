import Foundation
import Runtime
import Scenes

/// Reading scene files for the commands: the only I/O around the pure loader.
enum SceneFiles {
    static let extensions: Set<String> = ["yaml", "yml", "json"]

    /// The given files, with folders expanded to the scene files inside them (sorted).
    static func expand(_ paths: [String]) throws -> [String] {
        var files = [String]()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandFailure("\(path): no such file or folder")
            }
            if !isDirectory.boolValue {
                files.append(path)
                continue
            }
            guard let enumerator = FileManager.default.enumerator(atPath: path) else {
                throw CommandFailure("\(path): cannot list the folder")
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

    /// Loads one scene; a file that cannot be read becomes a problem at line 1.
    static func load(_ path: String) -> Result<Scene, SceneLoadError> {
        let text: String
        switch RegularFile.readText(path, maxBytes: SceneLimits.standard.maxBytes) {
        case .success(let value): text = value
        case .failure(let failure):
            let problem = failure.problem(file: path)
            return .failure(SceneLoadError(problems: [SceneProblem(
                location: SourceLocation(file: path, line: problem.line, column: problem.column), message: problem.message)]))
        }
        do {
            return .success(try SceneParser.parse(yaml: text, file: path))
        } catch {
            return .failure(error)
        }
    }
}

/// A command that failed for a reason the user can act on; printed without a stack of context.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Standard error, for diagnostics.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
