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
extents of its first window."""
import sys
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
