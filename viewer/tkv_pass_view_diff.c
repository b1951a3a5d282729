/* tkv_pass_view_diff.c - the diff shown, side by side, as the library made
 * it (tk_timeline_diff(): normalized, kept lines only, original text):
 * removed lines red on the left, added lines green on the right, replaced
 * lines blue on both; the sides' gutters mark the lines that carry a
 * location; next/previous change, and a new diff opens on its first change
 * once it has been drawn.  The chunk map shows the same hunks. */
#include "tkv_pass_view_private.h"

#include "tkv_text.h"

static const tk_hunk *hunks_of(TkvPassView *self, size_t *n)
{
    if (!self->diff) {
        *n = 0;
        return NULL;
    }
    return tk_ir_diff_hunks(self->diff, n);
}

static void update_change_label(TkvPassView *self)
{
    char buf[64];
    if (!self->diff)
        buf[0] = 0;
    else if (!self->changes->len)
        g_snprintf(buf, sizeof buf, "no change");
    else if (self->cur_change < 0)
        g_snprintf(buf, sizeof buf, "%u change%s", self->changes->len,
                   self->changes->len == 1 ? "" : "s");
    else
        g_snprintf(buf, sizeof buf, "change %d of %u", self->cur_change + 1, self->changes->len);
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
    size_t nh;
    const tk_hunk *h = hunks_of(self, &nh);
    const tk_hunk *c = &h[g_array_index(self->changes, guint, self->cur_change)];
    /* The side that has lines in this change leads (a deletion has none on
     * B); the other follows through the hunks. */
    if (c->a1 > c->a0)
        tkv_linked_scroll_to_row(self->linked, 0, c->a0 + 1);
    else
        tkv_linked_scroll_to_row(self->linked, 1, c->b0 + 1);
    update_change_label(self);
    return TRUE;
}

void tkv_pass_view_stop_waiting(TkvPassView *self)
{
    if (self->paint_clock) {
        g_signal_handler_disconnect(self->paint_clock, self->paint_id);
        g_clear_object(&self->paint_clock);
        self->paint_id = 0;
    }
}

static void on_after_paint(GdkFrameClock *clock, TkvPassView *self)
{
    tkv_pass_view_stop_waiting(self);
    if (self->pending_first_change) {
        self->pending_first_change = FALSE;
        tkv_pass_view_step_change(self, 1);
    }
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
    for (int s = 0; s < 2; s++) {
        TkvCodeView *v = tkv_pass_view_side_view(self, s);
        tkv_code_view_set_matches(v, NULL, 0, FALSE);
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        GtkSourceBuffer *b = tkv_code_view_new_buffer("", 0, NULL);
        gtk_text_view_set_buffer(GTK_TEXT_VIEW(v), GTK_TEXT_BUFFER(b));
        g_object_unref(b);
        g_array_set_size(self->orig[s], 0);
        tkv_code_pane_set_title(tkv_pass_view_side_pane(self, s), "", NULL);
    }
    g_clear_pointer(&self->diff, tk_ir_diff_free);
    tkv_linked_scroll_unlink(self->linked);
    g_array_set_size(self->changes, 0);
    self->cur_change = -1;
    self->sel_side = -1;
    tkv_chunk_map_set_hunks(self->chunk_map, NULL, 0, 0, 0);
    gtk_label_set_text(self->stats_label, "");
    update_change_label(self);
}

static void tag_hunks(TkvPassView *self)
{
    size_t n;
    const tk_hunk *h = hunks_of(self, &n);
    for (size_t i = 0; i < n; i++) {
        if (h[i].tag == TK_HUNK_EQUAL)
            continue;
        g_array_append_val(self->changes, (guint){(guint)i});
        const char *ta = h[i].tag == TK_HUNK_REPLACE ? "tkv-diff-replace" : "tkv-diff-delete";
        const char *tb = h[i].tag == TK_HUNK_REPLACE ? "tkv-diff-replace" : "tkv-diff-insert";
        tkv_code_view_tag_lines(tkv_pass_view_side_view(self, 0), ta, h[i].a0 + 1,
                                h[i].a1 - h[i].a0);
        tkv_code_view_tag_lines(tkv_pass_view_side_view(self, 1), tb, h[i].b0 + 1,
                                h[i].b1 - h[i].b0);
    }
}

void tkv_pass_view_show_diff(TkvPassView *self, tk_ir_diff *d, const char *title)
{
    tkv_pass_view_clear_diff(self);
    self->diff = d;
    size_t n_hunks;
    const tk_hunk *hunks = tk_ir_diff_hunks(d, &n_hunks);
    tkv_linked_scroll_link(self->linked, hunks, n_hunks);
    tk_ir_diff_bind(d, tk_bundle_loctab(tkv_document_get_bundle(self->doc)), NULL);
    for (int s = 0; s < 2; s++) {
        uint32_t n = tk_ir_diff_kept_count(d, s);
        GString *text = g_string_new(NULL);
        g_array_set_size(self->orig[s], 0);
        for (uint32_t k = 0; k < n; k++) {
            size_t len;
            uint32_t line = 0;
            const char *t = tk_ir_diff_kept_line(d, s, k, &len, &line);
            if (k)
                g_string_append_c(text, '\n');
            if (t)
                tkv_text_append_line(text, t, len);
            g_array_append_val(self->orig[s], line);
        }
        GtkSourceBuffer *b = tkv_code_view_new_buffer(text->str, (gssize)text->len,
                                                      language_of(tk_ir_diff_dialect(d)));
        gtk_text_view_set_buffer(GTK_TEXT_VIEW(tkv_pass_view_side_view(self, s)),
                                 GTK_TEXT_BUFFER(b));
        g_object_unref(b);
        g_string_free(text, TRUE);
        char *name = g_utf8_make_valid(tk_ir_diff_name(d, s), -1);
        char *t = g_strdup_printf("%s %s", s ? "after:" : "before:", name);
        tkv_code_pane_set_title(tkv_pass_view_side_pane(self, s), t, name);
        g_free(t);
        g_free(name);
        tkv_code_view_refresh_gutter(tkv_pass_view_side_view(self, s));
    }
    tag_hunks(self);
    size_t nh;
    const tk_hunk *h = tk_ir_diff_hunks(d, &nh);
    tkv_chunk_map_set_hunks(self->chunk_map, h, nh, tk_ir_diff_kept_count(d, 0),
                            tk_ir_diff_kept_count(d, 1));
    tk_diff_stats st = tk_ir_diff_stats(d);
    char *stats = g_strdup_printf("+%u \u2212%u", st.added, st.removed);
    gtk_label_set_text(self->stats_label, stats);
    g_free(stats);
    char *safe = g_utf8_make_valid(title, -1);
    gtk_label_set_text(self->diff_title, safe);
    g_free(safe);
    update_change_label(self);
    /* Follow the hunks: go to the first change once the sides are laid
     * out (before that their line positions are not known). */
    self->pending_first_change = self->changes->len > 0;
    GdkFrameClock *clock = gtk_widget_get_frame_clock(GTK_WIDGET(self));
    tkv_pass_view_stop_waiting(self);
    if (clock && gtk_widget_get_mapped(GTK_WIDGET(self))) {
        self->paint_clock = g_object_ref(clock);
        self->paint_id = g_signal_connect(clock, "after-paint", G_CALLBACK(on_after_paint), self);
        gtk_widget_queue_draw(GTK_WIDGET(self));
    } else if (self->pending_first_change) {
        self->pending_first_change = FALSE;
        self->cur_change = -1;
    }
}
