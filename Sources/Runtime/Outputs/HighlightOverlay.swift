#if canImport(Glibc)
import Glibc
#endif
import AccessibilityModel
import Scanning
import SwitchInput
import Xcb
import Platform

/// The highlight drawn on the screen for a sighted switch user: on X11 a frame around the
/// highlighted element's extents, in a window the pointer passes through (the user, or a helper,
/// can still click what is under it). It is the loop's source for the X connection: the
/// connection's descriptor joins the run's poll, and what arrives on it is read and dropped (a
/// broken connection hides the overlay for the rest of the run, and is said).
public final class HighlightOverlay: RuntimeSource, ScanOutput {
    /// The frame's colour (0xRRGGBB) and thickness in pixels: an orange seen on light and dark
    /// themes alike, thick enough to be seen from a wheelchair's distance.
    public static let color: UInt32 = 0xFF_8C00
    public static let thickness = 4

    private var connection: XcbConnection?
    private var frame: FrameWindow?
    private var problem: String?
    /// Turns a frame in the scanned content's coordinates into screen coordinates (a live
    /// window's position on the screen); nil: not on the screen.
    public var placement: (Rect) -> Rect? = { $0 }

    /// Whether the environment has an X11 screen to draw on: DISPLAY set, and not a Wayland
    /// session (where Xwayland would show it over X clients only). Says why not otherwise.
    public static func unavailableReason(environment: [String: String]) -> String? {
        if environment["WAYLAND_DISPLAY"].map({ !$0.isEmpty }) == true || environment["XDG_SESSION_TYPE"] == "wayland" {
            return "a Wayland session: the highlight is not drawn on the screen (braille, the terminal view and the trace work)"
        }
        if (environment["DISPLAY"] ?? "").isEmpty {
            return "no DISPLAY: the highlight is not drawn on the screen"
        }
        return nil
    }

    /// Connects to the X server DISPLAY names and makes the (hidden) frame window.
    public init(display: String? = nil) throws(XcbError) {
        let connection = try XcbConnection(display: display)
        frame = try FrameWindow(on: connection, color: Self.color, thickness: Self.thickness)
        self.connection = connection
    }

    /// Frames `rect` (content coordinates), or hides the frame (nil).
    public func show(_ rect: Rect?) {
        guard let frame else { return }
        guard let rect, let onScreen = placement(rect), !onScreen.isEmpty else {
            frame.hide()
            return
        }
        do throws(XcbError) {
            try frame.show(x: onScreen.x, y: onScreen.y, width: onScreen.width, height: onScreen.height)
        } catch {
            fail(error)
        }
    }

    /// The frame follows the highlight, and the element when its window moved or a layout
    /// change moved it (nothing is sent to the X server when the frame stays).
    public func present(_ outputs: [SessionOutput], shown: ShownState, at now: Double) {
        show(Self.frame(of: shown.highlight))
    }

    /// Where the frame is on the screen now (nil: hidden), as the window's outer rectangle.
    public var shownPlacement: (x: Int, y: Int, width: Int, height: Int)? { frame?.placement }

    private func fail(_ error: XcbError) {
        frame = nil
        connection = nil
        problem = "the highlight overlay stopped: \(error)"
    }

    // MARK: RuntimeSource

    public var name: String { "highlight overlay" }
    public var descriptor: FileDescriptor? { connection.map { FileDescriptor(rawValue: $0.descriptor) } }
    public var deadline: Double? { problem != nil ? MonotonicClock.now() : nil }
    public var isSwitchInput: Bool { false }
    public var bindings: [SwitchID: SwitchBinding] { [:] }

    public func readable(at now: Double) -> [RuntimeInput] {
        do throws(XcbError) {
            try connection?.drainEvents()
        } catch {
            fail(error)
        }
        return takeProblem()
    }

    public func deadlineReached(at now: Double) -> [RuntimeInput] { takeProblem() }

    private func takeProblem() -> [RuntimeInput] {
        guard let problem else { return [] }
        self.problem = nil
        return [.status(problem)]
    }

    public func close() {
        frame = nil
        connection = nil
    }
}

extension HighlightOverlay {
/// The rectangle the scanner highlights, in the content's coordinates: an item's frame, a
/// group's (its own, else the union of its items'); nil for the menu button and for nothing.
public static func frame(of highlight: Highlight) -> Rect? {
    switch highlight {
    case .entry(let node), .groupExit(let node):
        if let frame = node.element.resolvedFrame { return frame }
        var union: Rect?
        for item in node.items {
            guard let frame = item.resolvedFrame else { continue }
            union = union.map { $0.union(frame) } ?? frame
        }
        return union
    case .none, .menuButton:
        return nil
    }
}
}
