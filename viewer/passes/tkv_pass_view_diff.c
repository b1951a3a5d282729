/* tkv_pass_view_diff.c - the diff shown, side by side, as the library made
 * it (tk_timeline_diff(): normalized, kept lines only, original text):
 * removed lines red on the left, added lines green on the right, replaced
 * lines blue on both, their changed words stronger (tk_ir_diff_words());
 * the sides' gutters mark the lines that carry a
 * location; next/previous change (a change is the library's,
 * tk_diff_changes(): a group of edits with their context, as the report
 * and `tkview diff` count them), and a new diff opens on its first change.  The chunk map shows the same hunks.  The rows
 * (a diff too big to show whole is cut to a budget) are tkv_pass_rows.c's,
 * made on the diff's worker thread; VIEW_HUNKS are the hunks over them. */
#include "passes/tkv_pass_view_private.h"

#include <stdlib.h>

/* A first change taller than twice this many rows opens on its first rows
 * (this many above the middle of the view), not on its middle. */
#define TALL_ROWS 12

static const tk_hunk *hunks_of(TkvPassView *self, size_t *n)
{
    if (!self->diff) {
        *n = 0;
        return NULL;
    }
    *n = self->view_hunks->len;
    return (const tk_hunk *)self->view_hunks->data;
}

static void update_change_label(TkvPassView *self)
{
    char buf[96], shown[32] = "";
    /* A diff cut over its budget counts the changes of the whole diff, by
     * the library's count (tkview diff's and the report's), and says how
     * many are shown. */
    guint n = self->changes->len;
    guint whole = self->cut.cut ? (guint)tk_ir_diff_change_count(self->diff) : n;
    if (whole > n) {
        g_snprintf(shown, sizeof shown, " (%u shown)", n);
        n = whole;
    }
    if (!self->diff)
        buf[0] = 0;
    else if (!n)
        g_snprintf(buf, sizeof buf, "no change");
    else if (self->cur_change < 0 || !self->changes->len)
        g_snprintf(buf, sizeof buf, "%u change%s%s", n, n == 1 ? "" : "s", shown);
    else
        g_snprintf(buf, sizeof buf, "change %d of %u%s", self->cur_change + 1, n, shown);
    gtk_label_set_text(self->change_label, buf);
}

gboolean tkv_pass_view_step_change(TkvPassView *self, int delta)
{
    int n = (int)self->changes->len;
    if (!n)
        return FALSE;
    if (self->cur_change < 0)
        self->cur_change = delta > 0 ? 0 : n - 1;
    else
        self->cur_change = ((self->cur_change + delta) % n + n) % n;
    const tk_hunk *c = &g_array_index(self->changes, tk_hunk, self->cur_change);
    /* Marked on both sides, whether it was on screen or not (a side with no
     * lines in it, as B in a deletion, marks where they would be). */
    tkv_code_view_set_current_block(tkv_pass_view_side_view(self, 0), c->a0 + 1, c->a1 - c->a0);
    tkv_code_view_set_current_block(tkv_pass_view_side_view(self, 1), c->b0 + 1, c->b1 - c->b0);
    /* And centred: the side that has lines in this change leads (a deletion
     * has none on B); the other follows through the hunks. */
    int lead = c->a1 > c->a0 ? 0 : 1;
    guint first = lead == 0 ? c->a0 + 1 : c->b0 + 1;
    tkv_linked_scroll_center_rows(self->linked, lead, first, lead == 0 ? c->a1 : c->b1);
    update_change_label(self);
    return TRUE;
}

guint32 tkv_pass_view_orig_line(TkvPassView *self, int side, guint row)
{
    GArray *o = self->orig[side];
    return row >= 1 && row <= o->len ? g_array_index(o, guint32, row - 1) : 0;
}

TkvLineState tkv_pass_view_diff_line_state(guint line, guint *count, gpointer data)
{
    TkvPassView *self = g_object_get_data(G_OBJECT(data), "tkv-pass-view");
    int side = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(data), "tkv-side"));
    if (!self || !self->diff)
        return TKV_LINE_BLANK;
    guint32 l = tkv_pass_view_orig_line(self, side, line);
    const tk_stack_id *ids;
    if (!l)
        return TKV_LINE_BLANK;
    return tk_ir_diff_line_stacks(self->diff, side, l, &ids) ? TKV_LINE_BOUND : TKV_LINE_UNBOUND;
}

static const char *language_of(tk_ir_dialect d)
{
    switch (d) {
    case TK_IR_MLIR: return "tkview-mlir";
    case TK_IR_LLVM: return "tkview-llvm";
    default: return NULL;
    }
}

void tkv_pass_view_clear_diff(TkvPassView *self)
{
    tkv_pass_view_fill_stop(self);
    tkv_pass_view_stop_holding(self);
    for (int s = 0; s < 2; s++) {
        TkvCodeView *v = tkv_pass_view_side_view(self, s);
        tkv_code_view_set_matches(v, NULL, 0, FALSE);
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        tkv_code_view_set_current_block(v, 0, 0);
        /* the old side is emptied in idle slices, not finalized inside
         * the click (a twentieth of it: tkv_code_view_retire_buffer()) */
        GtkTextBuffer *old = gtk_text_view_get_buffer(GTK_TEXT_VIEW(v));
        if (old)
            g_object_ref(old);
        GtkSourceBuffer *b = tkv_code_view_new_buffer("", 0, NULL);
        tkv_code_view_set_buffer(v, GTK_TEXT_BUFFER(b));
        g_object_unref(b);
        tkv_code_view_retire_buffer(old);
        g_array_set_size(self->orig[s], 0);
        tkv_code_pane_set_title(tkv_pass_view_side_pane(self, s), "", NULL);
    }
    g_clear_pointer(&self->diff, tk_ir_diff_free);
    g_array_set_size(self->view_hunks, 0);
    memset(&self->cut, 0, sizeof self->cut);
    tkv_linked_scroll_unlink(self->linked);
    g_array_set_size(self->changes, 0);
    self->cur_change = -1;
    self->sel_side = -1;
    tkv_chunk_map_set_hunks(self->chunk_map, NULL, 0, 0, 0);
    gtk_label_set_text(self->stats_label, "");
    update_change_label(self);
    tkv_find_bar_refresh(self->find);
}

static void tag_hunks(TkvPassView *self)
{
    size_t n;
    const tk_hunk *h = hunks_of(self, &n);
    for (size_t i = 0; i < n; i++) {
        if (h[i].tag == TK_HUNK_EQUAL)
            continue;
        const char *ta = h[i].tag == TK_HUNK_REPLACE ? "tkv-diff-replace" : "tkv-diff-delete";
        const char *tb = h[i].tag == TK_HUNK_REPLACE ? "tkv-diff-replace" : "tkv-diff-insert";
        tkv_code_view_tag_lines(tkv_pass_view_side_view(self, 0), ta, h[i].a0 + 1,
                                h[i].a1 - h[i].a0);
        tkv_code_view_tag_lines(tkv_pass_view_side_view(self, 1), tb, h[i].b0 + 1,
                                h[i].b1 - h[i].b0);
    }
    /* the replaced rows' changed words: those in view now, the others as
     * they come into view (tkv_pass_view_words.c) */
    tkv_pass_view_words_reset(self);
}

/* The row (0-based) each side opens on: the middle of the first change's
 * rows there (its first rows when it is taller than a screen), or the top. */
static void opening_rows(TkvPassView *self, guint out[2])
{
    out[0] = out[1] = 0;
    if (!self->changes->len)
        return;
    const tk_hunk *c = &g_array_index(self->changes, tk_hunk, 0);
    guint lo[2] = {c->a0, c->b0}, hi[2] = {c->a1, c->b1};
    for (int s = 0; s < 2; s++)
        out[s] = hi[s] - lo[s] > 2 * TALL_ROWS ? lo[s] + TALL_ROWS : lo[s] + (hi[s] - lo[s]) / 2;
}

/* GtkTextView scrolls a line it was asked to centre to the left edge of its
 * start, which is its left margin: the sides opened a few pixels to the
 * right.  While they open (HOLD_FRAMES frames) such a shift is undone. */
#define HOLD_FRAMES 3
#define HOLD_MAX_PX 12

static void hold_left(GtkAdjustment *adj, gpointer data)
{
    double v = gtk_adjustment_get_value(adj);
    if (v > 0 && v <= HOLD_MAX_PX)
        gtk_adjustment_set_value(adj, 0);
}

void tkv_pass_view_stop_holding(TkvPassView *self)
{
    for (int s = 0; s < 2; s++) {
        if (self->hold_adj[s])
            g_signal_handler_disconnect(self->hold_adj[s], self->hold_id[s]);
        self->hold_id[s] = 0;
        g_clear_object(&self->hold_adj[s]);
    }
    if (self->hold_tick)
        gtk_widget_remove_tick_callback(GTK_WIDGET(self), self->hold_tick);
    self->hold_tick = 0;
}

static gboolean hold_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    TkvPassView *self = TKV_PASS_VIEW(w);
    if (++self->hold_frames < HOLD_FRAMES)
        return G_SOURCE_CONTINUE;
    self->hold_tick = 0; /* removed by returning */
    tkv_pass_view_stop_holding(self);
    return G_SOURCE_REMOVE;
}

static void hold_sides_left(TkvPassView *self)
{
    tkv_pass_view_stop_holding(self);
    for (int s = 0; s < 2; s++) {
        GtkAdjustment *h =
            gtk_scrollable_get_hadjustment(GTK_SCROLLABLE(tkv_pass_view_side_view(self, s)));
        if (!h)
            continue;
        self->hold_adj[s] = g_object_ref(h);
        self->hold_id[s] = g_signal_connect(h, "value-changed", G_CALLBACK(hold_left), NULL);
    }
    self->hold_frames = 0;
    self->hold_tick = gtk_widget_add_tick_callback(GTK_WIDGET(self), hold_tick, NULL, NULL);
}

/* Opens the diff on its first change, in the first frame that draws it:
 * both sides centred on their rows of it (GtkTextView places a line it
 * was asked to scroll to when it lays the view out, before drawing), and
 * again in the next frames as the lines above are measured
 * (tkv_code_view_center_line()).  It drew the top of both sides first,
 * then jumped. */
static void open_first_change(TkvPassView *self, const guint at[2])
{
    self->cur_change = 0;
    const tk_hunk *c = &g_array_index(self->changes, tk_hunk, 0);
    tkv_code_view_set_current_block(tkv_pass_view_side_view(self, 0), c->a0 + 1, c->a1 - c->a0);
    tkv_code_view_set_current_block(tkv_pass_view_side_view(self, 1), c->b0 + 1, c->b1 - c->b0);
    for (int s = 0; s < 2; s++)
        tkv_code_view_center_line(tkv_pass_view_side_view(self, s), at[s] + 1, 0, 0);
    hold_sides_left(self);
}

void tkv_pass_view_show_diff(TkvPassView *self, tk_ir_diff *d, TkvPassRows *rows,
                             const char *title)
{
    tkv_pass_view_clear_diff(self);
    self->diff = d;
    tk_ir_diff_bind(d, tk_bundle_loctab(tkv_document_get_bundle(self->doc)), NULL);
    TkvPassRows *r = self->rows = rows ? rows : tkv_pass_rows_make(d);
    g_array_append_vals(self->view_hunks, r->hunks->data, r->hunks->len);
    self->cut = r->cut;
    for (int s = 0; s < 2; s++)
        g_array_append_vals(self->orig[s], r->orig[s]->data, r->orig[s]->len);
    size_t n_hunks;
    const tk_hunk *hunks = hunks_of(self, &n_hunks);
    tkv_linked_scroll_link(self->linked, hunks, n_hunks);
    /* The changes n / p step through: the library's, so that "change k of
     * n" counts what the report and `tkview diff` count. */
    tk_hunk *changes;
    size_t n_changes = tk_diff_changes(hunks, n_hunks, &changes);
    g_array_append_vals(self->changes, changes, (guint)n_changes);
    free(changes);
    guint at[2];
    opening_rows(self, at);
    for (int s = 0; s < 2; s++) {
        /* the rows around the first change now, the others in idle slices
         * (tkv_pass_view_fill.c) */
        GtkSourceBuffer *b =
            tkv_pass_view_fill_buffer(self, s, at[s], language_of(tk_ir_diff_dialect(d)));
        gtk_text_buffer_create_tag(GTK_TEXT_BUFFER(b), TKV_DIFF_WORD_TAG, "background",
                                   "rgba(70,120,210,0.30)", NULL);
        tkv_code_view_set_buffer(tkv_pass_view_side_view(self, s), GTK_TEXT_BUFFER(b));
        g_object_unref(b);
        char *name = g_utf8_make_valid(tk_ir_diff_name(d, s), -1);
        char *t = g_strdup_printf("%s %s", s ? "after:" : "before:", name);
        tkv_code_pane_set_title(tkv_pass_view_side_pane(self, s), t, name);
        g_free(t);
        g_free(name);
        tkv_code_view_refresh_gutter(tkv_pass_view_side_view(self, s));
    }
    tkv_chunk_map_set_hunks(self->chunk_map, hunks, n_hunks, r->rows[0], r->rows[1]);
    tk_diff_stats st = tk_ir_diff_stats(d);
    char *stats = self->cut.cut
                      ? g_strdup_printf("+%u \u2212%u (too big to show whole: %" G_GUINT64_FORMAT
                                        " of %" G_GUINT64_FORMAT " lines shown)",
                                        st.added, st.removed, self->cut.lines_shown,
                                        self->cut.lines_shown + self->cut.lines_left +
                                            self->cut.lines_skipped)
                      : g_strdup_printf("+%u \u2212%u", st.added, st.removed);
    gtk_label_set_text(self->stats_label, stats);
    g_free(stats);
    char *safe = g_utf8_make_valid(title, -1);
    gtk_label_set_text(self->diff_title, safe);
    g_free(safe);
    if (self->changes->len && gtk_widget_get_mapped(GTK_WIDGET(self)))
        open_first_change(self, at);
    tag_hunks(self);
    update_change_label(self);
    tkv_find_bar_refresh(self->find);
    tkv_pass_view_fill_start(self);
}

void tkv_pass_view_show_after_only(TkvPassView *self)
{
    gtk_label_set_text(self->change_label, "");
    gtk_label_set_text(self->stats_label, "");
}
