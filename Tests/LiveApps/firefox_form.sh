#!/bin/sh
# Firefox ESR on the test desktop showing form.html, a web form with a Name field.
here=$(cd "$(dirname "$0")" && pwd)
exec /bin/sh "$here/firefox_page.sh" form.html
