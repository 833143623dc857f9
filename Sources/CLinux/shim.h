#ifndef SWITCHSCAN_CLINUX_SHIM_H
#define SWITCHSCAN_CLINUX_SHIM_H
/* Linux interfaces the Glibc module does not bring: signalfd (signals as a descriptor) and
   inotify (hotplug under /dev/input). Wrapped once, in the Runtime module's System folder. */
#include <sys/signalfd.h>
#include <sys/inotify.h>
#endif
