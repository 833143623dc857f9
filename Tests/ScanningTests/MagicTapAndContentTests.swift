import AccessibilityModel
@testable import Scanning
import Scenes
import SwitchInput
import Testing

// Issue 13: a magic tap is offered in the scanner menu as Escape is (the item's own handler, an
// ancestor's, else the screen's), and important custom content is shown with the item, the rest
// under More content. Engine-level checks on inline structures, then whole scenes run as a
// tester's scripted test would.

private func item(_ id: String, _ traits: Traits = [.button], content: [CustomContent] = []) -> ScanNode {
    .item(Element(id: id, label: id.capitalized, traits: traits, frame: Rect(x: 0, y: 0, width: 40, height: 40), customContent: content))
}

private func manualEngine() -> ScanningEngine {
    var settings = ScanSettings()
    settings.scanning = .manual
    return ScanningEngine(settings: settings)
}

private func performed(_ actions: [ScanAction]) -> [String] {
    actions.compactMap { if case .perform(let command, let element) = $0 { return "\(command) \(element?.id ?? "screen")" } else { return nil } }
}

private func flashes(_ actions: [ScanAction]) -> [String] {
    actions.compactMap { if case .flash(let text, _) = $0 { return text } else { return nil } }
}

@Suite("Scanning engine: magic tap in the menu")
struct MagicTapMenuTests {
    @Test func anItemWhoseHandlerReachesItOffersMagicTapAndSelectingItPerformsIt() {
        var scanner = manualEngine()
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [item("call"), item("other")], magicTappable: ["call"]), .initial, time: 0))
        _ = scanner.handle(.began(.select, time: 1))
        #expect(scanner.menu?.entries.map(\.title) == ["Tap", "Magic tap", "Exit menu"])
        _ = scanner.handle(.began(.next, time: 2))
        let chosen = scanner.handle(.began(.select, time: 3))
        #expect(performed(chosen) == ["magicTap call"])
        #expect(chosen.contains(.menuClosed))
    }

    @Test func anItemNoHandlerReachesOffersNoMagicTap() {
        var scanner = manualEngine()
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [item("call"), item("other")], magicTappable: ["call"]), .initial, time: 0))
        _ = scanner.handle(.began(.next, time: 1))
        _ = scanner.handle(.began(.select, time: 2))
        #expect(scanner.highlight.focusID == "other")
        #expect(scanner.menu?.entries.map(\.title) == ["Tap", "Exit menu"])
    }

    @Test func theScreensMagicTapIsOfferedOnEveryItemAfterEscape() {
        var scanner = manualEngine()
        let structure = ScanStructure(nodes: [item("a"), item("b")], screenHandlesEscape: true, screenHandlesMagicTap: true)
        _ = scanner.handle(.structureChanged(structure, .initial, time: 0))
        _ = scanner.handle(.began(.next, time: 1))
        _ = scanner.handle(.began(.select, time: 2))
        #expect(scanner.menu?.entries.map(\.title) == ["Tap", "Escape", "Magic tap", "Exit menu"])
        _ = scanner.handle(.began(.previous, time: 3))  // from Tap round to Exit menu
        _ = scanner.handle(.began(.previous, time: 4))
        #expect(scanner.menu.map { $0.entries[$0.focus].title } == "Magic tap")
        #expect(performed(scanner.handle(.began(.select, time: 5))) == ["magicTap b"])
    }
}

@Suite("Where a magic tap handler reaches")
struct MagicTapReachTests {
    /// Without a screen handler: the element's own handler and its descendants', nothing else.
    @Test func anElementsHandlerReachesItsSubtreeOnly() {
        let tree = Element(id: "root", children: [
            Element(id: "banner", children: [Element(id: "answer", label: "Answer")], magicTap: []),
            Element(id: "title", label: "Title"),
            Element(id: "draft", label: "Draft", magicTap: []),
            Element(id: "gone", isPresent: false, children: [Element(id: "gone-child", label: "Gone", magicTap: [])]),
        ])
        #expect(ScanSession.reach(of: \.magicTap, in: tree, handled: false) == ["banner", "answer", "draft"])
        #expect(ScanSession.reach(of: \.escape, in: tree, handled: false) == [])
    }
}

@Suite("Scanning engine: important custom content")
struct ImportantContentMenuTests {
    @Test func moreContentHoldsOnlyTheContentThatIsNotImportant() {
        var scanner = manualEngine()
        let logo = item("logo", [.image], content: [
            CustomContent(label: "date of creation", value: "1988", isImportant: true),
            CustomContent(label: "registered office location", value: "paris"),
            CustomContent(label: "type of company", value: "telecommunications"),
        ])
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [logo]), .initial, time: 0))
        _ = scanner.handle(.began(.select, time: 1))
        #expect(scanner.menu?.entries.map(\.title) == ["Tap", "More content", "Exit menu"])
        _ = scanner.handle(.began(.next, time: 2))
        #expect(flashes(scanner.handle(.began(.select, time: 3)))
            == ["registered office location: paris; type of company: telecommunications"])
    }

    @Test func onlyImportantContentLeavesNoMoreContentEntry() {
        var scanner = manualEngine()
        let logo = item("logo", [.image], content: [CustomContent(label: "date of creation", value: "1988", isImportant: true)])
        _ = scanner.handle(.structureChanged(ScanStructure(nodes: [logo]), .initial, time: 0))
        _ = scanner.handle(.began(.select, time: 1))
        #expect(scanner.menu?.entries.map(\.title) == ["Tap", "Exit menu"])
    }
}

// MARK: Whole scenes

private let magicTapScene = """
    scene: Magic tap
    size: [390, 844]
    state: {playing: false, answered: false, saved: false}
    start: player
    screens:
      player:
        magicTap: [{toggle: playing}, {announce: Play or pause}]
        elements:
          - id: call-banner
            frame: [0, 0, 390, 60]
            magicTap: [{set: {answered: true}}]
            elements:
              - {id: answer, label: Answer, traits: [button], frame: [20, 10, 170, 40]}
          - {id: title, label: Now playing, traits: [header], frame: [20, 100, 350, 44]}
          - {id: draft, label: Draft, traits: [button], frame: [20, 160, 350, 44], magicTap: [{set: {saved: true}}]}
      quiet:
        elements:
          - {id: quiet-title, label: Quiet, traits: [header], frame: [20, 100, 350, 44]}
    tests:
      - name: an ancestor's magic tap, the screen's, the element's own
        settings: {scanning: manual, tapBehavior: default, groupItems: false}
        steps:
          - expect: {focus: answer, braille: Answer btn}
          - press: select
          - expect: {menu: [Tap, Magic tap, Exit menu], braille: "Tap 1/3: Answer btn"}
          - press: next
          - expect: {menuFocus: Magic tap, braille: "Magic tap 2/3: Answer btn"}
          - press: select
          - expect: {menu: [], state: {answered: true, playing: false, saved: false}, focus: answer}
          - press: next
          - expect: {focus: title}
          - press: select
          - press: next
          - press: select
          - expect: {state: {answered: true, playing: true, saved: false}, announcement: Play or pause}
          - press: next  # takes the announcement off the display
          - press: next
          - expect: {focus: draft}
          - press: select
          - press: next
          - press: select
          - expect: {state: {answered: true, playing: true, saved: true}}
      - name: a screen without magic tap offers none
        screen: quiet
        settings: {scanning: manual, tapBehavior: default}
        steps:
          - press: select
          - expect: {menu: [Tap, Exit menu]}

    """

private let importantContentScene = """
    scene: Important content
    size: [390, 844]
    start: main
    screens:
      main:
        elements:
          - id: logo
            label: Orange logo
            traits: [image]
            frame: [20, 100, 350, 100]
            customContent:
              - {label: date of creation, value: "1988", important: true}
              - {label: registered office location, value: paris}
          - id: badge
            label: Badge
            traits: [image]
            frame: [20, 220, 350, 100]
            customContent:
              - {label: level, value: gold, important: true}
    tests:
      - name: important content on the line, the rest under More content
        settings: {scanning: manual, tapBehavior: default}
        steps:
          - expect: {focus: logo, braille: Orange logo 1988 img}
          - press: select
          - expect: {menu: [Tap, More content, Exit menu], braille: "Tap 1/3: Orange logo 1988 img"}
          - press: next
          - press: select
          - expect: {braille: "registered office location: paris"}
      - name: only important content, no More content
        settings: {scanning: manual, tapBehavior: default}
        steps:
          - press: next
          - expect: {focus: badge, braille: Badge gold img}
          - press: select
          - expect: {menu: [Tap, Exit menu]}

    """

@Suite struct MagicTapAndContentSceneTests {
    @Test(arguments: [0, 1])
    func magicTapTests(test index: Int) throws {
        let scene = try SceneParser.parse(yaml: magicTapScene, file: "magic.yaml")
        let result = ScriptRunner(scene: scene).run(scene.tests[index])
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    @Test(arguments: [0, 1])
    func importantContentTests(test index: Int) throws {
        let scene = try SceneParser.parse(yaml: importantContentScene, file: "content.yaml")
        let result = ScriptRunner(scene: scene).run(scene.tests[index])
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    /// The structure the cache patches after an effect is the one a full build gives, also for
    /// where magic tap reaches.
    @Test func theCachedStructureKnowsWhereMagicTapReaches() throws {
        let scene = try SceneParser.parse(yaml: magicTapScene, file: "magic.yaml")
        var content = SceneContent(scene: scene)
        let first = content.rebuildStructure(groupItems: false)
        #expect(first.magicTappable.isSuperset(of: ["call-banner", "answer", "title", "draft"]))
        #expect(first.screenHandlesMagicTap)
        let title = try #require(first.nodes.first { $0.id == "title" }?.element)
        _ = content.perform(.magicTap, on: title)
        let after = content.rebuildStructure(groupItems: false)
        #expect(after == ScanSession.buildStructure(scene: scene, state: content.state, groupItems: false))
        #expect(content.state.values["playing"] == .bool(true))
    }
}
