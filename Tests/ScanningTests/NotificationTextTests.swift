import Scanning
import Scenes
import Testing

/// UIKit's layoutChanged and screenChanged take an element or a string; the Orange guide: "With a
/// NSString, the string is read." A string posted with them is conveyed as an announcement is,
/// after the highlight has moved.
private let scene = """
    scene: Notification text
    size: [390, 844]
    start: main
    state: {price: 12}
    screens:
      main:
        elements:
          - {id: price, label: "Price {price} euros", frame: [20, 100, 200, 44]}
          - id: update
            label: Update
            traits: [button]
            frame: [20, 160, 200, 44]
            activate:
              - add: {price: 1, min: 0, max: 100}
              - post: {notification: layoutChanged, text: "Price updated"}
          - id: next
            label: Next page
            traits: [button]
            frame: [20, 220, 200, 44]
            activate:
              - go: second
              - post: {notification: screenChanged, text: "Second page"}
      second:
        elements:
          - {id: title, label: Second, traits: [header], frame: [20, 100, 200, 44]}
    tests:
      - name: layoutChanged with a string reads it
        settings: {scanning: manual, tapBehavior: alwaysTap}
        steps:
          - press: next
          - expect: {focus: update}
          - press: select
          - expect: {announcement: "Price updated", state: {price: 13}, braille: "Price updated"}
      - name: screenChanged with a string reads it, the highlight goes to the new screen
        settings: {scanning: manual, tapBehavior: alwaysTap}
        steps:
          - press: next
          - press: next
          - press: select
          - expect: {screen: second, focus: title, announcement: "Second page"}
    """

@Suite struct NotificationTextTests {
    @Test(arguments: [0, 1])
    func aStringPostedWithTheNotificationIsConveyed(test index: Int) throws {
        let parsed = try SceneParser.parse(yaml: scene, file: "notification-text.yaml")
        let result = ScriptRunner(scene: parsed).run(parsed.tests[index])
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }
}
