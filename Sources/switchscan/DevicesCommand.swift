import ArgumentParser
import DeviceProfiles
import Evdev
import Foundation
import Runtime
import Platform

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List input devices (/dev/input/event*) with their identity and the switch profile that matches each.",
        discussion: """
            A profile matching vendor and product wins over one matching the name, which wins over a \
            generic one. Devices that cannot be opened are listed with the reason and what to do. A \
            profile with errors is reported (file:line:column) on standard error and skipped. The \
            listing ends with the profile folders, where each came from, and the profiles each gave.
            """ + "\n\n" + ProfileSources.helpParagraph(.switches, profilesOption: true) + "\n\n" + ProfileSources.helpParagraph(.braille))

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(help: ArgumentHelp("The folder of evdev nodes.", valueName: "folder"), completion: .directory)
    var directory: String = Evdev.inputDirectory

    @Option(name: .customLong("profiles"), help: ArgumentHelp(
        "Another folder of switch profiles, searched first (repeatable).", valueName: "folder"), completion: .directory)
    var profileDirectories: [String] = []

    func run() throws {
        let catalog = SwitchProfileFiles.loadCatalog(extraDirectories: profileDirectories)
        for problem in catalog.problems { printError(problem) }
        if catalog.skippedFiles > 0 {
            printError("\(catalog.skippedFiles) profile file\(catalog.skippedFiles == 1 ? " has errors and was" : "s have errors and were") skipped")
        }

        let entries: [EvdevScanEntry]
        var directoryProblem: EvdevError?
        do {
            entries = try Evdev.scanDevices(in: directory)
        } catch {
            entries = []
            directoryProblem = error
        }
        let reports = entries.map { DeviceReport(entry: $0, catalog: catalog) }
        let display = BrailleOutputs.loadDisplayProfiles(from: ProfileSources.brailleFolders().map(\.path))
        let brailleSources = ProfileSources.brailleFolders().map { folder in
            (folder: folder, ids: display.profiles.filter { ($0.file as NSString).deletingLastPathComponent == folder.path }.map(\.id))
        }
        if json {
            let output = DevicesJSON(
                directory: directory, directoryError: directoryProblem.map(Self.directoryMessage),
                devices: reports.map(\.json), profileDirectories: catalog.directories, profileProblems: catalog.problems,
                switchProfileSources: catalog.sources.map { .init(folder: $0.folder, profiles: $0.ids) },
                brailleProfileSources: brailleSources.map { .init(folder: $0.folder, profiles: $0.ids) },
                shippedSearched: ProfileSources.searchedForShipped(.switches))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(output), as: UTF8.self))
            return
        }
        if let directoryProblem {
            print(Self.directoryMessage(directoryProblem))
        } else if reports.isEmpty {
            print("No input devices: \(directory) has no event* nodes.")
        } else {
            for report in reports { print(report.text) }
            let failed = reports.filter { $0.error != nil }.count
            let noun = reports.count == 1 ? "input device" : "input devices"
            print("\(reports.count) \(noun)\(failed > 0 ? ", \(failed) could not be opened" : "")")
        }
        print("")
        print(Self.sourcesText("Switch profiles", catalog.sources, kind: .switches,
                               replaced: "a file of yours replaces the shipped file of the same name"))
        print(Self.sourcesText("Braille display profiles", brailleSources, kind: .braille,
                               replaced: "a file of yours replaces the shipped file of the same name"))
    }

    /// `Switch profiles (…):` then a line per folder: path, origin, what it gave.
    static func sourcesText(_ title: String, _ sources: [(folder: ProfileSources.Folder, ids: [String])],
                            kind: ShippedData.Kind, replaced: String) -> String {
        var lines = ["\(title), first folder first (\(replaced)):"]
        for (folder, ids) in sources {
            let gave = !folder.exists ? "not there"
                : ids.isEmpty ? "no profiles"
                : "\(ids.count) profile\(ids.count == 1 ? "" : "s"): \(ids.joined(separator: ", "))"
            lines.append("  \(folder.path) (\(folder.origin)): \(gave)")
        }
        if ShippedData.directory(kind) == nil {
            lines.append("  no shipped profiles found; searched \(ProfileSources.searchedForShipped(kind).joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    static func directoryMessage(_ error: EvdevError) -> String {
        switch error.kind {
        case .notFound:
            return "No input devices: \(error.path ?? "the folder") does not exist (this machine or container has no evdev devices)."
        case .permissionDenied:
            return "Cannot list \(error.path ?? "the folder"): \(error)"
        default:
            return "Cannot list \(error.path ?? "the folder"): \(error.call): \(error.errno)"
        }
    }
}

/// One device of the listing, text and JSON.
private struct DeviceReport {
    var path: String
    var info: EvdevDeviceInfo?
    var error: EvdevError?
    var match: ProfileMatch?

    /// Where the matched profile's file came from (`yours`, `shipped, …`, `--profiles`).
    var origin: String?

    init(entry: EvdevScanEntry, catalog loaded: SwitchProfileFiles.Loaded) {
        path = entry.path
        switch entry.outcome {
        case .success(let info):
            self.info = info
            match = loaded.catalog.bestMatch(for: DeviceIdentity(evdev: info))
            origin = match.flatMap { loaded.origin(ofFile: $0.profile.file) }
        case .failure(let error):
            self.error = error
        }
    }

    var text: String {
        guard let info else {
            // The error names the path, the C call and what to do.
            return error.map(String.init(describing:)) ?? "\(path): cannot open"
        }
        let identity = info.identity
        var lines = ["\(path): \"\(identity.name)\" \(BusType.name(identity.bus)) \(hex4(identity.vendor)):\(hex4(identity.product)) version \(hex4(identity.version))"]
        var details = [String]()
        if let phys = identity.phys, !phys.isEmpty { details.append("phys \(phys)") }
        if let uniq = identity.uniq, !uniq.isEmpty { details.append("uniq \(uniq)") }
        details.append("\(info.keyCodes.count) key codes")
        lines.append("  " + details.joined(separator: ", "))
        if let match {
            lines.append("  profile \(match.profile.id) (\(match.specificity)): \(match.profile.name) — \(match.profile.file)\(origin.map { " (\($0))" } ?? "")")
        } else {
            lines.append("  no matching profile: `switchscan learn --device \(path)` makes one")
        }
        return lines.joined(separator: "\n")
    }

    var json: DevicesJSON.Device {
        let identity = info?.identity
        return DevicesJSON.Device(
            path: path, name: identity?.name, bus: identity.map { BusType.name($0.bus) },
            vendor: identity.map { hex4($0.vendor) }, product: identity.map { hex4($0.product) },
            version: identity.map { hex4($0.version) }, phys: identity?.phys, uniq: identity?.uniq,
            keyCodes: info?.keyCodes.map { KeyCodes.name(for: $0) ?? String($0) },
            profile: match.map { .init(id: $0.profile.id, name: $0.profile.name, file: $0.profile.file, origin: origin, match: $0.specificity.description) },
            error: error.map(String.init(describing:)), errorCall: error?.call, errno: error?.errno.name)
    }
}

private struct DevicesJSON: Encodable {
    struct Profile: Encodable {
        var id: String
        var name: String
        var file: String
        /// `yours`, `shipped, installed beside the program`, … (null if unknown).
        var origin: String?
        var match: String
    }

    /// A folder searched, where it came from, and the ids of the profiles it gave.
    struct Source: Encodable {
        var path: String
        var origin: String
        var exists: Bool
        var profiles: [String]

        init(folder: ProfileSources.Folder, profiles: [String]) {
            path = folder.path
            origin = folder.origin
            exists = folder.exists
            self.profiles = profiles
        }
    }

    struct Device: Encodable {
        var path: String
        var name: String?
        var bus: String?
        var vendor: String?
        var product: String?
        var version: String?
        var phys: String?
        var uniq: String?
        var keyCodes: [String]?
        var profile: Profile?
        var error: String?
        var errorCall: String?
        var errno: String?

        func encode(to encoder: Encoder) throws {
            // Every key present, null when absent.
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(name, forKey: .name)
            try container.encode(bus, forKey: .bus)
            try container.encode(vendor, forKey: .vendor)
            try container.encode(product, forKey: .product)
            try container.encode(version, forKey: .version)
            try container.encode(phys, forKey: .phys)
            try container.encode(uniq, forKey: .uniq)
            try container.encode(keyCodes, forKey: .keyCodes)
            try container.encode(profile, forKey: .profile)
            try container.encode(error, forKey: .error)
            try container.encode(errorCall, forKey: .errorCall)
            try container.encode(errno, forKey: .errno)
        }

        enum CodingKeys: String, CodingKey {
            case path, name, bus, vendor, product, version, phys, uniq, keyCodes, profile, error, errorCall, errno
        }
    }

    var directory: String
    var directoryError: String?
    var devices: [Device]
    var profileDirectories: [String]
    var profileProblems: [String]
    var switchProfileSources: [Source]
    var brailleProfileSources: [Source]
    /// Where shipped data was looked for, in order.
    var shippedSearched: [String]

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(directory, forKey: .directory)
        try container.encode(directoryError, forKey: .directoryError)
        try container.encode(devices, forKey: .devices)
        try container.encode(profileDirectories, forKey: .profileDirectories)
        try container.encode(profileProblems, forKey: .profileProblems)
        try container.encode(switchProfileSources, forKey: .switchProfileSources)
        try container.encode(brailleProfileSources, forKey: .brailleProfileSources)
        try container.encode(shippedSearched, forKey: .shippedSearched)
    }

    enum CodingKeys: String, CodingKey {
        case directory, directoryError, devices, profileDirectories, profileProblems
        case switchProfileSources, brailleProfileSources, shippedSearched
    }
}

extension DeviceIdentity {
    /// The identity profiles match, from a device found by the scan.
    init(evdev info: EvdevDeviceInfo) {
        let identity = info.identity
        self.init(
            name: identity.name, bus: identity.bus, vendor: identity.vendor, product: identity.product,
            version: identity.version, phys: identity.phys, uniq: identity.uniq, keyCodes: Set(info.keyCodes))
    }
}

// MARK: - Profile files

/// Reading switch profiles for the commands: the only I/O around the pure profile parser.
enum SwitchProfileFiles {
    /// The user's profiles: `$XDG_CONFIG_HOME/switchscan/switches`, or
    /// `~/.config/switchscan/switches`.
    static var userDirectory: String {
        (ConfigFiles.directory as NSString).appendingPathComponent("switches")
    }

    /// The shipped switch profiles (`ShippedData`: installed beside the program, then
    /// XDG_DATA_DIRS, then the source tree of a clone).
    static var repositoryDirectory: String? { ShippedData.directory(.switches)?.path }

    /// The folders searched, first wins on a tie: `extra`, the user's, the shipped ones.
    static func directories(extra: [String] = []) -> [String] {
        ProfileSources.switchFolders(extra: extra).map(\.path)
    }

    struct Loaded {
        var catalog: ProfileCatalog
        var directories: [String]
        /// `file:line:column: error: …` for each problem of the profiles that could not be loaded.
        var problems: [String]
        /// How many profile files could not be loaded.
        var skippedFiles: Int
        /// The folders with their origins, and the ids of the profiles each gave (before shadowing).
        var sources: [(folder: ProfileSources.Folder, ids: [String])] = []

        /// The origin of the folder a profile file came from (`yours`, `shipped, …`, `--profiles`).
        func origin(ofFile file: String) -> String? {
            let folder = (file as NSString).deletingLastPathComponent
            return sources.first { $0.folder.path == folder }?.folder.origin
        }
    }

    /// Every `.yaml`/`.yml` profile of the folders (missing folders are skipped), in folder order
    /// and then file name order.
    static func loadCatalog(extraDirectories: [String] = []) -> Loaded {
        let folders = ProfileSources.switchFolders(extra: extraDirectories)
        var profiles = [SwitchProfile]()
        var problems = [String]()
        var skipped = 0
        var sources = [(folder: ProfileSources.Folder, ids: [String])]()
        for folder in folders {
            var ids = [String]()
            defer { sources.append((folder, ids)) }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                let path = (folder.path as NSString).appendingPathComponent(name)
                switch load(path) {
                case .success(let profile):
                    profiles.append(profile)
                    ids.append(profile.id)
                case .failure(let error):
                    problems += error.problems.map(\.description)
                    skipped += 1
                }
            }
        }
        return Loaded(catalog: ProfileCatalog(shadowing: profiles), directories: folders.map(\.path), problems: problems,
                      skippedFiles: skipped, sources: sources)
    }

    /// One profile; a file that cannot be read is a problem at line 1.
    static func load(_ path: String) -> Result<SwitchProfile, ProfileLoadError> {
        let text: String
        switch RegularFile.readText(path, maxBytes: SwitchProfile.maxBytes) {
        case .success(let value): text = value
        case .failure(let failure): return .failure(ProfileLoadError(problems: [failure.problem(file: path)]))
        }
        do {
            return .success(try SwitchProfile.parse(yaml: text, file: path))
        } catch {
            return .failure(error)
        }
    }
}
