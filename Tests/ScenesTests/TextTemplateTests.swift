import AccessibilityModel
import Scenes
import Testing

// TextTemplate: `{name}` values, `{name?yes:no}` choices, `{{ }}` literal braces, escapes inside
// choices, and the syntax errors with the offset where they were found.

@Suite("TextTemplate")
struct TextTemplateTests {
    static let state: [String: StateValue] = [
        "wifi": .bool(true), "off": .bool(false), "volume": .number(5), "level": .number(2.5),
        "zero": .number(0), "negative": .number(-3), "big": .number(1e6), "name": .string("Ann"),
        "empty": .string(""), "dotted.name": .string("dot"), "with-dash_2": .number(2),
    ]

    func render(_ text: String) throws -> String {
        try TextTemplate(parsing: text).render(Self.state)
    }

    func syntaxError(_ text: String) -> TextTemplate.SyntaxError? {
        do {
            _ = try TextTemplate(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    @Test("plain text is one literal")
    func plain() throws {
        let template = try TextTemplate(parsing: "Hello, world")
        #expect(template.parts == [.literal("Hello, world")])
        #expect(template.constantText == "Hello, world")
        #expect(template.referencedNames.isEmpty)
        #expect(try TextTemplate(parsing: "").parts.isEmpty)
        #expect(try TextTemplate(parsing: "").constantText == "")
        #expect(TextTemplate(literal: "{x}").render([:]) == "{x}")
    }

    @Test("escaped text reads back as exactly that text (what imports and snapshots write)")
    func escapedReadsBack() throws {
        for text in ["Send {x} now", "}{", "{{a}}", "plain", "a{b:c}d"] {
            #expect(try render(TextTemplate.escaped(text)) == text, "\(text)")
        }
    }

    @Test("values and choices are parsed into parts")
    func parts() throws {
        let template = try TextTemplate(parsing: "Wi-Fi {wifi?on:off}, volume {volume}.")
        #expect(template.parts == [
            .literal("Wi-Fi "), .choice("wifi", whenTrue: "on", whenFalse: "off"),
            .literal(", volume "), .value("volume"), .literal("."),
        ])
        #expect(template.referencedNames == ["wifi", "volume"])
        #expect(template.constantText == nil)
    }

    @Test("numbers render without a needless .0; booleans as true/false")
    func numbers() throws {
        #expect(try render("{volume}") == "5")
        #expect(try render("{level}") == "2.5")
        #expect(try render("{zero}") == "0")
        #expect(try render("{negative}") == "-3")
        #expect(try render("{big}") == "1000000")
        #expect(try render("{wifi} {off}") == "true false")
        #expect(try render("{name}{empty}!") == "Ann!")
        #expect(StateValue.number(5.0).description == "5")
        #expect(StateValue.number(0.1).description == "0.1")
    }

    @Test("names may hold digits, '-', '_' and '.'")
    func names() throws {
        #expect(try render("{dotted.name} {with-dash_2}") == "dot 2")
    }

    @Test("choices follow truth: false, 0 and \"\" are false, and so is a missing value")
    func choices() throws {
        #expect(try render("{wifi?on:off}") == "on")
        #expect(try render("{off?on:off}") == "off")
        #expect(try render("{volume?loud:silent}") == "loud")
        #expect(try render("{zero?loud:silent}") == "silent")
        #expect(try render("{negative?yes:no}") == "yes")
        #expect(try render("{name?named:anonymous}") == "named")
        #expect(try render("{empty?named:anonymous}") == "anonymous")
        #expect(try render("{missing?yes:no}") == "no")
        #expect(try render("{wifi?:off}|{off?on:}") == "|")
        #expect(try render("[{missing}]") == "[]", "a missing value renders as nothing")
    }

    @Test("a second ':' belongs to the false branch")
    func secondColon() throws {
        let template = try TextTemplate(parsing: "{wifi?a:b:c}")
        #expect(template.parts == [.choice("wifi", whenTrue: "a", whenFalse: "b:c")])
    }

    @Test("{{ and }} are literal braces")
    func literalBraces() throws {
        #expect(try render("{{volume}}") == "{volume}")
        #expect(try render("a {{ b }} c") == "a { b } c")
        #expect(try render("{{{volume}}}") == "{5}")
        #expect(try render("}}{{") == "}{")
        #expect(try TextTemplate(parsing: "{{x}}").constantText == "{x}")
    }

    @Test("escapes inside a choice: \\:, \\{, \\} and \\\\")
    func escapesInChoices() throws {
        let template = try TextTemplate(parsing: #"{wifi?on\: yes:off \{x\} \\ end}"#)
        #expect(template.parts == [.choice("wifi", whenTrue: "on: yes", whenFalse: #"off {x} \ end"#)])
        #expect(try render(#"{off?a\:b:c\:d}"#) == "c:d")
        #expect(try render(#"time {wifi?12\:30:never}"#) == "time 12:30")
        // Outside a choice a backslash is an ordinary character.
        #expect(try render(#"a\b {volume}"#) == #"a\b 5"#)
        // A backslash before another character stays.
        #expect(try render(#"{wifi?a\b:c}"#) == #"a\b"#)
    }

    @Test("an unclosed '{'")
    func unclosed() {
        let error = syntaxError("abc {wifi")
        #expect(error?.offset == 4)
        #expect(error?.message == "'{' is not closed by '}'")
        #expect(syntaxError("{")?.offset == 0)
    }

    @Test("a lone '}'")
    func loneClose() {
        let error = syntaxError("ab}c")
        #expect(error?.offset == 2)
        #expect(error?.message.contains("a lone '}'") == true)
        #expect(syntaxError("{volume}}")?.offset == 8)
    }

    @Test("a choice without ':'")
    func choiceWithoutColon() {
        let error = syntaxError("x {wifi?on}")
        #expect(error?.offset == 2)
        #expect(error?.message.contains("a choice needs both branches") == true)
    }

    @Test("an unclosed choice, and a '{' inside a choice")
    func choiceErrors() {
        #expect(syntaxError("{wifi?on:off")?.message == "'{wifi?' is not closed by '}'")
        #expect(syntaxError(#"{wifi?on:off\}"#)?.message == "'{wifi?' is not closed by '}'")
        let inner = syntaxError("{wifi?{x}:off}")
        #expect(inner?.offset == 6)
        #expect(inner?.message.contains(#"must be written '\{'"#) == true)
    }

    @Test("a binding must name a state value", arguments: ["{}", "{1x}", "{a b}", "{-a}", "{?a:b}", "{!wifi}"])
    func badNames(text: String) {
        let error = syntaxError(text)
        #expect(error?.offset == 0)
        #expect(error?.message.contains("does not name a state value") == true)
    }

    /// The Apple guide's RatingView ("Make Nontextual Data Accessible"): `if ( starCount == 1 )`
    /// the label's word is "star", else "stars", so "1 star", "0 stars", "2 stars".
    @Test("a choice by count: {name#one:other} is 'one' for a count of 1 only")
    func pluralForms() throws {
        let label = try TextTemplate(parsing: "{rating} {rating#star:stars}")
        #expect(label.parts == [.value("rating"), .literal(" "), .plural("rating", one: "star", other: "stars")])
        #expect(label.referencedNames == ["rating", "rating"])
        let texts = [0, 1, 2, 5].map { label.render(["rating": .number(Double($0))]) }
        #expect(texts == ["0 stars", "1 star", "2 stars", "5 stars"])
        #expect(label.render(["rating": .number(1.5)]) == "1.5 stars")
        #expect(label.render(["rating": .number(-1)]) == "-1 stars")
        #expect(label.render([:]) == " stars")
        var cached = StateTexts(["rating": .number(1)])
        #expect(label.render(&cached) == "1 star")
        // Escapes as in a truth choice; a missing branch is an error naming the count form.
        #expect(try TextTemplate(parsing: "{n#one\\: item:items}").render(["n": .number(1)]) == "one: item")
        #expect(syntaxError("{n#item}")?.message == "a choice needs both branches: '{n#when 1:any other count}'")
        #expect(syntaxError("{n#item:items")?.message == "'{n#' is not closed by '}'")
    }

    @Test("offsets count characters, not bytes")
    func offsetsInCharacters() {
        #expect(syntaxError("été } ")?.offset == 4)
        #expect(syntaxError("👋🏽 {x")?.offset == 2)
    }
}

/// `StateTexts` renders many templates with one state (a relabel of a whole screen): the texts
/// must be exactly those each template renders on its own.
@Suite("Rendering with StateTexts")
struct StateTextsTests {
    @Test("Every template renders as it does on its own, past the names StateTexts keeps")
    func sameAsDirect() throws {
        var state = TextTemplateTests.state
        // More names than StateTexts keeps (16), so later ones are read from the state.
        for index in 0..<24 { state["n\(index)"] = .number(Double(index * 7)) }
        var sources = [
            "Key 12 of 34 ({volume})", "{volume}", "{missing}", "({missing})", "{wifi?on:off} {off?on:off}",
            "{name}{empty}{name}", "a{volume}b{level}c{zero}d{negative}e{big}", "Élan {name} — ü {{x}}",
            "{empty}", "", "plain", "{name} and a text long enough not to be a small string",
        ]
        sources += (0..<24).map { "Key \($0) ({n\($0)}) {n\(23 - $0)}" }
        let templates = try sources.map { try TextTemplate(parsing: $0) }
        var texts = StateTexts(state)
        for (source, template) in zip(sources, templates) {
            #expect(template.render(&texts) == template.render(state), "\(source)")
        }
        // The same again, once every name has been read.
        for (source, template) in zip(sources, templates) {
            #expect(template.render(&texts) == template.render(state), "\(source), read again")
        }
        #expect(try TextTemplate(parsing: "Key 12 of 34 ({volume})").render(state) == "Key 12 of 34 (5)")
        #expect(try TextTemplate(parsing: "{missing}|{off?y:n}").render(state) == "|n")
    }
}
