#!/bin/sh
# Debian's galculator (GTK 3) on the test desktop, with a home of its own (it writes its
# configuration there at exit).
mkdir -p "$APP_FOLDER/config"
HOME="$APP_FOLDER" XDG_CONFIG_HOME="$APP_FOLDER/config" exec /usr/bin/galculator
