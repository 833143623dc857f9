import AccessibilityModel
import DumpImport
import Foundation
import Scenes
import Testing

@Suite("Importing XCUITest page sources")
struct IOSImportTests {
    @Test("ids, labels, values, traits, frames and enabled state come from the page source")
    func attributes() throws {
        let (_, scene, _) = try imported(iosDump(
            iosElement("Button", #"name="save-button" label="Save" enabled="false" visible="true" accessible="true" x="10" y="20" width="100" height="44""#),
            iosElement("Switch", #"name="wifi" label="Wi-Fi" value="1" enabled="true" visible="true" accessible="true" x="10" y="80" width="300" height="31""#),
            iosElement("StaticText", #"name="Welcome" label="Welcome" value="Welcome" enabled="true" visible="true" accessible="true" x="10" y="140" width="200" height="20" traits="Header, StaticText""#),
            iosElement("Slider", #"name="volume" label="Volume" value="50%" enabled="true" visible="true" accessible="true" x="10.5" y="200" width="300" height="31""#)))
        #expect(scanOrder(scene) == ["save-button", "wifi", "statictext-welcome", "volume"])
        let save = try #require(element(scene, "save-button"))
        #expect(save.label == "Save")
        #expect(save.traits == [.button, .notEnabled])
        #expect(save.frame == Rect(x: 10, y: 20, width: 100, height: 44))
        let wifi = try #require(element(scene, "wifi"))
        #expect(wifi.value == "on")
        #expect(wifi.traits == .button)
        // `name` equal to the label is no identifier: the id is made from type and label.
        let header = try #require(element(scene, "statictext-welcome"))
        #expect(header.traits == [.header, .staticText])
        #expect(header.value == nil)
        let volume = try #require(element(scene, "volume"))
        #expect(volume.traits == .adjustable)
        #expect(volume.frame?.x == 10.5)
        #expect(scene.size == (390, 844) || (scene.size.width == 390 && scene.size.height == 844))
    }

    @Test("containers stay containers; wrappers with one element are folded; an item hides what is inside it")
    func containers() throws {
        let (screen, scene, _) = try imported(iosDump(
            iosElement("Window", #"enabled="true" visible="true" accessible="false" x="0" y="0" width="390" height="844""#, close: false),
            iosElement("Other", #"enabled="true" visible="true" accessible="false" x="0" y="0" width="390" height="844""#, close: false),
            iosElement("Table", #"name="list" enabled="true" visible="true" accessible="false" x="0" y="100" width="390" height="200""#, close: false),
            iosElement("Cell", #"name="row-1" label="One" enabled="true" visible="true" accessible="true" x="0" y="100" width="390" height="50""#, close: false),
            iosElement("StaticText", #"name="One" label="One" enabled="true" visible="true" accessible="false" x="10" y="110" width="100" height="20""#),
            "</XCUIElementTypeCell>",
            iosElement("Cell", #"name="row-2" label="Two" enabled="true" visible="true" accessible="true" x="0" y="150" width="390" height="50""#),
            "</XCUIElementTypeTable>",
            "</XCUIElementTypeOther>",
            "</XCUIElementTypeWindow>"))
        let template = try #require(scene.screens.first)
        #expect(template.elements.map(\.id) == ["list"])
        #expect(template.elements[0].elements.map(\.id) == ["row-1", "row-2"])
        #expect(scanOrder(scene) == ["row-1", "row-2"])
        #expect(screen.skipped.map(\.reason) == [.insideItem])
    }

    @Test("elements a scanner skips are left out, counted by reason, each with its line and column")
    func skipped() throws {
        let (screen, scene, _) = try imported(iosDump(
            iosElement("Button", #"name="ok" label="OK" enabled="true" visible="true" accessible="true" x="10" y="20" width="100" height="44""#),
            iosElement("Button", #"name="hidden" label="Hidden" enabled="true" visible="false" accessible="true" x="10" y="80" width="100" height="44""#),
            iosElement("Button", #"name="flat" label="Flat" enabled="true" visible="true" accessible="true" x="10" y="140" width="0" height="44""#),
            iosElement("Button", #"name="below" label="Below" enabled="true" visible="true" accessible="true" x="10" y="900" width="100" height="44""#),
            iosElement("Image", #"name="decor" enabled="true" visible="true" accessible="false" x="10" y="200" width="100" height="44""#)))
        #expect(scanOrder(scene) == ["ok"])
        #expect(screen.skippedCounts.map { "\($0.count) \($0.reason.rawValue)" } == ["1 invisible", "1 zero size", "1 off screen", "1 not accessible"])
        #expect(screen.skipped.first { $0.reason == .invisible }?.position == DumpPosition(line: 5, column: 1))
    }

    @Test("labels with braces, quotes and line breaks survive as text, never as bindings")
    func quoting() throws {
        let (_, scene, _) = try imported(iosDump(
            iosElement("Button", #"name="b" label="Pay {amount} &quot;now&quot;&#10;please" value="a\b" enabled="true" visible="true" accessible="true" x="0" y="0" width="10" height="10""#)))
        let button = try #require(element(scene, "b"))
        #expect(button.label == "Pay {amount} \"now\"\nplease")
        #expect(button.value == "a\\b")
    }

    @Test("a 1,000-cell table imports in order, each cell an item of the scan, those below the screen too (VoiceOver scrolls to them)")
    func thousandCells() throws {
        var cells = [String]()
        for index in 0..<1000 {
            cells.append(iosElement("Cell", #"name="cell-\#(index)" label="Item \#(index)" enabled="true" visible="true" accessible="true" x="0" y="\#(index * 44)" width="390" height="44""#))
        }
        let (screen, scene, _) = try imported(iosDump(
            iosElement("Table", #"name="table" enabled="true" visible="true" accessible="false" x="0" y="0" width="390" height="844""#, close: false)
                + "\n" + cells.joined(separator: "\n") + "\n</XCUIElementTypeTable>"))
        // Cells below the screen's 844 points are scrolled out of view inside the table: a
        // VoiceOver user reaches them, in order, after those on screen.
        #expect(scanOrder(scene) == (0..<1000).map { "cell-\($0)" })
        #expect(screen.skipped.isEmpty)
    }

    @Test("a 1,000-cell table on a tall screen: every cell scanned in order")
    func thousandCellsTall() throws {
        var cells = [String]()
        for index in 0..<1000 {
            cells.append(iosElement("Cell", #"label="Item \#(index)" enabled="true" visible="true" accessible="true" x="0" y="\#(index * 44)" width="390" height="44""#))
        }
        let xml = """
            <AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="A" label="A" enabled="true" visible="true" accessible="false" x="0" y="0" width="390" height="44000">
            \(cells.joined(separator: "\n"))
            </XCUIElementTypeApplication></AppiumAUT>
            """
        let (_, scene, _) = try imported(xml)
        let order = scanOrder(scene)
        #expect(order.count == 1000)
        #expect(order.first == "cell-item-0")
        #expect(order.last == "cell-item-999")
        #expect(Set(order).count == 1000)
    }
}

extension IOSImportTests {
    @Test("an alert is modal: while it shows, only its buttons are scanned")
    func alert() throws {
        let (_, scene, text) = try imported(iosDump(
            iosElement("Button", #"name="behind" label="Behind" enabled="true" visible="true" accessible="true" x="10" y="20" width="100" height="44""#),
            iosElement("Alert", #"name="Delete?" label="Delete?" enabled="true" visible="true" accessible="false" x="50" y="300" width="290" height="150""#, close: false),
            iosElement("Button", #"name="cancel" label="Cancel" enabled="true" visible="true" accessible="true" x="50" y="400" width="145" height="44""#),
            iosElement("Button", #"name="delete" label="Delete" enabled="true" visible="true" accessible="true" x="195" y="400" width="145" height="44""#),
            "</XCUIElementTypeAlert>"))
        #expect(text.contains("accessibilityViewIsModal: true"))
        #expect(scanOrder(scene) == ["cancel", "delete"])
    }
}
