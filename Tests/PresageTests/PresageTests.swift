import Foundation
import Presage
import Testing

/// libpresage through its one wrapper: predictions from the system's English model, the user's
/// words learnt into a database of their own, and failures named by C call.
@Suite struct PresageTests {
    /// The shipped configuration (the user's predictor left out until its database is named).
    static let configuration = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Devices/keyboards/presage.xml").path

    static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("presage-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func completesTheWordBeingTyped() throws {
        let presage = try Presage(configuration: .init(configurationFile: Self.configuration, userDatabase: nil, suggestions: 5, learnsWhileTyping: false))
        let words = try presage.predictions(after: "I would like to th")
        #expect(words.count == 5)
        let completions = words.allSatisfy { $0.hasPrefix("th") }
        #expect(completions, "\(words)")
        #expect(try presage.configuration("Presage.Selector.SUGGESTIONS") == "5")
    }

    @Test func learnsTheUsersWordsIntoTheirDatabase() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/words.db"
        let presage = try Presage(configuration: .init(configurationFile: Self.configuration, userDatabase: database, learnsWhileTyping: false))
        #expect(try !presage.predictions(after: "qwzx").contains("qwzxvolt"))
        try presage.learn("the qwzxvolt meter reads qwzxvolt twice ")
        #expect(FileManager.default.fileExists(atPath: database))
        // A new presage reading the same database knows the word: it was kept, not only remembered.
        let again = try Presage(configuration: .init(configurationFile: Self.configuration, userDatabase: database, learnsWhileTyping: false))
        #expect(try again.predictions(after: "qwzx").contains("qwzxvolt"))
    }

    @Test func anUnknownVariableIsNamedInTheError() throws {
        let presage = try Presage(configuration: .init(configurationFile: Self.configuration, userDatabase: nil))
        #expect {
            _ = try presage.configuration("Presage.NoSuchPart.NOTHING")
        } throws: { error in
            guard let error = error as? PresageError else { return false }
            return error.function == "presage_config" && error.description.contains("Presage.NoSuchPart.NOTHING")
        }
    }

    @Test func aDatabaseThatCannotBeOpenedIsAnError() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The database's path is a folder: SQLite cannot open it, so the user's predictor cannot start.
        #expect {
            _ = try Presage(configuration: .init(configurationFile: Self.configuration, userDatabase: folder))
        } throws: { error in
            guard let error = error as? PresageError else { return false }
            return error.function == "presage_config_set" && error.code == "a predictor could not start"
                && error.description.contains("UserSmoothedNgramPredictor")
        }
    }

    @Test func suggestionsOutOfRangeAreRefusedBeforePresageStarts() {
        #expect(throws: PresageError.self) {
            _ = try Presage(configuration: .init(configurationFile: Self.configuration, userDatabase: nil, suggestions: 0))
        }
        #expect(throws: PresageError.self) {
            _ = try Presage(configuration: .init(configurationFile: Self.configuration, userDatabase: nil, suggestions: 21))
        }
    }
}
