import Atspi
import LiveTree

/// Popups that live outside the window's tree: Firefox ESR shows a `<select>`'s options in a
/// combo box of its own (the browser's, not the page's), whose parent is the page's combo box
/// but which is none of its children, so no window read meets it. Its EXPANDED event is the one
/// sign it is open: the popup is then read from that object and put in place of the page's
/// combo box's children, the combo box marked EXPANDED, so that the popup is a level of the
/// scan like any other (`Popups`). Closed (an option clicked, or Escape), it says nothing more
/// (no event clears EXPANDED; its objects are destroyed much later), so it is read afresh at each
/// change of the window, and forgotten once it is no longer EXPANDED.
struct DetachedPopups {
    /// The open popups, each by the id of the opener in the window it belongs to.
    private(set) var open: [String: AccessibleObject] = [:]

    /// Most objects read from one popup.
    static let mostObjects = 1_000

    /// Whether `id` is an object of an open popup here (its options close it when chosen).
    func holds(_ id: String, in window: AccessibleNode?) -> Bool {
        guard let window else { return false }
        return open.keys.contains { opener in window.node(withID: opener)?.subtreeIDs().contains(id) == true }
    }

    /// Takes in a batch of events: a combo box outside `window` saying EXPANDED whose parent is
    /// an opener of `window` is a popup opened. True when the window is to be read again for
    /// the popups (one opened, or any event while one is open: it may have closed).
    mutating func note(_ events: [AccessibleEvent], in window: AccessibleNode?) -> Bool {
        guard let window else { return false }
        var changed = !open.isEmpty && !events.isEmpty
        for event in events where event.type == "object:state-changed:expanded" && event.detail1 == 1 {
            guard let source = event.source, window.node(withID: source.id) == nil,
                  (try? source.roleName()) == "combo box", let parent = try? source.parent(),
                  let opener = window.node(withID: parent.id), Popups.isOpener(opener) else { continue }
            open[opener.id] = source
            changed = true
        }
        return changed
    }

    /// Puts each open popup's items in place of its opener's children in `window` and marks the
    /// opener EXPANDED, recording the popup's objects in `objects`; a popup no longer EXPANDED
    /// (or gone) is forgotten, as is one whose opener left the window.
    mutating func graft(into window: inout AccessibleNode, objects: inout [String: AccessibleObject]?) {
        for (openerID, popup) in open {
            popup.forgetCache()
            guard var opener = window.node(withID: openerID),
                  let read = try? popup.snapshot(limit: Self.mostObjects, objects: &objects), read.states.contains(.expanded) else {
                open[openerID] = nil
                continue
            }
            opener.children = read.children
            opener.states.insert(.expanded)
            _ = window.replaceSubtree(with: opener)
        }
    }
}
