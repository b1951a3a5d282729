/* tkv_window_diag.c - the compiler messages of the window's document
 * (tkv_diag_doc.h): read on a worker once the document is loaded, so that a
 * raw capture's hundreds of MB of stderr do not hold the window; when they
 * are in, the kernel list marks the compiles that failed, and the
 * Diagnostics panel and the binding view's gutters show the kernel's. */
#include "app/tkv_window_private.h"

#include "document/tkv_diag_doc.h"

static gboolean kernel_failed(TkvDocument *doc, guint kernel)
{
    return tkv_diag_kernel_failed(tkv_diag_doc_kernel(doc, kernel));
}

static void on_ready(gpointer diag, TkvWindow *self)
{
    if (!self->doc || !tkv_diag_doc_is_ready(self->doc))
        return; /* another document's, or not this one's yet */
    tkv_window_mark_failed_kernels(self, kernel_failed);
    if (self->kernel >= 0) {
        tkv_diag_panel_show(self->diag_panel, self->doc, (guint)self->kernel);
        tkv_bind_view_refresh_diag(self->bind_view);
    }
}

void tkv_window_watch_diag(TkvWindow *self)
{
    gpointer d = tkv_diag_doc_load_async(self->doc);
    if (!d)
        return;
    if (tkv_diag_doc_is_ready(self->doc))
        on_ready(d, self);
    else
        g_signal_connect_object(d, "ready", G_CALLBACK(on_ready), self, 0);
}
