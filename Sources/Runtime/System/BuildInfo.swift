import Foundation
import Platform

/// Which commit the running program comes from, for `switchscan --version`, without running git
/// or reaching a network:
///
/// - an installed program: `scripts/package` writes `share/switchscan/build-info` beside the
///   shipped profiles (`commit=…` and `date=…` lines), found as `ShippedData` finds them;
/// - a program built in a clone: the clone's `.git` is read (HEAD, then the branch it names, loose
///   or packed); a worktree's `.git` file is followed. That is the source tree's commit, which a
///   stale build may predate, so it is labelled as such.
///
/// Every read is bounded; anything missing or malformed gives nil (the version then has no commit).
public enum BuildInfo {
    public struct Commit: Equatable, Sendable {
        /// Full hexadecimal object name.
        public var hash: String
        /// `YYYY-MM-DD` from the package's build-info, when installed.
        public var date: String?
        /// True when read from a clone's `.git` rather than from what the package recorded.
        public var fromSourceTree: Bool

        /// `commit 308388d, built 2026-11-25` / `source tree at commit 308388d`.
        public var description: String {
            let short = String(hash.prefix(12))
            if fromSourceTree { return "source tree at commit \(short)" }
            return "commit \(short)" + (date.map { ", built \($0)" } ?? "")
        }
    }

    /// The name of the file `scripts/package` writes into `share/switchscan`.
    public static let fileName = "build-info"

    /// The commit of the running program, if it can be told.
    public static func commit(environment: [String: String] = ProcessInfo.processInfo.environment,
                              executable: String? = ShippedData.executablePath) -> Commit? {
        for candidate in ShippedData.candidates(.switches, environment: environment, executable: executable) {
            let share = (candidate.path as NSString).deletingLastPathComponent
            switch candidate.origin {
            case .installed, .dataDirectory:
                // Only the folder that actually holds the shipped data speaks for this program.
                guard ShippedData.isDirectory(candidate.path) else { continue }
                return installed(at: (share as NSString).appendingPathComponent(fileName))
            case .sourceTree:
                let root = (share as NSString).deletingLastPathComponent
                return sourceTree(root)
            }
        }
        return nil
    }

    /// `commit=HEX` and `date=YYYY-MM-DD` lines (other lines ignored).
    public static func parseInstalled(_ text: String) -> Commit? {
        var hash: String?
        var date: String?
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "commit", isObjectName(parts[1]) { hash = parts[1] }
            if parts[0] == "date", parts[1].count == 10, parts[1].allSatisfy({ $0.isNumber || $0 == "-" }) { date = parts[1] }
        }
        return hash.map { Commit(hash: $0, date: date, fromSourceTree: false) }
    }

    static func installed(at path: String) -> Commit? {
        guard case .success(let text) = RegularFile.readText(path, maxBytes: 4096) else { return nil }
        return parseInstalled(text)
    }

    /// The commit HEAD names in the clone at `root`.
    static func sourceTree(_ root: String) -> Commit? {
        let dotGit = (root as NSString).appendingPathComponent(".git")
        var gitDirectory = dotGit
        if !ShippedData.isDirectory(dotGit) {
            // A worktree or submodule: `.git` is a file `gitdir: PATH`.
            guard case .success(let text) = RegularFile.readText(dotGit, maxBytes: 4096),
                  let line = text.split(whereSeparator: \.isNewline).first, line.hasPrefix("gitdir: ") else { return nil }
            let path = String(line.dropFirst("gitdir: ".count))
            gitDirectory = path.hasPrefix("/") ? path : (root as NSString).appendingPathComponent(path)
        }
        // A worktree's refs live in the common folder its `commondir` file names.
        var commonDirectory = gitDirectory
        if case .success(let text) = RegularFile.readText((gitDirectory as NSString).appendingPathComponent("commondir"), maxBytes: 4096) {
            let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
            commonDirectory = path.hasPrefix("/") ? path : (gitDirectory as NSString).appendingPathComponent(path)
        }
        guard case .success(let head) = RegularFile.readText((gitDirectory as NSString).appendingPathComponent("HEAD"), maxBytes: 4096) else { return nil }
        let value = head.trimmingCharacters(in: .whitespacesAndNewlines)
        if isObjectName(value) { return Commit(hash: value, date: nil, fromSourceTree: true) }
        guard value.hasPrefix("ref: ") else { return nil }
        let reference = String(value.dropFirst("ref: ".count))
        // Reference names come from the file; one that climbs out of the folder is not followed.
        guard reference.hasPrefix("refs/"), !reference.split(separator: "/").contains("..") else { return nil }
        for folder in [gitDirectory, commonDirectory] {
            if case .success(let loose) = RegularFile.readText((folder as NSString).appendingPathComponent(reference), maxBytes: 4096) {
                let hash = loose.trimmingCharacters(in: .whitespacesAndNewlines)
                if isObjectName(hash) { return Commit(hash: hash, date: nil, fromSourceTree: true) }
            }
        }
        // packed-refs: `HASH refs/heads/main` lines.
        if case .success(let packed) = RegularFile.readText((commonDirectory as NSString).appendingPathComponent("packed-refs"), maxBytes: 16 << 20) {
            for line in packed.split(whereSeparator: \.isNewline) {
                let parts = line.split(separator: " ", maxSplits: 1)
                if parts.count == 2, parts[1] == reference, isObjectName(String(parts[0])) {
                    return Commit(hash: String(parts[0]), date: nil, fromSourceTree: true)
                }
            }
        }
        return nil
    }

    /// 40 (SHA-1) or 64 (SHA-256) lower-case hexadecimal digits.
    static func isObjectName(_ text: String) -> Bool {
        (text.count == 40 || text.count == 64) && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
