import DeviceProfiles
import Foundation
import Runtime

/// Where switch and braille display profiles come from, said the same way by `devices` and by the
/// help texts: each folder searched, in order, with its origin (given on the command line, the
/// user's configuration folder, or the shipped data and how it was found).
enum ProfileSources {
    struct Folder: Encodable, Equatable {
        var path: String
        /// `--profiles`, `yours`, `shipped, installed beside the program`, …
        var origin: String
        var exists: Bool
    }

    static let yours = "yours"
    static let commandLine = "--profiles"

    static func shipped(_ origin: ShippedData.Origin) -> String {
        switch origin {
        case .installed: return "shipped, installed beside the program"
        case .dataDirectory: return "shipped, found through XDG_DATA_DIRS"
        case .sourceTree: return "shipped, from the source tree"
        }
    }

    /// The switch profile folders, first wins: `extra`, the user's, the shipped ones.
    static func switchFolders(extra: [String] = []) -> [Folder] {
        var folders = extra.map { Folder(path: $0, origin: commandLine, exists: ShippedData.isDirectory($0)) }
        folders.append(Folder(path: SwitchProfileFiles.userDirectory, origin: yours,
                              exists: ShippedData.isDirectory(SwitchProfileFiles.userDirectory)))
        if let found = ShippedData.directory(.switches) {
            folders.append(Folder(path: found.path, origin: shipped(found.origin), exists: true))
        }
        var seen = Set<String>()
        return folders.filter { seen.insert(URL(fileURLWithPath: $0.path).standardizedFileURL.path).inserted }
    }

    /// The braille display profile folders, in the order `switchscan run` reads them
    /// (`BrailleOutputs.profileDirectories`), each with its origin.
    static func brailleFolders() -> [Folder] {
        let shippedFolder = ShippedData.directory(.braille)
        return BrailleOutputs.profileDirectories().map { path in
            let origin = path == shippedFolder?.path ? shippedFolder.map { shipped($0.origin) } ?? yours : yours
            return Folder(path: path, origin: origin, exists: ShippedData.isDirectory(path))
        }
    }

    /// Where shipped data was looked for when none was found (for a clear message).
    static func searchedForShipped(_ kind: ShippedData.Kind) -> [String] {
        ShippedData.candidates(kind).map(\.path)
    }

    /// A paragraph for help texts: the folders searched on this machine, now.
    ///
    /// `--experimental-dump-help` (what the man page generator reads) gets the general rule
    /// only: a man page built on the packaging machine must not carry that machine's folders.
    static func helpParagraph(_ kind: ShippedData.Kind, profilesOption: Bool = false) -> String {
        let general = kind == .switches
            ? "Switch profiles are read from \(profilesOption ? "the folders given with --profiles, then " : "")$XDG_CONFIG_HOME/switchscan/switches (yours), then the shipped profiles: share/switchscan/switches beside the installed program (/usr/share/switchscan/switches for /usr/bin/switchscan), else each $XDG_DATA_DIRS/switchscan/switches, else Devices/switches of the source tree the program was built in. A file of yours replaces the shipped file of the same name."
            : "Braille display profiles are the shipped ones (share/switchscan/braille beside the program, else $XDG_DATA_DIRS, else the source tree's Devices/braille), then $XDG_CONFIG_HOME/switchscan/braille (yours), whose files replace shipped files of the same name."
        guard !CommandLine.arguments.contains("--experimental-dump-help") else { return general }
        let folders = kind == .switches ? switchFolders() : brailleFolders()
        var lines = [general, "", "Here:"]
        for folder in folders {
            lines.append("  \(folder.path) (\(folder.origin))\(folder.exists ? "" : ", not there")")
        }
        if ShippedData.directory(kind) == nil {
            lines.append("  no shipped profiles found; searched \(searchedForShipped(kind).joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
