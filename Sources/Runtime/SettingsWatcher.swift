#if canImport(Glibc)
import Glibc
#endif
import AccessibilityModel
import Scanning
import Scenes
import Platform

/// The settings file of a run, watched with inotify (no polling): when it is written (closed
/// after writing, or renamed into place as `switchscan settings` and most editors do), it is
/// read again and the run's settings become base < file < overrides. A file with errors is
/// reported once per content, with its line and column, and the settings in effect stay; a file
/// removed leaves base < overrides.
///
/// The file's folder is watched, not the file, so that a rename over it is seen. When the folder
/// does not exist yet (no configuration folder), its parent is watched for it to appear.
public final class SettingsWatcher {
    /// What a change of the file did.
    public enum Change: Equatable, Sendable {
        /// New settings, and the line that says so.
        case applied(ScanSettings, status: String)
        /// The file has errors (or cannot be read): the settings in effect stay.
        case rejected(status: String)
    }

    public let path: String
    private let base: ScanSettings
    private let overrides: [(name: String, value: StateValue)]
    private let folder: String
    private let fileName: String
    private var inotify: Inotify?
    private var folderWatch: Int32 = -1
    /// The text last read (nil: no file), so that a write of the same text says nothing again.
    private var lastText: String??
    /// Problems found at the start, said by the run once it has a status line.
    public private(set) var startupStatus: String?

    /// Starts watching `path`. `initialText` is what the caller read at start (nil: no file),
    /// so that only later changes are reported.
    public init(path: String, initialText: String?, base: ScanSettings, overrides: [(name: String, value: StateValue)]) {
        self.path = path
        self.base = base
        self.overrides = overrides
        let slash = path.lastIndex(of: "/")
        folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        fileName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        lastText = .some(initialText)
        let inotify: Inotify
        do {
            inotify = try Inotify()
        } catch {
            startupStatus = "settings: cannot watch \(path) for changes: \(error)"
            return
        }
        self.inotify = inotify
        if !watchFolder() {
            // No folder yet: watch its parent for it.
            let parent = Self.parent(of: folder)
            do {
                try inotify.watch(parent, for: [.created, .movedIn, .onlyFolder])
            } catch {
                // Neither exists (no configuration folder at all): nothing to watch, nothing to say.
                if error.errno != .noSuchFileOrDirectory {
                    startupStatus = "settings: cannot watch \(folder) or \(parent) for \(fileName): \(error)"
                }
                close()
            }
        }
    }

    deinit { close() }

    /// The descriptor to poll.
    public var descriptor: FileDescriptor? { inotify?.descriptor }

    /// The settings: base, then the file's text (nil: no file), then the overrides; or the
    /// problems, `file:line:column: error: …` joined by "; ".
    public static func settings(text: String?, file: String, base: ScanSettings,
                                overrides: [(name: String, value: StateValue)]) -> Result<(ScanSettings, SettingsDocument?), SceneLoadError> {
        var settings = base
        var document: SettingsDocument?
        if let text {
            switch SettingsFile.settings(yaml: text, file: file, base: base) {
            case .success(let (fromFile, parsed)):
                settings = fromFile
                document = parsed
            case .failure(let error):
                return .failure(error)
            }
        }
        for (name, value) in overrides { try? settings.set(name, value) }
        return .success((settings, document))
    }

    /// Reads the inotify events; when the file changed, reads it and says what that does.
    public func readable() -> [Change] {
        var touched = false
        var folderAppeared = false
        guard let inotify else { return [] }
        let pending: (events: [Inotify.Event], overflow: Bool)
        do {
            pending = try inotify.readPending()
        } catch {
            close()
            return [.rejected(status: "settings: reading inotify failed (\(error)); changes to \(path) are no longer seen")]
        }
        if pending.overflow { touched = true }
        for event in pending.events {
            let change = Inotify.Change(rawValue: event.mask)
            if event.name == fileName, !change.isDisjoint(with: Self.fileChanges) { touched = true }
            if folderWatch < 0, event.name == Self.lastComponent(of: folder), !change.isDisjoint(with: [.created, .movedIn]) {
                folderAppeared = true
            }
        }
        if folderAppeared, watchFolder() { touched = true }
        return touched ? [reread()].compactMap { $0 } : []
    }

    /// The file read again.
    private func reread() -> Change? {
        let text: String?
        switch RegularFile.readText(path, maxBytes: SettingsDocument.limits.maxBytes) {
        case .success(let value): text = value
        case .failure(let problem) where problem.isMissing: text = nil
        case .failure(let problem):
            return .rejected(status: "settings: \(problem.problem(file: path)); the previous settings stay")
        }
        guard text != lastText else { return nil }
        lastText = .some(text)
        switch Self.settings(text: text, file: path, base: base, overrides: overrides) {
        case .success(let (settings, document)):
            let said = document.map { "settings: \(path) applied: \(SettingsFile.summary($0))" }
                ?? "settings: \(path) removed; the defaults apply"
            return .applied(settings, status: said + (overrides.isEmpty ? "" : " (--set \(overrides.map(\.name).joined(separator: ", ")) kept)"))
        case .failure(let error):
            let first = error.problems.first.map(\.description) ?? "\(path): error"
            let more = error.problems.count > 1 ? " (and \(error.problems.count - 1) more)" : ""
            return .rejected(status: "settings: \(first)\(more); the previous settings stay")
        }
    }

    /// What changes the file: written and closed, renamed into place, removed or renamed away.
    private static let fileChanges: Inotify.Change = [.closedAfterWriting, .movedIn, .deleted, .movedOut]

    private func watchFolder() -> Bool {
        guard let watch = try? inotify?.watch(folder, for: Self.fileChanges) else { return false }
        folderWatch = watch
        return true
    }

    private static func parent(of folder: String) -> String {
        guard let slash = folder.lastIndex(of: "/") else { return "." }
        return slash == folder.startIndex ? "/" : String(folder[..<slash])
    }

    private static func lastComponent(of folder: String) -> String {
        folder.lastIndex(of: "/").map { String(folder[folder.index(after: $0)...]) } ?? folder
    }

    public func close() {
        inotify?.close()
        inotify = nil
    }
}
