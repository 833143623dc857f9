#!/bin/sh
# Debian's Mousepad (GTK 3) on the test desktop, with a home and settings of its own in the
# desktop's folder (GSettings in memory: nothing read from or written to the user's).
mkdir -p "$APP_FOLDER/config"
GSETTINGS_BACKEND=memory HOME="$APP_FOLDER" XDG_CONFIG_HOME="$APP_FOLDER/config" exec /usr/bin/mousepad
