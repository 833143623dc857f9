import SwitchInput
import Documents

/// A braille display profile (`Devices/braille/*.yaml`, described in `Devices/braille/README.md`):
/// the model, BRLTTY's driver, how it connects, and which BRLTTY commands its keys send — the
/// pan keys, and the commands that may act as switches (some bound to a switch action).
///
/// ```yaml
/// name: Baum VarioConnect
/// brltty: {driver: bm, keyTables: [bm/connect.ktb]}
/// cells: [24, 32, 40]
/// connections:
///   usb: [{vendor: "0904", product: "2007", model: "VarioConnect 40"}]
///   bluetooth: ["VarioConnect"]
/// routingKeys: true
/// pan:
///   left: {command: FWINLT, keys: [Display2]}
///   right: {command: FWINRT, keys: [Display5]}
/// switches:
///   - {command: LNUP, keys: [Display4], action: previous}
///   - {command: RETURN, keys: [Press]}
/// ```
///
/// Commands are BRLTTY's names as BrlAPI delivers them in tty mode (`commandNames`); a command is
/// one switch, whatever keys send it (BrlAPI cannot tell them apart).
public struct BrailleDisplayProfile: Hashable, Sendable {
    /// A USB id BRLTTY's driver claims for the model, with BRLTTY's label for it.
    public struct USBModel: Hashable, Sendable {
        public var vendor: UInt16
        public var product: UInt16
        public var model: String?

        public init(vendor: UInt16, product: UInt16, model: String? = nil) {
            self.vendor = vendor
            self.product = product
            self.model = model
        }
    }

    /// A BRLTTY command, the keys that send it with the model's default key table, and the
    /// switch action it triggers (nil: available, not bound).
    public struct Command: Hashable, Sendable {
        public var command: String
        public var keys: [String]
        public var action: SwitchAction?

        public init(command: String, keys: [String], action: SwitchAction? = nil) {
            self.command = command
            self.keys = keys
            self.action = action
        }
    }

    public var name: String
    /// BRLTTY's braille driver code (`bm`, `fs`…).
    public var driver: String
    /// BRLTTY's key tables for the model (for reference; BRLTTY chooses).
    public var keyTables: [String]
    /// The text cell counts the model comes in; empty when only the display says.
    public var cells: [Int]
    public var usb: [USBModel]
    /// Bluetooth device-name prefixes BRLTTY maps to the driver.
    public var bluetooth: [String]
    /// Whether the model has a routing key over each cell.
    public var routingKeys: Bool
    public var panLeft: Command
    public var panRight: Command
    /// Commands that may act as switches, in file order.
    public var switches: [Command]
    /// The file it was read from (for messages).
    public var file: String

    public init(name: String, driver: String, keyTables: [String] = [], cells: [Int] = [], usb: [USBModel] = [],
                bluetooth: [String] = [], routingKeys: Bool = true, panLeft: Command, panRight: Command,
                switches: [Command] = [], file: String = "") {
        self.name = name
        self.driver = driver
        self.keyTables = keyTables
        self.cells = cells
        self.usb = usb
        self.bluetooth = bluetooth
        self.routingKeys = routingKeys
        self.panLeft = panLeft
        self.panRight = panRight
        self.switches = switches
        self.file = file
    }

    /// The file name without folder and extension (`baum-varioconnect`).
    public var id: String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        for suffix in [".yaml", ".yml"] where base.hasSuffix(suffix) { return String(base.dropLast(suffix.count)) }
        return base
    }

    /// The commands bound to a switch action, by BRLTTY name.
    public var bindings: [String: SwitchAction] {
        var result = [String: SwitchAction]()
        for entry in switches { if let action = entry.action { result[entry.command] = action } }
        return result
    }

    /// Every command the profile names (pan and switches).
    public var commands: [String] { [panLeft.command, panRight.command] + switches.map(\.command) }

    /// The BRLTTY commands a profile may name: those a BrlAPI client receives in tty mode without
    /// an argument (`ROUTE`, the routing keys, is `routingKeys`).
    public static let commandNames = [
        "FWINLT", "FWINRT", "LNUP", "LNDN", "TOP", "BOT", "CHRLT", "CHRRT", "HWINLT", "HWINRT",
        "LNBEG", "LNEND", "HOME", "BACK", "RETURN", "CSRTRK",
    ]

    public static let topLevelKeys = ["name", "brltty", "cells", "connections", "routingKeys", "pan", "switches"]
    public static let brlttyKeys = ["driver", "keyTables"]
    public static let connectionKeys = ["usb", "bluetooth"]
    public static let usbKeys = ["vendor", "product", "model"]
    public static let panKeys = ["left", "right"]
    public static let commandKeys = ["command", "keys", "action"]

    /// Largest profile accepted, in bytes.
    public static let maxBytes = 1 << 20
    /// Most YAML nodes visited (aliases count each time they are used).
    public static let maxNodes = 100_000

    /// Reads a profile from YAML text; `file` is used in messages and for `id`. Every problem is
    /// reported with its line and column (`file:line:column: error: …`), all of them in one
    /// error. No I/O: callers read the file.
    public static func parse(yaml text: String, file: String) throws(ProfileLoadError) -> BrailleDisplayProfile {
        let reader = BrailleProfileReader(file: file)
        let profile = reader.read(text)
        guard reader.problems.isEmpty, let profile else {
            throw ProfileLoadError(problems: reader.sortedProblems)
        }
        return profile
    }

    /// BRLTTY's names of the braille drivers (what BrlAPI's `getDriverName` gives), by code.
    public static let driverNames: [String: String] = [
        "al": "Alva", "bm": "Baum", "bn": "BrailleNote", "eu": "EuroBraille", "fs": "FreedomScientific",
        "hm": "HIMS", "ht": "HandyTech", "hw": "HumanWare", "pm": "Papenmeier", "sk": "Seika",
    ]

    /// The key tables' names without folder and extension (`bm/connect.ktb` → `connect`).
    public var keyTableNames: [String] {
        keyTables.map { table in
            var name = table.split(separator: "/").last.map(String.init) ?? table
            if name.hasSuffix(".ktb") { name = String(name.dropLast(4)) }
            return name
        }
    }

    /// How well the display BrlAPI describes fits this model: `.keyTable`, `.name`, or nil.
    ///
    /// BRLTTY 6.5 gives the driver's name (`Baum`) and, as the model identifier, the name of the
    /// key table it chose for the model (`connect` for a VarioConnect, `orbit` for an Orbit
    /// Reader, `default` when it does not know the model). The driver must be the profile's (when
    /// its name is known); then the identifier is one of the profile's key tables (`.keyTable`),
    /// or starts with one of its Bluetooth names, USB model labels or its name (`.name`); all
    /// compared ignoring case. An empty identifier fits nothing.
    public func fit(driverName: String, modelIdentifier: String) -> Fit? {
        let driverName = driverName.trimmingSpaces.lowercased()
        if !driverName.isEmpty {
            let expected = (Self.driverNames[driver] ?? driver).lowercased()
            guard driverName == expected || driverName == driver.lowercased() else { return nil }
        }
        let identifier = modelIdentifier.trimmingSpaces.lowercased()
        guard !identifier.isEmpty else { return nil }
        if keyTableNames.contains(where: { $0.lowercased() == identifier }) { return .keyTable }
        let names = bluetooth + usb.compactMap(\.model) + [name]
        let named = names.contains { candidate in
            let candidate = candidate.trimmingSpaces.lowercased()
            return !candidate.isEmpty && identifier.hasPrefix(candidate)
        }
        return named ? .name : nil
    }

    /// How a profile fits a display; a key table beats a name.
    public enum Fit: Int, Hashable, Sendable, Comparable {
        case name = 1
        case keyTable = 2
        public static func < (a: Fit, b: Fit) -> Bool { a.rawValue < b.rawValue }
    }

    /// Whether the display fits this profile at all (`fit(driverName:modelIdentifier:)`).
    public func matches(driverName: String, modelIdentifier: String) -> Bool {
        fit(driverName: driverName, modelIdentifier: modelIdentifier) != nil
    }

    /// The profile that fits the display best: a key table's over a name's, then the first in
    /// `profiles`' order.
    public static func bestMatch(in profiles: [BrailleDisplayProfile], driverName: String, modelIdentifier: String) -> BrailleDisplayProfile? {
        var best: (profile: BrailleDisplayProfile, fit: Fit)?
        for profile in profiles {
            guard let fit = profile.fit(driverName: driverName, modelIdentifier: modelIdentifier) else { continue }
            if best == nil || fit > best!.fit { best = (profile, fit) }
        }
        return best?.profile
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first?.isWhitespace == true { scalars = scalars.dropFirst() }
        while scalars.last?.isWhitespace == true { scalars = scalars.dropLast() }
        return String(scalars)
    }
}

/// Walks the YAML nodes; each `read…` reports what it rejects and returns nil, so one pass finds
/// every problem (as `ProfileReader` does for switch profiles).
private final class BrailleProfileReader: DocumentReader {
    init(file: String) {
        super.init(file: file, maxNodes: BrailleDisplayProfile.maxNodes, maxStringLength: 1000)
    }

    // MARK: The profile

    func read(_ text: String) -> BrailleDisplayProfile? {
        guard let root = readDocument(text, maxBytes: BrailleDisplayProfile.maxBytes, expected: "a braille display profile (a mapping with name, brltty, pan and switches)") else { return nil }
        guard let pairs = mapping(root, "the profile") else { return nil }
        let keys = checkKeys(pairs, allowed: BrailleDisplayProfile.topLevelKeys, in: "a braille display profile")

        let name = required(keys, "name", in: root, "the display's name").flatMap { string($0, "name") }
        let brltty = required(keys, "brltty", in: root, "{driver, keyTables}: BRLTTY's driver code for the model").flatMap(readBRLTTY)
        var cells: [Int]? = []
        if let node = keys["cells"] { cells = readCells(node) }
        var connections: (usb: [BrailleDisplayProfile.USBModel], bluetooth: [String])? = ([], [])
        if let node = keys["connections"] { connections = readConnections(node) }
        var routingKeys: Bool? = true
        if let node = keys["routingKeys"] { routingKeys = bool(node, "routingKeys") }
        let pan = required(keys, "pan", in: root, "{left, right}: the commands of the pan keys").flatMap(readPan)
        var switches: [BrailleDisplayProfile.Command]? = []
        if let node = keys["switches"] { switches = readSwitches(node) }

        guard let name, let brltty, let cells, let connections, let routingKeys, let pan, let switches else { return nil }
        // A command is one switch: BrlAPI delivers the command, not the key.
        var seen = [String: String]()
        seen[pan.left.value.command] = "pan left"
        if let first = seen[pan.right.value.command] {
            report(pan.right.node, "command \(pan.right.value.command) is already \(first); pan left and right need two commands")
        }
        seen[pan.right.value.command] = seen[pan.right.value.command] ?? "pan right"
        for (entry, node) in zip(switches, switchNodes) {
            if let first = seen[entry.command] {
                report(node, "command \(entry.command) is already \(first); a command is one switch, whatever keys send it")
            } else {
                seen[entry.command] = "a switch (line \(Int(node.position.line)))"
            }
        }
        guard problems.isEmpty else { return nil }
        return BrailleDisplayProfile(
            name: name, driver: brltty.driver, keyTables: brltty.keyTables, cells: cells, usb: connections.usb,
            bluetooth: connections.bluetooth, routingKeys: routingKeys, panLeft: pan.left.value, panRight: pan.right.value,
            switches: switches, file: file)
    }


    // MARK: Parts

    func readBRLTTY(_ node: DocumentNode) -> (driver: String, keyTables: [String])? {
        guard let pairs = mapping(node, "brltty") else { return nil }
        let keys = checkKeys(pairs, allowed: BrailleDisplayProfile.brlttyKeys, in: "brltty")
        let driver = required(keys, "driver", in: node, "BRLTTY's braille driver code, such as bm or fs").flatMap { driverNode -> String? in
            guard let code = string(driverNode, "driver") else { return nil }
            guard code.count == 2, code.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) }) else {
                report(driverNode, "driver '\(code)' is not a BRLTTY braille driver code: two lower-case letters, as in brltty -b bm")
                return nil
            }
            return code
        }
        var keyTables: [String]? = []
        if let tablesNode = keys["keyTables"] { keyTables = stringList(tablesNode, "keyTables") }
        guard let driver, let keyTables else { return nil }
        return (driver, keyTables)
    }

    func readCells(_ node: DocumentNode) -> [Int]? {
        guard let items = sequence(node, "cells") else { return nil }
        var cells = [Int]()
        var ok = true
        for item in items {
            guard visit(item), let count = wholeNumber(item, "a cell count", in: 1...255) else {
                ok = false
                continue
            }
            cells.append(count)
        }
        return ok ? cells : nil
    }

    func readConnections(_ node: DocumentNode) -> (usb: [BrailleDisplayProfile.USBModel], bluetooth: [String])? {
        guard let pairs = mapping(node, "connections") else { return nil }
        let keys = checkKeys(pairs, allowed: BrailleDisplayProfile.connectionKeys, in: "connections")
        var usb: [BrailleDisplayProfile.USBModel]? = []
        if let usbNode = keys["usb"], let items = sequence(usbNode, "usb") {
            let models = items.compactMap(readUSB)
            usb = models.count == items.count ? models : nil
        } else if keys["usb"] != nil {
            usb = nil
        }
        var bluetooth: [String]? = []
        if let bluetoothNode = keys["bluetooth"] { bluetooth = stringList(bluetoothNode, "bluetooth") }
        guard let usb, let bluetooth else { return nil }
        return (usb, bluetooth)
    }

    func readUSB(_ node: DocumentNode) -> BrailleDisplayProfile.USBModel? {
        guard let pairs = mapping(node, "a USB id") else { return nil }
        let keys = checkKeys(pairs, allowed: BrailleDisplayProfile.usbKeys, in: "a USB id")
        var ids = [UInt16]()
        for key in ["vendor", "product"] {
            guard let valueNode = required(keys, key, in: node, "four hex digits in quotes, such as \"0904\""),
                  let text = string(valueNode, key) else { continue }
            guard let value = parseHexID(text) else {
                report(valueNode, "\(key) '\(text)' is not a 16-bit hex id; write four hex digits in quotes, such as \"0904\"")
                continue
            }
            ids.append(value)
        }
        let model = keys["model"].flatMap { string($0, "model") }
        guard ids.count == 2, keys["model"] == nil || model != nil else { return nil }
        return BrailleDisplayProfile.USBModel(vendor: ids[0], product: ids[1], model: model)
    }

    func readPan(_ node: DocumentNode) -> (left: (value: BrailleDisplayProfile.Command, node: DocumentNode), right: (value: BrailleDisplayProfile.Command, node: DocumentNode))? {
        guard let pairs = mapping(node, "pan") else { return nil }
        let keys = checkKeys(pairs, allowed: BrailleDisplayProfile.panKeys, in: "pan")
        let left = required(keys, "left", in: node, "{command, keys}: the pan-left key, usually FWINLT").flatMap { readCommand($0, pan: true) }
        let right = required(keys, "right", in: node, "{command, keys}: the pan-right key, usually FWINRT").flatMap { readCommand($0, pan: true) }
        guard let left, let right else { return nil }
        return ((left, keys["left"]!), (right, keys["right"]!))
    }

    /// The nodes of the switches read last, in order (for duplicate reports).
    private(set) var switchNodes: [DocumentNode] = []

    func readSwitches(_ node: DocumentNode) -> [BrailleDisplayProfile.Command]? {
        guard let items = sequence(node, "switches") else { return nil }
        var commands = [BrailleDisplayProfile.Command]()
        var ok = true
        for item in items {
            guard let command = readCommand(item, pan: false) else { ok = false; continue }
            commands.append(command)
            switchNodes.append(item)
        }
        return ok ? commands : nil
    }

    func readCommand(_ node: DocumentNode, pan: Bool) -> BrailleDisplayProfile.Command? {
        let what = pan ? "a pan key" : "a switch"
        guard let pairs = mapping(node, what) else { return nil }
        let keys = checkKeys(pairs, allowed: pan ? ["command", "keys"] : BrailleDisplayProfile.commandKeys, in: what)
        let names = BrailleDisplayProfile.commandNames
        let command = required(keys, "command", in: node, "a BRLTTY command name (\(names.joined(separator: ", ")))").flatMap { commandNode -> String? in
            guard let text = string(commandNode, "command") else { return nil }
            if names.contains(text) { return text }
            if text == "ROUTE" {
                report(commandNode, "ROUTE is the routing keys: say routingKeys: true instead")
            } else if names.contains(text.uppercased()) {
                report(commandNode, "unknown command '\(text)' (did you mean '\(text.uppercased())'?); BRLTTY's command names are upper case")
            } else {
                report(commandNode, "unknown command '\(text)'\(suggestion(text, among: names)); expected one of: \(names.joined(separator: ", "))")
            }
            return nil
        }
        let keyNames = required(keys, "keys", in: node, "the display's key names that send the command, such as [Display4]").flatMap { keysNode -> [String]? in
            guard let list = stringList(keysNode, "keys") else { return nil }
            if list.isEmpty {
                report(keysNode, "keys is empty; name at least one key that sends the command")
                return nil
            }
            return list
        }
        var action: SwitchAction?
        if let actionNode = keys["action"] {
            guard let name = string(actionNode, "action") else { return nil }
            guard let known = SwitchAction(rawValue: name) else {
                let actions = SwitchAction.allCases.map(\.rawValue)
                report(actionNode, "unknown action '\(name)'\(suggestion(name, among: actions)); expected one of: \(actions.joined(separator: ", "))")
                return nil
            }
            action = known
        }
        guard let command, let keyNames else { return nil }
        return BrailleDisplayProfile.Command(command: command, keys: keyNames, action: action)
    }
}
