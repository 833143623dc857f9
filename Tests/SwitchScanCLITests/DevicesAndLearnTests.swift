import DeviceProfiles
import Evdev
import Foundation
import Testing

/// `switchscan devices` and `switchscan learn`, run as a subprocess.

/// A short evemu recording (format 1.3): a USB pedal sending KEY_A, KEY_A again (a repeated
/// press, not a new switch), then KEY_B with an autorepeat, then KEY_C.
private let pedalRecording = """
    # EVEMU 1.3
    # Input device name: "Test Pedal"
    N: Test Pedal
    I: 0003 1a86 e026 0110
    P: 00 00 00 00 00 00 00 00
    B: 00 0b 00 00 00 00 00 00 00
    B: 01 00 00 00 40 00 40 01 00
    B: 01 00 00 00 00 00 00 00 00
    B: 04 10 00 00 00 00 00 00 00
    E: 0.000001 0004 0004 458756\t# EV_MSC / MSC_SCAN             458756
    E: 0.000001 0001 001e 0001\t# EV_KEY / KEY_A                1
    E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
    E: 0.080000 0001 001e 0000\t# EV_KEY / KEY_A                0
    E: 0.080000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +80ms
    E: 0.900000 0001 001e 0001\t# EV_KEY / KEY_A                1
    E: 0.980000 0001 001e 0000\t# EV_KEY / KEY_A                0
    E: 1.500000 0001 0030 0001\t# EV_KEY / KEY_B                1
    E: 2.000000 0001 0030 0002\t# EV_KEY / KEY_B                2
    E: 2.100000 0001 0030 0000\t# EV_KEY / KEY_B                0
    E: 3.000000 0001 002e 0001\t# EV_KEY / KEY_C                1
    E: 3.050000 0001 002e 0000\t# EV_KEY / KEY_C                0

    """

/// The suites of this file, under one name (`swift test --filter DevicesAndLearnTests`).
@Suite struct DevicesAndLearnTests {}

extension DevicesAndLearnTests {
    @Suite struct Devices {
        @Test func thisMachine() throws {
            let result = try CLI.run(["devices"])
            #expect(result.status == 0, "\(result)")
            let lines = Array(result.stdoutLines.prefix { !$0.isEmpty })
            #expect(!lines.isEmpty)
            if FileManager.default.fileExists(atPath: "/dev/input") {
                // A machine with devices: one entry per node, then a count (or "No input devices").
                #expect(lines.last?.hasSuffix("could not be opened") == true || lines.last?.contains("input device") == true, "\(result)")
            } else {
                #expect(lines == ["No input devices: /dev/input does not exist (this machine or container has no evdev devices)."])
            }
            // The shipped profiles load without problems.
            #expect(!result.stderr.contains("error:"), "\(result)")
        }

        @Test func nodesThatAreNotDevicesAreListedWithTheReason() throws {
            let folder = try TemporaryFolder()
            try folder.write("event1", "x")
            try folder.write("event0", "x")
            try folder.write("mice", "x")
            let result = try CLI.run(["devices", "--directory", folder.url.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutLines.prefix { !$0.isEmpty } == [
                "\(folder.url.path)/event0 is not an evdev input device (libevdev_new_from_fd: ENOTTY (Inappropriate ioctl for device)); switches are read from /dev/input/event*",
                "\(folder.url.path)/event1 is not an evdev input device (libevdev_new_from_fd: ENOTTY (Inappropriate ioctl for device)); switches are read from /dev/input/event*",
                "2 input devices, 2 could not be opened",
            ])
        }

        @Test func emptyFolder() throws {
            let folder = try TemporaryFolder()
            let result = try CLI.run(["devices", "--directory", folder.url.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutLines.prefix { !$0.isEmpty } == ["No input devices: \(folder.url.path) has no event* nodes."])
        }

        /// Issue 14: the listing ends with where profiles come from: each folder, its origin, and
        /// the profiles it gave (a user's file shadowing a shipped one is listed under both).
        @Test func profileFoldersAndTheirOrigins() throws {
            let home = try TemporaryFolder()
            let config = home.url.appendingPathComponent("config")
            let switches = config.appendingPathComponent("switchscan/switches")
            try FileManager.default.createDirectory(at: switches, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Devices/switches/origin-tapio.yaml"),
                                             to: switches.appendingPathComponent("origin-tapio.yaml"))
            let devices = try TemporaryFolder()
            let result = try CLI.run(["devices", "--directory", devices.url.path],
                                     environment: ["XDG_CONFIG_HOME": config.path])
            #expect(result.status == 0, "\(result)")
            let shipped = CLI.packageRoot.appendingPathComponent("Devices").standardizedFileURL.path
            let lines = result.stdoutLines
            let header = try #require(lines.firstIndex { $0.hasPrefix("Switch profiles, first folder first") }, "\(result)")
            #expect(lines[header + 1] == "  \(switches.path) (yours): 1 profile: origin-tapio", "\(result)")
            #expect(lines[header + 2].hasPrefix("  \(shipped)/switches (shipped, from the source tree): 8 profiles: generic-keyboard, "), "\(result)")
            let braille = try #require(lines.firstIndex { $0.hasPrefix("Braille display profiles, first folder first") }, "\(result)")
            #expect(lines[braille + 1].hasPrefix("  \(shipped)/braille (shipped, from the source tree): 23 profiles: alva-bc640, "), "\(result)")
            #expect(lines[braille + 2] == "  \(config.path)/switchscan/braille (yours): not there", "\(result)")

            let json = try CLI.run(["devices", "--json", "--directory", devices.url.path], environment: ["XDG_CONFIG_HOME": config.path])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let sources = try #require(object["switchProfileSources"] as? [[String: Any]])
            #expect(sources.map { $0["origin"] as? String } == ["yours", "shipped, from the source tree"])
            #expect(sources.first?["profiles"] as? [String] == ["origin-tapio"])

            // Help says the same, with this machine's folders.
            let help = try CLI.run(["devices", "--help"], environment: ["XDG_CONFIG_HOME": config.path])
            #expect(help.stdout.contains("\(shipped)/switches (shipped, from the source tree)"), "\(help)")
        }

        @Test func json() throws {
            let folder = try TemporaryFolder()
            try folder.write("event3", "x")
            let result = try CLI.run(["devices", "--json", "--directory", folder.url.path])
            #expect(result.status == 0, "\(result)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(object["directory"] as? String == folder.url.path)
            #expect(object["directoryError"] is NSNull)
            let devices = try #require(object["devices"] as? [[String: Any]])
            #expect(devices.count == 1)
            #expect(devices.first?["path"] as? String == "\(folder.url.path)/event3")
            #expect(devices.first?["errno"] as? String == "ENOTTY")
            #expect(devices.first?["errorCall"] as? String == "libevdev_new_from_fd")
            #expect(devices.first?["profile"] is NSNull)
            // The shipped profiles of the source tree the program was built in (no installed copy here).
            let shipped = CLI.packageRoot.appendingPathComponent("Devices/switches").standardizedFileURL.path
            #expect((object["profileDirectories"] as? [String])?.contains { URL(fileURLWithPath: $0).standardizedFileURL.path == shipped } == true,
                    "\(String(describing: object["profileDirectories"]))")

            let missing = try CLI.run(["devices", "--json", "--directory", "/nonexistent-input"])
            #expect(missing.status == 0)
            let missingObject = try #require(try JSONSerialization.jsonObject(with: Data(missing.stdout.utf8)) as? [String: Any])
            #expect((missingObject["directoryError"] as? String)?.contains("does not exist") == true)
        }

        /// A profile with a mistake is reported (file:line:column) and skipped; the listing goes on.
        @Test func brokenProfileIsReported() throws {
            let profiles = try TemporaryFolder()
            let broken = try profiles.write("broken.yaml", "name: x\nswitches:\n  - {id: a, code: KEY_SPCAE, action: select}\n")
            let devices = try TemporaryFolder()
            let result = try CLI.run(["devices", "--profiles", profiles.url.path, "--directory", devices.url.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.hasPrefix("\(broken):3:19: error: unknown key code 'KEY_SPCAE' (did you mean 'KEY_SPACE'?)"), "\(result)")
            #expect(result.stderr.hasSuffix("\n1 profile file has errors and was skipped\n"), "\(result)")
            #expect(result.stdoutLines.prefix { !$0.isEmpty } == ["No input devices: \(devices.url.path) has no event* nodes."])
        }
    }

    @Suite struct Learn {
        @Test func learnFromRecordingThenRefuseThenForce() throws {
            let folder = try TemporaryFolder()
            let recording = try folder.write("pedal.evemu", pedalRecording)
            let output = folder.url.appendingPathComponent("profiles/pedal.yaml").path

            let first = try CLI.run(["learn", "--from-evemu", recording, "--switches", "3", "--output", output])
            #expect(first.status == 0, "\(first)")
            #expect(first.stdoutLines == [
                "switch a: KEY_A → select",
                "switch b: KEY_B → next",
                "switch c: KEY_C → previous",
                "Wrote \(output): 3 switches for \"Test Pedal\"",
            ])
            let text = try String(contentsOfFile: output, encoding: .utf8)
            #expect(text == """
                # Learned by `switchscan learn` from the evemu recording \(recording).
                # Device: "Test Pedal" usb 1a86:e026 version 0110
                # Format: /usr/share/doc/switchscan/switch-profiles.md.gz (Devices/switches/README.md in the source tree)
                name: "Test Pedal"
                match:
                  - bus: usb
                    vendor: "1a86"
                    product: "e026"
                    name: "Test Pedal"
                pulseOnly: false
                switches:
                  - id: "a"
                    code: KEY_A
                    action: select
                  - id: "b"
                    code: KEY_B
                    action: next
                  - id: "c"
                    code: KEY_C
                    action: previous

                """)
            // No temporary file is left behind.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("profiles").path) == ["pedal.yaml"])

            // The profile loads: `devices --profiles` reads it without a warning.
            let listing = try CLI.run(["devices", "--profiles", folder.url.appendingPathComponent("profiles").path, "--directory", folder.url.path])
            #expect(listing.status == 0)
            #expect(listing.stderr == "", "\(listing)")

            // Refused without --force; the file is unchanged.
            let again = try CLI.run(["learn", "--from-evemu", recording, "--switches", "2", "--output", output])
            #expect(again.status != 0, "\(again)")
            #expect(again.stderr.contains("\(output) exists; use --force to replace it"), "\(again)")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == text)

            // Replaced with --force.
            let forced = try CLI.run(["learn", "--from-evemu", recording, "--actions", "select,menu", "--name", "Left pedal", "--output", output, "--force", "--pulse-only"])
            #expect(forced.status == 0, "\(forced)")
            let replaced = try String(contentsOfFile: output, encoding: .utf8)
            #expect(replaced.contains("name: \"Left pedal\"\n"))
            #expect(replaced.contains("pulseOnly: true\n"))
            #expect(replaced.contains("  - id: \"b\"\n    code: KEY_B\n    action: menu\n"))
            #expect(!replaced.contains("KEY_C"))
        }

        @Test func defaultOutputIsTheUserProfileFolder() throws {
            let folder = try TemporaryFolder()
            let recording = try folder.write("pedal.evemu", pedalRecording)
            let config = folder.url.appendingPathComponent("config").path
            let result = try CLI.run(["learn", "--from-evemu", recording], environment: ["XDG_CONFIG_HOME": config])
            #expect(result.status == 0, "\(result)")
            let expected = "\(config)/switchscan/switches/test-pedal.yaml"
            #expect(result.stdoutLines.last == "Wrote \(expected): 2 switches for \"Test Pedal\"")
            #expect(FileManager.default.fileExists(atPath: expected))
        }

        @Test func badInputs() throws {
            let folder = try TemporaryFolder()
            let output = folder.url.appendingPathComponent("x.yaml").path
            let truncated = try folder.write("cut.evemu", "N: Pedal\nI: 0003 1a86 e026 0110\nE: 0.000001 0001 001e")
            let cut = try CLI.run(["learn", "--from-evemu", truncated, "--output", output])
            #expect(cut.status == 2, "\(cut)")
            #expect(cut.stderr.contains("\(truncated):3:1: error: an event line needs a time, a type, a code and a value"), "\(cut)")
            #expect(cut.stderr.contains("is it truncated?"))

            let short = try folder.write("short.evemu", pedalRecording)
            let tooFew = try CLI.run(["learn", "--from-evemu", short, "--switches", "4", "--output", output])
            #expect(tooFew.status == 1, "\(tooFew)")
            #expect(tooFew.stderr.contains("the recording has 3 distinct key presses; 4 switches were asked for"), "\(tooFew)")

            let neither = try CLI.run(["learn", "--output", output])
            #expect(neither.status == 64, "\(neither)")
            #expect(neither.stderr.contains("give either --device /dev/input/eventN or --from-evemu FILE"))

            let badAction = try CLI.run(["learn", "--from-evemu", short, "--actions", "select,jump", "--output", output])
            #expect(badAction.status == 64, "\(badAction)")
            #expect(badAction.stderr.contains("unknown switch action 'jump'"))

            // A path that is not an evdev device.
            let notDevice = try CLI.run(["learn", "--device", "/dev/null", "--output", output])
            #expect(notDevice.status == 2, "\(notDevice)")
            #expect(notDevice.stderr.contains("/dev/null is not an evdev input device (libevdev_new_from_fd: ENOTTY"), "\(notDevice)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

}

extension DevicesAndLearnTests {
    /// The pure key code table (DeviceProfiles, used for recordings, raw streams and profiles)
    /// agrees with libevdev's names (Evdev, used for live devices). Both modules are linked into
    /// switchscan, so this target sees them.
    @Suite struct KeyCodeTable {
        @Test func agreesWithLibevdev() {
            var compared = 0
            for code in 0..<Evdev.keyMax {  // libevdev names KEY_MAX itself; the table does not
                guard let name = Evdev.keyName(code) else { continue }
                #expect(KeyCodes.name(for: code) == name, "code \(code)")
                #expect(KeyCodes.code(named: name) == code, "\(name)")
                compared += 1
            }
            #expect(compared > 500)
            for name in KeyCodes.allNames {
                if let code = Evdev.keyCode(name: name) { #expect(KeyCodes.code(named: name) == code, "\(name)") }
            }
        }
    }
}
