import Documents
import Scenes

/// `switchscan import`'s conversion, pure: dump bytes (already read) → screens → scene text,
/// which is loaded back through the scene loader before anyone sees it.
public enum DumpImporter {
    /// The format a document's root names: `<hierarchy>` is UI Automator, `<AppiumAUT>` or an
    /// `XCUIElementType…` root is XCUITest. Nil for anything else.
    static func detectFormat(_ root: DumpNode) -> DumpFormat? {
        if root.name == "hierarchy" { return .android }
        if root.name == "AppiumAUT" || root.name.hasPrefix(IOSDump.prefix) { return .ios }
        return nil
    }

    /// One dump → one screen. `format` nil: guessed from the content.
    public static func screen(
        bytes: [UInt8], file: String, format: DumpFormat? = nil, limits: DumpLimits = .standard
    ) -> Result<ImportedScreen, DumpProblem> {
        let root: DumpNode
        switch DumpDocument.parse(bytes, file: file, limits: limits) {
        case .success(let node): root = node
        case .failure(let problem): return .failure(problem)
        }
        let found = detectFormat(root)
        guard let chosen = format ?? found else {
            return .failure(DumpProblem(file: file, position: root.position, message: "unknown element type '\(DumpConverter.shown(root.name))' at the root: expected <hierarchy> (Android UI Automator dump) or <AppiumAUT> / <XCUIElementTypeApplication> (iOS XCUITest page source)"))
        }
        if let format, let found, format != found {
            return .failure(DumpProblem(file: file, position: root.position, message: "--format \(format.rawValue) was given, but the file is an \(found.title) (root <\(root.name)>)"))
        }
        do {
            let converted = chosen == .ios
                ? try IOSDump.convert(root, file: file, limits: limits)
                : try AndroidDump.convert(root, file: file, limits: limits)
            let screen = ImportedScreen(
                file: file, format: chosen, name: screenName(file), size: converted.size,
                elements: converted.elements, skipped: converted.skipped)
            guard !screen.elements.isEmpty else {
                // A scene with nothing to scan is no import of the screen: said, never written.
                let counts = screen.skippedCounts.map { "\($0.count) \($0.reason.rawValue)" }.joined(separator: ", ")
                return .failure(DumpProblem(file: file, position: root.position, message: "no element of this \(chosen.title) would be scanned (\(screen.skipped.count) left out\(counts.isEmpty ? "" : ": " + counts)); nothing is imported from it"))
            }
            return .success(screen)
        } catch {
            return .failure(error)
        }
    }

    /// A screen name from a file name: its base name without extension, letters, digits, `_`,
    /// `-` and `.` kept, starting with a letter (as scene screen names must).
    public static func screenName(_ file: String) -> String {
        var base = file.split(separator: "/").last.map(String.init) ?? file
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = String(base[..<dot]) }
        // ASCII only: a screen name is a state-like name (`TextTemplate.isValidName`), checked
        // scalar by scalar, which a letter with a combining mark would fail.
        let kept = base.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
                ? Character(scalar) : "-"
        }
        var name = String(String(kept).prefix(64))
        if !(name.unicodeScalars.first.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) } ?? false) { name = "screen-" + name }
        return name
    }

    /// The scene: every screen, ids made unique across the scene, loaded back by the scene
    /// loader (`file` is where it will be written, for the loader's positions). The scene's
    /// size is the first screen's; `warnings` say which screens differ.
    public static func scene(
        title: String, screens: [ImportedScreen], file: String
    ) -> Result<(text: String, scene: Scene, warnings: [String]), SceneLoadError> {
        var screens = screens
        var warnings = [String]()
        var names = Set<String>()
        var ids = IDRegistry()
        for index in screens.indices {
            var name = screens[index].name
            var counter = 2
            while names.contains(name) { name = "\(screens[index].name)-\(counter)"; counter += 1 }
            names.insert(name)
            screens[index].name = name
            screens[index].elements = screens[index].elements.map { ids.assign($0, screen: name) }
            if index > 0, (screens[index].size.width, screens[index].size.height) != (screens[0].size.width, screens[0].size.height) {
                warnings.append("\(screens[index].file): screen size \(NumberFormat.points(screens[index].size.width)) × \(NumberFormat.points(screens[index].size.height)) differs from the scene's \(NumberFormat.points(screens[0].size.width)) × \(NumberFormat.points(screens[0].size.height)) (the first file's); its frames are kept as they are")
            }
        }
        let text = SceneText.render(title: title, screens: screens)
        do {
            return .success((text, try SceneParser.parse(yaml: text, file: file), warnings))
        } catch {
            return .failure(error)
        }
    }
}

/// Ids unique in the scene: the dump's identifier when it has one, else a name from the type and
/// label; a second use gets the screen's name in front, then a number (`title-2`).
struct IDRegistry {
    var used = Set<String>()
    var next = [String: Int]()

    static func sanitised(_ text: String) -> String {
        var out = String(text.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." ? $0 : "-" }.prefix(128))
        while out.hasPrefix("-") { out.removeFirst() }
        return out.isEmpty ? "element" : out
    }

    mutating func unique(_ base: String, screen: String) -> String {
        if used.insert(base).inserted { return base }
        let prefixed = "\(screen)-\(base)"
        if used.insert(prefixed).inserted { return prefixed }
        var counter = next[prefixed] ?? 2
        while !used.insert("\(prefixed)-\(counter)").inserted { counter += 1 }
        next[prefixed] = counter + 1
        return "\(prefixed)-\(counter)"
    }

    mutating func assign(_ element: ImportedElement, screen: String) -> ImportedElement {
        var element = element
        element.id = unique(Self.sanitised(element.identifier ?? element.derivedID), screen: screen)
        element.children = element.children.map { assign($0, screen: screen) }
        return element
    }
}

/// Scene text (YAML, block style), the contract's key names only. Strings are double-quoted
/// with escapes, and braces doubled in labels, values and action names so that no text of a
/// dump is read as a `{state}` binding.
enum SceneText {
    static func render(title: String, screens: [ImportedScreen]) -> String {
        var out = "# Written by switchscan import from: " + screens.map { "\(comment($0.file)) (\($0.format.title))" }.joined(separator: ", ") + ".\n"
        out += "# Importing again replaces this file: keep scripted tests in a tests file of their own (docs/importing.md).\n"
        out += "scene: \(quoted(title))\n"
        out += "description: \(quoted("Imported from " + screens.map(\.file).joined(separator: ", ")))\n"
        let size: (width: Double, height: Double) = screens.first?.size ?? (1, 1)
        out += "size: [\(NumberFormat.points(size.width)), \(NumberFormat.points(size.height))]\n"
        out += "start: \(quoted(screens.first?.name ?? "main"))\n"
        out += "screens:\n"
        for screen in screens {
            out += "  \(quoted(screen.name)):\n"
            out += "    title: \(quoted(screen.file))\n"
            if screen.elements.isEmpty {
                out += "    elements: []\n"
                continue
            }
            out += "    elements:\n"
            for element in screen.elements { write(element, indent: 6, file: screen.file, into: &out) }
        }
        return out
    }

    static func write(_ element: ImportedElement, indent: Int, file: String, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        let inner = pad + "  "
        out += "\(pad)- id: \(quoted(element.id))  # \(comment(file)):\(element.position.lineColumn) \(comment(element.type))\n"
        if let label = element.label { out += "\(inner)label: \(quoted(template(label)))\n" }
        if let value = element.value { out += "\(inner)value: \(quoted(template(value)))\n" }
        if !element.traits.isEmpty { out += "\(inner)traits: [\(element.traits.joined(separator: ", "))]\n" }
        let frame = element.frame
        out += "\(inner)frame: [\([frame.x, frame.y, frame.width, frame.height].map(NumberFormat.points).joined(separator: ", "))]\n"
        // Containers need no key: an element with elements is a container by the contract.
        if element.isModal { out += "\(inner)accessibilityViewIsModal: true\n" }
        if element.isTappable { out += "\(inner)activate: []\n" }
        if element.isAdjustable, !element.isContainer {
            out += "\(inner)increment: []\n\(inner)decrement: []\n"
        }
        if !element.customActions.isEmpty {
            out += "\(inner)customActions:\n"
            for name in element.customActions { out += "\(inner)  - {name: \(quoted(template(name))), do: []}\n" }
        }
        if !element.children.isEmpty {
            out += "\(inner)elements:\n"
            for child in element.children { write(child, indent: indent + 4, file: file, into: &out) }
        }
    }

    /// Braces doubled: a scene reads `{name}` as a binding, `{{` as a brace.
    static func template(_ text: String) -> String {
        TextTemplate.escaped(text)
    }

    /// A comment's text: one line.
    static func comment(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\r" ? " " : $0 })
    }

    static func quoted(_ text: String) -> String { YAMLText.quoted(text) }
}
