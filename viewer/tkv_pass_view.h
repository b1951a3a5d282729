/* tkv_pass_view.h - pass mode: what each compiler pass changed.
 *
 * Left, the kernel's pass timeline (tk_timeline.h) in pipeline order, each
 * pass with its IR level and its effect ("+21 −20", unchanged, unknown and
 * why), optionally only the passes that changed something.  Right, the diff
 * of the selected pass (or of a range of passes: the IR before the first
 * against the IR after the last) side by side, as the library computes it
 * (tk_timeline_diff(): normalized, kept lines only), with
 *   - linked scrolling: scrolling one side scrolls the other to the line the
 *     hunks pair with the one in the middle of the view;
 *   - a chunk map between the sides, next/previous change;
 *   - the binding: the sides' locations are read by the library
 *     (tk_ir_diff_bind()); selecting a line shows its inline stack and its
 *     source line in the source pane below, and selecting a source line
 *     highlights the diff lines whose stacks name it.
 * The timeline is built on a worker thread the first time pass mode shows a
 * kernel (tkv_document_timeline_async()).
 *
 * As in the binding view, user input goes through window actions
 * (win.select-pass, win.select-diff-line, win.select-source-location,
 * win.next-change, ...); the window's handlers call the functions below.
 */
#ifndef TKV_PASS_VIEW_H
#define TKV_PASS_VIEW_H

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "tkv_code_pane.h"
#include "tkv_document.h"

G_BEGIN_DECLS

#define TKV_TYPE_PASS_VIEW (tkv_pass_view_get_type())
G_DECLARE_FINAL_TYPE(TkvPassView, tkv_pass_view, TKV, PASS_VIEW, GtkWidget)

/* Shows kernel KERNEL of DOC (DOC NULL: nothing).  The timeline is asked for
 * only when the view is shown (tkv_pass_view_activate()). */
void tkv_pass_view_set_kernel(TkvPassView *self, TkvDocument *doc, guint kernel);
/* The view was put on screen: loads the timeline if needed. */
void tkv_pass_view_activate(TkvPassView *self);

/* Selects "I" (pass I's effect), "I.J" (sub-step J of pass I) or "I-K" (the
 * IR before pass I against the IR after pass K).  FALSE when SPEC names
 * nothing; a selection whose diff cannot be made shows why instead. */
gboolean tkv_pass_view_select(TkvPassView *self, const char *spec);
void tkv_pass_view_set_changed_only(TkvPassView *self, gboolean changed_only);
/* Moves to the next (DELTA > 0) or previous change of the diff. */
gboolean tkv_pass_view_step_change(TkvPassView *self, int delta);
/* Selects row ROW (1-based) of side SIDE (0: before, 1: after). */
gboolean tkv_pass_view_select_diff_line(TkvPassView *self, int side, guint row);
/* Shows source FILE:LINE and highlights the diff lines bound to it. */
gboolean tkv_pass_view_select_source(TkvPassView *self, tk_file_id file, guint line);
gboolean tkv_pass_view_show_file(TkvPassView *self, tk_file_id file);

/* The stacks of the selected diff line (for the stack panel); *HEADING owned
 * by the view.  Returns their number. */
size_t tkv_pass_view_get_selected_stacks(TkvPassView *self, const tk_stack_id **ids,
                                         const char **heading);

TkvCodePane *tkv_pass_view_get_focused_pane(TkvPassView *self);
/* Next/previous line bound to the selection in the focused pane. */
gboolean tkv_pass_view_step_match(TkvPassView *self, int delta);

/* State for tests (inside an object of B). */
void tkv_pass_view_write_state(TkvPassView *self, JsonBuilder *b);

/* Signals: "anchor-changed" (the selected diff line changed: the stack panel
 * follows); "loaded" (the timeline arrived, or it is known there is none). */

G_END_DECLS

#endif
