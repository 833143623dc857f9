#!/bin/sh
# A desktop of its own for the live application tests: a private D-Bus session, Xvfb (on a free
# display it picks itself), the AT-SPI bus, and the applications given (Python scripts run with
# Debian's python3: GTK 3, GTK 4 or Qt 5), each printing into FOLDER/SCRIPT.out. The AT-SPI
# registry is checked before any application starts: started by the bus when first asked, by hand
# when the bus cannot, and if neither works the desktop says so (ERROR=what is missing) and stops,
# rather than leaving applications that can never register. What the desktop's own programs say
# goes to FOLDER/session.log. Prints DISPLAY=, DBUS_SESSION_BUS_ADDRESS=, ACCESSIBILITY_BUS=,
# APP_FOLDER= and READY, then waits for its standard input to end (the test runner holds the only
# writing end: at the runner's exit, also when killed, the kernel closes it) and stops each
# process by its PID.
set -u
dir=$(mktemp -d /tmp/switchscan-live.XXXXXX)
log="$dir/session.log"
# The accessibility bus's socket goes under XDG_RUNTIME_DIR: one of its own per desktop.
XDG_RUNTIME_DIR="$dir"
export XDG_RUNTIME_DIR
# Nothing of the machine's desktop reaches this one. The session bus reads a configuration of its
# own with one service folder, empty, in place of the standard ones: a desktop's
# xdg-desktop-portal (and its GTK backend) installs activatable services there, and GTK 4 asks
# the portal for its settings at start-up and waits for the answer; here the call fails at once
# (no such service) and GTK goes on with its defaults. GTK is also told not to use portals at all,
# the user's settings and caches are left alone (GSettings in memory, XDG folders of this
# desktop), and Python writes no bytecode beside the test applications.
mkdir -p "$dir/services" "$dir/config" "$dir/data" "$dir/cache"
cat >"$dir/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:dir=$dir</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$dir/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
GTK_USE_PORTAL=0
GSETTINGS_BACKEND=memory
XDG_CONFIG_HOME="$dir/config"
XDG_DATA_HOME="$dir/data"
XDG_CACHE_HOME="$dir/cache"
PYTHONDONTWRITEBYTECODE=1
export GTK_USE_PORTAL GSETTINGS_BACKEND XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME PYTHONDONTWRITEBYTECODE
out=$(dbus-daemon --config-file="$dir/session.conf" --fork --print-address=1 --print-pid=1 2>>"$log") || {
    echo "ERROR=the session bus (dbus-daemon) did not start: $(tail -n 3 "$log" | tr '\n' ' ')"
    rm -rf "$dir"
    exit 1
}
DBUS_SESSION_BUS_ADDRESS=$(echo "$out" | sed -n 1p)
dbus_pid=$(echo "$out" | sed -n 2p)
export DBUS_SESSION_BUS_ADDRESS
Xvfb -displayfd 5 -screen 0 1024x768x24 -nolisten tcp -noreset 5>"$dir/display" >>"$log" 2>&1 </dev/null &
xvfb_pid=$!
i=0
while [ ! -s "$dir/display" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
DISPLAY=":$(cat "$dir/display")"
export DISPLAY
error=""
[ -s "$dir/display" ] || error="the X server (Xvfb) did not start"
# (LIVE_ATSPI_BUS_LAUNCHER: another launcher, for the test of a desktop whose bus cannot start.)
"${LIVE_ATSPI_BUS_LAUNCHER:-/usr/libexec/at-spi-bus-launcher}" --launch-immediately >>"$log" 2>&1 </dev/null &
bus_pid=$!
# Qt 5 (Debian's 5.15.8) reaches the accessibility bus at start-up only through the X root
# window's AT_SPI_BUS property: through the session bus it makes its first calls before its
# connection is up and never registers (seen with python3-pyqt5). A desktop session's bus
# launcher sets that property; this one does not, so it is set here from the launcher's answer
# (Xvfb runs with -noreset: else it resets when xprop, its only client yet, leaves, and the
# property with it).
i=0
address=""
while [ -z "$address" ] && [ $i -lt 100 ]; do
    if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.a11y.Bus 2>>"$log" | grep -q "boolean true"; then
        address=$(dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress 2>>"$log" \
            | sed -n 's/^ *string "\(.*\)"$/\1/p')
    fi
    [ -n "$address" ] || sleep 0.05
    i=$((i + 1))
done
registry_pid=""
if [ -n "$error" ]; then
    :
elif [ -z "$address" ]; then
    error="the accessibility bus did not start (at-spi-bus-launcher gave no address on the session bus)"
else
    xprop -root -f AT_SPI_BUS 8s -set AT_SPI_BUS "$address" 2>>"$log"
    # The registry (at-spi2-registryd) is started by the accessibility bus at the first call to
    # its name; one is made here, and waited for (the bus waits for a registry it starts much
    # longer than any test would).
    registry_owner() {
        dbus-send --bus="$address" --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.GetNameOwner string:org.a11y.atspi.Registry 2>>"$log" | sed -n 's/^ *string "\(.*\)"$/\1/p'
    }
    dbus-send --bus="$address" --print-reply --reply-timeout=30000 --dest=org.a11y.atspi.Registry /org/a11y/atspi/registry \
        org.freedesktop.DBus.Peer.Ping >>"$log" 2>&1
    if [ -z "$(registry_owner)" ]; then
        # Not started by the bus: by hand (it finds the accessibility bus as the applications do).
        echo "the bus did not start the registry: started by hand" >>"$log"
        /usr/libexec/at-spi2-registryd >>"$log" 2>&1 </dev/null &
        registry_pid=$!
        i=0
        while [ -z "$(registry_owner)" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
        [ -n "$(registry_owner)" ] || error="the AT-SPI registry (at-spi2-registryd) is not running on the accessibility bus $address: the bus did not start it, nor did starting it by hand"
    fi
fi
app_pids=""
[ -n "$error" ] && set --
for app in "$@"; do
    name=$(basename "$app")
    GTK_A11Y=atspi /usr/bin/python3 "$app" >"$dir/$name.out" 2>"$dir/$name.err" </dev/null &
    app_pids="$app_pids $!"
done
echo "DISPLAY=$DISPLAY"
echo "DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS"
echo "ACCESSIBILITY_BUS=$address"
echo "APP_FOLDER=$dir"
if [ -n "$error" ]; then
    echo "ERROR=$error; its log ended: $(tail -n 5 "$log" | tr "\n" " ")"
else
    echo "READY"
    cat >"$dir/input"
fi
# The runner blocks SIGTERM in its threads (its signal descriptor), and children inherit that
# mask: TERM first, then KILL what is left. The registry daemon ends when its bus is gone.
# The bus launcher's own children (the accessibility bus daemon): found by their parent's PID.
bus_children=$(ps -o pid= --ppid "$bus_pid" 2>>"$log")
# The accessibility bus daemon can be reparented away from its launcher; it names this desktop's
# folder in its arguments (unique to this run), and the registry daemon is its child.
atspi_bus=$(ps -eo pid=,args= | awk -v d="$dir/" 'index($0, d) && $2 !~ /awk/ {print $1}')
for pid in $atspi_bus; do bus_children="$bus_children $pid $(ps -o pid= --ppid "$pid" 2>>"$log")"; done
# (Processes already gone are said in the log, which goes with the folder.)
kill $app_pids $registry_pid "$bus_pid" "$xvfb_pid" "$dbus_pid" $bus_children 2>>"$log"
sleep 0.5
kill -KILL $bus_children 2>>"$log"
kill -KILL $app_pids $registry_pid "$bus_pid" "$xvfb_pid" "$dbus_pid" 2>>"$log"
wait $app_pids $registry_pid "$bus_pid" "$xvfb_pid" 2>>"$log"
# Whatever else this desktop started (the registry daemon, activated late by the bus) carries
# this desktop's own XDG_RUNTIME_DIR in its environment: those processes, and only those.
for environ in /proc/[0-9]*/environ; do
    # (A process gone meanwhile has no environ to open: said in the log.)
    if { tr '\0' '\n' < "$environ"; } 2>>"$log" | grep -qx "XDG_RUNTIME_DIR=$dir"; then
        pid=${environ#/proc/}
        kill -KILL "${pid%/environ}" 2>>"$log"
    fi
done
rm -rf "$dir"
