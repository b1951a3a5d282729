/* tkv_bind_view.c - the binding view: its source pane and two IR panes, the
 * kernel shown, the anchor (the source or IR line selected last) and the
 * stage each IR pane shows.  The other jobs are in the files
 * tkv_bind_view_private.h lists. */
#include "bind/tkv_bind_view_private.h"

#include "widgets/tkv_width_first_layout.h"

G_DEFINE_FINAL_TYPE(TkvBindView, tkv_bind_view, GTK_TYPE_WIDGET)

enum { SIG_ANCHOR_CHANGED, SIG_STAGE_CHANGED, SIG_FILE_CHANGED, N_SIGS };
static guint sigs[N_SIGS];

void tkv_bind_view_emit_stage_changed(TkvBindView *self, TkvPaneId pane)
{
    tkv_bind_view_update_regs(self);
    g_signal_emit(self, sigs[SIG_STAGE_CHANGED], 0, (guint)pane);
}

void tkv_bind_view_emit_file_changed(TkvBindView *self)
{
    g_signal_emit(self, sigs[SIG_FILE_CHANGED], 0);
}

static gboolean has_stage(TkvBindView *self, tk_stage_kind s)
{
    for (guint i = 0; i < self->n_stages; i++)
        if (self->stages[i] == s)
            return TRUE;
    return FALSE;
}

static void on_pane_focused(TkvCodePane *pane, TkvBindView *self)
{
    self->focused = pane;
}

/* ---- public ---------------------------------------------------------------- */

void tkv_bind_view_set_kernel(TkvBindView *self, TkvDocument *doc, guint kernel)
{
    /* Views let go of the old buffers before they are freed. */
    GtkSourceBuffer *empty = gtk_source_buffer_new(NULL);
    tkv_code_view_set_buffer(tkv_bind_view_source_view(self), GTK_TEXT_BUFFER(empty));
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++) {
        for (int s = -1; s < TK_STAGE_COUNT; s++) {
            TkvCodeView *v = s < 0 ? tkv_bind_view_ir_view(self, w) : self->stage_view[w][s];
            if (!v)
                continue;
            tkv_code_view_set_matches(v, NULL, 0, FALSE);
            tkv_code_view_set_selected(v, 0, FALSE, FALSE);
            tkv_code_view_set_buffer(v, GTK_TEXT_BUFFER(empty));
        }
    }
    tkv_code_view_set_matches(tkv_bind_view_source_view(self), NULL, 0, FALSE);
    tkv_code_view_set_selected(tkv_bind_view_source_view(self), 0, FALSE, FALSE);
    g_object_unref(empty);
    tkv_bind_view_drop_buffers(self);
    g_set_object(&self->doc, doc);
    self->k = doc ? tkv_document_get_kernel(doc, kernel) : NULL;
    self->kernel = kernel;
    self->regs_loaded = FALSE; /* the strip's data are the next kernel's */
    self->ix = self->k ? tkv_document_get_index(doc, kernel) : NULL;
    self->anchor = TKV_ANCHOR_NONE;
    tk_bind_shared_clear(&self->shared);
    self->showing_shared = FALSE;
    self->n_approx = 0;
    self->file = TKV_NO_FILE;
    self->n_stages = 0;
    self->n_files = 0;
    self->files = NULL;
    const tk_cost *cost = self->k ? tkv_document_get_cost(doc, kernel) : NULL;
    self->metric = cost ? (guint)tk_cost_default_metric(cost) : 0;
    tkv_bind_view_update_heat(self);
    tkv_bind_view_actions_update(self);
    GtkStringList *stages = gtk_string_list_new(NULL);
    GtkStringList *files = gtk_string_list_new(NULL);
    if (self->k) {
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            if (tk_kernel_stage(self->k, (tk_stage_kind)s)) {
                self->stages[self->n_stages++] = (tk_stage_kind)s;
                gtk_string_list_append(stages, tk_stage_kind_label((tk_stage_kind)s));
            }
        self->n_files = (guint)tkv_document_get_files(doc, kernel, &self->files);
        for (guint i = 0; i < self->n_files; i++) {
            const char *path = tkv_document_get_file_path(doc, self->files[i]);
            char *base = g_path_get_basename(path);
            char *safe = g_utf8_make_valid(base, -1);
            gtk_string_list_append(files, safe);
            g_free(base);
            g_free(safe);
        }
    }
    self->updating = TRUE;
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++)
        gtk_drop_down_set_model(tkv_code_pane_get_selector(tkv_bind_view_ir_pane(self, w)),
                                G_LIST_MODEL(stages));
    gtk_drop_down_set_model(tkv_code_pane_get_selector(self->source_pane), G_LIST_MODEL(files));
    self->updating = FALSE;
    g_object_unref(stages);
    g_object_unref(files);
    if (!self->k || self->n_stages == 0) {
        for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++)
            tkv_code_pane_set_title(tkv_bind_view_ir_pane(self, w), self->k ? "no stage" : "",
                                    NULL);
        tkv_code_pane_set_title(self->source_pane, "", NULL);
        tkv_bind_view_update_regs(self);
        g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
        return;
    }
    tk_stage_kind first = tk_kernel_first_stage(self->k);
    tk_stage_kind second = has_stage(self, TK_STAGE_PTX)    ? TK_STAGE_PTX :
                           has_stage(self, TK_STAGE_SASS)   ? TK_STAGE_SASS :
                           has_stage(self, TK_STAGE_AMDGCN) ? TK_STAGE_AMDGCN :
                           self->stages[self->n_stages - 1];
    self->pane_stage[0] = first;
    self->pane_stage[1] = second;
    tkv_bind_view_show_stage(self, 0, first);
    if (self->second_visible)
        tkv_bind_view_show_stage(self, 1, second);
    if (self->n_files)
        tkv_bind_view_show_source_file(self, self->files[0]);
    else
        tkv_code_pane_set_title(self->source_pane, "no source location in this kernel", NULL);
    tkv_bind_view_render(self);
    tkv_bind_view_prefetch_stages(self);
    tkv_bind_view_emit_stage_changed(self, TKV_PANE_PRIMARY);
    tkv_bind_view_emit_stage_changed(self, TKV_PANE_SECONDARY);
    g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
}

static gboolean is_kernel_file(TkvBindView *self, tk_file_id file)
{
    for (guint i = 0; i < self->n_files; i++)
        if (self->files[i] == file)
            return TRUE;
    return FALSE;
}

gboolean tkv_bind_view_select_source(TkvBindView *self, tk_file_id file, guint line)
{
    if (!self->k || line == 0 || !is_kernel_file(self, file))
        return FALSE;
    self->anchor = TKV_ANCHOR_SOURCE;
    self->anchor_file = file;
    self->anchor_line = line;
    self->showing_shared = FALSE;
    tkv_bind_view_render(self);
    g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
    return TRUE;
}

gboolean tkv_bind_view_select_ir(TkvBindView *self, tk_stage_kind stage, guint line)
{
    if (!self->k || stage >= TK_STAGE_COUNT || !has_stage(self, stage) || line == 0 ||
        line > tk_stage_line_count(tk_kernel_stage(self->k, stage)))
        return FALSE;
    gboolean shown = FALSE;
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++)
        shown |= tkv_bind_view_pane_shown(self, w) && self->pane_stage[w] == stage;
    if (!shown) {
        tkv_bind_view_show_stage(self, 0, stage);
        tkv_bind_view_update_file_counts(self);
        tkv_bind_view_emit_stage_changed(self, TKV_PANE_PRIMARY);
    }
    self->anchor = TKV_ANCHOR_IR;
    self->anchor_stage = stage;
    self->anchor_line = line;
    self->showing_shared = FALSE;
    tkv_bind_view_render(self);
    g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
    return TRUE;
}

gboolean tkv_bind_view_show_file(TkvBindView *self, tk_file_id file)
{
    if (!self->k || !is_kernel_file(self, file))
        return FALSE;
    tkv_bind_view_show_source_file(self, file);
    tkv_bind_view_render_source_pane(self);
    return TRUE;
}

gboolean tkv_bind_view_set_stage(TkvBindView *self, TkvPaneId pane, tk_stage_kind stage)
{
    int w = pane == TKV_PANE_SECONDARY ? 1 : 0;
    if (!self->k || stage >= TK_STAGE_COUNT || !has_stage(self, stage))
        return FALSE;
    GtkTextBuffer *shown = gtk_text_view_get_buffer(GTK_TEXT_VIEW(tkv_bind_view_ir_view(self, w)));
    if (self->pane_stage[w] != stage || !shown ||
        GTK_TEXT_BUFFER(self->stage_buf[w][stage]) != shown) {
        if (tkv_bind_view_pane_shown(self, w))
            tkv_bind_view_show_stage(self, w, stage);
        else
            self->pane_stage[w] = stage;
        if (w == 0)
            tkv_bind_view_update_file_counts(self);
        if (tkv_bind_view_pane_shown(self, w))
            tkv_bind_view_render_ir_pane(self, w);
    }
    tkv_bind_view_emit_stage_changed(self, pane);
    return TRUE;
}

tk_stage_kind tkv_bind_view_get_stage(TkvBindView *self, TkvPaneId pane)
{
    if (!self->k)
        return TK_STAGE_UNKNOWN;
    return self->pane_stage[pane == TKV_PANE_SECONDARY ? 1 : 0];
}

void tkv_bind_view_set_second_visible(TkvBindView *self, gboolean visible)
{
    if (self->second_visible == visible)
        return;
    self->second_visible = visible;
    gtk_widget_set_visible(GTK_WIDGET(self->secondary_pane), visible);
    if (visible && self->k) {
        tkv_bind_view_show_stage(self, 1, self->pane_stage[1]);
        tkv_bind_view_render_ir_pane(self, 1);
        tkv_bind_view_prefetch_stages(self);
    }
    /* Three panes share the width: the source 30%, the IR the rest,
     * halved; two panes: the source its remembered share. */
    int w = gtk_widget_get_width(GTK_WIDGET(self));
    if (w > 0) {
        int source = visible ? w * 3 / 10 : (int)(w * tkv_bind_view_source_fraction(self));
        gtk_paned_set_position(GTK_PANED(self->outer), source);
        if (visible)
            gtk_paned_set_position(GTK_PANED(self->ir_paned), (w - source) / 2);
    }
    tkv_bind_view_emit_stage_changed(self, TKV_PANE_SECONDARY);
    tkv_find_bar_refresh(self->find);
}

gboolean tkv_bind_view_get_second_visible(TkvBindView *self) { return self->second_visible; }
gboolean tkv_bind_view_get_exact(TkvBindView *self) { return self->exact; }

void tkv_bind_view_set_show_locations(TkvBindView *self, gboolean show)
{
    if (!self->show_locations == !show)
        return;
    self->show_locations = show;
    tkv_bind_view_apply_show_locations(self);
    tkv_find_bar_refresh(self->find); /* hidden lines are not searched */
}

gboolean tkv_bind_view_get_show_locations(TkvBindView *self) { return self->show_locations; }

void tkv_bind_view_set_exact(TkvBindView *self, gboolean exact)
{
    if (self->exact == exact)
        return;
    self->exact = exact;
    tkv_bind_view_update_file_counts(self);
    tkv_bind_view_update_heat(self);
    tkv_bind_view_render(self);
}

TkvAnchorKind tkv_bind_view_get_anchor(TkvBindView *self, tk_stage_kind *stage,
                                       tk_file_id *file, guint *line)
{
    if (stage)
        *stage = self->anchor_stage;
    if (file)
        *file = self->anchor_file;
    if (line)
        *line = self->anchor_line;
    return self->anchor;
}

tk_file_id tkv_bind_view_get_file(TkvBindView *self) { return self->file; }

TkvCodePane *tkv_bind_view_get_pane(TkvBindView *self, TkvPaneId pane)
{
    switch (pane) {
    case TKV_PANE_SOURCE: return self->source_pane;
    case TKV_PANE_PRIMARY: return self->primary_pane;
    default: return self->secondary_pane;
    }
}

TkvCodePane *tkv_bind_view_get_focused_pane(TkvBindView *self)
{
    if (self->focused == self->secondary_pane && !self->second_visible)
        return self->primary_pane;
    return self->focused ? self->focused : self->primary_pane;
}

TkvFindBar *tkv_bind_view_get_find_bar(TkvBindView *self) { return self->find; }

gboolean tkv_bind_view_step_match(TkvBindView *self, int delta)
{
    TkvCodePane *order[4] = {tkv_bind_view_get_focused_pane(self), self->primary_pane,
                             self->second_visible ? self->secondary_pane : NULL,
                             self->source_pane};
    for (int i = 0; i < 4; i++)
        if (order[i] && tkv_code_view_step_match(tkv_code_pane_get_view(order[i]), delta))
            return TRUE;
    return FALSE;
}

/* ---- GObject ------------------------------------------------------------------- */

static void tkv_bind_view_dispose(GObject *object)
{
    TkvBindView *self = TKV_BIND_VIEW(object);
    g_clear_handle_id(&self->prefetch_id, g_source_remove);
    if (self->find) {
        gtk_widget_unparent(GTK_WIDGET(self->find));
        self->find = NULL;
    }
    gtk_widget_dispose_template(GTK_WIDGET(self), TKV_TYPE_BIND_VIEW);
    tkv_bind_view_drop_buffers(self);
    g_clear_object(&self->doc);
    g_clear_object(&self->settings);
    G_OBJECT_CLASS(tkv_bind_view_parent_class)->dispose(object);
}

static void tkv_bind_view_finalize(GObject *object)
{
    TkvBindView *self = TKV_BIND_VIEW(object);
    g_hash_table_unref(self->file_buf);
    g_array_unref(self->file_counts);
    tk_bind_shared_clear(&self->shared);
    g_free(self->regs_peak_text);
    G_OBJECT_CLASS(tkv_bind_view_parent_class)->finalize(object);
}

static void tkv_bind_view_class_init(TkvBindViewClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_bind_view_dispose;
    oc->finalize = tkv_bind_view_finalize;
    sigs[SIG_ANCHOR_CHANGED] = g_signal_new("anchor-changed", G_TYPE_FROM_CLASS(klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
    sigs[SIG_STAGE_CHANGED] = g_signal_new("stage-changed", G_TYPE_FROM_CLASS(klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 1, G_TYPE_UINT);
    sigs[SIG_FILE_CHANGED] = g_signal_new("file-changed", G_TYPE_FROM_CLASS(klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
    g_type_ensure(TKV_TYPE_CODE_PANE);
    gtk_widget_class_set_template_from_resource(wc, "/org/tkview/Viewer/ui/tkv_bind_view.ui");
    gtk_widget_class_bind_template_child(wc, TkvBindView, outer);
    gtk_widget_class_bind_template_child(wc, TkvBindView, notes);
    gtk_widget_class_bind_template_child(wc, TkvBindView, notes_label);
    gtk_widget_class_bind_template_child(wc, TkvBindView, notes_button);
    gtk_widget_class_bind_template_child(wc, TkvBindView, ir_paned);
    gtk_widget_class_bind_template_child(wc, TkvBindView, source_pane);
    gtk_widget_class_bind_template_child(wc, TkvBindView, primary_pane);
    gtk_widget_class_bind_template_child(wc, TkvBindView, secondary_pane);
    gtk_widget_class_set_css_name(wc, "tkvbindview");
    tkv_bind_view_class_actions_init(wc);
}

void tkv_bind_view_set_settings(TkvBindView *self, GSettings *settings)
{
    g_set_object(&self->settings, settings);
}

static GSettings *view_settings(TkvBindView *self) { return self->settings; }

double tkv_bind_view_source_fraction(TkvBindView *self)
{
    GSettings *s = view_settings(self);
    /* the IR is what one reads here: it gets about two thirds */
    return s ? g_settings_get_double(s, "source-fraction") : 0.36;
}

/* The view has its width (the first time: the window shown): the source
 * pane gets its share, the IR panes the rest (before, the source had a
 * fixed 480 px, and an Inductor kernel's long source lines took ~750 px
 * of it, leaving the IR ~330). */
static void on_outer_max(GtkPaned *outer, GParamSpec *pspec, TkvBindView *self)
{
    int max = 0;
    g_object_get(outer, "max-position", &max, NULL);
    if (self->balanced || max <= 0)
        return;
    self->balanced = TRUE;
    gtk_paned_set_position(outer, (int)(gtk_widget_get_width(GTK_WIDGET(self)) *
                                        tkv_bind_view_source_fraction(self)));
}

/* The view goes away (its window closed, the application quit): the
 * source pane's share as the user left it is remembered (with one IR pane;
 * three are placed by set_second_visible).  Not on every move of the
 * handle: GtkPaned also moves it itself, to keep a pane above its minimum
 * width while it lays the panes out. */
static void on_unmap(TkvBindView *self)
{
    GSettings *s = view_settings(self);
    int w = gtk_widget_get_width(GTK_WIDGET(self));
    if (!s || !self->balanced || self->second_visible || w <= 0)
        return;
    double f = CLAMP((double)gtk_paned_get_position(GTK_PANED(self->outer)) / w, 0.1, 0.9);
    if (ABS(f - g_settings_get_double(s, "source-fraction")) > 0.005)
        g_settings_set_double(s, "source-fraction", f);
}

/* The find bar's panes: the source, the primary IR pane, the second one when
 * shown (tkv_find_bar.h). */
static void find_targets(gpointer data, GArray *targets, int *focused)
{
    TkvBindView *self = data;
    TkvFindTarget t[3] = {{tkv_bind_view_source_view(self), "source"},
                          {tkv_bind_view_ir_view(self, 0), "primary"},
                          {tkv_bind_view_ir_view(self, 1), "secondary"}};
    guint n = self->second_visible ? 3 : 2;
    g_array_append_vals(targets, t, n);
    TkvCodePane *f = tkv_bind_view_get_focused_pane(self);
    *focused = f == self->source_pane ? 0 : f == self->primary_pane ? 1 : 2;
    if (*focused >= (int)n)
        *focused = 1;
}

static void tkv_bind_view_init(TkvBindView *self)
{
    /* top to bottom, its width asked for no height: the notes bar's wrapping
     * label is not laid out at width after width on every answer
     * (tkv_width_first_layout.h) */
    gtk_widget_set_layout_manager(GTK_WIDGET(self),
                                  tkv_width_first_layout_new(GTK_ORIENTATION_VERTICAL, 0));
    gtk_widget_init_template(GTK_WIDGET(self));
    self->find = TKV_FIND_BAR(tkv_find_bar_new(find_targets, self));
    gtk_widget_insert_after(GTK_WIDGET(self->find), GTK_WIDGET(self), NULL);
    self->file_buf = g_hash_table_new_full(NULL, NULL, NULL, g_object_unref);
    self->file_counts = g_array_new(FALSE, TRUE, sizeof(guint32));
    self->file = TKV_NO_FILE;
    tkv_bind_view_panes_init(self);
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++)
        g_signal_connect(tkv_bind_view_ir_pane(self, w), "focused", G_CALLBACK(on_pane_focused),
                         self);
    g_signal_connect(self->source_pane, "focused", G_CALLBACK(on_pane_focused), self);
    tkv_bind_view_actions_init(self);
    tkv_bind_view_notes_init(self);
    self->regs_peak_file = TKV_NO_FILE;
    tkv_bind_view_regs_init(self);
    g_signal_connect(self->outer, "notify::max-position", G_CALLBACK(on_outer_max), self);
    g_signal_connect(self, "unmap", G_CALLBACK(on_unmap), NULL);
}
