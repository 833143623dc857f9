#!/usr/bin/python3
"""The reference of the live benchmark: a plain pyatspi walk of one window, reading of each
object what switchscan's snapshot reads (role, name, description, states, extents in window
coordinates, action names, the Value interface), with no mapping and no scanner.

  pyatspi_walk.py walk TITLE        walks the window titled TITLE; prints
                                    "walked OBJECTS SECONDS" and "peak KILOBYTES" (VmHWM)
  pyatspi_walk.py listen TITLE      walks it once, then prints "listening" and, for each
                                    name change in it, reads the object's name again and prints
                                    "changed MONOTONIC NAME" (CLOCK_MONOTONIC seconds)
"""
import sys
import time
import pyatspi

def window_titled(title):
    for app in pyatspi.Registry.getDesktop(0):
        if app is None:
            continue
        for window in app:
            if window is not None and window.name == title:
                return window
    return None

def read(node):
    node.getRoleName(); node.name; node.description
    node.getState().getStates()
    try:
        node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    except NotImplementedError:
        pass
    try:
        action = node.queryAction()
        [action.getName(i) for i in range(action.nActions)]
    except NotImplementedError:
        pass
    try:
        value = node.queryValue()
        value.currentValue; value.minimumValue; value.maximumValue; value.minimumIncrement
    except NotImplementedError:
        pass

def walk(node):
    count = 1
    read(node)
    for child in node:
        if child is not None:
            count += walk(child)
    return count

def peak_kilobytes():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0

window = window_titled(sys.argv[2])
if window is None:
    print("no window", flush=True)
    sys.exit(1)
started = time.monotonic()
count = walk(window)
print(f"walked {count} {time.monotonic() - started:.6f}", flush=True)
print(f"peak {peak_kilobytes()}", flush=True)
if sys.argv[1] == "listen":
    def changed(event):
        name = event.source.name
        print(f"changed {time.monotonic():.6f} {name}", flush=True)
    pyatspi.Registry.registerEventListener(changed, "object:property-change:accessible-name")
    print("listening", flush=True)
    pyatspi.Registry.start()
