/// The regular expressions of `matches:` in test expectations: Swift's `Regex` syntax
/// (the common Perl/ICU forms: `.`, `*`, `+`, `?`, `[0-9]`, `\d`, `(a|b)`, `{2,3}`), matched
/// against the whole text, as if written between `^` and `$`: `Frame [0-9]+` matches
/// `Frame 12` but not `Frame 12, 9`. Use `.*` at either end for a match anywhere.
public enum TextPattern {
    /// Why `pattern` is not a regular expression; nil when it is one.
    public static func problem(_ pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// True when `pattern` matches the whole of `text`; false also when it is no pattern (the
    /// loader has refused those).
    public static func matchesWhole(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return (try? regex.wholeMatch(in: text)) != nil
    }
}

extension TextMatch {
    /// True when `text` contains or (wholly) matches what is expected.
    public func accepts(_ text: String) -> Bool {
        switch self {
        case .contains(let part): return part.isEmpty || text.contains(part)
        case .matches(let pattern): return TextPattern.matchesWhole(pattern, text)
        }
    }
}
