/* tkv_window.h - one window per bundle.
 *
 * The window loads its bundle off the main thread (tkv_document.h) behind a
 * progress page, then shows the kernel list, the binding view (or the pass
 * view) and the side panels; when nothing could be loaded it shows why, in
 * the window.  Every command is an action with a keyboard shortcut, installed
 * on the widget it is about: the window's (win.*: the kernel, the mode, the
 * side panel, the header bar's toggles; tkv_window_actions.c), the binding
 * view's (bind-view.*) and the pass view's (pass-view.*).  The UI's own
 * widgets activate the same actions; GtkApplication exports the window's on
 * D-Bus (/org/tkview/Viewer/window/ID), and the tests reach the views' through
 * the test hooks (tkv_test_hooks.h).
 */
#ifndef TKV_WINDOW_H
#define TKV_WINDOW_H

#include <gtk/gtk.h>

#include "bind/tkv_bind_view.h"
#include "compare/tkv_compare_view.h"
#include "configs/tkv_configs_view.h"
#include "document/tkv_document.h"
#include "panels/tkv_diag_panel.h"
#include "panels/tkv_hot_panel.h"
#include "panels/tkv_meta_panel.h"
#include "panels/tkv_stack_panel.h"
#include "passes/tkv_pass_view.h"

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

/* What the window shows, for the tests (tkv_test_state.h). */
/* "welcome", "loading", "ready" or "error": the page shown. */
const char *tkv_window_get_state(TkvWindow *self);
/* The message of the last command that could not be done, or NULL. */
const char *tkv_window_get_last_error(TkvWindow *self);
/* The error page's title and text (caller frees), and whether it is drawn. */
const char *tkv_window_get_error_title(TkvWindow *self);
char *tkv_window_get_error_text(TkvWindow *self);
gboolean tkv_window_get_error_visible(TkvWindow *self);
/* "bind" or "passes". */
const char *tkv_window_get_mode(TkvWindow *self);
/* Whether the side panel (kernel list, stack, ...) is shown (F9). */
gboolean tkv_window_get_sidebar_visible(TkvWindow *self);
/* The number of kernels, and in *LISTED (may be NULL) how many the filter
 * lists. */
guint tkv_window_get_kernel_count(TkvWindow *self, guint *listed);
/* The kernel list's rows (TkvKernelItem), all of them, as listed. */
GListModel *tkv_window_get_kernel_items(TkvWindow *self);
TkvPassView *tkv_window_get_pass_view(TkvWindow *self);
TkvCompareView *tkv_window_get_compare_view(TkvWindow *self);
TkvConfigsView *tkv_window_get_configs_view(TkvWindow *self);
TkvStackPanel *tkv_window_get_stack_panel(TkvWindow *self);
TkvMetaPanel *tkv_window_get_meta_panel(TkvWindow *self);
TkvHotPanel *tkv_window_get_hot_panel(TkvWindow *self);
TkvDiagPanel *tkv_window_get_diag_panel(TkvWindow *self);

/* Signals:
 *   "loaded" (gboolean ok)  loading finished and the first view is set up
 *                           (ok) or the error is shown. */

G_END_DECLS

#endif
