import AccessibilityModel
import ArgumentParser
import Foundation
import Scenes

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a screen's scan items in order, as Accessibility Inspector would.",
        discussion: """
            Each entry shows its id, label, value, hint, traits and frame, a declared activation \
            point, custom actions and custom content (important content marked); groups \
            (combined, or automatic containers kept together) list their own entries indented \
            below them.
            """)

    @Argument(help: "The scene file.", completion: Completions.scenes)
    var scene: String

    @Option(help: "The screen to inspect (default: the scene's start screen).")
    var screen: String?

    @Option(name: .customLong("state"), help: ArgumentHelp("Override a state value (repeatable).", valueName: "name=value"))
    var stateOverrides: [String] = []

    @Flag(help: "Print JSON: for each entry its id, label, value, traits, frame, activation point, custom actions and content, and group, with a group's items nested.")
    var json = false

    func run() throws {
        let scene: Scene
        switch SceneFiles.load(self.scene) {
        case .success(let loaded): scene = loaded
        case .failure(let error):
            for problem in error.problems { printError(problem.description) }
            throw ExitCode.unloadable
        }
        let name = screen ?? scene.start
        var state = scene.initialState
        for override in stateOverrides {
            let (key, value) = try parseOverride(override, scene: scene)
            state[key] = value
        }
        guard let resolved = scene.screen(name, state: state) else {
            throw ValidationError("scene '\(scene.title)' has no screen '\(name)'; its screens are: \(scene.screens.map(\.name).joined(separator: ", "))")
        }
        let nodes = resolved.scanNodes()
        if json {
            let report = InspectionJSON(
                scene: scene.title, file: self.scene, screen: name, title: scene.screenTemplate(named: name)?.title,
                size: [scene.size.width, scene.size.height],
                items: nodes.map { InspectionJSON.Entry($0, group: nil) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(InspectionText.render(scene: scene, screen: name, nodes: nodes))
        }
    }

    func parseOverride(_ text: String, scene: Scene) throws -> (String, StateValue) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ValidationError("--state \(text): expected name=value")
        }
        let key = String(text[..<equals]), raw = String(text[text.index(after: equals)...])
        guard let declared = scene.initialState[key] else {
            throw ValidationError("--state \(text): the scene has no state named '\(key)' (it has: \(scene.stateNames.joined(separator: ", ")))")
        }
        switch declared {
        case .bool:
            guard raw == "true" || raw == "false" else { throw ValidationError("--state \(text): '\(key)' is a boolean; give true or false") }
            return (key, .bool(raw == "true"))
        case .number:
            guard let number = Double(raw) else { throw ValidationError("--state \(text): '\(key)' is a number") }
            return (key, .number(number))
        case .string:
            return (key, .string(raw))
        }
    }
}

/// The text report: one line per entry, groups indented.
enum InspectionText {
    static func render(scene: Scene, screen: String, nodes: [ScanNode]) -> String {
        var lines = [
            "\(scene.title) — screen \(screen)\(scene.screenTemplate(named: screen)?.title.map { " \"\($0)\"" } ?? "") (\(formatPoints(scene.size.width))×\(formatPoints(scene.size.height)))",
            "\(nodes.count) scan entries, \(nodes.flatMap(\.items).count) items",
        ]
        func add(_ node: ScanNode, number: String, depth: Int) {
            let indent = String(repeating: "  ", count: depth)
            let element = node.element
            var fields = [String]()
            if node.isGroup {
                fields.append("group \(element.id) (\(element.navigationStyle.rawValue))")
            } else {
                fields.append(element.id)
            }
            if let label = element.label { fields.append("label \(quoted(label))") }
            if let value = element.value { fields.append("value \(quoted(value))") }
            if let hint = element.hint { fields.append("hint \(quoted(hint))") }
            if !element.traits.isEmpty { fields.append("traits [\(element.traits.names.joined(separator: ", "))]") }
            if let frame = element.resolvedFrame { fields.append("frame \(frame)") }
            if let point = element.activationPoint { fields.append("activationPoint \(point)") }
            if !element.customActions.isEmpty {
                fields.append("actions [\(element.customActions.map(\.name).joined(separator: ", "))]")
            }
            if !element.customContent.isEmpty {
                let entries = element.customContent.map { "\($0.label): \($0.value)\($0.isImportant ? " (important)" : "")" }
                fields.append("content [\(entries.joined(separator: "; "))]")
            }
            if let language = element.language, language != scene.language { fields.append("language \(language)") }
            lines.append(indent + number + " " + fields.joined(separator: "  "))
            for (index, child) in node.children.enumerated() {
                add(child, number: "\(number).\(index + 1)", depth: depth + 1)
            }
        }
        for (index, node) in nodes.enumerated() { add(node, number: "\(index + 1)", depth: 0) }
        return lines.joined(separator: "\n")
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// The JSON report. Absent attributes are written as null so every entry has the same keys.
struct InspectionJSON: Encodable {
    var scene: String
    var file: String
    var screen: String
    var title: String?
    var size: [Double]
    var items: [Entry]

    enum CodingKeys: String, CodingKey { case scene, file, screen, title, size, items }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scene, forKey: .scene)
        try container.encode(file, forKey: .file)
        try container.encode(screen, forKey: .screen)
        try container.encode(title, forKey: .title)
        try container.encode(size, forKey: .size)
        try container.encode(items, forKey: .items)
    }

    struct Entry: Encodable {
        var kind: String
        var id: String
        var label: String?
        var value: String?
        var hint: String?
        var traits: [String]
        var language: String?
        var frame: [Double]?
        var group: String?
        var navigationStyle: String?
        var customActions: [String]
        /// Where a tap lands: the declared activation point, else the frame's centre.
        var activationPoint: [Double]?
        var customContent: [Content]
        var items: [Entry]?

        struct Content: Encodable {
            var label: String
            var value: String
            var important: Bool
        }

        init(_ node: ScanNode, group: String?) {
            let element = node.element
            kind = node.isGroup ? "group" : "item"
            id = element.id
            label = element.label
            value = element.value
            hint = element.hint
            traits = element.traits.names
            language = element.language
            frame = element.resolvedFrame.map { [$0.x, $0.y, $0.width, $0.height] }
            self.group = group
            navigationStyle = node.isGroup ? element.navigationStyle.rawValue : nil
            customActions = element.customActions.map(\.name)
            activationPoint = element.resolvedActivationPoint.map { [$0.x, $0.y] }
            customContent = element.customContent.map { Content(label: $0.label, value: $0.value, important: $0.isImportant) }
            items = node.isGroup ? node.children.map { Entry($0, group: element.id) } : nil
        }

        enum CodingKeys: String, CodingKey {
            case kind, id, label, value, hint, traits, language, frame, group, navigationStyle, customActions
            case activationPoint, customContent, items
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(id, forKey: .id)
            try container.encode(label, forKey: .label)
            try container.encode(value, forKey: .value)
            try container.encode(hint, forKey: .hint)
            try container.encode(traits, forKey: .traits)
            try container.encode(language, forKey: .language)
            try container.encode(frame, forKey: .frame)
            try container.encode(group, forKey: .group)
            try container.encode(customActions, forKey: .customActions)
            try container.encode(activationPoint, forKey: .activationPoint)
            try container.encode(customContent, forKey: .customContent)
            if let navigationStyle { try container.encode(navigationStyle, forKey: .navigationStyle) }
            if let items { try container.encode(items, forKey: .items) }
        }
    }
}
