/* tkv_pass_view_actions.c - user input in the pass view turned into actions:
 * a click or cursor move in a side selects that diff line, one in the source
 * pane that source line, the file selector shows another file; the handlers
 * of the actions call the view's functions (tkv_pass_view.h). */
#include "tkv_pass_view_private.h"

static void on_side_line(TkvCodeView *view, guint line, TkvPassView *self)
{
    int side = view == tkv_pass_view_side_view(self, 1);
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

void tkv_pass_view_actions_init(TkvPassView *self)
{
    for (int s = 0; s < 2; s++)
        g_signal_connect(tkv_pass_view_side_view(self, s), "line-selected",
                         G_CALLBACK(on_side_line), self);
    g_signal_connect(tkv_code_pane_get_view(self->source_pane), "line-selected",
                     G_CALLBACK(on_source_line), self);
    g_signal_connect(tkv_code_pane_get_selector(self->source_pane), "notify::selected",
                     G_CALLBACK(on_file_selected), self);
}
