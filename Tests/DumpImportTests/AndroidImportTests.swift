import AccessibilityModel
import DumpImport
import Foundation
import Scenes
import Testing

@Suite("Importing UI Automator dumps")
struct AndroidImportTests {
    static let base = #" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false""#

    func node(_ id: String, _ className: String, text: String = "", description: String = "", _ flags: [String: String] = [:], bounds: String, close: Bool = true) -> String {
        var attributes = Self.base
        for (key, value) in flags { attributes = attributes.replacingOccurrences(of: " \(key)=\"false\"", with: " \(key)=\"\(value)\"").replacingOccurrences(of: " \(key)=\"true\"", with: " \(key)=\"\(value)\"") }
        return androidNode(#"text="\#(text)" resource-id="com.example:id/\#(id)" class="\#(className)" content-desc="\#(description)" \#(attributes)"#, bounds: bounds, close: close)
    }

    @Test("clickable is a tap, long-clickable a Long press action, checkable and checked a selected button")
    func actions() throws {
        let (_, scene, text) = try imported(androidDump(
            node("send", "android.widget.Button", text: "Send", ["clickable": "true", "long-clickable": "true"], bounds: "[0,100][540,200]"),
            node("wifi", "android.widget.Switch", text: "Wi-Fi", ["clickable": "true", "checkable": "true", "checked": "true"], bounds: "[0,200][1080,300]"),
            node("off", "android.widget.CheckBox", text: "Off", ["clickable": "true", "checkable": "true", "enabled": "false"], bounds: "[0,300][1080,400]")))
        #expect(scanOrder(scene) == ["send", "wifi", "off"])
        let send = try #require(element(scene, "send"))
        #expect(send.traits == .button)
        #expect(send.customActions.map(\.name) == ["Long press"])
        #expect(send.frame == Rect(x: 0, y: 100, width: 540, height: 100))
        #expect(try #require(element(scene, "wifi")).traits == [.button, .selected])
        #expect(try #require(element(scene, "off")).traits == [.button, .notEnabled])
        // A tap acts on the clickable ones: `activate` is there for the author's effects.
        #expect(text.components(separatedBy: "activate: []").count - 1 == 3)
    }

    @Test("a scrollable list is an item offering Scroll forward and Scroll backward, scanned before its rows, which do not")
    func scrolling() throws {
        let (_, scene, _) = try imported(androidDump(
            node("list", "androidx.recyclerview.widget.RecyclerView", ["scrollable": "true"], bounds: "[0,0][1080,2000]", close: false),
            node("a", "android.widget.TextView", text: "A", ["clickable": "true"], bounds: "[0,0][1080,200]"),
            node("b", "android.widget.TextView", text: "B", ["clickable": "true"], bounds: "[0,200][1080,400]"),
            "</node>"))
        #expect(scanOrder(scene) == ["list", "a", "b"])
        #expect(try #require(element(scene, "list")).customActions.map(\.name) == ["Scroll forward", "Scroll backward"])
        #expect(try #require(element(scene, "a")).customActions.isEmpty)
        #expect(try #require(element(scene, "a")).traits == .button)
    }

    @Test("a clickable row of texts is one item labelled with them, with its switch's state")
    func mergedRow() throws {
        let (screen, scene, _) = try imported(androidDump(
            node("row", "android.widget.LinearLayout", ["clickable": "true"], bounds: "[0,0][1080,200]", close: false),
            node("title", "android.widget.TextView", text: "Wi-Fi", bounds: "[10,10][400,60]"),
            node("summary", "android.widget.TextView", text: "Home", bounds: "[10,60][400,110]"),
            node("toggle", "android.widget.Switch", ["checkable": "true", "checked": "true"], bounds: "[900,50][1000,150]"),
            "</node>"))
        #expect(scanOrder(scene) == ["row"])
        let row = try #require(element(scene, "row"))
        #expect(row.label == "Wi-Fi, Home")
        #expect(row.traits == [.button, .selected])
        #expect(screen.skipped.count == 3)
    }

    @Test("content description wins over text; an edit field's text is its value and its hint the label")
    func labels() throws {
        let (_, scene, _) = try imported(androidDump(
            node("fab", "com.google.android.material.floatingactionbutton.FloatingActionButton", text: "+", description: "Add item", ["clickable": "true"], bounds: "[900,2000][1050,2150]"),
            androidNode(#"text="ann@example.com" resource-id="com.example:id/email" class="android.widget.EditText" content-desc="" hint="Email" \#(Self.base)"#, bounds: "[0,100][1080,250]"),
            androidNode(#"text="••••" resource-id="com.example:id/pin" class="android.widget.EditText" content-desc="PIN" \#(Self.base.replacingOccurrences(of: #"password="false""#, with: #"password="true""#))"#, bounds: "[0,300][1080,450]")))
        #expect(try #require(element(scene, "fab")).label == "Add item")
        let email = try #require(element(scene, "email"))
        #expect(email.label == "Email")
        #expect(email.value == "ann@example.com")
        #expect(email.traits == [])
        #expect(try #require(element(scene, "pin")).value == nil)
    }

    @Test("invisible, empty, off-screen and silent layout nodes are left out with their reasons")
    func skipped() throws {
        let (screen, scene, _) = try imported(androidDump(
            node("ok", "android.widget.Button", text: "OK", ["clickable": "true"], bounds: "[0,0][500,100]"),
            androidNode(#"text="Gone" resource-id="" class="android.widget.TextView" content-desc="" visible-to-user="false" \#(Self.base)"#, bounds: "[0,100][500,200]"),
            node("line", "android.view.View", bounds: "[0,200][1080,202]"),
            node("flat", "android.widget.Button", text: "Flat", ["clickable": "true"], bounds: "[0,300][0,400]"),
            node("far", "android.widget.Button", text: "Far", ["clickable": "true"], bounds: "[2000,300][2100,400]")))
        #expect(scanOrder(scene) == ["ok"])
        #expect(screen.skippedCounts.map { "\($0.count) \($0.reason.rawValue)" } == ["1 invisible", "1 zero size", "1 off screen", "1 not accessible"])
    }

    @Test("a resource id used by every row gives unique ids: the first as is, then screen-prefixed and numbered")
    func repeatedIDs() throws {
        let rows = (0..<3).map { index in node("title", "android.widget.TextView", text: "Row \(index)", ["clickable": "true"], bounds: "[0,\(index * 100)][1080,\(index * 100 + 100)]") }
        let (_, scene, _) = try imported(androidDump(rows[0], rows[1], rows[2]), file: "list.xml")
        #expect(scanOrder(scene) == ["title", "list-title", "list-title-2"])
    }

    @Test("a 1,000-row list: the list, then the rows on the screen in order, the rest off screen")
    func thousandRows() throws {
        let rows = (0..<1000).map { index in
            node("row", "android.widget.TextView", text: "Row \(index)", ["clickable": "true"], bounds: "[0,\(index * 20)][1080,\(index * 20 + 20)]")
        }
        let xml = androidDump(node("list", "android.widget.ListView", ["scrollable": "true"], bounds: "[0,0][1080,2400]", close: false) + "\n" + rows.joined(separator: "\n") + "\n</node>")
        let (screen, scene, _) = try imported(xml, file: "list.xml")
        let order = scanOrder(scene)
        #expect(order.count == 121)
        #expect(order.prefix(4) == ["list", "row", "list-row", "list-row-2"])
        #expect(try #require(element(scene, order[120])).label == "Row 119")
        #expect(screen.skippedCounts.map(\.count) == [880])
    }

    /// `dump` as Appium's UiAutomator2 page source writes the same tree: each element named after
    /// its class, `displayed` where UI Automator says `visible-to-user`.
    func appiumForm(_ dump: String) throws -> String {
        var open = [String]()
        var result = ""
        let tag = try Regex(#"<node ([^>]*?)(/?)>|</node>"#)
        var rest = Substring(dump)
        while let match = rest.firstMatch(of: tag) {
            result += rest[..<match.range.lowerBound]
            let text = String(rest[match.range])
            if text == "</node>" {
                result += "</\(open.removeLast())>"
            } else {
                let className = try #require(text.firstMatch(of: try Regex(#"class="([^"]*)""#))?.output[1].substring)
                let name = String(className)
                let attributes = text.dropFirst("<node ".count).replacingOccurrences(of: "visible-to-user=", with: "displayed=")
                result += "<\(name) \(attributes)"
                if !text.hasSuffix("/>") { open.append(name) }
            }
            rest = rest[match.range.upperBound...]
        }
        return result + rest
    }

    @Test("Appium's page source (elements named after their class, displayed) reads as the UI Automator dump of the same screen")
    func appiumPageSource() throws {
        let dump = androidDump(
            node("row", "android.widget.LinearLayout", ["clickable": "true"], bounds: "[0,0][1080,200]", close: false),
            node("title", "android.widget.TextView", text: "Wi-Fi", bounds: "[10,10][400,60]"),
            node("toggle", "android.widget.Switch", ["checkable": "true", "checked": "true"], bounds: "[900,50][1000,150]"),
            "</node>",
            node("feed", "android.widget.FrameLayout", ["clickable": "true"], bounds: "[0,300][1080,900]", close: false),
            node("liked", "android.widget.TextView", description: "Vídeo curtido", bounds: "[10,310][400,400]"),
            "</node>",
            androidNode(#"text="Gone" resource-id="com.example:id/gone" class="android.widget.Button" content-desc="" visible-to-user="false" clickable="true""#, bounds: "[0,1000][500,1100]"),
            node("ok", "android.widget.Button", text: "OK", ["clickable": "true"], bounds: "[0,1200][500,1300]"))
        let appium = try appiumForm(dump)
        #expect(appium.contains("<android.widget.LinearLayout ") && appium.contains("</android.widget.FrameLayout>") && appium.contains(#"displayed="false""#))
        let (nodeScreen, nodeScene, _) = try imported(dump)
        let (appiumScreen, appiumScene, _) = try imported(appium)
        #expect(scanOrder(appiumScene) == ["row", "feed", "ok"])
        #expect(scanOrder(appiumScene) == scanOrder(nodeScene))
        for id in ["row", "feed", "ok"] {
            let fromAppium = try #require(element(appiumScene, id))
            let fromNode = try #require(element(nodeScene, id))
            #expect(fromAppium.label == fromNode.label && fromAppium.traits == fromNode.traits)
        }
        #expect(try #require(element(appiumScene, "feed")).label == "Vídeo curtido")
        #expect(try #require(element(appiumScene, "row")).traits == [.button, .selected])
        #expect(appiumScreen.skippedCounts.map { "\($0.count) \($0.reason.rawValue)" } == nodeScreen.skippedCounts.map { "\($0.count) \($0.reason.rawValue)" })
        #expect(appiumScreen.skippedCounts.contains { $0.reason == .invisible && $0.count == 1 })
    }

    @Test("a label of several lines is shown on one line of the report")
    func multiLineLabelReport() throws {
        let (screen, scene, _) = try imported(androidDump(
            node("card", "android.widget.TextView", text: "Star rating&#10;4.5&#10;Downloads", ["clickable": "true"], bounds: "[0,0][1080,300]")))
        #expect(try #require(element(scene, "card")).label == "Star rating\n4.5\nDownloads")
        #expect(screen.keptLines.count == 1)
        #expect(screen.keptLines.allSatisfy { !$0.contains("\n") })
        #expect(screen.keptLines.first?.contains("'Star rating 4.5 Downloads'") == true)
    }

    @Test("an Appium element named after a class other than its own is refused at its line and column")
    func appiumMismatchedName() throws {
        let xml = androidDump(#"<android.widget.Button index="0" class="android.widget.TextView" text="OK" clickable="true" bounds="[0,0][100,100]" />"#)
        let found = try #require(problem(xml))
        #expect(found.position.line == 4)
        #expect(found.message.contains("unknown element type 'android.widget.Button'"))
    }
}
