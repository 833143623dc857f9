import AccessibilityModel
import Documents
import Scenes

/// Settings files as the live run and `switchscan settings` use them: the settings a file gives
/// on top of a base, and the text of a file with one setting changed. Pure: callers read and
/// write the files.
public enum SettingsFile {
    /// `base` with the file's settings applied in order, or every problem (file:line:column).
    public static func settings(yaml text: String, file: String, base: ScanSettings) -> Result<(ScanSettings, SettingsDocument), SceneLoadError> {
        let document: SettingsDocument
        do {
            document = try SettingsDocument.parse(yaml: text, file: file)
        } catch {
            return .failure(error)
        }
        var settings = base
        var problems = [SceneProblem]()
        for entry in document.entries {
            do {
                try settings.set(entry.name, entry.value)
            } catch {
                problems.append(SceneProblem(location: entry.location, message: error.description))
            }
        }
        if !problems.isEmpty { return .failure(SceneLoadError(problems: problems)) }
        return .success((settings, document))
    }

    /// `name: value` pairs of a document, for status lines ("autoScanningTime 1.5, loops 2").
    public static func summary(_ document: SettingsDocument) -> String {
        guard !document.entries.isEmpty else { return "no settings (the defaults)" }
        return document.entries.map { entry in
            "\(entry.name) \(SettingsDocument.yamlText(entry.value, shape: SettingNames.shape(of: entry.name) ?? .seconds))"
        }.joined(separator: ", ")
    }

    /// Why a setting cannot be written.
    public struct EditError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The text of `current` (a valid settings file, or nil for none) with `name` set to
    /// `value`, or removed when `value` is nil. The value is checked first (its shape, then
    /// `ScanSettings.set`); the line of the setting is replaced, or a line added, keeping the
    /// rest of the file (comments included); when the file is not one setting per line, it is
    /// written anew, one setting per line. The result always reads back with the change made.
    ///
    /// A file with CRLF line ends keeps them (it is edited as LF text, then written back with
    /// CRLF); a line the parser places where the text has no such line (line ends of another
    /// kind) makes it written anew rather than edited in place.
    public static func editing(_ current: String?, file: String, name: String, value: StateValue?) throws(EditError) -> String {
        // "\r\n" is one Character in Swift: lines are split on LF only after CRLF is made LF.
        guard let current, current.contains("\r\n") else {
            return try editingLF(current, file: file, name: name, value: value)
        }
        var lf = String.UnicodeScalarView()
        var scalars = current.unicodeScalars.makeIterator(), held: Unicode.Scalar?
        while let scalar = held ?? scalars.next() {
            held = nil
            if scalar == "\r", let next = scalars.next() {
                if next != "\n" { lf.append(scalar) }
                held = next
                continue
            }
            lf.append(scalar)
        }
        var crlf = String.UnicodeScalarView()
        for scalar in try editingLF(String(lf), file: file, name: name, value: value).unicodeScalars {
            if scalar == "\n" { crlf.append("\r") }
            crlf.append(scalar)
        }
        return String(crlf)
    }

    private static func editingLF(_ current: String?, file: String, name: String, value: StateValue?) throws(EditError) -> String {
        guard let shape = SettingNames.shape(of: name) else {
            let names = SettingNames.shapes.map(\.name)
            throw EditError(message: "unknown setting '\(name)'; settings: \(names.joined(separator: ", "))")
        }
        let line = try value.map { value throws(EditError) in try checkedLine(name: name, value: value, shape: shape, file: file) }
        let text = current ?? ""
        let document: SettingsDocument
        do {
            document = try SettingsDocument.parse(yaml: text, file: file)
        } catch {
            throw EditError(message: "\(file) has errors; correct them first (or remove the file):\n\(error)")
        }
        // What the file must hold afterwards, in order.
        var expected = document.entries.map { ($0.name, $0.value) }.filter { $0.0 != name }
        if let value {
            if let index = document.entries.firstIndex(where: { $0.name == name }) {
                expected.insert((name, value), at: min(index, expected.count))
            } else {
                expected.append((name, value))
            }
        }

        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let existing = document.entries.filter { $0.name == name }
        var edited: [String]? = lines
        if existing.isEmpty {
            // Added at the end: only where the settings are a block mapping at the left margin.
            if document.entries.allSatisfy({ $0.keyLocation.column == 1 }),
               !text.contains(where: { $0 == "{" }) {
                if let line { edited!.append(line) }
            } else {
                edited = nil
            }
        } else if existing.allSatisfy({ $0.keyLocation.column == 1 && $0.location.line == $0.keyLocation.line
                                          && lines.indices.contains($0.keyLocation.line - 1) }) {
            for entry in existing.reversed() {
                let index = entry.keyLocation.line - 1
                if let line, entry.keyLocation.line == existing.first!.keyLocation.line {
                    edited![index] = line
                } else {
                    edited!.remove(at: index)
                }
            }
        } else {
            edited = nil
        }
        if let edited {
            let candidate = edited.isEmpty ? "" : edited.joined(separator: "\n") + "\n"
            if reads(candidate, file: file, as: expected) { return candidate }
        }
        // Written anew.
        var rewritten = "# Scanning settings for switchscan (`switchscan settings list` shows every name).\n"
        for (entryName, entryValue) in expected {
            rewritten += "\(entryName): \(SettingsDocument.yamlText(entryValue, shape: SettingNames.shape(of: entryName) ?? shape))\n"
        }
        guard reads(rewritten, file: file, as: expected) else {
            throw EditError(message: "internal error: the settings written anew do not read back")
        }
        return rewritten
    }

    /// What `repairing` made: the new text, and the problems left in lines it kept as they were.
    public struct Repair: Sendable {
        public var text: String
        public var remaining: [SceneProblem]
    }

    /// The text of a settings file that does not load (a bad value, a line that is no YAML, an
    /// unknown name), with `name` set to `value` (or removed when `value` is nil), changing
    /// nothing else: the lines that name `name` at the left margin (`name: …`, `name …`, and
    /// the indented lines under one) are replaced by one `name: value` line where the first
    /// was, or added at the end; every other byte is kept, comments and other bad lines
    /// included (their problems come back in `remaining`). The value is checked as `editing`
    /// checks it. Line ends are kept; a new line takes the file's first line end (LF or CRLF).
    public static func repairing(_ current: String, file: String, name: String, value: StateValue?) throws(EditError) -> Repair {
        guard let shape = SettingNames.shape(of: name) else {
            let names = SettingNames.shapes.map(\.name)
            throw EditError(message: "unknown setting '\(name)'; settings: \(names.joined(separator: ", "))")
        }
        let newLine = try value.map { value throws(EditError) in try checkedLine(name: name, value: value, shape: shape, file: file) }
        // Lines with their own ends (LF, CRLF, or none at the end), so that kept lines are
        // written back byte for byte.
        var lines = [(body: String, end: String)]()
        var rest = Substring(current)
        while !rest.isEmpty {
            if let newline = rest.firstIndex(where: { $0 == "\n" || $0 == "\r\n" }) {
                lines.append((String(rest[..<newline]), String(rest[newline])))
                rest = rest[rest.index(after: newline)...]
            } else {
                lines.append((String(rest), ""))
                rest = ""
            }
        }
        let lineEnd = lines.first(where: { !$0.end.isEmpty })?.end ?? "\n"
        // A byte order mark before the first line stays where it is.
        func namesSetting(_ body: String) -> Bool {
            let body = DocumentText.withoutByteOrderMark(body)
            guard body.hasPrefix(name) else { return false }
            let after = body.dropFirst(name.count)
            return after.isEmpty || after.first == ":" || after.first == " " || after.first == "\t"
        }
        var kept = [(body: String, end: String)]()
        var replaced = false
        var inside = false
        for line in lines {
            if namesSetting(line.body) {
                inside = true
                if !replaced, let newLine {
                    let mark = line.body.unicodeScalars.first == "\u{FEFF}" ? "\u{FEFF}" : ""
                    kept.append((mark + newLine, line.end.isEmpty ? lineEnd : line.end))
                }
                replaced = true
                continue
            }
            // Indented lines under the setting's line belong to it (a value written on several lines).
            if inside, let first = line.body.first, first == " " || first == "\t" { continue }
            inside = false
            kept.append(line)
        }
        if !replaced, let newLine {
            if let last = kept.indices.last, kept[last].end.isEmpty { kept[last].end = lineEnd }
            kept.append((newLine, lineEnd))
        }
        let text = kept.map { $0.body + $0.end }.joined()
        let remaining: [SceneProblem]
        switch settings(yaml: text, file: file, base: ScanSettings()) {
        case .success: remaining = []
        case .failure(let error): remaining = error.problems
        }
        return Repair(text: text, remaining: remaining)
    }

    /// The line `name: value`, checked by reading it alone as a file would be read (the same
    /// messages as for a file).
    private static func checkedLine(name: String, value: StateValue, shape: SettingShape, file: String) throws(EditError) -> String {
        let line = "\(name): \(SettingsDocument.yamlText(value, shape: shape))"
        switch settings(yaml: line + "\n", file: file, base: ScanSettings()) {
        case .success(let (_, document)) where document.entries.count == 1 && document.entries[0].value == value:
            return line
        case .success:
            throw EditError(message: "\(name): \(value) is not a value a settings file can hold as written")
        case .failure(let error):
            throw EditError(message: "\(name) \(SettingsDocument.yamlText(value, shape: shape)): \(error.problems.map(\.message).joined(separator: "; "))")
        }
    }

    private static func reads(_ text: String, file: String, as expected: [(String, StateValue)]) -> Bool {
        guard case .success(let (_, document)) = settings(yaml: text, file: file, base: ScanSettings()) else { return false }
        return document.entries.count == expected.count
            && zip(document.entries, expected).allSatisfy { $0.name == $1.0 && $0.value == $1.1 }
    }
}

extension ScanSettings {
    /// A setting's value by its name, as a settings file writes it (`off` for a time switched
    /// off); nil for an unknown name.
    public func value(named name: String) -> StateValue? {
        func seconds(_ value: Double?) -> StateValue { value.map(StateValue.number) ?? .bool(false) }
        switch name {
        case "scanning": return .string(scanning.rawValue)
        case "autoScanningTime": return .number(autoScanningTime)
        case "pauseOnFirstItem": return seconds(pauseOnFirstItem)
        case "loops": return .number(Double(loops))
        case "moveRepeat": return seconds(moveRepeat)
        case "longPress": return seconds(longPress)
        case "holdDuration": return seconds(holdDuration)
        case "ignoreRepeat": return seconds(ignoreRepeat)
        case "tapBehavior": return .string(tapBehavior.rawValue)
        case "autoTapTime": return .number(autoTapTime)
        case "focusedItemAfterTap": return .string(focusedItemAfterTap.rawValue)
        case "groupItems": return .bool(groupItems)
        case "learnSelections": return .bool(learnSelections)
        case "orderByFrequency": return .bool(orderByFrequency)
        case "dwellTime": return .number(dwellTime)
        case "debounceTime": return seconds(debounceTime)
        case "minimumDisplayTime": return seconds(minimumDisplayTime)
        case "brailleHints": return .bool(brailleHints)
        case "flashDuration": return .number(flashDuration)
        case "brailleCursor": return .string(brailleCursor.rawValue)
        case "brailleReadingSpeed": return .number(brailleReadingSpeed)
        case "brailleCode": return .string(brailleCode.rawValue)
        case "brailleRoleFirst": return .bool(brailleRoleFirst)
        case "brailleTables": return .string(BrailleTableSetting.text(brailleTables))
        case "keyboardLayout": return .string(keyboardLayout.rawValue)
        default: return nil
        }
    }
}
