#!/bin/sh
# Debian's gnome-calculator (GTK 4) on the test desktop: settings in memory (none read from or
# written to the user's), basic mode, nothing remembered from an earlier run.
GSETTINGS_BACKEND=memory HOME="$APP_FOLDER" XDG_CONFIG_HOME="$APP_FOLDER/config" exec /usr/bin/gnome-calculator --mode=basic
