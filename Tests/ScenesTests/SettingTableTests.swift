import AccessibilityModel
import Scenes
import Testing

/// The one settings table: every field of `ScanSettings` has its row, and each row reads and
/// writes its own field, so that the scene reader, settings files, `--set`, `switchscan settings`
/// and the manual page (all of which read the table) cover every setting.
@Suite("Settings table")
struct SettingTableTests {
    /// The stored fields of `ScanSettings` by name, with their values as text.
    static func fields(_ settings: ScanSettings) -> [String: String] {
        var fields = [String: String]()
        for child in Mirror(reflecting: settings).children {
            if let label = child.label { fields[label] = String(describing: child.value) }
        }
        return fields
    }

    @Test("every field of ScanSettings has one row, named as the field")
    func everyFieldHasARow() {
        let names = SettingTable.names
        #expect(Set(names).count == names.count, "a name twice: \(names)")
        #expect(Set(names) == Set(Self.fields(ScanSettings()).keys),
                "fields without a row: \(Set(Self.fields(ScanSettings()).keys).subtracting(names).sorted()); rows without a field: \(Set(names).subtracting(Self.fields(ScanSettings()).keys).sorted())")
    }

    /// A value other than the default, of the row's shape and inside its range.
    static func otherValue(_ setting: Setting) -> StateValue? {
        let current = setting.defaultValue
        switch setting.shape {
        case .choice(let options): return options.map(StateValue.string).first { $0 != current }
        case .bool:
            guard case .bool(let flag) = current else { return nil }
            return .bool(!flag)
        case .seconds, .rate, .count:
            guard let range = setting.range else { return nil }
            return current == .number(range.upperBound) ? .number(range.lowerBound) : .number(range.upperBound)
        case .secondsOrOff:
            guard let range = setting.range else { return nil }
            return current == .bool(false) ? .number(range.upperBound) : .bool(false)
        case .brailleTables: return .string("fr=fr-bfu-comp6.utb")
        }
    }

    @Test("setting a row changes its own field and no other, and reads back")
    func eachRowWritesItsOwnField() throws {
        let defaults = Self.fields(ScanSettings())
        for setting in SettingTable.rows {
            let value = try #require(Self.otherValue(setting), "no other value for \(setting.name)")
            var settings = ScanSettings()
            try settings.set(setting.name, value)
            let changed = Self.fields(settings).filter { defaults[$0.key] != $0.value }.map(\.key)
            #expect(changed == [setting.name], "\(setting.name) = \(value) changed \(changed)")
            #expect(settings.value(named: setting.name) == value, "\(setting.name) reads back \(String(describing: settings.value(named: setting.name)))")
        }
    }

    @Test("every number has a range, and every default is a value its own row accepts")
    func defaultsAreAccepted() {
        for setting in SettingTable.rows {
            switch setting.shape {
            case .seconds, .rate, .count, .secondsOrOff: #expect(setting.range != nil, "\(setting.name) has no range")
            default: #expect(setting.range == nil, "\(setting.name) is no number but has a range")
            }
            #expect(setting.problem(setting.defaultValue) == nil, "\(setting.name)'s default \(setting.defaultValue): \(setting.problem(setting.defaultValue) ?? "")")
            #expect(!setting.summary.isEmpty, "\(setting.name) has no summary")
        }
    }
}
