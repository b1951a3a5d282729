/* tkv_view_shortcuts.h - the keyboard shortcuts of a view's actions.
 *
 * A view's keys work wherever the focus is in the window, as long as the
 * view is shown: a shortcut controller of global scope on the view (GTK runs
 * it only while the view is mapped), in the capture phase like the
 * application's accelerators, so that a focused text view does not take the
 * key first.  The window's and the application's own keys stay with
 * gtk_application_set_accels_for_action() (tkv_application.c).
 */
#ifndef TKV_VIEW_SHORTCUTS_H
#define TKV_VIEW_SHORTCUTS_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct {
    const char *action; /* "pass-view.next-change" */
    const char *target; /* the parameter as GVariant text ("'ttir'"), or NULL */
    const char *keys;   /* gtk_shortcut_trigger_parse_string(): "F7|<Alt>Page_Down" */
    /* A plain key ("n"): it acts only while no text entry has the focus, so
     * that it can still be typed there (a find bar, the kernel filter). */
    gboolean plain;
} TkvViewShortcut;

/* Adds the N SHORTCUTS to VIEW. */
void tkv_view_shortcuts_add(GtkWidget *view, const TkvViewShortcut *shortcuts, size_t n);

G_END_DECLS

#endif
