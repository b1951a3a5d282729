/* tkv_bind_view_actions.c - user input in the binding view turned into the
 * window's actions: a click or cursor move in a pane activates
 * win.select-source-location (su) or win.select-ir-line (su), the panes'
 * selectors win.stage, win.second-stage and win.source-file. */
#include "tkv_bind_view_private.h"

static void on_source_line(TkvCodeView *view, guint line, TkvBindView *self)
{
    const char *path = tkv_document_get_file_path(self->doc, self->file);
    if (path)
        gtk_widget_activate_action(GTK_WIDGET(self), "win.select-source-location", "(su)",
                                   path, line);
}

void tkv_bind_view_on_ir_line(TkvCodeView *view, guint line, TkvBindPaneRef *ref)
{
    gtk_widget_activate_action(GTK_WIDGET(ref->view), "win.select-ir-line", "(su)",
                               tk_stage_kind_name(ref->view->pane_stage[ref->which]), line);
}

static void on_stage_selected(GtkDropDown *dd, GParamSpec *pspec, TkvBindPaneRef *ref)
{
    TkvBindView *self = ref->view;
    guint pos = gtk_drop_down_get_selected(dd);
    if (self->updating || pos >= self->n_stages)
        return;
    gtk_widget_activate_action(GTK_WIDGET(self),
                               ref->which == 0 ? "win.stage" : "win.second-stage",
                               "s", tk_stage_kind_name(self->stages[pos]));
}

static void on_file_selected(GtkDropDown *dd, GParamSpec *pspec, TkvBindView *self)
{
    guint pos = gtk_drop_down_get_selected(dd);
    if (self->updating || pos >= self->n_files)
        return;
    gtk_widget_activate_action(GTK_WIDGET(self), "win.source-file", "s",
                               tkv_document_get_file_path(self->doc, self->files[pos]));
}

void tkv_bind_view_actions_init(TkvBindView *self)
{
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++) {
        g_signal_connect(tkv_bind_view_ir_view(self, w), "line-selected",
                         G_CALLBACK(tkv_bind_view_on_ir_line), &self->pane_ref[w]);
        g_signal_connect(tkv_code_pane_get_selector(tkv_bind_view_ir_pane(self, w)),
                         "notify::selected", G_CALLBACK(on_stage_selected), &self->pane_ref[w]);
    }
    g_signal_connect(tkv_bind_view_source_view(self), "line-selected",
                     G_CALLBACK(on_source_line), self);
    g_signal_connect(tkv_code_pane_get_selector(self->source_pane), "notify::selected",
                     G_CALLBACK(on_file_selected), self);
}
