import DeviceProfiles
import Foundation
import Presage
import Scanning
import Platform

/// Presage's word prediction for the scanning keyboard. The user's own words are learnt into
/// `$XDG_STATE_HOME/switchscan/presage-words.db` (presage creates the database).
public struct PresagePrediction: WordPredicting {
    private let presage: Presage

    /// The shipped presage configuration (the predictors started first; the user's one is added
    /// once its database is named, so presage never opens a database of its own under $HOME).
    public static let configurationName = "presage.xml"
    /// The user's words' database, in the state folder.
    public static let databaseName = "presage-words.db"

    public init(presage: Presage) {
        self.presage = presage
    }

    /// Presage with the shipped configuration and the user's database in `stateFolder`
    /// (created when missing); nil for `stateFolder` keeps nothing of the user's.
    public init(stateFolder: String?, learnsWhileTyping: Bool = true,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let shipped = ShippedData.directory(.keyboards, environment: environment) else {
            throw PresageError(function: "presage_new_with_config", code: "no configuration",
                               detail: "no shipped keyboards folder holds \(Self.configurationName)")
        }
        var database: String?
        if let stateFolder {
            try SafeFileWriter.makeFolders(stateFolder)
            database = (stateFolder as NSString).appendingPathComponent(Self.databaseName)
        }
        presage = try Presage(configuration: Presage.Configuration(
            configurationFile: (shipped.path as NSString).appendingPathComponent(Self.configurationName),
            userDatabase: database, learnsWhileTyping: learnsWhileTyping))
    }

    /// The state folder from the environment: `$XDG_STATE_HOME/switchscan`, else
    /// `$HOME/.local/state/switchscan`.
    public static func defaultStateFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        xdgPath(variable: "XDG_STATE_HOME", homeFallback: ".local/state", tail: "switchscan", environment: environment)
    }

    /// A prediction that fails offers no words: typing goes on letter by letter.
    public func predictions(after textBeforeCaret: String) -> [String] {
        (try? presage.predictions(after: textBeforeCaret)) ?? []
    }

    /// Learns text the user wrote elsewhere (their own words).
    public func learn(_ text: String) throws {
        try presage.learn(text)
    }
}
