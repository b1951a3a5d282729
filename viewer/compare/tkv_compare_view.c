/* tkv_compare_view.c - compare mode (tkv_compare_view.h): the widget, its
 * actions and keys, the comparison fetched from the document's worker, and
 * what it shows of it (a row's diff: tkv_compare_view_diff.c). */
#include "compare/tkv_compare_view_private.h"

#include <string.h>

#include "document/tkv_text.h"
#include "widgets/tkv_action_error.h"
#include "widgets/tkv_view_shortcuts.h"

G_DEFINE_FINAL_TYPE(TkvCompareView, tkv_compare_view, GTK_TYPE_WIDGET)

char *tkv_compare_view_safe_text(const char *text, size_t len)
{
    GString *out = g_string_sized_new(len + 1);
    const char *p = text, *end = text + len;
    while (p <= end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        if (p > text)
            g_string_append_c(out, '\n');
        tkv_text_append_line(out, p, (size_t)(e - p));
        p = e + 1;
    }
    return g_string_free(out, FALSE);
}

static void set_message(TkvCompareView *self, const char *state, const char *text,
                        gboolean busy)
{
    self->state = state;
    g_free(self->message_text);
    self->message_text = g_strdup(text);
    gtk_label_set_text(self->message, text);
    gtk_spinner_set_spinning(self->spinner, busy);
    gtk_widget_set_visible(GTK_WIDGET(self->spinner), busy);
    gtk_stack_set_visible_child_name(self->stack, "message");
}

static void set_first(TkvCompareView *self, const char *text)
{
    g_free(self->first_text);
    self->first_text = g_strdup(text ? text : "");
    gtk_label_set_text(self->first_label, self->first_text);
}

static void clear_compare(TkvCompareView *self)
{
    if (self->cancel) {
        g_cancellable_cancel(self->cancel);
        g_clear_object(&self->cancel);
    }
    if (self->diff_cancel) {
        g_cancellable_cancel(self->diff_cancel);
        g_clear_object(&self->diff_cancel);
    }
    g_clear_pointer(&self->diff, tk_ir_diff_free);
    g_clear_pointer(&self->hold, tkv_compare_hold_release);
    self->diff_pending = FALSE;
    self->row = -1;
    GtkWidget *c;
    while ((c = gtk_widget_get_first_child(GTK_WIDGET(self->rows_list))))
        gtk_list_box_remove(self->rows_list, c);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(self->facts_view), "", -1);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(self->a_view), "", -1);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(self->b_view), "", -1);
    set_first(self, "");
}

/* ---- the pair ------------------------------------------------------------------- */

static void fill_others(TkvCompareView *self)
{
    self->updating = TRUE;
    guint n = g_list_model_get_n_items(G_LIST_MODEL(self->others));
    gtk_string_list_splice(self->others, 0, n, NULL);
    g_array_set_size(self->other_index, 0);
    guint selected = GTK_INVALID_LIST_POSITION;
    if (self->has_kernel) {
        size_t nk = tkv_document_get_kernel_count(self->doc);
        for (size_t i = 0; i < nk; i++) {
            if (i == self->kernel)
                continue;
            const tk_kernel *k = tkv_document_get_kernel(self->doc, i);
            const tk_kernel_meta *m = tk_kernel_metadata(k);
            GString *s = g_string_new(NULL);
            g_string_append_printf(s, "%zu  %s  %.10s", i, tk_kernel_name(k), tk_kernel_hash(k));
            if (m->num_warps >= 0)
                g_string_append_printf(s, "  %" G_GINT64_FORMAT " warps", (gint64)m->num_warps);
            if (m->num_stages >= 0)
                g_string_append_printf(s, "  %" G_GINT64_FORMAT " stages", (gint64)m->num_stages);
            char *t = tkv_compare_view_safe_text(s->str, s->len);
            gtk_string_list_append(self->others, t);
            g_free(t);
            g_string_free(s, TRUE);
            guint v = (guint)i;
            g_array_append_val(self->other_index, v);
            if ((int)i == self->other)
                selected = self->other_index->len - 1;
        }
    }
    gtk_drop_down_set_selected(self->other_dropdown, selected);
    self->updating = FALSE;
}

/* By default another configuration of A: the next kernel of its name. */
static int default_other(TkvCompareView *self)
{
    size_t nk = tkv_document_get_kernel_count(self->doc);
    const char *name = tk_kernel_name(tkv_document_get_kernel(self->doc, self->kernel));
    for (size_t d = 1; d < nk; d++) {
        size_t i = (self->kernel + d) % nk;
        if (strcmp(tk_kernel_name(tkv_document_get_kernel(self->doc, i)), name) == 0)
            return (int)i;
    }
    return -1;
}

void tkv_compare_view_set_kernel(TkvCompareView *self, TkvDocument *doc, guint kernel)
{
    clear_compare(self);
    g_set_object(&self->doc, doc);
    self->has_kernel = doc && kernel < tkv_document_get_kernel_count(doc);
    self->kernel = kernel;
    self->other = self->has_kernel ? default_other(self) : -1;
    fill_others(self);
    gtk_widget_action_set_enabled(GTK_WIDGET(self), "compare-view.compare-with", self->has_kernel);
    if (!self->has_kernel)
        set_message(self, "none", "", FALSE);
    else if (self->other < 0)
        set_message(self, "no-other", "This kernel has no other configuration: choose a kernel "
                                      "to compare it with in \u201cCompare with\u201d.", FALSE);
    else
        set_message(self, "idle", "", FALSE);
    /* Another kernel while compare mode is on screen: compare at once. */
    if (gtk_widget_get_mapped(GTK_WIDGET(self)))
        tkv_compare_view_activate(self);
}

/* ---- what is shown ---------------------------------------------------------------- */

static const char *mark(tk_compare_verdict v)
{
    return v == TK_COMPARE_SAME ? "=" : v == TK_COMPARE_DIFFERENT ? "\u2260" : "?";
}

static void fill_rows(TkvCompareView *self)
{
    tk_compare *cmp = cmp_of(self);
    size_t first = tk_compare_first_divergence(cmp, NULL);
    for (size_t i = 0; i < tk_compare_row_count(cmp); i++) {
        const tk_compare_row *r = tk_compare_row_get(cmp, i);
        char a[16] = "\u2013", b[16] = "\u2013";
        if (r->pass[0] != TK_COMPARE_NONE)
            g_snprintf(a, sizeof a, "%zu", r->pass[0]);
        if (r->pass[1] != TK_COMPARE_NONE)
            g_snprintf(b, sizeof b, "%zu", r->pass[1]);
        char *text = g_strdup_printf(
            "%4zu %4s %4s  %-12s %s %s  %s%s%s%s%s", i, a, b, tk_pass_level_name(r->level),
            mark(r->output), r->align == TK_COMPARE_BOTH ? mark(r->effect) : " ", r->name,
            r->arg[0] ? " (" : "", r->arg, r->arg[0] ? ")" : "",
            r->align == TK_COMPARE_ONLY_A   ? "  [only A]"
            : r->align == TK_COMPARE_ONLY_B ? "  [only B]"
                                            : "");
        char *safe = tkv_compare_view_safe_text(text, strlen(text));
        GtkWidget *l = gtk_label_new(safe);
        gtk_label_set_xalign(GTK_LABEL(l), 0);
        gtk_label_set_ellipsize(GTK_LABEL(l), PANGO_ELLIPSIZE_END);
        gtk_widget_add_css_class(l, "monospace");
        if (i == first)
            gtk_widget_add_css_class(l, "tkv-compare-first");
        if (r->align != TK_COMPARE_BOTH)
            gtk_widget_add_css_class(l, "tkv-compare-only");
        gtk_list_box_append(self->rows_list, l);
        g_free(text);
        g_free(safe);
    }
}

static void put(GString *s, const char *text)
{
    g_string_append(s, text ? text : "\u2013");
}

static void fill_facts(TkvCompareView *self)
{
    tk_compare *cmp = cmp_of(self);
    const tk_config *c[2] = {tk_compare_config(cmp, 0), tk_compare_config(cmp, 1)};
    GString *s = g_string_new("Configuration          A                    B\n");
    for (int side = 0; side < 2; side++)
        for (size_t i = 0; i < tk_config_count(c[side]); i++) {
            const tk_config_item *it = tk_config_get(c[side], i);
            const tk_config_item *o = tk_config_find(c[!side], it->name);
            if (side == 1 && o)
                continue;
            const tk_config_item *a = side ? o : it, *b = side ? it : o;
            gboolean differs = !a || !b || strcmp(a->value, b->value) != 0;
            g_string_append_printf(s, "%s %-20s ", differs ? "*" : " ", it->name);
            put(s, a ? a->value : NULL);
            g_string_append(s, "  |  ");
            put(s, b ? b->value : NULL);
            g_string_append_c(s, '\n');
        }
    g_string_append(s, "\nFinal stages (A -> B)\n");
    for (int k = 0; k < TK_STAGE_COUNT; k++) {
        const tk_compare_stage *st = tk_compare_final_stage(cmp, (tk_stage_kind)k);
        if (!st->have[0] && !st->have[1])
            continue;
        g_string_append_printf(s, "  %-6s ", tk_stage_kind_name((tk_stage_kind)k));
        if (st->verdict == TK_COMPARE_SAME)
            g_string_append(s, "the same\n");
        else if (st->verdict == TK_COMPARE_DIFFERENT)
            g_string_append_printf(s, "+%u -%u\n", st->stats.added, st->stats.removed);
        else
            g_string_append_printf(s, "only %s has it\n", st->have[0] ? "A" : "B");
    }
    size_t n;
    const tk_compare_line *l = tk_compare_lines(cmp, &n);
    if (n) {
        g_string_append(s, "\nSASS per source line (innermost frame)\n      A      B  line\n");
        for (size_t i = 0; i < n; i++) {
            const char *base = strrchr(l[i].file, '/');
            g_string_append_printf(s, "%s %5u  %5u  %s:%u\n",
                                   l[i].sass[0] != l[i].sass[1] ? "*" : " ", l[i].sass[0],
                                   l[i].sass[1], base ? base + 1 : l[i].file, l[i].line);
        }
    }
    char *safe = tkv_compare_view_safe_text(s->str, s->len);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(self->facts_view), safe, -1);
    g_free(safe);
    g_string_free(s, TRUE);
}

static void fill_first(TkvCompareView *self)
{
    tk_compare *cmp = cmp_of(self);
    size_t unknown;
    size_t first = tk_compare_first_divergence(cmp, &unknown);
    if (!tk_compare_timeline(cmp, 0) || !tk_compare_timeline(cmp, 1)) {
        set_first(self, "A kernel has no pass dumps: only the configurations and final "
                        "stages are compared.");
        return;
    }
    if (first == TK_COMPARE_NONE) {
        set_first(self, "No divergence: every pass's output is the same in both once "
                        "normalized.");
        return;
    }
    const tk_compare_row *r = tk_compare_row_get(cmp, first);
    char *t = g_strdup_printf(
        "First divergence: row %zu, %s%s%s%s (%s)%s%s", first, r->name, r->arg[0] ? " (" : "",
        r->arg, r->arg[0] ? ")" : "", tk_pass_level_name(r->level),
        r->input == TK_COMPARE_DIFFERENT ? ": the IR before it already differs" : "",
        unknown ? "; earlier passes could not all be compared" : "");
    char *safe = tkv_compare_view_safe_text(t, strlen(t));
    set_first(self, safe);
    g_free(t);
    g_free(safe);
}

/* ---- making the comparison ------------------------------------------------------------ */

static void on_compared(GObject *source, GAsyncResult *res, gpointer data)
{
    TkvCompareView *self = data;
    GError *error = NULL;
    TkvCompareHold *hold = tkv_document_compare_finish(TKV_DOCUMENT(source), res, &error);
    if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        g_error_free(error);
        g_object_unref(self);
        return;
    }
    g_clear_object(&self->cancel);
    if (!hold) {
        set_message(self, "none", error ? error->message : "nothing to compare", FALSE);
        g_clear_error(&error);
        g_object_unref(self);
        return;
    }
    self->hold = hold;
    fill_rows(self);
    fill_facts(self);
    fill_first(self);
    self->state = "ready";
    gtk_stack_set_visible_child_name(self->stack, "main");
    gtk_spinner_set_spinning(self->spinner, FALSE);
    size_t first = tk_compare_first_divergence(hold->cmp, NULL);
    if (tk_compare_row_count(hold->cmp))
        tkv_compare_view_select_row(self, first != TK_COMPARE_NONE ? (guint)first : 0);
    g_object_unref(self);
}

void tkv_compare_view_activate(TkvCompareView *self)
{
    if (!self->has_kernel || self->other < 0 || self->hold || self->cancel)
        return;
    char *t = g_strdup_printf("Comparing the pass pipelines of kernels %u and %d\u2026",
                              self->kernel, self->other);
    set_message(self, "loading", t, TRUE);
    g_free(t);
    self->cancel = g_cancellable_new();
    tkv_document_compare_async(self->doc, self->kernel, (size_t)self->other, self->cancel,
                               on_compared, g_object_ref(self));
}

gboolean tkv_compare_view_compare_with(TkvCompareView *self, guint other)
{
    if (!self->has_kernel || other == self->kernel ||
        other >= tkv_document_get_kernel_count(self->doc))
        return FALSE;
    if ((int)other == self->other && (self->hold || self->cancel))
        return TRUE;
    clear_compare(self);
    self->other = (int)other;
    fill_others(self);
    set_message(self, "idle", "", FALSE);
    if (gtk_widget_get_mapped(GTK_WIDGET(self)))
        tkv_compare_view_activate(self);
    return TRUE;
}

/* ---- actions ------------------------------------------------------------------------------ */

static void act_compare_with(GtkWidget *w, const char *name, GVariant *p)
{
    TkvCompareView *self = TKV_COMPARE_VIEW(w);
    const char *spec = g_variant_get_string(p, NULL);
    tk_bundle *b = self->doc ? tkv_document_get_bundle(self->doc) : NULL;
    size_t matches = 0;
    const tk_kernel *k = b ? tk_bundle_find_kernel(b, spec, &matches) : NULL;
    for (size_t i = 0; k && i < tk_bundle_kernel_count(b); i++)
        if (tk_bundle_kernel(b, i) == k && tkv_compare_view_compare_with(self, (guint)i))
            return;
    tkv_action_error(w, "compare-with: \"%s\" names no other kernel (%zu match)", spec, matches);
}

static void act_select_row(GtkWidget *w, const char *name, GVariant *p)
{
    if (!tkv_compare_view_select_row(TKV_COMPARE_VIEW(w), g_variant_get_uint32(p)))
        tkv_action_error(w, "select-row: no row %u", g_variant_get_uint32(p));
}

static void act_step(GtkWidget *w, const char *name, GVariant *p)
{
    TkvCompareView *self = TKV_COMPARE_VIEW(w);
    tk_compare *cmp = cmp_of(self);
    if (!cmp)
        return;
    size_t n = tk_compare_row_count(cmp);
    if (strcmp(name, "compare-view.first") == 0) {
        size_t first = tk_compare_first_divergence(cmp, NULL);
        if (first != TK_COMPARE_NONE)
            tkv_compare_view_select_row(self, (guint)first);
    } else if (strcmp(name, "compare-view.next-row") == 0) {
        if (self->row + 1 < (int)n)
            tkv_compare_view_select_row(self, (guint)(self->row + 1));
    } else if (strcmp(name, "compare-view.previous-row") == 0) {
        if (self->row > 0)
            tkv_compare_view_select_row(self, (guint)(self->row - 1));
    } else {
        /* the next row whose pass did something different to the two */
        for (size_t i = (size_t)(self->row + 1); i < n; i++) {
            const tk_compare_row *r = tk_compare_row_get(cmp, i);
            if (r->align != TK_COMPARE_BOTH || r->effect == TK_COMPARE_DIFFERENT) {
                tkv_compare_view_select_row(self, (guint)i);
                return;
            }
        }
    }
}

static void act_which(GtkWidget *w, const char *name, GVariant *p)
{
    if (!tkv_compare_view_set_which(TKV_COMPARE_VIEW(w), g_variant_get_string(p, NULL)))
        tkv_action_error(w, "which: before or after");
}

static const TkvViewShortcut shortcuts[] = {
    {"compare-view.first", NULL, "<Control>j", FALSE},
    {"compare-view.next-row", NULL, "<Alt>Down", FALSE},
    {"compare-view.previous-row", NULL, "<Alt>Up", FALSE},
    {"compare-view.next-effect", NULL, "F8", FALSE},
    {"compare-view.which", "'before'", "<Alt>b", FALSE},
    {"compare-view.which", "'after'", "<Alt>a", FALSE},
};

static void on_row_selected(GtkListBox *box, GtkListBoxRow *row, TkvCompareView *self)
{
    if (self->updating || !row)
        return;
    int i = gtk_list_box_row_get_index(row);
    if (i != self->row)
        gtk_widget_activate_action(GTK_WIDGET(self), "compare-view.select-row", "u", (guint)i);
}

static void on_other_selected(GtkDropDown *dd, GParamSpec *pspec, TkvCompareView *self)
{
    guint pos = gtk_drop_down_get_selected(dd);
    if (self->updating || pos >= self->other_index->len)
        return;
    char spec[32];
    g_snprintf(spec, sizeof spec, "%u", g_array_index(self->other_index, guint, pos));
    gtk_widget_activate_action(GTK_WIDGET(self), "compare-view.compare-with", "s", spec);
}

static void on_map(GtkWidget *w)
{
    tkv_compare_view_activate(TKV_COMPARE_VIEW(w));
}

/* ---- the widget ------------------------------------------------------------------------------ */

static void tkv_compare_view_dispose(GObject *obj)
{
    TkvCompareView *self = TKV_COMPARE_VIEW(obj);
    clear_compare(self);
    g_clear_object(&self->doc);
    gtk_widget_dispose_template(GTK_WIDGET(self), TKV_TYPE_COMPARE_VIEW);
    /* The template's top box is no template child: unparent it here. */
    GtkWidget *c;
    while ((c = gtk_widget_get_first_child(GTK_WIDGET(self))))
        gtk_widget_unparent(c);
    G_OBJECT_CLASS(tkv_compare_view_parent_class)->dispose(obj);
}

static void tkv_compare_view_finalize(GObject *obj)
{
    TkvCompareView *self = TKV_COMPARE_VIEW(obj);
    g_clear_object(&self->others);
    g_array_free(self->other_index, TRUE);
    g_free(self->message_text);
    g_free(self->first_text);
    g_free(self->title_text);
    G_OBJECT_CLASS(tkv_compare_view_parent_class)->finalize(obj);
}

static void tkv_compare_view_class_init(TkvCompareViewClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_compare_view_dispose;
    oc->finalize = tkv_compare_view_finalize;
    gtk_widget_class_set_template_from_resource(wc, "/org/tkview/Viewer/ui/tkv_compare_view.ui");
    gtk_widget_class_bind_template_child(wc, TkvCompareView, other_dropdown);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, first_label);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, stack);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, spinner);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, message);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, rows_list);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, facts_view);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, diff_title);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, before_button);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, after_button);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, a_scroll);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, b_scroll);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, a_view);
    gtk_widget_class_bind_template_child(wc, TkvCompareView, b_view);
    gtk_widget_class_install_action(wc, "compare-view.compare-with", "s", act_compare_with);
    gtk_widget_class_install_action(wc, "compare-view.select-row", "u", act_select_row);
    gtk_widget_class_install_action(wc, "compare-view.first", NULL, act_step);
    gtk_widget_class_install_action(wc, "compare-view.next-row", NULL, act_step);
    gtk_widget_class_install_action(wc, "compare-view.previous-row", NULL, act_step);
    gtk_widget_class_install_action(wc, "compare-view.next-effect", NULL, act_step);
    gtk_widget_class_install_action(wc, "compare-view.which", "s", act_which);
}

static void tkv_compare_view_init(TkvCompareView *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    self->other = -1;
    self->row = -1;
    self->after = TRUE;
    self->state = "none";
    self->others = gtk_string_list_new(NULL);
    self->other_index = g_array_new(FALSE, FALSE, sizeof(guint));
    gtk_drop_down_set_model(self->other_dropdown, G_LIST_MODEL(self->others));
    /* B's IR scrolls with A's: the rows are paired one to one. */
    gtk_scrolled_window_set_vadjustment(self->b_scroll,
                                        gtk_scrolled_window_get_vadjustment(self->a_scroll));
    g_signal_connect(self->rows_list, "row-selected", G_CALLBACK(on_row_selected), self);
    g_signal_connect(self->other_dropdown, "notify::selected", G_CALLBACK(on_other_selected),
                     self);
    g_signal_connect(self, "map", G_CALLBACK(on_map), NULL);
    tkv_view_shortcuts_add(GTK_WIDGET(self), shortcuts, G_N_ELEMENTS(shortcuts));
    gtk_widget_action_set_enabled(GTK_WIDGET(self), "compare-view.compare-with", FALSE);
}

/* ---- for the tests ------------------------------------------------------------------------------ */

const char *tkv_compare_view_get_load_state(TkvCompareView *self) { return self->state; }
const char *tkv_compare_view_get_message(TkvCompareView *self)
{
    return self->message_text ? self->message_text : "";
}
int tkv_compare_view_get_other(TkvCompareView *self) { return self->other; }
tk_compare *tkv_compare_view_get_compare(TkvCompareView *self) { return cmp_of(self); }
int tkv_compare_view_get_row(TkvCompareView *self) { return self->row; }
const char *tkv_compare_view_get_which(TkvCompareView *self)
{
    return self->after ? "after" : "before";
}
const char *tkv_compare_view_get_first_text(TkvCompareView *self)
{
    return self->first_text ? self->first_text : "";
}

char *tkv_compare_view_get_facts_text(TkvCompareView *self)
{
    GtkTextBuffer *b = gtk_text_view_get_buffer(self->facts_view);
    GtkTextIter s, e;
    gtk_text_buffer_get_bounds(b, &s, &e);
    return gtk_text_buffer_get_text(b, &s, &e, TRUE);
}
