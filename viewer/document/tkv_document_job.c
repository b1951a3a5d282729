/* tkv_document_job.c - what every worker job of a TkvDocument shares: its
 * task, the window's budget charged while it runs, and a diff handed back
 * to the main thread.  One place, so that no job forgets the budget. */
#include "document/tkv_document_private.h"

typedef struct {
    GTaskThreadFunc body;
    gpointer data;
    GDestroyNotify free_data;
} Job;

static void job_free(gpointer p)
{
    Job *job = p;
    if (job->free_data)
        job->free_data(job->data);
    g_free(job);
}

/* Runs the job's body on this worker thread charging the window's own
 * budget: the load and the pass dumps, diffs and comparisons it reads
 * later. */
static void job_thread(GTask *task, gpointer source, gpointer task_data,
                       GCancellable *cancellable)
{
    Job *job = task_data;
    TkvDocument *self = source;
    tk_input_budget *before = tk_input_budget_use(self->budget);
    job->body(task, source, job->data, cancellable);
    tk_input_budget_use(before);
}

GTask *tkv_document_job_new(TkvDocument *doc, const char *name, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
    GTask *task = g_task_new(doc, cancellable, callback, user_data);
    g_task_set_name(task, name);
    return task;
}

void tkv_document_job_run(GTask *task, GTaskThreadFunc body, gpointer data,
                          GDestroyNotify free_data)
{
    Job *job = g_new0(Job, 1);
    job->body = body;
    job->data = data;
    job->free_data = free_data;
    g_task_set_task_data(task, job, job_free);
    g_task_run_in_thread(task, job_thread);
    g_object_unref(task);
}

gpointer tkv_document_job_data(gpointer task_or_result)
{
    Job *job = g_task_get_task_data(G_TASK(task_or_result));
    return job ? job->data : NULL;
}

void tkv_diff_out_make(GTask *task, TkvDocument *self, GCancellable *cancellable,
                       TkvDiffOut *out, tk_ir_diff *(*make)(gpointer job, tk_diags *diags),
                       gpointer job)
{
    if (g_cancellable_is_cancelled(cancellable)) {
        g_task_return_boolean(task, FALSE);
        return;
    }
    tk_diags *diags = tk_diags_new();
    g_mutex_lock(&self->pass_lock);
    out->diff = make(job, diags);
    g_mutex_unlock(&self->pass_lock);
    if (!out->diff && tk_diags_count(diags))
        out->why = g_strdup(tk_diags_get(diags, 0)->message);
    tk_diags_free(diags);
    g_task_return_boolean(task, TRUE);
}

void tkv_diff_out_clear(TkvDiffOut *out)
{
    tk_ir_diff_free(out->diff);
    g_free(out->why);
}

tk_ir_diff *tkv_diff_out_finish(GAsyncResult *result, TkvDiffOut *out, char **why)
{
    gboolean done = g_task_propagate_boolean(G_TASK(result), NULL);
    tk_ir_diff *d = done ? out->diff : NULL;
    if (done)
        out->diff = NULL;
    if (why)
        *why = !done ? g_strdup("cancelled") : out->why ? g_strdup(out->why) : NULL;
    return d;
}
