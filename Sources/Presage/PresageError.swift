import CPresage

/// A failed libpresage call: which C function and presage's error code.
public struct PresageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The libpresage function that failed, e.g. `presage_predict`.
    public var function: String
    /// `presage_error_code_t`, as its name in presageException.h says it.
    public var code: String
    /// What was being done, e.g. the configuration variable or the file.
    public var detail: String?

    public init(function: String, code: String, detail: String? = nil) {
        self.function = function
        self.code = code
        self.detail = detail
    }

    init(function: String, status: presage_error_code_t, detail: String? = nil) {
        self.init(function: function, code: Self.name(of: status), detail: detail)
    }

    static func name(of status: presage_error_code_t) -> String {
        switch status {
        case PRESAGE_OK: "ok"
        case PRESAGE_ERROR: "error"
        case PRESAGE_TOKEN_PREFIX_MISMATCH_ERROR: "token prefix mismatch"
        case PRESAGE_SMOOTHED_NGRAM_PREDICTOR_LEARN_ERROR: "n-gram predictor could not learn"
        case PRESAGE_CONFIG_VARIABLE_ERROR: "unknown configuration variable"
        case PRESAGE_INVALID_CALLBACK_ERROR: "invalid callback"
        case PRESAGE_INVALID_SUGGESTION_ERROR: "invalid suggestion"
        case PRESAGE_INIT_PREDICTOR_ERROR: "a predictor could not start"
        case PRESAGE_SQLITE_OPEN_DATABASE_ERROR: "could not open the SQLite database"
        case PRESAGE_SQLITE_EXECUTE_SQL_ERROR: "SQL error"
        default: "error \(status.rawValue)"
        }
    }

    public var description: String {
        "\(function) failed: \(code)" + (detail.map { " (\($0))" } ?? "")
    }
}
