#!/bin/sh
# Debian's FeatherPad (Qt 5) on the test desktop, with a home and configuration of its own in the
# desktop's folder. Qt joins the accessibility bus only when told.
mkdir -p "$APP_FOLDER/config"
QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 HOME="$APP_FOLDER" XDG_CONFIG_HOME="$APP_FOLDER/config" exec /usr/bin/featherpad
