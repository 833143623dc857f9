import AccessibilityModel
import DumpImport
import Foundation
import Scenes
import Testing

/// Page sources and dumps in the shape the tools write them: WebDriverAgent without `accessible`
/// attributes, rows scrolled out of view, Android clickable layouts with no text of their own.
@Suite("Dumps as the tools write them")
struct ToolShapedDumpTests {
    /// An element as WebDriverAgent writes it when it leaves out `accessible`.
    func wda(_ type: String, y: Int, height: Int = 40, x: Int = 10, width: Int = 300, visible: Bool = true, enabled: Bool = true, _ rest: String = "", close: Bool = true) -> String {
        iosElement(type, #"enabled="\#(enabled)" visible="\#(visible)" x="\#(x)" y="\#(y)" width="\#(width)" height="\#(height)" \#(rest)"#, close: close)
    }

    @Test("without accessible attributes, UIKit's defaults decide: controls, texts and labelled images are items, windows and plain views containers")
    func uikitDefaults() throws {
        let (screen, scene, text) = try imported(iosDump(
            wda("Window", y: 0, height: 844, x: 0, width: 390, close: false),
            wda("Other", y: 0, height: 844, x: 0, width: 390, close: false),
            wda("StaticText", y: 50, #"name="Title" label="Title" value="Title""#),
            wda("Button", y: 100, #"name="save" label="Save""#),
            wda("Switch", y: 150, #"name="wifi" label="Wi-Fi" value="1""#),
            wda("Slider", y: 200, #"name="volume" label="Volume" value="50%""#),
            wda("TextField", y: 250, #"name="email" label="Email""#),
            wda("Link", y: 300, #"name="terms" label="Terms""#),
            wda("Image", y: 350, #"name="logo" label="Logo""#),
            wda("Image", y: 400),
            wda("Other", y: 450),
            "</XCUIElementTypeOther>", "</XCUIElementTypeWindow>"))
        #expect(scanOrder(scene) == ["statictext-title", "save", "wifi", "volume", "email", "terms", "logo"])
        #expect(try #require(element(scene, "save")).traits == .button)
        let wifi = try #require(element(scene, "wifi"))
        #expect(wifi.traits == .button)
        #expect(wifi.value == "on")
        #expect(try #require(element(scene, "volume")).traits == .adjustable)
        #expect(try #require(element(scene, "terms")).traits == .link)
        // What a tap acts on: the button, switch, field and link.
        #expect(text.components(separatedBy: "activate: []").count - 1 == 4)
        // The unlabelled image and the empty view are what VoiceOver skips.
        #expect(screen.skippedCounts.map { "\($0.count) \($0.reason.rawValue)" } == ["2 not accessible"])
        #expect(screen.keptLines.contains { $0.hasPrefix("Button 'Save' at ") && $0.hasSuffix(": Button: an accessibility element by default (no accessible attribute, as UIKit decides)") })
    }

    @Test("where accessible is written it decides, and the report says so")
    func attributeDecides() throws {
        let (screen, scene, _) = try imported(iosDump(
            wda("Button", y: 100, #"name="shown" label="Shown" accessible="true""#),
            wda("StaticText", y: 150, #"name="quiet" label="Quiet" accessible="false""#)))
        #expect(scanOrder(scene) == ["shown"])
        #expect(screen.keptLines.contains { $0.hasPrefix("Button 'Shown' at ") && $0.hasSuffix(": accessible=\"true\"") })
    }

    @Test("a row without accessible is one item read with its texts or its switch; a shown control inside stays an item after it; the hidden chevron is left out")
    func rows() throws {
        let (screen, scene, _) = try imported(iosDump(
            wda("Table", y: 0, height: 844, x: 0, width: 390, close: false),
            wda("Cell", y: 100, height: 45, x: 0, width: 390, close: false),
            wda("Image", y: 107, height: 30, x: 20, width: 29, visible: false),
            wda("StaticText", y: 112, height: 21, x: 64, width: 160, #"name="KEYBOARDS" label="Keyboards" value="Keyboards""#),
            wda("StaticText", y: 112, height: 21, x: 260, width: 90, #"name="2" label="2" value="2""#),
            wda("Button", y: 115, height: 15, x: 358, width: 12, visible: false, enabled: false, #"name="chevron" label="chevron""#),
            "</XCUIElementTypeCell>",
            wda("Cell", y: 145, height: 45, x: 0, width: 390, close: false),
            wda("Switch", y: 145, height: 45, x: 0, width: 390, #"name="Auto-Capitalization" label="Auto-Capitalization" value="1""#),
            "</XCUIElementTypeCell>",
            wda("Cell", y: 190, height: 45, x: 0, width: 390, #"name="Home" label="Home""#, close: false),
            wda("StaticText", y: 202, height: 21, x: 64, width: 160, #"name="Home" label="Home" value="Home""#),
            wda("Button", y: 197, height: 30, x: 340, width: 40, #"name="More Info" label="More Info""#),
            "</XCUIElementTypeCell>",
            "</XCUIElementTypeTable>"))
        #expect(scanOrder(scene) == ["cell-keyboards-2", "cell-auto-capitalization", "cell-home", "button-more-info"])
        #expect(try #require(element(scene, "cell-keyboards-2")).label == "Keyboards, 2")
        let switchRow = try #require(element(scene, "cell-auto-capitalization"))
        #expect(switchRow.label == "Auto-Capitalization")
        #expect(switchRow.value == "on")
        #expect(switchRow.traits == .button)
        // The row with its own control is a group of the row, then the control.
        #expect(scene.screens[0].elements.map(\.id) == ["cell-keyboards-2", "cell-auto-capitalization", "cell-group"])
        #expect(screen.skipped.filter { $0.reason == .invisible }.map(\.type) == ["Button"])
        #expect(screen.skipped.filter { $0.reason == .insideItem }.map(\.type) == ["Image", "StaticText", "StaticText", "Switch", "StaticText"])
    }

    @Test("rows scrolled out of view inside a table are kept after those on screen; visible false on screen, and off screen outside a scroll view, are left out")
    func scrolledOutOfView() throws {
        let (screen, scene, _) = try imported(iosDump(
            wda("Table", y: 0, height: 800, x: 0, width: 390, close: false),
            wda("Cell", y: 300, height: 45, x: 0, width: 390, visible: false, #"name="Hidden" label="Hidden""#),
            wda("Cell", y: 700, height: 45, x: 0, width: 390, #"name="Shown" label="Shown""#),
            wda("Cell", y: 860, height: 45, x: 0, width: 390, visible: false, #"name="Below" label="Below""#),
            wda("Cell", y: 905, height: 45, x: 0, width: 390, #"name="Further" label="Further""#),
            "</XCUIElementTypeTable>",
            wda("Button", y: 500, visible: false, #"name="Gone" label="Gone""#),
            wda("Button", y: 900, #"name="Off" label="Off""#)))
        #expect(scanOrder(scene) == ["cell-shown", "cell-below", "cell-further"])
        #expect(screen.skippedCounts.map { "\($0.count) \($0.reason.rawValue)" } == ["2 invisible", "1 off screen"])
        #expect(screen.keptLines.contains { $0.hasPrefix("Cell 'Below'") && $0.contains("scrolled out of view") })
        #expect(try #require(element(scene, "cell-below")).frame == Rect(x: 0, y: 860, width: 390, height: 45))
    }

    @Test("a dump of which nothing would be scanned is refused at its root, with what was left out")
    func nothingKept() throws {
        let ios = try #require(problem(iosDump(
            wda("Window", y: 0, height: 844, x: 0, width: 390, close: false),
            wda("Other", y: 0, height: 844, x: 0, width: 390),
            wda("Button", y: 100, visible: false, #"name="Gone" label="Gone""#),
            "</XCUIElementTypeWindow>")))
        #expect(ios.message == "no element of this iOS XCUITest page source would be scanned (3 left out: 1 invisible, 2 not accessible); nothing is imported from it")
        #expect(ios.position.line == 2)  // <AppiumAUT>, the root
        let android = try #require(problem(androidDump(androidNode(#"text="" class="android.view.View" content-desc="""#, bounds: "[0,0][100,100]"))))
        #expect(android.message.hasPrefix("no element of this Android UI Automator dump would be scanned (2 left out: 2 not accessible)"))
    }
}

extension ToolShapedDumpTests {
    static let base = #" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false""#

    func node(_ id: String, _ className: String, text: String = "", description: String = "", clickable: Bool = false, scrollable: Bool = false, bounds: String, close: Bool = true) -> String {
        let attributes = Self.base
            .replacingOccurrences(of: #" clickable="false""#, with: #" clickable="\#(clickable)""#)
            .replacingOccurrences(of: #" scrollable="false""#, with: #" scrollable="\#(scrollable)""#)
        return androidNode(#"text="\#(text)" resource-id="com.example:id/\#(id)" class="\#(className)" content-desc="\#(description)" \#(attributes)"#, bounds: bounds, close: close)
    }

    @Test("a clickable layout with no text of its own is read with its silent children's text; the clickable frame inside it stays an item of its own")
    func clickableLayout() throws {
        let (screen, scene, _) = try imported(androidDump(
            node("card", "android.widget.FrameLayout", clickable: true, bounds: "[0,0][1080,1000]", close: false),
            node("caption", "android.widget.TextView", text: "Bolo de cenoura", bounds: "[0,0][800,100]"),
            node("photo", "android.widget.ImageView", description: "Foto do bolo", bounds: "[0,100][800,600]"),
            node("like", "android.widget.FrameLayout", clickable: true, bounds: "[900,100][1080,300]", close: false),
            node("heart", "android.widget.ImageView", description: "Vídeo curtido", bounds: "[900,100][1080,200]"),
            node("count", "android.widget.TextView", text: "12", bounds: "[900,200][1080,300]"),
            "</node>",
            "</node>"))
        #expect(scanOrder(scene) == ["card", "like"])
        let card = try #require(element(scene, "card"))
        #expect(card.label == "Bolo de cenoura, Foto do bolo")
        #expect(card.traits == .button)
        #expect(try #require(element(scene, "like")).label == "Vídeo curtido, 12")
        #expect(screen.skipped.map(\.reason) == Array(repeating: .insideItem, count: 4))
        #expect(screen.keptLines.contains { $0.hasPrefix("FrameLayout 'Bolo de cenoura, Foto do bolo'") && $0.hasSuffix(#"clickable="true"; labelled by the text of the children that do nothing themselves, as TalkBack reads it"#) })
    }

    @Test("scroll actions are the scrollable list's, an item before its rows; the rows keep only their own actions")
    func scrollActionsOnTheList() throws {
        let (_, scene, _) = try imported(androidDump(
            node("feed", "androidx.viewpager.widget.ViewPager", scrollable: true, bounds: "[0,0][1080,2000]", close: false),
            node("video", "android.widget.FrameLayout", clickable: true, bounds: "[0,0][1080,2000]", close: false),
            node("caption", "android.widget.TextView", text: "Receita", bounds: "[0,1800][800,1900]"),
            node("share", "android.widget.Button", description: "Compartilhar", clickable: true, bounds: "[900,1000][1080,1200]"),
            "</node>",
            "</node>"))
        #expect(scanOrder(scene) == ["feed", "video", "share"])
        #expect(try #require(element(scene, "feed")).customActions.map(\.name) == ["Scroll forward", "Scroll backward"])
        #expect(try #require(element(scene, "video")).customActions.isEmpty)
        #expect(try #require(element(scene, "video")).label == "Receita")
        #expect(try #require(element(scene, "share")).customActions.isEmpty)
    }
}
