/* tkv_window_diag.c - the compiler messages of the window's document
 * (tkv_diag_doc.h): read on a worker once the document is loaded, so that a
 * raw capture's hundreds of MB of stderr do not hold the window; when they
 * are in, the kernel list marks the compiles that failed, and the
 * Diagnostics panel and the binding view's gutters show the kernel's.
 * A message's "Open pass" opens pass mode at the step its pass is
 * (tk_diag_pass.h: the same rule as `tkview diagnostics` and the report),
 * once the pass view has the kernel's timeline. */
#include "app/tkv_window_private.h"

#include <string.h>

#include "document/tkv_diag_doc.h"
#include "tkdump/tk_diag_pass.h"

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

/* Selects the step of the waiting message's pass, once the pass view has
 * its timeline; a kernel changed meanwhile, or no timeline, drops it. */
static void open_waiting_pass(TkvWindow *self)
{
    if (self->diag_pass_pos < 0)
        return;
    const tk_timeline *tl = tkv_pass_view_get_timeline(self->pass_view);
    const char *state = tkv_pass_view_get_load_state(self->pass_view);
    if (!tl && strcmp(state, "loading") == 0 && self->kernel == self->diag_pass_kernel)
        return; /* not yet: the "loaded" signal comes back here */
    guint pos = (guint)self->diag_pass_pos;
    const tk_diag_entry *e = self->kernel == self->diag_pass_kernel
                                 ? tkv_diag_panel_get_entry(self->diag_panel, pos)
                                 : NULL;
    self->diag_pass_pos = -1;
    if (!e || !tl)
        return;
    tk_diag_step st = tk_diag_entry_step(e, tl);
    /* The row says which step, or why none (the CLI's and report's words) */
    char *say = tk_diag_step_sentence(&st);
    tkv_diag_panel_say(self->diag_panel, pos, say);
    g_free(say);
    if (st.step == TK_TL_NONE)
        return; /* several runs and nothing says which: pass mode as it is */
    char spec[32];
    g_snprintf(spec, sizeof spec, "%zu", st.step);
    tkv_pass_view_select(self->pass_view, spec);
}

static void on_pass_activated(TkvDiagPanel *panel, guint pos, TkvWindow *self)
{
    if (self->kernel < 0)
        return;
    self->diag_pass_pos = (int)pos;
    self->diag_pass_kernel = self->kernel;
    if (!tkv_window_in_pass_mode(self))
        gtk_widget_activate_action(GTK_WIDGET(self), "win.mode", "s", "passes");
    open_waiting_pass(self);
}

static void on_passes_loaded(TkvPassView *pv, TkvWindow *self)
{
    open_waiting_pass(self);
}

void tkv_window_diag_init(TkvWindow *self)
{
    self->diag_pass_pos = -1;
    g_signal_connect(self->diag_panel, "pass-activated", G_CALLBACK(on_pass_activated), self);
    g_signal_connect(self->pass_view, "loaded", G_CALLBACK(on_passes_loaded), self);
}
