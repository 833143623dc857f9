#!/usr/bin/python3
"""A GTK 3 window with a long list, for the live benchmark: LONG_LIST_OBJECTS accessible objects
(default 10,000) as rows of a list box, each row (a list item) holding one label, so two objects
a row. SIGUSR1 renames one row's label ("Row K, change N"; K is the number in the file
LONG_LIST_CHANGE_FILE names, else 0): one name-change event on the bus, for the benchmark to time
on the row the scanner highlights. SIGUSR2 appends a row at the end ("Appended N", its label
printed as "appended N"): GTK 3 says so with no children-changed event. Prints "ready ROWS PID"
when the window is shown."""
import os
import signal
import sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, GLib

objects = int(os.environ.get("LONG_LIST_OBJECTS", "10000"))
rows = max(1, min(objects // 2, 500_000))

window = Gtk.Window(title="Long list")
window.set_default_size(400, 600)
window.connect("destroy", Gtk.main_quit)
scrolled = Gtk.ScrolledWindow()
listbox = Gtk.ListBox()
labels = [Gtk.Label(label="Row 0")]
listbox.add(labels[0])
for n in range(1, rows):
    labels.append(Gtk.Label(label=f"Row {n}"))
    listbox.add(labels[-1])
scrolled.add(listbox)
window.add(scrolled)
changes = [0]
def change():
    changes[0] += 1
    row = 0
    try:
        with open(os.environ.get("LONG_LIST_CHANGE_FILE", "/nonexistent")) as chosen:
            row = min(max(int(chosen.read().strip()), 0), rows - 1)
    except (OSError, ValueError):
        pass
    labels[row].set_label(f"Row {row}, change {changes[0]}")
    print(f"change {changes[0]}", flush=True)
    return GLib.SOURCE_CONTINUE
# A parent's blocked signals are inherited through exec (a test runner that takes its signals
# through a descriptor blocks them): this application's own two are taken whatever its parent did.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1, signal.SIGUSR2})
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, change)
appended = [0]
def append():
    appended[0] += 1
    label = Gtk.Label(label=f"Appended {appended[0]}")
    listbox.add(label)
    label.show()
    print(f"appended {appended[0]}", flush=True)
    return GLib.SOURCE_CONTINUE
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR2, append)
window.show_all()
print(f"ready {rows} {os.getpid()}", flush=True)
Gtk.main()
