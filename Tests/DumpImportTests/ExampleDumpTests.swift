import AccessibilityModel
import DumpImport
import Foundation
import Scenes
import Testing

/// The example dumps of Scenarios/imported: the scan order of each imported screen, and the
/// multi-screen scene as `switchscan import` writes it.
@Suite("The example dumps")
struct ExampleDumpTests {
    func screen(_ name: String) throws -> ImportedScreen {
        let bytes = Array(try Data(contentsOf: importedFolder.appendingPathComponent(name)))
        return try DumpImporter.screen(bytes: bytes, file: name).get()
    }

    @Test("the iOS sign-in and home screens: one scene, two screens, their scan orders")
    func shop() throws {
        let login = try screen("ios-login.xml"), home = try screen("ios-home.xml")
        #expect(login.format == .ios && home.format == .ios)
        let (text, scene, warnings) = try DumpImporter.scene(title: "Shop (iOS import)", screens: [login, home], file: "shop-ios.yaml").get()
        #expect(warnings.isEmpty)
        #expect(scene.screens.map(\.name) == ["ios-login", "ios-home"])
        #expect(scanOrder(scene, screen: "ios-login") == [
            "statictext-sign-in", "close-button", "email-field", "password-field", "remember-switch",
            "sign-in-button", "button-forgot-password", "help-button",
        ])
        #expect(scanOrder(scene, screen: "ios-home") == [
            "statictext-home", "product-1", "product-2", "product-3", "volume-slider", "home-tab", "cart-tab", "account-tab",
        ])
        // The table is a container of the scene; the scanner's own grouping (groupItems) is the
        // tests file's to check (shop-ios.tests.yaml).
        #expect(scene.screens[1].elements.map(\.id) == ["Home", "products", "volume-slider", "Tab-Bar"])
        // The scene in the repository is this import's output: importing again changes nothing.
        let committed = try String(contentsOf: importedFolder.appendingPathComponent("shop-ios.yaml"), encoding: .utf8)
        #expect(committed == text.replacingOccurrences(of: "ios-login.xml (", with: "ios-login.xml ("))
    }

    @Test("the Android settings screen: rows merged, scroll and long-press actions, its scan order")
    func settings() throws {
        let settings = try screen("android-settings.xml")
        #expect(settings.format == .android)
        #expect(settings.size == (1080, 2400) || (settings.size.width == 1080 && settings.size.height == 2400))
        let (text, scene, _) = try DumpImporter.scene(title: "Settings (Android import)", screens: [settings], file: "settings-android.yaml").get()
        #expect(scanOrder(scene) == [
            "imagebutton-navigate-up", "title", "more", "search", "list", "row", "android-settings-row", "dark_theme", "brightness", "developer",
        ])
        #expect(settings.skippedCounts.map { "\($0.count) \($0.reason.rawValue)" } == [
            "1 invisible", "1 zero size", "1 not accessible", "5 inside an accessibility element",
        ])
        let committed = try String(contentsOf: importedFolder.appendingPathComponent("settings-android.yaml"), encoding: .utf8)
        #expect(committed == text)
    }

    @Test("ids stay unique across screens: a second screen's repeated id gets its screen's name")
    func idsAcrossScreens() throws {
        let dump = iosDump(iosElement("Button", #"name="ok" label="OK" enabled="true" visible="true" accessible="true" x="0" y="0" width="10" height="10""#))
        let first = try DumpImporter.screen(bytes: Array(dump.utf8), file: "a/step.xml").get()
        let second = try DumpImporter.screen(bytes: Array(dump.utf8), file: "b/step.xml").get()
        let (_, scene, _) = try DumpImporter.scene(title: "T", screens: [first, second], file: "x.yaml").get()
        #expect(scene.screens.map(\.name) == ["step", "step-2"])
        #expect(scanOrder(scene, screen: "step") == ["ok"])
        #expect(scanOrder(scene, screen: "step-2") == ["step-2-ok"])
    }
}

extension ExampleDumpTests {
    @Test("screen names from any file name are valid scene names; a file name with a line break stays in its comment")
    func oddFileNames() throws {
        let dump = iosDump(iosElement("Button", #"name="ok" label="OK" enabled="true" visible="true" accessible="true" x="0" y="0" width="10" height="10""#))
        let names = ["2024 login.xml", "e\u{301}cran.xml", "x\ny.xml", ".xml"]
        let screens = try names.map { try DumpImporter.screen(bytes: Array(dump.utf8), file: $0).get() }
        let (_, scene, _) = try DumpImporter.scene(title: "T", screens: screens, file: "x.yaml").get()
        #expect(scene.screens.map(\.name) == ["screen-2024-login", "e-cran", "x-y", "screen--xml"])
    }
}

extension ExampleDumpTests {
    @Test("three Settings screens without accessible attributes: every row, rows below the edge last, switch rows with their state")
    func settingsWithoutAccessible() throws {
        let names = ["ios-settings.xml", "ios-settings-accessibility.xml", "ios-settings-keyboards.xml"]
        let screens = try names.map(screen)
        #expect(screens.map(\.elementCount) == [18, 21, 19])
        let (text, scene, _) = try DumpImporter.scene(title: "Settings (iOS import)", screens: screens, file: "settings-ios.yaml").get()
        #expect(scanOrder(scene, screen: "ios-settings") == [
            "statictext-settings", "searchfield-search", "cell-sign-in-to-your-iphone", "cell-airplane-mode", "cell-wi-fi",
            "cell-bluetooth", "cell-cellular", "cell-general", "cell-accessibility", "Privacy", "cell-passwords", "cell-safari",
            "cell-maps", "cell-shortcuts", "cell-health", "cell-photos",
        ])
        #expect(element(scene, "cell-voiceover-off", screen: "ios-settings-accessibility")?.label == "VoiceOver, Off")
        #expect(element(scene, "cell-keyboards", screen: "ios-settings-accessibility")?.frame == Rect(x: 0, y: 950, width: 390, height: 45))
        let capsLock = try #require(element(scene, "cell-enable-caps-lock", screen: "ios-settings-keyboards"))
        #expect(capsLock.value == "off")
        #expect(capsLock.traits == .button)
        let committed = try String(contentsOf: importedFolder.appendingPathComponent("settings-ios.yaml"), encoding: .utf8)
        #expect(committed == text)
    }

    @Test("the short-video feed: the list scrolls, the video and the like button are read with their children's text")
    func feed() throws {
        let feed = try screen("android-feed.xml")
        let (text, scene, _) = try DumpImporter.scene(title: "Feed (Android import)", screens: [feed], file: "feed-android.yaml").get()
        #expect(scanOrder(scene) == [
            "viewpager", "video_container", "tab_following", "tab_for_you", "search", "avatar", "like_container",
            "comment_button", "share_button", "title", "tab_home", "tab_friends", "tab_create", "tab_inbox", "tab_profile",
        ])
        #expect(element(scene, "like_container")?.label == "Vídeo curtido, 12,3 mil")
        #expect(element(scene, "video_container")?.label == "Bolo de cenoura em 10 minutos #receita #bolo, som original - joana.silva")
        let scrolling = scanOrder(scene).filter { element(scene, $0)?.customActions.contains { $0.name == "Scroll forward" } == true }
        #expect(scrolling == ["viewpager"])
        let committed = try String(contentsOf: importedFolder.appendingPathComponent("feed-android.yaml"), encoding: .utf8)
        #expect(committed == text)
    }
}
