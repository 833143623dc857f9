import AccessibilityModel
import Documents
@_exported import enum SwitchInput.SwitchAction

/// A scene file, loaded: an interface as element templates plus its behaviour and tests.
/// Templates hold bindings; `Scene.screen(_:state:)` resolves them into model elements.
public struct Scene: Sendable {
    public var title: String
    public var description: String?
    public var file: String
    /// Screen size in points.
    public var size: (width: Double, height: Double)
    /// The scene's default language (BCP 47).
    public var language: String
    /// Initial state, with names in declaration order.
    public var initialState: [String: StateValue]
    public var stateNames: [String]
    public var start: String
    /// Screens in declaration order.
    public var screens: [ScreenTemplate]
    public var tests: [ScriptedTest]
    /// What the app does when the scanner's highlight lands on an element or leaves it
    /// (`didBecomeFocused`, `didLoseFocus`), by element id; only elements that declare one.
    public var focusHooks: [ElementID: FocusHooks] = [:]

    public func screenTemplate(named name: String) -> ScreenTemplate? {
        screens.first { $0.name == name }
    }

    /// The screen resolved against `state`: bindings rendered, conditional traits and `visible`
    /// evaluated, languages inherited, and ids assigned.
    public func screen(_ name: String, state: [String: StateValue]) -> Screen? {
        screen(name, state: state) { _, template in template.resolve(state: state, language: language) }
    }

    /// The screen with its top-level elements given by `element` (the index and template of
    /// each): a caller that kept elements resolved for the same state values passes them back
    /// instead of resolving them again. `element` must give what `ElementTemplate.resolve` would.
    public func screen(
        _ name: String, state: [String: StateValue], element: (Int, ElementTemplate) -> Element
    ) -> Screen? {
        guard let template = screenTemplate(named: name) else { return nil }
        let root = Element(
            id: "screen:\(name)",
            language: language,
            frame: Rect(x: 0, y: 0, width: size.width, height: size.height),
            isAccessibilityElement: false,
            accessibilityElements: template.accessibilityElements,
            children: template.elements.enumerated().map { element($0.offset, $0.element) },
            escape: template.escape,
            magicTap: template.magicTap)
        return Screen(name: name, root: root)
    }

    /// The start screen with the initial state.
    public var startScreen: Screen {
        screen(start, state: initialState)!
    }

    /// Every element template of every screen, depth first.
    public var allElementTemplates: [ElementTemplate] {
        screens.flatMap { $0.elements.flatMap(\.subtree) }
    }

    /// How many elements the scene has (all screens), counted without copying them.
    public var elementCount: Int {
        func count(_ elements: [ElementTemplate]) -> Int { elements.reduce(elements.count) { $0 + count($1.elements) } }
        return screens.reduce(0) { $0 + count($1.elements) }
    }
}

public struct ScreenTemplate: Sendable {
    public var name: String
    public var title: String?
    public var elements: [ElementTemplate]
    public var accessibilityElements: [ElementID]?
    public var escape: [Effect]?
    public var magicTap: [Effect]?
    public var location: SourceLocation
}

/// A trait, always on or bound to a state condition (`{selected: wifi}`).
public struct TraitEntry: Hashable, Sendable {
    public var trait: Traits
    public var condition: StateCondition?
}

public struct CustomActionTemplate: Sendable {
    public var name: TextTemplate
    public var effects: [Effect]
    public var location: SourceLocation
}

public struct CustomContentTemplate: Sendable {
    public var label: TextTemplate
    public var value: TextTemplate
    public var isImportant: Bool
}

/// `accessibilityElementDidBecomeFocused` and `accessibilityElementDidLoseFocus` of an element
/// (the Orange guide's UIAccessibilityFocus), as effects the app runs when the highlight lands on
/// the element and when it leaves it.
public struct FocusHooks: Hashable, Sendable {
    public var didBecomeFocused: [Effect]
    public var didLoseFocus: [Effect]

    public init(didBecomeFocused: [Effect] = [], didLoseFocus: [Effect] = []) {
        self.didBecomeFocused = didBecomeFocused
        self.didLoseFocus = didLoseFocus
    }
}

/// An element as the file declares it, with its bindings unresolved.
///
/// The attributes most elements leave at their defaults (language, activation point, the
/// structural bindings, custom actions and content, behaviour) live in one shared, immutable
/// box, absent when all are defaults: a large scene has hundreds of bytes less per element
/// (issue 11: `validate` of a 1 MB file within 64 MB). They read and write as before.
public struct ElementTemplate: Sendable {
    public var id: ElementID
    /// True when the file gave the id; false when it was derived from the element's path.
    public var hasDeclaredID: Bool
    public var label: TextTemplate?
    public var value: TextTemplate?
    public var hint: TextTemplate?
    public var traits: [TraitEntry]
    public var frame: Rect?
    public var navigationStyle: NavigationStyle
    public var sortPriority: Double
    public var elements: [ElementTemplate]
    public var location: SourceLocation
    private var extras: Extras?

    /// The attributes kept apart, with their defaults.
    struct ExtraFields: Sendable {
        var language: String? = nil
        var activationPoint: Point? = nil
        var isAccessibilityElement: BoolBinding? = nil
        var accessibilityElementsHidden: BoolBinding = .constant(false)
        var accessibilityViewIsModal: BoolBinding = .constant(false)
        var shouldGroupAccessibilityChildren: BoolBinding = .constant(false)
        var accessibilityElements: [ElementID]? = nil
        var visible: StateCondition? = nil
        var customActions: [CustomActionTemplate] = []
        var customContent: [CustomContentTemplate] = []
        var activate: [Effect]? = nil
        var increment: [Effect]? = nil
        var decrement: [Effect]? = nil
        var escape: [Effect]? = nil
        var magicTap: [Effect]? = nil
        var placeholder: TextTemplate? = nil
        var textField: String? = nil

        var isDefault: Bool {
            language == nil && activationPoint == nil && isAccessibilityElement == nil
                && accessibilityElementsHidden == .constant(false) && accessibilityViewIsModal == .constant(false)
                && shouldGroupAccessibilityChildren == .constant(false) && accessibilityElements == nil && visible == nil
                && customActions.isEmpty && customContent.isEmpty && activate == nil && increment == nil
                && decrement == nil && escape == nil && magicTap == nil && placeholder == nil && textField == nil
        }
    }

    /// Immutable, so shared copies never change under each other; a write makes a new one.
    final class Extras: Sendable {
        let fields: ExtraFields
        init(_ fields: ExtraFields) { self.fields = fields }
    }

    private var fields: ExtraFields { extras?.fields ?? ExtraFields() }

    private mutating func change(_ body: (inout ExtraFields) -> Void) {
        var fields = self.fields
        body(&fields)
        extras = fields.isDefault ? nil : Extras(fields)
    }

    public var language: String? {
        get { extras?.fields.language ?? nil }
        set { change { $0.language = newValue } }
    }
    public var activationPoint: Point? {
        get { extras?.fields.activationPoint ?? nil }
        set { change { $0.activationPoint = newValue } }
    }
    public var isAccessibilityElement: BoolBinding? {
        get { extras?.fields.isAccessibilityElement ?? nil }
        set { change { $0.isAccessibilityElement = newValue } }
    }
    public var accessibilityElementsHidden: BoolBinding {
        get { extras?.fields.accessibilityElementsHidden ?? .constant(false) }
        set { change { $0.accessibilityElementsHidden = newValue } }
    }
    public var accessibilityViewIsModal: BoolBinding {
        get { extras?.fields.accessibilityViewIsModal ?? .constant(false) }
        set { change { $0.accessibilityViewIsModal = newValue } }
    }
    public var shouldGroupAccessibilityChildren: BoolBinding {
        get { extras?.fields.shouldGroupAccessibilityChildren ?? .constant(false) }
        set { change { $0.shouldGroupAccessibilityChildren = newValue } }
    }
    public var accessibilityElements: [ElementID]? {
        get { extras?.fields.accessibilityElements ?? nil }
        set { change { $0.accessibilityElements = newValue } }
    }
    public var visible: StateCondition? {
        get { extras?.fields.visible ?? nil }
        set { change { $0.visible = newValue } }
    }
    public var customActions: [CustomActionTemplate] {
        get { extras?.fields.customActions ?? [] }
        set { change { $0.customActions = newValue } }
    }
    public var customContent: [CustomContentTemplate] {
        get { extras?.fields.customContent ?? [] }
        set { change { $0.customContent = newValue } }
    }
    public var activate: [Effect]? {
        get { extras?.fields.activate ?? nil }
        set { change { $0.activate = newValue } }
    }
    public var increment: [Effect]? {
        get { extras?.fields.increment ?? nil }
        set { change { $0.increment = newValue } }
    }
    public var decrement: [Effect]? {
        get { extras?.fields.decrement ?? nil }
        set { change { $0.decrement = newValue } }
    }
    public var escape: [Effect]? {
        get { extras?.fields.escape ?? nil }
        set { change { $0.escape = newValue } }
    }
    public var magicTap: [Effect]? {
        get { extras?.fields.magicTap ?? nil }
        set { change { $0.magicTap = newValue } }
    }
    /// A text field's placeholder text: its label when it has none, while the field shows the
    /// placeholder (its value is empty), as UIKit's default label is (the Apple guide: "for a
    /// text field that displays placeholder text, the default label is the placeholder text").
    public var placeholder: TextTemplate? {
        get { extras?.fields.placeholder ?? nil }
        set { change { $0.placeholder = newValue } }
    }

    /// A text field that takes typed text (`textField: NAME`): the state value NAME (a string)
    /// holds its text; the scanning keyboard opens when it is selected and sets NAME.
    public var textField: String? {
        get { extras?.fields.textField ?? nil }
        set { change { $0.textField = newValue } }
    }

    init(
        id: ElementID,
        hasDeclaredID: Bool,
        label: TextTemplate?,
        value: TextTemplate?,
        hint: TextTemplate?,
        traits: [TraitEntry],
        language: String?,
        frame: Rect?,
        activationPoint: Point?,
        isAccessibilityElement: BoolBinding?,
        accessibilityElementsHidden: BoolBinding,
        accessibilityViewIsModal: BoolBinding,
        shouldGroupAccessibilityChildren: BoolBinding,
        navigationStyle: NavigationStyle,
        accessibilityElements: [ElementID]?,
        sortPriority: Double,
        visible: StateCondition?,
        elements: [ElementTemplate],
        customActions: [CustomActionTemplate],
        customContent: [CustomContentTemplate],
        activate: [Effect]?,
        increment: [Effect]?,
        decrement: [Effect]?,
        escape: [Effect]?,
        magicTap: [Effect]?,
        location: SourceLocation,
        keyPositions: [(key: String, position: TextPosition)]
    ) {
        self.id = id
        self.hasDeclaredID = hasDeclaredID
        self.label = label
        self.value = value
        self.hint = hint
        self.traits = traits
        self.frame = frame
        self.navigationStyle = navigationStyle
        self.sortPriority = sortPriority
        self.elements = elements
        self.location = location
        self.keyPositions = keyPositions
        var extra = ExtraFields()
        extra.language = language
        extra.activationPoint = activationPoint
        extra.isAccessibilityElement = isAccessibilityElement
        extra.accessibilityElementsHidden = accessibilityElementsHidden
        extra.accessibilityViewIsModal = accessibilityViewIsModal
        extra.shouldGroupAccessibilityChildren = shouldGroupAccessibilityChildren
        extra.accessibilityElements = accessibilityElements
        extra.visible = visible
        extra.customActions = customActions
        extra.customContent = customContent
        extra.activate = activate
        extra.increment = increment
        extra.decrement = decrement
        extra.escape = escape
        extra.magicTap = magicTap
        extras = extra.isDefault ? nil : Extras(extra)
    }

    /// Where each key of the element's mapping is, for reports that point at one attribute
    /// (a short array: cheaper than a dictionary per element in large scenes).
    public var keyPositions: [(key: String, position: TextPosition)]

    /// Where `key` is written in the element, or the element itself when it has no such key.
    public func location(of key: String) -> SourceLocation {
        guard let position = keyPositions.first(where: { $0.key == key })?.position else { return location }
        return SourceLocation(file: location.file, line: Int(position.line), column: Int(position.column))
    }

    /// This template and all below it, depth first.
    public var subtree: [ElementTemplate] {
        [self] + elements.flatMap(\.subtree)
    }

    /// What the element shows for `state`: the attributes that bindings of text and traits
    /// decide (the rest of the element is decided by structural bindings or is constant).
    public func shownAttributes(state: [String: StateValue]) -> ShownAttributes {
        var reader = DirectStateReader(state: state)
        return ShownTemplate.render(
            label: label, placeholder: placeholder, value: value, hint: hint, traits: traits, customActions: customActions,
            customContent: customContent, reading: &reader, make: ShownAttributes.init)
    }

    /// The templates `shownAttributes` renders, apart from the rest of the element.
    public var shownTemplate: ShownTemplate {
        ShownTemplate(
            label: label, placeholder: placeholder, value: value, hint: hint, traits: traits, customActions: customActions,
            customContent: customContent)
    }
}

/// The part of an element template that decides what the element shows (`ShownAttributes`),
/// kept on its own so that a rebuild can render it without reaching (and copying) the whole
/// element template in its screen. Its templates are in one immutable object: a relabel of many
/// elements reads each in place instead of copying six attributes out of an array per element.
public struct ShownTemplate: Sendable {
    private final class Templates: Sendable {
        let label: TextTemplate?
        let placeholder: TextTemplate?
        let value: TextTemplate?
        let hint: TextTemplate?
        let traits: [TraitEntry]
        let customActions: [CustomActionTemplate]
        let customContent: [CustomContentTemplate]

        init(
            label: TextTemplate?, placeholder: TextTemplate?, value: TextTemplate?, hint: TextTemplate?, traits: [TraitEntry],
            customActions: [CustomActionTemplate], customContent: [CustomContentTemplate]
        ) {
            self.label = label
            self.placeholder = placeholder
            self.value = value
            self.hint = hint
            self.traits = traits
            self.customActions = customActions
            self.customContent = customContent
        }
    }

    private let templates: Templates

    init(
        label: TextTemplate?, placeholder: TextTemplate?, value: TextTemplate?, hint: TextTemplate?, traits: [TraitEntry],
        customActions: [CustomActionTemplate], customContent: [CustomContentTemplate]
    ) {
        templates = Templates(
            label: label, placeholder: placeholder, value: value, hint: hint, traits: traits, customActions: customActions,
            customContent: customContent)
    }

    public func render(_ state: [String: StateValue]) -> ShownAttributes {
        var reader = DirectStateReader(state: state)
        return render(reading: &reader)
    }

    /// What the element shows for the state `texts` reads (the same as `render(texts.state)`),
    /// each value's text made once for all the templates rendered with it.
    public func render(_ texts: inout StateTexts) -> ShownAttributes {
        render(reading: &texts)
    }

    /// What each of `templates` at `indices` shows for `state`, in that order, each ready to be
    /// shared by every copy of its element (`Element.showing(_:)`): a relabel of many elements,
    /// with each value's text made once for all of them.
    public static func render(
        _ templates: [ShownTemplate], at indices: [Int], state: [String: StateValue]
    ) -> [ShownAttributes.Shared] {
        var texts = StateTexts(state)
        var shared = [ShownAttributes.Shared]()
        shared.reserveCapacity(indices.count)
        for index in indices {
            let templates = templates[index].templates
            shared.append(ShownTemplate.render(
                label: templates.label, placeholder: templates.placeholder, value: templates.value, hint: templates.hint, traits: templates.traits,
                customActions: templates.customActions, customContent: templates.customContent, reading: &texts,
                make: ShownAttributes.Shared.init))
        }
        return shared
    }

    func render<Reader: StateReading>(reading reader: inout Reader) -> ShownAttributes {
        let templates = self.templates
        return ShownTemplate.render(
            label: templates.label, placeholder: templates.placeholder, value: templates.value, hint: templates.hint, traits: templates.traits,
            customActions: templates.customActions, customContent: templates.customContent, reading: &reader,
            make: ShownAttributes.init)
    }

    /// What an element with these templates shows for the state `reader` reads, made by `make`
    /// (the attributes, or an object sharing them).
    @inline(__always)
    static func render<Reader: StateReading, Result>(
        label: TextTemplate?, placeholder: TextTemplate?, value: TextTemplate?, hint: TextTemplate?, traits entries: [TraitEntry],
        customActions: [CustomActionTemplate], customContent: [CustomContentTemplate], reading reader: inout Reader,
        make: (String?, String?, String?, Traits, [CustomAction], [CustomContent]) -> Result
    ) -> Result {
        var traits = Traits()
        for entry in entries where entry.condition.map({ reader.isTruthy($0.name) != $0.negated }) ?? true {
            traits.insert(entry.trait)
        }
        let valueText = value?.render(reading: &reader)
        var labelText = label?.render(reading: &reader)
        // The placeholder is shown, and read as the label, only while the field is empty.
        if labelText == nil, let placeholder, valueText?.isEmpty ?? true {
            labelText = placeholder.render(reading: &reader)
        }
        return make(
            labelText, valueText,
            hint?.render(reading: &reader), traits,
            customActions.map { CustomAction(name: $0.name.render(reading: &reader), effects: $0.effects) },
            customContent.map {
                CustomContent(label: $0.label.render(reading: &reader), value: $0.value.render(reading: &reader), isImportant: $0.isImportant)
            })
    }
}

extension ElementTemplate {
    public func resolve(state: [String: StateValue], language inherited: String) -> Element {
        // One StateTexts for the whole subtree: each value's text is made once for all of it.
        var texts = StateTexts(state)
        return resolve(state: state, texts: &texts, language: inherited)
    }

    func resolve(state: [String: StateValue], texts: inout StateTexts, language inherited: String) -> Element {
        let language = self.language ?? inherited
        let shown = ShownTemplate.render(
            label: label, placeholder: placeholder, value: value, hint: hint, traits: traits, customActions: customActions,
            customContent: customContent, reading: &texts, make: ShownAttributes.init)
        return Element(
            id: id,
            label: shown.label,
            value: shown.value,
            hint: shown.hint,
            traits: shown.traits,
            language: language,
            frame: frame,
            activationPoint: activationPoint,
            isAccessibilityElement: isAccessibilityElement?.evaluate(state),
            accessibilityElementsHidden: accessibilityElementsHidden.evaluate(state),
            accessibilityViewIsModal: accessibilityViewIsModal.evaluate(state),
            shouldGroupAccessibilityChildren: shouldGroupAccessibilityChildren.evaluate(state),
            navigationStyle: navigationStyle,
            accessibilityElements: accessibilityElements,
            sortPriority: sortPriority,
            isPresent: visible?.evaluate(state) ?? true,
            children: elements.map { $0.resolve(state: state, texts: &texts, language: language) },
            customActions: shown.customActions,
            customContent: shown.customContent,
            activate: activate,
            increment: increment,
            decrement: decrement,
            escape: escape,
            magicTap: magicTap)
    }
}


/// A scripted test: settings, then steps run in virtual time on a fresh copy of the scene.
public struct ScriptedTest: Sendable {
    public var name: String
    /// The screen the test starts on (default: the scene's `start`), so every screen of a scene
    /// can be tested, including variants no `go` leads to.
    public var screen: String?
    /// The switch profile its `key:` steps go through (`profile:`, an addition): a profile file,
    /// relative to the scene file, or a profile's id or name. The host resolves it (this module
    /// reads no file); nil: the host's default (the generic keyboard profile, or `--profile`).
    public var profile: (name: String, location: SourceLocation)?
    public var settings: [(name: String, value: StateValue, location: SourceLocation)]
    public var steps: [TestStep]
    public var location: SourceLocation
}

public struct TestStep: Sendable {
    public enum Kind: Sendable {
        /// Press and release a switch assigned this action; with `longPressAction`, a switch
        /// that also carries that long-press action (as a profile's switch does), held past the
        /// `longPress` setting.
        case press(SwitchAction, longPressAction: SwitchAction? = nil)
        /// Hold a switch for a number of virtual seconds, then release it (with
        /// `longPressAction`, a switch that also carries that long-press action).
        case hold(SwitchAction, seconds: Double, longPressAction: SwitchAction? = nil)
        /// The app changes by itself (a timer firing, data arriving): the scene's effects run
        /// with no user press (`app:` or `post:`).
        case app([Effect])
        /// Let virtual time pass.
        case wait(Double)
        /// Press a braille routing key (0-based cell).
        case route(Int)
        /// A raw evdev key event through the active device profile.
        case key(code: String, value: Int)
        /// Type this text on the scanning keyboard open on a text field, as a user who makes no
        /// mistakes would: waits for the highlight (or moves it, scanning manually) and selects.
        case type(String)
        case expect(Expectation)
    }

    public var kind: Kind
    public var location: SourceLocation
}

/// What a test step checks; every field is optional.
public struct Expectation: Sendable {
    public var focus: ElementID?
    /// `focus: {groupContaining: id}`: the highlight is on the item `id` or on a group that
    /// holds it (an automatic group named by a member).
    public var focusContaining: ElementID?
    /// `highlight: none` (nothing is highlighted) or `highlight: menuButton`.
    public var highlight: HighlightKind?
    public var braille: String?
    /// `braille: {contains: …}` / `{matches: …}`.
    public var brailleMatch: TextMatch?
    public var menu: [String]?
    public var menuFocus: String?
    public var screen: String?
    public var state: [(name: String, value: StateValue)]?
    public var announcement: String?
    /// `announcement: {contains: …}` / `{matches: …}`.
    public var announcementMatch: TextMatch?
    public var scanning: ScanningStatus?
    /// `rejected: bounce`: an edge of the last input step was rejected for this reason (the
    /// stabiliser's name for it: bounce, autorepeat, releasedBeforeHoldDuration, …), or
    /// `none`: no edge of it was.
    public var rejected: String?
    /// `ignored: "not enabled"`: a switch action of the last input step had no effect, for a
    /// reason containing this text (ignoring case), or `none`: every one acted.
    public var ignored: String?
    /// `element: {id: …, traits: […], frame: […], …}`: attributes of an element as it is now.
    public var element: ElementExpectation?
    /// The braille line on the display when the last press landed (what the reader acted on).
    public var pressedOn: String?

    public enum ScanningStatus: String, Sendable, CaseIterable {
        case running, stopped
    }

    public enum HighlightKind: String, Sendable, CaseIterable {
        /// Nothing is highlighted (the screen has no item, or scanning stopped).
        case none
        /// The scanner menu button (`alwaysTap`, at the end of a cycle).
        case menuButton
        /// An item or a group.
        case item
    }

    public init() {}
}

/// A text compared otherwise than whole: `{contains: "4 euros"}` (a substring, case
/// sensitive) or `{matches: "Frame [0-9]+, .*"}` (a regular expression that must match the whole
/// text, as if written between `^` and `$`).
public enum TextMatch: Hashable, Sendable, CustomStringConvertible {
    case contains(String)
    case matches(String)

    public var description: String {
        switch self {
        case .contains(let text): return "text containing '\(text)'"
        case .matches(let pattern): return "text matching /\(pattern)/"
        }
    }
}

/// Attributes of an element, as resolved with the current state; each one given is compared.
public struct ElementExpectation: Sendable {
    /// The element; nil: the highlighted item.
    public var id: ElementID?
    public var label: String?
    public var value: String?
    public var hint: String?
    /// The whole set of traits (in any order).
    public var traits: Traits?
    /// `[x, y, width, height]`: the frame as declared, else the union of the children's.
    public var frame: Rect?
    public var language: String?
    /// `[x, y]`: as declared, else the centre of the frame.
    public var activationPoint: Point?

    public init() {}
}
