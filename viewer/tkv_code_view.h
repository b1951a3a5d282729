/* tkv_code_view.h - a read-only GtkSourceView for source or IR text, with the
 * viewer's highlights.
 *
 * Highlights are GtkTextTags on whole lines (paragraph background), colored
 * from the style scheme's tkview:* styles:
 *   "tkv-match"          lines bound to the current selection (k of n);
 *   "tkv-match-current"  the k-th of them, where next/previous stands;
 *   "tkv-selected"       the selected line itself;
 *   "tkv-diff-delete" / "tkv-diff-insert" / "tkv-diff-replace" / "tkv-diff-filler"
 *                        pass diffs.
 * The view remembers which lines it tagged, so changing a highlight costs the
 * lines it touches, not the buffer's size.
 *
 * "line-selected" (guint line, 1-based) is emitted when the user moves the
 * cursor to another line (click, keys, go to line, search), never when the
 * program does.
 *
 * Buffers: tkv_code_view_new_buffer() makes a buffer with the tags and the
 * current scheme; the owner keeps buffers (one per stage) and swaps them in
 * with gtk_text_view_set_buffer().
 */
#ifndef TKV_CODE_VIEW_H
#define TKV_CODE_VIEW_H

#include <gtksourceview/gtksource.h>

#include "tkv_bind_gutter.h"

G_BEGIN_DECLS

#define TKV_TYPE_CODE_VIEW (tkv_code_view_get_type())
G_DECLARE_FINAL_TYPE(TkvCodeView, tkv_code_view, TKV, CODE_VIEW, GtkSourceView)

GtkWidget *tkv_code_view_new(void);

/* A buffer holding LEN bytes of TEXT (made safe by tkv_text.h already), in
 * LANGUAGE_ID ("tkview-mlir", "python3", NULL for none).  Caller owns the
 * returned reference. */
GtkSourceBuffer *tkv_code_view_new_buffer(const char *text, gssize len,
                                          const char *language_id);

/* The gutter's per-line callback (tkv_bind_gutter.h) and its count column. */
void tkv_code_view_set_line_state_func(TkvCodeView *self, TkvLineStateFunc func,
                                       gpointer data, gboolean show_counts);
/* Redraws the gutter (its callback's answers changed). */
void tkv_code_view_refresh_gutter(TkvCodeView *self);

/* Tags LINES (1-based, ascending, N of them) as matches, untagging the
 * previous ones; the first becomes current.  SCROLL: bring it into view. */
void tkv_code_view_set_matches(TkvCodeView *self, const guint32 *lines, gsize n,
                               gboolean scroll);
/* The matches; *LINES owned by the view.  Returns their number. */
gsize tkv_code_view_get_matches(TkvCodeView *self, const guint32 **lines);
/* Index of the current match, -1 when none. */
int tkv_code_view_get_match_index(TkvCodeView *self);
/* Moves the current match by DELTA (wrapping) and scrolls to it.  FALSE when
 * there are no matches. */
gboolean tkv_code_view_step_match(TkvCodeView *self, int delta);

/* Tags LINE as selected (0: none).  MOVE_CURSOR puts the cursor there
 * without emitting "line-selected"; SCROLL brings it into view. */
void tkv_code_view_set_selected(TkvCodeView *self, guint line, gboolean move_cursor,
                                gboolean scroll);
guint tkv_code_view_get_selected(TkvCodeView *self);

/* Tags lines [FIRST, FIRST + N) with TAG ("tkv-diff-insert", ...), adding to
 * what is tagged; tkv_code_view_clear_tag() removes the tag everywhere. */
void tkv_code_view_tag_lines(TkvCodeView *self, const char *tag, guint first, guint n);
void tkv_code_view_clear_tag(TkvCodeView *self, const char *tag);

/* The lines carrying TAG in the buffer, read back from the buffer itself
 * (what the user sees), ascending.  Caller frees with g_array_unref(). */
GArray *tkv_code_view_get_tagged_lines(TkvCodeView *self, const char *tag);

/* Scrolls so that LINE is visible (placed at a quarter of the height when it
 * was not). */
void tkv_code_view_scroll_to_line(TkvCodeView *self, guint line);

/* Moves the cursor to LINE as the user would: "line-selected" is emitted. */
void tkv_code_view_goto_line(TkvCodeView *self, guint line);

/* The line the cursor is on (1-based). */
guint tkv_code_view_get_cursor_line(TkvCodeView *self);

/* Number of lines of the current buffer. */
guint tkv_code_view_get_line_count(TkvCodeView *self);

G_END_DECLS

#endif
