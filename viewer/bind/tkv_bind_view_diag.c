/* tkv_bind_view_diag.c - the binding view's compiler-message columns: a dot
 * on every source line and IR line a compiler message is about, coloured by
 * the worst severity (tkv_diag_gutter.h), from the document's messages
 * (tkv_diag_doc.h: the library's ties, looked up, not decided here).
 * Installed on every view of the panes by tkv_bind_view_update_diag(),
 * which runs where the cost columns are set up (a kernel shown, a pane's
 * view made).
 */
#include "bind/tkv_bind_view_private.h"

#include "document/tkv_diag_doc.h"
#include "widgets/tkv_diag_gutter.h"

static const TkvDiagKernel *diag_of(TkvBindView *self)
{
    return self->k ? tkv_diag_doc_kernel(self->doc, self->kernel) : NULL;
}

static int source_level(guint line, gpointer data)
{
    TkvBindView *self = data;
    return tkv_diag_kernel_source_level(diag_of(self), self->file, line);
}

static char *source_tip(guint line, gpointer data)
{
    TkvBindView *self = data;
    return tkv_diag_kernel_source_text(diag_of(self), self->file, line);
}

static int ir_level(guint line, gpointer data)
{
    TkvBindPaneRef *ref = data;
    TkvBindView *self = ref->view;
    return tkv_diag_kernel_ir_level(diag_of(self), self->pane_stage[ref->which], line);
}

static char *ir_tip(guint line, gpointer data)
{
    TkvBindPaneRef *ref = data;
    TkvBindView *self = ref->view;
    return tkv_diag_kernel_ir_text(diag_of(self), self->pane_stage[ref->which], line);
}

static void install(TkvCodeView *v, gboolean on, TkvDiagLevelFunc func, TkvDiagTipFunc tip,
                    gpointer data)
{
    TkvDiagGutter *g = tkv_diag_gutter_attach(GTK_SOURCE_VIEW(v));
    tkv_diag_gutter_set_func(g, on ? func : NULL, tip, data);
}

void tkv_bind_view_update_diag(TkvBindView *self)
{
    gboolean on = diag_of(self) != NULL;
    install(tkv_bind_view_source_view(self), on, source_level, source_tip, self);
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++)
        for (int s = -1; s < TK_STAGE_COUNT; s++) {
            TkvCodeView *v = s < 0 ? tkv_bind_view_ir_view(self, w) : self->stage_view[w][s];
            if (v)
                install(v, on, ir_level, ir_tip, &self->pane_ref[w]);
        }
}

int tkv_bind_view_diag_level(TkvBindView *self, TkvPaneId pane, guint line)
{
    const TkvDiagKernel *d = diag_of(self);
    if (pane == TKV_PANE_SOURCE)
        return tkv_diag_kernel_source_level(d, self->file, line);
    return tkv_diag_kernel_ir_level(d, self->pane_stage[pane == TKV_PANE_PRIMARY ? 0 : 1],
                                    line);
}

void tkv_bind_view_refresh_diag(TkvBindView *self)
{
    tkv_bind_view_update_diag(self);
}
