import Evdev
import Foundation
import Testing
import Platform

/// What runs without input devices: opening files that are not evdev devices, names, the scan,
/// and the messages. Reading real devices is tested under QEMU (RealKernelTests).

/// A fresh folder, removed afterwards.
private final class Scratch {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("evdev-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ contents: String = "not a device\n") -> String {
        let file = (path as NSString).appendingPathComponent(name)
        FileManager.default.createFile(atPath: file, contents: Data(contents.utf8))
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

private func openError(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> EvdevError? {
    do {
        let device = try EvdevDevice.open(path: path)
        Issue.record("\(path) opened as an evdev device (\(device.identity))", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

@Suite struct OpeningTests {
    @Test func devNullIsNotAnEvdevDevice() throws {
        let error = try #require(openError("/dev/null"))
        #expect(error.call == "libevdev_new_from_fd")
        #expect(error.errno == .notTTY)
        #expect(error.errno.name == "ENOTTY")
        #expect(error.kind == .notEvdevDevice)
        #expect(error.path == "/dev/null")
        #expect(error.description == "/dev/null is not an evdev input device (libevdev_new_from_fd: ENOTTY (Inappropriate ioctl for device)); switches are read from /dev/input/event*")
    }

    @Test func regularFileIsNotAnEvdevDevice() throws {
        let scratch = try Scratch()
        let error = try #require(openError(scratch.file("event0")))
        #expect(error.call == "libevdev_new_from_fd")
        #expect(error.kind == .notEvdevDevice)
        // A folder opens read-only too, and fails the same way.
        let folder = try #require(openError(scratch.path))
        #expect(folder.kind == .notEvdevDevice)
    }

    @Test func missingPathFailsInOpen() throws {
        let error = try #require(openError("/dev/input/event-does-not-exist-4711"))
        #expect(error.call == "open")
        #expect(error.errno == .noSuchFileOrDirectory)
        #expect(error.errno.name == "ENOENT")
        #expect(error.kind == .notFound)
        #expect(error.description.hasPrefix("/dev/input/event-does-not-exist-4711: no such file (open: ENOENT"))
    }

    /// Root reads any file, so EACCES is built here rather than provoked; its message says what
    /// to do.
    @Test func permissionErrorSaysWhatToDo() {
        let error = EvdevError(call: "open", errno: .permissionDenied, path: "/dev/input/event3")
        #expect(error.kind == .permissionDenied)
        #expect(error.description.hasPrefix("/dev/input/event3: permission denied (open: EACCES (Permission denied))"))
        #expect(error.description.contains("'input' group"))
        #expect(error.description.contains("sudo usermod -aG input $USER"))
        #expect(error.description.contains("Devices/switches/70-switchscan.rules"))
        #expect(error.description.contains("udevadm"))
        #expect(EvdevError(call: "open", errno: .notPermitted, path: "x").kind == .permissionDenied)
    }

    @Test func otherKinds() {
        #expect(EvdevError(call: "libevdev_grab", errno: .resourceBusy, path: "/dev/input/event3").kind == .busy)
        #expect(EvdevError(call: "libevdev_grab", errno: .resourceBusy, path: "/dev/input/event3").description.contains("another program has grabbed the device (libevdev_grab: EBUSY"))
        #expect(EvdevError(call: "libevdev_next_event", errno: .noSuchDevice).kind == .deviceGone)
        #expect(EvdevError(call: "libevdev_next_event", errno: .noSuchDevice).description.hasPrefix("the device: the device is gone (libevdev_next_event: ENODEV"))
        #expect(EvdevError(call: "libevdev_new_from_fd", errno: .invalidArgument).kind == .notEvdevDevice)
        #expect(EvdevError(call: "open", errno: .invalidArgument).kind == .other)
        #expect(Errno(rawValue: 9999).name == "errno 9999")
    }
}

@Suite struct NameTests {
    @Test func keyNamesAndCodes() {
        #expect(Evdev.keyName(57) == "KEY_SPACE")
        #expect(Evdev.keyCode(name: "KEY_SPACE") == 57)
        #expect(Evdev.keyName(288) == "BTN_TRIGGER")
        #expect(Evdev.keyCode(name: "BTN_TRIGGER") == 288)
        #expect(Evdev.keyName(28) == "KEY_ENTER")
        #expect(Evdev.keyCode(name: "BTN_A") == 304)
        #expect(Evdev.keyName(304) == "BTN_SOUTH")
        #expect(Evdev.keyCode(name: "KEY_NOT_A_KEY") == nil)
        #expect(Evdev.keyCode(name: "REL_X") == nil)
        #expect(Evdev.keyName(0x2fe) == nil)
    }

    @Test func roundTripOverEveryNamedCode() {
        var named = 0
        for code in 0...Evdev.keyMax {
            guard let name = Evdev.keyName(code) else { continue }
            named += 1
            #expect(Evdev.keyCode(name: name) == code, "\(name)")
        }
        #expect(named > 500)
        #expect(Evdev.keyMax == 0x2ff)
    }

    @Test func typeNamesAndEvents() {
        #expect(Evdev.eventTypeName(Evdev.EventType.key) == "EV_KEY")
        #expect(Evdev.eventTypeName(Evdev.EventType.syn) == "EV_SYN")
        #expect(Evdev.codeName(type: Evdev.EventType.syn, code: Evdev.SynCode.dropped) == "SYN_DROPPED")
        #expect(Evdev.inputEventSize == 24)
        let event = InputEvent(seconds: 12, microseconds: 345, type: Evdev.EventType.key, code: 57, value: 1)
        #expect(event.time == 12.000345)
        #expect(event.description == "12.000345 EV_KEY KEY_SPACE 1")
    }
}

@Suite struct ScanTests {
    @Test func scanListsEventNodesInOrderWithReasons() throws {
        let scratch = try Scratch()
        for name in ["event10", "event2", "event0", "mice", "mouse0", "eventX", "js0"] { _ = scratch.file(name) }
        let entries = try Evdev.scanDevices(in: scratch.path)
        #expect(entries.map { ($0.path as NSString).lastPathComponent } == ["event0", "event2", "event10"])
        for entry in entries {
            guard case .failure(let error) = entry.outcome else {
                Issue.record("\(entry.path) opened")
                continue
            }
            #expect(error.kind == .notEvdevDevice)
            #expect(error.call == "libevdev_new_from_fd")
            #expect(error.path == entry.path)
        }
    }

    @Test func missingFolder() {
        do {
            _ = try Evdev.scanDevices(in: "/nonexistent-input-folder")
            Issue.record("a missing folder must be an error")
        } catch {
            #expect(error.call == "opendir")
            #expect(error.kind == .notFound)
            #expect(error.path == "/nonexistent-input-folder")
        }
    }

    @Test func thisMachine() {
        // No /dev/input here (a container); elsewhere the scan lists what there is.
        do {
            let entries = try Evdev.scanDevices()
            for entry in entries { #expect(entry.path.hasPrefix("/dev/input/event")) }
        } catch {
            #expect(error.kind == .notFound || error.kind == .permissionDenied)
        }
    }
}
