import AccessibilityModel
import Scenes

/// What the scanner operates: a scene file (`SceneContent`) or a running application. It gives
/// the current screen's elements as a scan structure, performs what the user chose on an
/// element, and says what changed as the scene's notifications do. `ScanSession` joins any of
/// them to the one engine, stabilisation, braille line and trace.
public protocol ScanContent: Sendable {
    /// What is scanned, for the terminal view's title.
    var title: String { get }
    /// The current screen (a scene's screen name; a live window's title).
    var screenName: String { get }
    /// The size of the whole screen, in the frames' coordinates.
    var size: (width: Double, height: Double) { get }
    /// The language of elements that name none.
    var language: String { get }
    /// The current screen's scan structure, as last built (or built now if nothing was kept).
    func currentStructure(groupItems: Bool) -> ScanStructure
    /// The scan structure for the content as it is now, kept for `currentStructure`.
    mutating func rebuildStructure(groupItems: Bool) -> ScanStructure
    /// Performs `command` on `element` (nil: on the screen). Nil when nothing handles it; else
    /// what changed as far as it is known now (a live application may answer later, through
    /// `ScanSession.contentChanged`).
    mutating func perform(_ command: ElementCommand, on element: Element?) -> ContentUpdate?

    // What a content may do besides (each has a default: it does not).

    /// Whether `perform` acts on something outside this value (a live application): a forecast,
    /// which works on a copy of the session, must not perform on it.
    var actsOutsideItself: Bool { get }
    /// The scene whose state the content keeps, for expectations (a live application: an empty
    /// scene with its title, size and language).
    var scene: Scene { get }
    /// The scene's state (values and screen), for expectations.
    var sceneState: SceneState { get }
    /// Builds the structure with `weights` (learnt selections) from the next rebuild on; true
    /// when that changes it. Called at calm points only (`ScanSession` says which).
    mutating func useLearnedWeights(_ weights: LearnedWeights?) -> Bool
    /// The highlight moved between items (`moves`, in order): the content runs its focus hooks
    /// (`didLoseFocus`, `didBecomeFocused`) as the app's own effects. Nil when it has none;
    /// else the hooks run, by name, and what changed (nothing ran: empty names).
    mutating func highlightMoved(_ moves: [HighlightMove]) -> (ran: [String], update: ContentUpdate)?
    /// The app changes by itself, with no user press (a timer of the app firing, data arriving):
    /// nil when the content has no such behaviour to run.
    mutating func runAppEffects(_ effects: [Effect]) -> ContentUpdate?
    /// The content as a target of the scanning keyboard's typing, when it has text fields that
    /// take typed text (a scene, a live application); nil when nothing here takes typed text.
    /// A requirement rather than a cast, so content wrapping another can pass its target on.
    var textEntryTarget: (any TextEntryTarget)? { get }
    /// The scanning keyboard, when the content is the keyboard open over a text field.
    var scanningKeyboard: KeyboardContent? { get }
}

extension ScanContent {
    public var actsOutsideItself: Bool { true }
    public var scene: Scene { Scene(title: title, size: size, language: language) }
    public var sceneState: SceneState { SceneState(values: [:], screen: screenName) }
    public mutating func useLearnedWeights(_ weights: LearnedWeights?) -> Bool { false }
    public mutating func highlightMoved(_ moves: [HighlightMove]) -> (ran: [String], update: ContentUpdate)? { nil }
    public mutating func runAppEffects(_ effects: [Effect]) -> ContentUpdate? { nil }
    public var textEntryTarget: (any TextEntryTarget)? { nil }
    public var scanningKeyboard: KeyboardContent? { nil }
}

/// The highlight left one item and landed on another (nil: none, or not an item).
public struct HighlightMove: Hashable, Sendable {
    public var lost: ElementID?
    public var gained: ElementID?

    public init(lost: ElementID?, gained: ElementID?) {
        self.lost = lost
        self.gained = gained
    }
}

/// What changed in the content: a new screen (its name), and the notifications posted.
public struct ContentUpdate: Hashable, Sendable {
    /// The new screen's name, when the screen changed.
    public var screen: String?
    public var notifications: [AccessibilityNotification]

    public init(screen: String? = nil, notifications: [AccessibilityNotification] = []) {
        self.screen = screen
        self.notifications = notifications
    }
}

extension ScanStructure {
    /// The scan structure of a resolved screen: the visibility rules, reading order and
    /// navigation styles, automatic grouping when `groupItems` is on (what a scene's screen gets).
    /// With `learned`: arranged for the weights (`LearnedWeights.arrange`).
    public static func of(_ screen: Screen, groupItems: Bool, learned: LearnedWeights? = nil) -> ScanStructure {
        var nodes = screen.scanNodes(groupAutomatic: groupItems)
        if let learned {
            nodes = learned.arrange(nodes, groupItems: groupItems)
        } else if groupItems {
            nodes = AutomaticGrouping.group(nodes)
        }
        return ScanSession.structure(of: screen, nodes: nodes)
    }
}

/// A scene file as scanned content: its state, its behaviour (effects), its structure cache.
public struct SceneContent: ScanContent {
    public let scene: Scene
    public private(set) var state: SceneState
    /// The structure last handed out and what it was built from.
    private var cache: StructureCache?
    /// The learnt weights the structure is arranged with (`learnSelections`); set by the session
    /// at calm points only, so a structure never changes under the user's highlight for it.
    public var learned: LearnedWeights?

    public init(scene: Scene, screen: String? = nil) {
        self.scene = scene
        self.state = SceneState(scene: scene)
        if let screen, scene.screenTemplate(named: screen) != nil { self.state.screen = screen }
    }

    public var title: String { scene.title }
    public var screenName: String { state.screen }
    public var size: (width: Double, height: Double) { scene.size }
    public var language: String { scene.language }
    /// A scene's behaviour runs on the value itself: a forecast may perform on a copy.
    public var actsOutsideItself: Bool { false }
    public var sceneState: SceneState { state }

    public mutating func useLearnedWeights(_ weights: LearnedWeights?) -> Bool {
        guard weights != learned else { return false }
        learned = weights
        return true
    }

    /// `didLoseFocus` of the item the highlight left, then `didBecomeFocused` of the one it
    /// landed on, for each move, run as the app's own effects.
    public mutating func highlightMoved(_ moves: [HighlightMove]) -> (ran: [String], update: ContentUpdate)? {
        guard !scene.focusHooks.isEmpty else { return nil }
        var effects = [Effect]()
        var named = [String]()
        for move in moves {
            if let lost = move.lost, let hooks = scene.focusHooks[lost], !hooks.didLoseFocus.isEmpty {
                effects += hooks.didLoseFocus
                named.append("\(lost) didLoseFocus")
            }
            if let gained = move.gained, let hooks = scene.focusHooks[gained], !hooks.didBecomeFocused.isEmpty {
                effects += hooks.didBecomeFocused
                named.append("\(gained) didBecomeFocused")
            }
        }
        guard !effects.isEmpty else { return ([], ContentUpdate()) }
        return (named, performByApp(effects))
    }

    public mutating func runAppEffects(_ effects: [Effect]) -> ContentUpdate? { performByApp(effects) }

    public func currentStructure(groupItems: Bool) -> ScanStructure {
        if let cache, cache.screen == state.screen, cache.groupItems == groupItems, cache.learned == learned,
           cache.currentValues(state.values) == cache.values {
            return cache.structure
        }
        return ScanSession.buildStructure(scene: scene, state: state, groupItems: groupItems, learned: learned)
    }

    /// The structure for the current state, reusing the last one as far as the change allows
    /// (`StructureCache`), and kept for the next rebuild.
    public mutating func rebuildStructure(groupItems: Bool) -> ScanStructure {
        if var cache, cache.screen == state.screen, cache.groupItems == groupItems, cache.learned == learned,
           let template = scene.screenTemplate(named: state.screen) {
            self.cache = nil  // the cache is changed in place, without a second reference
            let structure = cache.update(to: state.values, scene: scene, template: template)
            self.cache = cache
            return structure
        }
        cache = StructureCache(scene: scene, state: state, groupItems: groupItems, learned: learned)
        return cache?.structure ?? ScanStructure(nodes: [])
    }

    /// Runs the scene's behaviour for a command.
    public mutating func perform(_ command: ElementCommand, on element: Element?) -> ContentUpdate? {
        guard scene.screenTemplate(named: state.screen) != nil else { return nil }
        // The resolved screen is needed only to find what a tap at the activation point hits,
        // and the handlers of escape and magic tap.
        let state = self.state, scene = self.scene
        func presentRoot() -> Element? {
            state.resolvedScreen(in: scene).map { Visibility.presentTree($0.root) }
        }
        let effects: [Effect]? = {
            switch command {
            case .activate:
                guard let element else { return nil }
                if let own = element.activate { return own }
                guard let root = presentRoot(), let target = Activation.target(of: element, in: root) else { return nil }
                return target.activate
            case .increment: return element?.increment
            case .decrement: return element?.decrement
            case .customAction(let name): return element?.customActions.first { $0.name == name }?.effects
            case .escape: return presentRoot().flatMap { Self.nearest(\.escape, from: element, in: $0) }
            case .magicTap: return presentRoot().flatMap { Self.nearest(\.magicTap, from: element, in: $0) }
            case .switchTo, .content: return nil  // a scene has one window and no menu entries of its own
            }
        }()
        guard let effects else { return nil }
        let previousScreen = self.state.screen
        let notifications = self.state.perform(effects)
        return ContentUpdate(
            screen: self.state.screen != previousScreen ? self.state.screen : nil, notifications: notifications)
    }

    /// Runs effects the app performs by itself (no element, no user press).
    public mutating func performByApp(_ effects: [Effect]) -> ContentUpdate {
        let previousScreen = state.screen
        let notifications = state.perform(effects)
        return ContentUpdate(screen: state.screen != previousScreen ? state.screen : nil, notifications: notifications)
    }

    /// The effects of the element's own handler, else its nearest ancestor's, else the screen's.
    private static func nearest(_ handler: KeyPath<Element, [Effect]?>, from element: Element?, in root: Element) -> [Effect]? {
        guard let element else { return root[keyPath: handler] }
        func search(_ node: Element, inherited: [Effect]?) -> [Effect]?? {
            let own = node[keyPath: handler] ?? inherited
            if node.id == element.id { return .some(own) }
            for child in node.children {
                if let found = search(child, inherited: own) { return found }
            }
            return nil
        }
        return search(root, inherited: nil) ?? root[keyPath: handler]
    }
}
