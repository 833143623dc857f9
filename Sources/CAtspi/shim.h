#ifndef SWITCHSCAN_CATSPI_SHIM_H
#define SWITCHSCAN_CATSPI_SHIM_H
/*
 * What libatspi (and the GLib main context it runs on) offers that does not import well into
 * Swift, as static inline functions with no state of their own: GError taken apart, strings
 * copied and freed, the states the mapping reads as one mask, extents as four numbers, and the
 * default GLib main context joined to an epoll descriptor, so that the program's one poll loop
 * waits on it with the rest.
 */
#include <atspi/atspi.h>
#include <dbus/dbus.h>
#include <glib.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <errno.h>
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

/* Copies a GError's message into `buffer` and frees the error. Returns 1 if there was one. */
static inline int catspi_take_error(GError *error, char *buffer, size_t size) {
  if (error == NULL) return 0;
  if (size > 0) {
    strncpy(buffer, error->message ? error->message : "unknown error", size - 1);
    buffer[size - 1] = 0;
  }
  g_error_free(error);
  return 1;
}

static inline void catspi_free(void *pointer) { g_free(pointer); }
static inline void catspi_unref(void *object) { if (object) g_object_unref(object); }
static inline void *catspi_ref(void *object) { return object ? g_object_ref(object) : NULL; }

/* The mask bits of LiveTree's AccessibleStates, in the same order. */
static inline uint32_t catspi_states(AtspiAccessible *object) {
  static const AtspiStateType order[] = {
    ATSPI_STATE_ENABLED, ATSPI_STATE_SENSITIVE, ATSPI_STATE_VISIBLE, ATSPI_STATE_SHOWING,
    ATSPI_STATE_MODAL, ATSPI_STATE_CHECKED, ATSPI_STATE_SELECTED, ATSPI_STATE_PRESSED,
    ATSPI_STATE_FOCUSABLE, ATSPI_STATE_FOCUSED, ATSPI_STATE_ACTIVE, ATSPI_STATE_EDITABLE,
    ATSPI_STATE_CHECKABLE, ATSPI_STATE_EXPANDED, ATSPI_STATE_EXPANDABLE, ATSPI_STATE_MANAGES_DESCENDANTS,
  };
  AtspiStateSet *set = atspi_accessible_get_state_set(object);
  if (set == NULL) return 0;
  uint32_t mask = 0;
  for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
    if (atspi_state_set_contains(set, order[i])) mask |= (uint32_t)1 << i;
  }
  g_object_unref(set);
  return mask;
}

/* The states as libatspi last cached them (0 when it has none): for an application that does
 * not answer, which a call would wait on. */
static inline uint32_t catspi_cached_states(AtspiAccessible *object) {
  if (!(object->cached_properties & ATSPI_CACHE_STATES) || object->states == NULL) return 0;
  return catspi_states(object);
}

/* ---- Pinging an application without waiting (D-Bus Peer.Ping on the accessibility bus) ---- */

/* Sends Ping to `bus_name`; the answer is taken with catspi_ping_result. NULL when it could not
 * be sent. */
static inline DBusPendingCall *catspi_ping_send(const char *bus_name, int timeout_ms) {
  DBusConnection *bus = atspi_get_a11y_bus();
  if (bus == NULL) return NULL;
  DBusMessage *message = dbus_message_new_method_call(bus_name, "/", "org.freedesktop.DBus.Peer", "Ping");
  if (message == NULL) return NULL;
  DBusPendingCall *pending = NULL;
  if (!dbus_connection_send_with_reply(bus, message, &pending, timeout_ms)) pending = NULL;
  dbus_message_unref(message);
  return pending;
}

/* 0: no answer yet; 1: answered (an error reply from the application is an answer too);
 * -1: no answer in time; -2: the name has no owner (the application left the bus). */
static inline int catspi_ping_result(DBusPendingCall *pending) {
  if (pending == NULL) return -1;
  if (!dbus_pending_call_get_completed(pending)) return 0;
  DBusMessage *reply = dbus_pending_call_steal_reply(pending);
  if (reply == NULL) return -1;
  int result = 1;
  if (dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR) {
    const char *name = dbus_message_get_error_name(reply);
    if (name == NULL || strcmp(name, DBUS_ERROR_NO_REPLY) == 0 || strcmp(name, DBUS_ERROR_TIMEOUT) == 0) result = -1;
    else if (strcmp(name, DBUS_ERROR_NAME_HAS_NO_OWNER) == 0 || strcmp(name, DBUS_ERROR_SERVICE_UNKNOWN) == 0) result = -2;
  }
  dbus_message_unref(reply);
  return result;
}

static inline void catspi_ping_free(DBusPendingCall *pending) {
  if (pending == NULL) return;
  dbus_pending_call_cancel(pending);
  dbus_pending_call_unref(pending);
}

/* Whether `bus_name` is still on the accessibility bus (asked of the bus itself, not of the
 * application: quick even when the application is stopped). 1 when it cannot be told. */
static inline int catspi_bus_has_name(const char *bus_name) {
  DBusConnection *bus = atspi_get_a11y_bus();
  if (bus == NULL) return 1;
  DBusError error;
  dbus_error_init(&error);
  dbus_bool_t owned = dbus_bus_name_has_owner(bus, bus_name, &error);
  if (dbus_error_is_set(&error)) { dbus_error_free(&error); return 1; }
  return owned ? 1 : 0;
}

/* Waits for a ping's answer (at most the timeout it was sent with): catspi_ping_result's value,
 * never 0. */
static inline int catspi_ping_wait(DBusPendingCall *pending) {
  if (pending == NULL) return -1;
  dbus_pending_call_block(pending);
  return catspi_ping_result(pending);
}

/* ---- The AT-SPI registry's presence, asked of the accessibility bus without starting it ---- */

/* Asks the bus daemon which connection owns `name` (GetNameOwner: the daemon answers itself, and
 * it does not start a service that is not running). The answer is taken with
 * catspi_name_owner_result. NULL when it could not be sent. */
static inline DBusPendingCall *catspi_name_owner_send(const char *name, int timeout_ms) {
  DBusConnection *bus = atspi_get_a11y_bus();
  if (bus == NULL) return NULL;
  DBusMessage *message = dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS, "GetNameOwner");
  if (message == NULL) return NULL;
  if (!dbus_message_append_args(message, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID)) { dbus_message_unref(message); return NULL; }
  DBusPendingCall *pending = NULL;
  if (!dbus_connection_send_with_reply(bus, message, &pending, timeout_ms)) pending = NULL;
  dbus_message_unref(message);
  return pending;
}

/* 0: no answer yet; 1: owned, the owner's unique name copied into `owner`; -2: no owner;
 * -1: no answer in time (or an answer that cannot be read). */
static inline int catspi_name_owner_result(DBusPendingCall *pending, char *owner, size_t size) {
  if (pending == NULL) return -1;
  if (!dbus_pending_call_get_completed(pending)) return 0;
  DBusMessage *reply = dbus_pending_call_steal_reply(pending);
  if (reply == NULL) return -1;
  int result = -1;
  if (dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR) {
    const char *name = dbus_message_get_error_name(reply);
    if (name != NULL && strcmp(name, DBUS_ERROR_NAME_HAS_NO_OWNER) == 0) result = -2;
  } else {
    const char *unique = NULL;
    if (dbus_message_get_args(reply, NULL, DBUS_TYPE_STRING, &unique, DBUS_TYPE_INVALID) && unique != NULL && size > 0) {
      strncpy(owner, unique, size - 1);
      owner[size - 1] = 0;
      result = 1;
    }
  }
  dbus_message_unref(reply);
  return result;
}

/* Waits for a pending call's answer (at most the timeout it was sent with). */
static inline void catspi_pending_block(DBusPendingCall *pending) {
  if (pending != NULL) dbus_pending_call_block(pending);
}

/* Asks the bus to start the service `name` (D-Bus activation, as a call to it would), without
 * waiting for the answer. 1 when sent. */
static inline int catspi_start_service(const char *name) {
  DBusConnection *bus = atspi_get_a11y_bus();
  if (bus == NULL) return 0;
  DBusMessage *message = dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS, "StartServiceByName");
  if (message == NULL) return 0;
  dbus_uint32_t flags = 0;
  int ok = dbus_message_append_args(message, DBUS_TYPE_STRING, &name, DBUS_TYPE_UINT32, &flags, DBUS_TYPE_INVALID);
  dbus_message_set_no_reply(message, TRUE);
  if (ok) ok = dbus_connection_send(bus, message, NULL);
  dbus_message_unref(message);
  return ok ? 1 : 0;
}

/* ---- The application's cache (org.a11y.atspi.Cache.GetItems), on libatspi's connection ---- */

/* Asks `bus_name` for every object it has cached, waiting at most `timeout_ms`. The reply (freed
 * with catspi_message_unref; the caller reads it with libdbus's iterators), or NULL with the
 * D-Bus error's name and message in `error` (an application without the interface answers
 * UnknownMethod). */
static inline DBusMessage *catspi_cache_items(const char *bus_name, int timeout_ms, char *error, size_t size) {
  DBusConnection *bus = atspi_get_a11y_bus();
  if (size > 0) error[0] = 0;
  if (bus == NULL) { if (size > 0) snprintf(error, size, "no accessibility bus"); return NULL; }
  DBusMessage *message = dbus_message_new_method_call(bus_name, "/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "GetItems");
  if (message == NULL) { if (size > 0) snprintf(error, size, "out of memory"); return NULL; }
  DBusError failure;
  dbus_error_init(&failure);
  DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, message, timeout_ms, &failure);
  dbus_message_unref(message);
  if (reply == NULL) {
    if (size > 0) snprintf(error, size, "%s: %s", failure.name ? failure.name : "no reply", failure.message ? failure.message : "");
    dbus_error_free(&failure);
  }
  return reply;
}

/* libdbus's type codes, which are character literals Swift does not import. */
static const int catspi_type_invalid = DBUS_TYPE_INVALID;
static const int catspi_type_string = DBUS_TYPE_STRING;
static const int catspi_type_object_path = DBUS_TYPE_OBJECT_PATH;
static const int catspi_type_signature = DBUS_TYPE_SIGNATURE;
static const int catspi_type_byte = DBUS_TYPE_BYTE;
static const int catspi_type_int16 = DBUS_TYPE_INT16;
static const int catspi_type_uint16 = DBUS_TYPE_UINT16;
static const int catspi_type_int32 = DBUS_TYPE_INT32;
static const int catspi_type_uint32 = DBUS_TYPE_UINT32;
static const int catspi_type_int64 = DBUS_TYPE_INT64;
static const int catspi_type_uint64 = DBUS_TYPE_UINT64;
static const int catspi_type_boolean = DBUS_TYPE_BOOLEAN;
static const int catspi_type_double = DBUS_TYPE_DOUBLE;
static const int catspi_type_array = DBUS_TYPE_ARRAY;
static const int catspi_type_struct = DBUS_TYPE_STRUCT;
static const int catspi_type_variant = DBUS_TYPE_VARIANT;
static const int catspi_type_dict_entry = DBUS_TYPE_DICT_ENTRY;
static inline int catspi_is_error_reply(DBusMessage *message) { return dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_ERROR; }

static inline void catspi_message_unref(DBusMessage *message) { if (message) dbus_message_unref(message); }

/* Extents relative to the window. Returns 0, or -1 with *error set. */
static inline int catspi_window_extents(AtspiAccessible *object, int *x, int *y, int *width, int *height,
                                        GError **error) {
  AtspiComponent *component = atspi_accessible_get_component_iface(object);
  if (component == NULL) return -1;
  AtspiRect *rect = atspi_component_get_extents(component, ATSPI_COORD_TYPE_WINDOW, error);
  g_object_unref(component);
  if (rect == NULL) return -1;
  *x = rect->x; *y = rect->y; *width = rect->width; *height = rect->height;
  g_free(rect);
  return 0;
}

/* The bus name and object path that name an object while it lives ("" when unknown). */
static inline const char *catspi_bus_name(AtspiAccessible *object) {
  AtspiObject *base = (AtspiObject *)object;
  return (base->app && base->app->bus_name) ? base->app->bus_name : "";
}
static inline const char *catspi_path(AtspiAccessible *object) {
  AtspiObject *base = (AtspiObject *)object;
  return base->path ? base->path : "";
}

/* An event handed to a listener is the listener's to free (transfer full). */
static inline void catspi_event_free(AtspiEvent *event) { g_boxed_free(atspi_event_get_type(), event); }

static inline int catspi_is_action(AtspiAccessible *object) { return atspi_accessible_is_action(object); }
static inline int catspi_is_value(AtspiAccessible *object) { return atspi_accessible_is_value(object); }
static inline int catspi_is_component(AtspiAccessible *object) { return atspi_accessible_is_component(object); }
static inline int catspi_is_text(AtspiAccessible *object) { return atspi_accessible_is_text(object); }
static inline int catspi_is_editable_text(AtspiAccessible *object) { return atspi_accessible_is_editable_text(object); }

/* The Text interface's caret offset (characters); -1 with *error set, or without text. */
static inline int catspi_text_caret(AtspiAccessible *object, GError **error) {
  AtspiText *text = atspi_accessible_get_text_iface(object);
  if (text == NULL) return -1;
  gint caret = atspi_text_get_caret_offset(text, error);
  g_object_unref(text);
  return caret;
}

/* Moves the caret to `offset`; 0 when refused or without text. */
static inline int catspi_text_set_caret(AtspiAccessible *object, int offset, GError **error) {
  AtspiText *text = atspi_accessible_get_text_iface(object);
  if (text == NULL) return 0;
  gboolean ok = atspi_text_set_caret_offset(text, offset, error);
  g_object_unref(text);
  return ok ? 1 : 0;
}

/* EditableText: inserts `bytes` bytes of UTF-8 `string` at character `position`; 0 when refused. */
static inline int catspi_insert_text(AtspiAccessible *object, int position, const char *string, int bytes, GError **error) {
  AtspiEditableText *editable = atspi_accessible_get_editable_text_iface(object);
  if (editable == NULL) return 0;
  gboolean ok = atspi_editable_text_insert_text(editable, position, string, bytes, error);
  g_object_unref(editable);
  return ok ? 1 : 0;
}

/* EditableText: deletes the characters from `start` up to `end`; 0 when refused. */
static inline int catspi_delete_text(AtspiAccessible *object, int start, int end, GError **error) {
  AtspiEditableText *editable = atspi_accessible_get_editable_text_iface(object);
  if (editable == NULL) return 0;
  gboolean ok = atspi_editable_text_delete_text(editable, start, end, error);
  g_object_unref(editable);
  return ok ? 1 : 0;
}

/* The Text interface's first `most` characters (a window of a long document: the loop is never
 * held by a megabyte read), the whole length in *count. NULL with *error set, or without text. */
static inline gchar *catspi_text_head(AtspiAccessible *object, int most, int *count, GError **error) {
  AtspiText *text = atspi_accessible_get_text_iface(object);
  if (text == NULL) return NULL;
  gint length = atspi_text_get_character_count(text, error);
  if (*error != NULL) { g_object_unref(text); return NULL; }
  if (length < 0) length = 0;
  *count = length;
  gint end = length < most ? length : most;
  gchar *result = atspi_text_get_text(text, 0, end, error);
  g_object_unref(text);
  return result;
}

/* The targets of the object's labelled-by relations (new references, at most `most`), in order.
 * Returns how many were put in `targets`; 0 with *error set when the set could not be read. */
static inline int catspi_labelled_by(AtspiAccessible *object, AtspiAccessible **targets, int most, GError **error) {
  GArray *relations = atspi_accessible_get_relation_set(object, error);
  if (relations == NULL) return 0;
  int found = 0;
  for (guint i = 0; i < relations->len; i++) {
    AtspiRelation *relation = g_array_index(relations, AtspiRelation *, i);
    if (relation == NULL) continue;
    if (atspi_relation_get_relation_type(relation) == ATSPI_RELATION_LABELLED_BY) {
      gint n = atspi_relation_get_n_targets(relation);
      for (gint j = 0; j < n && found < most; j++) {
        AtspiAccessible *target = atspi_relation_get_target(relation, j);
        if (target != NULL) targets[found++] = target;
      }
    }
    g_object_unref(relation);
  }
  g_array_free(relations, TRUE);
  return found;
}

/* ---- The GLib main context, joined to an epoll descriptor ---- */

#define CATSPI_MAX_POLL 64

/* What one turn of the main context polls: kept by the caller between prepare and dispatch. */
typedef struct {
  GPollFD fds[CATSPI_MAX_POLL];
  int count;
  int priority;
  int registered[CATSPI_MAX_POLL];  /* descriptors in the epoll set */
  int registeredCount;
} catspi_poll_state;

/* Acquires the default context, prepares it, and puts its descriptors in `epfd` (removing
 * those no longer polled). Returns the timeout in milliseconds (-1: none), or -2 with errno
 * when the context has more descriptors than fit, or epoll_ctl failed. */
static inline int catspi_context_prepare(int epfd, catspi_poll_state *state) {
  GMainContext *context = g_main_context_default();
  if (!g_main_context_acquire(context)) { errno = EBUSY; return -2; }
  int timeout = -1;
  g_main_context_prepare(context, &state->priority);
  int needed = g_main_context_query(context, state->priority, &timeout, state->fds, CATSPI_MAX_POLL);
  if (needed > CATSPI_MAX_POLL) { g_main_context_release(context); errno = E2BIG; return -2; }
  state->count = needed;
  /* Remove descriptors no longer polled, then add or modify the polled ones. */
  for (int i = 0; i < state->registeredCount; i++) {
    int fd = state->registered[i], kept = 0;
    for (int j = 0; j < needed; j++) if (state->fds[j].fd == fd) kept = 1;
    if (!kept) epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
  }
  state->registeredCount = 0;
  for (int j = 0; j < needed; j++) {
    struct epoll_event event;
    memset(&event, 0, sizeof(event));
    if (state->fds[j].events & G_IO_IN) event.events |= EPOLLIN;
    if (state->fds[j].events & G_IO_OUT) event.events |= EPOLLOUT;
    if (state->fds[j].events & G_IO_PRI) event.events |= EPOLLPRI;
    event.data.fd = state->fds[j].fd;
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, state->fds[j].fd, &event) != 0) {
      if (errno != ENOENT || epoll_ctl(epfd, EPOLL_CTL_ADD, state->fds[j].fd, &event) != 0) {
        if (errno != EEXIST) { g_main_context_release(context); return -2; }
      }
    }
    state->registered[state->registeredCount++] = state->fds[j].fd;
  }
  return timeout;
}

/* After the epoll descriptor was readable or the timeout passed: reads each descriptor's
 * events (poll with no wait), checks and dispatches the context, and releases it. */
static inline void catspi_context_dispatch(catspi_poll_state *state) {
  GMainContext *context = g_main_context_default();
  if (state->count > 0) {
    struct pollfd fds[CATSPI_MAX_POLL];
    for (int i = 0; i < state->count; i++) {
      fds[i].fd = state->fds[i].fd;
      fds[i].events = (short)state->fds[i].events;
      fds[i].revents = 0;
    }
    int result;
    do { result = poll(fds, (nfds_t)state->count, 0); } while (result < 0 && errno == EINTR);
    for (int i = 0; i < state->count; i++) state->fds[i].revents = (result > 0) ? (gushort)fds[i].revents : 0;
  }
  if (g_main_context_check(context, state->priority, state->fds, state->count)) g_main_context_dispatch(context);
  g_main_context_release(context);
}

/* Runs the default context's ready sources without waiting, at most `most` times; returns how
 * many turns dispatched something. libatspi's D-Bus source hands over one message a dispatch
 * (and messages that arrived during a blocking call wait in the connection's queue): this takes
 * in everything that has arrived, so that events arriving together become one update. Only
 * between a dispatch and the next prepare (the context is not held then). */
static inline int catspi_context_drain(int most) {
  int turns = 0;
  while (turns < most && g_main_context_iteration(NULL, FALSE)) turns++;
  return turns;
}

static inline int catspi_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

#endif
