import Foundation
import Testing

/// Everything the repository cites is in the repository: no source, document, profile or scene
/// names a design note or seed document by a path outside it (what the code needs of the design
/// notes is in docs/, in the project's own words; seed documents are named by title and id).
@Suite("References inside the repository")
struct RepositoryReferenceTests {
    /// Text files of the package, outside build and version-control folders.
    static func textFiles() throws -> [(path: String, text: String)] {
        let root = CLI.packageRoot
        var files = [(path: String, text: String)]()
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        for case let url as URL in walker {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            if [".build", ".git", ".swiftpm"].contains(url.lastPathComponent) || relative.hasPrefix(".build") {
                walker.skipDescendants()
                continue
            }
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else { continue }
            files.append((relative, text))
        }
        return files
    }

    @Test("no file names a path to the design notes or seed documents kept outside the repository")
    func noSharedDesignReference() throws {
        let files = try Self.textFiles()
        #expect(files.count > 100, "the walk found \(files.count) files under \(CLI.packageRoot.path)")
        // The design notes, the seed documents and the folder holding them; spelt in two parts so
        // that this file does not name what it looks for.
        let outside = ["shared" + "/design", "shared" + "/seeds", "/work" + "/shared"]
        var found = [String]()
        for file in files {
            for (index, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where outside.contains(where: { line.contains($0) }) {
                found.append("\(file.path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "cite docs/ instead:\n\(found.joined(separator: "\n"))")
    }
}
