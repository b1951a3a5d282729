/* tkv_pass_view_diff.c - the diff shown, side by side, as the library made
 * it (tk_timeline_diff(): normalized, kept lines only, original text):
 * removed lines red on the left, added lines green on the right, replaced
 * lines blue on both, their changed words stronger (tk_ir_diff_words());
 * the sides' gutters mark the lines that carry a
 * location; next/previous change (a change is the library's,
 * tk_diff_changes(): a group of edits with their context, as the report
 * and `tkview diff` count them), and a new diff opens on its first change
 * once it has been drawn.  The chunk map shows the same hunks.
 *
 * A pass that rewrites a 2 GB module cannot be shown whole (a text view
 * holds what it shows, and lays it out): a diff bigger than the budget
 * below shows its changes with their context up to the budget
 * (tk_ir_diff_group_budget()), long lines by their start, the unchanged
 * stretches between them as one row each ("⋯ 812 unchanged lines ⋯"), and
 * says at its end and in the title what was left out and how to see it
 * all (tkview diff --pass N).  The rows are then not the sides' kept
 * lines: VIEW_HUNKS are the hunks over the rows shown. */
#include "passes/tkv_pass_view_private.h"

#include <stdlib.h>

#include "document/tkv_text.h"

/* A diff is shown whole when both its sides together have at most this
 * many lines and bytes; otherwise as much as the budget below holds (a
 * text view lays out and highlights all it holds: a few MB is what it
 * takes in the time a person waits). */
#define WHOLE_LINES 40000u
#define WHOLE_BYTES ((guint64)4 << 20)
#define CUT_LINES 2000u
#define CUT_BYTES ((guint64)256 << 10)
#define CUT_LINE_BYTES 256u
#define CONTEXT TK_DIFF_CONTEXT

/* The budget, which tests may make smaller: TKV_PASS_DIFF_BUDGET="LINES"
 * (both the whole and the cut limits, in lines). */
static guint budget_lines(guint dflt)
{
    const char *e = g_getenv("TKV_PASS_DIFF_BUDGET");
    guint v = e ? (guint)strtoul(e, NULL, 10) : 0;
    return v ? v : dflt;
}

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

void tkv_pass_view_stop_waiting(TkvPassView *self)
{
    if (self->paint_clock) {
        /* a clock disposed with its window has dropped it already */
        if (g_signal_handler_is_connected(self->paint_clock, self->paint_id))
            g_signal_handler_disconnect(self->paint_clock, self->paint_id);
        g_clear_object(&self->paint_clock);
        self->paint_id = 0;
    }
}

/* The sides' lines below the screen have estimated heights until GTK
 * validates them, in idle time, a few frames after the first: a change far
 * down was "centred" at its estimated place, short of it, and the pass
 * opened away from its change.  So the first change is centred again on
 * the next few frames, as the heights become known. */
#define RECENTER_FRAMES 8

static void on_after_paint(GdkFrameClock *clock, TkvPassView *self)
{
    if (self->pending_first_change) {
        self->pending_first_change = FALSE;
        tkv_pass_view_step_change(self, 1);
        self->recenter_frames = RECENTER_FRAMES;
    } else if (self->recenter_frames > 0 && self->cur_change >= 0) {
        self->recenter_frames--;
        tkv_pass_view_step_change(self, 0);
    } else {
        self->recenter_frames = 0;
    }
    if (self->recenter_frames > 0)
        gtk_widget_queue_draw(GTK_WIDGET(self));
    else
        tkv_pass_view_stop_waiting(self);
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
        tkv_code_view_set_current_block(v, 0, 0);
        GtkSourceBuffer *b = tkv_code_view_new_buffer("", 0, NULL);
        tkv_code_view_set_buffer(v, GTK_TEXT_BUFFER(b));
        g_object_unref(b);
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

/* ---- the rows shown ------------------------------------------------------------ */

/* What the sides show, row by row. */
typedef struct {
    const tk_ir_diff *d;
    GString *text[2];
    GArray *orig[2];
    GArray *hunks;      /* over rows */
    guint32 rows[2];
    uint32_t end[2];    /* kept lines shown or skipped so far, per side */
    gboolean head_only; /* long lines are shown by their start */
} Rows;

static void add_row(Rows *r, int s, const char *t, size_t len, guint32 line)
{
    if (r->rows[s]++)
        g_string_append_c(r->text[s], '\n');
    tkv_text_append_line(r->text[s], t, len);
    g_array_append_val(r->orig[s], line);
}

static void add_kept(Rows *r, int s, uint32_t k)
{
    size_t len = 0;
    uint32_t line = 0;
    size_t full = tk_ir_diff_kept_len(r->d, s, k);
    const char *t = r->head_only ? tk_ir_diff_kept_head(r->d, s, k, CUT_LINE_BYTES, &len, &line)
                                 : tk_ir_diff_kept_line(r->d, s, k, &len, &line);
    add_row(r, s, t ? t : "", t ? len : 0, line);
    if (t && len < full)
        g_string_append_printf(r->text[s], " \u2026 (%zu more bytes)", full - len);
}

/* A hunk over rows, merged into the last when both are equal. */
static void add_hunk(Rows *r, tk_hunk_tag tag, guint32 na, guint32 nb)
{
    tk_hunk h = {tag, r->rows[0] - na, r->rows[0], r->rows[1] - nb, r->rows[1]};
    if (na == 0 && nb == 0)
        return;
    if (r->hunks->len) {
        tk_hunk *last = &g_array_index(r->hunks, tk_hunk, r->hunks->len - 1);
        if (last->tag == TK_HUNK_EQUAL && tag == TK_HUNK_EQUAL) {
            last->a1 = h.a1;
            last->b1 = h.b1;
            return;
        }
    }
    g_array_append_val(r->hunks, h);
}

/* One row on both sides (an equal hunk) saying what is not shown. */
static void add_note(Rows *r, const char *note_a, const char *note_b)
{
    add_row(r, 0, note_a, strlen(note_a), 0);
    add_row(r, 1, note_b, strlen(note_b), 0);
    add_hunk(r, TK_HUNK_EQUAL, 1, 1);
}

/* The unchanged lines between what was shown and kept lines A, B. */
static void add_gap(Rows *r, uint32_t a, uint32_t b)
{
    if (a <= r->end[0] && b <= r->end[1])
        return;
    char *na = g_strdup_printf("\u22ef %u lines not shown \u22ef", a - r->end[0]);
    char *nb = g_strdup_printf("\u22ef %u lines not shown \u22ef", b - r->end[1]);
    add_note(r, na, nb);
    g_free(na);
    g_free(nb);
    r->end[0] = a;
    r->end[1] = b;
}

static int cut_hunk(const tk_hunk *h, void *user)
{
    Rows *r = user;
    if (h->tag == TK_HUNK_GROUP) {
        add_gap(r, h->a0, h->b0);
        return 0;
    }
    for (uint32_t k = h->a0; k < h->a1; k++)
        add_kept(r, 0, k);
    for (uint32_t k = h->b0; k < h->b1; k++)
        add_kept(r, 1, k);
    add_hunk(r, h->tag, h->a1 - h->a0, h->b1 - h->b0);
    r->end[0] = h->a1;
    r->end[1] = h->b1;
    return 0;
}

/* All kept lines, rows one to one with them. */
static void whole_rows(Rows *r)
{
    for (int s = 0; s < 2; s++) {
        uint32_t n = tk_ir_diff_kept_count(r->d, s);
        for (uint32_t k = 0; k < n; k++)
            add_kept(r, s, k);
        r->rows[s] = n;
    }
    size_t nh;
    const tk_hunk *h = tk_ir_diff_aligned(r->d, &nh); /* replaced lines paired by likeness */
    g_array_append_vals(r->hunks, h, (guint)nh);
}

/* Whether D fits whole: its lines and bytes on both sides. */
static gboolean fits_whole(const tk_ir_diff *d)
{
    guint64 lines = 0, bytes = 0;
    for (int s = 0; s < 2; s++) {
        uint32_t n = tk_ir_diff_kept_count(d, s);
        lines += n;
        for (uint32_t k = 0; k < n && bytes <= WHOLE_BYTES; k++)
            bytes += tk_ir_diff_kept_len(d, s, k) + 1;
    }
    return lines <= budget_lines(WHOLE_LINES) && bytes <= WHOLE_BYTES;
}

/* The rows of a diff too big to show whole: its changes and their context
 * up to the budget, then what was left out. */
static void cut_rows(TkvPassView *self, Rows *r)
{
    tk_ir_diff_budget b = {.context = CONTEXT, .max_lines = budget_lines(CUT_LINES),
                           .max_bytes = CUT_BYTES, .max_line_bytes = CUT_LINE_BYTES};
    r->head_only = TRUE;
    tk_ir_diff_group_budget(r->d, &b, cut_hunk, r, &self->cut);
    uint32_t na = tk_ir_diff_kept_count(r->d, 0), nb = tk_ir_diff_kept_count(r->d, 1);
    if (self->cut.lines_left == 0) {
        add_gap(r, na, nb);
        return;
    }
    char *note = g_strdup_printf("\u22ef cut here: %" G_GUINT64_FORMAT " more lines of this "
                                 "diff (+%u \u2212%u) are not shown; tkview diff --pass "
                                 "prints them all \u22ef",
                                 self->cut.lines_left, self->cut.added_left,
                                 self->cut.removed_left);
    add_note(r, note, note);
    g_free(note);
}

void tkv_pass_view_show_diff(TkvPassView *self, tk_ir_diff *d, const char *title)
{
    tkv_pass_view_clear_diff(self);
    self->diff = d;
    tk_ir_diff_bind(d, tk_bundle_loctab(tkv_document_get_bundle(self->doc)), NULL);
    Rows r = {.d = d, .hunks = self->view_hunks};
    for (int s = 0; s < 2; s++) {
        r.text[s] = g_string_new(NULL);
        r.orig[s] = self->orig[s];
        g_array_set_size(self->orig[s], 0);
    }
    if (fits_whole(d))
        whole_rows(&r);
    else
        cut_rows(self, &r);
    size_t n_hunks;
    const tk_hunk *hunks = hunks_of(self, &n_hunks);
    tkv_linked_scroll_link(self->linked, hunks, n_hunks);
    for (int s = 0; s < 2; s++) {
        GString *text = r.text[s];
        GtkSourceBuffer *b = tkv_code_view_new_buffer(text->str, (gssize)text->len,
                                                      language_of(tk_ir_diff_dialect(d)));
        gtk_text_buffer_create_tag(GTK_TEXT_BUFFER(b), TKV_DIFF_WORD_TAG, "background",
                                   "rgba(70,120,210,0.30)", NULL);
        tkv_code_view_set_buffer(tkv_pass_view_side_view(self, s), GTK_TEXT_BUFFER(b));
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
    /* The changes n / p step through: the library's, so that "change k of
     * n" counts what the report and `tkview diff` count. */
    tk_hunk *changes;
    size_t n_changes = tk_diff_changes(hunks, n_hunks, &changes);
    g_array_append_vals(self->changes, changes, (guint)n_changes);
    free(changes);
    tkv_chunk_map_set_hunks(self->chunk_map, hunks, n_hunks, r.rows[0], r.rows[1]);
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
    update_change_label(self);
    tkv_find_bar_refresh(self->find);
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

void tkv_pass_view_show_after_only(TkvPassView *self)
{
    gtk_label_set_text(self->change_label, "");
    gtk_label_set_text(self->stats_label, "");
}
