#ifndef SWITCHSCAN_CEVDEV_SHIM_H
#define SWITCHSCAN_CEVDEV_SHIM_H
/* libevdev and the kernel's input API, for the Evdev wrapper. What does not import into Swift
 * (variadic open, ioctl request macros, the input_event time fields' macro names) is wrapped here
 * in static inline functions, each named after the one C call it makes. */
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>

/* open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC): how an evdev node is opened for reading
 * (non-blocking for poll, not inherited by children). Returns the fd or -1 with errno set. */
static inline int switchscan_evdev_open(const char *path) {
    return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

/* ioctl(fd, EVIOCGKEY(length), bits): the kernel's current key state, one bit per EV_KEY code.
 * Returns the number of bytes written or -1 with errno set. */
static inline int switchscan_evdev_ioctl_eviocgkey(int fd, unsigned char *bits, unsigned int length) {
    return ioctl(fd, EVIOCGKEY(length), bits);
}

/* The time fields of struct input_event, by the kernel header's portable macro names
 * (input_event_sec/usec are `time.tv_sec`/`time.tv_usec` on 64-bit, `__sec`/`__usec` with 64-bit
 * time on 32-bit). */
static inline long long switchscan_evdev_event_sec(const struct input_event *event) {
    return (long long)event->input_event_sec;
}
static inline long long switchscan_evdev_event_usec(const struct input_event *event) {
    return (long long)event->input_event_usec;
}

/* Sizes and limits the wrapper needs as plain integers. */
static inline unsigned int switchscan_evdev_key_max(void) { return KEY_MAX; }
static inline unsigned int switchscan_evdev_input_event_size(void) { return (unsigned int)sizeof(struct input_event); }

#endif
