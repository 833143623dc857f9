#ifndef SWITCHSCAN_CSPEECHD_SHIM_H
#define SWITCHSCAN_CSPEECHD_SHIM_H
/*
 * What libspeechd offers that Swift cannot use directly, as static inline functions.
 *
 * libspeechd calls a connection's notification callbacks (begin, end, cancel of a message) on
 * its own reader thread, with no user data: only the message id, the client id and the
 * event. Swift code cannot run there safely, so the callback installed here writes one fixed
 * record per event (the message id, the event, and when it came on CLOCK_MONOTONIC) to a
 * descriptor the caller chose for the connection (a pipe's write end its event loop polls).
 * One write(2) of a record smaller than PIPE_BUF is atomic, so records never interleave.
 */
#include <speech-dispatcher/libspeechd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <pthread.h>

/* One notification, as written to the caller's descriptor. */
typedef struct {
  uint64_t message;    /* the message id spd_say returned */
  uint32_t event;      /* SPDNotificationType */
  uint32_t reserved;
  int64_t monotonicNanoseconds; /* when libspeechd's thread got it (CLOCK_MONOTONIC) */
} cspeechd_notification;

/* Which descriptor each connection's notifications go to, by libspeechd's client id (the
 * callbacks are told only that). A few connections per process at most. */
#define CSPEECHD_ROUTES 16
typedef struct { int used; size_t client; int descriptor; } cspeechd_route;

static inline pthread_mutex_t *cspeechd_routes_lock(void) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  return &lock;
}

static inline cspeechd_route *cspeechd_routes(void) {
  static cspeechd_route routes[CSPEECHD_ROUTES];
  return routes;
}

static inline void cspeechd_deliver(size_t message, size_t client, SPDNotificationType event) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  cspeechd_notification record;
  memset(&record, 0, sizeof(record));
  record.message = (uint64_t)message;
  record.event = (uint32_t)event;
  record.monotonicNanoseconds = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
  int descriptor = -1;
  pthread_mutex_lock(cspeechd_routes_lock());
  for (int i = 0; i < CSPEECHD_ROUTES; i++) {
    if (cspeechd_routes()[i].used && cspeechd_routes()[i].client == client) descriptor = cspeechd_routes()[i].descriptor;
  }
  /* Written under the lock, so a route removed by spd_close's caller is never written after. */
  if (descriptor >= 0) {
    ssize_t written;
    do { written = write(descriptor, &record, sizeof(record)); } while (written < 0 && errno == EINTR);
  }
  pthread_mutex_unlock(cspeechd_routes_lock());
}

static inline void cspeechd_callback(size_t message, size_t client, SPDNotificationType event) {
  cspeechd_deliver(message, client, event);
}

/* Routes `connection`'s begin, end and cancel notifications to `descriptor` (installs the
 * callbacks; the caller still turns them on with spd_set_notification_on). Returns 0, or -1
 * when every route is taken. */
static inline int cspeechd_route_notifications(SPDConnection *connection, int descriptor) {
  int client = spd_get_client_id(connection);
  int result = -1;
  pthread_mutex_lock(cspeechd_routes_lock());
  for (int i = 0; i < CSPEECHD_ROUTES; i++) {
    if (!cspeechd_routes()[i].used) {
      cspeechd_routes()[i].used = 1;
      cspeechd_routes()[i].client = (size_t)client;
      cspeechd_routes()[i].descriptor = descriptor;
      result = 0;
      break;
    }
  }
  pthread_mutex_unlock(cspeechd_routes_lock());
  if (result == 0) {
    connection->callback_begin = cspeechd_callback;
    connection->callback_end = cspeechd_callback;
    connection->callback_cancel = cspeechd_callback;
  }
  return result;
}

/* Stops routing `client`'s notifications (before its connection is closed). */
static inline void cspeechd_unroute_notifications(size_t client) {
  pthread_mutex_lock(cspeechd_routes_lock());
  for (int i = 0; i < CSPEECHD_ROUTES; i++) {
    if (cspeechd_routes()[i].used && cspeechd_routes()[i].client == client) cspeechd_routes()[i].used = 0;
  }
  pthread_mutex_unlock(cspeechd_routes_lock());
}

/* spd_open2's address, as a value (SPDConnectionAddress holds pointers the caller keeps). */
static inline SPDConnectionAddress cspeechd_unix_socket_address(char *path) {
  SPDConnectionAddress address;
  memset(&address, 0, sizeof(address));
  address.method = SPD_METHOD_UNIX_SOCKET;
  address.unix_socket_name = path;
  return address;
}

static inline SPDConnectionAddress cspeechd_inet_socket_address(char *host, int port) {
  SPDConnectionAddress address;
  memset(&address, 0, sizeof(address));
  address.method = SPD_METHOD_INET_SOCKET;
  address.inet_socket_host = host;
  address.inet_socket_port = port;
  return address;
}

/* libspeechd allocates error strings with malloc; the caller frees them with this. */
static inline void cspeechd_free(void *pointer) { free(pointer); }

#endif
