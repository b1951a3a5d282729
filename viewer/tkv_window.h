/* tkv_window.h - one window per bundle.
 *
 * The window loads its bundle off the main thread (tkv_document.h) behind a
 * progress page, then shows the kernel list, the binding view (or the pass
 * view) and the side panels; when nothing could be loaded it shows why, in
 * the window.  Every command is a window action (win.*) with a keyboard
 * shortcut set by the application; the UI's own widgets activate the same
 * actions, and GtkApplication exports them on D-Bus
 * (/org/tkview/Viewer/window/ID), which is how the tests drive the viewer.
 */
#ifndef TKV_WINDOW_H
#define TKV_WINDOW_H

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "tkv_bind_view.h"
#include "tkv_document.h"

G_BEGIN_DECLS

#define TKV_TYPE_WINDOW (tkv_window_get_type())
G_DECLARE_FINAL_TYPE(TkvWindow, tkv_window, TKV, WINDOW, GtkApplicationWindow)

TkvWindow *tkv_window_new(GtkApplication *app);

/* Loads PATH into this window (replacing what it shows).  SOURCE_DIRS
 * (NULL-terminated, may be NULL) are searched last for source files. */
void tkv_window_load(TkvWindow *self, const char *path, const char *const *source_dirs);

/* Whether the window shows nothing worth keeping (the welcome page or an
 * error), so that the next bundle may be opened in it. */
gboolean tkv_window_is_empty(TkvWindow *self);

/* The canonical path of what the window shows or loads; NULL when nothing. */
const char *tkv_window_get_canonical_path(TkvWindow *self);

TkvDocument *tkv_window_get_document(TkvWindow *self);
TkvBindView *tkv_window_get_bind_view(TkvWindow *self);
/* Index of the kernel shown, or -1. */
int tkv_window_get_kernel(TkvWindow *self);

/* When the last load's data reached the main thread (g_get_monotonic_time()),
 * before any view was set up: where "first view" is measured from. */
gint64 tkv_window_get_loaded_time(TkvWindow *self);

/* The window's state for tests (inside an object of B). */
void tkv_window_write_state(TkvWindow *self, JsonBuilder *b);

/* Signals:
 *   "loaded" (gboolean ok)  loading finished and the first view is set up
 *                           (ok) or the error is shown. */

G_END_DECLS

#endif
