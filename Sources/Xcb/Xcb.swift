import CXcb

/// An xcb call that failed: the call's name and what it said.
public struct XcbError: Error, Equatable, Sendable, CustomStringConvertible {
    public var call: String
    public var message: String

    public init(call: String, message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "\(call): \(message)" }

    /// What an `xcb_connection_has_error` number means.
    static func connectionReason(_ code: Int32) -> String {
        switch code {
        case 1: "the connection to the X server failed or broke"
        case 2: "an extension the X server does not support"
        case 3: "out of memory"
        case 4: "a request longer than the X server accepts"
        case 5: "DISPLAY could not be parsed"
        case 6: "the X server has no such screen"
        default: "connection error \(code)"
        }
    }

    /// An X protocol error code, named.
    static func protocolReason(_ code: Int32) -> String {
        let names: [Int32: String] = [
            1: "BadRequest", 2: "BadValue", 3: "BadWindow", 4: "BadPixmap", 5: "BadAtom", 8: "BadMatch",
            9: "BadDrawable", 10: "BadAccess", 11: "BadAlloc", 14: "BadIDChoice", 16: "BadLength", 17: "BadImplementation",
        ]
        return names[code].map { "X error \($0)" } ?? "X error \(code)"
    }
}

/// libxcb, wrapped once: a connection to the X server, the screen, an input-transparent frame
/// window, and a piece of the screen's pixels. No C type is visible past this module; errors
/// name the xcb call.
public final class XcbConnection {
    // Used on one thread (the run's loop), as xcb allows.
    let connection: OpaquePointer

    /// The screen DISPLAY names: its root window, visual, size in pixels and depth.
    public let root: UInt32
    let visual: UInt32
    public let width: Int
    public let height: Int
    public let depth: Int

    /// Connects to the X server `display` names (nil: DISPLAY).
    public init(display: String? = nil) throws(XcbError) {
        var number: Int32 = 0
        guard let connection = cxcb_connect(display, &number) else {
            throw XcbError(call: "xcb_connect", message: "out of memory")
        }
        let failure = cxcb_connection_error(connection)
        if failure != 0 {
            xcb_disconnect(connection)
            throw XcbError(call: "xcb_connect", message: "\(XcbError.connectionReason(failure)) (display \(display ?? "from DISPLAY"))")
        }
        var root: UInt32 = 0, visual: UInt32 = 0, width: UInt16 = 0, height: UInt16 = 0, depth: UInt8 = 0
        guard cxcb_screen(connection, number, &root, &visual, &width, &height, &depth) == 0 else {
            xcb_disconnect(connection)
            throw XcbError(call: "xcb_setup_roots_iterator", message: "the X server has no screen \(number)")
        }
        self.connection = connection
        self.root = root
        self.visual = visual
        self.width = Int(width)
        self.height = Int(height)
        self.depth = Int(depth)
    }

    deinit { xcb_disconnect(connection) }

    /// The connection's socket: readable when the server sent events or errors.
    public var descriptor: Int32 { xcb_get_file_descriptor(connection) }

    /// Sends what is buffered.
    public func flush() throws(XcbError) {
        if xcb_flush(connection) <= 0 {
            throw XcbError(call: "xcb_flush", message: XcbError.connectionReason(cxcb_connection_error(connection)))
        }
    }

    /// Reads and drops what the server sent (the overlay asks for no events); throws when the
    /// connection broke, or when the server reported an error for an unchecked request.
    public func drainEvents() throws(XcbError) {
        let lastError = cxcb_drain(connection)
        let failure = cxcb_connection_error(connection)
        if failure != 0 { throw XcbError(call: "xcb_poll_for_event", message: XcbError.connectionReason(failure)) }
        if lastError != 0 { throw XcbError(call: "xcb_poll_for_event", message: XcbError.protocolReason(lastError)) }
    }

    /// The Shape extension's version (major, minor), nil when the server has none.
    public func shapeVersion() -> (major: Int, minor: Int)? {
        let version = cxcb_shape_version(connection)
        return version < 0 ? nil : (Int(version / 1000), Int(version % 1000))
    }

    /// Gives the keyboard focus to the top-level window of process `processID` titled `title`
    /// when the focus is not on it or inside it, as a window manager does when the user chooses
    /// a window; false when nothing was done: the focus is there already, or there is no such
    /// window among the root's children (a window manager's frames hold the applications' own
    /// windows: it gives the focus there itself).
    public func focusTopLevel(processID: Int32, title: String) throws(XcbError) -> Bool {
        guard processID > 0 else { return false }
        let bytes = Array(title.utf8)
        guard bytes.count < 4096 else { return false }
        let window = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    cxcb_find_top_level(connection, root, UInt32(processID), $0, UInt32(buffer.count))
                }
            } ?? 0
        }
        guard window != 0, cxcb_has_focus(connection, window) == 0 else { return false }
        let failure = cxcb_focus(connection, window)
        if failure != 0 { throw XcbError(call: "xcb_set_input_focus", message: XcbError.protocolReason(Int32(failure))) }
        return true
    }

    /// The root window's pixels in a rectangle, each 0xRRGGBB (a 24 or 32-bit screen), row by
    /// row. The rectangle must lie on the screen.
    public func pixels(x: Int, y: Int, width: Int, height: Int) throws(XcbError) -> [UInt32] {
        guard width > 0, height > 0, x >= 0, y >= 0, x + width <= self.width, y + height <= self.height else {
            throw XcbError(call: "xcb_get_image", message: "\(width)x\(height)+\(x)+\(y) is not on the \(self.width)x\(self.height) screen")
        }
        guard depth == 24 || depth == 32 else {
            throw XcbError(call: "xcb_get_image", message: "a \(depth)-bit screen (24 or 32 bits expected)")
        }
        var pixels = [UInt32](repeating: 0, count: width * height)
        let result = pixels.withUnsafeMutableBufferPointer {
            cxcb_get_image(connection, root, Int16(x), Int16(y), UInt16(width), UInt16(height), $0.baseAddress)
        }
        if result != 0 {
            throw XcbError(call: "xcb_get_image", message: result < 0 ? "the reply is not 32 bits a pixel" : XcbError.protocolReason(result))
        }
        return pixels.map { $0 & 0xFF_FFFF }
    }
}

/// A rectangular frame drawn over every other window, through which the pointer reaches what is
/// under it: an override-redirect window (no window manager decoration or focus) whose bounding
/// shape is the frame's four sides and whose input shape is empty (Shape extension 1.1).
public final class FrameWindow {
    private let connection: XcbConnection
    private let window: UInt32
    /// The frame's thickness in pixels.
    public let thickness: Int
    private var mapped = false
    /// Where it is now (nil: hidden).
    public private(set) var placement: (x: Int, y: Int, width: Int, height: Int)?

    /// A hidden frame of `color` (0xRRGGBB) and `thickness` pixels (1…64).
    public init(on connection: XcbConnection, color: UInt32, thickness: Int) throws(XcbError) {
        guard let version = connection.shapeVersion(), version.major > 1 || (version.major == 1 && version.minor >= 1) else {
            throw XcbError(call: "xcb_shape_query_version", message: "the X server has no Shape extension 1.1 (input shapes)")
        }
        self.connection = connection
        self.thickness = min(max(thickness, 1), 64)
        var window: UInt32 = 0
        let created = cxcb_create_override_window(connection.connection, connection.root, connection.visual, color & 0xFF_FFFF, &window)
        if created != 0 { throw XcbError(call: "xcb_create_window", message: XcbError.protocolReason(Int32(created))) }
        self.window = window
        // No input anywhere: clicks go through to the windows under it.
        let input = cxcb_set_shape(connection.connection, window, 2, nil, 0)
        if input != 0 { throw XcbError(call: "xcb_shape_rectangles", message: "input shape: \(XcbError.protocolReason(Int32(input)))") }
        try connection.flush()
    }

    deinit {
        cxcb_destroy(connection.connection, window)
        try? connection.flush()
    }

    /// Shows the frame around a rectangle of the screen, its sides straddling the rectangle's
    /// edges (half outside, half inside), so that it is seen on the element's own border.
    public func show(x: Double, y: Double, width: Double, height: Double) throws(XcbError) {
        // X coordinates are 16-bit: a rectangle off any screen is not shown.
        let limit = 30_000.0
        guard [x, y, width, height].allSatisfy({ $0.isFinite && abs($0) < limit }), width >= 0, height >= 0 else {
            hide()
            return
        }
        let half = thickness / 2
        let left = Int(x.rounded()) - half, top = Int(y.rounded()) - half
        let outerWidth = max(Int(width.rounded()) + 2 * half, 2 * thickness)
        let outerHeight = max(Int(height.rounded()) + 2 * half, 2 * thickness)
        if let placement, placement == (left, top, outerWidth, outerHeight), mapped { return }
        let t = Int32(thickness), w = Int32(outerWidth), h = Int32(outerHeight)
        // The four sides, in the window's coordinates: top, bottom, left, right.
        let sides: [Int32] = [0, 0, w, t, 0, h - t, w, t, 0, t, t, h - 2 * t, w - t, t, t, h - 2 * t]
        let shaped = sides.withUnsafeBufferPointer { cxcb_set_shape(connection.connection, window, 0, $0.baseAddress, 4) }
        if shaped != 0 { throw XcbError(call: "xcb_shape_rectangles", message: "bounding shape: \(XcbError.protocolReason(Int32(shaped)))") }
        cxcb_place(connection.connection, window, Int16(left), Int16(top), UInt16(outerWidth), UInt16(outerHeight))
        if !mapped { cxcb_map(connection.connection, window); mapped = true }
        placement = (left, top, outerWidth, outerHeight)
        try connection.flush()
    }

    /// Hides the frame.
    public func hide() {
        guard mapped else { return }
        cxcb_unmap(connection.connection, window)
        mapped = false
        placement = nil
        try? connection.flush()
    }
}
