import CAtspi
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// An AT-SPI event, as received: its type ("object:children-changed:add",
/// "window:activate", "object:state-changed:checked"…), its source and its details.
public struct AccessibleEvent: Sendable {
    public var type: String
    /// The source, held; nil for `defunct` (see `EventListener`), whose source is named by
    /// `sourceID` alone.
    public var source: AccessibleObject?
    /// The source's id (bus name and object path).
    public var sourceID: String?
    public var detail1: Int
    public var detail2: Int
}

/// Events of the types registered, kept in arrival order until taken. They arrive while the
/// main context dispatches (`MainContextPoll.dispatch`).
public final class EventListener: @unchecked Sendable {
    private var listener: UnsafeMutablePointer<AtspiEventListener>?
    private var queue: [AccessibleEvent] = []
    private var types: [String] = []
    /// Most events kept between two takes: a flood past it keeps the newest only (a change
    /// event's only use is to say "read again").
    public static let maxQueued = 10_000

    /// What libatspi's callback is given: it outlives this listener when a type could not be
    /// deregistered (the registry away), and then hands libatspi's events to no one.
    private final class Receiver {
        weak var listener: EventListener?
    }
    private let receiver = Receiver()
    /// Types still registered with libatspi when this listener went (the registry away).
    private var leftRegistered = false

    public init() throws(AtspiError) {
        let box = Unmanaged.passRetained(receiver).toOpaque()
        guard let made = atspi_event_listener_new({ event, data in
            guard let event, let data else { return }
            let receiver = Unmanaged<Receiver>.fromOpaque(data).takeUnretainedValue()
            receiver.listener?.received(event)
            catspi_event_free(event)
        }, box, nil) else {
            Unmanaged.passUnretained(receiver).release()
            throw AtspiError(call: "atspi_event_listener_new", message: "no listener")
        }
        listener = made
        receiver.listener = self
    }

    private func received(_ event: UnsafeMutablePointer<AtspiEvent>) {
        let type = event.pointee.type.map { String(cString: $0) } ?? ""
        var source = event.pointee.source.map { AccessibleObject(borrowing: $0) }
        let sourceID = source?.id
        // libatspi sends `object:state-changed:defunct` itself when it disposes of an object's
        // proxy (the process let go of its last reference; Firefox sends none of its own): a
        // source held past this call is let go later and disposed again, which sends the event
        // again, and so on every loop turn. The id is all such an event needs.
        if type.hasPrefix("object:state-changed:defunct") { source = nil }
        if queue.count >= Self.maxQueued { queue.removeFirst(queue.count / 2) }
        queue.append(AccessibleEvent(
            type: type, source: source, sourceID: sourceID, detail1: Int(event.pointee.detail1), detail2: Int(event.pointee.detail2)))
    }

    /// Listens to events of `type` ("object:", "window:", "object:state-changed"…).
    public func register(_ type: String) throws(AtspiError) {
        let ok = try Atspi.call("atspi_event_listener_register") { atspi_event_listener_register(listener, type, $0) }
        if ok == 0 { throw AtspiError(call: "atspi_event_listener_register", message: "refused \(type)") }
        types.append(type)
    }

    /// The events received since the last take.
    public func take() -> [AccessibleEvent] {
        defer { queue.removeAll(keepingCapacity: true) }
        return queue
    }

    /// Stops listening to `types` (each said to the registry: not while it is away, when the
    /// call would wait on it).
    public func deregister(_ types: [String]) {
        for type in types where self.types.contains(type) {
            self.types.removeAll { $0 == type }
            guard AccessibilityRegistry.shared.isRunning else { leftRegistered = true; continue }
            var error: UnsafeMutablePointer<GError>?
            _ = atspi_event_listener_deregister(listener, type, &error)
            if let error { var buffer = [CChar](repeating: 0, count: 8); _ = catspi_take_error(error, &buffer, buffer.count) }
        }
    }

    deinit {
        deregister(types)
        // libatspi keeps calling back for a type it still holds: then the receiver stays.
        if !leftRegistered {
            catspi_unref(listener)
            Unmanaged.passUnretained(receiver).release()
        }
    }
}

/// The GLib main context that carries libatspi's D-Bus traffic, joined to one epoll
/// descriptor: the program's poll loop waits on `descriptor` (readable when any of the
/// context's descriptors is ready) until `prepare()`'s timeout, then calls `dispatch()`.
public final class MainContextPoll: @unchecked Sendable {
    public let descriptor: Int32
    private let state: UnsafeMutablePointer<catspi_poll_state>
    private var prepared = false

    public init() throws(AtspiError) {
        let made = catspi_epoll_create()
        guard made >= 0 else { throw AtspiError(call: "epoll_create1", message: Errno.current.message) }
        descriptor = made
        state = .allocate(capacity: 1)
        state.initialize(to: catspi_poll_state())
    }

    deinit {
        if prepared { catspi_context_dispatch(state) }
        FileIO.close(FileDescriptor(rawValue: descriptor))
        state.deallocate()
    }

    /// Prepares the context for a wait: its descriptors go into the epoll set. Returns the
    /// longest the loop may wait (seconds), nil for no limit.
    public func prepare() throws(AtspiError) -> Double? {
        guard !prepared else { return 0 }
        let timeout = catspi_context_prepare(descriptor, state)
        if timeout == -2 {
            throw AtspiError(call: "g_main_context_query", message: Errno.current.message)
        }
        prepared = true
        return timeout < 0 ? nil : Double(timeout) / 1000
    }

    /// Dispatches everything that has arrived, without waiting (at most `most` dispatches):
    /// libatspi hands over one D-Bus message a dispatch, so a burst of events (a relayout sends
    /// dozens) would otherwise come one loop turn at a time. Returns how many dispatches ran.
    @discardableResult
    public func drain(most: Int = 100_000) -> Int {
        dispatch()
        return Int(catspi_context_drain(Int32(clamping: max(0, most))))
    }

    /// Dispatches what is ready (event callbacks run here), after a wait.
    public func dispatch() {
        guard prepared else { return }
        prepared = false
        catspi_context_dispatch(state)
    }
}
