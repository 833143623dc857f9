#!/usr/bin/python3
"""The GTK 3 twin of gtk4_demo.py for the live application tests: the same window (three buttons,
a slider, a check box, a counter with its label, a button that opens a modal dialog), written
with GTK 3's own widgets and calls. Every handler prints what it did (one line, flushed) so that
a test reads what selecting did in the application itself."""
import sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk

def say(text):
    print(text, flush=True)

def build(app):
    window = Gtk.ApplicationWindow(application=app, title="Demo")
    window.set_default_size(320, 400)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
    window.add(box)
    for n in range(3):
        button = Gtk.Button(label=f"Button {n}")
        button.connect("clicked", lambda _b, n=n: say(f"clicked Button {n}"))
        box.pack_start(button, False, False, 0)
    scale = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1)
    scale.set_value(50)
    scale.connect("value-changed", lambda s: say(f"value {s.get_value():g}"))
    box.pack_start(scale, False, False, 0)
    check = Gtk.CheckButton(label="Wi-Fi")
    check.connect("toggled", lambda c: say(f"Wi-Fi {'on' if c.get_active() else 'off'}"))
    box.pack_start(check, False, False, 0)
    status = Gtk.Label(label="Count 0")
    counter = [0]
    def count(_b):
        counter[0] += 1
        status.set_label(f"Count {counter[0]}")
        say(f"count {counter[0]}")
    more = Gtk.Button(label="Count")
    more.connect("clicked", count)
    box.pack_start(more, False, False, 0)
    box.pack_start(status, False, False, 0)
    def open_dialog(_b):
        dialog = Gtk.Window(title="Confirm", transient_for=window, modal=True)
        inner = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        ok = Gtk.Button(label="OK")
        ok.connect("clicked", lambda _b: (say("dialog OK"), dialog.destroy()))
        inner.pack_start(Gtk.Label(label="Really?"), False, False, 0)
        inner.pack_start(ok, False, False, 0)
        dialog.add(inner)
        dialog.show_all()
        say("dialog opened")
    opener = Gtk.Button(label="Open dialog")
    opener.connect("clicked", open_dialog)
    box.pack_start(opener, False, False, 0)
    window.show_all()
    say("ready")

app = Gtk.Application(application_id="org.switchscan.Gtk3Demo")
app.connect("activate", build)
sys.exit(app.run([]))
