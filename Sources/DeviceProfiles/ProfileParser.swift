import SwitchInput
import Documents

extension SwitchProfile {
    /// The keys a profile may have.
    public static let topLevelKeys = ["name", "description", "match", "pulseOnly", "switches"]
    /// The keys of one `match` entry.
    public static let matchKeys = ["bus", "vendor", "product", "name", "phys", "uniq"]
    /// The keys of one switch.
    public static let switchKeys = ["id", "code", "action", "longPressAction"]

    /// Largest profile accepted, in bytes.
    public static let maxBytes = 1 << 20
    /// Most YAML nodes visited (aliases count each time they are used).
    public static let maxNodes = 100_000

    /// Reads a profile from YAML text; `file` is used in messages and for `id`. Every problem is
    /// reported with its line and column, one problem per error. No I/O: callers read the file.
    public static func parse(yaml text: String, file: String) throws(ProfileLoadError) -> SwitchProfile {
        let reader = ProfileReader(file: file)
        let profile = reader.read(text)
        guard reader.problems.isEmpty, let profile else {
            throw ProfileLoadError(problems: reader.sortedProblems)
        }
        return profile
    }
}

/// Walks the YAML nodes; each `read…` reports what it rejects and returns nil, so one pass finds
/// every problem.
private final class ProfileReader: DocumentReader {
    init(file: String) {
        super.init(file: file, maxNodes: SwitchProfile.maxNodes, maxStringLength: 1000)
    }

    // MARK: The profile

    func read(_ text: String) -> SwitchProfile? {
        guard let root = readDocument(text, maxBytes: SwitchProfile.maxBytes, expected: "a profile (a mapping with name and switches)") else { return nil }
        guard let pairs = mapping(root, "the profile") else { return nil }
        let keys = checkKeys(pairs, allowed: SwitchProfile.topLevelKeys, in: "a profile")

        let name = required(keys, "name", in: root, "the interface's name").flatMap { string($0, "name") }
        let description = keys["description"].flatMap { string($0, "description") }
        var pulseOnly = false
        if let node = keys["pulseOnly"] {
            guard let value = bool(node, "pulseOnly") else { return nil }
            pulseOnly = value
        }
        let matching = keys["match"].map(readMatching) ?? .manual
        var switches: [SwitchProfile.Switch]?
        if let node = required(keys, "switches", in: root, "a list of switches ({id, code, action})") {
            switches = readSwitches(node, pulseOnly: pulseOnly)
        }
        guard let name, let matching, let switches, problems.isEmpty else { return nil }
        return SwitchProfile(name: name, description: description, matching: matching, pulseOnly: pulseOnly, switches: switches, file: file)
    }


    // MARK: match

    /// `match:` is one entry, a list of entries, or `generic`.
    func readMatching(_ node: DocumentNode) -> SwitchProfile.Matching? {
        switch node {
        case .scalar(let text, _, _):
            if text == "generic" { return .generic }
            report(node, "match is a mapping {bus, vendor, product, name}, a list of them, or 'generic'; found \(describe(node))")
            return nil
        case .mapping:
            return readMatch(node).map { .devices([$0]) }
        case .sequence(let items, _):
            guard visit(node) else { return nil }
            if items.isEmpty {
                report(node, "match is an empty list; give at least one {bus, vendor, product, name}, or leave match out")
                return nil
            }
            let matches = items.compactMap(readMatch)
            return matches.count == items.count ? .devices(matches) : nil
        }
    }

    func readMatch(_ node: DocumentNode) -> SwitchProfile.Match? {
        guard let pairs = mapping(node, "a match") else { return nil }
        let keys = checkKeys(pairs, allowed: SwitchProfile.matchKeys, in: "a match")
        var match = SwitchProfile.Match()
        var ok = true
        if let busNode = keys["bus"] {
            if let text = string(busNode, "bus") {
                if let bus = BusType.value(named: text) { match.bus = bus } else {
                    let names = BusType.names.map(\.name)
                    report(busNode, "unknown bus '\(text)'\(suggestion(text, among: names)); expected a bus name (usb, bluetooth, i8042, virtual, …) or four hex digits")
                    ok = false
                }
            } else {
                ok = false
            }
        }
        for (key, path) in [("vendor", \SwitchProfile.Match.vendor), ("product", \SwitchProfile.Match.product)] {
            guard let valueNode = keys[key] else { continue }
            guard let text = string(valueNode, key) else { ok = false; continue }
            guard let value = parseHexID(text) else {
                report(valueNode, "\(key) '\(text)' is not a 16-bit hex id; write four hex digits in quotes, such as \"0c45\"")
                ok = false
                continue
            }
            match[keyPath: path] = value
        }
        match.name = keys["name"].flatMap { string($0, "the device name") }
        match.phys = keys["phys"].flatMap { string($0, "phys") }
        match.uniq = keys["uniq"].flatMap { string($0, "uniq") }
        if (keys["vendor"] == nil) != (keys["product"] == nil) {
            let given = keys["vendor"] == nil ? "product" : "vendor"
            let missing = given == "vendor" ? "product" : "vendor"
            report(node, "a match with \(given) needs \(missing) too: vendor and product identify a model together")
            ok = false
        }
        if keys["vendor"] == nil, keys["product"] == nil, keys["name"] == nil, keys["phys"] == nil, keys["uniq"] == nil {
            report(node, "a match needs vendor and product, or name (bus, phys and uniq narrow them down)")
            ok = false
        }
        return ok ? match : nil
    }

    // MARK: switches

    func readSwitches(_ node: DocumentNode, pulseOnly: Bool) -> [SwitchProfile.Switch]? {
        guard let items = sequence(node, "switches") else { return nil }
        if items.isEmpty {
            report(node, "switches is empty; a profile needs at least one switch")
            return nil
        }
        var switches = [SwitchProfile.Switch]()
        var idLines = [String: Int]()
        var codeLines = [UInt16: (line: Int, id: String)]()
        var ok = true
        for item in items {
            guard let entry = readSwitch(item, pulseOnly: pulseOnly) else { ok = false; continue }
            let line = Int(item.position.line)
            if let first = idLines[entry.value.id] {
                report(entry.idNode, "switch id '\(entry.value.id)' is used twice (first at line \(first)); each switch needs its own id")
                ok = false
                continue
            }
            if let first = codeLines[entry.value.code] {
                report(entry.codeNode, "code \(entry.value.codeName) is already switch '\(first.id)' (line \(first.line)); a code belongs to one switch")
                ok = false
                continue
            }
            idLines[entry.value.id] = line
            codeLines[entry.value.code] = (line, entry.value.id)
            switches.append(entry.value)
        }
        return ok ? switches : nil
    }

    func readSwitch(_ node: DocumentNode, pulseOnly: Bool) -> (value: SwitchProfile.Switch, idNode: DocumentNode, codeNode: DocumentNode)? {
        guard let pairs = mapping(node, "a switch") else { return nil }
        let keys = checkKeys(pairs, allowed: SwitchProfile.switchKeys, in: "a switch")
        let idNode = required(keys, "id", in: node, "the switch's name (letters, digits, '-', '_', '.')")
        let id = idNode.flatMap { idNode -> String? in
            guard let id = string(idNode, "id") else { return nil }
            guard isValidID(id) else {
                report(idNode, "switch id '\(id)' must start with a letter or digit and use letters, digits, '-', '_' or '.'")
                return nil
            }
            return id
        }
        let codeNode = required(keys, "code", in: node, "an evdev key name such as KEY_SPACE or BTN_TRIGGER")
        let code = codeNode.flatMap(readCode)
        let action = required(keys, "action", in: node, "the switch action (\(actionNames))").flatMap { switchAction($0, "action") }
        var longPressAction: SwitchAction?
        if let longNode = keys["longPressAction"] {
            longPressAction = switchAction(longNode, "longPressAction")
            if longPressAction == nil { return nil }
            if pulseOnly {
                report(longNode, "longPressAction cannot be used with pulseOnly: true; a pulse-only interface sends no release, so a press has no length")
                return nil
            }
        }
        guard let id, let idNode, let code, let codeNode, let action else { return nil }
        return (SwitchProfile.Switch(id: id, code: code.code, codeName: code.name, action: action, longPressAction: longPressAction), idNode, codeNode)
    }

    /// A key name (`KEY_SPACE`, `BTN_TRIGGER`, an alias such as `BTN_A`) or a code number.
    func readCode(_ node: DocumentNode) -> (code: UInt16, name: String)? {
        guard let text = string(node, "code") else { return nil }
        if let code = KeyCodes.code(named: text) { return (code, text) }
        // A code number: only digits, at most three of them, so the conversion cannot overflow.
        if let scalar = node.asScalar, scalar.isPlain, (1...3).contains(text.utf8.count),
           text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = UInt16(text), number <= 0x2ff {
            return (number, KeyCodes.name(for: number) ?? text)
        }
        if text.hasPrefix("KEY_") || text.hasPrefix("BTN_") {
            report(node, "unknown key code '\(text)'\(suggestion(text, among: KeyCodes.allNames)); names are those of <linux/input-event-codes.h>")
        } else if let upper = KeyCodes.code(named: "KEY_" + text.uppercased()).map({ _ in "KEY_" + text.uppercased() }) {
            report(node, "code '\(text)' is not an evdev key name (did you mean '\(upper)'?)")
        } else {
            report(node, "code '\(text)' is not an evdev key name: expected KEY_… or BTN_… (as `switchscan devices` or evtest show them) or a code number up to 767")
        }
        return nil
    }

    var actionNames: String { SwitchAction.allCases.map(\.rawValue).joined(separator: ", ") }

    func switchAction(_ node: DocumentNode, _ what: String) -> SwitchAction? {
        guard let name = string(node, what) else { return nil }
        if let action = SwitchAction(rawValue: name) { return action }
        let names = SwitchAction.allCases.map(\.rawValue)
        report(node, "unknown \(what) '\(name)'\(suggestion(name, among: names)); expected one of: \(actionNames)")
        return nil
    }

    func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, first.properties.isAlphabetic || ("0"..."9").contains(first) else { return false }
        return id.count <= 64 && id.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
    }
}
