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
 * As in the binding view, user input goes through the view's actions
 * (pass-view.select-pass, pass-view.select-diff-line,
 * pass-view.select-source-location, pass-view.next-change, ...;
 * tkv_pass_view_actions.c), whose handlers call the functions below.
 */
#ifndef TKV_PASS_VIEW_H
#define TKV_PASS_VIEW_H

#include <gtk/gtk.h>

#include "document/tkv_document.h"
#include "widgets/tkv_chunk_map.h"
#include "widgets/tkv_code_pane.h"
#include "widgets/tkv_find_bar.h"
#include "widgets/tkv_linked_scroll.h"

/* The text tag of a replaced row's changed words, in both sides' buffers
 * (tkv_pass_view_diff.c): a stronger shade of the row's blue. */
#define TKV_DIFF_WORD_TAG "tkv-diff-word"

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
/* The view's find bar, over both sides and the source (tkv_find_bar.h). */
TkvFindBar *tkv_pass_view_get_find_bar(TkvPassView *self);
/* Next/previous line bound to the selection in the focused pane. */
gboolean tkv_pass_view_step_match(TkvPassView *self, int delta);

/* What is shown, for the tests (tkv_test_state.h). */
/* "none" (no kernel), "idle" (the timeline not asked for yet), "loading",
 * "no-passes" or "ready". */
const char *tkv_pass_view_get_load_state(TkvPassView *self);
/* The text shown in place of the view while there is no timeline. */
const char *tkv_pass_view_get_message(TkvPassView *self);
/* NULL until it came, and when the kernel has none. */
const tk_timeline *tkv_pass_view_get_timeline(TkvPassView *self);
/* The pass list's "264 passes, 52 changed"; the rows it lists now. */
const char *tkv_pass_view_get_count_text(TkvPassView *self);
guint tkv_pass_view_get_listed_count(TkvPassView *self);
gboolean tkv_pass_view_get_changed_only(TkvPassView *self);
/* The specs ("14", "33.0") of the rows selected in the list, NULL-terminated;
 * caller frees with g_strfreev(). */
char **tkv_pass_view_get_selected_rows(TkvPassView *self);
/* The spec selected last (tkv_pass_view_select()), NULL when none. */
const char *tkv_pass_view_get_selection(TkvPassView *self);
/* Whether the diff of the selection is still being made. */
gboolean tkv_pass_view_get_diff_pending(TkvPassView *self);
/* Whether the diff shown is still being put into its sides' buffers in
 * idle slices (tkv_pass_view_fill.c): its rows away from the first change
 * are empty lines until then. */
gboolean tkv_pass_view_get_diff_filling(TkvPassView *self);
/* The line of SIDE's dump that ROW (1-based) shows, as its gutter numbers
 * it: 0 for none (a note). */
guint32 tkv_pass_view_get_dump_line(TkvPassView *self, int side, guint row);
const char *tkv_pass_view_get_diff_title(TkvPassView *self);
/* The counts beside the title: "+13 −3", and how much of a diff too big
 * to show whole is shown. */
const char *tkv_pass_view_get_stats_text(TkvPassView *self);
/* The diff shown (owned by the view), NULL when none. */
const tk_ir_diff *tkv_pass_view_get_diff(TkvPassView *self);
/* For tests: tags the changed words of every replaced row now (they are
 * tagged as they come into view). */
void tkv_pass_view_tag_all_words(TkvPassView *self);
/* What of it is left out (cut 0: shown whole), and the hunks over the rows
 * the sides show (the diff's own when shown whole); owned by the view. */
const tk_ir_diff_cut *tkv_pass_view_get_cut(TkvPassView *self);
const tk_hunk *tkv_pass_view_get_view_hunks(TkvPassView *self, size_t *n);
/* The index of the change next/previous stands at (-1: none yet), and in
 * *COUNT the number of changes; the header's "change 2 of 5". */
int tkv_pass_view_get_change(TkvPassView *self, guint *count);
/* The changes themselves, over the rows shown (tk_diff_changes()). */
const tk_hunk *tkv_pass_view_get_changes(TkvPassView *self, size_t *n);
const char *tkv_pass_view_get_change_text(TkvPassView *self);
TkvChunkMap *tkv_pass_view_get_chunk_map(TkvPassView *self);
TkvLinkedScroll *tkv_pass_view_get_linked_scroll(TkvPassView *self);
/* Side SIDE of the diff (0: before, 1: after); the source pane below them
 * and the file it shows (TKV_NO_FILE: none). */
TkvCodePane *tkv_pass_view_get_side(TkvPassView *self, int side);
TkvCodePane *tkv_pass_view_get_source_pane(TkvPassView *self);
tk_file_id tkv_pass_view_get_source_file(TkvPassView *self);

/* Signals: "anchor-changed" (the selected diff line changed: the stack panel
 * follows); "loaded" (the timeline arrived, or it is known there is none). */

G_END_DECLS

#endif
