/*
 * rkprobe: the guest side of the real-kernel tests (Tests/RealKernel/README.md).
 *
 * Runs inside a QEMU guest on a stock Debian kernel, reads the USB keyboard device model
 * (qemu-xhci + usb-kbd) through libevdev, and prints one line per fact to stdout (the serial
 * console), each starting with "@@RK ", so that the host can assert on them:
 *
 *   @@RK DEVICE A path=/dev/input/event1 bus=0x0003 vendor=0x0627 product=0x0001 phys=… pid=… name="…"
 *   @@RK EV A <sec>.<usec> <type> <code> <value>      every event A reads (CLOCK_MONOTONIC)
 *   @@RK PHASE <name> t=<sec>.<usec>                  the host may now act for <name>
 *   @@RK GRAB A t=…  /  @@RK UNGRAB A t=…
 *   @@RK ENODEV A t=… held=<codes still down in libevdev's state>
 *   @@RK REOPENED A path=… phys=… pid=… previous=… t=…
 *   @@RK DONE  /  @@RK FAIL <reason>
 *
 * Modes:
 *   rkprobe scenario          the whole scripted scenario (see run_scenario below)
 *   rkprobe watch LABEL PATH  a second reader: prints every event it sees as "@@RK EV LABEL …"
 *                             until the device goes away; it never grabs
 *   rkprobe find              prints the path of the USB keyboard's event node and exits
 *
 * Built statically on the host (gcc -static … libevdev.a), so the guest needs no libc.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>

#define PHASE_TIMEOUT_MS 30000

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void say(const char *fmt, ...) {
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* One write per line, so that lines of the two readers never interleave mid-line. */
    char out[600];
    int n = snprintf(out, sizeof out, "@@RK %s\n", line);
    if (n > 0) { ssize_t w = write(STDOUT_FILENO, out, (size_t)n); (void)w; }
}

static void sleep_ms(int ms) {
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

/* A USB device that can send KEY_SPACE and KEY_ENTER: the usb-kbd device model (the AT
 * keyboard of the machine is on the i8042 bus and is never chosen). */
static int is_usb_keyboard(const char *path, char *desc, size_t desclen) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 0;
    struct libevdev *dev = NULL;
    int ok = 0;
    if (libevdev_new_from_fd(fd, &dev) == 0) {
        ok = libevdev_get_id_bustype(dev) == BUS_USB &&
             libevdev_has_event_code(dev, EV_KEY, KEY_SPACE) &&
             libevdev_has_event_code(dev, EV_KEY, KEY_ENTER);
        if (desc)
            snprintf(desc, desclen, "path=%s bus=0x%04x vendor=0x%04x product=0x%04x phys=%s pid=%d name=\"%s\"",
                     path, libevdev_get_id_bustype(dev), libevdev_get_id_vendor(dev),
                     libevdev_get_id_product(dev), libevdev_get_phys(dev) ? libevdev_get_phys(dev) : "-",
                     (int)getpid(), libevdev_get_name(dev));
        libevdev_free(dev);
    }
    close(fd);
    return ok;
}

/* The first /dev/input/eventN that is the USB keyboard, other than `except`. */
static int scan_for_keyboard(char *path, size_t len, const char *except) {
    DIR *d = opendir("/dev/input");
    if (!d) return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "event", 5) != 0) continue;
        char p[280];
        snprintf(p, sizeof p, "/dev/input/%s", e->d_name);
        if (except && strcmp(p, except) == 0) continue;
        if (is_usb_keyboard(p, NULL, 0)) { snprintf(path, len, "%s", p); found = 1; }
    }
    closedir(d);
    return found;
}

/* Waits for the USB keyboard's node: inotify on /dev/input (IN_CREATE, IN_ATTRIB) plus a scan at
 * start and every 200 ms, as the runtime does. */
static int wait_for_keyboard(char *path, size_t len, const char *except, int timeout_ms) {
    mkdir("/dev/input", 0755);
    int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (in >= 0) inotify_add_watch(in, "/dev/input", IN_CREATE | IN_ATTRIB);
    double deadline = now_s() + timeout_ms / 1000.0;
    int found = 0;
    while (!(found = scan_for_keyboard(path, len, except)) && now_s() < deadline) {
        if (in >= 0) {
            struct pollfd p = { in, POLLIN, 0 };
            if (poll(&p, 1, 200) > 0) { char buf[4096]; while (read(in, buf, sizeof buf) > 0) {} }
        } else {
            sleep_ms(200);
        }
    }
    if (in >= 0) close(in);
    return found;
}

struct reader {
    const char *label;
    int fd;
    struct libevdev *dev;
};

static int reader_open(struct reader *r, const char *label, const char *path) {
    r->label = label;
    r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (r->fd < 0) { say("FAIL open %s: %s", path, strerror(errno)); return -1; }
    int rc = libevdev_new_from_fd(r->fd, &r->dev);
    if (rc < 0) { say("FAIL libevdev_new_from_fd %s: %s", path, strerror(-rc)); close(r->fd); return -1; }
    rc = libevdev_set_clock_id(r->dev, CLOCK_MONOTONIC);
    if (rc < 0) say("NOTE %s libevdev_set_clock_id: %s", label, strerror(-rc));
    return 0;
}

static void reader_close(struct reader *r) {
    if (r->dev) libevdev_free(r->dev);
    if (r->fd >= 0) close(r->fd);
    r->dev = NULL;
    r->fd = -1;
}

/* Reads one event, waiting at most `timeout_ms`. Returns 1 with an event, 0 on timeout,
 * -ENODEV when the device is gone, another negative errno on error. SYN_DROPPED is followed
 * by the sync events, printed like the others. */
static int reader_next(struct reader *r, struct input_event *ev, int timeout_ms) {
    static int syncing = 0;
    for (;;) {
        int rc = libevdev_next_event(r->dev, syncing ? LIBEVDEV_READ_FLAG_SYNC : LIBEVDEV_READ_FLAG_NORMAL, ev);
        if (rc == LIBEVDEV_READ_STATUS_SYNC) {
            if (!syncing) say("SYNDROPPED %s", r->label);
            syncing = 1;
        } else if (rc == LIBEVDEV_READ_STATUS_SUCCESS) {
            /* fall through */
        } else if (rc == -EAGAIN) {
            if (syncing) { syncing = 0; continue; }
            struct pollfd p = { r->fd, POLLIN, 0 };
            int pr = poll(&p, 1, timeout_ms);
            if (pr == 0) return 0;
            if (pr < 0 && errno == EINTR) continue;
            if (p.revents & (POLLERR | POLLHUP | POLLNVAL) && !(p.revents & POLLIN)) {
                say("POLL %s revents=0x%x", r->label, p.revents);
            }
            continue;
        } else {
            return rc;
        }
        say("EV %s %ld.%06ld %u %u %d", r->label, (long)ev->input_event_sec, (long)ev->input_event_usec,
            ev->type, ev->code, ev->value);
        return 1;
    }
}

/* The codes libevdev's state still has down (what a reader must release itself). */
static void held_keys(struct reader *r, char *out, size_t len) {
    out[0] = 0;
    size_t used = 0;
    for (unsigned code = 0; code <= KEY_MAX; code++) {
        if (libevdev_has_event_code(r->dev, EV_KEY, code) && libevdev_get_event_value(r->dev, EV_KEY, code)) {
            int n = snprintf(out + used, len - used, "%s%u", used ? "," : "", code);
            if (n < 0 || (size_t)n >= len - used) break;
            used += (size_t)n;
        }
    }
    if (!used) snprintf(out, len, "none");
}

struct want { unsigned code; int value; };

/* Reads until every wanted key edge has been seen (in any order; repeats ignored).
 * Returns 0, or -1 on timeout or error (reported). */
static int expect_edges(struct reader *r, const char *phase, const struct want *wants, int n) {
    int seen[16] = { 0 };
    int left = n;
    double deadline = now_s() + PHASE_TIMEOUT_MS / 1000.0;
    while (left > 0) {
        int remaining = (int)((deadline - now_s()) * 1000);
        if (remaining <= 0) { say("FAIL timeout in phase %s: %d key edges not seen", phase, left); return -1; }
        struct input_event ev;
        int rc = reader_next(r, &ev, remaining);
        if (rc < 0) { say("FAIL read in phase %s: %s", phase, strerror(-rc)); return -1; }
        if (rc == 0 || ev.type != EV_KEY) continue;
        for (int i = 0; i < n; i++)
            if (!seen[i] && wants[i].code == ev.code && wants[i].value == ev.value) { seen[i] = 1; left--; break; }
    }
    return 0;
}

/* Prints whatever else arrives within `ms` (lets the second reader's lines reach the console). */
static void drain(struct reader *r, int ms) {
    double deadline = now_s() + ms / 1000.0;
    for (;;) {
        int remaining = (int)((deadline - now_s()) * 1000);
        if (remaining <= 0) return;
        struct input_event ev;
        if (reader_next(r, &ev, remaining) < 0) return;
    }
}

static void phase(const char *name) { say("PHASE %s t=%.6f", name, now_s()); }

static const struct want SPACE_ENTER[] = { { KEY_SPACE, 1 }, { KEY_SPACE, 0 }, { KEY_ENTER, 1 }, { KEY_ENTER, 0 } };

static int run_watch(const char *label, const char *path, int ready_fd) {
    struct reader r = { 0 };
    if (reader_open(&r, label, path) < 0) return 1;
    say("WATCH %s path=%s t=%.6f", label, path, now_s());
    if (ready_fd >= 0) { ssize_t w = write(ready_fd, "R", 1); (void)w; close(ready_fd); }
    for (;;) {
        struct input_event ev;
        int rc = reader_next(&r, &ev, -1);
        if (rc < 0) {
            if (rc == -ENODEV) say("ENODEV %s t=%.6f", label, now_s());
            else say("ERROR %s %s", label, strerror(-rc));
            break;
        }
    }
    reader_close(&r);
    return 0;
}

/*
 * Unplug while a key is held, then replug; the host's side mirrors it. `busy_ms` > 0: after HELD
 * the reader does not read for that long (as a reader busy elsewhere), so the device is gone
 * before it reads again.
 *   unplug<s>   host sends Space down (held), waits for A's HELD, then device_del. A reads until
 *               ENODEV and reports whether the release came, and what libevdev still holds down.
 *   replug<s>   A waits for the USB keyboard's new node (the host sends device_add), opens and
 *               grabs it: the same process, no restart.
 *   resumed<s>  host sends Space down/up, Enter down/up; A reads them from the new node.
 */
static int unplug_replug(struct reader *a, char *path, size_t pathlen, const char *suffix, int busy_ms,
                         pid_t watcher) {
    char name[64], desc[512];
    snprintf(name, sizeof name, "unplug%s", suffix);
    int rc = libevdev_grab(a->dev, LIBEVDEV_GRAB);
    say("GRAB A rc=%d t=%.6f", rc, now_s());
    phase(name);
    static const struct want SPACE_DOWN[] = { { KEY_SPACE, 1 } };
    if (expect_edges(a, name, SPACE_DOWN, 1) < 0) return -1;
    say("HELD A code=%d t=%.6f", KEY_SPACE, now_s());
    if (busy_ms > 0) {
        sleep_ms(busy_ms);
        say("BUSY A ms=%d t=%.6f", busy_ms, now_s());
    }
    int release_seen = 0, release_sync = -1;
    double deadline = now_s() + PHASE_TIMEOUT_MS / 1000.0;
    for (;;) {
        int remaining = (int)((deadline - now_s()) * 1000);
        if (remaining <= 0) { say("FAIL timeout waiting for ENODEV"); return -1; }
        struct input_event ev;
        rc = reader_next(a, &ev, remaining);
        if (rc < 0) break;
        if (ev.type == EV_KEY && ev.code == KEY_SPACE && ev.value == 0) release_seen = 1;
        else if (release_seen && release_sync < 0 && ev.type == EV_SYN && ev.code == SYN_REPORT) release_sync = ev.value;
    }
    char held[256];
    held_keys(a, held, sizeof held);
    if (rc != -ENODEV) { say("FAIL read ended with %s, not ENODEV", strerror(-rc)); return -1; }
    /* release_sync: the value of the SYN_REPORT after the release; 1 marks one the kernel's input
     * core synthesized for the disconnect (input_dev_release_keys). */
    say("ENODEV A t=%.6f release_seen=%d release_sync=%d held=%s", now_s(), release_seen, release_sync, held);
    /* The fd of a removed device keeps answering ENODEV: a reader must close it. */
    char old[320];
    snprintf(old, sizeof old, "%s", path);
    reader_close(a);
    if (watcher > 0) {
        int status = 0;
        pid_t w = waitpid(watcher, &status, 0);
        say("WATCHER B exited=%d status=%d", w == watcher, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }

    snprintf(name, sizeof name, "replug%s", suffix);
    phase(name);
    if (!wait_for_keyboard(path, pathlen, NULL, PHASE_TIMEOUT_MS)) { say("FAIL the keyboard did not come back"); return -1; }
    if (reader_open(a, "A", path) < 0) return -1;
    is_usb_keyboard(path, desc, sizeof desc);
    say("REOPENED A %s previous=%s t=%.6f", desc, old, now_s());
    rc = libevdev_grab(a->dev, LIBEVDEV_GRAB);
    say("GRAB A rc=%d t=%.6f", rc, now_s());

    snprintf(name, sizeof name, "resumed%s", suffix);
    phase(name);
    if (expect_edges(a, name, SPACE_ENTER, 4) < 0) return -1;
    drain(a, 200);
    return 0;
}

/*
 * The scenario. Each PHASE line tells the host what to do next; the host's side is
 * Tests/RealKernel/harness.py (PROBE_STEPS).
 *   plain      A (no grab) and B both read; host sends Space down/up, Enter down/up.
 *   grab       A grabs; host sends the same; A waits 500 ms, then ungrabs.
 *   ungrabbed  host sends the same; both read again.
 *   unplug, replug, resumed                 (unplug_replug: A reading when the device goes)
 *   unplug-busy, replug-busy, resumed-busy  (the same with A not reading for 1 s after HELD)
 */
static int run_scenario(void) {
    char path[320], desc[512];
    if (!wait_for_keyboard(path, sizeof path, NULL, PHASE_TIMEOUT_MS)) { say("FAIL no USB keyboard event node"); return 1; }
    is_usb_keyboard(path, desc, sizeof desc);
    say("DEVICE A %s", desc);

    /* The second reader, in its own process; it tells us on a pipe once its fd is open. */
    int pipefd[2];
    if (pipe(pipefd) < 0) { say("FAIL pipe"); return 1; }
    pid_t watcher = fork();
    if (watcher == 0) {
        close(pipefd[0]);
        _exit(run_watch("B", path, pipefd[1]));
    }
    close(pipefd[1]);
    char c;
    struct pollfd pw = { pipefd[0], POLLIN, 0 };
    if (poll(&pw, 1, 10000) <= 0 || read(pipefd[0], &c, 1) != 1) { say("FAIL second reader did not start"); return 1; }
    close(pipefd[0]);

    struct reader a = { 0 };
    if (reader_open(&a, "A", path) < 0) return 1;

    phase("plain");
    if (expect_edges(&a, "plain", SPACE_ENTER, 4) < 0) return 1;
    drain(&a, 300);

    int rc = libevdev_grab(a.dev, LIBEVDEV_GRAB);
    say("GRAB A rc=%d t=%.6f", rc, now_s());
    phase("grab");
    if (expect_edges(&a, "grab", SPACE_ENTER, 4) < 0) return 1;
    drain(&a, 500);
    rc = libevdev_grab(a.dev, LIBEVDEV_UNGRAB);
    say("UNGRAB A rc=%d t=%.6f", rc, now_s());

    phase("ungrabbed");
    if (expect_edges(&a, "ungrabbed", SPACE_ENTER, 4) < 0) return 1;
    drain(&a, 300);

    if (unplug_replug(&a, path, sizeof path, "", 0, watcher) < 0) return 1;
    if (unplug_replug(&a, path, sizeof path, "-busy", 1000, 0) < 0) return 1;
    reader_close(&a);
    say("DONE");
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    signal(SIGPIPE, SIG_IGN);
    if (argc >= 2 && strcmp(argv[1], "scenario") == 0) {
        int rc = run_scenario();
        if (rc != 0) say("FAIL scenario");
        return rc;
    }
    if (argc >= 4 && strcmp(argv[1], "watch") == 0) return run_watch(argv[2], argv[3], -1);
    if (argc >= 2 && strcmp(argv[1], "find") == 0) {
        char path[320];
        int timeout = argc >= 3 ? atoi(argv[2]) : PHASE_TIMEOUT_MS;
        if (!wait_for_keyboard(path, sizeof path, NULL, timeout)) return 1;
        printf("%s\n", path);
        return 0;
    }
    fprintf(stderr, "usage: rkprobe scenario | watch LABEL PATH | find [TIMEOUT_MS]\n");
    return 2;
}
