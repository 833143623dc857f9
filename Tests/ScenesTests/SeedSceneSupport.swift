import AccessibilityModel
import Foundation
import Scenes
import Testing

/// The repository's Scenarios folder, found from this file's path.
let scenariosFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scenarios")

func loadSeedScene(_ name: String) throws -> Scene {
    let url = scenariosFolder.appendingPathComponent(name)
    let text = try String(contentsOf: url, encoding: .utf8)
    return try SceneParser.parse(yaml: text, file: "Scenarios/\(name)")
}

/// The scan structure as one line: items by id, combined groups as `[group: child, child]`,
/// automatic groups (when kept) as `{group: child, child}`.
func outline(_ nodes: [ScanNode]) -> String {
    nodes.map { node -> String in
        guard node.isGroup else { return node.id }
        let inner = outline(node.children)
        return node.element.navigationStyle == .combined ? "[\(node.id): \(inner)]" : "{\(node.id): \(inner)}"
    }.joined(separator: ", ")
}

func resolved(_ scene: Scene, _ screen: String, _ overrides: [String: StateValue] = [:]) throws -> Screen {
    var state = scene.initialState
    state.merge(overrides) { $1 }
    return try #require(scene.screen(screen, state: state), "no screen \(screen) in \(scene.file)")
}

/// Activates an element as the scanner's Tap does: its own `activate`, else a tap at its
/// activation point. Returns the notifications posted.
@discardableResult
func activate(_ id: ElementID, in scene: Scene, state: inout SceneState) throws -> [AccessibilityNotification] {
    let screen = try #require(state.resolvedScreen(in: scene))
    let element = try #require(findElement(id, in: screen.root), "no element \(id) on \(screen.name)")
    guard let target = Activation.target(of: element, in: screen.root), let effects = target.activate else { return [] }
    return state.perform(effects)
}

func findElement(_ id: ElementID, in root: Element) -> Element? {
    if root.id == id { return root }
    for child in root.children {
        if let found = findElement(id, in: child) { return found }
    }
    return nil
}
