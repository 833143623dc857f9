#!/bin/sh
# Debian's Chromium on the test desktop, showing Tests/LiveApps/page.html (or the page of
# this folder named as the first argument) with its renderer's
# accessibility on, a home and profile of its own in the desktop's folder; no sandbox (tests run as root),
# no GPU, no crash reporter, no first-run dialogs, no network. Chromium joins the accessibility bus
# only when told (ACCESSIBILITY_ENABLED=1, or GNOME's toolkit-accessibility setting).
here=$(dirname "$0")
page=${1:-page.html}
ACCESSIBILITY_ENABLED=1 HOME="$APP_FOLDER" XDG_CONFIG_HOME="$APP_FOLDER/config" exec /usr/bin/chromium --force-renderer-accessibility --disable-crash-reporter --no-sandbox --disable-gpu --no-first-run \
    --no-default-browser-check --disable-extensions --disable-sync --disable-background-networking \
    --password-store=basic --user-data-dir="$APP_FOLDER/chromium" --window-size=800,600 \
    "file://$(cd "$here" && pwd)/$page"
