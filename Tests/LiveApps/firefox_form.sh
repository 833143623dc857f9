#!/bin/sh
# Firefox ESR showing Tests/LiveApps/form.html, a web form, started as firefox_page.sh starts it.
here=$(cd "$(dirname "$0")" && pwd)
FIREFOX_PAGE=form.html exec /bin/sh "$here/firefox_page.sh"
