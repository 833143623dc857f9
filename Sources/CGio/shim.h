#ifndef SWITCHSCAN_CGIO_SHIM_H
#define SWITCHSCAN_CGIO_SHIM_H
/*
 * GIO's installed applications (their desktop entries) as the Desktop module reads them: the
 * list walked here and handed over one entry at a time as plain strings, so that no GLib list,
 * object or error reaches Swift, and launching by an entry's id with the error's message copied
 * out. Static inline functions with no state of their own.
 */
#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
#include <string.h>

/* Copies `text` (or "") into `buffer` of `size` bytes, cut to fit. */
static inline void cgio_copy(const char *text, char *buffer, size_t size) {
  if (size == 0) return;
  strncpy(buffer, text ? text : "", size - 1);
  buffer[size - 1] = 0;
}

/* The applications a menu shows (g_app_info_should_show), at most `most`: each one's id, name
 * and categories (";"-separated, as the entry writes them) handed to `each` with `context`.
 * Returns how many were handed over. */
typedef void (*cgio_application_callback)(void *context, const char *id, const char *name, const char *categories);
static inline int cgio_each_application(int most, cgio_application_callback each, void *context) {
  GList *all = g_app_info_get_all();
  int count = 0;
  for (GList *item = all; item != NULL && count < most; item = item->next) {
    GAppInfo *info = G_APP_INFO(item->data);
    if (!g_app_info_should_show(info)) continue;
    const char *categories = G_IS_DESKTOP_APP_INFO(info) ? g_desktop_app_info_get_categories(G_DESKTOP_APP_INFO(info)) : NULL;
    each(context, g_app_info_get_id(info), g_app_info_get_display_name(info), categories);
    count++;
  }
  g_list_free_full(all, g_object_unref);
  return count;
}

/* Starts the application whose desktop entry id is `id`, with no files. Returns 1, or 0 with
 * the reason in `message`. */
static inline int cgio_launch(const char *id, char *message, size_t size) {
  GDesktopAppInfo *info = g_desktop_app_info_new(id);
  if (info == NULL) { cgio_copy("no such desktop entry", message, size); return 0; }
  GError *error = NULL;
  gboolean ok = g_app_info_launch(G_APP_INFO(info), NULL, NULL, &error);
  g_object_unref(info);
  if (!ok) {
    cgio_copy(error && error->message ? error->message : "refused", message, size);
    if (error) g_error_free(error);
    return 0;
  }
  return 1;
}

#endif
