import Foundation

/// Where the data SwitchScan ships (the switch and braille display profiles of `Devices/`) is
/// found, for an installed program and for one run from a clone alike:
///
/// 1. beside the executable, as a package installs it: `BIN/../share/switchscan/KIND`
///    (`/usr/bin/switchscan` → `/usr/share/switchscan/switches`);
/// 2. `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`), each `DIR/switchscan/KIND`;
/// 3. the source tree, when the executable was built in a clone: `Devices/KIND` in the first
///    folder above it that holds `Package.swift` (`.build/debug/switchscan` → the clone).
///
/// The current folder is never searched: running switchscan in a folder must not load that
/// folder's files as profiles. User files (`$XDG_CONFIG_HOME/switchscan/KIND`) win over these;
/// the callers put them first.
public enum ShippedData {
    public enum Kind: String, Sendable {
        case switches, braille, keyboards
    }

    /// Where a folder was found, for `switchscan devices` and help texts.
    public enum Origin: String, Sendable {
        case installed = "installed beside the program"
        case dataDirectory = "XDG_DATA_DIRS"
        case sourceTree = "the source tree"
    }

    /// The first folder of shipped `kind` data, and where it was found; nil when none exists.
    public static func directory(_ kind: Kind, environment: [String: String] = ProcessInfo.processInfo.environment,
                                 executable: String? = executablePath) -> (path: String, origin: Origin)? {
        candidates(kind, environment: environment, executable: executable).first { isDirectory($0.path) }
    }

    /// Every place searched, in order (for help texts and `devices` to say where they looked).
    public static func candidates(_ kind: Kind, environment: [String: String] = ProcessInfo.processInfo.environment,
                                  executable: String? = executablePath) -> [(path: String, origin: Origin)] {
        var found = [(path: String, origin: Origin)]()
        let binFolder = executable.map { ($0 as NSString).deletingLastPathComponent }
        if let binFolder {
            let share = ((binFolder as NSString).deletingLastPathComponent as NSString).appendingPathComponent("share/switchscan")
            found.append(((share as NSString).appendingPathComponent(kind.rawValue), .installed))
        }
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        for folder in dataDirs.split(separator: ":") where folder.hasPrefix("/") {
            found.append(("\(folder)/switchscan/\(kind.rawValue)", .dataDirectory))
        }
        var folder = binFolder
        for _ in 0..<6 {
            guard let current = folder, current != "/" else { break }
            if FileManager.default.fileExists(atPath: (current as NSString).appendingPathComponent("Package.swift")) {
                let devices = (current as NSString).appendingPathComponent("Devices/\(kind.rawValue)")
                found.append((devices, .sourceTree))
                break
            }
            folder = (current as NSString).deletingLastPathComponent
        }
        return found
    }

    /// The running executable (`/proc/self/exe`, links resolved), else argv[0] resolved.
    public static var executablePath: String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        guard let first = CommandLine.arguments.first else { return nil }
        return URL(fileURLWithPath: first).resolvingSymlinksInPath().path
    }

    /// True for an existing folder (links followed).
    public static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
