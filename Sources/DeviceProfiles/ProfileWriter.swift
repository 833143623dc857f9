import Documents

extension SwitchProfile {
    /// The profile as YAML that `parse(yaml:file:)` reads back to an equal profile (but for
    /// `file`). `comments` become `# ` lines at the top (what it was learned from, and when).
    public func yamlText(comments: [String] = []) -> String {
        var lines = comments.map { $0.isEmpty ? "#" : "# " + $0.replacingNewlines() }
        lines.append("name: \(yamlQuoted(name))")
        if let description { lines.append("description: \(yamlQuoted(description))") }
        switch matching {
        case .manual:
            break
        case .generic:
            lines.append("match: generic")
        case .devices(let matches):
            lines.append("match:")
            for match in matches {
                var fields = [String]()
                if let bus = match.bus { fields.append("bus: \(BusType.names.contains { $0.value == bus } ? BusType.name(bus) : yamlQuoted(hex4(bus)))") }
                if let vendor = match.vendor { fields.append("vendor: \(yamlQuoted(hex4(vendor)))") }
                if let product = match.product { fields.append("product: \(yamlQuoted(hex4(product)))") }
                if let name = match.name { fields.append("name: \(yamlQuoted(name))") }
                if let phys = match.phys { fields.append("phys: \(yamlQuoted(phys))") }
                if let uniq = match.uniq { fields.append("uniq: \(yamlQuoted(uniq))") }
                for (index, field) in fields.enumerated() {
                    lines.append((index == 0 ? "  - " : "    ") + field)
                }
            }
        }
        lines.append("pulseOnly: \(pulseOnly)")
        lines.append("switches:")
        for entry in switches {
            lines.append("  - id: \(yamlQuoted(entry.id))")
            let codeName = KeyCodes.code(named: entry.codeName) == entry.code ? entry.codeName : (KeyCodes.name(for: entry.code) ?? String(entry.code))
            lines.append("    code: \(codeName)")
            lines.append("    action: \(entry.action.rawValue)")
            if let longPressAction = entry.longPressAction {
                lines.append("    longPressAction: \(longPressAction.rawValue)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A YAML double-quoted scalar: `"PCsensor \"Foot\" Switch"`.
func yamlQuoted(_ text: String) -> String {
    YAMLText.quoted(text)
}

extension String {
    func replacingNewlines() -> String {
        String(unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}
