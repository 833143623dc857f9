import Platform

/// A failed C call: which call, the error number, and the file it was about. `kind` sorts the
/// cases a caller handles differently, and `description` says what to do about them.
public struct EvdevError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The file is not an evdev device (`ENOTTY` from an evdev ioctl, e.g. `/dev/null` or a
        /// regular file given to `libevdev_new_from_fd`).
        case notEvdevDevice
        /// `EACCES`/`EPERM`: input nodes are `root:input 0660`.
        case permissionDenied
        /// `ENOENT`: no such file.
        case notFound
        /// `ENODEV` (or `ENXIO`): the device was unplugged.
        case deviceGone
        /// `EBUSY` from a grab: another program holds the device.
        case busy
        /// Anything else; `errno` says what.
        case other
    }

    /// The C function that failed, by its C name: `open`, `libevdev_new_from_fd`,
    /// `libevdev_grab`, `ioctl(EVIOCGKEY)`, `opendir`.
    public var call: String
    public var errno: Errno
    /// The device node or directory, when the call was about one.
    public var path: String?

    public init(call: String, errno: Errno, path: String? = nil) {
        self.call = call
        self.errno = errno
        self.path = path
    }

    /// Where the udev rule example lives in the repository.
    public static let udevRulePath = "Devices/switches/70-switchscan.rules"

    public var kind: Kind {
        switch errno {
        case .notTTY: return .notEvdevDevice
        // libevdev_new_from_fd also reports EINVAL for an fd whose ioctls are not evdev's.
        case .invalidArgument where call == "libevdev_new_from_fd": return .notEvdevDevice
        case .permissionDenied, .notPermitted: return .permissionDenied
        case .noSuchFileOrDirectory: return .notFound
        case .noSuchDevice, .noSuchDeviceOrAddress: return .deviceGone
        case .resourceBusy: return .busy
        default: return .other
        }
    }

    /// What happened, the C call and error, and (for permissions) what to do.
    public var description: String {
        let subject = path ?? "the device"
        let cause = "\(call): \(errno)"
        switch kind {
        case .notEvdevDevice:
            return "\(subject) is not an evdev input device (\(cause)); switches are read from /dev/input/event*"
        case .permissionDenied:
            return "\(subject): permission denied (\(cause)). Input device nodes belong to root and the "
                + "'input' group (mode 0660). Either join the group: `sudo usermod -aG input $USER`, "
                + "then log out and in again; or install the udev rule that gives the logged-in user "
                + "access to known switch interfaces (the package installs it as /lib/udev/rules.d/70-switchscan.rules: "
                + "unplug and plug the interface again; from the source tree: `sudo cp \(EvdevError.udevRulePath) /etc/udev/rules.d/ "
                + "&& sudo udevadm control --reload && sudo udevadm trigger`; see man switchscan-devices)"
        case .notFound:
            return "\(subject): no such file (\(cause))"
        case .deviceGone:
            return "\(subject): the device is gone (\(cause)); it was unplugged or its driver removed"
        case .busy:
            return "\(subject): another program has grabbed the device (\(cause)); stop it (for example "
                + "another switchscan, keyd or an interception-tools job) and try again"
        case .other:
            return "\(subject): \(cause)"
        }
    }
}
