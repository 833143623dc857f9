import Documents
import Platform

/// The platform layer reads and writes bytes; text is decoded here, where the documents'
/// decoder is (UTF-8 with the line and column of the first bad byte).
extension RegularFile {
    /// The file as UTF-8 text.
    public static func readText(_ path: String, maxBytes: Int) -> Result<String, ReadError> {
        let bytes: [UInt8]
        do {
            bytes = try read(path, maxBytes: maxBytes)
        } catch {
            return .failure(error)
        }
        return text(bytes)
    }

    /// A file's bytes as UTF-8 text, or where they are not.
    public static func text(_ bytes: [UInt8]) -> Result<String, ReadError> {
        DocumentText.decode(bytes).mapError { error in
            ReadError(message: error.message ?? "the file is not UTF-8 text", isMissing: false,
                line: Int(error.position.line), column: Int(error.position.column))
        }
    }
}

extension RegularFile.ReadError {
    /// `file:line:column: error: message`.
    public func problem(file: String) -> DocumentProblem {
        DocumentProblem(file: file, line: line, column: column, message: message)
    }
}

extension SafeFileWriter {
    /// Reads the file (nil when there is none) under the folder's lock, passes its text to
    /// `change`, and writes what that returns. The read goes through `RegularFile` (a regular
    /// file of at most `maxBytes`). `inputs` are the files the command read, never replaced.
    /// Returns the path written (a link's target).
    @discardableResult
    public static func update(
        _ path: String, maxBytes: Int, inputs: [String] = [], _ change: (String?) throws -> String
    ) throws -> String {
        try update(path, maxBytes: maxBytes, inputs: inputs, bytes: { bytes in
            try change(bytes.map { try RegularFile.text($0).get() })
        })
    }
}
