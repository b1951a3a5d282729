/* tkv_pass_view_fill.c - the sides' buffers filled by parts: at the click,
 * each side's buffer has all its rows, but only those around its first
 * change hold their text (the others are empty lines); the rest is put in
 * by idle slices of FILL_SLICE_BYTES, below that window first, then above.
 *
 * Why: a pass that rewrites a module has two sides of ~20,000 rows each.
 * Giving them whole to their buffers (gtk_text_buffer_set_text, the long
 * lines' folds) and then drawing the first frame at the top before going to
 * the first change cost 80-125 ms of the main thread in one turn (bench/
 * README.md, "Fifth measurement: the viewer's pass selection").  Empty rows
 * cost a buffer little to hold and GtkSourceView nothing to highlight; the
 * window drawn first is the one the view opens on.  Every row keeps its
 * number from the start (the same line of the buffer before and after it
 * is filled), so the hunks, the gutters' line numbers, the chunk map, the
 * diff colours (by line number, tkv_buffer_lines.h) and the linked
 * scrolling hold from the first frame; the find bar searches the whole
 * text from the start (tkv_code_view_buffer_keep_text()); the changed words
 * are tagged once both rows of a pair hold their text
 * (tkv_pass_view_words.c). */
#include "passes/tkv_pass_view_private.h"

#include <string.h>

#include "widgets/tkv_buffer_lines.h"

/* Rows of the first window above and below the row the view opens on: a
 * screen is 40-60 rows, and the changed words are tagged WORDS_MARGIN (80)
 * rows around it. */
#define WINDOW_ABOVE 150
#define WINDOW_BELOW 250
/* Text put into a buffer at once (a part's cost is mostly GtkTextBuffer's
 * insertion and GtkSourceView's, proportional to it): 1-2 ms on this
 * loaded 2-core machine. */
#define FILL_SLICE_BYTES (32 * 1024)
#define FILL_SLICE_ROWS 1500
/* Parts put in by one idle callback: until this much time has gone. */
#define FILL_SLICE_US 6000

static gsize row_off(const TkvPassRows *r, int side, guint row)
{
    return g_array_index(r->off[side], gsize, row);
}

/* Where rows [FROM, TO) of SIDE end in its text (TO the side's rows: its
 * end; else the line end before row TO). */
static gsize rows_end(const TkvPassRows *r, int side, guint to)
{
    return to < r->rows[side] ? row_off(r, side, to) - 1 : r->text[side]->len;
}

gboolean tkv_pass_view_row_filled(TkvPassView *self, int side, guint row0)
{
    return self->rows && row0 >= self->fill_lo[side] && row0 < self->fill_hi[side];
}

const char *tkv_pass_view_row_text(TkvPassView *self, int side, guint row0, gsize *len)
{
    const TkvPassRows *r = self->rows;
    if (!r || row0 >= r->rows[side]) {
        *len = 0;
        return "";
    }
    gsize a = row_off(r, side, row0);
    *len = rows_end(r, side, row0 + 1) - a;
    return r->text[side]->str + a;
}

GtkSourceBuffer *tkv_pass_view_fill_buffer(TkvPassView *self, int side, guint around,
                                           const char *language)
{
    const TkvPassRows *r = self->rows;
    guint n = r->rows[side];
    guint lo = around > WINDOW_ABOVE ? around - WINDOW_ABOVE : 0;
    guint hi = MIN(n, around + WINDOW_BELOW);
    lo = MIN(lo, hi);
    self->fill_lo[side] = lo;
    self->fill_hi[side] = hi;
    /* empty rows, the window's text, empty rows */
    GString *t = g_string_sized_new(n + (hi > lo ? rows_end(r, side, hi) - row_off(r, side, lo) : 0));
    for (guint i = 0; i < lo; i++)
        g_string_append_c(t, '\n');
    if (hi > lo) {
        gsize a = row_off(r, side, lo);
        g_string_append_len(t, r->text[side]->str + a, (gssize)(rows_end(r, side, hi) - a));
    }
    for (guint i = hi; i < n; i++)
        g_string_append_c(t, '\n');
    GtkSourceBuffer *b = tkv_code_view_new_buffer(NULL, 0, language);
    GtkTextBuffer *tb = GTK_TEXT_BUFFER(b);
    gtk_text_buffer_set_text(tb, t->str, (int)t->len);
    g_string_free(t, TRUE);
    /* what the find bar searches, and the long lines by their numbers (those
     * of the window folded now, the others as they are filled) */
    tkv_code_view_buffer_keep_text(tb, r->text[side]->str, r->text[side]->len);
    tkv_buffer_lines_fold(tb, r->text[side]->str, r->text[side]->len);
    GtkTextIter start;
    gtk_text_buffer_get_start_iter(tb, &start);
    gtk_text_buffer_place_cursor(tb, &start);
    return b;
}

/* Puts the text of rows [R0, R1) of SIDE, empty until now, into its buffer. */
static void fill_rows(TkvPassView *self, int side, guint r0, guint r1)
{
    const TkvPassRows *r = self->rows;
    GtkTextBuffer *b = gtk_text_view_get_buffer(GTK_TEXT_VIEW(tkv_pass_view_side_view(self, side)));
    GtkTextIter s, e, cur;
    /* the cursor stays on its row (an insertion at it would push it down) */
    gtk_text_buffer_get_iter_at_mark(b, &cur, gtk_text_buffer_get_insert(b));
    int cur_line = gtk_text_iter_get_line(&cur), cur_off = gtk_text_iter_get_line_offset(&cur);
    gtk_text_buffer_get_iter_at_line(b, &s, (int)r0);
    if (r1 < r->rows[side])
        gtk_text_buffer_get_iter_at_line(b, &e, (int)r1);
    else
        gtk_text_buffer_get_end_iter(b, &e);
    /* the empty rows' line ends give way to the rows' own (after the last
     * row: none) */
    gsize a = row_off(r, side, r0);
    gsize z = r1 < r->rows[side] ? row_off(r, side, r1) : r->text[side]->len;
    gtk_text_buffer_delete(b, &s, &e);
    gtk_text_buffer_insert(b, &s, r->text[side]->str + a, (int)(z - a));
    tkv_buffer_lines_refold(b, r0, r1);
    if ((guint)cur_line >= r0 && (guint)cur_line <= r1) {
        gtk_text_buffer_get_iter_at_line_offset(b, &cur, cur_line, cur_off);
        gtk_text_buffer_place_cursor(b, &cur);
    }
}

/* The next rows of SIDE to fill, below the window first: FALSE when it is
 * all filled. */
static gboolean next_rows(TkvPassView *self, int side, guint *r0, guint *r1)
{
    const TkvPassRows *r = self->rows;
    guint n = r->rows[side], lo = self->fill_lo[side], hi = self->fill_hi[side];
    if (hi < n) {
        guint end = hi;
        while (end < n && end - hi < FILL_SLICE_ROWS &&
               row_off(r, side, end) - row_off(r, side, hi) < FILL_SLICE_BYTES)
            end++;
        *r0 = hi;
        *r1 = end;
        self->fill_hi[side] = end;
        return TRUE;
    }
    if (lo > 0) {
        guint start = lo - 1; /* one row at least, however long */
        while (start > 0 && lo - start < FILL_SLICE_ROWS &&
               row_off(r, side, lo) - row_off(r, side, start - 1) < FILL_SLICE_BYTES)
            start--;
        *r0 = start;
        *r1 = lo;
        self->fill_lo[side] = start;
        return TRUE;
    }
    return FALSE;
}

/* One part of one side; FALSE when both are filled. */
static gboolean fill_part(TkvPassView *self)
{
    /* the sides take turns: both advance together */
    for (int k = 0; k < 2; k++) {
        int side = (self->fill_turn + k) % 2;
        guint r0, r1;
        if (next_rows(self, side, &r0, &r1)) {
            fill_rows(self, side, r0, r1);
            self->fill_turn = (side + 1) % 2;
            return TRUE;
        }
    }
    return FALSE;
}

static gboolean fill_slice(gpointer data)
{
    TkvPassView *self = data;
    gint64 t1 = g_get_monotonic_time();
    /* parts until FILL_SLICE_US have gone: a frame comes between two
     * slices (each part invalidates lines), so parts of one each took a
     * frame's time, 2 s for attention_fwd's biggest pass */
    gboolean more;
    do
        more = fill_part(self);
    while (more && g_get_monotonic_time() - t1 < FILL_SLICE_US);
    /* the changed words of the rows now filled, if in view */
    tkv_pass_view_words_refresh(self);
    if (more)
        return G_SOURCE_CONTINUE;
    self->fill_id = 0;
    return G_SOURCE_REMOVE;
}

void tkv_pass_view_fill_start(TkvPassView *self)
{
    g_clear_handle_id(&self->fill_id, g_source_remove);
    self->fill_turn = 0;
    /* below GTK's layout and redraw (the frame that shows the window comes
     * first), above GtkTextView's measuring of lines (GDK_PRIORITY_REDRAW + 5)
     * and the background highlighting (G_PRIORITY_DEFAULT_IDLE,
     * tkv_code_view_buffer.c): taking turns with them, the last rows were
     * filled 3-7 s after the click instead of a tenth of a second */
    self->fill_id = g_idle_add_full(GDK_PRIORITY_REDRAW + 1, fill_slice, self, NULL);
}

gboolean tkv_pass_view_get_diff_filling(TkvPassView *self)
{
    return self->fill_id != 0;
}

void tkv_pass_view_fill_stop(TkvPassView *self)
{
    g_clear_handle_id(&self->fill_id, g_source_remove);
    g_clear_pointer(&self->rows, tkv_pass_rows_free);
    for (int s = 0; s < 2; s++)
        self->fill_lo[s] = self->fill_hi[s] = 0;
}
