/* tkv_configs_view.h - configs mode: every compile of a kernel side by
 * side, the table `tkview configs` prints and the report's configs.html
 * shows, from the same library call (tk_configs_build(), tk_configs.h): a
 * row per compile with what sets it apart, warps, stages, registers,
 * spills, shared memory, SASS by class, the autotuner's median time, the
 * winner (★) and its first divergence from the winner; below, the source
 * line x compile matrix of SASS instructions, cells that differ from the
 * winner's (or the first compile's with SASS) marked.  A compile's hash
 * selects it (win.select-kernel).
 *
 * The table is built when the view is first shown for a document
 * (tkv_configs_view_activate()): it binds and costs every compile there
 * (a fraction of a second), and compares each with the winner on a worker
 * (tkv_document_configs_diverge_async(): seconds on a big autotune), the
 * "first divergence" cells saying "comparing with the winner…" until it
 * is done; another document, or the view's end, cancels it.
 */
#ifndef TKV_CONFIGS_VIEW_H
#define TKV_CONFIGS_VIEW_H

#include <gtk/gtk.h>

#include "document/tkv_document.h"
#include "tkdump/tk_configs.h"

G_BEGIN_DECLS

#define TKV_TYPE_CONFIGS_VIEW (tkv_configs_view_get_type())
G_DECLARE_FINAL_TYPE(TkvConfigsView, tkv_configs_view, TKV, CONFIGS_VIEW, GtkWidget)

/* Shows DOC's compiles (NULL: nothing); nothing is built until the view is
 * shown. */
void tkv_configs_view_set_document(TkvConfigsView *self, TkvDocument *doc);
/* The view was put on screen: builds the table if needed. */
void tkv_configs_view_activate(TkvConfigsView *self);

/* For the tests: the library's table once built (owned by the view), else
 * NULL; the text of matrix cell (ROW, COLUMN) of group GROUP as shown and
 * whether it is marked (NULL: no such cell). */
const tk_configs *tkv_configs_view_get_configs(TkvConfigsView *self);
const char *tkv_configs_view_get_cell(TkvConfigsView *self, guint group, guint row,
                                      guint column, gboolean *marked);
/* Whether the rows' first divergences are still being made (their cells
 * and the table's DIVERGE are then placeholders and NULL). */
gboolean tkv_configs_view_is_comparing(TkvConfigsView *self);
/* What the view says instead of a table ("no kernel was compiled more than
 * once"), or NULL. */
const char *tkv_configs_view_get_message(TkvConfigsView *self);

G_END_DECLS

#endif
