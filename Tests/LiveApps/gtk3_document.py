#!/usr/bin/python3
"""A long document for the live application tests: a GTK 3 window titled "Document" with a
read-only text view holding DOCUMENT_BYTES (default 1,000,000) bytes of numbered lines, and a
button. The scanner reads a window of such a text, not all of it; prints "ready" when shown."""
import os
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, GLib

def build(app):
    size = int(os.environ.get("DOCUMENT_BYTES", "1000000"))
    lines = []
    total = 0
    n = 0
    while total < size:
        line = f"Line {n} of the long document.\n"
        lines.append(line)
        total += len(line)
        n += 1
    window = Gtk.ApplicationWindow(application=app, title="Document")
    window.set_default_size(400, 300)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
    window.add(box)
    box.pack_start(Gtk.Button(label="Close document"), False, False, 0)
    view = Gtk.TextView()
    view.set_editable(False)
    view.get_buffer().set_text("".join(lines)[:size])
    scroller = Gtk.ScrolledWindow()
    scroller.add(view)
    box.pack_start(scroller, True, True, 0)
    window.show_all()
    GLib.idle_add(lambda: print("ready", flush=True))

app = Gtk.Application(application_id="org.switchscan.Document")
app.connect("activate", build)
app.run([])
