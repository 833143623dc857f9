import CPresage
import Synchronization

/// libpresage's n-gram word prediction, wrapped once: the text before the caret in, the
/// predicted words out, the user's own words learnt into a database of their own. No C type
/// crosses this API; every failure is a `PresageError` naming the C call.
///
/// Presage reads the context through callbacks while it predicts; the context lives in this
/// object, so one `Presage` serves one caller at a time (a mutex keeps calls apart).
public final class Presage: Sendable {
    /// How presage is started.
    public struct Configuration: Hashable, Sendable {
        /// The presage configuration file (XML) naming the predictors to start with; the
        /// system's defaults (`/etc/presage.xml`) fill what it leaves out.
        public var configurationFile: String
        /// The database the user's own words are learnt into (SQLite, created when missing);
        /// nil: nothing of the user's is kept.
        public var userDatabase: String?
        /// How many words a prediction offers (1 to 20).
        public var suggestions: Int
        /// Whether presage learns from the text as it is typed (else only through `learn`).
        public var learnsWhileTyping: Bool

        public init(configurationFile: String, userDatabase: String?, suggestions: Int = 6, learnsWhileTyping: Bool = true) {
            self.configurationFile = configurationFile
            self.userDatabase = userDatabase
            self.suggestions = suggestions
            self.learnsWhileTyping = learnsWhileTyping
        }
    }

    /// The range `suggestions` must lie in.
    public static let suggestionRange = 1...20

    private let state: Mutex<State>

    /// presage's handle and the context its callbacks read. The strings are kept NUL-terminated
    /// in memory owned here, alive until the next change of context.
    private final class Context: @unchecked Sendable {
        var past: UnsafeMutablePointer<CChar>
        let future: UnsafeMutablePointer<CChar>

        init() {
            past = Self.copy("")
            future = Self.copy("")
        }

        func setPast(_ text: String) {
            let old = past
            past = Self.copy(text)
            old.deallocate()
        }

        static func copy(_ text: String) -> UnsafeMutablePointer<CChar> {
            let bytes = Array(text.utf8CString)
            let memory = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            memory.initialize(from: bytes, count: bytes.count)
            return memory
        }

        deinit {
            past.deallocate()
            future.deallocate()
        }
    }

    private struct State: ~Copyable {
        let handle: presage_t
        let context: Context
    }

    /// Starts presage with `configuration`.
    public init(configuration: Configuration) throws(PresageError) {
        guard Self.suggestionRange.contains(configuration.suggestions) else {
            throw PresageError(function: "presage_config_set", code: "suggestions out of range",
                               detail: "\(configuration.suggestions) is not within \(Self.suggestionRange)")
        }
        let context = Context()
        let argument = Unmanaged.passUnretained(context).toOpaque()
        var handle: presage_t?
        let status = presage_new_with_config(
            { argument in
                guard let argument else { return nil }
                return UnsafePointer(Unmanaged<Context>.fromOpaque(argument).takeUnretainedValue().past)
            }, argument,
            { argument in
                guard let argument else { return nil }
                return UnsafePointer(Unmanaged<Context>.fromOpaque(argument).takeUnretainedValue().future)
            }, argument,
            configuration.configurationFile, &handle)
        guard status == PRESAGE_OK, let handle else {
            throw PresageError(function: "presage_new_with_config", status: status, detail: configuration.configurationFile)
        }
        func set(_ variable: String, _ value: String) throws(PresageError) {
            let status = presage_config_set(handle, variable, value)
            guard status == PRESAGE_OK else {
                presage_free(handle)
                throw PresageError(function: "presage_config_set", status: status, detail: "\(variable) = \(value)")
            }
        }
        try set("Presage.Selector.SUGGESTIONS", String(configuration.suggestions))
        try set("Presage.ContextTracker.ONLINE_LEARNING", configuration.learnsWhileTyping ? "yes" : "no")
        if let database = configuration.userDatabase {
            // The user's predictor is started only now, with its database named, so that presage
            // never opens its default one under $HOME.
            try set("Presage.Predictors.UserSmoothedNgramPredictor.DBFILENAME", database)
            let predictors = try Self.read(handle, "Presage.PredictorRegistry.PREDICTORS")
            if !predictors.split(separator: " ").contains("UserSmoothedNgramPredictor") {
                try set("Presage.PredictorRegistry.PREDICTORS", predictors + " UserSmoothedNgramPredictor")
            }
        }
        state = Mutex(State(handle: handle, context: context))
    }

    deinit {
        state.withLock { presage_free($0.handle) }
    }

    /// The words presage predicts for the text before the caret (a word being typed at its end
    /// is completed; after a space, the next word is predicted), most likely first.
    public func predictions(after textBeforeCaret: String) throws(PresageError) -> [String] {
        try state.withLock { (state) throws(PresageError) -> [String] in
            state.context.setPast(textBeforeCaret)
            var result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            let status = presage_predict(state.handle, &result)
            guard status == PRESAGE_OK else { throw PresageError(function: "presage_predict", status: status) }
            guard let result else { return [] }
            defer { presage_free_string_array(result) }
            var words = [String]()
            var index = 0
            while let word = result[index] {
                words.append(String(cString: word))
                index += 1
            }
            return words
        }
    }

    /// Learns `text` (the user's own words) into the user's database.
    public func learn(_ text: String) throws(PresageError) {
        try state.withLock { (state) throws(PresageError) in
            let status = presage_learn(state.handle, text)
            guard status == PRESAGE_OK else { throw PresageError(function: "presage_learn", status: status) }
        }
    }

    /// A configuration variable's value, e.g. `Presage.Selector.SUGGESTIONS`.
    public func configuration(_ variable: String) throws(PresageError) -> String {
        try state.withLock { (state) throws(PresageError) in try Self.read(state.handle, variable) }
    }

    private static func read(_ handle: presage_t, _ variable: String) throws(PresageError) -> String {
        var value: UnsafeMutablePointer<CChar>?
        let status = presage_config(handle, variable, &value)
        guard status == PRESAGE_OK, let value else {
            throw PresageError(function: "presage_config", status: status, detail: variable)
        }
        defer { presage_free_string(value) }
        return String(cString: value)
    }
}
