/* tkv_application.h - the viewer's GtkApplication: org.tkview.Viewer.
 *
 * One process per user session: `tkview-viewer PATH` started again hands
 * PATH to the running instance over D-Bus, which presents the window that
 * already shows that bundle or opens a new one (one window per bundle).  The
 * application owns the resources (UI, CSS, GtkSourceView languages and
 * schemes), the keyboard shortcuts of its own and the windows' actions (the
 * views' are with their actions) and the recent bundles.  The test build
 * adds its test actions from outside, on the "startup" signal (tkv_main.h).
 */
#ifndef TKV_APPLICATION_H
#define TKV_APPLICATION_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TKV_APP_ID "org.tkview.Viewer"

#define TKV_TYPE_APPLICATION (tkv_application_get_type())
G_DECLARE_FINAL_TYPE(TkvApplication, tkv_application, TKV, APPLICATION, GtkApplication)

/* EXTRA_FLAGS are added to the usual ones. */
TkvApplication *tkv_application_new(GApplicationFlags extra_flags);
/* The same under another application id (the benchmark's own). */
TkvApplication *tkv_application_new_with_id(const char *app_id, GApplicationFlags extra_flags);

/* Presents the window showing PATH, or loads PATH into an empty window, or
 * into a new one.  Returns that window. */
GtkWindow *tkv_application_open_path(TkvApplication *app, const char *path);

/* Recent bundles opened with tkview, most recent first, at most MAX; caller
 * frees the array (g_ptr_array_unref; it frees its strings). */
GPtrArray *tkv_application_recent_paths(TkvApplication *app, guint max);
void tkv_application_add_recent(TkvApplication *app, const char *path);

/* --source-dir folders of the command line; NULL-terminated, may be NULL. */
const char *const *tkv_application_get_source_dirs(TkvApplication *app);

/* The remembered layout (tkv_settings.h), or NULL; the application owns it. */
GSettings *tkv_application_get_settings(TkvApplication *app);

G_END_DECLS

#endif
