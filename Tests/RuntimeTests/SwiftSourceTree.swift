import Foundation

/// The package's own Swift files, as the lints over the source tree read them.
enum SwiftSourceTree {
    /// The package's folder (this file is Tests/RuntimeTests/SwiftSourceTree.swift).
    static let package = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every `.swift` file under the folders `roots` of `package`, except those whose path
    /// (relative to `package`) starts with one of `skipping`: (path relative to `package`, text),
    /// in path order. A root that is not there is passed over.
    static func files(under package: URL = package, roots: [String], skipping: [String] = []) throws -> [(path: String, text: String)] {
        var files = [(path: String, text: String)]()
        for root in roots {
            guard let enumerator = FileManager.default.enumerator(atPath: package.appendingPathComponent(root).path) else { continue }
            while let found = enumerator.nextObject() as? String {
                let relative = root + "/" + found
                guard relative.hasSuffix(".swift"), !skipping.contains(where: relative.hasPrefix) else { continue }
                files.append((relative, try String(contentsOf: package.appendingPathComponent(relative), encoding: .utf8)))
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
