/// The regular expressions of `matches:` in test expectations: Swift's `Regex` syntax
/// (the common Perl/ICU forms: `.`, `*`, `+`, `?`, `[0-9]`, `\d`, `(a|b)`, `{2,3}`), matched
/// against the whole text, as if written between `^` and `$`: `Frame [0-9]+` matches
/// `Frame 12` but not `Frame 12, 9`. Use `.*` at either end for a match anywhere.
public enum TextPattern {
    /// Why `pattern` is not a regular expression; nil when it is one.
    public static func problem(_ pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
        } catch {
            return "\(error)"
        }
        if hasNestedRepetition(pattern) {
            return "a repeated group holds a repetition itself (as in (a+)+), which can take exponential time to fail; write it without the outer repetition"
        }
        return nil
    }

    /// True when a group that contains `*`, `+` or `{` is itself followed by `*`, `+` or `{`:
    /// the backtracking matcher may then try exponentially many ways on a text that does not
    /// match (a test's pattern must never hang a run).
    static func hasNestedRepetition(_ pattern: String) -> Bool {
        var repeatedInside = [Bool]()  // per open group: does it hold a repetition?
        var closedGroupRepeats = false  // the group just closed held one
        var escaped = false
        var inClass = false
        for character in pattern {
            defer { if character != ")" { closedGroupRepeats = false } }
            if escaped { escaped = false; continue }
            switch character {
            case "\\": escaped = true
            case "[" where !inClass: inClass = true
            case "]" where inClass: inClass = false
            case _ where inClass: break
            case "(": repeatedInside.append(false)
            case ")":
                let held = repeatedInside.popLast() ?? false
                if held, !repeatedInside.isEmpty { repeatedInside[repeatedInside.count - 1] = true }
                closedGroupRepeats = held
                continue
            case "*", "+", "{":
                if closedGroupRepeats { return true }
                if !repeatedInside.isEmpty { repeatedInside[repeatedInside.count - 1] = true }
            default: break
            }
        }
        return false
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
