#!/usr/bin/python3
"""A GTK 4 window for the live application tests: three buttons, a slider, a check box, a button
that opens a modal dialog and one that changes a label. Every handler prints what it did (one
line, flushed) so that a test reads what selecting did in the application itself."""
import sys
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gtk, GLib

def say(text):
    print(text, flush=True)

def build(app):
    window = Gtk.ApplicationWindow(application=app, title="Demo")
    window.set_default_size(320, 400)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
    window.set_child(box)
    for n in range(3):
        button = Gtk.Button(label=f"Button {n}")
        button.connect("clicked", lambda _b, n=n: say(f"clicked Button {n}"))
        box.append(button)
    scale = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1)
    scale.set_value(50)
    scale.connect("value-changed", lambda s: say(f"value {s.get_value():g}"))
    box.append(scale)
    check = Gtk.CheckButton(label="Wi-Fi")
    check.connect("toggled", lambda c: say(f"Wi-Fi {'on' if c.get_active() else 'off'}"))
    box.append(check)
    status = Gtk.Label(label="Count 0")
    counter = [0]
    def count(_b):
        counter[0] += 1
        status.set_label(f"Count {counter[0]}")
        say(f"count {counter[0]}")
    more = Gtk.Button(label="Count")
    more.connect("clicked", count)
    box.append(more)
    box.append(status)
    def open_dialog(_b):
        dialog = Gtk.Window(title="Confirm", transient_for=window, modal=True)
        inner = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        ok = Gtk.Button(label="OK")
        ok.connect("clicked", lambda _b: (say("dialog OK"), dialog.close()))
        inner.append(Gtk.Label(label="Really?"))
        inner.append(ok)
        dialog.set_child(inner)
        dialog.present()
        say("dialog opened")
    opener = Gtk.Button(label="Open dialog")
    opener.connect("clicked", open_dialog)
    box.append(opener)
    window.present()
    say("ready")

app = Gtk.Application(application_id="org.switchscan.Gtk4Demo")
app.connect("activate", build)
sys.exit(app.run([]))
