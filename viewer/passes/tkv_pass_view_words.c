/* tkv_pass_view_words.c - the changed words of the rows a replace pairs
 * (the first of A with the first of B, ...: tk_ir_diff_aligned() paired
 * them by likeness), as the library finds them (tk_ir_diff_words(): the
 * report marks the same ones), tagged as the rows come into view.
 *
 * A pass that rewrites a module replaces thousands of rows: cutting every
 * pair into words and tagging them when the diff is shown was a fifth of
 * the main thread's time to show it (attention_fwd's biggest passes).  The
 * rows in view and WORDS_MARGIN rows around them are tagged when the diff
 * is shown, and the others when a side scrolls to them, before the frame
 * that draws them (an idle callback ahead of GTK's redraw), or once their
 * text is in the buffers (tkv_pass_view_fill.c). */
#include "passes/tkv_pass_view_private.h"

#include <string.h>

/* Lines longer than this (either side) are not cut into words: their
 * replace shows as a whole, as before (a 32 KB struct type would cost
 * more to tokenize than the whole view costs to lay out). */
#define WORDS_MAX_LINE_BYTES 8192
/* Rows above and below those in view tagged with them. */
#define WORDS_MARGIN 80

/* Tags the ranges SP (N of them, bytes of TEXT, row ROW of B) as changed
 * words. */
static void tag_words(GtkTextBuffer *b, guint row, const char *text, const tk_ir_span *sp,
                      size_t n)
{
    for (size_t i = 0; i < n; i++) {
        GtkTextIter s0, e0;
        gtk_text_buffer_get_iter_at_line_offset(
            b, &s0, (int)row, (int)g_utf8_pointer_to_offset(text, text + sp[i].off));
        gtk_text_buffer_get_iter_at_line_offset(
            b, &e0, (int)row,
            (int)g_utf8_pointer_to_offset(text, text + sp[i].off + sp[i].len));
        gtk_text_buffer_apply_tag_by_name(b, TKV_DIFF_WORD_TAG, &s0, &e0);
    }
}

/* Row pair J of replace H, once. */
static void tag_pair(TkvPassView *self, const tk_hunk *h, guint32 j)
{
    guint32 ra = h->a0 + j, rb = h->b0 + j;
    if (ra >= self->words_len || self->words_done[ra])
        return;
    /* a row not filled yet is tagged once it is (tkv_pass_view_fill.c) */
    if (!tkv_pass_view_row_filled(self, 0, ra) || !tkv_pass_view_row_filled(self, 1, rb))
        return;
    self->words_done[ra] = 1;
    GtkTextBuffer *ba = gtk_text_view_get_buffer(GTK_TEXT_VIEW(tkv_pass_view_side_view(self, 0)));
    GtkTextBuffer *bb = gtk_text_view_get_buffer(GTK_TEXT_VIEW(tkv_pass_view_side_view(self, 1)));
    /* the rows' text as made on the worker (hidden tails of folded lines
     * included), not read back from the buffers */
    gsize la, lb;
    const char *ta = tkv_pass_view_row_text(self, 0, ra, &la);
    const char *tb = tkv_pass_view_row_text(self, 1, rb, &lb);
    tk_ir_span *sa, *sb;
    size_t na, nb;
    if (la <= WORDS_MAX_LINE_BYTES && lb <= WORDS_MAX_LINE_BYTES &&
        tk_ir_diff_words(ta, la, tb, lb, &sa, &na, &sb, &nb) == 0) {
        tag_words(ba, ra, ta, sa, na);
        tag_words(bb, rb, tb, sb, nb);
        g_free(sa);
        g_free(sb);
    }
}

/* The pairs with a row of SIDE in FIRST..LAST (0-based, inclusive). */
static void tag_rows(TkvPassView *self, int side, guint32 first, guint32 last)
{
    const tk_hunk *h = (const tk_hunk *)(void *)self->view_hunks->data;
    for (guint i = 0; self->diff && i < self->view_hunks->len; i++) {
        if (h[i].tag != TK_HUNK_REPLACE)
            continue;
        guint32 x0 = side ? h[i].b0 : h[i].a0, x1 = side ? h[i].b1 : h[i].a1;
        guint32 pairs = MIN(h[i].a1 - h[i].a0, h[i].b1 - h[i].b0);
        if (x1 <= first || x0 > last)
            continue;
        guint32 j0 = first > x0 ? first - x0 : 0, j1 = MIN(last - x0 + 1, pairs);
        for (guint32 j = j0; j < j1; j++)
            tag_pair(self, &h[i], j);
    }
}

/* The rows of SIDE in view, WORDS_MARGIN around them; FALSE while it is
 * not laid out. */
static gboolean rows_in_view(TkvPassView *self, int side, guint32 *first, guint32 *last)
{
    GtkTextView *tv = GTK_TEXT_VIEW(tkv_pass_view_side_view(self, side));
    GdkRectangle vis;
    gtk_text_view_get_visible_rect(tv, &vis);
    if (!gtk_widget_get_mapped(GTK_WIDGET(tv)) || vis.height <= 0)
        return FALSE;
    GtkTextIter top, bottom;
    gtk_text_view_get_line_at_y(tv, &top, vis.y, NULL);
    gtk_text_view_get_line_at_y(tv, &bottom, vis.y + vis.height, NULL);
    int a = gtk_text_iter_get_line(&top) - WORDS_MARGIN;
    *first = (guint32)MAX(a, 0);
    *last = (guint32)gtk_text_iter_get_line(&bottom) + WORDS_MARGIN;
    return TRUE;
}

static void tag_in_view(TkvPassView *self)
{
    for (int s = 0; s < 2; s++) {
        guint32 first, last;
        if (rows_in_view(self, s, &first, &last))
            tag_rows(self, s, first, last);
    }
}

static gboolean tag_idle(gpointer data)
{
    TkvPassView *self = data;
    self->words_idle = 0;
    tag_in_view(self);
    return G_SOURCE_REMOVE;
}

/* A side scrolled or was laid out: its rows in view are tagged before the
 * frame that draws them (GTK redraws at GDK_PRIORITY_REDRAW). */
static void on_side_scrolled(GtkAdjustment *adj, TkvPassView *self)
{
    if (!self->words_idle && self->diff)
        self->words_idle = g_idle_add_full(GDK_PRIORITY_REDRAW - 10, tag_idle, self, NULL);
}

void tkv_pass_view_words_refresh(TkvPassView *self)
{
    on_side_scrolled(NULL, self);
}

void tkv_pass_view_words_reset(TkvPassView *self)
{
    g_free(self->words_done);
    GtkTextBuffer *ba = gtk_text_view_get_buffer(GTK_TEXT_VIEW(tkv_pass_view_side_view(self, 0)));
    self->words_len = (guint)gtk_text_buffer_get_line_count(ba);
    self->words_done = g_new0(guint8, self->words_len ? self->words_len : 1);
    tag_in_view(self);
    on_side_scrolled(NULL, self); /* and once laid out */
}

void tkv_pass_view_tag_all_words(TkvPassView *self)
{
    tag_rows(self, 0, 0, G_MAXUINT32 - 1);
}

void tkv_pass_view_words_watch(TkvPassView *self)
{
    for (int s = 0; s < 2; s++) {
        GtkAdjustment *adj =
            gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(tkv_pass_view_side_view(self, s)));
        if (adj == self->words_adj[s])
            continue;
        tkv_pass_view_words_unwatch(self, s);
        if (!adj)
            continue;
        self->words_adj[s] = g_object_ref(adj);
        self->words_value_id[s] =
            g_signal_connect(adj, "value-changed", G_CALLBACK(on_side_scrolled), self);
        self->words_changed_id[s] =
            g_signal_connect(adj, "changed", G_CALLBACK(on_side_scrolled), self);
    }
}

void tkv_pass_view_words_unwatch(TkvPassView *self, int side)
{
    if (!self->words_adj[side])
        return;
    g_signal_handler_disconnect(self->words_adj[side], self->words_value_id[side]);
    g_signal_handler_disconnect(self->words_adj[side], self->words_changed_id[side]);
    g_clear_object(&self->words_adj[side]);
}

void tkv_pass_view_words_free(TkvPassView *self)
{
    for (int s = 0; s < 2; s++)
        tkv_pass_view_words_unwatch(self, s);
    g_clear_handle_id(&self->words_idle, g_source_remove);
    g_clear_pointer(&self->words_done, g_free);
    self->words_len = 0;
}
