import DeviceProfiles

/// What a key or a predicted word does to the text: the typing rules of the scanning keyboard,
/// apart from any field (the keyboard and the typing benchmark share them).
///
/// - Shift is on by itself at the start of a sentence (an empty field, or after `.`, `!` or `?`
///   and a space); the shift key turns it the other way for the next letter.
/// - A predicted word replaces the word being typed (the letters typed keep their case; at a
///   sentence's start the word gets a capital) and is followed by a space. A `.`, `,` and the
///   like typed right after that space go before it, as a phone keyboard does.
public struct KeyboardTyping: Hashable, Sendable {
    /// The shift key was pressed since the last letter.
    public private(set) var shiftToggled = false
    /// The last edit ended with the space a predicted word brings.
    public private(set) var spaceAfterWord = false

    /// Punctuation that goes before the space a predicted word brought.
    public static let closingPunctuation: Set<Character> = [".", ",", ";", ":", "!", "?", ")"]

    public init() {}

    /// Whether the next letter is upper case, after `textBeforeCaret`.
    public func shiftIsOn(after textBeforeCaret: String) -> Bool {
        Self.startsSentence(after: textBeforeCaret) != shiftToggled
    }

    /// True where a sentence starts: an empty field, or after `.`, `!`, `?` or a new line and spaces.
    public static func startsSentence(after text: String) -> Bool {
        var sawSpace = false
        for character in text.reversed() {
            if character == " " { sawSpace = true; continue }
            if character == "\n" { return true }
            return sawSpace && (character == "." || character == "!" || character == "?")
        }
        return true
    }

    /// The word being typed: the letters (and apostrophes) just before the caret.
    public static func wordPrefix(of textBeforeCaret: String) -> String {
        String(textBeforeCaret.reversed().prefix { $0.isLetter || $0 == "'" }.reversed())
    }

    /// The edits `key` makes after `textBeforeCaret` (none for shift, close and keys that do not type).
    public mutating func edits(for key: KeyboardLayout.Key, after textBeforeCaret: String) -> [TextEdit] {
        switch key {
        case .shift:
            shiftToggled.toggle()
            return []
        case .close:
            return []
        case .space:
            spaceAfterWord = false
            return [.insert(" ")]
        case .return:
            spaceAfterWord = false
            return [.insert("\n")]
        case .delete:
            spaceAfterWord = false
            return textBeforeCaret.isEmpty ? [] : [.deleteBackward(1)]
        case .character(let text):
            var typed = text
            if text.first?.isLetter == true {
                if shiftIsOn(after: textBeforeCaret) { typed = text.uppercased() }
                shiftToggled = false
            }
            defer { spaceAfterWord = false }
            if spaceAfterWord, textBeforeCaret.hasSuffix(" "), let first = typed.first,
               Self.closingPunctuation.contains(first) {
                return [.deleteBackward(1), .insert(typed + " ")]
            }
            return [.insert(typed)]
        }
    }

    /// The edits that put predicted `word` in place of the word being typed, and a space.
    public mutating func edits(forWord word: String, after textBeforeCaret: String) -> [TextEdit] {
        let prefix = Self.wordPrefix(of: textBeforeCaret)
        var completed = word
        if prefix.isEmpty {
            if shiftIsOn(after: textBeforeCaret), let first = word.first {
                completed = first.uppercased() + word.dropFirst()
            }
        } else if word.lowercased().hasPrefix(prefix.lowercased()) {
            completed = prefix + word.dropFirst(prefix.count)
        }
        shiftToggled = false
        spaceAfterWord = true
        var edits = [TextEdit]()
        // Only what differs from the letters typed is deleted.
        let kept = zip(prefix, completed).prefix { $0 == $1 }.count
        if prefix.count > kept { edits.append(.deleteBackward(prefix.count - kept)) }
        edits.append(.insert(String(completed.dropFirst(kept)) + " "))
        return edits
    }
}
