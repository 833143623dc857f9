import Foundation
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
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let decoded = String(data: data, encoding: .utf8) else {
                return .failure(SceneLoadError(problems: [SceneProblem(
                    location: SourceLocation(file: path, line: 1, column: 1), message: "the file is not UTF-8 text")]))
            }
            text = decoded
        } catch {
            return .failure(SceneLoadError(problems: [SceneProblem(
                location: SourceLocation(file: path, line: 1, column: 1),
                message: "cannot read the file: \((error as NSError).localizedDescription)")]))
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
