#!/usr/bin/python3
"""A second GTK 4 window for the live application tests, titled "Other window": shown, it takes
the focus from the window the scanner is scanning, as a user's new window does. Prints "ready"
when shown."""
import sys
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gtk, Gio

def build(app):
    window = Gtk.ApplicationWindow(application=app, title="Other window")
    window.set_default_size(200, 100)
    window.set_child(Gtk.Button(label="Other button"))
    window.present()
    print("ready", flush=True)

app = Gtk.Application(application_id="org.switchscan.Gtk4OtherWindow", flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect("activate", build)
sys.exit(app.run([]))
