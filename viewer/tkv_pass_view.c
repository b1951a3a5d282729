/* tkv_pass_view.c - pass list, side-by-side diff, chunk map, live binding. */
#include "tkv_pass_view.h"

#include <stdlib.h>
#include <string.h>

#include "tkv_chunk_map.h"
#include "tkv_linked_scroll.h"
#include "tkv_pass_item.h"
#include "tkv_stack_lines.h"
#include "tkv_text.h"

struct _TkvPassView {
    GtkWidget parent_instance;

    /* template */
    GtkStack *stack;
    GtkSpinner *spinner;
    GtkLabel *message;
    GtkWidget *outer;
    GtkLabel *count_label;
    GtkListView *pass_list;
    GtkLabel *diff_title;
    GtkLabel *stats_label;
    GtkLabel *change_label;
    GtkWidget *diff_paned;
    TkvCodePane *side_a;
    TkvCodePane *side_b;
    TkvChunkMap *chunk_map;
    TkvCodePane *source_pane;

    TkvDocument *doc;
    guint kernel;
    gboolean has_kernel;
    const tk_timeline *tl;
    gboolean tl_known;     /* the timeline (or its absence) is known */
    GCancellable *cancel;

    GListStore *items;
    GtkFilterListModel *filtered;
    GtkBoolFilter *changed_filter;
    GtkMultiSelection *selection;
    gboolean changed_only;

    tk_ir_diff *diff;
    char *spec;             /* selected */
    GArray *orig[2];        /* uint32 per row: the side's line number */
    GArray *changes;        /* guint: indices of non-equal hunks */
    int cur_change;
    TkvLinkedScroll *linked;    /* the sides scrolled together */
    gboolean pending_first_change;
    gboolean diff_pending;      /* a diff is being made on a worker */
    guint generation;           /* of the last selection */
    GdkFrameClock *paint_clock; /* waiting for a frame before the first change */
    gulong paint_id;

    guint src_line;         /* the selected source line (0: none) */
    int sel_side;           /* -1: none */
    guint sel_row;
    char *sel_heading;
    tk_file_id src_file;
    GHashTable *src_bufs;   /* file + 1 -> GtkSourceBuffer */
    TkvCodePane *focused;
    gboolean updating;
};

G_DEFINE_FINAL_TYPE(TkvPassView, tkv_pass_view, GTK_TYPE_WIDGET)

enum { SIG_ANCHOR_CHANGED, SIG_LOADED, N_SIGS };
static guint sigs[N_SIGS];

static TkvCodePane *side_pane(TkvPassView *self, int side)
{
    return side ? self->side_b : self->side_a;
}

static TkvCodeView *side_view(TkvPassView *self, int side)
{
    return tkv_code_pane_get_view(side_pane(self, side));
}

static void show_message(TkvPassView *self, const char *text, gboolean busy)
{
    gtk_label_set_text(self->message, text);
    gtk_widget_set_visible(GTK_WIDGET(self->spinner), busy);
    gtk_spinner_set_spinning(self->spinner, busy);
    gtk_stack_set_visible_child_name(self->stack, "message");
}

/* ---- hunks -------------------------------------------------------------------- */

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

static void stop_waiting(TkvPassView *self)
{
    if (self->paint_clock) {
        g_signal_handler_disconnect(self->paint_clock, self->paint_id);
        g_clear_object(&self->paint_clock);
        self->paint_id = 0;
    }
}

static void on_after_paint(GdkFrameClock *clock, TkvPassView *self)
{
    stop_waiting(self);
    if (self->pending_first_change) {
        self->pending_first_change = FALSE;
        tkv_pass_view_step_change(self, 1);
    }
}

/* ---- gutters ---------------------------------------------------------------------- */

static guint32 orig_line(TkvPassView *self, int side, guint row)
{
    GArray *o = self->orig[side];
    return row >= 1 && row <= o->len ? g_array_index(o, guint32, row - 1) : 0;
}

static TkvLineState diff_line_state(guint line, guint *count, gpointer data)
{
    TkvPassView *self = g_object_get_data(G_OBJECT(data), "tkv-pass-view");
    int side = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(data), "tkv-side"));
    if (!self || !self->diff)
        return TKV_LINE_BLANK;
    guint32 l = orig_line(self, side, line);
    const tk_stack_id *ids;
    if (!l)
        return TKV_LINE_BLANK;
    return tk_ir_diff_line_stacks(self->diff, side, l, &ids) ? TKV_LINE_BOUND : TKV_LINE_UNBOUND;
}

/* ---- the diff ---------------------------------------------------------------------- */

static const char *language_of(tk_ir_dialect d)
{
    switch (d) {
    case TK_IR_MLIR: return "tkview-mlir";
    case TK_IR_LLVM: return "tkview-llvm";
    default: return NULL;
    }
}

static void clear_diff(TkvPassView *self)
{
    for (int s = 0; s < 2; s++) {
        TkvCodeView *v = side_view(self, s);
        tkv_code_view_set_matches(v, NULL, 0, FALSE);
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        GtkSourceBuffer *b = tkv_code_view_new_buffer("", 0, NULL);
        gtk_text_view_set_buffer(GTK_TEXT_VIEW(v), GTK_TEXT_BUFFER(b));
        g_object_unref(b);
        g_array_set_size(self->orig[s], 0);
        tkv_code_pane_set_title(side_pane(self, s), "", NULL);
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
        tkv_code_view_tag_lines(side_view(self, 0), ta, h[i].a0 + 1, h[i].a1 - h[i].a0);
        tkv_code_view_tag_lines(side_view(self, 1), tb, h[i].b0 + 1, h[i].b1 - h[i].b0);
    }
}

static void show_diff(TkvPassView *self, tk_ir_diff *d, const char *title)
{
    clear_diff(self);
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
        gtk_text_view_set_buffer(GTK_TEXT_VIEW(side_view(self, s)), GTK_TEXT_BUFFER(b));
        g_object_unref(b);
        g_string_free(text, TRUE);
        char *name = g_utf8_make_valid(tk_ir_diff_name(d, s), -1);
        char *t = g_strdup_printf("%s %s", s ? "after:" : "before:", name);
        tkv_code_pane_set_title(side_pane(self, s), t, name);
        g_free(t);
        g_free(name);
        tkv_code_view_refresh_gutter(side_view(self, s));
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
    stop_waiting(self);
    if (clock && gtk_widget_get_mapped(GTK_WIDGET(self))) {
        self->paint_clock = g_object_ref(clock);
        self->paint_id = g_signal_connect(clock, "after-paint", G_CALLBACK(on_after_paint), self);
        gtk_widget_queue_draw(GTK_WIDGET(self));
    } else if (self->pending_first_change) {
        self->pending_first_change = FALSE;
        self->cur_change = -1;
    }
}

static char *entry_title(const tk_timeline *tl, size_t pass, size_t sub)
{
    const tk_timeline_entry *e = sub == TK_TL_NONE ? tk_timeline_get(tl, pass)
                                                   : tk_timeline_substep(tl, pass, sub);
    return g_strdup(e ? e->pass : "?");
}

static gboolean select_source(TkvPassView *self, tk_file_id file, guint line, gboolean scroll);

/* Parses "I", "I.J" or "I-K". */
static gboolean parse_spec(const char *spec, size_t *a, size_t *sub, size_t *b)
{
    char *end;
    unsigned long long x = strtoull(spec, &end, 10);
    if (end == spec)
        return FALSE;
    *a = *b = (size_t)x;
    *sub = TK_TL_NONE;
    if (*end == '.') {
        char *e2;
        unsigned long long j = strtoull(end + 1, &e2, 10);
        if (e2 == end + 1 || *e2)
            return FALSE;
        *sub = (size_t)j;
        return TRUE;
    }
    if (*end == '-') {
        char *e2;
        unsigned long long y = strtoull(end + 1, &e2, 10);
        if (e2 == end + 1 || *e2 || y < x)
            return FALSE;
        *b = (size_t)y;
        return TRUE;
    }
    return *end == '\0';
}

static void select_rows(TkvPassView *self, size_t a, size_t sub, size_t b)
{
    guint n = g_list_model_get_n_items(G_LIST_MODEL(self->filtered));
    GtkBitset *set = gtk_bitset_new_empty();
    GtkBitset *mask = gtk_bitset_new_range(0, n);
    guint first = GTK_INVALID_LIST_POSITION;
    for (guint i = 0; i < n; i++) {
        TkvPassItem *it = g_list_model_get_item(G_LIST_MODEL(self->filtered), i);
        size_t p = tkv_pass_item_get_pass(it), s = tkv_pass_item_get_substep(it);
        gboolean hit = sub != TK_TL_NONE ? (p == a && s == sub)
                                         : (s == TK_TL_NONE && p >= a && p <= b);
        if (hit) {
            gtk_bitset_add(set, i);
            if (first == GTK_INVALID_LIST_POSITION)
                first = i;
        }
        g_object_unref(it);
    }
    self->updating = TRUE;
    gtk_selection_model_set_selection(GTK_SELECTION_MODEL(self->selection), set, mask);
    self->updating = FALSE;
    if (first != GTK_INVALID_LIST_POSITION)
        gtk_widget_activate_action(GTK_WIDGET(self->pass_list), "list.scroll-to-item", "u", first);
    gtk_bitset_unref(set);
    gtk_bitset_unref(mask);
}

typedef struct {
    TkvPassView *view;
    guint generation;
    size_t a, sub, b;
} DiffRequest;

static char *selection_title(TkvPassView *self, size_t a, size_t sub, size_t b)
{
    char *na = entry_title(self->tl, a, sub), *nb = entry_title(self->tl, b, TK_TL_NONE);
    char *title = sub != TK_TL_NONE ? g_strdup_printf("Pass %zu.%zu: %s", a, sub, na)
                  : a == b          ? g_strdup_printf("Pass %zu: %s", a, na)
                                    : g_strdup_printf("Passes %zu to %zu: %s … %s", a, b, na, nb);
    g_free(na);
    g_free(nb);
    return title;
}

static void on_diff(GObject *source, GAsyncResult *res, gpointer data)
{
    DiffRequest *r = data;
    TkvPassView *self = r->view;
    char *why = NULL;
    tk_ir_diff *d = tkv_document_diff_finish(TKV_DOCUMENT(source), res, &why);
    if (r->generation != self->generation || TKV_DOCUMENT(source) != self->doc) {
        /* A later selection, or another kernel: this diff is not wanted. */
        tk_ir_diff_free(d);
    } else {
        self->diff_pending = FALSE;
        char *title = selection_title(self, r->a, r->sub, r->b);
        if (d) {
            show_diff(self, d, title);
            /* A source line stays selected from pass to pass: its lines in
             * the new diff are highlighted. */
            if (self->src_line && self->src_file != TKV_NO_FILE)
                select_source(self, self->src_file, self->src_line, FALSE);
        } else {
            clear_diff(self);
            const tk_timeline_entry *e = tk_timeline_get(self->tl, r->a);
            GString *text = g_string_new(title);
            if (r->a == r->b && r->sub == TK_TL_NONE && e->effect == TK_EFFECT_UNKNOWN)
                g_string_append_printf(text, ": effect unknown (%s)", tk_unknown_why_name(e->why));
            else
                g_string_append_printf(text, ": %s", why ? why : "no diff");
            char *safe = g_utf8_make_valid(text->str, -1);
            gtk_label_set_text(self->diff_title, safe);
            g_free(safe);
            g_string_free(text, TRUE);
        }
        g_free(title);
        g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
    }
    g_free(why);
    g_object_unref(self);
    g_free(r);
}

gboolean tkv_pass_view_select(TkvPassView *self, const char *spec)
{
    size_t a, sub, b;
    if (!self->tl || !parse_spec(spec, &a, &sub, &b) || a >= tk_timeline_count(self->tl) ||
        b >= tk_timeline_count(self->tl) ||
        (sub != TK_TL_NONE && sub >= tk_timeline_get(self->tl, a)->n_substeps))
        return FALSE;
    g_free(self->spec);
    self->spec = g_strdup(spec);
    select_rows(self, a, sub, b);
    /* The diff is made on a worker thread; the old one stays until the new
     * one is there (a selection made meanwhile wins). */
    char *title = selection_title(self, a, sub, b);
    char *pending = g_strdup_printf("%s (reading…)", title);
    char *safe = g_utf8_make_valid(pending, -1);
    gtk_label_set_text(self->diff_title, safe);
    g_free(safe);
    g_free(pending);
    g_free(title);
    g_free(self->sel_heading);
    self->sel_heading = NULL;
    self->diff_pending = TRUE;
    DiffRequest *r = g_new0(DiffRequest, 1);
    r->view = g_object_ref(self);
    r->generation = ++self->generation;
    r->a = a;
    r->sub = sub;
    r->b = b;
    tkv_document_diff_async(self->doc, self->tl, a, sub, b, NULL, on_diff, r);
    g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
    return TRUE;
}

/* ---- the list ----------------------------------------------------------------------- */

static void update_count(TkvPassView *self)
{
    if (!self->tl)
        return;
    size_t n = tk_timeline_count(self->tl), changed = 0;
    for (size_t i = 0; i < n; i++)
        changed += tk_timeline_get(self->tl, i)->effect == TK_EFFECT_CHANGED;
    char *t = g_strdup_printf("%zu passes, %zu changed", n, changed);
    gtk_label_set_text(self->count_label, t);
    g_free(t);
}

static void on_selection_changed(GtkSelectionModel *model, guint pos, guint n, TkvPassView *self)
{
    if (self->updating)
        return;
    GtkBitset *set = gtk_selection_model_get_selection(model);
    guint count = (guint)gtk_bitset_get_size(set);
    if (count) {
        TkvPassItem *first = g_list_model_get_item(G_LIST_MODEL(self->filtered),
                                                   gtk_bitset_get_minimum(set));
        TkvPassItem *last = g_list_model_get_item(G_LIST_MODEL(self->filtered),
                                                  gtk_bitset_get_maximum(set));
        char *spec;
        if (count == 1 || first == last)
            spec = g_strdup(tkv_pass_item_get_spec(first));
        else
            spec = g_strdup_printf("%zu-%zu", tkv_pass_item_get_pass(first),
                                   tkv_pass_item_get_pass(last));
        if (g_strcmp0(spec, self->spec) != 0)
            gtk_widget_activate_action(GTK_WIDGET(self), "win.select-pass", "s", spec);
        g_free(spec);
        g_object_unref(first);
        g_object_unref(last);
    }
    gtk_bitset_unref(set);
}

static void setup_row(GtkSignalListItemFactory *f, GtkListItem *li, gpointer data)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *index = gtk_label_new(NULL);
    gtk_widget_add_css_class(index, "dim-label");
    gtk_widget_add_css_class(index, "tkv-pass-count");
    gtk_label_set_width_chars(GTK_LABEL(index), 4);
    gtk_label_set_xalign(GTK_LABEL(index), 1);
    gtk_label_set_yalign(GTK_LABEL(index), 0);
    GtkWidget *col = gtk_box_new(GTK_ORIENTATION_VERTICAL, 1);
    gtk_widget_set_hexpand(col, TRUE);
    GtkWidget *title = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(title), 0);
    gtk_label_set_ellipsize(GTK_LABEL(title), PANGO_ELLIPSIZE_END);
    GtkWidget *sub = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(sub), 0);
    gtk_label_set_ellipsize(GTK_LABEL(sub), PANGO_ELLIPSIZE_END);
    gtk_widget_add_css_class(sub, "dim-label");
    gtk_widget_add_css_class(sub, "caption");
    gtk_box_append(GTK_BOX(col), title);
    gtk_box_append(GTK_BOX(col), sub);
    GtkWidget *effect = gtk_label_new(NULL);
    gtk_widget_add_css_class(effect, "tkv-pass-count");
    gtk_label_set_yalign(GTK_LABEL(effect), 0);
    gtk_box_append(GTK_BOX(box), index);
    gtk_box_append(GTK_BOX(box), col);
    gtk_box_append(GTK_BOX(box), effect);
    gtk_list_item_set_child(li, box);
}

static void bind_row(GtkSignalListItemFactory *f, GtkListItem *li, gpointer data)
{
    TkvPassItem *it = gtk_list_item_get_item(li);
    GtkWidget *box = gtk_list_item_get_child(li);
    GtkWidget *index = gtk_widget_get_first_child(box);
    GtkWidget *col = gtk_widget_get_next_sibling(index);
    GtkWidget *effect = gtk_widget_get_next_sibling(col);
    GtkWidget *title = gtk_widget_get_first_child(col);
    GtkWidget *sub = gtk_widget_get_next_sibling(title);
    gtk_label_set_text(GTK_LABEL(index), tkv_pass_item_get_spec(it));
    gtk_label_set_text(GTK_LABEL(title), tkv_pass_item_get_title(it));
    gtk_widget_set_tooltip_text(title, tkv_pass_item_get_title(it));
    gtk_label_set_text(GTK_LABEL(sub), tkv_pass_item_get_subtitle(it));
    gtk_label_set_text(GTK_LABEL(effect), tkv_pass_item_get_effect_text(it));
    gtk_widget_set_margin_start(box, tkv_pass_item_get_substep(it) == TK_TL_NONE ? 0 : 16);
    tk_effect e = tkv_pass_item_get_effect(it);
    gtk_widget_remove_css_class(effect, "dim-label");
    gtk_widget_remove_css_class(effect, "tkv-pass-added");
    gtk_widget_add_css_class(effect, e == TK_EFFECT_CHANGED ? "tkv-pass-added" : "dim-label");
}

void tkv_pass_view_set_changed_only(TkvPassView *self, gboolean changed_only)
{
    self->changed_only = changed_only;
    gtk_filter_list_model_set_filter(self->filtered,
                                     changed_only ? GTK_FILTER(self->changed_filter) : NULL);
    size_t a, sub, b;
    if (self->spec && parse_spec(self->spec, &a, &sub, &b))
        select_rows(self, a, sub, b);
}

/* ---- loading ------------------------------------------------------------------------- */

static void fill_list(TkvPassView *self)
{
    g_list_store_remove_all(self->items);
    size_t n = tk_timeline_count(self->tl);
    for (size_t i = 0; i < n; i++) {
        TkvPassItem *it = tkv_pass_item_new(self->tl, i, TK_TL_NONE);
        g_list_store_append(self->items, it);
        g_object_unref(it);
        for (size_t j = 0; j < tk_timeline_get(self->tl, i)->n_substeps; j++) {
            it = tkv_pass_item_new(self->tl, i, j);
            g_list_store_append(self->items, it);
            g_object_unref(it);
        }
    }
    update_count(self);
}

static void on_timeline(GObject *source, GAsyncResult *res, gpointer data)
{
    TkvPassView *self = data;
    GError *error = NULL;
    const tk_timeline *tl = tkv_document_timeline_finish(TKV_DOCUMENT(source), res, &error);
    if (error || TKV_DOCUMENT(source) != self->doc) {
        g_clear_error(&error);
        g_object_unref(self);
        return;
    }
    self->tl = tl;
    self->tl_known = TRUE;
    if (!tl) {
        show_message(self, "No pass dumps came with this kernel.\n\nCapture with "
                           "MLIR_ENABLE_DUMP=1 (and MLIR_DUMP_PATH) and LLVM_IR_ENABLE_DUMP=1, "
                           "keeping stderr, or use tkview capture, to see what each compiler "
                           "pass changed.", FALSE);
    } else {
        fill_list(self);
        gtk_stack_set_visible_child_name(self->stack, "main");
        /* Start on the first pass that changed something. */
        char spec[32] = "0";
        for (size_t i = 0; i < tk_timeline_count(tl); i++)
            if (tk_timeline_get(tl, i)->effect == TK_EFFECT_CHANGED) {
                g_snprintf(spec, sizeof spec, "%zu", i);
                break;
            }
        tkv_pass_view_select(self, spec);
    }
    g_signal_emit(self, sigs[SIG_LOADED], 0);
    g_object_unref(self);
}

void tkv_pass_view_activate(TkvPassView *self)
{
    if (!self->has_kernel || self->tl_known || self->cancel)
        return;
    self->cancel = g_cancellable_new();
    show_message(self, "Reading the pass dumps…", TRUE);
    tkv_document_timeline_async(self->doc, self->kernel, self->cancel, on_timeline,
                                g_object_ref(self));
}

/* ---- source and binding ---------------------------------------------------------------- */

static GtkSourceBuffer *source_buffer(TkvPassView *self, tk_file_id file)
{
    GtkSourceBuffer *b = g_hash_table_lookup(self->src_bufs, GUINT_TO_POINTER(file + 1));
    if (b)
        return b;
    size_t len;
    const char *text = tkv_document_get_source_text(self->doc, file, &len);
    const char *path = tkv_document_get_file_path(self->doc, file);
    b = tkv_code_view_new_buffer(text ? text : "", text ? (gssize)len : 0,
                                 g_str_has_suffix(path, ".py") ? "python3" : NULL);
    g_hash_table_insert(self->src_bufs, GUINT_TO_POINTER(file + 1), b);
    return b;
}

static void show_source_file(TkvPassView *self, tk_file_id file)
{
    if (file == self->src_file || file == TKV_NO_FILE)
        return;
    self->src_file = file;
    TkvCodeView *v = tkv_code_pane_get_view(self->source_pane);
    tkv_code_view_set_matches(v, NULL, 0, FALSE);
    tkv_code_view_set_selected(v, 0, FALSE, FALSE);
    gtk_text_view_set_buffer(GTK_TEXT_VIEW(v), GTK_TEXT_BUFFER(source_buffer(self, file)));
    const char *local = tkv_document_get_source_path(self->doc, file);
    const char *path = tkv_document_get_file_path(self->doc, file);
    char *t = local ? g_strdup(local) : g_strdup_printf("not at hand: %s", path);
    char *safe = g_utf8_make_valid(t, -1);
    tkv_code_pane_set_title(self->source_pane, safe, path);
    g_free(safe);
    g_free(t);
    const tk_file_id *files;
    size_t nf = tkv_document_get_files(self->doc, self->kernel, &files);
    for (size_t i = 0; i < nf; i++)
        if (files[i] == file) {
            self->updating = TRUE;
            gtk_drop_down_set_selected(tkv_code_pane_get_selector(self->source_pane), (guint)i);
            self->updating = FALSE;
        }
}

gboolean tkv_pass_view_show_file(TkvPassView *self, tk_file_id file)
{
    if (!self->has_kernel)
        return FALSE;
    show_source_file(self, file);
    return TRUE;
}

gboolean tkv_pass_view_select_diff_line(TkvPassView *self, int side, guint row)
{
    if (!self->diff || side < 0 || side > 1 || row < 1 || row > self->orig[side]->len)
        return FALSE;
    self->sel_side = side;
    self->sel_row = row;
    self->src_line = 0;
    TkvCodeView *v = side_view(self, side), *o = side_view(self, !side);
    tkv_code_view_set_matches(v, NULL, 0, FALSE);
    tkv_code_view_set_selected(v, row, TRUE, TRUE);
    tkv_code_view_set_selected(o, 0, FALSE, FALSE);
    tkv_code_view_set_matches(o, NULL, 0, FALSE);
    guint32 line = orig_line(self, side, row);
    g_free(self->sel_heading);
    self->sel_heading = g_strdup_printf("%s the pass: line %u of %s", side ? "After" : "Before",
                                        line, tk_ir_diff_name(self->diff, side));
    /* The source lines of its frames in the file shown, or in the file of
     * its outermost frame that is at hand. */
    const tk_stack_id *ids;
    size_t n = tk_ir_diff_line_stacks(self->diff, side, line, &ids);
    tk_file_id file;
    GArray *lines = tkv_stack_lines_to_show(self->doc, ids, n, self->src_file, &file);
    show_source_file(self, file);
    TkvCodeView *sv = tkv_code_pane_get_view(self->source_pane);
    tkv_code_view_set_selected(sv, 0, FALSE, FALSE);
    tkv_code_view_set_matches(sv, (const guint32 *)(void *)lines->data, lines->len, TRUE);
    tkv_code_pane_set_empty_text(self->source_pane, n ? "no line of this file" : "no location");
    g_array_unref(lines);
    g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
    return TRUE;
}

gboolean tkv_pass_view_select_source(TkvPassView *self, tk_file_id file, guint line)
{
    return select_source(self, file, line, TRUE);
}

static gboolean select_source(TkvPassView *self, tk_file_id file, guint line, gboolean scroll)
{
    if (!self->has_kernel || line == 0)
        return FALSE;
    show_source_file(self, file);
    self->src_line = line;
    TkvCodeView *sv = tkv_code_pane_get_view(self->source_pane);
    tkv_code_view_set_matches(sv, NULL, 0, FALSE);
    tkv_code_view_set_selected(sv, line, TRUE, TRUE);
    tkv_code_pane_set_empty_text(self->source_pane, "");
    self->sel_side = -1;
    if (self->diff) {
        /* The rows of each side whose inline stacks pass through the line
         * ("this line and what it called"), from the stacks the library read. */
        for (int s = 0; s < 2; s++) {
            GArray *rows = g_array_new(FALSE, FALSE, sizeof(guint32));
            for (guint r = 1; r <= self->orig[s]->len; r++) {
                const tk_stack_id *ids;
                size_t n = tk_ir_diff_line_stacks(self->diff, s, orig_line(self, s, r), &ids);
                if (n && tkv_stack_lines_name(self->doc, ids, n, file, line))
                    g_array_append_val(rows, r);
            }
            TkvCodeView *v = side_view(self, s);
            tkv_code_view_set_selected(v, 0, FALSE, FALSE);
            tkv_code_view_set_matches(v, (const guint32 *)(void *)rows->data, rows->len,
                                      scroll && s == 0);
            tkv_code_pane_set_empty_text(side_pane(self, s), "no line bound");
            g_array_unref(rows);
        }
        const guint32 *m;
        if (scroll && !tkv_code_view_get_matches(side_view(self, 0), &m) &&
            tkv_code_view_get_matches(side_view(self, 1), &m))
            tkv_linked_scroll_to_row(self->linked, 1, m[0]);
    }
    g_free(self->sel_heading);
    self->sel_heading = NULL;
    g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
    return TRUE;
}

size_t tkv_pass_view_get_selected_stacks(TkvPassView *self, const tk_stack_id **ids,
                                         const char **heading)
{
    *heading = self->sel_heading;
    if (!self->diff || self->sel_side < 0) {
        *ids = NULL;
        return 0;
    }
    return tk_ir_diff_line_stacks(self->diff, self->sel_side,
                                  orig_line(self, self->sel_side, self->sel_row), ids);
}

TkvCodePane *tkv_pass_view_get_focused_pane(TkvPassView *self)
{
    return self->focused ? self->focused : self->side_a;
}

gboolean tkv_pass_view_step_match(TkvPassView *self, int delta)
{
    TkvCodePane *order[4] = {tkv_pass_view_get_focused_pane(self), self->side_a, self->side_b,
                             self->source_pane};
    for (int i = 0; i < 4; i++)
        if (tkv_code_view_step_match(tkv_code_pane_get_view(order[i]), delta))
            return TRUE;
    return FALSE;
}

/* ---- user input -> actions ------------------------------------------------------------- */

static void on_side_line(TkvCodeView *view, guint line, TkvPassView *self)
{
    int side = view == side_view(self, 1);
    gtk_widget_activate_action(GTK_WIDGET(self), "win.select-diff-line", "(su)",
                               side ? "b" : "a", line);
}

static void on_source_line(TkvCodeView *view, guint line, TkvPassView *self)
{
    const char *path = tkv_document_get_file_path(self->doc, self->src_file);
    if (path)
        gtk_widget_activate_action(GTK_WIDGET(self), "win.select-source-location", "(su)", path,
                                   line);
}

static void on_file_selected(GtkDropDown *dd, GParamSpec *pspec, TkvPassView *self)
{
    const tk_file_id *files;
    size_t nf = self->has_kernel ? tkv_document_get_files(self->doc, self->kernel, &files) : 0;
    guint pos = gtk_drop_down_get_selected(dd);
    if (self->updating || pos >= nf)
        return;
    gtk_widget_activate_action(GTK_WIDGET(self), "win.source-file", "s",
                               tkv_document_get_file_path(self->doc, files[pos]));
}

static void on_focused(TkvCodePane *pane, TkvPassView *self) { self->focused = pane; }

static void on_map_scroll(TkvChunkMap *map, double fraction, TkvPassView *self)
{
    tkv_linked_scroll_to_fraction(self->linked, 1, fraction);
}

/* ---- public -------------------------------------------------------------------------- */

void tkv_pass_view_set_kernel(TkvPassView *self, TkvDocument *doc, guint kernel)
{
    if (self->cancel) {
        g_cancellable_cancel(self->cancel);
        g_clear_object(&self->cancel);
    }
    clear_diff(self);
    TkvCodeView *sv = tkv_code_pane_get_view(self->source_pane);
    tkv_code_view_set_matches(sv, NULL, 0, FALSE);
    tkv_code_view_set_selected(sv, 0, FALSE, FALSE);
    GtkSourceBuffer *empty = tkv_code_view_new_buffer("", 0, NULL);
    gtk_text_view_set_buffer(GTK_TEXT_VIEW(sv), GTK_TEXT_BUFFER(empty));
    g_object_unref(empty);
    g_hash_table_remove_all(self->src_bufs);
    g_list_store_remove_all(self->items);
    g_clear_pointer(&self->spec, g_free);
    self->generation++;
    self->diff_pending = FALSE;
    g_set_object(&self->doc, doc);
    self->kernel = kernel;
    self->has_kernel = doc && tkv_document_get_kernel(doc, kernel);
    self->src_file = TKV_NO_FILE;
    self->src_line = 0;
    gboolean built = FALSE;
    self->tl = self->has_kernel ? tkv_document_get_timeline(doc, kernel, &built) : NULL;
    self->tl_known = FALSE;
    GtkStringList *files = gtk_string_list_new(NULL);
    if (self->has_kernel) {
        const tk_file_id *f;
        size_t nf = tkv_document_get_files(doc, kernel, &f);
        for (size_t i = 0; i < nf; i++) {
            char *base = g_path_get_basename(tkv_document_get_file_path(doc, f[i]));
            char *safe = g_utf8_make_valid(base, -1);
            gtk_string_list_append(files, safe);
            g_free(base);
            g_free(safe);
        }
        self->updating = TRUE;
        gtk_drop_down_set_model(tkv_code_pane_get_selector(self->source_pane), G_LIST_MODEL(files));
        self->updating = FALSE;
        if (nf)
            show_source_file(self, f[0]);
    }
    g_object_unref(files);
    show_message(self, self->has_kernel ? "Select pass mode to read the pass dumps." : "", FALSE);
    if (gtk_widget_get_mapped(GTK_WIDGET(self)))
        tkv_pass_view_activate(self);
}

/* ---- what is shown, for the tests -------------------------------------------------------- */

const char *tkv_pass_view_get_load_state(TkvPassView *self)
{
    return !self->has_kernel ? "none" :
           !self->tl_known   ? (self->cancel ? "loading" : "idle") :
           !self->tl         ? "no-passes" : "ready";
}

const char *tkv_pass_view_get_message(TkvPassView *self) { return gtk_label_get_text(self->message); }
const tk_timeline *tkv_pass_view_get_timeline(TkvPassView *self) { return self->tl; }

const char *tkv_pass_view_get_count_text(TkvPassView *self)
{
    return gtk_label_get_text(self->count_label);
}

guint tkv_pass_view_get_listed_count(TkvPassView *self)
{
    return g_list_model_get_n_items(G_LIST_MODEL(self->filtered));
}

gboolean tkv_pass_view_get_changed_only(TkvPassView *self) { return self->changed_only; }

char **tkv_pass_view_get_selected_rows(TkvPassView *self)
{
    GPtrArray *specs = g_ptr_array_new();
    GtkBitset *set = gtk_selection_model_get_selection(GTK_SELECTION_MODEL(self->selection));
    GtkBitsetIter iter;
    guint pos;
    for (gboolean ok = gtk_bitset_iter_init_first(&iter, set, &pos); ok;
         ok = gtk_bitset_iter_next(&iter, &pos)) {
        TkvPassItem *it = g_list_model_get_item(G_LIST_MODEL(self->filtered), pos);
        g_ptr_array_add(specs, g_strdup(tkv_pass_item_get_spec(it)));
        g_object_unref(it);
    }
    gtk_bitset_unref(set);
    g_ptr_array_add(specs, NULL);
    return (char **)g_ptr_array_free(specs, FALSE);
}

const char *tkv_pass_view_get_selection(TkvPassView *self) { return self->spec; }
gboolean tkv_pass_view_get_diff_pending(TkvPassView *self) { return self->diff_pending; }

const char *tkv_pass_view_get_diff_title(TkvPassView *self)
{
    return gtk_label_get_text(self->diff_title);
}

const tk_ir_diff *tkv_pass_view_get_diff(TkvPassView *self) { return self->diff; }

int tkv_pass_view_get_change(TkvPassView *self, guint *count)
{
    *count = self->changes->len;
    return self->cur_change;
}

const char *tkv_pass_view_get_change_text(TkvPassView *self)
{
    return gtk_label_get_text(self->change_label);
}

TkvChunkMap *tkv_pass_view_get_chunk_map(TkvPassView *self) { return self->chunk_map; }
TkvLinkedScroll *tkv_pass_view_get_linked_scroll(TkvPassView *self) { return self->linked; }
TkvCodePane *tkv_pass_view_get_side(TkvPassView *self, int side) { return side_pane(self, side); }
TkvCodePane *tkv_pass_view_get_source_pane(TkvPassView *self) { return self->source_pane; }
tk_file_id tkv_pass_view_get_source_file(TkvPassView *self) { return self->src_file; }

/* ---- GObject ------------------------------------------------------------------------------ */

static void tkv_pass_view_map(GtkWidget *widget)
{
    GTK_WIDGET_CLASS(tkv_pass_view_parent_class)->map(widget);
    TkvPassView *self = TKV_PASS_VIEW(widget);
    tkv_linked_scroll_attach(self->linked);
    tkv_chunk_map_set_adjustment(self->chunk_map, gtk_scrollable_get_vadjustment(
                                                      GTK_SCROLLABLE(side_view(self, 1))));
}

static void tkv_pass_view_dispose(GObject *object)
{
    TkvPassView *self = TKV_PASS_VIEW(object);
    if (self->cancel) {
        g_cancellable_cancel(self->cancel);
        g_clear_object(&self->cancel);
    }
    stop_waiting(self);
    g_clear_object(&self->linked);
    g_clear_pointer(&self->diff, tk_ir_diff_free);
    gtk_widget_dispose_template(GTK_WIDGET(self), TKV_TYPE_PASS_VIEW);
    g_clear_object(&self->selection);
    g_clear_object(&self->items);
    g_clear_object(&self->doc);
    G_OBJECT_CLASS(tkv_pass_view_parent_class)->dispose(object);
}

static void tkv_pass_view_finalize(GObject *object)
{
    TkvPassView *self = TKV_PASS_VIEW(object);
    for (int s = 0; s < 2; s++)
        g_array_unref(self->orig[s]);
    g_array_unref(self->changes);
    g_hash_table_unref(self->src_bufs);
    g_free(self->spec);
    g_free(self->sel_heading);
    G_OBJECT_CLASS(tkv_pass_view_parent_class)->finalize(object);
}

static void tkv_pass_view_class_init(TkvPassViewClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_pass_view_dispose;
    oc->finalize = tkv_pass_view_finalize;
    wc->map = tkv_pass_view_map;
    sigs[SIG_ANCHOR_CHANGED] = g_signal_new("anchor-changed", G_TYPE_FROM_CLASS(klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
    sigs[SIG_LOADED] = g_signal_new("loaded", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);
    g_type_ensure(TKV_TYPE_CODE_PANE);
    g_type_ensure(TKV_TYPE_CHUNK_MAP);
    gtk_widget_class_set_template_from_resource(wc, "/org/tkview/Viewer/ui/tkv_pass_view.ui");
    gtk_widget_class_bind_template_child(wc, TkvPassView, stack);
    gtk_widget_class_bind_template_child(wc, TkvPassView, spinner);
    gtk_widget_class_bind_template_child(wc, TkvPassView, message);
    gtk_widget_class_bind_template_child(wc, TkvPassView, outer);
    gtk_widget_class_bind_template_child(wc, TkvPassView, count_label);
    gtk_widget_class_bind_template_child(wc, TkvPassView, pass_list);
    gtk_widget_class_bind_template_child(wc, TkvPassView, diff_title);
    gtk_widget_class_bind_template_child(wc, TkvPassView, stats_label);
    gtk_widget_class_bind_template_child(wc, TkvPassView, change_label);
    gtk_widget_class_bind_template_child(wc, TkvPassView, diff_paned);
    gtk_widget_class_bind_template_child(wc, TkvPassView, side_a);
    gtk_widget_class_bind_template_child(wc, TkvPassView, side_b);
    gtk_widget_class_bind_template_child(wc, TkvPassView, chunk_map);
    gtk_widget_class_bind_template_child(wc, TkvPassView, source_pane);
    gtk_widget_class_set_css_name(wc, "tkvpassview");
}

static void tkv_pass_view_init(TkvPassView *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    self->orig[0] = g_array_new(FALSE, FALSE, sizeof(guint32));
    self->orig[1] = g_array_new(FALSE, FALSE, sizeof(guint32));
    self->changes = g_array_new(FALSE, FALSE, sizeof(guint));
    self->cur_change = -1;
    self->sel_side = -1;
    self->src_file = TKV_NO_FILE;
    self->src_bufs = g_hash_table_new_full(NULL, NULL, NULL, g_object_unref);
    self->linked = tkv_linked_scroll_new(GTK_TEXT_VIEW(side_view(self, 0)),
                                         GTK_TEXT_VIEW(side_view(self, 1)));

    self->items = g_list_store_new(TKV_TYPE_PASS_ITEM);
    self->changed_filter = gtk_bool_filter_new(
        gtk_property_expression_new(TKV_TYPE_PASS_ITEM, NULL, "changed"));
    self->filtered = gtk_filter_list_model_new(G_LIST_MODEL(g_object_ref(self->items)), NULL);
    g_object_set_data_full(G_OBJECT(self->filtered), "tkv-filter", self->changed_filter,
                           g_object_unref);
    self->selection = gtk_multi_selection_new(G_LIST_MODEL(self->filtered));
    g_signal_connect(self->selection, "selection-changed", G_CALLBACK(on_selection_changed), self);
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    g_signal_connect(factory, "setup", G_CALLBACK(setup_row), NULL);
    g_signal_connect(factory, "bind", G_CALLBACK(bind_row), NULL);
    gtk_list_view_set_factory(self->pass_list, factory);
    g_object_unref(factory);
    gtk_list_view_set_model(self->pass_list, GTK_SELECTION_MODEL(self->selection));

    for (int s = 0; s < 2; s++) {
        TkvCodePane *p = side_pane(self, s);
        TkvCodeView *v = tkv_code_pane_get_view(p);
        gtk_widget_set_visible(GTK_WIDGET(tkv_code_pane_get_selector(p)), FALSE);
        g_object_set_data(G_OBJECT(v), "tkv-pass-view", self);
        g_object_set_data(G_OBJECT(v), "tkv-side", GINT_TO_POINTER(s));
        tkv_code_view_set_line_state_func(v, diff_line_state, v, FALSE);
        g_signal_connect(v, "line-selected", G_CALLBACK(on_side_line), self);
        g_signal_connect(p, "focused", G_CALLBACK(on_focused), self);
    }
    g_signal_connect(tkv_code_pane_get_view(self->source_pane), "line-selected",
                     G_CALLBACK(on_source_line), self);
    g_signal_connect(tkv_code_pane_get_selector(self->source_pane), "notify::selected",
                     G_CALLBACK(on_file_selected), self);
    g_signal_connect(self->source_pane, "focused", G_CALLBACK(on_focused), self);
    g_signal_connect(self->chunk_map, "scroll-to", G_CALLBACK(on_map_scroll), self);
    show_message(self, "", FALSE);
}
