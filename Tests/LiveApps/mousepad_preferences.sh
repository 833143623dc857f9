#!/bin/sh
# Debian's Mousepad (GTK 3) on the test desktop showing its preferences dialog (a notebook of
# four tabs, combo boxes), with a home of its own (its settings are written there) and no
# primary instance on the session bus to hand the dialog to.
mkdir -p "$APP_FOLDER/config"
HOME="$APP_FOLDER" XDG_CONFIG_HOME="$APP_FOLDER/config" exec /usr/bin/mousepad --disable-server --preferences
