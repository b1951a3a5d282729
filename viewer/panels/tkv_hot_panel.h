/* tkv_hot_panel.h - the hot lines panel: the lines of a kernel that cost
 * most (tk_cost.h), source lines or the lines of one stage, in a table
 * sorted by any column, with the metric chosen for it and for the binding
 * view's cost columns.
 *
 * The panel holds no number of its own: the rows come from the document's
 * cost tables (tkv_document_get_cost()).  Its actions, which its widgets
 * and the tests go through:
 *   hot.metric (s)     the metric by name ("samples", "tensor", ...);
 *                      state: the "metric-name" property
 *   hot.scope (s)      "source", or a stage ("ttgir", "sass", ...);
 *                      state: the "scope" property
 *   hot.sort (s)       by a column: "exact", "inclusive", "shared", "line"
 *                      (largest first; "-asc" added: smallest first)
 *   hot.activate (u)   the row at that position, as shown: "row-activated"
 *
 * Signals:
 *   "metric-changed" (guint metric)   another metric was chosen;
 *   "row-activated" (int stage, guint file, guint line)   a row was
 *       activated: STAGE -1 for a source line (FILE:LINE), else a line of
 *       that stage.
 */
#ifndef TKV_HOT_PANEL_H
#define TKV_HOT_PANEL_H

#include <gtk/gtk.h>

#include "document/tkv_document.h"

G_BEGIN_DECLS

#define TKV_TYPE_HOT_PANEL (tkv_hot_panel_get_type())
G_DECLARE_FINAL_TYPE(TkvHotPanel, tkv_hot_panel, TKV, HOT_PANEL, GtkWidget)

/* Shows kernel KERNEL of DOC (DOC NULL: nothing) by metric METRIC, the
 * source lines first. */
void tkv_hot_panel_show(TkvHotPanel *self, TkvDocument *doc, guint kernel, guint metric);

guint tkv_hot_panel_get_metric(TkvHotPanel *self);

/* For the tests: the heading as shown, and the first N rows as shown:
 * per row its place ("matmul_profile.py:54", or a line number), exact,
 * inclusive and shared values.  *ROWS is an array of TkvHotShownRow (caller
 * frees with g_array_unref()). */
typedef struct {
    char where[96];
    double exact, inclusive, shared;
} TkvHotShownRow;
const char *tkv_hot_panel_get_heading(TkvHotPanel *self);
GArray *tkv_hot_panel_get_rows(TkvHotPanel *self, guint n);
const char *tkv_hot_panel_get_scope(TkvHotPanel *self);
/* For the tests: the least width the table needs (its numbers whole, the
 * places and the code cut) in *NEEDS, the width it has in *HAS. */
void tkv_hot_panel_get_table_fit(TkvHotPanel *self, int *needs, int *has);

/* Whether the kernel last shown has been made into the menus and the
 * table: they are made when the panel is first mapped or read (any getter
 * above, any hot.* action), not when show() is called. */
gboolean tkv_hot_panel_get_filled(TkvHotPanel *self);

G_END_DECLS

#endif
