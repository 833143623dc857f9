import AccessibilityModel

/// Where a window's objects are, relative to the window's own top left corner, from the two
/// kinds of extents AT-SPI gives, whichever the toolkit gets right.
///
/// Toolkits disagree about window coordinates. GTK 3 gives them right, relative to its client
/// area (the window object itself at (-1, -20) under a window manager: its decoration). Qt 5.15
/// gets them wrong: under a window manager it gives screen coordinates for them, and its sizes
/// can be off or negative (FeatherPad's toolbar button (560, 297, 346, 437) against the screen's
/// (882, 711, 24, 23); a hidden one (-322, -585, 322, 585)); its screen coordinates are right.
/// GTK 4 gives window coordinates for both (it knows no window position). So an object's frame
/// is its screen extents less the window's screen position when those are usable and on the
/// window (checked against the window's own size), else its window extents less the window's
/// window position when those are, else whichever is usable at all (an object scrolled away).
/// Both are then relative to the window's reported corner, and agree where both are right.
public struct WindowCoordinates: Hashable, Sendable {
    /// The window's top left corner on the screen, as the toolkit reports it (nil: no screen
    /// extents read).
    public var screenOrigin: Point?
    /// The window's top left corner in its own window coordinates (GTK 3 under a window
    /// manager: (-1, -20); Qt 5: wherever it is on the screen).
    public var windowOrigin: Point?
    /// The window's size: its screen extents' when usable, else its window extents'.
    public var width: Double
    public var height: Double

    public init(window: AccessibleNode) {
        let screen = Self.usable(window.screenExtents)
        let own = Self.usable(window.extents)
        screenOrigin = screen.map { Point(x: $0.x, y: $0.y) }
        windowOrigin = own.map { Point(x: $0.x, y: $0.y) }
        width = screen?.width ?? own?.width ?? 0
        height = screen?.height ?? own?.height ?? 0
    }

    /// The window as the root's frame: at (0, 0), its size; nil when it has no size at all.
    public var windowFrame: Rect? {
        width > 0 || height > 0 ? Rect(x: 0, y: 0, width: width, height: height) : nil
    }

    /// Extents that can be used as a position and a size: finite, a position (not GTK 3's
    /// G_MININT for an object off screen), a size not negative, within any screen's range.
    public static func usable(_ extents: Rect?) -> Rect? {
        guard let extents, extents.x.isFinite, extents.y.isFinite, extents.width.isFinite, extents.height.isFinite,
              extents.x > AccessibleMapping.noPosition, extents.y > AccessibleMapping.noPosition,
              abs(extents.x) < maxCoordinate, abs(extents.y) < maxCoordinate,
              extents.width >= 0, extents.height >= 0, extents.width < maxCoordinate, extents.height < maxCoordinate
        else { return nil }
        return extents
    }

    /// Coordinates beyond this are no screen's (X11's are 16-bit; Wayland's no larger in practice).
    static let maxCoordinate = 1_000_000.0

    /// The object's frame relative to the window's corner, or nil when neither kind of extents
    /// says where it is.
    public func frame(of node: AccessibleNode) -> Rect? {
        let fromScreen = Self.usable(node.screenExtents).flatMap { rect in
            screenOrigin.map { Rect(x: rect.x - $0.x, y: rect.y - $0.y, width: rect.width, height: rect.height) }
        }
        let fromWindow = Self.usable(node.extents).map { rect in
            let origin = windowOrigin ?? Point(x: 0, y: 0)
            return Rect(x: rect.x - origin.x, y: rect.y - origin.y, width: rect.width, height: rect.height)
        }
        if let fromScreen, isOnWindow(fromScreen) { return fromScreen }
        if let fromWindow, isOnWindow(fromWindow) { return fromWindow }
        return fromScreen ?? fromWindow
    }

    /// Whether `frame` lies on the window: it overlaps the window's area, or, with no size (a
    /// hidden object), its corner is inside it.
    func isOnWindow(_ frame: Rect) -> Bool {
        if frame.width == 0 || frame.height == 0 {
            return frame.x >= 0 && frame.y >= 0 && frame.x <= width && frame.y <= height
        }
        return frame.minX < width && frame.maxX > 0 && frame.minY < height && frame.maxY > 0
    }

    /// A frame (relative to the window's corner) on the screen: where the toolkit says the
    /// window is (GTK 4, which does not know: at the screen's corner).
    public func screenRect(of frame: Rect) -> Rect {
        let origin = screenOrigin ?? Point(x: 0, y: 0)
        return Rect(x: origin.x + frame.x, y: origin.y + frame.y, width: frame.width, height: frame.height)
    }

    /// The tree with each node's `extents` replaced by its frame relative to the window's
    /// corner (nil where none is known), which the mapping reads.
    public func resolved(_ node: AccessibleNode) -> AccessibleNode {
        var copy = node
        copy.extents = frame(of: node)
        copy.children = node.children.map(resolved)
        return copy
    }
}
