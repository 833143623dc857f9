import CGio
import LiveTree

/// GIO's installed applications (their `.desktop` entries), wrapped once: what a menu shows,
/// and starting one. No GLib or C type is visible past this module; errors name the GIO call.
public enum DesktopEntries {
    /// Most entries read (a machine has a few hundred).
    public static let maxEntries = 4_096

    /// The applications a desktop's menu shows (`g_app_info_should_show`), as GIO finds them
    /// in `$XDG_DATA_HOME/applications` and each of `$XDG_DATA_DIRS`' `applications` folders.
    public static func installed() -> [ProgramEntry] {
        final class Found { var entries = [ProgramEntry]() }
        let found = Found()
        let context = Unmanaged.passUnretained(found).toOpaque()
        _ = cgio_each_application(Int32(maxEntries), { context, id, name, categories in
            guard let context, let id else { return }
            let found = Unmanaged<Found>.fromOpaque(context).takeUnretainedValue()
            let idText = String(cString: id)
            let nameText = name.map { String(cString: $0) } ?? idText
            let list = categories.map { String(cString: $0).split(separator: ";").map(String.init) } ?? []
            found.entries.append(ProgramEntry(id: idText, name: nameText, categories: list))
        }, context)
        return found.entries
    }

    /// Starts the application of the desktop entry `id` (`g_app_info_launch`, no files): its
    /// command runs in this process's environment (display, session bus).
    public static func launch(id: String) throws(DesktopError) {
        var message = [CChar](repeating: 0, count: 512)
        guard cgio_launch(id, &message, message.count) != 0 else {
            throw DesktopError(call: "g_app_info_launch", message: "\(id): " + String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}

/// A GIO call that failed: the call's name and what it said.
public struct DesktopError: Error, Equatable, Sendable, CustomStringConvertible {
    public var call: String
    public var message: String

    public init(call: String, message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "\(call): \(message)" }
}
