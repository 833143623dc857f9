#!/usr/bin/python3
"""What a test asks the accessibility bus from outside its own process (libatspi connects a
process to one bus only, and a test starts a desktop of its own): `extents LABEL` prints the
screen extents "x y width height" of the first object named LABEL (nothing when none),
`window-extents LABEL` its extents in window coordinates, as the toolkit reports them, and
`click X Y` sends a button 1 click at a screen position through the registry (XTest on X11),
and `action LABEL` does the first action of the first object named LABEL (as a keyboard or a
mouse would: the scanner is not told), printing "done" (nothing when there is no such object);
`windows` prints each top-level window as "APPLICATION<tab>TITLE", `pid APPLICATION` the
process id of the application of that name, and `app-window-extents APPLICATION` the screen
extents of its first window; `present APPLICATION ROLE TEXT [focus|caret|action|click|tab]` moves a screen
reader to the first object of APPLICATION's windows whose role is ROLE and whose name,
description or text starts with TEXT: the keyboard focus to it (`focus`, the default), the caret
to its text's start (`caret`: a paragraph takes no focus; a screen reader reads where the caret
is), its first action (`action`: a menu opens), or a pointer click at its middle (`click`: GTK 4
gives no focus through AT-SPI, a click focuses a widget) or Tab pressed until it has the focus
(`tab`, at most 100 times: a GTK 4 button takes no focus from a click); an object that has the
focus already loses it first (to another object, or by one Tab), so that the focus moves to it; and prints its object path (nothing when there
is no such object); `find APPLICATION ROLE TEXT` prints that object's path and moves nothing."""
import sys
import time
import pyatspi

def find(node, label):
    if node is None:
        return None
    if node.name == label:
        return node
    for child in node:
        found = find(child, label)
        if found is not None:
            return found
    return None

if sys.argv[1] in ("extents", "window-extents"):
    kind = pyatspi.DESKTOP_COORDS if sys.argv[1] == "extents" else pyatspi.WINDOW_COORDS
    for app in pyatspi.Registry.getDesktop(0):
        found = find(app, sys.argv[2])
        if found is not None:
            e = found.queryComponent().getExtents(kind)
            print(e.x, e.y, e.width, e.height)
            break
elif sys.argv[1] == "click":
    pyatspi.Registry.generateMouseEvent(int(sys.argv[2]), int(sys.argv[3]), "b1c")
elif sys.argv[1] == "action":
    for app in pyatspi.Registry.getDesktop(0):
        found = find(app, sys.argv[2])
        if found is not None:
            found.queryAction().doAction(0)
            print("done")
            break
elif sys.argv[1] in ("present", "find"):
    def text_head(node):
        try:
            # Firefox answers an end past the text's length with nothing.
            text = node.queryText()
            return text.getText(0, min(200, text.characterCount))
        except NotImplementedError:
            return ""
    def matches(node):
        if node.getRoleName() != sys.argv[3]:
            return False
        return any(part.startswith(sys.argv[4]) for part in (node.name or "", node.description or "", text_head(node)))
    def search(node):
        if node is None:
            return None
        if matches(node):
            return node
        for child in node:
            found = search(child)
            if found is not None:
                return found
        return None
    def focused(node):
        return node.getState().contains(pyatspi.STATE_FOCUSED)
    def other_focusable(node, target):
        states = node.getState()
        if node != target and states.contains(pyatspi.STATE_FOCUSABLE) and states.contains(pyatspi.STATE_SHOWING):
            return node
        for child in node:
            found = other_focusable(child, target)
            if found is not None:
                return found
        return None
    mode = sys.argv[5] if len(sys.argv) > 5 else "focus"
    if sys.argv[1] == "find":
        mode = None
    for app in pyatspi.Registry.getDesktop(0):
        if app.name.lower() != sys.argv[2].lower():
            continue
        found = search(app)
        if found is not None:
            # Already focused: the focus goes elsewhere first, so that it moves to the object.
            if mode == "focus" and focused(found):
                other = other_focusable(app, found)
                if other is not None:
                    other.queryComponent().grabFocus()
                    time.sleep(0.5)
            elif mode == "tab" and focused(found):
                pyatspi.Registry.generateKeyboardEvent(0xff09, None, pyatspi.KEY_SYM)
                time.sleep(0.25)
            if mode is None:
                pass
            elif mode == "caret":
                found.queryText().setCaretOffset(0)
            elif mode == "action":
                found.queryAction().doAction(0)
            elif mode == "tab":
                for _ in range(100):
                    if found.getState().contains(pyatspi.STATE_FOCUSED):
                        break
                    pyatspi.Registry.generateKeyboardEvent(0xff09, None, pyatspi.KEY_SYM)
                    # GTK 4 says the new focus late: a shorter wait tabs past the object.
                    time.sleep(0.6)
            elif mode == "click":
                e = found.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                pyatspi.Registry.generateMouseEvent(e.x + e.width // 2, e.y + e.height // 2, "b1c")
            else:
                found.queryComponent().grabFocus()
            print(found.path)
            break
elif sys.argv[1] == "windows":
    for app in pyatspi.Registry.getDesktop(0):
        for window in app:
            print(app.name + "\t" + window.name)
elif sys.argv[1] == "pid":
    for app in pyatspi.Registry.getDesktop(0):
        if app.name == sys.argv[2]:
            print(app.get_process_id())
            break
elif sys.argv[1] == "app-window-extents":
    for app in pyatspi.Registry.getDesktop(0):
        if app.name.lower() == sys.argv[2].lower() and app.childCount > 0:
            e = app[0].queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            print(e.x, e.y, e.width, e.height)
            break
