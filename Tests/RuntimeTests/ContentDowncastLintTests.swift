import Foundation
import Testing

/// Finds downcasts to what is scanned in Swift source: the rule that code reaches a content's
/// abilities through `ScanContent`'s requirements (each with a default), never by testing which
/// content it is. A cast silently fails for content that wraps or stands in for another, and
/// spreads knowledge of the concrete contents over the code that drives them.
///
/// The content types are read from the sources themselves: `ScanContent`, the protocols refining
/// it, and every type declared or extended as conforming to one of them. A downcast is `as?`,
/// `as!` or `is` followed by one of them (`any` and parentheses allowed), a pattern binding
/// `let NAME as` one of them, or a plain `as` to a concrete content type (only a pattern can cast
/// to a concrete type with it). Comments and string literals are left out.
struct ContentDowncastLint {
    struct Finding: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var column: Int
        var type: String
        var description: String {
            "\(file):\(line):\(column): error: downcast to content type \(type); give ScanContent a requirement (with a default) instead"
        }
    }

    /// The content types declared in `files`: the protocols (ScanContent and those refining it)
    /// and the concrete types conforming to any of them.
    static func contentTypes(in files: [(path: String, text: String)]) throws -> (protocols: Set<String>, concrete: Set<String>) {
        let declaration = try Regex(#"\b(struct|class|enum|actor|protocol|extension)\s+(\w+)\s*(?:<[^>{]*>)?\s*:([^{]*)\{"#)
        let word = try Regex(#"\w+"#)
        var declarations = [(kind: String, name: String, inherits: Set<String>)]()
        for file in files {
            let code = String(decoding: PlatformLint.codeOnly(Array(file.text.utf8)), as: UTF8.self)
            for match in code.matches(of: declaration) {
                guard let kind = match.output[1].substring, let name = match.output[2].substring,
                      let inheritance = match.output[3].substring else { continue }
                let inherits = Set(inheritance.matches(of: word).map { String(inheritance[$0.range]) })
                declarations.append((String(kind), String(name), inherits))
            }
        }
        var protocols: Set<String> = ["ScanContent"]
        var concrete = Set<String>()
        var grew = true
        while grew {
            grew = false
            for declared in declarations where !declared.inherits.isDisjoint(with: protocols) {
                if declared.kind == "protocol" {
                    grew = protocols.insert(declared.name).inserted || grew
                } else {
                    grew = concrete.insert(declared.name).inserted || grew
                }
            }
        }
        return (protocols, concrete)
    }

    /// The downcasts to `protocols` or `concrete` in one file's text.
    static func findings(in source: String, file: String, protocols: Set<String>, concrete: Set<String>) throws -> [Finding] {
        let bytes = PlatformLint.codeOnly(Array(source.utf8))
        let code = String(decoding: bytes, as: UTF8.self)
        let lineStarts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        func place(_ index: String.Index) -> (line: Int, column: Int) {
            let offset = code.utf8.distance(from: code.startIndex, to: index)
            let line = lineStarts.lastIndex { $0 <= offset } ?? 0
            return (line + 1, offset - lineStarts[line] + 1)
        }
        let target = #"\(?\s*(?:any\s+)?(\w+)"#
        let checkedCasts = try Regex(#"(?:\bas[?!]|\bis)\s+"# + target)
        let patternBindings = try Regex(#"\b(?:let|var)\s+\w+\s+as\s+"# + target)
        let plainCasts = try Regex(#"\bas\s+"# + target)
        var found = [Finding]()
        func add(_ match: Regex<AnyRegexOutput>.Match, if types: Set<String>) {
            guard let range = match.output.first?.range, let name = match.output[1].substring,
                  types.contains(String(name)) else { return }
            let at = place(range.lowerBound)
            found.append(Finding(file: file, line: at.line, column: at.column, type: String(name)))
        }
        for match in code.matches(of: checkedCasts) { add(match, if: protocols.union(concrete)) }
        for match in code.matches(of: patternBindings) { add(match, if: protocols) }
        for match in code.matches(of: plainCasts) { add(match, if: concrete) }
        return Set(found).sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
    }
}

@Suite("Content lint: no downcast to what is scanned")
struct ContentDowncastLintTests {
    /// Every `.swift` file under Sources, as (path relative to the package, text).
    static func sourceFiles() throws -> [(path: String, text: String)] {
        try SwiftSourceTree.files(roots: ["Sources"])
    }

    func types(_ source: String) throws -> [String] {
        try ContentDowncastLint.findings(
            in: source, file: "inline.swift", protocols: ["ScanContent", "TextEntryTarget"],
            concrete: ["SceneContent", "KeyboardContent", "LiveApplication"]
        ).map(\.type)
    }

    @Test("The content types are read from the sources: the scene, the keyboard, the live application")
    func contentTypesFound() throws {
        let types = try ContentDowncastLint.contentTypes(in: Self.sourceFiles())
        #expect(types.protocols.isSuperset(of: ["ScanContent", "TextEntryTarget"]))
        #expect(types.concrete.isSuperset(of: ["SceneContent", "KeyboardContent", "LiveApplication"]))
        #expect(!types.concrete.contains("ScanSession"))
    }

    @Test("No source file downcasts to a content type")
    func treeHasNoDowncast() throws {
        let files = try Self.sourceFiles()
        let types = try ContentDowncastLint.contentTypes(in: files)
        let findings = try files.flatMap {
            try ContentDowncastLint.findings(in: $0.text, file: $0.path, protocols: types.protocols, concrete: types.concrete)
        }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("A downcast planted in the session driver is found at its line and column")
    func plantedDowncastInRealFile() throws {
        let path = "Sources/Scanning/SessionDriver.swift"
        let text = try String(contentsOf: SwiftSourceTree.package.appendingPathComponent(path), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let planted = try #require(lines.firstIndex { $0.contains("if var typing = content.scanningKeyboard {") })
        lines[planted] = "        if var typing = content as? KeyboardContent {"
        let types = try ContentDowncastLint.contentTypes(in: Self.sourceFiles())
        let findings = try ContentDowncastLint.findings(
            in: lines.joined(separator: "\n"), file: path, protocols: types.protocols, concrete: types.concrete)
        #expect(findings == [ContentDowncastLint.Finding(file: path, line: planted + 1, column: 33, type: "KeyboardContent")])
        #expect(findings.first?.description.hasPrefix("\(path):\(planted + 1):33: error: downcast to content type KeyboardContent") == true)
    }

    @Test("Checked casts, type tests and cast patterns are downcasts")
    func downcastsFound() throws {
        #expect(try types("let keyboard = content as? KeyboardContent") == ["KeyboardContent"])
        #expect(try types("guard var target = content as? any TextEntryTarget else { return }") == ["TextEntryTarget"])
        #expect(try types("let target = content as? (any TextEntryTarget)") == ["TextEntryTarget"])
        #expect(try types("let scene = content as! SceneContent") == ["SceneContent"])
        #expect(try types("if content is LiveApplication { }") == ["LiveApplication"])
        #expect(try types("switch content { case let typing as KeyboardContent: break; default: break }") == ["KeyboardContent"])
        #expect(try types("if case let target as any TextEntryTarget = content { }") == ["TextEntryTarget"])
        #expect(try types("let name = \"\\((content as? SceneContent)?.title ?? \"\")\"") == ["SceneContent"])
    }

    @Test("Requirements, upcasts, other casts, comments and strings are not downcasts")
    func notDowncasts() throws {
        let source = """
            // content as? KeyboardContent was how it was done
            /* if content is SceneContent */
            let said = "as? KeyboardContent"
            let keyboard: KeyboardContent? = content.scanningKeyboard
            let target = content.textEntryTarget
            let scanned = scene as any ScanContent
            let wrapped = SceneContent(scene) as any TextEntryTarget
            if let brlapiError = error as? BrlAPIError { }
            func type(_ keyboard: KeyboardContent) -> ScanContent { keyboard }
            """
        #expect(try types(source) == [])
    }
}
