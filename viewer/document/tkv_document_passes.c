/* tkv_document_passes.c - what pass mode and compare mode ask of a
 * document, made on worker threads: a kernel's timeline, a pass diff, a
 * comparison of two kernels and a row's diff.  They share one lock, as the
 * library's timelines are not thread-safe. */
#include "document/tkv_document_private.h"

static void timeline_thread(GTask *task, gpointer source, gpointer task_data,
                            GCancellable *cancellable)
{
    TkvDocument *self = source;
    size_t i = GPOINTER_TO_SIZE(task_data);
    g_mutex_lock(&self->pass_lock);
    if (!self->kernels[i].timeline_built && !g_cancellable_is_cancelled(cancellable)) {
        self->kernels[i].timeline = tk_timeline_of_kernel(
            self->bundle, tk_bundle_kernel(self->bundle, i), NULL, self->pass_diags);
        self->kernels[i].timeline_built = TRUE;
    }
    gboolean built = self->kernels[i].timeline_built;
    g_mutex_unlock(&self->pass_lock);
    if (!built)
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
    else
        g_task_return_pointer(task, self->kernels[i].timeline, NULL);
}

void tkv_document_timeline_async(TkvDocument *doc, size_t i, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
    GTask *task = tkv_document_job_new(doc, "tkview timeline", cancellable, callback, user_data);
    if (!doc->loaded || i >= doc->n_kernels) {
        g_task_return_pointer(task, NULL, NULL);
        g_object_unref(task);
    } else {
        tkv_document_job_run(task, timeline_thread, GSIZE_TO_POINTER(i), NULL);
    }
}

const tk_timeline *tkv_document_timeline_finish(TkvDocument *doc, GAsyncResult *result,
                                                GError **error)
{
    return g_task_propagate_pointer(G_TASK(result), error);
}

const tk_timeline *tkv_document_get_timeline(TkvDocument *doc, size_t i, gboolean *built)
{
    gboolean b = FALSE;
    const tk_timeline *tl = NULL;
    if (doc->loaded && i < doc->n_kernels && g_mutex_trylock(&doc->pass_lock)) {
        b = doc->kernels[i].timeline_built;
        tl = doc->kernels[i].timeline;
        g_mutex_unlock(&doc->pass_lock);
    }
    if (built)
        *built = b;
    return tl;
}

typedef struct {
    const tk_timeline *tl;
    size_t from, sub, to;
    TkvDiffPrepare prepare;
    GDestroyNotify prepared_free;
    gpointer prepared; /* PREPARE's, until finish takes it */
    TkvDiffOut out;
} DiffJob;

static void diff_job_free(gpointer p)
{
    DiffJob *j = p;
    if (j->prepared && j->prepared_free)
        j->prepared_free(j->prepared);
    tkv_diff_out_clear(&j->out);
    g_free(j);
}

static tk_ir_diff *make_diff(gpointer job, tk_diags *diags)
{
    DiffJob *j = job;
    /* A pass with nothing comparable before it (the first LLVM IR dump):
     * its IR after it on both sides, a diff without a change, for the pass
     * view to show the side that exists (tkv_pass_view_select.c). */
    tk_ir_diff *d = j->sub != TK_TL_NONE
                        ? tk_timeline_diff_substep(j->tl, j->from, j->sub, NULL, diags)
                        : tk_timeline_diff_shown(j->tl, j->from, j->to, NULL, NULL, diags);
    if (d && j->prepare)
        j->prepared = j->prepare(d);
    return d;
}

static void diff_thread(GTask *task, gpointer source, gpointer task_data,
                        GCancellable *cancellable)
{
    DiffJob *j = task_data;
    tkv_diff_out_make(task, source, cancellable, &j->out, make_diff, j);
}

void tkv_document_diff_async(TkvDocument *doc, const tk_timeline *tl, size_t from, size_t sub,
                             size_t to, TkvDiffPrepare prepare, GDestroyNotify prepared_free,
                             GCancellable *cancellable, GAsyncReadyCallback callback,
                             gpointer user_data)
{
    DiffJob *j = g_new0(DiffJob, 1);
    j->prepare = prepare;
    j->prepared_free = prepared_free;
    j->tl = tl;
    j->from = from;
    j->sub = sub;
    j->to = to;
    tkv_document_job_run(tkv_document_job_new(doc, "tkview diff", cancellable, callback,
                                              user_data),
                         diff_thread, j, diff_job_free);
}

tk_ir_diff *tkv_document_diff_finish(TkvDocument *doc, GAsyncResult *result, gpointer *prepared,
                                     char **why)
{
    DiffJob *j = tkv_document_job_data(result);
    tk_ir_diff *d = tkv_diff_out_finish(result, &j->out, why);
    if (prepared) {
        *prepared = d ? j->prepared : NULL;
        if (d)
            j->prepared = NULL;
    }
    return d;
}

/* ---- comparing two kernels ------------------------------------------------------ */

typedef struct {
    size_t a, b;          /* kernels */
    TkvCompareHold *hold; /* the diff's comparison */
    size_t row;
    tk_timeline_point which;
    TkvDiffOut out;
} CompareJob;

static void compare_job_free(gpointer p)
{
    CompareJob *j = p;
    if (j->hold)
        tkv_compare_hold_release(j->hold);
    tkv_diff_out_clear(&j->out);
    g_free(j);
}

static void compare_thread(GTask *task, gpointer source, gpointer task_data,
                           GCancellable *cancellable)
{
    TkvDocument *self = source;
    CompareJob *j = task_data;
    if (g_cancellable_is_cancelled(cancellable)) {
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
        return;
    }
    g_mutex_lock(&self->pass_lock);
    tk_diags *d = tk_diags_new();
    tk_compare *cmp = tk_compare_build(self->bundle, tk_bundle_kernel(self->bundle, j->a),
                                       self->bundle, tk_bundle_kernel(self->bundle, j->b),
                                       NULL, d);
    tk_diags_free(d);
    g_mutex_unlock(&self->pass_lock);
    TkvCompareHold *hold = g_rc_box_new0(TkvCompareHold);
    hold->cmp = cmp;
    g_task_return_pointer(task, hold, (GDestroyNotify)tkv_compare_hold_release);
}

static void hold_clear(gpointer p)
{
    tk_compare_free(((TkvCompareHold *)p)->cmp);
}

void tkv_compare_hold_release(TkvCompareHold *hold)
{
    g_rc_box_release_full(hold, hold_clear);
}

void tkv_document_compare_async(TkvDocument *doc, size_t a, size_t b,
                                GCancellable *cancellable, GAsyncReadyCallback callback,
                                gpointer user_data)
{
    GTask *task = tkv_document_job_new(doc, "tkview compare", cancellable, callback, user_data);
    if (!doc->loaded || a >= doc->n_kernels || b >= doc->n_kernels) {
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                "no such kernels");
        g_object_unref(task);
    } else {
        CompareJob *j = g_new0(CompareJob, 1);
        j->a = a;
        j->b = b;
        tkv_document_job_run(task, compare_thread, j, compare_job_free);
    }
}

TkvCompareHold *tkv_document_compare_finish(TkvDocument *doc, GAsyncResult *result,
                                            GError **error)
{
    return g_task_propagate_pointer(G_TASK(result), error);
}

static tk_ir_diff *make_compare_diff(gpointer job, tk_diags *diags)
{
    CompareJob *j = job;
    return tk_compare_diff_row(j->hold->cmp, j->row, j->which, NULL, diags);
}

static void compare_diff_thread(GTask *task, gpointer source, gpointer task_data,
                                GCancellable *cancellable)
{
    CompareJob *j = task_data;
    tkv_diff_out_make(task, source, cancellable, &j->out, make_compare_diff, j);
}

void tkv_document_compare_diff_async(TkvDocument *doc, TkvCompareHold *hold, size_t row,
                                     tk_timeline_point which, GCancellable *cancellable,
                                     GAsyncReadyCallback callback, gpointer user_data)
{
    CompareJob *j = g_new0(CompareJob, 1);
    j->hold = g_rc_box_acquire(hold);
    j->row = row;
    j->which = which;
    tkv_document_job_run(tkv_document_job_new(doc, "tkview compare diff", cancellable,
                                              callback, user_data),
                         compare_diff_thread, j, compare_job_free);
}

tk_ir_diff *tkv_document_compare_diff_finish(TkvDocument *doc, GAsyncResult *result,
                                             char **why)
{
    CompareJob *j = tkv_document_job_data(result);
    return tkv_diff_out_finish(result, &j->out, why);
}
