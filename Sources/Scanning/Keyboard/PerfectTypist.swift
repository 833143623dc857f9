import AccessibilityModel
import DeviceProfiles

/// What a user who makes no mistakes selects next on the scanning keyboard to type a text: a
/// predicted word when it brings the field further towards the text than the next key would,
/// else the next character's key (shift first when the keyboard would give the other case).
/// Scripted tests' `type:` steps and the typing benchmark choose with it.
public enum PerfectTypist {
    public enum Choice: Hashable, Sendable {
        case key(KeyboardLayout.Key)
        case word(String)
    }

    /// Why a text cannot be typed on a keyboard.
    public struct Unreachable: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }

    /// True when `field` holds all of `text` (a trailing space a predicted word brought aside).
    public static func isDone(_ field: String, typing text: String) -> Bool {
        field == text || field == text + " "
    }

    /// The next choice to bring `keyboard`'s field towards `text` (what is typed so far must be
    /// the start of it); nil when it is done.
    public static func nextChoice(toType text: String, on keyboard: KeyboardContent) throws(Unreachable) -> Choice? {
        let field = keyboard.fieldText
        guard field.caret == field.text.count else {
            throw Unreachable(message: "the caret is not at the end of the field's text")
        }
        let typed = Array(field.text), target = Array(text)
        if isDone(field.text, typing: text) { return nil }
        guard let reached = progress(typed, toward: target) else {
            throw Unreachable(message: "the field holds '\(field.text)', which is not the start of '\(text)'")
        }
        // The next character, after a space a predicted word brought before punctuation.
        let next = target[reached]
        guard let key = keyboard.key(typing: next) else {
            throw Unreachable(message: "the keyboard has no key for '\(next)'")
        }
        var best: (word: String, reach: Int)?
        for word in keyboard.predictions {
            var typing = keyboard.typing
            var after = field
            for edit in typing.edits(forWord: word, after: field.text) { after = after.applying(edit) }
            if let reach = progress(Array(after.text), toward: target), reach > max(best?.reach ?? 0, reached + 1) {
                best = (word, reach)
            }
        }
        if let best { return .word(best.word) }
        if next.isLetter, next.lowercased() != next.uppercased(),
           next.isUppercase != keyboard.typing.shiftIsOn(after: field.text) {
            return .key(.shift)
        }
        return .key(key)
    }

    /// How many characters of `target` the field holds, when it holds the start of it (a space
    /// a predicted word brought, where the text goes on with punctuation or ends, is not counted).
    static func progress(_ typed: [Character], toward target: [Character]) -> Int? {
        if typed.count <= target.count, target.starts(with: typed) { return typed.count }
        if typed.last == " ", typed.count - 1 <= target.count, target.starts(with: typed.dropLast()) {
            let after = typed.count - 1
            if after == target.count || KeyboardTyping.closingPunctuation.contains(target[after]) { return after }
        }
        return nil
    }
}

extension KeyboardContent {
    /// The element that makes `choice` on the keyboard as it is now.
    public func elementID(of choice: PerfectTypist.Choice) -> ElementID? {
        switch choice {
        case .key(let key): return elementID(of: key)
        case .word(let word): return elementID(ofWord: word)
        }
    }

    /// Makes `choice` as its element's activation does.
    public mutating func make(_ choice: PerfectTypist.Choice) -> ContentUpdate {
        switch choice {
        case .key(let key): return press(key)
        case .word(let word): return choose(word: word)
        }
    }
}
