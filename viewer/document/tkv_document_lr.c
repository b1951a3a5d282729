/* tkv_document_lr.c - live registers for inputs capture did not make: on
 * the loading worker, the library makes the NAME.sass_lr a kernel lacks
 * (tk_bundle.h: which nvdisasm, where the file goes, never the input
 * folder), running what it asks for here (the library runs no programs);
 * what was done, or that no nvdisasm was found, is a note in the window's
 * problems list.  The CLI does the same (cli/cli_life_ranges.c). */
#include "document/tkv_document_private.h"
#include "tkdump/tk_life_ranges.h"

#include <stdlib.h>
#include <string.h>

#define LR_RUN_TIMEOUT_S 120

static gboolean on_timeout(gpointer data)
{
    g_cancellable_cancel(data);
    return G_SOURCE_REMOVE;
}

/* tk_run_fn: ARGV with its stdout into STDOUT_PATH, stderr kept for *ERR,
 * killed after LR_RUN_TIMEOUT_S. */
static int run(const char *const *argv, const char *stdout_path, char **err,
               void *user)
{
    (void)user;
    *err = NULL;
    GError *e = NULL;
    GSubprocessLauncher *l = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDERR_PIPE |
                                                       G_SUBPROCESS_FLAGS_STDIN_INHERIT);
    g_subprocess_launcher_set_stdout_file_path(l, stdout_path);
    GSubprocess *p = g_subprocess_launcher_spawnv(l, argv, &e);
    g_object_unref(l);
    if (!p) {
        *err = strdup(e->message);
        g_error_free(e);
        return -1;
    }
    /* A worker thread's own main context bounds the wait. */
    GMainContext *ctx = g_main_context_new();
    g_main_context_push_thread_default(ctx);
    GCancellable *cancel = g_cancellable_new();
    GSource *t = g_timeout_source_new_seconds(LR_RUN_TIMEOUT_S);
    g_source_set_callback(t, on_timeout, cancel, NULL);
    g_source_attach(t, ctx);
    char *errtext = NULL;
    gboolean ok = g_subprocess_communicate_utf8(p, NULL, cancel, NULL, &errtext, &e);
    g_source_destroy(t);
    g_source_unref(t);
    g_main_context_pop_thread_default(ctx);
    g_main_context_unref(ctx);
    int rc;
    if (!ok) {
        g_subprocess_force_exit(p);
        *err = strdup(e ? e->message : "did not end in time");
        g_clear_error(&e);
        rc = -1;
    } else {
        g_subprocess_wait(p, NULL, NULL);
        rc = g_subprocess_get_successful(p) ? 0 : 1;
        if (rc && errtext)
            *err = strdup(errtext);
    }
    g_free(errtext);
    g_object_unref(cancel);
    g_object_unref(p);
    return rc;
}

void tkv_document_make_life_ranges(tk_bundle *b, tk_diags *diags)
{
    tk_life_ranges_made m;
    tk_bundle_make_life_ranges(b, run, NULL, &m);
    if (m.made)
        tk_diags_add(diags, TK_DIAG_NOTE, m.cache, 0,
                     "made the register life ranges of %u kernel%s with %s "
                     "(nvdisasm --print-life-ranges), kept here",
                     m.made, m.made == 1 ? "" : "s", m.tool);
    if (m.no_tool)
        tk_diags_add(diags, TK_DIAG_NOTE, "", 0,
                     "%u kernel%s no NAME.sass_lr and no nvdisasm was found "
                     "(looked at TKVIEW_NVDISASM, else Triton's backends/nvidia/bin "
                     "through python3, TRITON_NVDISASM_PATH, PATH, CUDA_HOME/bin and "
                     "/usr/local/cuda/bin): no register pressure there",
                     m.no_tool, m.no_tool == 1 ? " has" : "s have");
    if (m.failed)
        tk_diags_add(diags, TK_DIAG_NOTE, "", 0,
                     "nvdisasm could not make the register life ranges of %u "
                     "kernel%s: %s", m.failed, m.failed == 1 ? "" : "s",
                     m.why ? m.why : "no reason given");
    tk_life_ranges_made_clear(&m);
}
