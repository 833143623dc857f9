#ifndef SWITCHSCAN_CEVDEV_SHIM_H
#define SWITCHSCAN_CEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <linux/input.h>
#endif
