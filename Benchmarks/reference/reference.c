/*
 * The latency floor for `switchscan-bench latency`: the least a program can do between a switch
 * event and a braille write. It reads `struct input_event` records from a path (a FIFO), and on
 * every key press (EV_KEY, value 1) writes a fixed line to a braille display through libbrlapi,
 * then prints the event's timestamp and the CLOCK_MONOTONIC time at which the write returned.
 *
 *   reference [-a AUTH] HOST PATH
 *
 * HOST is a BrlAPI host (":N"); AUTH a BrlAPI auth string ("none"); without -a, libbrlapi's
 * default (BRLAPI_AUTH, else its key file). It connects, takes the display in tty mode the way
 * switchscan does (brlapi_enterTtyModeWithPath with no path, all keys ignored), prints
 * "ready CELLS" on standard output, then opens PATH (blocking until a writer opens a FIFO) and
 * reads until its end. The line alternates between two fixed lines of the display's width, in
 * Unicode braille patterns with charset UTF-8 as switchscan writes them, so that BRLTTY sends each
 * one on to the display as it does for switchscan's changing lines.
 *
 * One output line per press: "EVENT_SECONDS RETURNED_SECONDS STARTED_SECONDS READ_SECONDS": the
 * event's timestamp, when the write returned, when it started, and when the read of the record
 * returned (CLOCK_MONOTONIC, as the writer stamps the events). Errors go to standard error with the exit status 1.
 *
 * Built by the benchmark: cc -O2 -o .build/switchscan-reference reference.c -lbrlapi
 */
#define _GNU_SOURCE
#include <brlapi.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void fail_brlapi(const char *what) {
  fprintf(stderr, "reference: %s: %s\n", what, brlapi_strerror(&brlapi_error));
  exit(1);
}

/* `cells` braille patterns (U+2800 + dots, 3 bytes each in UTF-8) from a repeating pattern. */
static char *braille_line(unsigned int cells, const unsigned char *dots, size_t count) {
  char *text = malloc(cells * 3 + 1);
  if (!text) { perror("reference: malloc"); exit(1); }
  for (unsigned int i = 0; i < cells; i++) {
    unsigned int code = 0x2800 + dots[i % count];
    text[i * 3] = (char)(0xE0 | (code >> 12));
    text[i * 3 + 1] = (char)(0x80 | ((code >> 6) & 0x3F));
    text[i * 3 + 2] = (char)(0x80 | (code & 0x3F));
  }
  text[cells * 3] = 0;
  return text;
}

int main(int argc, char **argv) {
  const char *auth = NULL;
  int option;
  while ((option = getopt(argc, argv, "a:")) != -1) {
    if (option == 'a') auth = optarg;
    else { fprintf(stderr, "usage: reference [-a AUTH] HOST PATH\n"); return 2; }
  }
  if (argc - optind != 2) { fprintf(stderr, "usage: reference [-a AUTH] HOST PATH\n"); return 2; }
  const char *host = argv[optind], *path = argv[optind + 1];

  brlapi_connectionSettings_t settings = {.auth = (char *)auth, .host = (char *)host};
  if (brlapi_openConnection(&settings, NULL) < 0) fail_brlapi("brlapi_openConnection");
  unsigned int columns = 0, rows = 0;
  if (brlapi_getDisplaySize(&columns, &rows) < 0) fail_brlapi("brlapi_getDisplaySize");
  unsigned int cells = columns * (rows ? rows : 1);
  if (cells == 0) { fprintf(stderr, "reference: the display on %s reports 0 cells\n", host); return 1; }
  if (brlapi_enterTtyModeWithPath(NULL, 0, NULL) < 0) fail_brlapi("brlapi_enterTtyModeWithPath");
  if (brlapi_ignoreAllKeys() < 0) fail_brlapi("brlapi_ignoreAllKeys");

  /* "Send 1 btn" and "Reply 2 btn" in UEB-like dots, repeated over the width. */
  static const unsigned char first[] = {0x20, 0x0E, 0x11, 0x1D, 0x19, 0x00, 0x3C, 0x01, 0x00, 0x03, 0x1E, 0x1D, 0x00};
  static const unsigned char second[] = {0x20, 0x17, 0x11, 0x0F, 0x07, 0x3D, 0x00, 0x3C, 0x03, 0x00, 0x03, 0x1E, 0x1D, 0x00};
  char *lines[2] = {braille_line(cells, first, sizeof first), braille_line(cells, second, sizeof second)};

  printf("ready %u\n", cells);
  fflush(stdout);

  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) { fprintf(stderr, "reference: %s: %s\n", path, strerror(errno)); return 1; }

  struct input_event event;
  size_t have = 0;
  unsigned long presses = 0;
  for (;;) {
    ssize_t got = read(fd, (char *)&event + have, sizeof event - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) { fprintf(stderr, "reference: %s: %s\n", path, strerror(errno)); return 1; }
    if (got == 0) break;
    have += (size_t)got;
    if (have < sizeof event) continue;
    have = 0;
    struct timespec read_at;
    clock_gettime(CLOCK_MONOTONIC, &read_at);
    if (event.type != EV_KEY || event.value != 1) continue;

    brlapi_writeArguments_t arguments = BRLAPI_WRITEARGUMENTS_INITIALIZER;
    arguments.regionBegin = 1;
    arguments.regionSize = (int)cells;
    arguments.text = lines[presses % 2];
    arguments.textSize = (int)strlen(lines[presses % 2]);
    arguments.charset = "UTF-8";
    arguments.cursor = BRLAPI_CURSOR_OFF;
    struct timespec started;
    clock_gettime(CLOCK_MONOTONIC, &started);
    if (brlapi_write(&arguments) < 0) fail_brlapi("brlapi_write");
    struct timespec returned;
    clock_gettime(CLOCK_MONOTONIC, &returned);
    presses++;
    printf("%ld.%06ld %ld.%09ld %ld.%09ld %ld.%09ld\n", (long)event.input_event_sec, (long)event.input_event_usec,
           (long)returned.tv_sec, returned.tv_nsec, (long)started.tv_sec, started.tv_nsec, (long)read_at.tv_sec, read_at.tv_nsec);
  }
  if (have != 0) fprintf(stderr, "reference: %s ends inside a record (%zu bytes)\n", path, have);
  fflush(stdout);
  brlapi_leaveTtyMode();
  brlapi_closeConnection();
  return 0;
}
