#!/bin/sh
# Openbox, the window manager of the tests that need one (focus given to new windows, Alt+F4
# closing the focused window), with its default configuration (/etc/xdg/openbox/rc.xml: the
# desktop's own XDG_CONFIG_HOME holds none) and no session manager.
exec /usr/bin/openbox --sm-disable
