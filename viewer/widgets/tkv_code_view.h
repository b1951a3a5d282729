/* tkv_code_view.h - a read-only GtkSourceView for source or IR text, with the
 * viewer's highlights.
 *
 * Highlights color whole lines, from the style scheme's tkview:* styles:
 *   "tkv-context"        lines bound too but not stepped to (a located
 *                        directive, the rest of the statement clicked);
 *   "tkv-match"          lines bound to the current selection (k of n);
 *   "tkv-approx"         matches made on the innermost frame only;
 *   "tkv-match-current"  the k-th of them, where next/previous stands;
 *   "tkv-selected"       the selected line itself;
 *   "tkv-diff-delete" / "tkv-diff-insert" / "tkv-diff-replace" / "tkv-diff-filler"
 *                        pass diffs.
 * They are kept per line of the buffer and painted by the view (not text
 * tags: tkv_buffer_lines.h says why), so changing a highlight costs the lines
 * it touches and a redraw, not a layout.
 *
 * Lines longer than TKV_FOLD_COLUMN characters (tkv_buffer_lines.h) show
 * their beginning and "… N more"; the lines the cursor or the selection is on
 * are shown whole.
 *
 * "line-selected" (guint line, 1-based) is emitted when the user moves the
 * cursor to another line (click, keys, go to line, search), never when the
 * program does.
 *
 * Buffers: tkv_code_view_new_buffer() makes a buffer with the current scheme
 * and its long lines folded; the owner keeps buffers (one per stage) and
 * swaps them in with tkv_code_view_set_buffer().  They are never edited.
 */
#ifndef TKV_CODE_VIEW_H
#define TKV_CODE_VIEW_H

#include <gtksourceview/gtksource.h>

#include "widgets/tkv_bind_gutter.h"
#include "widgets/tkv_find.h"
#include "widgets/tkv_heat_gutter.h"

G_BEGIN_DECLS

#define TKV_TYPE_CODE_VIEW (tkv_code_view_get_type())
G_DECLARE_FINAL_TYPE(TkvCodeView, tkv_code_view, TKV, CODE_VIEW, GtkSourceView)

GtkWidget *tkv_code_view_new(void);

/* Ends the background syntax highlighting of every buffer and starts no
 * more (the application's shutdown: nothing is shown any longer). */
void tkv_code_view_stop_highlighting(void);

/* A buffer holding LEN bytes of TEXT (made safe by tkv_text.h already), in
 * LANGUAGE_ID ("tkview-mlir", "python3", NULL for none).  Caller owns the
 * returned reference. */
GtkSourceBuffer *tkv_code_view_new_buffer(const char *text, gssize len,
                                          const char *language_id);

/* Shows buffer B (a reference is taken), after making the view forget how
 * it laid out the lines of the buffer it showed (tkv_code_view_buffer.c says
 * why gtk_text_view_set_buffer() alone is not safe in GTK 4.8). */
void tkv_code_view_set_buffer(TkvCodeView *self, GtkTextBuffer *b);

/* The text of B (LEN bytes in *LEN), hidden characters included, owned by
 * B: kept from tkv_code_view_new_buffer() (read back once for another
 * buffer). */
const char *tkv_code_view_buffer_text(GtkTextBuffer *b, gsize *len);
/* Keeps LEN bytes of TEXT (copied) as B's text, for a buffer filled by
 * parts after tkv_code_view_new_buffer() (tkv_pass_view_fill.c): what
 * tkv_code_view_buffer_text() answers from then on. */
void tkv_code_view_buffer_keep_text(GtkTextBuffer *b, const char *text, gsize len);
/* Takes the caller's reference to B, a buffer a view let go of: a big one
 * is emptied in low-priority idle slices before it is let go of (finalizing
 * a highlighted buffer of 40,000 lines took 300-450 ms), when no one else
 * holds it by then; a small one at once. */
void tkv_code_view_retire_buffer(GtkTextBuffer *b);

/* The gutter's per-line callback (tkv_bind_gutter.h) and its count column. */
void tkv_code_view_set_line_state_func(TkvCodeView *self, TkvLineStateFunc func,
                                       gpointer data, gboolean show_counts);
/* Redraws the gutter (its callbacks' answers changed). */
void tkv_code_view_refresh_gutter(TkvCodeView *self);
/* The cost column's callbacks (tkv_heat_gutter.h); FUNC NULL hides it. */
void tkv_code_view_set_heat_func(TkvCodeView *self, TkvHeatFunc func, TkvHeatTipFunc tip,
                                 gpointer data);

/* Highlights LINES (1-based, ascending, N of them) as matches, instead of the
 * previous ones; the first becomes current.  SCROLL: bring it into view. */
void tkv_code_view_set_matches(TkvCodeView *self, const guint32 *lines, gsize n,
                               gboolean scroll);
/* Highlights LINES (ascending) as context: bound too, never stepped to or
 * counted; and marks LINES among the matches as approximate.  Each replaces
 * its previous lines; tkv_code_view_set_matches() clears both. */
void tkv_code_view_set_context(TkvCodeView *self, const guint32 *lines, gsize n);
void tkv_code_view_set_approx(TkvCodeView *self, const guint32 *lines, gsize n);

/* The matches; *LINES owned by the view.  Returns their number. */
gsize tkv_code_view_get_matches(TkvCodeView *self, const guint32 **lines);
/* Index of the current match, -1 when none. */
int tkv_code_view_get_match_index(TkvCodeView *self);
/* Moves the current match by DELTA (wrapping): its mark moves, on screen or
 * not, and when it is not in view, or the hits that follow it (DELTA > 0)
 * or come before it (DELTA < 0) within half the view's height are not, that
 * group of hits is brought to the middle of the view.  (A new set of
 * matches lands the same way.)  FALSE when there are no matches. */
gboolean tkv_code_view_step_match(TkvCodeView *self, int delta);

/* Highlights LINE as selected (0: none).  MOVE_CURSOR puts the cursor there
 * without emitting "line-selected"; SCROLL brings it into view. */
void tkv_code_view_set_selected(TkvCodeView *self, guint line, gboolean move_cursor,
                                gboolean scroll);
guint tkv_code_view_get_selected(TkvCodeView *self);

/* Highlights lines [FIRST, FIRST + N) with TAG ("tkv-diff-insert", ...), adding
 * to what is highlighted; tkv_code_view_clear_tag() removes TAG everywhere. */
void tkv_code_view_tag_lines(TkvCodeView *self, const char *tag, guint first, guint n);
void tkv_code_view_clear_tag(TkvCodeView *self, const char *tag);

/* The lines of the shown buffer carrying TAG (what the view paints),
 * ascending.  Caller frees with g_array_unref(). */
GArray *tkv_code_view_get_tagged_lines(TkvCodeView *self, const char *tag);

/* The lines of the shown buffer that are folded now, ascending.  Caller
 * frees with g_array_unref(). */
GArray *tkv_code_view_get_folded_lines(TkvCodeView *self);

/* Scrolls so that LINE is visible (placed at a quarter of the height when it
 * was not). */
void tkv_code_view_scroll_to_line(TkvCodeView *self, guint line);
/* Scrolls so that LINE is the first line in view (a stage opens on its
 * first instruction). */
void tkv_code_view_scroll_to_top(TkvCodeView *self, guint line);

/* Puts LINE in the middle of the view, whether it was in view or not, and
 * the bytes INDEX..END_INDEX of it into view sideways (a hit found). */
void tkv_code_view_center_line(TkvCodeView *self, guint line, guint index, guint end_index);

/* The find bar's N HITS (copied, ascending) in the buffer shown now, painted
 * under the text while it is shown; CURRENT (an index, -1: none) in a color
 * of its own.  N 0: none. */
void tkv_code_view_set_find_hits(TkvCodeView *self, const TkvFindHit *hits, gsize n,
                                 int current);
void tkv_code_view_set_find_current(TkvCodeView *self, int current);

/* Marks lines [FIRST, FIRST + N) as the current block with a frame (a pass
 * diff's current change; N 0: a bar before line FIRST, where a side without
 * lines in the change has its place).  FIRST 0: none.  The getter returns
 * FIRST and puts N in *N. */
void tkv_code_view_set_current_block(TkvCodeView *self, guint first, guint n);
guint tkv_code_view_get_current_block(TkvCodeView *self, guint *n);

/* Moves the cursor to LINE as the user would: "line-selected" is emitted. */
void tkv_code_view_goto_line(TkvCodeView *self, guint line);

/* The line the cursor is on (1-based). */
guint tkv_code_view_get_cursor_line(TkvCodeView *self);

/* Number of lines of the current buffer. */
guint tkv_code_view_get_line_count(TkvCodeView *self);

/* For the tests: where the line numbers (HEAT FALSE) or the cost column
 * drew their text in their last frame (tkv_gutter_line.h's TkvGutterDrawn,
 * in the view's coordinates), owned by the view; NULL when none. */
GArray *tkv_code_view_get_gutter_drawn(TkvCodeView *self, gboolean heat);

G_END_DECLS

#endif
