/* tkv_meta_panel.c - kernel metadata and stage files. */
#include "panels/tkv_meta_panel.h"

struct _TkvMetaPanel {
    GtkWidget parent_instance;
    GtkWidget *scroller;
    GtkGrid *grid;
    int row;
    GString *text;
};

G_DEFINE_FINAL_TYPE(TkvMetaPanel, tkv_meta_panel, GTK_TYPE_WIDGET)

static void add_row(TkvMetaPanel *self, const char *key, const char *value, const char *tip)
{
    char *safe = g_utf8_make_valid(value ? value : "", -1);
    GtkWidget *k = gtk_label_new(key);
    gtk_label_set_xalign(GTK_LABEL(k), 1);
    gtk_label_set_yalign(GTK_LABEL(k), 0);
    gtk_widget_add_css_class(k, "dim-label");
    GtkWidget *v = gtk_label_new(safe);
    gtk_label_set_xalign(GTK_LABEL(v), 0);
    gtk_label_set_selectable(GTK_LABEL(v), TRUE);
    gtk_label_set_wrap(GTK_LABEL(v), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(v), PANGO_WRAP_WORD_CHAR);
    gtk_widget_set_hexpand(v, TRUE);
    if (tip) {
        char *safe_tip = g_utf8_make_valid(tip, -1);
        gtk_widget_set_tooltip_text(v, safe_tip);
        g_free(safe_tip);
    }
    gtk_grid_attach(self->grid, k, 0, self->row, 1, 1);
    gtk_grid_attach(self->grid, v, 1, self->row, 1, 1);
    self->row++;
    g_string_append_printf(self->text, "%s: %s\n", key, safe);
    g_free(safe);
}

static void add_heading(TkvMetaPanel *self, const char *title)
{
    GtkWidget *h = gtk_label_new(title);
    gtk_label_set_xalign(GTK_LABEL(h), 0);
    gtk_widget_add_css_class(h, "heading");
    gtk_widget_set_margin_top(h, self->row ? 10 : 0);
    gtk_grid_attach(self->grid, h, 0, self->row++, 2, 1);
}

static void add_int(TkvMetaPanel *self, const char *key, int64_t v, const char *unit)
{
    if (v < 0)
        return;
    char *s = g_strdup_printf("%lld%s", (long long)v, unit);
    add_row(self, key, s, NULL);
    g_free(s);
}

void tkv_meta_panel_show(TkvMetaPanel *self, TkvDocument *doc, guint kernel)
{
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(self->grid))))
        gtk_grid_remove(self->grid, child);
    self->row = 0;
    g_string_truncate(self->text, 0);
    const tk_kernel *k = doc ? tkv_document_get_kernel(doc, kernel) : NULL;
    if (!k)
        return;
    const tk_bind *ix = tkv_document_get_index(doc, kernel);
    add_heading(self, "Kernel");
    add_row(self, "name", tk_kernel_name(k), NULL);
    add_row(self, "hash", tk_kernel_hash(k), NULL);
    /* the facts `tkview info` prints, in its order (tk_kernel_meta_fields) */
    tk_meta_field f[TK_META_FIELD_MAX];
    size_t n = tk_kernel_meta_fields(tk_kernel_metadata(k), f, TK_META_FIELD_MAX);
    for (size_t i = 0; i < n; i++) {
        if (f[i].text)
            add_row(self, f[i].label, f[i].text, NULL);
        else
            add_int(self, f[i].label, f[i].value, f[i].unit_long);
    }
    add_row(self, "from", tk_kernel_origin(k), NULL);

    add_heading(self, "Stages");
    for (int s = 0; s < TK_STAGE_COUNT; s++) {
        const tk_stage *st = tk_kernel_stage(k, (tk_stage_kind)s);
        if (!st)
            continue;
        char *base = g_path_get_basename(tk_stage_path(st));
        char *v = g_strdup_printf("%s: %u lines, %u with a location, %u bound", base,
                                  tk_stage_line_count(st), tk_stage_located_line_count(st),
                                  tk_bind_bound_line_count(ix, (tk_stage_kind)s));
        add_row(self, tk_stage_kind_label((tk_stage_kind)s), v, tk_stage_path(st));
        g_free(v);
        g_free(base);
    }
    if (tk_bind_irloc_stage(ix) != TK_STAGE_UNKNOWN) {
        char *v = g_strdup_printf("later stages point at %s lines (USE_IR_LOC)",
                                  tk_stage_kind_label(tk_bind_irloc_stage(ix)));
        add_row(self, "locations", v, NULL);
        g_free(v);
    }

    add_heading(self, "Sources");
    const tk_file_id *files;
    size_t nf = tkv_document_get_files(doc, kernel, &files);
    for (size_t i = 0; i < nf; i++) {
        const char *local = tkv_document_get_source_path(doc, files[i]);
        char *base = g_path_get_basename(tkv_document_get_file_path(doc, files[i]));
        add_row(self, base, local ? local : "not found", tkv_document_get_file_path(doc, files[i]));
        g_free(base);
    }

    tk_bundle *b = tkv_document_get_bundle(doc);
    add_heading(self, "Bundle");
    add_row(self, "path", tkv_document_get_path(doc), NULL);
    if (tk_bundle_compiler(b))
        add_row(self, "compiler", tk_bundle_compiler(b), NULL);
    if (tk_bundle_tool_version(b))
        add_row(self, "written by", tk_bundle_tool_version(b), NULL);
    if (tk_bundle_command(b))
        add_row(self, "command", tk_bundle_command(b), NULL);
    if (tk_bundle_complete(b) == 0)
        add_row(self, "capture", "did not finish", NULL);
    char *t = g_strdup_printf("read %.0f ms, indexed %.0f ms",
                              tkv_document_get_load_seconds(doc) * 1e3,
                              tkv_document_get_index_seconds(doc) * 1e3);
    add_row(self, "load", t, NULL);
    g_free(t);
}

char *tkv_meta_panel_get_text(TkvMetaPanel *self)
{
    return g_strdup(self->text->str);
}

static void tkv_meta_panel_dispose(GObject *object)
{
    TkvMetaPanel *self = TKV_META_PANEL(object);
    g_clear_pointer(&self->scroller, gtk_widget_unparent);
    G_OBJECT_CLASS(tkv_meta_panel_parent_class)->dispose(object);
}

static void tkv_meta_panel_finalize(GObject *object)
{
    g_string_free(TKV_META_PANEL(object)->text, TRUE);
    G_OBJECT_CLASS(tkv_meta_panel_parent_class)->finalize(object);
}

static void tkv_meta_panel_class_init(TkvMetaPanelClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = tkv_meta_panel_dispose;
    G_OBJECT_CLASS(klass)->finalize = tkv_meta_panel_finalize;
    gtk_widget_class_set_layout_manager_type(GTK_WIDGET_CLASS(klass), GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "tkvmetapanel");
}

static void tkv_meta_panel_init(TkvMetaPanel *self)
{
    self->text = g_string_new(NULL);
    self->scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(self->scroller), GTK_POLICY_NEVER,
                                   GTK_POLICY_AUTOMATIC);
    self->grid = GTK_GRID(gtk_grid_new());
    gtk_grid_set_column_spacing(self->grid, 8);
    gtk_grid_set_row_spacing(self->grid, 3);
    gtk_widget_set_margin_start(GTK_WIDGET(self->grid), 6);
    gtk_widget_set_margin_end(GTK_WIDGET(self->grid), 6);
    gtk_widget_set_margin_top(GTK_WIDGET(self->grid), 6);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(self->scroller), GTK_WIDGET(self->grid));
    gtk_widget_set_parent(self->scroller, GTK_WIDGET(self));
}

GtkWidget *tkv_meta_panel_new(void)
{
    return g_object_new(TKV_TYPE_META_PANEL, NULL);
}
