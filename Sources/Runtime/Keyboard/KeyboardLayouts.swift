import DeviceProfiles
import Foundation
import Scanning
import Platform

/// The scanning keyboard's layouts: the user's (`$XDG_CONFIG_HOME/switchscan/keyboards/*.yaml`)
/// and the shipped ones (`Devices/keyboards`, found as the switch profiles are), a file of the
/// user's replacing the shipped one of the same name. A file that cannot be read or is wrong is
/// named with its problems (`file:line:column: error: …`) and left out; the others are kept.
public struct KeyboardLayouts: Sendable {
    public private(set) var layouts: [KeyboardLayout] = []
    /// What was wrong with the files left out.
    public private(set) var problems: [String] = []

    /// The layout the keyboard uses when the field's language has no layout of its own.
    public static let fallback = "english-frequency"

    public init(folders: [String]) {
        var seen = Set<String>()
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where name.hasSuffix(".yaml") {
                let id = KeyboardLayout.id(ofFile: name)
                guard !seen.contains(id) else { continue }
                let path = (folder as NSString).appendingPathComponent(name)
                switch RegularFile.readText(path, maxBytes: KeyboardLayout.maxBytes) {
                case .failure(let error):
                    problems.append(error.problem(file: path).description)
                case .success(let text):
                    do throws(ProfileLoadError) {
                        layouts.append(try KeyboardLayout.parse(yaml: text, file: path))
                        seen.insert(id)
                    } catch {
                        problems.append(error.description)
                    }
                }
            }
        }
    }

    /// The folders searched, first wins: the user's, then the shipped ones.
    public static func folders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var folders = [String]()
        if let config = configDirectory(environment: environment) {
            folders.append((config as NSString).appendingPathComponent("keyboards"))
        }
        if let shipped = ShippedData.directory(.keyboards, environment: environment) { folders.append(shipped.path) }
        return folders
    }

    public func layout(named id: String) -> KeyboardLayout? {
        layouts.first { $0.id == id }
    }

    /// The layout for a field in `language` (BCP 47): `chosen` when given and present, else the
    /// first by letter frequency for the language, else the first for the language, else the
    /// fallback.
    public func layout(for language: String, chosen: String? = nil) -> KeyboardLayout? {
        if let chosen, let layout = layout(named: chosen) { return layout }
        let primary = language.split(separator: "-").first.map { $0.lowercased() } ?? ""
        let forLanguage = layouts.filter { $0.language?.lowercased() == primary }
        return forLanguage.first { $0.id.hasSuffix("-frequency") } ?? forLanguage.first
            ?? layout(named: Self.fallback) ?? layouts.first
    }
}
