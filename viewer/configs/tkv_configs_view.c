/* tkv_configs_view.c - configs mode (tkv_configs_view.h): the library's
 * table (tk_configs.h) as GtkGrids in a scrolled box. */
#include "configs/tkv_configs_view.h"

#include <string.h>

struct _TkvConfigsView {
    GtkWidget parent_instance;
    GtkWidget *scroller;
    GtkWidget *box;
    TkvDocument *doc;
    TkvConfigsHold *hold; /* the table, shared with the job comparing */
    gboolean built;
    char *message;
    GPtrArray *matrices; /* GtkGrid per group, borrowed from the box */
    /* Each row's "first divergence" label, group by group, borrowed from
     * the box: a placeholder until the comparisons are done. */
    GPtrArray *diverge_cells;
    GCancellable *cancel; /* the comparisons running, or NULL */
};

#define COMPARING "comparing with the winner\xe2\x80\xa6"

G_DEFINE_FINAL_TYPE(TkvConfigsView, tkv_configs_view, GTK_TYPE_WIDGET)

static GtkWidget *cell(GtkGrid *g, int col, int row, const char *text, const char *cls,
                       float xalign)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(l), xalign);
    gtk_label_set_selectable(GTK_LABEL(l), FALSE);
    if (cls)
        gtk_widget_add_css_class(l, cls);
    gtk_grid_attach(g, l, col, row, 1, 1);
    return l;
}

static void num_cell(GtkGrid *g, int col, int row, gint64 v, const char *cls)
{
    char buf[32];
    if (v < 0)
        g_strlcpy(buf, "-", sizeof buf);
    else
        g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT, v);
    GtkWidget *l = cell(g, col, row, buf, "tkv-config-num", 1);
    if (cls)
        gtk_widget_add_css_class(l, cls);
}

/* A compile's hash prefix, which selects it. */
static void hash_cell(GtkGrid *g, int col, int row, const tk_configs_row *x)
{
    char hash[9], target[24];
    g_strlcpy(hash, tk_kernel_hash(x->kernel), sizeof hash);
    g_snprintf(target, sizeof target, "%zu", x->index);
    GtkWidget *b = gtk_button_new_with_label(hash);
    gtk_widget_add_css_class(b, "flat");
    gtk_widget_add_css_class(b, "tkv-config-hash");
    gtk_widget_set_tooltip_text(b, tk_kernel_hash(x->kernel));
    gtk_actionable_set_action_name(GTK_ACTIONABLE(b), "win.select-kernel");
    gtk_actionable_set_action_target(GTK_ACTIONABLE(b), "s", target);
    gtk_grid_attach(g, b, col, row, 1, 1);
}

static GtkWidget *new_grid(void)
{
    GtkWidget *g = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(g), 14);
    gtk_grid_set_row_spacing(GTK_GRID(g), 2);
    gtk_widget_add_css_class(g, "tkv-config-grid");
    return g;
}

static void rows_table(TkvConfigsView *self, const tk_configs_group *g)
{
    GtkGrid *grid = GTK_GRID(new_grid());
    const char *heads[] = {"", "hash", "sets it apart", "warps", "stages", "registers",
                           "spills", "shared", "SASS", "ms",
                           g->extern_winner ? "first divergence from the fastest compile"
                                            : "first divergence from the winner"};
    for (int i = 0; i < (int)G_N_ELEMENTS(heads); i++)
        cell(grid, i, 0, heads[i], "tkv-config-head", i >= 3 && i <= 9 ? 1 : 0);
    for (size_t r = 0; r < g->n_rows; r++) {
        const tk_configs_row *x = &g->rows[r];
        const tk_kernel_meta *m = tk_kernel_metadata(x->kernel);
        int row = (int)r + 1;
        const char *wcls = x->winner ? "tkv-config-winner" : NULL;
        GtkWidget *w = cell(grid, 0, row, x->winner ? "\xe2\x98\x85" : "", wcls, 0.5f);
        if (x->winner)
            gtk_widget_set_tooltip_text(w, "the winner: the fastest the autotuner measured");
        hash_cell(grid, 1, row, x);
        cell(grid, 2, row, x->apart[0] ? x->apart : "-", wcls, 0);
        num_cell(grid, 3, row, m->num_warps, wcls);
        num_cell(grid, 4, row, m->num_stages, wcls);
        num_cell(grid, 5, row, m->registers, wcls);
        num_cell(grid, 6, row, m->spill_bytes, wcls);
        num_cell(grid, 7, row, m->shared_bytes, wcls);
        GString *cls = g_string_new(NULL);
        for (int s = 0; x->has_sass && s < TK_SASS_CLASS_COUNT; s++)
            if (x->sass[1 + s] > 0)
                g_string_append_printf(cls, "%s%s %.0f", cls->len ? ", " : "",
                                       tk_sass_class_name((tk_sass_class)s), x->sass[1 + s]);
        char sass[32] = "-";
        if (x->has_sass)
            g_snprintf(sass, sizeof sass, "%.0f", x->sass[0]);
        GtkWidget *sl = cell(grid, 8, row, sass, "tkv-config-num", 1);
        if (cls->len)
            gtk_widget_set_tooltip_text(sl, cls->str);
        g_string_free(cls, TRUE);
        char ms[32] = "-";
        if (x->has_ms)
            g_snprintf(ms, sizeof ms, "%.4f", x->ms);
        cell(grid, 9, row, ms, "tkv-config-num", 1);
        /* Made by a job when there is a winner (tkv_configs_view_activate()). */
        GtkWidget *d = cell(grid, 10, row, g->winner >= 0 ? COMPARING : "-", wcls, 0);
        if (g->winner >= 0)
            gtk_widget_add_css_class(d, "dim-label");
        g_ptr_array_add(self->diverge_cells, d);
    }
    gtk_box_append(GTK_BOX(self->box), GTK_WIDGET(grid));
}

static gboolean differs(const tk_configs_group *g, const tk_configs_line *l, size_t c,
                        size_t ref)
{
    return g->rows[c].has_sass && g->rows[ref].has_sass && l->sass[c] != l->sass[ref];
}

static void matrix(TkvConfigsView *self, const tk_configs_group *g)
{
    size_t ref = g->winner >= 0 ? (size_t)g->winner : 0;
    for (size_t c = 0; g->winner < 0 && c < g->n_rows && !g->rows[ref].has_sass; c++)
        ref = c;
    size_t differ = 0;
    for (size_t i = 0; i < g->n_lines; i++)
        for (size_t c = 0; c < g->n_rows; c++)
            if (differs(g, &g->lines[i], c, ref)) {
                differ++;
                break;
            }
    char *note = g_strdup_printf("SASS instructions per source line (innermost frame) and "
                                 "compile: %zu lines, %zu where the compiles differ (marked "
                                 "against the %s).",
                                 g->n_lines, differ,
                                 g->extern_winner ? "fastest compile"
                                 : g->winner >= 0 ? "winner"
                                                  : "first compile with SASS");
    GtkWidget *l = gtk_label_new(note);
    g_free(note);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_widget_add_css_class(l, "dim-label");
    gtk_box_append(GTK_BOX(self->box), l);
    GtkGrid *grid = GTK_GRID(new_grid());
    cell(grid, 0, 0, "line", "tkv-config-head", 0);
    for (size_t c = 0; c < g->n_rows; c++)
        hash_cell(grid, (int)c + 1, 0, &g->rows[c]);
    for (size_t i = 0; i < g->n_lines; i++) {
        const tk_configs_line *ln = &g->lines[i];
        char *base = g_path_get_basename(ln->path);
        char *where = g_strdup_printf("%s:%u", base, ln->line);
        GtkWidget *w = cell(grid, 0, (int)i + 1, where, "tkv-config-where", 0);
        gtk_widget_set_tooltip_text(w, ln->path);
        g_free(where);
        g_free(base);
        for (size_t c = 0; c < g->n_rows; c++)
            num_cell(grid, (int)c + 1, (int)i + 1,
                     g->rows[c].has_sass ? (gint64)ln->sass[c] : -1,
                     differs(g, ln, c, ref) ? "tkv-config-differs" : NULL);
    }
    gtk_box_append(GTK_BOX(self->box), GTK_WIDGET(grid));
    g_ptr_array_add(self->matrices, grid);
}

static void stop(TkvConfigsView *self)
{
    if (self->cancel) {
        g_cancellable_cancel(self->cancel);
        g_clear_object(&self->cancel);
    }
}

static void clear(TkvConfigsView *self)
{
    stop(self);
    GtkWidget *c;
    while ((c = gtk_widget_get_first_child(self->box)))
        gtk_box_remove(GTK_BOX(self->box), c);
    g_ptr_array_set_size(self->matrices, 0);
    g_ptr_array_set_size(self->diverge_cells, 0);
    g_clear_pointer(&self->hold, tkv_configs_hold_release);
    g_clear_pointer(&self->message, g_free);
    self->built = FALSE;
}

static void say(TkvConfigsView *self, const char *text)
{
    g_free(self->message);
    self->message = g_strdup(text);
    GtkWidget *l = gtk_label_new(text);
    gtk_widget_add_css_class(l, "dim-label");
    gtk_widget_set_vexpand(l, TRUE);
    gtk_box_append(GTK_BOX(self->box), l);
}

/* A comparison job and the table it was started for. */
typedef struct {
    TkvConfigsView *self;  /* a reference */
    TkvConfigsHold *hold;  /* a reference */
} Pending;

/* The rows' first divergences are made: into their cells. */
static void on_diverged(GObject *source, GAsyncResult *res, gpointer data)
{
    Pending *p = data;
    TkvConfigsView *self = p->self;
    GError *error = NULL;
    gboolean done = tkv_document_configs_diverge_finish(TKV_DOCUMENT(source), res, &error);
    if (done && p->hold == self->hold) {
        g_clear_object(&self->cancel);
        const tk_configs *cf = self->hold->configs;
        guint k = 0;
        for (size_t i = 0; i < tk_configs_group_count(cf); i++) {
            const tk_configs_group *g = tk_configs_group_get(cf, i);
            for (size_t r = 0; r < g->n_rows && k < self->diverge_cells->len; r++, k++) {
                GtkWidget *l = g_ptr_array_index(self->diverge_cells, k);
                gtk_label_set_text(GTK_LABEL(l), g->rows[r].diverge ? g->rows[r].diverge : "-");
                gtk_widget_remove_css_class(l, "dim-label");
            }
        }
    }
    g_clear_error(&error);
    tkv_configs_hold_release(p->hold);
    g_object_unref(self);
    g_free(p);
}

void tkv_configs_view_activate(TkvConfigsView *self)
{
    if (self->built)
        return;
    clear(self);
    self->built = TRUE;
    self->hold = self->doc ? tkv_document_configs_new(self->doc) : NULL;
    if (!self->hold) {
        say(self, "No bundle is open.");
        return;
    }
    const tk_configs *cf = self->hold->configs;
    size_t n = tk_configs_group_count(cf);
    if (!n) {
        say(self, "No kernel was compiled more than once.");
        return;
    }
    gboolean winners = FALSE;
    for (size_t i = 0; i < n; i++) {
        const tk_configs_group *g = tk_configs_group_get(cf, i);
        char *h = g_strdup_printf("%s: %zu compiles%s", g->name, g->n_rows,
                                  g->winner < 0 ? " (no autotuner timings)" : "");
        GtkWidget *title = gtk_label_new(h);
        g_free(h);
        gtk_label_set_xalign(GTK_LABEL(title), 0);
        gtk_widget_add_css_class(title, "title-3");
        gtk_box_append(GTK_BOX(self->box), title);
        if (g->extern_winner) {
            /* aten's mm beat every Triton compile: no row is starred */
            char *w = g_strdup_printf("Winner: the extern kernel %s, %.4f ms, faster than "
                                      "every compile here (the fastest: %.4f ms).",
                                      g->extern_winner, g->extern_ms, g->rows[g->winner].ms);
            GtkWidget *wl = gtk_label_new(w);
            g_free(w);
            gtk_label_set_xalign(GTK_LABEL(wl), 0);
            gtk_widget_set_name(wl, "tkv-configs-extern-winner");
            gtk_box_append(GTK_BOX(self->box), wl);
        }
        rows_table(self, g);
        matrix(self, g);
        winners |= g->winner >= 0;
    }
    /* Comparing each compile with the winner reads every pass dump of
     * both: seconds on a big autotune, on a worker. */
    if (winners) {
        self->cancel = g_cancellable_new();
        Pending *p = g_new0(Pending, 1);
        p->self = g_object_ref(self);
        p->hold = g_rc_box_acquire(self->hold);
        tkv_document_configs_diverge_async(self->doc, self->hold, self->cancel, on_diverged, p);
    }
}

void tkv_configs_view_set_document(TkvConfigsView *self, TkvDocument *doc)
{
    if (doc == self->doc && self->built)
        return;
    clear(self);
    g_set_object(&self->doc, doc);
}

const tk_configs *tkv_configs_view_get_configs(TkvConfigsView *self)
{
    return self->hold ? self->hold->configs : NULL;
}

gboolean tkv_configs_view_is_comparing(TkvConfigsView *self) { return self->cancel != NULL; }
const char *tkv_configs_view_get_message(TkvConfigsView *self) { return self->message; }

const char *tkv_configs_view_get_cell(TkvConfigsView *self, guint group, guint row,
                                      guint column, gboolean *marked)
{
    if (group >= self->matrices->len)
        return NULL;
    GtkWidget *w = gtk_grid_get_child_at(g_ptr_array_index(self->matrices, group),
                                         (int)column + 1, (int)row + 1);
    if (!w || !GTK_IS_LABEL(w))
        return NULL;
    *marked = gtk_widget_has_css_class(w, "tkv-config-differs");
    return gtk_label_get_text(GTK_LABEL(w));
}

static void tkv_configs_view_dispose(GObject *object)
{
    TkvConfigsView *self = TKV_CONFIGS_VIEW(object);
    stop(self);
    g_clear_pointer(&self->scroller, gtk_widget_unparent);
    g_clear_object(&self->doc);
    G_OBJECT_CLASS(tkv_configs_view_parent_class)->dispose(object);
}

static void tkv_configs_view_finalize(GObject *object)
{
    TkvConfigsView *self = TKV_CONFIGS_VIEW(object);
    g_clear_pointer(&self->hold, tkv_configs_hold_release);
    g_free(self->message);
    g_ptr_array_unref(self->matrices);
    g_ptr_array_unref(self->diverge_cells);
    G_OBJECT_CLASS(tkv_configs_view_parent_class)->finalize(object);
}

static void tkv_configs_view_class_init(TkvConfigsViewClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_configs_view_dispose;
    oc->finalize = tkv_configs_view_finalize;
    gtk_widget_class_set_layout_manager_type(wc, GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(wc, "tkvconfigsview");
}

static void tkv_configs_view_init(TkvConfigsView *self)
{
    self->matrices = g_ptr_array_new();
    self->diverge_cells = g_ptr_array_new();
    self->scroller = gtk_scrolled_window_new();
    gtk_widget_set_hexpand(self->scroller, TRUE);
    gtk_widget_set_vexpand(self->scroller, TRUE);
    self->box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    gtk_widget_add_css_class(self->box, "tkv-configs");
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(self->scroller), self->box);
    gtk_widget_set_parent(self->scroller, GTK_WIDGET(self));
}
