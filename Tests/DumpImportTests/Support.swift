import AccessibilityModel
import DumpImport
import Foundation
import Scenes
import Testing

/// One dump converted to a screen and a scene, as `switchscan import` does (minus the file).
func imported(_ xml: String, file: String = "dump.xml", format: DumpFormat? = nil, limits: DumpLimits = .standard)
    throws -> (screen: ImportedScreen, scene: Scene, text: String)
{
    let screen = try DumpImporter.screen(bytes: Array(xml.utf8), file: file, format: format, limits: limits).get()
    let result = try DumpImporter.scene(title: "T", screens: [screen], file: "out.yaml").get()
    return (screen, result.scene, result.text)
}

/// The problem an import reports for `xml`.
func problem(_ xml: String, format: DumpFormat? = nil, limits: DumpLimits = .standard) -> DumpProblem? {
    if case .failure(let problem) = DumpImporter.screen(bytes: Array(xml.utf8), file: "bad.xml", format: format, limits: limits) {
        return problem
    }
    return nil
}

/// The ids of a screen's scan order, by the code `inspect` uses (`Screen.scanNodes`), items only.
func scanOrder(_ scene: Scene, screen: String? = nil) -> [String] {
    scene.screen(screen ?? scene.start, state: scene.initialState)!.scanNodes().flatMap(\.items).map(\.id)
}

/// The entries of the scan order: a group as `auto:first…last` or its id, an item by its id.
func scanEntries(_ scene: Scene, screen: String? = nil) -> [String] {
    scene.screen(screen ?? scene.start, state: scene.initialState)!.scanNodes().map(\.id)
}

func element(_ scene: Scene, _ id: String, screen: String? = nil) -> Element? {
    scene.screen(screen ?? scene.start, state: scene.initialState)!.scanNodes().flatMap(\.items).first { $0.id == id }
}

/// The repository's Scenarios/imported folder.
let importedFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scenarios/imported")

/// An iOS element line as the XCUITest driver writes it.
func iosElement(_ type: String, _ attributes: String, close: Bool = true) -> String {
    "<XCUIElementType\(type) type=\"XCUIElementType\(type)\" \(attributes)\(close ? "/>" : ">")"
}

/// An iOS page source: an application 390 × 844 around `body`.
func iosDump(_ body: String...) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <AppiumAUT>
      <XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" label="App" enabled="true" visible="true" accessible="false" x="0" y="0" width="390" height="844" index="0">
    \(body.joined(separator: "\n"))
      </XCUIElementTypeApplication>
    </AppiumAUT>
    """
}

/// A UI Automator node line.
func androidNode(_ attributes: String, bounds: String, close: Bool = true) -> String {
    "<node index=\"0\" package=\"com.example\" \(attributes) bounds=\"\(bounds)\"\(close ? " />" : ">")"
}

/// A UI Automator dump: a 1080 × 2400 frame layout around `body`.
func androidDump(_ body: String...) -> String {
    """
    <?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
    <hierarchy rotation="0">
      <node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">
    \(body.joined(separator: "\n"))
      </node>
    </hierarchy>
    """
}
