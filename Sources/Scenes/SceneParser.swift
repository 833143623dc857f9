import AccessibilityModel
import Documents
import Foundation

/// Turns the text of a scene file into a `Scene`, or reports every problem found, each with
/// file, line and column. It does no I/O: callers read the file.
public enum SceneParser {
    public static func parse(
        yaml text: String, file: String, limits: SceneLimits = .standard
    ) throws(SceneLoadError) -> Scene {
        let reader = SceneReader(file: file, limits: limits)
        let scene = reader.readScene(text)
        if !reader.problems.isEmpty || scene == nil {
            throw SceneLoadError(problems: reader.sceneProblems)
        }
        return scene!
    }

    /// A scene file, or a tests file: a mapping with `scene:` naming the scene file it drives
    /// (a path relative to the tests file) and `tests:`, but no `screens`, `size` or `start`.
    /// Scene tools write scenes again (an import); tests kept apart survive that.
    public static func parseFile(
        yaml text: String, file: String, limits: SceneLimits = .standard
    ) throws(SceneLoadError) -> SceneFileContent {
        let reader = SceneReader(file: file, limits: limits)
        let scene = reader.readScene(text)
        if let reference = reader.testsFileReference, reader.problems.isEmpty { return .tests(reference) }
        if !reader.problems.isEmpty || scene == nil {
            throw SceneLoadError(problems: reader.sceneProblems)
        }
        return .scene(scene!)
    }

    /// The tests of a tests file, checked against the scene it names (screens, state names,
    /// element ids), with their positions in the tests file.
    public static func parseTests(
        yaml text: String, file: String, scene: Scene, limits: SceneLimits = .standard
    ) throws(SceneLoadError) -> [ScriptedTest] {
        let reader = SceneReader(file: file, limits: limits)
        let tests = reader.readTestsFile(text, scene: scene)
        if !reader.problems.isEmpty || tests == nil {
            throw SceneLoadError(problems: reader.sceneProblems)
        }
        return tests!
    }
}

/// What a file of scenes holds: a scene, or tests that name the scene they drive.
public enum SceneFileContent: Sendable {
    case scene(Scene)
    case tests(TestsFileReference)
}

/// A tests file's `scene:` value and where it is written.
public struct TestsFileReference: Sendable {
    public var scenePath: String
    public var location: SourceLocation
}

/// The scene reader: the shared typed readers of `DocumentReader` (positions, limits, alias
/// budget, messages) plus the scene's own parts. Every `read…` function reports what it rejects
/// and returns nil, so one pass finds every problem.
final class SceneReader: DocumentReader {
    let limits: SceneLimits
    private var elementCount = 0
    private var reportedElementLimit = false

    // What the scene declares, for cross-references.
    private var state: [String: StateValue] = [:]
    private var screenNames: Set<String> = []
    /// Where each id is declared (a position, not a location: the file is the same for all,
    /// and large scenes have an entry per element).
    private var idLocations: [ElementID: TextPosition] = [:]
    /// References to element ids checked once every screen is read.
    private var pendingIDReferences: [(id: ElementID, location: SourceLocation, what: String)] = []
    /// The elements' `didBecomeFocused` and `didLoseFocus`, by id.
    private var focusHooks: [ElementID: FocusHooks] = [:]

    /// Set when the document is a tests file (`scene:` and `tests:`, no screens).
    var testsFileReference: TestsFileReference?

    init(file: String, limits: SceneLimits) {
        self.limits = limits
        super.init(file: file, maxNodes: limits.maxNodes, maxStringLength: limits.maxStringLength)
    }

    // MARK: Reporting

    func location(_ node: DocumentNode) -> SourceLocation {
        let position = node.position
        return SourceLocation(file: file, line: Int(position.line), column: Int(position.column))
    }

    func report(_ location: SourceLocation, _ message: String) {
        report(line: location.line, column: location.column, message)
    }

    /// The problems as scene problems, in file order.
    var sceneProblems: [SceneProblem] {
        sortedProblems.map { SceneProblem(location: SourceLocation(file: $0.file, line: $0.line, column: $0.column), message: $0.message) }
    }

    // MARK: The scene

    func readScene(_ text: String) -> Scene? {
        guard let root = readDocument(
            text, maxBytes: limits.maxBytes,
            expected: "a scene (a mapping with scene, size, start and screens)") else { return nil }
        guard let pairs = mapping(root, "the scene") else { return nil }
        let sceneKeys = Set(pairs.map(\.0))
        if sceneKeys.contains("tests"), sceneKeys.isDisjoint(with: ["screens", "size", "start", "state", "language"]) {
            let keys = checkKeys(pairs, allowed: SceneReader.testsFileKeys, in: "a tests file")
            if let node = required(keys, "scene", in: root, "the scene file these tests drive, relative to this file"),
               let path = string(node, "scene") {
                testsFileReference = TestsFileReference(scenePath: path, location: location(node))
            }
            return nil
        }
        let keys = checkKeys(pairs, allowed: SceneFormatKeys.scene, in: "a scene")

        let title = required(keys, "scene", in: root, "the scene's title").flatMap { string($0, "scene") }
        let description = keys["description"].flatMap { string($0, "description") }
        var size: (Double, Double)?
        if let node = required(keys, "size", in: root, "the screen size [width, height] in points") {
            if let numbers = numberList(node, count: 2, "size", "[width, height]", in: SceneReader.coordinates) {
                if numbers[0] > 0, numbers[1] > 0 { size = (numbers[0], numbers[1]) } else {
                    report(node, "size must be positive, found [\(formatPoints(numbers[0])), \(formatPoints(numbers[1]))]")
                }
            }
        }
        let language = keys["language"].flatMap { string($0, "language") } ?? "en-US"
        var stateNames = [String]()
        if let node = keys["state"] { stateNames = readState(node) }

        // Screen names first, so that `go` anywhere can be checked.
        var screenPairs = [(String, DocumentNode, DocumentNode)]()
        if let node = required(keys, "screens", in: root, "a mapping of screen names to screens"),
           let pairs = mapping(node, "screens") {
            screenPairs = pairs
            if pairs.isEmpty { report(node, "screens is empty; expected at least one screen") }
            screenNames = Set(pairs.map(\.0))
        }
        let startName = required(keys, "start", in: root, "the name of the first screen").flatMap { node -> String? in
            guard let name = string(node, "start") else { return nil }
            if !screenNames.isEmpty, !screenNames.contains(name) {
                report(node, "start names screen '\(name)', which is not in screens (\(screenNames.sorted().joined(separator: ", ")))")
            }
            return name
        }
        var screens = [ScreenTemplate]()
        for (name, keyNode, node) in screenPairs {
            if !TextTemplate.isValidName(name) {
                report(keyNode, "screen name '\(name)' must start with a letter and use letters, digits, '_', '-' or '.'")
            }
            if let screen = readScreen(name: name, node) { screens.append(screen) }
        }
        var tests = [ScriptedTest]()
        if let node = keys["tests"], let items = sequence(node, "tests") {
            for item in items { if let test = readTest(item) { tests.append(test) } }
        }
        // `auto:…` names a group the scanner builds itself (automatic grouping), not an element.
        for reference in pendingIDReferences where idLocations[reference.id] == nil && !reference.id.hasPrefix("auto:") {
            report(reference.location, "\(reference.what) '\(reference.id)' is not the id of any element in the scene")
        }
        guard let title, let size, let startName, problems.isEmpty else { return nil }
        var scene = Scene(
            title: title, description: description, file: file, size: size, language: language,
            initialState: state, stateNames: stateNames, start: startName, screens: screens, tests: tests)
        scene.focusHooks = focusHooks
        return scene
    }

    static let testsFileKeys = SceneFormatKeys.testsFile

    /// A tests file's tests, read with the scene's state, screens and ids declared.
    func readTestsFile(_ text: String, scene: Scene) -> [ScriptedTest]? {
        guard let root = readDocument(
            text, maxBytes: limits.maxBytes,
            expected: "a tests file (a mapping with scene and tests)") else { return nil }
        guard let pairs = mapping(root, "the tests file") else { return nil }
        let keys = checkKeys(pairs, allowed: SceneReader.testsFileKeys, in: "a tests file")
        state = scene.initialState
        screenNames = Set(scene.screens.map(\.name))
        for template in scene.allElementTemplates {
            idLocations[template.id] = TextPosition(line: template.location.line, column: template.location.column)
        }
        var tests = [ScriptedTest]()
        if let node = required(keys, "tests", in: root, "the scripted tests"), let items = sequence(node, "tests") {
            for item in items { if let test = readTest(item) { tests.append(test) } }
        }
        for reference in pendingIDReferences where idLocations[reference.id] == nil && !reference.id.hasPrefix("auto:") {
            report(reference.location, "\(reference.what) '\(reference.id)' is not the id of any element in the scene \(scene.file)")
        }
        return problems.isEmpty ? tests : nil
    }

    func readState(_ node: DocumentNode) -> [String] {
        guard let pairs = mapping(node, "state") else { return [] }
        var names = [String]()
        for (name, keyNode, valueNode) in pairs {
            guard TextTemplate.isValidName(name) else {
                report(keyNode, "state name '\(name)' must start with a letter and use letters, digits, '_', '-' or '.'")
                continue
            }
            if let value = scalarValue(valueNode, "state value '\(name)'") {
                state[name] = value
                names.append(name)
            }
        }
        return names
    }

    // MARK: Screens and elements

    func readScreen(name: String, _ node: DocumentNode) -> ScreenTemplate? {
        guard let pairs = mapping(node, "screen '\(name)'") else { return nil }
        let keys = checkKeys(pairs, allowed: SceneFormatKeys.screen, in: "a screen")
        let title = keys["title"].flatMap { string($0, "title") }
        var elements = [ElementTemplate]()
        if let list = keys["elements"], let items = sequence(list, "elements") {
            // Sized once: growing by doubling keeps two copies alive at the peak.
            elements.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                if let element = readElement(item, path: "\(name).\(index)", depth: 1) { elements.append(element) }
            }
        }
        var order: [ElementID]?
        if let list = keys["accessibilityElements"] {
            let ids = Set(elements.flatMap(\.subtree).map(\.id))
            order = readOrder(list, allowed: ids, owner: "screen '\(name)'")
        }
        let escape = keys["escape"].flatMap { effects($0, "escape") }
        let magicTap = keys["magicTap"].flatMap { effects($0, "magicTap") }
        return ScreenTemplate(
            name: name, title: title, elements: elements, accessibilityElements: order,
            escape: escape, magicTap: magicTap, location: location(node))
    }

    static let elementKeys = SceneFormatKeys.element

    func readElement(_ node: DocumentNode, path: String, depth: Int) -> ElementTemplate? {
        guard visit(node) else { return nil }
        elementCount += 1
        if elementCount > limits.maxElements {
            if !reportedElementLimit {
                reportedElementLimit = true
                report(node, "the scene has more than \(limits.maxElements) elements; it is refused")
            }
            return nil
        }
        guard let pairs = mapping(node, "an element") else { return nil }
        let keys = checkKeys(pairs, allowed: SceneReader.elementKeys, in: "an element")
        let keyPositions = pairs.map { (key: $0.0, position: $0.1.position) }

        var id = path
        var hasDeclaredID = false
        if let idNode = keys["id"], let declared = string(idNode, "id") {
            if declared.isEmpty || SceneReader.hasWhitespace(declared) {
                report(idNode, "id '\(declared)' must be non-empty and contain no spaces")
            } else {
                id = declared
                hasDeclaredID = true
            }
        }
        if let first = idLocations[id] {
            report(keys["id"] ?? node, "duplicate id '\(id)': ids are unique in a scene, and '\(id)' is already used at line \(first.line), column \(first.column)")
        } else {
            idLocations[id] = (keys["id"] ?? node).position
        }

        var children = [ElementTemplate]()
        if let list = keys["elements"], let items = sequence(list, "elements") {
            if depth >= limits.maxDepth {
                report(list, "elements are nested more than \(limits.maxDepth) deep; flatten the tree")
            } else {
                children.reserveCapacity(items.count)
                for (index, item) in items.enumerated() {
                    if let child = readElement(item, path: "\(id).\(index)", depth: depth + 1) { children.append(child) }
                }
            }
        }
        var order: [ElementID]?
        if let list = keys["accessibilityElements"] {
            let ids = Set(children.flatMap(\.subtree).map(\.id))
            order = readOrder(list, allowed: ids, owner: "element '\(id)'")
        }
        var frame: Rect?
        if let frameNode = keys["frame"], let numbers = numberList(frameNode, count: 4, "frame", "[x, y, width, height]", in: SceneReader.coordinates) {
            if numbers[2] < 0 || numbers[3] < 0 {
                report(frameNode, "frame width and height must not be negative")
            } else {
                frame = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            }
        }
        let activationPoint = keys["activationPoint"].flatMap { numberList($0, count: 2, "activationPoint", "[x, y]", in: SceneReader.coordinates) }
            .map { Point(x: $0[0], y: $0[1]) }
        var navigationStyle = NavigationStyle.automatic
        if let styleNode = keys["navigationStyle"], let name = string(styleNode, "navigationStyle") {
            if let style = NavigationStyle(rawValue: name) { navigationStyle = style } else {
                report(styleNode, "navigationStyle '\(name)' is unknown; expected automatic, separate or combined")
            }
        }
        var element = ElementTemplate(
            id: id,
            hasDeclaredID: hasDeclaredID,
            label: keys["label"].flatMap { template($0, "label") },
            value: keys["value"].flatMap { template($0, "value") },
            hint: keys["hint"].flatMap { template($0, "hint") },
            traits: keys["traits"].map(readTraits) ?? [],
            language: keys["language"].flatMap { string($0, "language") },
            frame: frame,
            activationPoint: activationPoint,
            isAccessibilityElement: keys["isAccessibilityElement"].flatMap { boolBinding($0, "isAccessibilityElement") },
            accessibilityElementsHidden: keys["accessibilityElementsHidden"].flatMap { boolBinding($0, "accessibilityElementsHidden") } ?? .constant(false),
            accessibilityViewIsModal: keys["accessibilityViewIsModal"].flatMap { boolBinding($0, "accessibilityViewIsModal") } ?? .constant(false),
            shouldGroupAccessibilityChildren: keys["shouldGroupAccessibilityChildren"].flatMap { boolBinding($0, "shouldGroupAccessibilityChildren") } ?? .constant(false),
            navigationStyle: navigationStyle,
            accessibilityElements: order,
            sortPriority: keys["sortPriority"].flatMap { number($0, "sortPriority") } ?? 0,
            visible: keys["visible"].flatMap { condition($0, "visible") },
            elements: children,
            customActions: keys["customActions"].map(readCustomActions) ?? [],
            customContent: keys["customContent"].map(readCustomContent) ?? [],
            activate: keys["activate"].flatMap { effects($0, "activate") },
            increment: keys["increment"].flatMap { effects($0, "increment") },
            decrement: keys["decrement"].flatMap { effects($0, "decrement") },
            escape: keys["escape"].flatMap { effects($0, "escape") },
            magicTap: keys["magicTap"].flatMap { effects($0, "magicTap") },
            location: location(node),
            keyPositions: keyPositions)
        element.placeholder = keys["placeholder"].flatMap { template($0, "placeholder") }
        if let node = keys["textField"], let name = string(node, "textField") {
            if case .string? = state[name] {
                element.textField = name
                // Its value is its text unless the file says otherwise.
                if element.value == nil { element.value = try? TextTemplate(parsing: "{\(name)}") }
            } else if state[name] == nil {
                report(node, "textField names unknown state name '\(name)'\(suggestion(name, among: Array(state.keys))); declare it under state: as a string")
            } else {
                report(node, "textField names state value '\(name)', which is not a string (a text field's text is a string: write \(name): \"\")")
            }
        }
        let became = keys["didBecomeFocused"].flatMap { effects($0, "didBecomeFocused") }
        let lost = keys["didLoseFocus"].flatMap { effects($0, "didLoseFocus") }
        if became != nil || lost != nil {
            focusHooks[id] = FocusHooks(didBecomeFocused: became ?? [], didLoseFocus: lost ?? [])
        }
        return element
    }

    /// `accessibilityElements`: ids that must be in the owner's subtree.
    func readOrder(_ node: DocumentNode, allowed: Set<ElementID>, owner: String) -> [ElementID]? {
        guard let items = sequence(node, "accessibilityElements") else { return nil }
        var ids = [ElementID]()
        var seen = Set<ElementID>()
        for item in items {
            guard let id = string(item, "an id in accessibilityElements") else { continue }
            if !allowed.contains(id) {
                report(item, "accessibilityElements of \(owner) lists '\(id)', which is not in its subtree")
            } else if !seen.insert(id).inserted {
                report(item, "accessibilityElements of \(owner) lists '\(id)' twice")
            } else {
                ids.append(id)
            }
        }
        return ids
    }

    func readTraits(_ node: DocumentNode) -> [TraitEntry] {
        guard let items = sequence(node, "traits") else { return [] }
        var entries = [TraitEntry]()
        for item in items {
            if case .mapping = item, let pairs = mapping(item, "a conditional trait") {
                guard pairs.count == 1, let (name, keyNode, valueNode) = pairs.first else {
                    report(item, "a conditional trait has exactly one key, as {selected: wifi}")
                    continue
                }
                guard let trait = Traits(name: name) else {
                    report(keyNode, unknownTraitMessage(name))
                    continue
                }
                if let condition = condition(valueNode, "the condition of trait '\(name)'") {
                    entries.append(TraitEntry(trait: trait, condition: condition))
                }
            } else if let name = string(item, "a trait") {
                guard let trait = Traits(name: name) else {
                    report(item, unknownTraitMessage(name))
                    continue
                }
                entries.append(TraitEntry(trait: trait, condition: nil))
            }
        }
        return entries
    }

    func unknownTraitMessage(_ name: String) -> String {
        let names = SceneFormatKeys.traits
        return "unknown trait '\(name)'\(suggestion(name, among: names)); expected one of: \(names.joined(separator: " "))"
    }

    func readCustomActions(_ node: DocumentNode) -> [CustomActionTemplate] {
        guard let items = sequence(node, "customActions") else { return [] }
        return items.compactMap { item in
            guard let pairs = mapping(item, "a custom action") else { return nil }
            let keys = checkKeys(pairs, allowed: ["name", "do"], in: "a custom action")
            let name = required(keys, "name", in: item, "the action's name").flatMap { template($0, "name") }
            let steps = required(keys, "do", in: item, "the action's effects").flatMap { effects($0, "do") }
            guard let name, let steps else { return nil }
            return CustomActionTemplate(name: name, effects: steps, location: location(item))
        }
    }

    func readCustomContent(_ node: DocumentNode) -> [CustomContentTemplate] {
        guard let items = sequence(node, "customContent") else { return [] }
        return items.compactMap { item in
            guard let pairs = mapping(item, "a custom content entry") else { return nil }
            let keys = checkKeys(pairs, allowed: ["label", "value", "important"], in: "a custom content entry")
            let label = required(keys, "label", in: item, "the content's label").flatMap { template($0, "label") }
            let value = required(keys, "value", in: item, "the content's value").flatMap { template($0, "value") }
            let important = keys["important"].flatMap { bool($0, "important") } ?? false
            guard let label, let value else { return nil }
            return CustomContentTemplate(label: label, value: value, isImportant: important)
        }
    }

    // MARK: Effects

    static let effectKinds = SceneFormatKeys.effects

    func effects(_ node: DocumentNode, _ what: String) -> [Effect]? {
        guard let items = sequence(node, what) else { return nil }
        var result = [Effect]()
        var failed = false
        for item in items {
            guard let pairs = mapping(item, "an effect (one of \(SceneReader.effectKinds.joined(separator: ", ")))") else {
                failed = true
                continue
            }
            guard pairs.count == 1, let (kind, keyNode, value) = pairs.first else {
                report(item, "an effect is a mapping with one key (one of \(SceneReader.effectKinds.joined(separator: ", "))); write one effect per list entry")
                failed = true
                continue
            }
            if let effect = readEffect(kind: kind, keyNode: keyNode, value) { result.append(effect) } else { failed = true }
        }
        return failed ? nil : result
    }

    func readEffect(kind: String, keyNode: DocumentNode, _ node: DocumentNode) -> Effect? {
        switch kind {
        case "set":
            guard let pairs = mapping(node, "set") else { return nil }
            var assignments = [(name: String, value: StateValue)]()
            for (name, nameNode, valueNode) in pairs {
                guard let declared = stateValue(named: name, at: nameNode) else { continue }
                guard let value = scalarValue(valueNode, "the value for '\(name)'") else { continue }
                guard value.typeName == declared.typeName else {
                    report(valueNode, "state '\(name)' is a \(declared.typeName); set gives it a \(value.typeName)")
                    continue
                }
                assignments.append((name, value))
            }
            return assignments.count == pairs.count ? .set(assignments) : nil
        case "toggle":
            guard let name = string(node, "toggle"), let declared = stateValue(named: name, at: node) else { return nil }
            guard case .bool = declared else {
                report(node, "toggle needs a boolean state; '\(name)' is a \(declared.typeName)")
                return nil
            }
            return .toggle(name)
        case "add":
            guard let pairs = mapping(node, "add") else { return nil }
            var minimum: Double?, maximum: Double?
            var target: (String, Double)?
            var ok = true
            for (key, keyNode, valueNode) in pairs {
                guard let amount = number(valueNode, "'\(key)' in add") else { ok = false; continue }
                switch key {
                case "min": minimum = amount
                case "max": maximum = amount
                default:
                    if target != nil {
                        report(keyNode, "add steps one state value; write a second add for '\(key)'")
                        ok = false
                    } else if let declared = stateValue(named: key, at: keyNode) {
                        if case .number = declared { target = (key, amount) } else {
                            report(keyNode, "add needs a number state; '\(key)' is a \(declared.typeName)")
                            ok = false
                        }
                    } else { ok = false }
                }
            }
            if let minimum, let maximum, minimum > maximum {
                report(node, "add has min \(formatPoints(minimum)) above max \(formatPoints(maximum))")
                ok = false
            }
            guard ok else { return nil }
            guard let target else {
                report(node, "add names no state value: expected {name: amount, min: …, max: …}")
                return nil
            }
            return .add(name: target.0, amount: target.1, min: minimum, max: maximum)
        case "go":
            guard let screen = string(node, "go") else { return nil }
            guard screenNames.contains(screen) else {
                report(node, "go names screen '\(screen)', which is not in screens (\(screenNames.sorted().joined(separator: ", ")))")
                return nil
            }
            return .go(screen)
        case "announce":
            guard template(node, "announce") != nil, let text = string(node, "announce") else { return nil }
            return .announce(text)
        case "post":
            guard let pairs = mapping(node, "post") else { return nil }
            let keys = checkKeys(pairs, allowed: ["notification", "focus", "text", "technology"], in: "post")
            guard let kindNode = required(keys, "notification", in: node, "the notification's name"),
                  let name = string(kindNode, "notification") else { return nil }
            guard let notification = NotificationKind(rawValue: name) else {
                report(kindNode, "notification '\(name)' is unknown; expected one of: \(NotificationKind.allCases.map(\.rawValue).joined(separator: ", "))")
                return nil
            }
            var focus: ElementID?
            if let focusNode = keys["focus"], let id = string(focusNode, "focus") {
                focus = id
                pendingIDReferences.append((id, location(focusNode), "focus"))
            }
            var text: String?
            if let textNode = keys["text"] {
                // A bad text is reported once, not again as "needs text".
                guard template(textNode, "text") != nil, let value = string(textNode, "text") else { return nil }
                text = value
            }
            if (notification == .announcement || notification == .pageScrolled), text == nil {
                report(node, "post \(name) needs text: the message to convey")
                return nil
            }
            let pausing = notification == .pauseAssistiveTechnology || notification == .resumeAssistiveTechnology
            var technology: AssistiveTechnology?
            let technologies = AssistiveTechnology.allCases.map(\.rawValue).joined(separator: ", ")
            if let technologyNode = keys["technology"], let value = string(technologyNode, "technology") {
                guard pausing else {
                    report(technologyNode, "technology is the argument of pauseAssistiveTechnology and resumeAssistiveTechnology, not of \(name)")
                    return nil
                }
                guard let known = AssistiveTechnology(rawValue: value) else {
                    report(technologyNode, "technology '\(value)' is unknown; expected one of: \(technologies)")
                    return nil
                }
                technology = known
            } else if pausing {
                report(node, "post \(name) needs technology: the assistive technology it is for (\(technologies))")
                return nil
            }
            return .post(AccessibilityNotification(kind: notification, focus: focus, text: text, technology: technology))
        default:
            report(keyNode, "unknown effect '\(kind)'\(suggestion(kind, among: SceneReader.effectKinds)); expected one of: \(SceneReader.effectKinds.joined(separator: ", "))")
            return nil
        }
    }

    func stateValue(named name: String, at node: DocumentNode) -> StateValue? {
        if let value = state[name] { return value }
        report(node, "unknown state name '\(name)'\(suggestion(name, among: Array(state.keys))); declare it under state:")
        return nil
    }

    // MARK: Tests

    func readTest(_ node: DocumentNode) -> ScriptedTest? {
        guard let pairs = mapping(node, "a test") else { return nil }
        let keys = checkKeys(pairs, allowed: SceneFormatKeys.test, in: "a test")
        var profile: (name: String, location: SourceLocation)?
        if let profileNode = keys["profile"], let reference = string(profileNode, "profile") {
            if reference.isEmpty {
                report(profileNode, "profile needs a switch profile: a file (relative to the scene file) or a profile's id")
            } else {
                profile = (reference, location(profileNode))
            }
        }
        var screen: String?
        if let screenNode = keys["screen"], let name = string(screenNode, "screen") {
            if screenNames.contains(name) { screen = name } else {
                report(screenNode, "screen '\(name)' is not in screens (\(screenNames.sorted().joined(separator: ", ")))")
            }
        }
        let name = required(keys, "name", in: node, "the test's name").flatMap { string($0, "name") }
        let settings = keys["settings"].map { readSettings($0).map { ($0.name, $0.value, $0.location) } } ?? []
        var steps = [TestStep]()
        if let stepsNode = required(keys, "steps", in: node, "the test's steps"), let items = sequence(stepsNode, "steps") {
            for item in items { if let step = readStep(item) { steps.append(step) } }
        }
        guard let name else { return nil }
        return ScriptedTest(name: name, screen: screen, profile: profile, settings: settings, steps: steps, location: location(node))
    }

    /// A setting's value, checked against its shape and range (`Setting.problem`), so that a
    /// value a person or the loop cannot honour (`autoScanningTime: 1e-6`, `loops: 1e300`) is
    /// refused where it is written.
    func settingValue(_ node: DocumentNode, setting: Setting) -> StateValue? {
        let name = setting.name
        guard let value = scalarValue(node, "setting '\(name)'") else { return nil }
        if setting.problem(value) != nil {
            // The value as written: `9223372036854775808`, not the number it rounds to.
            report(node, "setting '\(name)' expects \(setting.expectation); found \(written(node))")
            return nil
        }
        if case (.secondsOrOff, .string("off")) = (setting.shape, value) { return .bool(false) }
        return value
    }

    static let stepKinds = SceneFormatKeys.steps
    /// The longest text one `type:` step types.
    static let maxTypedCharacters = 1000
    /// Longest `wait` or `hold` of a scripted test, in seconds of virtual time (an hour).
    static let maxStepSeconds = 3600.0
    /// Points a size, frame or activation point may use: far past any screen, small enough that
    /// scaling them to a terminal or a display never overflows.
    static let coordinates: ClosedRange<Double> = -1_000_000...1_000_000
    /// Highest `route` cell: past any braille display's length.
    static let maxRouteCell = 9999

    func readStep(_ node: DocumentNode) -> TestStep? {
        guard let pairs = mapping(node, "a step (one of \(SceneReader.stepKinds.joined(separator: ", ")))") else { return nil }
        guard pairs.count == 1, let (kind, keyNode, value) = pairs.first else {
            report(node, "a step is a mapping with one key (one of \(SceneReader.stepKinds.joined(separator: ", "))); write one step per list entry")
            return nil
        }
        let at = location(node)
        switch kind {
        case "press":
            // `press: select`, or `press: {switch: select, longPressAction: menu}`: a long press.
            if case .mapping = value {
                guard let pressPairs = mapping(value, "press") else { return nil }
                let keys = checkKeys(pressPairs, allowed: ["switch", "longPressAction"], in: "press")
                let action = required(keys, "switch", in: value, "the switch action").flatMap(switchAction)
                let long = required(keys, "longPressAction", in: value, "the switch's long-press action (a long press)").flatMap(switchAction)
                guard let action, let long else { return nil }
                return TestStep(kind: .press(action, longPressAction: long), location: at)
            }
            return switchAction(value).map { TestStep(kind: .press($0), location: at) }
        case "hold":
            guard let holdPairs = mapping(value, "hold") else { return nil }
            let keys = checkKeys(holdPairs, allowed: ["switch", "seconds", "longPressAction"], in: "hold")
            let action = required(keys, "switch", in: value, "the switch action").flatMap(switchAction)
            let seconds = required(keys, "seconds", in: value, "how long to hold, in seconds").flatMap { number($0, "seconds") }
            var long: SwitchAction?
            if let longNode = keys["longPressAction"] {
                guard let action = switchAction(longNode) else { return nil }
                long = action
            }
            guard let action, let seconds else { return nil }
            guard seconds > 0, seconds <= SceneReader.maxStepSeconds else {
                report(keys["seconds"] ?? value, "hold needs a number of seconds above 0 and at most \(NumberText.format(SceneReader.maxStepSeconds)); found \(written(keys["seconds"] ?? value))")
                return nil
            }
            return TestStep(kind: .hold(action, seconds: seconds, longPressAction: long), location: at)
        case "app":
            // One effect or a list, as a behaviour's: the app changes with no user press.
            if case .mapping = value {
                guard let effectPairs = mapping(value, "app") else { return nil }
                guard effectPairs.count == 1, let (effectKind, effectKey, effectValue) = effectPairs.first else {
                    report(value, "app is an effect (a mapping with one key: one of \(SceneReader.effectKinds.joined(separator: ", "))) or a list of effects")
                    return nil
                }
                return readEffect(kind: effectKind, keyNode: effectKey, effectValue).map { TestStep(kind: .app([$0]), location: at) }
            }
            return effects(value, "app").map { TestStep(kind: .app($0), location: at) }
        case "post":
            // `post: {notification: …}`: the effect of the same name, posted by the app now.
            return readEffect(kind: "post", keyNode: keyNode, value).map { TestStep(kind: .app([$0]), location: at) }
        case "wait":
            guard let seconds = number(value, "wait") else { return nil }
            guard seconds >= 0, seconds <= SceneReader.maxStepSeconds else {
                report(value, "wait needs a number of seconds from 0 to \(NumberText.format(SceneReader.maxStepSeconds)); found \(written(value))")
                return nil
            }
            return TestStep(kind: .wait(seconds), location: at)
        case "route":
            guard let cell = number(value, "route") else { return nil }
            guard cell == cell.rounded(), cell >= 0, cell <= Double(SceneReader.maxRouteCell), let whole = Int(exactly: cell) else {
                report(value, "route needs a cell number from 0 to \(SceneReader.maxRouteCell) (0 is the first cell); found \(written(value))")
                return nil
            }
            return TestStep(kind: .route(whole), location: at)
        case "key":
            guard let keyPairs = mapping(value, "key") else { return nil }
            let keys = checkKeys(keyPairs, allowed: ["code", "value"], in: "key")
            let code = required(keys, "code", in: value, "an evdev key name such as KEY_SPACE").flatMap { string($0, "code") }
            let eventValue = required(keys, "value", in: value, "0 (release), 1 (press) or 2 (repeat)").flatMap { number($0, "value") }
            guard let code, let eventValue else { return nil }
            guard code.hasPrefix("KEY_") || code.hasPrefix("BTN_") else {
                report(keys["code"]!, "code '\(code)' is not an evdev key name (KEY_… or BTN_…)")
                return nil
            }
            guard let whole = [0, 1, 2].first(where: { Double($0) == eventValue }) else {
                report(keys["value"]!, "value must be 0 (release), 1 (press) or 2 (repeat); found \(written(keys["value"]!))")
                return nil
            }
            return TestStep(kind: .key(code: code, value: whole), location: at)
        case "type":
            guard let text = string(value, "type") else { return nil }
            guard !text.isEmpty, text.count <= SceneReader.maxTypedCharacters else {
                report(value, "type needs the text to type, 1 to \(SceneReader.maxTypedCharacters) characters; found \(text.count)")
                return nil
            }
            return TestStep(kind: .type(text), location: at)
        case "expect":
            return readExpectation(value).map { TestStep(kind: .expect($0), location: at) }
        default:
            report(keyNode, "unknown step '\(kind)'\(suggestion(kind, among: SceneReader.stepKinds)); expected one of: \(SceneReader.stepKinds.joined(separator: ", "))")
            return nil
        }
    }

    func switchAction(_ node: DocumentNode) -> SwitchAction? {
        guard let name = string(node, "a switch action") else { return nil }
        if let action = SwitchAction(rawValue: name) { return action }
        let names = SwitchAction.allCases.map(\.rawValue)
        report(node, "unknown switch action '\(name)'\(suggestion(name, among: names)); expected one of: \(names.joined(separator: ", "))")
        return nil
    }

    static let expectKeys = [
        "focus", "braille", "menu", "menuFocus", "screen", "state", "announcement", "scanning", "pressedOn",
        "highlight", "rejected", "ignored", "element",
    ]

    /// Longest regular expression a `matches:` may give (a test's pattern, not a program).
    static let maxPatternLength = 1000

    func readExpectation(_ node: DocumentNode) -> Expectation? {
        guard let pairs = mapping(node, "expect") else { return nil }
        let keys = checkKeys(pairs, allowed: SceneReader.expectKeys, in: "expect")
        var expectation = Expectation()
        if let focusNode = keys["focus"] {
            if case .mapping = focusNode {
                // `focus: {groupContaining: id}`: the item or a group holding it.
                if let focusPairs = mapping(focusNode, "focus") {
                    let focusKeys = checkKeys(focusPairs, allowed: ["groupContaining"], in: "focus")
                    if let memberNode = required(focusKeys, "groupContaining", in: focusNode, "the id of an item the highlighted group holds"),
                       let id = string(memberNode, "groupContaining") {
                        expectation.focusContaining = id
                        pendingIDReferences.append((id, location(memberNode), "groupContaining"))
                    }
                }
            } else if let id = string(focusNode, "focus") {
                expectation.focus = SceneReader.automaticGroupName(id)
                referenceFocus(expectation.focus!, at: focusNode)
            }
        }
        if let highlightNode = keys["highlight"], let kind = string(highlightNode, "highlight") {
            if let value = Expectation.HighlightKind(rawValue: kind) { expectation.highlight = value } else {
                report(highlightNode, "highlight is \(Expectation.HighlightKind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(kind)' (focus names what is highlighted)")
            }
        }
        if let brailleNode = keys["braille"] {
            if case .mapping = brailleNode { expectation.brailleMatch = textMatch(brailleNode, "braille") } else {
                expectation.braille = string(brailleNode, "braille")
            }
        }
        expectation.pressedOn = keys["pressedOn"].flatMap { string($0, "pressedOn") }
        if let menuNode = keys["menu"], let items = sequence(menuNode, "menu") {
            expectation.menu = items.compactMap { string($0, "a menu entry") }
        }
        expectation.menuFocus = keys["menuFocus"].flatMap { string($0, "menuFocus") }
        if let screenNode = keys["screen"], let screen = string(screenNode, "screen") {
            if screenNames.contains(screen) { expectation.screen = screen } else {
                report(screenNode, "screen '\(screen)' is not in screens (\(screenNames.sorted().joined(separator: ", ")))")
            }
        }
        if let stateNode = keys["state"], let statePairs = mapping(stateNode, "state") {
            var values = [(name: String, value: StateValue)]()
            for (name, nameNode, valueNode) in statePairs {
                guard let declared = stateValue(named: name, at: nameNode),
                      let value = scalarValue(valueNode, "the expected value of '\(name)'") else { continue }
                if value.typeName != declared.typeName {
                    report(valueNode, "state '\(name)' is a \(declared.typeName); the expectation gives a \(value.typeName)")
                    continue
                }
                values.append((name, value))
            }
            expectation.state = values
        }
        if let announcementNode = keys["announcement"] {
            if case .mapping = announcementNode { expectation.announcementMatch = textMatch(announcementNode, "announcement") } else {
                expectation.announcement = string(announcementNode, "announcement")
            }
        }
        if let scanningNode = keys["scanning"], let status = string(scanningNode, "scanning") {
            if let value = Expectation.ScanningStatus(rawValue: status) { expectation.scanning = value } else {
                report(scanningNode, "scanning is running or stopped, not '\(status)'")
            }
        }
        if let rejectedNode = keys["rejected"], let reason = string(rejectedNode, "rejected") {
            let reasons = SceneReader.rejectionReasons
            if reason == "none" || reasons.contains(reason) { expectation.rejected = reason } else {
                report(rejectedNode, "rejected is a reason an edge is rejected for\(suggestion(reason, among: reasons)): one of \(reasons.joined(separator: ", ")), or none")
            }
        }
        if let ignoredNode = keys["ignored"], let reason = string(ignoredNode, "ignored") {
            if reason.isEmpty {
                report(ignoredNode, "ignored needs a text the reason contains (\"not enabled\", \"nothing is highlighted\"), or none")
            } else {
                expectation.ignored = reason
            }
        }
        if let elementNode = keys["element"] { expectation.element = readElementExpectation(elementNode) }
        return expectation
    }

    /// The reasons the input stabilisation rejects an edge for (`SwitchInput.Rejection`), as
    /// the trace shows them.
    static let rejectionReasons = [
        "autorepeat", "bounce", "unbound", "redundant", "releasedBeforeHoldDuration", "ignoreRepeat", "pulseRelease",
    ]

    /// `auto:first...last` (three full stops, easier to type) is the same name as the scanner's
    /// `auto:first…last`.
    static func automaticGroupName(_ id: String) -> String {
        guard id.hasPrefix("auto:"), !id.contains("…"), let range = id.range(of: "...") else { return id }
        return id.replacingCharacters(in: range, with: "…")
    }

    /// A focus id is an element's; an automatic group's name `auto:first…last` must name two
    /// elements (a typo in either is caught here, not as a failing test).
    func referenceFocus(_ id: String, at node: DocumentNode) {
        guard id.hasPrefix("auto:") else {
            pendingIDReferences.append((id, location(node), "focus"))
            return
        }
        let members = id.dropFirst("auto:".count).components(separatedBy: "…")
        guard members.count == 2, !members[0].isEmpty, !members[1].isEmpty else {
            report(node, "focus '\(id)' is not an automatic group's name: write auto:FIRST…LAST (or auto:FIRST...LAST) with the ids of its first and last items")
            return
        }
        pendingIDReferences.append((members[0], location(node), "focus '\(id)': its first item"))
        pendingIDReferences.append((members[1], location(node), "focus '\(id)': its last item"))
    }

    /// `{contains: text}` or `{matches: pattern}` (a regular expression matching the whole text).
    func textMatch(_ node: DocumentNode, _ what: String) -> TextMatch? {
        guard let pairs = mapping(node, what) else { return nil }
        let keys = checkKeys(pairs, allowed: ["contains", "matches"], in: what)
        guard pairs.count == 1 else {
            if !pairs.isEmpty { report(node, "\(what) takes one of contains or matches, not both") } else {
                report(node, "\(what) needs contains: TEXT or matches: PATTERN")
            }
            return nil
        }
        if let textNode = keys["contains"], let text = string(textNode, "contains") { return .contains(text) }
        if let patternNode = keys["matches"], let pattern = string(patternNode, "matches") {
            guard pattern.count <= SceneReader.maxPatternLength else {
                report(patternNode, "matches: the pattern has \(pattern.count) characters; at most \(SceneReader.maxPatternLength)")
                return nil
            }
            if let problem = TextPattern.problem(pattern) {
                report(patternNode, "matches: '\(pattern)' is not a regular expression: \(problem)")
                return nil
            }
            return .matches(pattern)
        }
        return nil
    }

    func readElementExpectation(_ node: DocumentNode) -> ElementExpectation? {
        guard let pairs = mapping(node, "element") else { return nil }
        let keys = checkKeys(
            pairs, allowed: ["id", "label", "value", "hint", "traits", "frame", "language", "activationPoint"], in: "element")
        var expected = ElementExpectation()
        if let idNode = keys["id"], let id = string(idNode, "id") {
            expected.id = id
            pendingIDReferences.append((id, location(idNode), "element id"))
        }
        expected.label = keys["label"].flatMap { string($0, "label") }
        expected.value = keys["value"].flatMap { string($0, "value") }
        expected.hint = keys["hint"].flatMap { string($0, "hint") }
        expected.language = keys["language"].flatMap { string($0, "language") }
        if let traitsNode = keys["traits"], let items = sequence(traitsNode, "traits") {
            var traits = Traits()
            var ok = true
            for item in items {
                guard let name = string(item, "a trait") else { ok = false; continue }
                if let trait = Traits(name: name) { traits.formUnion(trait) } else {
                    report(item, unknownTraitMessage(name))
                    ok = false
                }
            }
            if ok { expected.traits = traits }
        }
        if let frameNode = keys["frame"], let numbers = numberList(frameNode, count: 4, "frame", "[x, y, width, height]", in: SceneReader.coordinates) {
            expected.frame = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        if let pointNode = keys["activationPoint"], let numbers = numberList(pointNode, count: 2, "activationPoint", "[x, y]", in: SceneReader.coordinates) {
            expected.activationPoint = Point(x: numbers[0], y: numbers[1])
        }
        return expected
    }

    // MARK: Scene-specific readers

    /// Whether `text` holds a white space character; ASCII text (nearly every id) is checked by
    /// its bytes (tab to carriage return, and space).
    static func hasWhitespace(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.contains { $0 == 0x20 || (0x09...0x0D).contains($0) }
        }
        return text.unicodeScalars.contains { $0.properties.isWhitespace }
    }

    func template(_ node: DocumentNode, _ what: String) -> TextTemplate? {
        guard let text = string(node, what) else { return nil }
        do {
            let template = try TextTemplate(parsing: text)
            var ok = true
            for name in template.referencedNames where state[name] == nil {
                report(node, "\(what) reads unknown state name '\(name)'\(suggestion(name, among: Array(state.keys))); declare it under state:")
                ok = false
            }
            return ok ? template : nil
        } catch {
            report(node, "\(what): \(error.message) at character \(error.offset + 1) of \"\(text)\"")
            return nil
        }
    }

    func condition(_ node: DocumentNode, _ what: String) -> StateCondition? {
        guard let text = string(node, what) else { return nil }
        let negated = text.hasPrefix("!")
        let name = negated ? String(text.dropFirst()) : text
        guard state[name] != nil else {
            report(node, "\(what) reads unknown state name '\(name)'\(suggestion(name, among: Array(state.keys))); declare it under state:")
            return nil
        }
        return StateCondition(name: name, negated: negated)
    }

    func boolBinding(_ node: DocumentNode, _ what: String) -> BoolBinding? {
        if let scalar = node.asScalar, scalar.isPlain, scalar.string == "true" || scalar.string == "false" {
            return .constant(scalar.string == "true")
        }
        // A condition is a state name, so `1` or `yes please` is a wrong type, not an unknown name.
        if let scalar = node.asScalar, !scalar.isNull,
           TextTemplate.isValidName(scalar.string.hasPrefix("!") ? String(scalar.string.dropFirst()) : scalar.string) {
            return condition(node, what).map(BoolBinding.condition)
        }
        report(node, "expected true, false or a state condition (name or !name) for \(what), found \(describe(node))")
        return nil
    }

    /// A state or setting value: plain true/false is a boolean, a plain number a number, anything
    /// else a string (quote "true" or "5" to make them strings).
    func scalarValue(_ node: DocumentNode, _ what: String) -> StateValue? {
        guard visit(node) else { return nil }
        guard let scalar = node.asScalar, !scalar.isNull else {
            report(node, "expected true/false, a number or a string for \(what), found \(describe(node))")
            return nil
        }
        if scalar.isPlain {
            if scalar.string == "true" { return .bool(true) }
            if scalar.string == "false" { return .bool(false) }
            if let number = DocumentReader.parseNumber(scalar.string) { return .number(number) }
        }
        guard checkLength(scalar.string, node, what) else { return nil }
        return .string(scalar.string)
    }
}
