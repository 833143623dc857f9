/// The regular expressions of `matches:` in test expectations, matched against the whole text,
/// as if written between `^` and `$`: `Frame [0-9]+` matches `Frame 12` but not `Frame 12, 9`.
/// Use `.*` at either end for a match anywhere.
///
/// The syntax is the common subset: characters stand for themselves; `.` is any character;
/// `[abc]`, `[a-z]`, `[^,]` are classes; `\d` (0-9), `\w` (letters, digits, `_`), `\s` (white
/// space) and `\D`, `\W`, `\S`; `\` before any other punctuation makes it literal (`\.`, `\(`);
/// `(…)` and `(?:…)` group; `|` separates alternatives; `*`, `+`, `?`, `{m}`, `{m,}` and
/// `{m,n}` (m, n at most 100) repeat (a lazy `?` after them is accepted; on a whole match it
/// changes nothing). `^` and `$` are allowed only at the ends.
///
/// It is matched by simulating all alternatives at once (Thompson's construction), so a match
/// takes time proportional to the text's length times the pattern's: no pattern can make a test
/// run hang (a backtracking matcher takes exponential time on `(a|a)*x`).
public struct TextPattern: Sendable {
    /// Most instructions a pattern compiles to, repetitions counted out.
    public static let maxProgramSize = 20_000
    /// Highest bound of `{m,n}`.
    public static let maxRepeat = 100

    private let program: [Instruction]

    /// Compiles `pattern`, or throws why it is no pattern (with the character's position).
    public init(_ pattern: String) throws(TextPatternError) {
        var parser = Parser(characters: Array(pattern))
        let node = try parser.parseWhole()
        var compiler = Compiler()
        try compiler.emit(node)
        compiler.program.append(.accept)
        program = compiler.program
    }

    /// Why `pattern` is not a pattern; nil when it is one.
    public static func problem(_ pattern: String) -> String? {
        do {
            _ = try TextPattern(pattern)
            return nil
        } catch {
            return error.description
        }
    }

    /// True when `pattern` matches the whole of `text`; false also when it is no pattern (the
    /// loader has refused those).
    public static func matchesWhole(_ pattern: String, _ text: String) -> Bool {
        (try? TextPattern(pattern))?.matchesWhole(text) ?? false
    }

    /// True when the pattern matches the whole of `text`.
    public func matchesWhole(_ text: String) -> Bool {
        var steps = 0
        return matchesWhole(text, steps: &steps)
    }

    /// Instructions the pattern compiled to (repetitions counted out).
    public var size: Int { program.count }

    /// `matchesWhole(_:)`, adding to `steps` every instruction it visited: at most `size` per
    /// character of `text` and one more round, whatever the pattern (the bound the tests check
    /// instead of timing a match).
    public func matchesWhole(_ text: String, steps: inout Int) -> Bool {
        var current = [Int]()
        var next = [Int]()
        var seen = [Int](repeating: -1, count: program.count)
        var generation = 0
        // Adds `pc` and every instruction reached from it without reading a character.
        func add(_ pc: Int, to list: inout [Int]) {
            var stack = [pc]
            while let pc = stack.popLast() {
                guard seen[pc] != generation else { continue }
                seen[pc] = generation
                steps += 1
                switch program[pc] {
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .character, .accept: list.append(pc)
                }
            }
        }
        add(0, to: &current)
        for character in text {
            generation += 1
            next.removeAll(keepingCapacity: true)
            for pc in current {
                if case .character(let test) = program[pc], test.accepts(character) { add(pc + 1, to: &next) }
            }
            swap(&current, &next)
            if current.isEmpty { return false }
        }
        return current.contains { if case .accept = program[$0] { return true } else { return false } }
    }

    // MARK: - Program

    enum Instruction: Sendable {
        case character(CharacterTest)
        case split(Int, Int)
        case jump(Int)
        case accept
    }

    indirect enum Node {
        case empty
        case character(CharacterTest)
        case sequence([Node])
        case alternatives([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    struct Compiler {
        var program = [Instruction]()

        mutating func append(_ instruction: Instruction) throws(TextPatternError) {
            guard program.count < TextPattern.maxProgramSize else {
                throw TextPatternError(position: nil, message: "the pattern is too large once its repetitions are counted out (more than \(TextPattern.maxProgramSize) steps)")
            }
            program.append(instruction)
        }

        mutating func emit(_ node: Node) throws(TextPatternError) {
            switch node {
            case .empty: break
            case .character(let test): try append(.character(test))
            case .sequence(let nodes): for node in nodes { try emit(node) }
            case .alternatives(let nodes):
                // split L1, next; L1: first; jump end; next: split L2, …
                var jumps = [Int]()
                for (index, node) in nodes.enumerated() {
                    if index < nodes.count - 1 {
                        let split = program.count
                        try append(.split(split + 1, -1))
                        try emit(node)
                        jumps.append(program.count)
                        try append(.jump(-1))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(node)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repeated(let node, let min, let max):
                for _ in 0..<min { try emit(node) }
                if let max {
                    // Each optional copy: split body, end.
                    var splits = [Int]()
                    for _ in min..<max {
                        splits.append(program.count)
                        try append(.split(program.count + 1, -1))
                        try emit(node)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    // loop: split body, end; body; jump loop
                    let loop = program.count
                    try append(.split(loop + 1, -1))
                    try emit(node)
                    try append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }

    /// The pattern's grammar: alternatives of sequences of repeated atoms.
    struct Parser {
        let characters: [Character]
        var index = 0

        func error(_ message: String, at position: Int? = nil) -> TextPatternError {
            TextPatternError(position: (position ?? index) + 1, message: message)
        }

        var atEnd: Bool { index >= characters.count }
        var peek: Character? { atEnd ? nil : characters[index] }

        mutating func parseWhole() throws(TextPatternError) -> Node {
            var last = characters.count
            // `^` and `$` at the ends say what a whole match is anyway.
            if characters.first == "^" { index = 1 }
            if last > index, characters[last - 1] == "$", !(last >= 2 && characters[last - 2] == "\\" && !escapedBackslash(before: last - 2)) {
                last -= 1
            }
            var trimmed = self
            trimmed.end = last
            let node = try trimmed.parseAlternatives()
            if !trimmed.atLimit {
                throw trimmed.error(trimmed.characters[trimmed.index] == ")" ? "')' closes no group" : "unexpected '\(trimmed.characters[trimmed.index])'")
            }
            return node
        }

        /// True when the backslash at `position` is itself escaped by an odd run before it.
        func escapedBackslash(before position: Int) -> Bool {
            var count = 0
            var at = position - 1
            while at >= 0, characters[at] == "\\" { count += 1; at -= 1 }
            return count % 2 == 1
        }

        var end = Int.max
        var atLimit: Bool { index >= min(end, characters.count) }
        var current: Character? { atLimit ? nil : characters[index] }

        mutating func parseAlternatives() throws(TextPatternError) -> Node {
            var options = [try parseSequence()]
            while current == "|" {
                index += 1
                options.append(try parseSequence())
            }
            return options.count == 1 ? options[0] : .alternatives(options)
        }

        mutating func parseSequence() throws(TextPatternError) -> Node {
            var items = [Node]()
            while let character = current, character != "|", character != ")" {
                let start = index
                var atom = try parseAtom()
                // A group may repeat whatever it holds (`(a*)*`); `a**` repeats a repetition as written.
                var grouped = characters[start] == "("
                while let quantifier = current, "*+?{".contains(quantifier) {
                    if case .empty = atom, !grouped { throw error("'\(quantifier)' repeats nothing", at: start) }
                    atom = try parseQuantifier(atom, grouped: grouped)
                    grouped = false
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .sequence(items))
        }

        mutating func parseQuantifier(_ atom: Node, grouped: Bool) throws(TextPatternError) -> Node {
            let start = index
            let symbol = current!
            index += 1
            var node: Node
            switch symbol {
            case "*": node = .repeated(atom, min: 0, max: nil)
            case "+": node = .repeated(atom, min: 1, max: nil)
            case "?": node = .repeated(atom, min: 0, max: 1)
            default:
                let (low, high) = try parseBounds(start: start)
                node = .repeated(atom, min: low, max: high)
            }
            if current == "?" { index += 1 }  // lazy: the same on a whole match
            if current == "+" { throw error("a possessive repetition (*+, ++) is not supported") }
            if !grouped, case .repeated = atom {
                throw error("'\(symbol)' follows another repetition; group what it repeats: (…)\(symbol)", at: start)
            }
            return node
        }

        /// `{m}`, `{m,}` or `{m,n}` after the `{` at `start`.
        mutating func parseBounds(start: Int) throws(TextPatternError) -> (Int, Int?) {
            func number() -> Int? {
                var digits = ""
                while let character = current, character.isASCII, character.isNumber, digits.count < 4 {
                    digits.append(character)
                    index += 1
                }
                return Int(digits)
            }
            let braceError = error("'{' starts a repetition {m}, {m,} or {m,n}; write \\{ for a brace", at: start)
            guard let low = number() else { throw braceError }
            var high: Int? = low
            if current == "," {
                index += 1
                high = number()
            }
            guard current == "}" else { throw braceError }
            index += 1
            guard low <= TextPattern.maxRepeat, (high ?? 0) <= TextPattern.maxRepeat else {
                throw error("a repetition's bounds are at most \(TextPattern.maxRepeat)", at: start)
            }
            if let high, high < low { throw error("{\(low),\(high)}: the bounds are in the wrong order", at: start) }
            return (low, high)
        }

        mutating func parseAtom() throws(TextPatternError) -> Node {
            let start = index
            let character = current!
            index += 1
            switch character {
            case ".": return .character(.any)
            case "(":
                if current == "?" {
                    guard index + 1 < min(end, characters.count), characters[index + 1] == ":" else {
                        throw error("only (?: …) groups are supported after '(?'", at: start)
                    }
                    index += 2
                }
                let inner = try parseAlternatives()
                guard current == ")" else { throw error("'(' is not closed", at: start) }
                index += 1
                return inner
            case "[": return .character(try parseClass(start: start))
            case "\\": return .character(try parseEscape(start: start))
            case "*", "+", "?": throw error("'\(character)' repeats nothing", at: start)
            case "{": throw error("'{' repeats nothing; write \\{ for a brace", at: start)
            case "^", "$": throw error("'\(character)' is allowed only at the pattern's ends (a match is of the whole text anyway); write \\\(character) for the character", at: start)
            default: return .character(.literal(character))
            }
        }

        /// After a backslash: a class such as `\d`, or a literal punctuation character.
        mutating func parseEscape(start: Int) throws(TextPatternError) -> CharacterTest {
            guard let character = current else { throw error("'\\' at the end escapes nothing", at: start) }
            index += 1
            switch character {
            case "d": return .set(CharacterSet(items: [.digit]))
            case "D": return .set(CharacterSet(items: [.digit], negated: true))
            case "w": return .set(CharacterSet(items: [.word]))
            case "W": return .set(CharacterSet(items: [.word], negated: true))
            case "s": return .set(CharacterSet(items: [.space]))
            case "S": return .set(CharacterSet(items: [.space], negated: true))
            case "t": return .literal("\t")
            case "n": return .literal("\n")
            default:
                if character.isLetter || character.isNumber {
                    throw error("'\\\(character)' is not supported (\\d, \\w, \\s, \\D, \\W, \\S, \\t, \\n, or \\ before punctuation)", at: start)
                }
                return .literal(character)
            }
        }

        /// `[…]` after the `[` at `start`.
        mutating func parseClass(start: Int) throws(TextPatternError) -> CharacterTest {
            var set = CharacterSet(items: [])
            if current == "^" {
                set.negated = true
                index += 1
            }
            var first = true
            while true {
                guard let character = current else { throw error("'[' is not closed", at: start) }
                if character == "]", !first {
                    index += 1
                    break
                }
                first = false
                index += 1
                var low: Character = character
                if character == "\\" {
                    let escape = try parseEscape(start: index - 1)
                    switch escape {
                    case .set(let inner):
                        set.items += inner.negated ? [.negatedSet(inner.items)] : inner.items
                        continue
                    case .literal(let literal): low = literal
                    case .any: continue
                    }
                }
                if current == "-", index + 1 < min(end, characters.count), characters[index + 1] != "]" {
                    index += 1
                    var high = current!
                    index += 1
                    if high == "\\" {
                        guard case .literal(let literal) = try parseEscape(start: index - 1) else {
                            throw error("a range ends with a character, not a class", at: index - 1)
                        }
                        high = literal
                    }
                    guard let lowScalar = low.unicodeScalars.first, low.unicodeScalars.count == 1,
                          let highScalar = high.unicodeScalars.first, high.unicodeScalars.count == 1,
                          lowScalar <= highScalar else {
                        throw error("the range \(low)-\(high) is not in order", at: start)
                    }
                    set.items.append(.range(lowScalar, highScalar))
                } else {
                    set.items.append(.character(low))
                }
            }
            return .set(set)
        }
    }

    enum CharacterTest: Sendable {
        case any
        case literal(Character)
        case set(CharacterSet)

        func accepts(_ character: Character) -> Bool {
            switch self {
            case .any: return true
            case .literal(let expected): return character == expected
            case .set(let set): return set.accepts(character)
            }
        }
    }

    struct CharacterSet: Sendable {
        enum Item: Sendable {
            case character(Character)
            case range(Unicode.Scalar, Unicode.Scalar)
            case digit, word, space
            indirect case negatedSet([Item])
        }

        var items: [Item]
        var negated = false

        func accepts(_ character: Character) -> Bool {
            contains(items, character) != negated
        }

        private func contains(_ items: [Item], _ character: Character) -> Bool {
            items.contains { item in
                switch item {
                case .character(let expected): return character == expected
                case .range(let low, let high):
                    guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return false }
                    return low <= scalar && scalar <= high
                case .digit: return character.isASCII && character.isNumber
                case .word: return character.isLetter || character.isNumber || character == "_"
                case .space: return character.isWhitespace
                case .negatedSet(let inner): return !contains(inner, character)
                }
            }
        }
    }
}

/// Why a `matches:` pattern is refused: the message, and the character (1 is the first).
public struct TextPatternError: Error, Hashable, Sendable, CustomStringConvertible {
    public var position: Int?
    public var message: String

    public var description: String {
        position.map { "\(message) (character \($0))" } ?? message
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
