import Atspi

extension LiveApplication {
    /// Brings a page tab to the front the way its tab list's Selection interface does (a GTK 3
    /// notebook's tabs have no action; a pointer click at the tab's middle misses a tab that is
    /// scrolled or covered). False when the tab list cannot: no Selection interface, or the
    /// application refused (Chromium's tab strip refuses; its tabs have an action of their own).
    func selectThroughTabList(_ tab: AccessibleObject) throws(AtspiError) -> Bool {
        guard let list = try tab.parent(), let index = try tab.indexInParent() else { return false }
        return try list.selectChild(at: index)
    }
}
