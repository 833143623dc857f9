#ifndef SWITCHSCAN_CXCB_SHIM_H
#define SWITCHSCAN_CXCB_SHIM_H
/*
 * What libxcb (and its Shape extension) offers that does not import well into Swift, as static
 * inline functions with no state of their own: the connection's error as a number, the screen
 * asked for, a window checked as it is made, the Shape extension's version, and a piece of the
 * screen's pixels. Replies and errors are freed here; Swift sees numbers only.
 */
#include <xcb/xcb.h>
#include <xcb/shape.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Connects; *screen_number gets the screen DISPLAY names. Returns NULL only when out of memory;
 * otherwise check cxcb_connection_error. */
static inline xcb_connection_t *cxcb_connect(const char *display, int *screen_number) {
  return xcb_connect(display, screen_number);
}

/* 0, or the XCB_CONN_* reason the connection failed or broke. */
static inline int cxcb_connection_error(xcb_connection_t *connection) {
  return xcb_connection_has_error(connection);
}

/* The screen numbered `number`: its root window, root visual, size and depth. Returns -1 when
 * the server has no such screen. */
static inline int cxcb_screen(xcb_connection_t *connection, int number, uint32_t *root, uint32_t *visual,
                              uint16_t *width, uint16_t *height, uint8_t *depth) {
  xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(connection));
  for (int i = 0; it.rem > 0; i++, xcb_screen_next(&it)) {
    if (i != number) continue;
    *root = it.data->root; *visual = it.data->root_visual;
    *width = it.data->width_in_pixels; *height = it.data->height_in_pixels; *depth = it.data->root_depth;
    return 0;
  }
  return -1;
}

/* The X error code a checked request got (0: none). */
static inline int cxcb_check(xcb_connection_t *connection, xcb_void_cookie_t cookie) {
  xcb_generic_error_t *error = xcb_request_check(connection, cookie);
  if (error == NULL) return 0;
  int code = error->error_code;
  free(error);
  return code;
}

/* An override-redirect window (the window manager leaves it alone: no decoration, no focus)
 * filled with `pixel`, not mapped yet. Returns the X error code (0: made, *window set). */
static inline int cxcb_create_override_window(xcb_connection_t *connection, uint32_t root, uint32_t visual,
                                              uint32_t pixel, uint32_t *window) {
  *window = xcb_generate_id(connection);
  uint32_t values[] = {pixel, 1};
  xcb_void_cookie_t cookie = xcb_create_window_checked(
      connection, XCB_COPY_FROM_PARENT, *window, root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, visual,
      XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
  return cxcb_check(connection, cookie);
}

/* The Shape extension's version as major * 1000 + minor (input shapes need 1.1), -1 without it. */
static inline int cxcb_shape_version(xcb_connection_t *connection) {
  const xcb_query_extension_reply_t *extension = xcb_get_extension_data(connection, &xcb_shape_id);
  if (extension == NULL || !extension->present) return -1;
  xcb_shape_query_version_reply_t *reply = xcb_shape_query_version_reply(connection, xcb_shape_query_version(connection), NULL);
  if (reply == NULL) return -1;
  int version = reply->major_version * 1000 + reply->minor_version;
  free(reply);
  return version;
}

/* Sets the window's bounding (kind 0) or input (kind 2) shape to `count` rectangles given as
 * x, y, width, height quadruples (none: an empty shape). Returns the X error code. */
static inline int cxcb_set_shape(xcb_connection_t *connection, uint32_t window, int kind, const int32_t *quads, int count) {
  xcb_rectangle_t rectangles[8];
  if (count < 0 || count > 8) return -1;
  for (int i = 0; i < count; i++) {
    rectangles[i].x = (int16_t)quads[4 * i]; rectangles[i].y = (int16_t)quads[4 * i + 1];
    rectangles[i].width = (uint16_t)quads[4 * i + 2]; rectangles[i].height = (uint16_t)quads[4 * i + 3];
  }
  xcb_shape_kind_t shape_kind = kind == 2 ? XCB_SHAPE_SK_INPUT : XCB_SHAPE_SK_BOUNDING;
  xcb_void_cookie_t cookie = xcb_shape_rectangles_checked(
      connection, XCB_SHAPE_SO_SET, shape_kind, XCB_CLIP_ORDERING_UNSORTED, window, 0, 0, (uint32_t)count, rectangles);
  return cxcb_check(connection, cookie);
}

/* Moves and sizes the window and raises it above its siblings (not checked: errors arrive as events). */
static inline void cxcb_place(xcb_connection_t *connection, uint32_t window, int16_t x, int16_t y, uint16_t width, uint16_t height) {
  uint32_t values[] = {(uint32_t)(int32_t)x, (uint32_t)(int32_t)y, width, height, XCB_STACK_MODE_ABOVE};
  xcb_configure_window(connection, window,
                       XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT |
                           XCB_CONFIG_WINDOW_STACK_MODE,
                       values);
}

static inline void cxcb_map(xcb_connection_t *connection, uint32_t window) { xcb_map_window(connection, window); }
static inline void cxcb_unmap(xcb_connection_t *connection, uint32_t window) { xcb_unmap_window(connection, window); }
static inline void cxcb_destroy(xcb_connection_t *connection, uint32_t window) { xcb_destroy_window(connection, window); }

/* Reads and frees every event and error waiting; returns the last X error code seen (0: none). */
static inline int cxcb_drain(xcb_connection_t *connection) {
  int last_error = 0;
  xcb_generic_event_t *event;
  while ((event = xcb_poll_for_event(connection)) != NULL) {
    if (event->response_type == 0) last_error = ((xcb_generic_error_t *)event)->error_code;
    free(event);
  }
  return last_error;
}

/* A rectangle of `drawable` as 32-bit pixels (0xRRGGBB on a 24/32-bit TrueColor screen, the usual
 * little-endian layout), `pixels` holding width * height. Returns the X error code, or -1 when the
 * reply is not 32 bits a pixel. */
static inline int cxcb_get_image(xcb_connection_t *connection, uint32_t drawable, int16_t x, int16_t y,
                                 uint16_t width, uint16_t height, uint32_t *pixels) {
  xcb_generic_error_t *error = NULL;
  xcb_get_image_reply_t *reply = xcb_get_image_reply(
      connection, xcb_get_image(connection, XCB_IMAGE_FORMAT_Z_PIXMAP, drawable, x, y, width, height, ~0u), &error);
  if (error != NULL) { int code = error->error_code; free(error); free(reply); return code; }
  if (reply == NULL) return -1;
  int length = xcb_get_image_data_length(reply);
  if ((size_t)length != (size_t)width * height * 4) { free(reply); return -1; }
  memcpy(pixels, xcb_get_image_data(reply), (size_t)length);
  free(reply);
  return 0;
}
/* An atom by name (0 when the server did not answer). */
static inline uint32_t cxcb_atom(xcb_connection_t *connection, const char *name) {
  xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(connection, xcb_intern_atom(connection, 0, (uint16_t)strlen(name), name), NULL);
  if (reply == NULL) return 0;
  uint32_t atom = reply->atom;
  free(reply);
  return atom;
}

/* Whether `window`'s property `property` (of any type) holds exactly the `length` bytes `value`. */
static inline int cxcb_property_is(xcb_connection_t *connection, uint32_t window, uint32_t property, const void *value, uint32_t length) {
  if (property == 0) return 0;
  xcb_get_property_reply_t *reply = xcb_get_property_reply(
      connection, xcb_get_property(connection, 0, window, property, XCB_GET_PROPERTY_TYPE_ANY, 0, (length + 3) / 4 + 1), NULL);
  if (reply == NULL) return 0;
  int same = xcb_get_property_value_length(reply) == (int)length && reply->bytes_after == 0
      && memcmp(xcb_get_property_value(reply), value, length) == 0;
  free(reply);
  return same;
}

/* The topmost viewable child of `root` whose _NET_WM_PID is `pid` and whose title (_NET_WM_NAME,
 * else WM_NAME) is the `title_length` bytes `title`; 0 when there is none. Under a window manager
 * the root's children are its frames, which carry neither property. */
static inline uint32_t cxcb_find_top_level(xcb_connection_t *connection, uint32_t root, uint32_t pid,
                                           const char *title, uint32_t title_length) {
  uint32_t pid_atom = cxcb_atom(connection, "_NET_WM_PID"), name_atom = cxcb_atom(connection, "_NET_WM_NAME");
  xcb_query_tree_reply_t *tree = xcb_query_tree_reply(connection, xcb_query_tree(connection, root), NULL);
  if (tree == NULL) return 0;
  xcb_window_t *children = xcb_query_tree_children(tree);
  uint32_t found = 0;
  for (int i = 0; i < xcb_query_tree_children_length(tree); i++) {
    xcb_get_window_attributes_reply_t *attributes =
        xcb_get_window_attributes_reply(connection, xcb_get_window_attributes(connection, children[i]), NULL);
    int viewable = attributes != NULL && attributes->map_state == XCB_MAP_STATE_VIEWABLE;
    free(attributes);
    if (!viewable || !cxcb_property_is(connection, children[i], pid_atom, &pid, 4)) continue;
    if (cxcb_property_is(connection, children[i], name_atom, title, title_length)
        || cxcb_property_is(connection, children[i], XCB_ATOM_WM_NAME, title, title_length)) found = children[i];
  }
  free(tree);
  return found;
}

/* Whether the keyboard focus is on `window` or inside it (a child window of it). */
static inline int cxcb_has_focus(xcb_connection_t *connection, uint32_t window) {
  xcb_get_input_focus_reply_t *focus = xcb_get_input_focus_reply(connection, xcb_get_input_focus(connection), NULL);
  if (focus == NULL) return 0;
  uint32_t current = focus->focus;
  free(focus);
  /* (A window's ancestors are few; the bound keeps a broken server's answer from looping.) */
  for (int depth = 0; depth < 64 && current > 1; depth++) {
    if (current == window) return 1;
    xcb_query_tree_reply_t *tree = xcb_query_tree_reply(connection, xcb_query_tree(connection, current), NULL);
    if (tree == NULL) return 0;
    uint32_t parent = tree->parent;
    int at_root = tree->root == current;
    free(tree);
    if (at_root) return 0;
    current = parent;
  }
  return 0;
}

/* Gives `window` the keyboard focus at the server's current time (a focus request an application
 * makes with an older time is refused when another window took the focus since). Returns the X
 * error code, 0 when done. */
static inline int cxcb_focus(xcb_connection_t *connection, uint32_t window) {
  return cxcb_check(connection, xcb_set_input_focus_checked(connection, XCB_INPUT_FOCUS_PARENT, window, XCB_CURRENT_TIME));
}

#endif
