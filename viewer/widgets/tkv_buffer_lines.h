/* tkv_buffer_lines.h - what the viewer keeps per line of a code buffer: the
 * highlights TkvCodeView paints, and the folded tails of long lines.
 *
 * Both belong to the buffer, like tags (a buffer swapped out of a view and
 * back in keeps its diff colors and its folds), and are kept by line number:
 * the viewer's buffers are made once and never edited.  Lines are 1-based in
 * this API except where it says 0-based (GtkTextIter's numbering).
 *
 * Highlights are not paragraph-background tags: a tag change makes
 * GtkTextView lay out again every line it touches, so moving a selection
 * bound to hundreds of lines cost their layout (twice for the lines on
 * screen, measured then drawn).  A line's highlight kinds are bits here; the
 * view paints the lines on screen (tkv_code_view.c).
 *
 * Long lines are folded: past column TKV_FOLD_COLUMN the rest of a line
 * longer than that (by TKV_FOLD_MIN_HIDDEN characters at least) is hidden
 * with an invisible tag, and the view draws "… N more" after it.  GtkTextView
 * lays out and draws a line whole, however little of it is on screen, and
 * LLVM IR has lines of 1000-4000 characters ({ float, float, ... } aggregates
 * of 128 members, inline assembly): a screen of them was 57 000 characters
 * and 15 000 colored runs to lay out and draw on every jump there.  The lines
 * the selection or the cursor is on are shown whole (tkv_buffer_lines_show),
 * so clicking a line shows it, and copying copies what is selected.
 */
#ifndef TKV_BUFFER_LINES_H
#define TKV_BUFFER_LINES_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Highlight kinds, lowest priority first: a line shows the color of the
 * highest kind it carries. */
typedef enum {
    TKV_HL_DIFF_FILLER,
    TKV_HL_DIFF_REPLACE,
    TKV_HL_DIFF_DELETE,
    TKV_HL_DIFF_INSERT,
    TKV_HL_CONTEXT, /* bound too, but not stepped to: a located directive,
                       the other lines of the statement clicked */
    TKV_HL_MATCH,
    TKV_HL_APPROX,  /* a match made on the innermost frame only */
    TKV_HL_MATCH_CURRENT,
    TKV_HL_SELECTED,
    TKV_HL_COUNT
} TkvHighlight;

/* "tkv-diff-filler", ..., "tkv-context", "tkv-match", "tkv-approx",
 * "tkv-match-current", "tkv-selected": the names the view's API and the
 * test state use.  -1 for another name. */
int tkv_highlight_from_name(const char *name);
/* The style scheme's style for KIND ("tkview:match") and a fallback color. */
const char *tkv_highlight_style(TkvHighlight kind);
const char *tkv_highlight_fallback(TkvHighlight kind);

/* Sets (ON) or clears KIND on lines [FIRST, FIRST + N), clipped to the
 * buffer. */
void tkv_buffer_lines_mark(GtkTextBuffer *b, TkvHighlight kind, guint first, guint n,
                           gboolean on);
/* The same for LINES (N of them, ascending; runs of consecutive lines are
 * marked at once). */
void tkv_buffer_lines_mark_list(GtkTextBuffer *b, TkvHighlight kind, const guint32 *lines,
                                gsize n, gboolean on);
/* Clears KIND everywhere. */
void tkv_buffer_lines_clear(GtkTextBuffer *b, TkvHighlight kind);
/* Whether any line carries a highlight. */
gboolean tkv_buffer_lines_any(GtkTextBuffer *b);
/* The highest kind LINE0 (0-based) carries, -1 for none. */
int tkv_buffer_lines_top(GtkTextBuffer *b, guint line0);
/* The lines carrying KIND, ascending.  Caller frees with g_array_unref(). */
GArray *tkv_buffer_lines_list(GtkTextBuffer *b, TkvHighlight kind);

/* Lines that are not code (a .loc, a //## comment, a label:
 * tk_stage_line_kind()), set once for a buffer: the view draws them
 * dimmed. */
void tkv_buffer_lines_set_dim(GtkTextBuffer *b, const guint32 *lines, gsize n);
gboolean tkv_buffer_lines_any_dim(GtkTextBuffer *b);
gboolean tkv_buffer_lines_is_dim(GtkTextBuffer *b, guint line0);

/* Lines that only state a location (MLIR #loc definitions, PTX .loc, SASS
 * //##: tk_stage_line_is_location()), set once for a buffer; then hidden
 * whole (HIDE) or shown, with one invisible tag. */
void tkv_buffer_lines_set_location_lines(GtkTextBuffer *b, const guint32 *lines, gsize n);
void tkv_buffer_lines_hide_location_lines(GtkTextBuffer *b, gboolean hide);
/* The location lines hidden now, ascending.  Caller frees with
 * g_array_unref(). */
GArray *tkv_buffer_lines_hidden_location_lines(GtkTextBuffer *b);

#define TKV_FOLD_COLUMN 256
#define TKV_FOLD_MIN_HIDDEN 32

/* Folds the long lines of B, a buffer just filled with LEN bytes of TEXT
 * (what was given to gtk_text_buffer_set_text(); the caller keeps it).
 * Once. */
void tkv_buffer_lines_fold(GtkTextBuffer *b, const char *text, gsize len);
/* Folds again the long lines in [FIRST0, END0) (0-based) but those shown
 * whole: B's text there was given after tkv_buffer_lines_fold() (a pass
 * diff fills its sides by rows, tkv_pass_view_fill.c; same lines, same
 * numbers). */
void tkv_buffer_lines_refold(GtkTextBuffer *b, guint first0, guint end0);
/* Shows lines [FIRST0, LAST0] (0-based) whole and folds again the lines shown
 * whole before that are outside them.  Cheap when nothing changes. */
void tkv_buffer_lines_show(GtkTextBuffer *b, int first0, int last0);
/* Whether a line of B is folded now. */
gboolean tkv_buffer_lines_any_folded(GtkTextBuffer *b);
/* Characters hidden on LINE0 (0-based) now: 0 when it is not folded, or
 * its text is not in the buffer yet (a pass diff row being filled). */
guint tkv_buffer_lines_hidden(GtkTextBuffer *b, guint line0);
/* The folded lines, ascending.  Caller frees with g_array_unref(). */
GArray *tkv_buffer_lines_folded(GtkTextBuffer *b);

G_END_DECLS

#endif
