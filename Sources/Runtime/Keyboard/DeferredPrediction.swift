import Foundation
import Scanning

/// A word prediction started when the keyboard first asks for words: presage (and the state
/// folder that keeps the user's words) is made then, so that a run that types nothing creates
/// nothing. When it cannot be made, `failed` is told once and no words are offered.
public final class DeferredPrediction: WordPredicting, @unchecked Sendable {
    private enum State {
        case notStarted
        case started(any WordPredicting)
        case failed
    }

    private let make: @Sendable () throws -> any WordPredicting
    private let failed: @Sendable (any Error) -> Void
    private let lock = NSLock()
    private var state = State.notStarted

    public init(_ make: @escaping @Sendable () throws -> any WordPredicting, failed: @escaping @Sendable (any Error) -> Void) {
        self.make = make
        self.failed = failed
    }

    public func predictions(after textBeforeCaret: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .started(let prediction):
            return prediction.predictions(after: textBeforeCaret)
        case .failed:
            return []
        case .notStarted:
            do {
                let prediction = try make()
                state = .started(prediction)
                return prediction.predictions(after: textBeforeCaret)
            } catch {
                state = .failed
                failed(error)
                return []
            }
        }
    }
}
