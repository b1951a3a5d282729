/* tkv_hot_panel.c - the hot lines panel: a metric menu, a scope menu and
 * the lines with a value in a sortable table. */
#include "panels/tkv_hot_panel.h"

#include <math.h>
#include <string.h>

#include "document/tkv_cost_text.h"
#include "panels/tkv_hot_row.h"

/* Rows listed at most: a stage of 100 000 lines keeps its costliest. */
#define MAX_ROWS 2000

/* ---- the panel --------------------------------------------------------------- */

enum { COL_WHERE, COL_EXACT, COL_INCL, COL_SHARED, COL_CODE, N_COLS };

struct _TkvHotPanel {
    GtkWidget parent_instance;
    GtkWidget *heading;
    GtkDropDown *metric_menu;
    GtkDropDown *scope_menu;
    GtkWidget *scroller;
    GtkColumnView *table;
    GtkColumnViewColumn *cols[N_COLS];
    GListStore *store;
    GtkSortListModel *sorted;

    TkvDocument *doc;
    guint kernel;
    const tk_cost *cost;
    guint metric;
    int scope; /* -1 source, else a stage */
    tk_stage_kind scopes[TK_STAGE_COUNT + 1];
    guint n_scopes;
    gboolean updating;
    char *heading_text;
    gboolean one_file;   /* every row is a line of one source file */
    gboolean any_shared; /* a row has a shared cost */
    gboolean pending;    /* shown a kernel, not filled yet (ensure_filled()) */
};

G_DEFINE_FINAL_TYPE(TkvHotPanel, tkv_hot_panel, GTK_TYPE_WIDGET)

enum { SIG_METRIC_CHANGED, SIG_ROW_ACTIVATED, N_SIGS };
static guint sigs[N_SIGS];

static const char *const stage_titles[] = {"TTIR", "TTGIR", "LLVM IR", "PTX", "SASS"};

static double row_value(TkvHotRow *r, int col)
{
    return col == COL_EXACT ? r->exact : col == COL_INCL ? r->inclusive
           : col == COL_SHARED ? r->shared : (double)r->line;
}

static int compare_rows(gconstpointer a, gconstpointer b, gpointer data)
{
    int col = GPOINTER_TO_INT(data);
    TkvHotRow *x = (TkvHotRow *)a, *y = (TkvHotRow *)b;
    if (col == COL_WHERE || col == COL_CODE) {
        if (x->file != y->file)
            return x->file < y->file ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
    } else {
        double u = row_value(x, col), v = row_value(y, col);
        if (u != v)
            return u < v ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
    }
    /* ties in the order of the lines */
    return x->line < y->line ? GTK_ORDERING_SMALLER
           : x->line > y->line ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

/* A cut cell's whole text, asked for when its tooltip is shown: set on
 * every bind, a tooltip text made GTK 4.8 ask the X server where the
 * pointer is (a round trip per row and column filled, ~40% of the first
 * view's main thread). */
static gboolean on_cell_tooltip(GtkWidget *l, int x, int y, gboolean keyboard, GtkTooltip *tip,
                                GtkListItem *item)
{
    gpointer r = gtk_list_item_get_item(item);
    if (!r)
        return FALSE;
    int col = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(l), "tkv-col"));
    gtk_tooltip_set_text(tip, col == COL_WHERE ? TKV_HOT_ROW(r)->where : TKV_HOT_ROW(r)->code);
    return TRUE;
}

static void cell_setup(GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
    int col = GPOINTER_TO_INT(data);
    GtkWidget *l = gtk_label_new(NULL);
    if (col == COL_WHERE || col == COL_CODE) {
        g_object_set_data(G_OBJECT(l), "tkv-col", GINT_TO_POINTER(col));
        gtk_widget_set_has_tooltip(l, TRUE);
        g_signal_connect(l, "query-tooltip", G_CALLBACK(on_cell_tooltip), item);
    }
    gtk_label_set_xalign(GTK_LABEL(l), col == COL_WHERE || col == COL_CODE ? 0 : 1);
    /* the table fits the side panel's 300 px without scrolling sideways:
     * the place keeps its line number (cut at its start, whole in its
     * tooltip), the code is cut at its end; the numbers are whole */
    if (col == COL_CODE) {
        gtk_label_set_ellipsize(GTK_LABEL(l), PANGO_ELLIPSIZE_END);
        gtk_widget_add_css_class(l, "monospace");
    } else if (col == COL_WHERE) {
        gtk_label_set_ellipsize(GTK_LABEL(l), PANGO_ELLIPSIZE_START);
        /* "…e.py:54": the line and the name's end, before the code */
        gtk_label_set_width_chars(GTK_LABEL(l), 8);
        gtk_label_set_max_width_chars(GTK_LABEL(l), 16);
    } else {
        gtk_widget_add_css_class(l, "numeric");
    }
    gtk_list_item_set_child(item, l);
}

static void cell_bind(GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
    int col = GPOINTER_TO_INT(data);
    TkvHotRow *r = TKV_HOT_ROW(gtk_list_item_get_item(item));
    GtkLabel *l = GTK_LABEL(gtk_list_item_get_child(item));
    if (col == COL_WHERE) {
        gtk_label_set_text(l, r->shown ? r->shown : r->where);
    } else if (col == COL_CODE) {
        gtk_label_set_text(l, r->code);
    } else {
        double v = row_value(r, col);
        char buf[32];
        if (v == 0)
            buf[0] = '\0';
        else
            g_snprintf(buf, sizeof buf, "%.15g", v);
        gtk_label_set_text(l, buf);
    }
}

static GtkColumnViewColumn *add_column(TkvHotPanel *self, int col, const char *title)
{
    GtkListItemFactory *f = gtk_signal_list_item_factory_new();
    g_signal_connect(f, "setup", G_CALLBACK(cell_setup), GINT_TO_POINTER(col));
    g_signal_connect(f, "bind", G_CALLBACK(cell_bind), GINT_TO_POINTER(col));
    GtkColumnViewColumn *c = gtk_column_view_column_new(title, f);
    GtkSorter *s = GTK_SORTER(gtk_custom_sorter_new(compare_rows, GINT_TO_POINTER(col), NULL));
    gtk_column_view_column_set_sorter(c, s);
    g_object_unref(s);
    gtk_column_view_column_set_resizable(c, TRUE);
    if (col == COL_CODE)
        gtk_column_view_column_set_expand(c, TRUE);
    gtk_column_view_append_column(self->table, c);
    self->cols[col] = c;
    return c;
}

static char *safe_text(const char *s, size_t len)
{
    while (len && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    return g_utf8_make_valid(s, (gssize)MIN(len, (size_t)160));
}

static gint by_exact_desc(gconstpointer a, gconstpointer b)
{
    const TkvHotRow *x = *(TkvHotRow *const *)a, *y = *(TkvHotRow *const *)b;
    return x->exact < y->exact ? 1 : x->exact > y->exact ? -1 : 0;
}

/* The rows of the scope shown, by the metric shown. */
static void fill(TkvHotPanel *self)
{
    g_list_store_remove_all(self->store);
    if (!self->cost)
        return;
    GPtrArray *rows = g_ptr_array_new_with_free_func(g_object_unref);
    size_t m = self->metric;
    if (self->scope < 0) {
        const tk_cost_line *lines;
        size_t n = tk_cost_source_lines(self->cost, &lines);
        for (size_t i = 0; i < n; i++) {
            const tk_cost_line *l = &lines[i];
            if (!l->exact[m] && !l->inclusive[m] && !l->shared[m])
                continue;
            TkvHotRow *r = tkv_hot_row_new(-1, l->file, l->line, l->exact[m], l->inclusive[m],
                                   l->shared[m]);
            char *base = g_path_get_basename(tkv_document_get_file_path(self->doc, l->file));
            r->where = g_strdup_printf("%s:%u", base, l->line);
            g_free(base);
            size_t len;
            const char *text = tkv_document_get_source_line(self->doc, l->file, l->line, &len);
            r->code = text ? safe_text(text, len) : g_strdup("");
            g_ptr_array_add(rows, r);
        }
    } else {
        tk_stage_kind s = (tk_stage_kind)self->scope;
        const tk_stage *st = tk_kernel_stage(tkv_document_get_kernel(self->doc, self->kernel), s);
        for (uint32_t l = 1; st && l <= tk_stage_line_count(st); l++) {
            /* an IR line's own share, as its heat shows it */
            const double *v = tk_cost_ir_line_own(self->cost, s, l);
            if (!v || !v[m])
                continue;
            TkvHotRow *r = tkv_hot_row_new(s, TKV_NO_FILE, l, v[m], v[m], 0);
            r->where = g_strdup_printf("%u", l);
            size_t len;
            const char *text = tk_stage_line(st, l, &len);
            r->code = safe_text(text, len);
            g_ptr_array_add(rows, r);
        }
        if (rows->len > MAX_ROWS) {
            g_ptr_array_sort(rows, by_exact_desc);
            g_ptr_array_set_size(rows, MAX_ROWS);
        }
    }
    /* one file (a kernel's own source, usually): its name would take the
     * column for nothing, the heading and each row's tooltip say it */
    self->one_file = rows->len > 0;
    self->any_shared = FALSE;
    for (guint i = 0; i < rows->len; i++) {
        TkvHotRow *r = rows->pdata[i];
        self->one_file &= r->file == ((TkvHotRow *)rows->pdata[0])->file;
        self->any_shared |= r->shared != 0;
    }
    for (guint i = 0; self->one_file && self->scope < 0 && i < rows->len; i++) {
        TkvHotRow *r = rows->pdata[i];
        r->shown = strrchr(r->where, ':') + 1;
    }
    g_list_store_splice(self->store, 0, 0, rows->pdata, rows->len);
    g_ptr_array_unref(rows);
}

static void update_heading(TkvHotPanel *self)
{
    GString *s = g_string_new(NULL);
    if (!self->cost) {
        g_string_append(s, self->doc ? "This kernel has no SASS: cost is counted on SASS "
                                       "instructions."
                                     : "");
    } else {
        size_t m = self->metric;
        double t = tk_cost_total(self->cost)[m], nl = tk_cost_no_location(self->cost)[m];
        g_string_append_printf(s, "%s: %.15g in all", tk_cost_metric_label(self->cost, m), t);
        if (nl > 0)
            g_string_append_printf(s, ", %.15g with no location", nl);
        if (tk_cost_metric_kind(self->cost, m) == TK_METRIC_MEASURED)
            g_string_append(s, " (measured)");
        if (tk_cost_unsplit_instructions(self->cost))
            g_string_append_printf(s, ".\n%u SASS instructions of helpers inlined at several "
                                      "call sites could not be given to one call site: their "
                                      "cost is \"shared\".",
                                   tk_cost_unsplit_instructions(self->cost));
        const char *problem = tkv_document_get_cost_problem(self->doc, self->kernel);
        if (problem)
            g_string_append_printf(s, "\nThe bundle's profile was not used: %s", problem);
        TkvHotRow *first = self->one_file && self->scope < 0
                               ? g_list_model_get_item(G_LIST_MODEL(self->store), 0)
                               : NULL;
        if (first) { /* the table shows line numbers alone: whose */
            g_string_append_printf(s, "\nLines of %.*s.",
                                   (int)(strrchr(first->where, ':') - first->where), first->where);
            g_object_unref(first);
        }
    }
    g_free(self->heading_text);
    self->heading_text = g_utf8_make_valid(s->str, -1);
    gtk_label_set_text(GTK_LABEL(self->heading), self->heading_text);
    g_string_free(s, TRUE);
}

static void refill(TkvHotPanel *self)
{
    fill(self);
    update_heading(self);
    gtk_column_view_column_set_visible(self->cols[COL_INCL], self->scope < 0);
    /* shared only where a line has some: the column is narrow room */
    gtk_column_view_column_set_visible(self->cols[COL_SHARED], self->scope < 0 && self->any_shared);
    gtk_column_view_column_set_title(self->cols[COL_EXACT],
                                     self->scope < 0 ? "exact"
                                     : self->cost ? tk_cost_metric_name(self->cost, self->metric)
                                                  : "value");
    gtk_column_view_column_set_title(self->cols[COL_WHERE], "line");
}

static void set_metric(TkvHotPanel *self, guint metric, gboolean emit)
{
    self->metric = metric;
    self->updating = TRUE;
    gtk_drop_down_set_selected(self->metric_menu, metric);
    self->updating = FALSE;
    refill(self);
    if (emit)
        g_signal_emit(self, sigs[SIG_METRIC_CHANGED], 0, metric);
}

static void set_scope(TkvHotPanel *self, int scope)
{
    self->scope = scope;
    self->updating = TRUE;
    for (guint i = 0; i < self->n_scopes; i++)
        if ((i == 0 && scope < 0) || (i > 0 && (int)self->scopes[i] == scope))
            gtk_drop_down_set_selected(self->scope_menu, i);
    self->updating = FALSE;
    refill(self);
}

/* The menus and the table of the kernel shown (self->doc, kernel, metric). */
static void fill_shown(TkvHotPanel *self, guint metric)
{
    TkvDocument *doc = self->doc;
    guint kernel = self->kernel;
    self->cost = doc ? tkv_document_get_cost(doc, kernel) : NULL;
    GtkStringList *metrics = gtk_string_list_new(NULL);
    GtkStringList *scopes = gtk_string_list_new(NULL);
    self->n_scopes = 0;
    if (self->cost) {
        for (size_t m = 0; m < tk_cost_metric_count(self->cost); m++)
            gtk_string_list_append(metrics, tk_cost_metric_name(self->cost, m));
        gtk_string_list_append(scopes, "source lines");
        self->scopes[self->n_scopes++] = TK_STAGE_UNKNOWN;
        const tk_kernel *k = tkv_document_get_kernel(doc, kernel);
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            if (tk_kernel_stage(k, (tk_stage_kind)s)) {
                char *t = g_strdup_printf("%s lines", stage_titles[s]);
                gtk_string_list_append(scopes, t);
                g_free(t);
                self->scopes[self->n_scopes++] = (tk_stage_kind)s;
            }
    }
    self->updating = TRUE;
    gtk_drop_down_set_model(self->metric_menu, G_LIST_MODEL(metrics));
    gtk_drop_down_set_model(self->scope_menu, G_LIST_MODEL(scopes));
    self->updating = FALSE;
    g_object_unref(metrics);
    g_object_unref(scopes);
    gtk_widget_set_sensitive(GTK_WIDGET(self->metric_menu), self->cost != NULL);
    gtk_widget_set_sensitive(GTK_WIDGET(self->scope_menu), self->cost != NULL);
    /* sorted as the rows go in, and the rows made once (they were made
     * twice, and sorted a third time) */
    gtk_column_view_sort_by_column(self->table, self->cols[COL_EXACT], GTK_SORT_DESCENDING);
    self->scope = -1; /* the scope menu's first: source lines */
    set_metric(self, self->cost ? metric : 0, FALSE);
}

/* What show() left for later, done now: a reader of the table or a user
 * of the panel is there. */
static void ensure_filled(TkvHotPanel *self)
{
    if (!self->pending)
        return;
    self->pending = FALSE;
    fill_shown(self, self->metric);
}

/* Filled when the panel is first shown or read: the side panel opens on
 * the inline stack, and making a kernel's hot lines into rows and the
 * table's rows into widgets (its drop-downs' lists too) was a fifth of the
 * first view's main thread (perf, attention_fwd), for a page most first
 * views never show. */
void tkv_hot_panel_show(TkvHotPanel *self, TkvDocument *doc, guint kernel, guint metric)
{
    g_set_object(&self->doc, doc);
    self->kernel = kernel;
    self->metric = metric;
    self->cost = NULL; /* the last document's, which may be gone: fill_shown() reads it again */
    self->pending = TRUE;
    if (!doc || gtk_widget_get_mapped(GTK_WIDGET(self)))
        ensure_filled(self);
}

gboolean tkv_hot_panel_get_filled(TkvHotPanel *self)
{
    return !self->pending;
}

static void tkv_hot_panel_map(GtkWidget *widget)
{
    ensure_filled(TKV_HOT_PANEL(widget));
    GTK_WIDGET_CLASS(tkv_hot_panel_parent_class)->map(widget);
}

guint tkv_hot_panel_get_metric(TkvHotPanel *self)
{
    ensure_filled(self);
    return self->metric;
}

const char *tkv_hot_panel_get_heading(TkvHotPanel *self)
{
    ensure_filled(self);
    return self->heading_text ? self->heading_text : "";
}

const char *tkv_hot_panel_get_scope(TkvHotPanel *self)
{
    ensure_filled(self);
    return self->scope < 0 ? "source" : tk_stage_kind_name((tk_stage_kind)self->scope);
}

GArray *tkv_hot_panel_get_rows(TkvHotPanel *self, guint n)
{
    ensure_filled(self);
    GArray *a = g_array_new(FALSE, TRUE, sizeof(TkvHotShownRow));
    GListModel *m = G_LIST_MODEL(self->sorted);
    for (guint i = 0; i < n && i < g_list_model_get_n_items(m); i++) {
        TkvHotRow *r = g_list_model_get_item(m, i);
        TkvHotShownRow s = {{0}, r->exact, r->inclusive, r->shared};
        g_strlcpy(s.where, r->where, sizeof s.where);
        g_array_append_val(a, s);
        g_object_unref(r);
    }
    return a;
}

/* ---- input and actions ------------------------------------------------------ */

static void activate_position(TkvHotPanel *self, guint pos)
{
    TkvHotRow *r = g_list_model_get_item(G_LIST_MODEL(self->sorted), pos);
    if (!r)
        return;
    g_signal_emit(self, sigs[SIG_ROW_ACTIVATED], 0, r->stage, (guint)r->file, r->line);
    g_object_unref(r);
}

static void on_activate(GtkColumnView *cv, guint pos, TkvHotPanel *self)
{
    activate_position(self, pos);
}

static void on_metric_selected(TkvHotPanel *self)
{
    if (self->updating || !self->cost)
        return;
    guint m = gtk_drop_down_get_selected(self->metric_menu);
    if (m != GTK_INVALID_LIST_POSITION && m != self->metric)
        set_metric(self, m, TRUE);
}

static void on_scope_selected(TkvHotPanel *self)
{
    if (self->updating || !self->cost)
        return;
    guint i = gtk_drop_down_get_selected(self->scope_menu);
    if (i != GTK_INVALID_LIST_POSITION && i < self->n_scopes)
        set_scope(self, i == 0 ? -1 : (int)self->scopes[i]);
}

static void act_metric(GtkWidget *w, const char *name, GVariant *p)
{
    TkvHotPanel *self = TKV_HOT_PANEL(w);
    ensure_filled(self);
    int m = self->cost ? tk_cost_metric_find(self->cost, g_variant_get_string(p, NULL)) : -1;
    if (m >= 0)
        set_metric(self, (guint)m, TRUE);
}

static void act_scope(GtkWidget *w, const char *name, GVariant *p)
{
    TkvHotPanel *self = TKV_HOT_PANEL(w);
    ensure_filled(self);
    const char *s = g_variant_get_string(p, NULL);
    if (!self->cost)
        return;
    if (strcmp(s, "source") == 0) {
        set_scope(self, -1);
        return;
    }
    tk_stage_kind k = tk_stage_kind_parse(s);
    for (guint i = 1; i < self->n_scopes; i++)
        if (self->scopes[i] == k)
            set_scope(self, (int)k);
}

static void act_sort(GtkWidget *w, const char *name, GVariant *p)
{
    TkvHotPanel *self = TKV_HOT_PANEL(w);
    ensure_filled(self);
    const char *s = g_variant_get_string(p, NULL);
    gboolean asc = g_str_has_suffix(s, "-asc");
    size_t n = asc ? strlen(s) - 4 : strlen(s);
    static const char *const names[N_COLS] = {"line", "exact", "inclusive", "shared", "code"};
    for (int c = 0; c < N_COLS; c++)
        if (strlen(names[c]) == n && strncmp(names[c], s, n) == 0)
            gtk_column_view_sort_by_column(self->table, self->cols[c],
                                           asc ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING);
}

static void act_activate(GtkWidget *w, const char *name, GVariant *p)
{
    ensure_filled(TKV_HOT_PANEL(w));
    activate_position(TKV_HOT_PANEL(w), g_variant_get_uint32(p));
}

static void tkv_hot_panel_dispose(GObject *object)
{
    TkvHotPanel *self = TKV_HOT_PANEL(object);
    GtkWidget *c;
    while ((c = gtk_widget_get_first_child(GTK_WIDGET(self))))
        gtk_widget_unparent(c);
    g_clear_object(&self->doc);
    G_OBJECT_CLASS(tkv_hot_panel_parent_class)->dispose(object);
}

static void tkv_hot_panel_finalize(GObject *object)
{
    TkvHotPanel *self = TKV_HOT_PANEL(object);
    g_free(self->heading_text);
    g_object_unref(self->sorted);
    g_object_unref(self->store);
    G_OBJECT_CLASS(tkv_hot_panel_parent_class)->finalize(object);
}

static void tkv_hot_panel_class_init(TkvHotPanelClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = tkv_hot_panel_dispose;
    G_OBJECT_CLASS(klass)->finalize = tkv_hot_panel_finalize;
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    gtk_widget_class_set_layout_manager_type(wc, GTK_TYPE_BOX_LAYOUT);
    wc->map = tkv_hot_panel_map;
    gtk_widget_class_install_action(wc, "hot.metric", "s", act_metric);
    gtk_widget_class_install_action(wc, "hot.scope", "s", act_scope);
    gtk_widget_class_install_action(wc, "hot.sort", "s", act_sort);
    gtk_widget_class_install_action(wc, "hot.activate", "u", act_activate);
    sigs[SIG_METRIC_CHANGED] = g_signal_new("metric-changed", G_TYPE_FROM_CLASS(klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_UINT);
    sigs[SIG_ROW_ACTIVATED] = g_signal_new("row-activated", G_TYPE_FROM_CLASS(klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_UINT,
                                           G_TYPE_UINT);
}

static void tkv_hot_panel_init(TkvHotPanel *self)
{
    GtkWidget *w = GTK_WIDGET(self);
    gtk_orientable_set_orientation(GTK_ORIENTABLE(gtk_widget_get_layout_manager(w)),
                                   GTK_ORIENTATION_VERTICAL);
    gtk_box_layout_set_spacing(GTK_BOX_LAYOUT(gtk_widget_get_layout_manager(w)), 4);
    self->scope = -1;
    GtkWidget *menus = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
    self->metric_menu = GTK_DROP_DOWN(gtk_drop_down_new(NULL, NULL));
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->metric_menu),
                                "What the hot lines and the cost columns show: SASS "
                                "instructions (by class) or, with a profile, what was "
                                "measured (docs/cost.md)");
    self->scope_menu = GTK_DROP_DOWN(gtk_drop_down_new(NULL, NULL));
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->scope_menu),
                                "Source lines, or the lines of one stage");
    gtk_box_append(GTK_BOX(menus), GTK_WIDGET(self->metric_menu));
    gtk_box_append(GTK_BOX(menus), GTK_WIDGET(self->scope_menu));
    gtk_widget_set_parent(menus, w);
    self->heading = gtk_label_new(NULL);
    gtk_label_set_wrap(GTK_LABEL(self->heading), TRUE);
    gtk_label_set_xalign(GTK_LABEL(self->heading), 0);
    gtk_widget_add_css_class(self->heading, "dim-label");
    gtk_widget_add_css_class(self->heading, "caption");
    gtk_widget_set_parent(self->heading, w);
    /* store -> sorted by the column view's sorter -> a selection: the
     * panel keeps a reference to the first two */
    self->store = g_list_store_new(TKV_TYPE_HOT_ROW);
    self->table = GTK_COLUMN_VIEW(gtk_column_view_new(NULL));
    self->sorted = gtk_sort_list_model_new(g_object_ref(G_LIST_MODEL(self->store)),
                                           g_object_ref(gtk_column_view_get_sorter(self->table)));
    GtkSingleSelection *sel = gtk_single_selection_new(g_object_ref(G_LIST_MODEL(self->sorted)));
    gtk_column_view_set_model(self->table, GTK_SELECTION_MODEL(sel));
    g_object_unref(sel);
    gtk_column_view_set_single_click_activate(self->table, TRUE);
    gtk_column_view_set_show_column_separators(self->table, FALSE);
    gtk_widget_add_css_class(GTK_WIDGET(self->table), "tkv-hot");
    add_column(self, COL_WHERE, "line");
    add_column(self, COL_EXACT, "exact");
    add_column(self, COL_INCL, "incl.");
    add_column(self, COL_SHARED, "shared");
    add_column(self, COL_CODE, "code");
    g_signal_connect(self->table, "activate", G_CALLBACK(on_activate), self);
    self->scroller = gtk_scrolled_window_new();
    gtk_widget_set_vexpand(self->scroller, TRUE);
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(self->scroller), GTK_POLICY_NEVER,
                                   GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(self->scroller), GTK_WIDGET(self->table));
    gtk_widget_set_parent(self->scroller, w);
    g_signal_connect_swapped(self->metric_menu, "notify::selected",
                             G_CALLBACK(on_metric_selected), self);
    g_signal_connect_swapped(self->scope_menu, "notify::selected",
                             G_CALLBACK(on_scope_selected), self);
}

void tkv_hot_panel_get_table_fit(TkvHotPanel *self, int *needs, int *has)
{
    ensure_filled(self);
    int nat;
    gtk_widget_measure(GTK_WIDGET(self->table), GTK_ORIENTATION_HORIZONTAL, -1, needs, &nat,
                       NULL, NULL);
    *has = gtk_widget_get_width(self->scroller);
}
