/* tkv_compare_view.h - compare mode: where two compilations of a kernel
 * part ways, pass by pass (tk_compare.h).
 *
 * The kernel shown is A; B is chosen in "Compare with" (by default another
 * configuration of the same kernel: the next kernel of the same name).
 * Top: the first divergence.  Left: the two pass pipelines aligned row by
 * row ("=" same, "≠" different, "?" unknown: the IR after the row, then
 * whether the pass did the same thing to both; passes only one side runs
 * say so), the first divergence marked; below, the two configurations,
 * final stages and the SASS of each source line side by side.  Right: the
 * two sides' IR after (or before) the selected row, A left and B right,
 * changed lines marked, scrolling together.
 *
 * The comparison is made on a worker thread when compare mode is first
 * shown for a pair (tkv_document_compare_async()), each row's IR when it
 * is selected (tkv_document_compare_diff_async()).  User input goes
 * through the view's actions (compare-view.compare-with,
 * compare-view.select-row, compare-view.first, compare-view.next-row,
 * compare-view.previous-row, compare-view.next-effect, compare-view.which).
 */
#ifndef TKV_COMPARE_VIEW_H
#define TKV_COMPARE_VIEW_H

#include <gtk/gtk.h>

#include "document/tkv_document.h"

G_BEGIN_DECLS

#define TKV_TYPE_COMPARE_VIEW (tkv_compare_view_get_type())
G_DECLARE_FINAL_TYPE(TkvCompareView, tkv_compare_view, TKV, COMPARE_VIEW, GtkWidget)

/* Shows kernel KERNEL of DOC as A (DOC NULL: nothing).  Nothing is compared
 * until the view is shown (tkv_compare_view_activate()). */
void tkv_compare_view_set_kernel(TkvCompareView *self, TkvDocument *doc, guint kernel);
/* The view was put on screen: compares if needed. */
void tkv_compare_view_activate(TkvCompareView *self);

/* B: kernel OTHER of the document.  FALSE when out of range or A itself. */
gboolean tkv_compare_view_compare_with(TkvCompareView *self, guint other);
/* Selects row ROW and shows both sides' IR there.  FALSE when out of range. */
gboolean tkv_compare_view_select_row(TkvCompareView *self, guint row);
/* "before" or "after" the selected row. */
gboolean tkv_compare_view_set_which(TkvCompareView *self, const char *which);

/* What is shown, for the tests (tkv_test_state.h). */
/* "none", "idle" (not compared yet), "no-other", "loading" or "ready". */
const char *tkv_compare_view_get_load_state(TkvCompareView *self);
const char *tkv_compare_view_get_message(TkvCompareView *self);
/* B, -1 none. */
int tkv_compare_view_get_other(TkvCompareView *self);
/* The comparison once made (owned by the view), else NULL. */
tk_compare *tkv_compare_view_get_compare(TkvCompareView *self);
/* The row selected, -1 none; "before" or "after". */
int tkv_compare_view_get_row(TkvCompareView *self);
const char *tkv_compare_view_get_which(TkvCompareView *self);
const char *tkv_compare_view_get_first_text(TkvCompareView *self);
const char *tkv_compare_view_get_diff_title(TkvCompareView *self);
gboolean tkv_compare_view_get_diff_pending(TkvCompareView *self);
/* The diff shown (owned by the view), NULL when none (the same text on
 * both sides, or none could be made: the title says). */
const tk_ir_diff *tkv_compare_view_get_diff(TkvCompareView *self);
/* The text of the rows of SIDE (0: A, 1: B) marked KIND ("del" on A,
 * "add" on B, "filler"), in order; caller frees with g_strfreev(). */
char **tkv_compare_view_get_marked(TkvCompareView *self, int side, const char *kind);
/* The configuration, final stages and per-line SASS as the panel shows
 * them; caller frees. */
char *tkv_compare_view_get_facts_text(TkvCompareView *self);

G_END_DECLS

#endif
