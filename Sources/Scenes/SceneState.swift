import AccessibilityModel

/// The live part of a scene: its state values and the current screen. Effects change it and
/// return the notifications they post; the caller (the scanner's host) reacts to those.
public struct SceneState: Hashable, Sendable {
    public var values: [String: StateValue]
    public var screen: String

    public init(values: [String: StateValue], screen: String) {
        self.values = values
        self.screen = screen
    }

    public init(scene: Scene) {
        self.init(values: scene.initialState, screen: scene.start)
    }

    /// Runs the effects in order. `go` changes the screen and posts screenChanged; `announce`
    /// posts an announcement with its bindings rendered at that moment.
    public mutating func perform(_ effects: [Effect]) -> [AccessibilityNotification] {
        var posted = [AccessibilityNotification]()
        for effect in effects {
            switch effect {
            case .set(let assignments):
                for assignment in assignments { values[assignment.name] = assignment.value }
            case .toggle(let name):
                if case .bool(let value) = values[name] { values[name] = .bool(!value) }
            case let .add(name, amount, minimum, maximum):
                if case .number(let value) = values[name] {
                    var stepped = value + amount
                    if let minimum { stepped = max(minimum, stepped) }
                    if let maximum { stepped = min(maximum, stepped) }
                    values[name] = .number(stepped)
                }
            case .go(let name):
                screen = name
                posted.append(AccessibilityNotification(kind: .screenChanged))
            case .announce(let text):
                posted.append(AccessibilityNotification(kind: .announcement, text: render(text)))
            case .post(var notification):
                notification.text = notification.text.map(render)
                posted.append(notification)
            }
        }
        return posted
    }

    /// Renders a template that the loader has already checked.
    func render(_ text: String) -> String {
        (try? TextTemplate(parsing: text))?.render(values) ?? text
    }

    /// The current screen, resolved.
    public func resolvedScreen(in scene: Scene) -> Screen? {
        scene.screen(screen, state: values)
    }
}
