/* tkv_document_configs.c - what configs mode asks of a document: the
 * library's table of every compile side by side (tk_configs.h), made in
 * two steps.  The table is made on the main thread (it binds and costs
 * every compile, writing the bundle's location table, a fraction of a
 * second); each row's first divergence from the winner, which reads every
 * pass dump of two compiles (seconds on a big autotune), on a worker, a
 * row at a time under the pass lock, so that timelines and diffs of the
 * other modes wait one comparison at most, and a cancelled job stops
 * after the row it is on. */
#include "document/tkv_document_private.h"

TkvConfigsHold *tkv_document_configs_new(TkvDocument *doc)
{
    if (!doc->loaded || !doc->bundle)
        return NULL;
    char *timings = tk_bundle_autotune_timings(doc->bundle);
    TkvConfigsHold *hold = g_rc_box_new0(TkvConfigsHold);
    hold->configs = tk_configs_new(doc->bundle, NULL, timings, NULL);
    g_free(timings);
    return hold;
}

static void hold_clear(gpointer p)
{
    tk_configs_free(((TkvConfigsHold *)p)->configs);
}

void tkv_configs_hold_release(TkvConfigsHold *hold)
{
    g_rc_box_release_full(hold, hold_clear);
}

static void diverge_thread(GTask *task, gpointer source, gpointer task_data,
                           GCancellable *cancellable)
{
    TkvDocument *self = source;
    tk_configs *c = ((TkvConfigsHold *)task_data)->configs;
    for (size_t g = 0; g < tk_configs_group_count(c); g++)
        for (size_t r = 0; r < tk_configs_group_get(c, g)->n_rows; r++) {
            if (g_cancellable_is_cancelled(cancellable)) {
                g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                        "cancelled");
                return;
            }
            g_mutex_lock(&self->pass_lock);
            tk_configs_diverge(c, g, r);
            g_mutex_unlock(&self->pass_lock);
        }
    g_task_return_boolean(task, TRUE);
}

void tkv_document_configs_diverge_async(TkvDocument *doc, TkvConfigsHold *hold,
                                        GCancellable *cancellable,
                                        GAsyncReadyCallback callback, gpointer user_data)
{
    GTask *task = tkv_document_job_new(doc, "tkview configs", cancellable, callback,
                                       user_data);
    tkv_document_job_run(task, diverge_thread, g_rc_box_acquire(hold),
                         (GDestroyNotify)tkv_configs_hold_release);
}

gboolean tkv_document_configs_diverge_finish(TkvDocument *doc, GAsyncResult *result,
                                             GError **error)
{
    return g_task_propagate_boolean(G_TASK(result), error);
}
