import DeviceProfiles
import Foundation
import SwitchInput
import Testing

/// The repository's Devices/braille: every profile loads, with the facts its README lists; and
/// the loader's problems are located (`file:line:column: error: …`).
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let brailleFolder = packageRoot.appendingPathComponent("Devices/braille")

private func shippedBrailleProfiles() throws -> [BrailleDisplayProfile] {
    let names = try FileManager.default.contentsOfDirectory(atPath: brailleFolder.path).filter { $0.hasSuffix(".yaml") }.sorted()
    return try names.map { name in
        let text = try String(contentsOf: brailleFolder.appendingPathComponent(name), encoding: .utf8)
        return try BrailleDisplayProfile.parse(yaml: text, file: "Devices/braille/\(name)")
    }
}

private func problems(_ yaml: String) -> [String] {
    do {
        _ = try BrailleDisplayProfile.parse(yaml: yaml, file: "d.yaml")
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

private let valid = """
    name: Test display
    brltty:
      driver: bm
      keyTables: [bm/connect.ktb]
    cells: [40]
    connections:
      usb:
        - {vendor: "0904", product: "2007", model: "VarioConnect 40"}
      bluetooth: ["VarioConnect"]
    routingKeys: true
    pan:
      left: {command: FWINLT, keys: [Display2]}
      right: {command: FWINRT, keys: [Display5]}
    switches:
      - {command: LNUP, keys: [Display4], action: previous}
      - {command: RETURN, keys: [Press]}

    """

@Suite struct BrailleDisplayProfileTests {
    @Test func everyShippedProfileLoads() throws {
        let profiles = try shippedBrailleProfiles()
        #expect(profiles.count == 23)
        #expect(Set(profiles.map(\.id)).count == 23)
        let drivers = Dictionary(grouping: profiles, by: \.driver).mapValues(\.count)
        #expect(drivers == ["al": 2, "bm": 5, "bn": 1, "eu": 1, "fs": 3, "hm": 2, "ht": 4, "hw": 3, "pm": 1, "sk": 1])
        for profile in profiles {
            #expect(profile.panLeft.command == "FWINLT", "\(profile.file)")
            #expect(profile.panRight.command == "FWINRT", "\(profile.file)")
            // The choice the README describes: line up/down are previous/next, nothing else bound.
            #expect(profile.bindings == ["LNUP": .previous, "LNDN": .next], "\(profile.file)")
            #expect(profile.commands.allSatisfy(BrailleDisplayProfile.commandNames.contains))
            #expect(!profile.keyTables.isEmpty, "\(profile.file)")
        }
    }

    @Test func theVarioConnectAsWritten() throws {
        let profile = try #require(try shippedBrailleProfiles().first { $0.id == "baum-varioconnect" })
        #expect(profile.name == "Baum VarioConnect")
        #expect(profile.driver == "bm")
        #expect(profile.keyTableNames == ["connect", "conny"])
        #expect(profile.cells == [12, 24, 32, 40, 64, 80])
        #expect(profile.usb.first == .init(vendor: 0x0904, product: 0x2009, model: "VarioConnect 24"))
        #expect(profile.bluetooth == ["VarioConnect", "BrailleConnect"])
        #expect(profile.routingKeys)
        #expect(profile.panLeft == .init(command: "FWINLT", keys: ["Display2", "Left"]))
        #expect(profile.switches == [
            .init(command: "LNUP", keys: ["Display4", "Up"], action: .previous),
            .init(command: "LNDN", keys: ["Display6", "Down"], action: .next),
            .init(command: "RETURN", keys: ["Press"]),
        ])
    }

    @Test func aDisplayIsMatchedByDriverNameAndBRLTTYsModelIdentifier() throws {
        let profiles = try shippedBrailleProfiles()
        func match(_ driver: String, _ model: String) -> String? {
            BrailleDisplayProfile.bestMatch(in: profiles, driverName: driver, modelIdentifier: model)?.id
        }
        // BRLTTY 6.5 gives the key table's name as the model identifier.
        #expect(match("Baum", "connect") == "baum-varioconnect")
        #expect(match("Baum", "orbit") == "orbit-reader-20")
        #expect(match("Baum", "rb") == "aph-refreshabraille-18")
        #expect(match("FreedomScientific", "focus40") == "freedom-scientific-focus-40-blue")
        #expect(match("HumanWare", "BI14") == "humanware-brailliant-bi-14")
        // Or a model name.
        #expect(match("Baum", "VarioConnect 40") == "baum-varioconnect")
        // The driver must agree; an unknown model matches nothing.
        #expect(match("HandyTech", "connect") == nil)
        #expect(match("Baum", "default") == nil)
        #expect(match("Baum", "") == nil)
        #expect(profiles.first { $0.id == "freedom-scientific-focus-14-blue" }?.fit(driverName: "FreedomScientific", modelIdentifier: "focus40") == .name)
    }

    @Test func aValidProfileParses() throws {
        let profile = try BrailleDisplayProfile.parse(yaml: valid, file: "Devices/braille/test.yaml")
        #expect(profile.id == "test")
        #expect(profile.bindings == ["LNUP": .previous])
        #expect(profile.commands == ["FWINLT", "FWINRT", "LNUP", "RETURN"])
    }

    @Test func problemsAreLocated() {
        #expect(problems(valid.replacingOccurrences(of: "command: LNUP", with: "command: LINEUP")) == [
            "d.yaml:15:15: error: unknown command 'LINEUP' (did you mean 'LNUP'?); expected one of: FWINLT, FWINRT, LNUP, LNDN, TOP, BOT, CHRLT, CHRRT, HWINLT, HWINRT, LNBEG, LNEND, HOME, BACK, RETURN, CSRTRK",
        ])
        #expect(problems(valid.replacingOccurrences(of: "command: LNUP", with: "command: lnup")) == [
            "d.yaml:15:15: error: unknown command 'lnup' (did you mean 'LNUP'?); BRLTTY's command names are upper case",
        ])
        #expect(problems(valid.replacingOccurrences(of: "action: previous", with: "action: prev")) == [
            "d.yaml:15:47: error: unknown action 'prev'; expected one of: select, next, previous, menu, tap, escape, stop",
        ])
        #expect(problems(valid.replacingOccurrences(of: "action: previous", with: "action: previus")) == [
            "d.yaml:15:47: error: unknown action 'previus' (did you mean 'previous'?); expected one of: select, next, previous, menu, tap, escape, stop",
        ])
        #expect(problems(valid.replacingOccurrences(of: "  driver: bm", with: "  driver: Baum")) == [
            "d.yaml:3:11: error: driver 'Baum' is not a BRLTTY braille driver code: two lower-case letters, as in brltty -b bm",
        ])
        #expect(problems(valid.replacingOccurrences(of: "routingKeys", with: "routingkeys")) == [
            "d.yaml:10:1: error: unknown key 'routingkeys' in a braille display profile (did you mean 'routingKeys'?); expected one of: name, brltty, cells, connections, routingKeys, pan, switches",
        ])
        #expect(problems(valid.replacingOccurrences(of: "product: \"2007\"", with: "product: \"20071\"")) == [
            "d.yaml:8:33: error: product '20071' is not a 16-bit hex id; write four hex digits in quotes, such as \"0904\"",
        ])
        #expect(problems(valid.replacingOccurrences(of: "cells: [40]", with: "cells: [40, 0]")) == [
            "d.yaml:5:13: error: a cell count must be a whole number from 1 to 255; found 0",
        ])
        #expect(problems(valid.replacingOccurrences(of: "command: RETURN", with: "command: LNUP")) == [
            "d.yaml:16:5: error: command LNUP is already a switch (line 15); a command is one switch, whatever keys send it",
        ])
        #expect(problems(valid.replacingOccurrences(of: "command: RETURN", with: "command: ROUTE")) == [
            "d.yaml:16:15: error: ROUTE is the routing keys: say routingKeys: true instead",
        ])
        #expect(problems(valid.replacingOccurrences(of: "keys: [Press]", with: "keys: []")) == [
            "d.yaml:16:29: error: keys is empty; name at least one key that sends the command",
        ])
        let noPan = valid.components(separatedBy: "\n").filter { !$0.hasPrefix("pan") && !$0.hasPrefix("  left") && !$0.hasPrefix("  right") }
        #expect(problems(noPan.joined(separator: "\n")) == [
            "d.yaml:1:1: error: missing 'pan': expected {left, right}: the commands of the pan keys",
        ])
        let invalid = problems("name: [")
        #expect(invalid.count == 1 && invalid[0].hasPrefix("d.yaml:") && invalid[0].contains("error: invalid YAML: "), "\(invalid)")
        #expect(problems("") == ["d.yaml:1:1: error: the file is empty; expected a braille display profile (a mapping with name, brltty, pan and switches)"])
        // Every problem at once.
        #expect(problems(valid.replacingOccurrences(of: "action: previous", with: "action: x")
            .replacingOccurrences(of: "command: RETURN", with: "command: Y")).count == 2)
    }
}

// MARK: - The profiles' key claims against BRLTTY's own key tables

/// The bindings of BRLTTY's default context in a key table (`.ktb`) and what it includes
/// (`.kti`), read as BRLTTY 6.5's key table compiler reads them (Programs/ktb_compile.c):
/// `include` relative to the including file, the context restored after an include;
/// `assign`/`assignDefault` variables substituted as `\{name}`, scoped by
/// `beginVariables`/`endVariables`; `context NAME` switching where `bind` goes; in `bind KEYS
/// COMMAND` a `!` before a key (the key that runs the command on press) does not change which
/// keys they are. Conditional blocks (`ifKey`, `ifVar`, `ifPlatform`) are read as if true: a
/// claim could only be wrongly confirmed by a binding inside one, and none of the profiles'
/// bindings of single keys comes from one.
struct BRLTTYKeyTable {
    /// "Display2" → "FWINLT", "RoutingKey" → "ROUTE", "Dot1+Up" → …, in the default context.
    private(set) var bindings: [String: String] = [:]

    init(path: String) throws {
        var variables: [String: String] = [:]
        var scopes: [[String: String]] = []
        var context = "default"
        try read(path, &variables, &scopes, &context)
    }

    private mutating func read(_ path: String, _ variables: inout [String: String], _ scopes: inout [[String: String]],
                               _ context: inout String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        for raw in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            for (name, value) in variables { line = line.replacingOccurrences(of: "\\{\(name)}", with: value) }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            switch words[0].lowercased() {
            case "assign" where words.count >= 2:
                variables[words[1]] = words.count > 2 ? words[2] : ""
            case "assigndefault" where words.count >= 2:
                if variables[words[1]] == nil { variables[words[1]] = words.count > 2 ? words[2] : "" }
            case "beginvariables":
                scopes.append(variables)
            case "endvariables":
                if let saved = scopes.popLast() { variables = saved }
            case "context" where words.count >= 2:
                context = words[1]
            case "include" where words.count >= 2:
                let saved = context
                try read((folder as NSString).appendingPathComponent(words[1]), &variables, &scopes, &context)
                context = saved
            case "bind" where words.count >= 3 && context == "default":
                let keys = words[1].replacingOccurrences(of: "!", with: "")
                if bindings[keys] == nil { bindings[keys] = words[2] }
            default:
                break
            }
        }
    }

    /// Whether a routing key alone is ROUTE (`bind RoutingKey ROUTE`, `RoutingKey1` on
    /// displays with two rows of them).
    var bindsRoute: Bool {
        bindings.contains { keys, command in command == "ROUTE" && !keys.contains("+") && keys.hasPrefix("RoutingKey") }
    }
}

private let brlttyInputTables = "/etc/brltty/Input"

@Suite("Braille display profiles against BRLTTY's key tables",
       .enabled(if: FileManager.default.fileExists(atPath: brlttyInputTables + "/bm/orbit.ktb"), "BRLTTY's key tables are not installed"))
struct BrailleProfileKeyTableTests {
    @Test("Every profile's routing keys and key → command claims are what BRLTTY's tables bind")
    func claimsMatchBRLTTY() throws {
        for profile in try shippedBrailleProfiles() {
            #expect(!profile.keyTables.isEmpty, "\(profile.id): no key table")
            var tables = [BRLTTYKeyTable]()
            for name in profile.keyTables {
                let table = try BRLTTYKeyTable(path: brlttyInputTables + "/" + name)
                #expect(table.bindsRoute == profile.routingKeys,
                        "\(profile.id): routingKeys \(profile.routingKeys), but \(name) \(table.bindsRoute ? "binds" : "does not bind") ROUTE")
                tables.append(table)
            }
            for entry in [profile.panLeft, profile.panRight] + profile.switches {
                for key in entry.keys {
                    // Profiles covering variants (HIMS Braille Sense) name keys of each variant's table.
                    let bound = tables.compactMap { $0.bindings[key] }
                    #expect(bound.contains(entry.command),
                            "\(profile.id): \(key) is said to send \(entry.command); \(profile.keyTables) bind it to \(bound)")
                }
            }
        }
    }

    @Test("The Orbit Reader 20 has no routing keys; the Refreshabraille 18 (same driver) has")
    func orbitHasNoRoutingKeys() throws {
        let orbit = try BRLTTYKeyTable(path: brlttyInputTables + "/bm/orbit.ktb")
        #expect(!orbit.bindsRoute)
        #expect(orbit.bindings["Display2"] == "FWINLT" && orbit.bindings["Left"] == "FWINLT")
        #expect(orbit.bindings["Select"] == "RETURN")
        #expect(try BRLTTYKeyTable(path: brlttyInputTables + "/bm/rb.ktb").bindsRoute)
        let profile = try #require(try shippedBrailleProfiles().first { $0.id == "orbit-reader-20" })
        #expect(profile.routingKeys == false)
    }
}
