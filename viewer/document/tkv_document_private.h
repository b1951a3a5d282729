/* tkv_document_private.h - what TkvDocument's files share.
 *
 * TkvDocument is one object written in several files, each with one job:
 *   tkv_document.c         the object and what the views read of a loaded
 *                          bundle (kernels, files, source text, cost);
 *   tkv_document_load.c    loading and indexing on a worker thread;
 *   tkv_document_passes.c  timelines, pass diffs and comparisons made on
 *                          worker threads;
 *   tkv_document_configs.c every compile side by side: the table here,
 *                          its comparisons on a worker;
 *   tkv_document_job.c     what every worker job shares: its task, the
 *                          window's budget, a diff handed back.
 * Nothing outside these files includes this header.
 */
#ifndef TKV_DOCUMENT_PRIVATE_H
#define TKV_DOCUMENT_PRIVATE_H

#include "document/tkv_document.h"
#include "tkdump/tk_input_file.h"

G_BEGIN_DECLS

typedef struct {
    tk_bind *index;
    GArray *files; /* tk_file_id, own file first */
    tk_timeline *timeline; /* written under pass_lock by a worker */
    gboolean timeline_built;
    /* Made on first use (tkv_document_get_cost), the first kernel's by the
     * loading worker (it is shown first). */
    tk_profile *profile;
    tk_cost *cost;
    char *cost_problem;
    gboolean cost_built;
} KernelData;

typedef struct {
    GString *text;     /* safe text (tkv_text.h) */
    GArray *starts;    /* gsize offset of each line */
} SourceText;

/* Reads KD's profile and makes its cost tables, once (tkv_document.c). */
void tkv_document_build_cost(KernelData *kd, const tk_kernel *k, tk_loctab *tab);

struct _TkvDocument {
    GObject parent_instance;

    char *path;
    char *canonical;
    char **source_dirs;

    /* Written by the worker, read after the task completes. */
    tk_bundle *bundle;
    tk_diags *diags;
    KernelData *kernels;
    size_t n_kernels;
    const char **resolved; /* per file id, owned by the bundle */
    size_t n_files;
    double load_seconds, index_seconds;
    gboolean loaded;

    /* Progress, written by the worker while it runs. */
    gint progress_permille; /* atomic; -1: unknown */
    GMutex phase_lock;
    char *phase;

    GHashTable *sources; /* file id -> SourceText, main thread */

    GMutex pass_lock;    /* one timeline build at a time */
    tk_diags *pass_diags;
    /* What this window's loads may read in all (tk_input_file.h): one
     * window's bomb leaves the others their own. */
    tk_input_budget *budget;
};

/* A job on a worker thread for DOC: a task named NAME (g_task_new()).
 * Either the caller returns its result at once and unrefs it, or
 * tkv_document_job_run() runs it. */
GTask *tkv_document_job_new(TkvDocument *doc, const char *name, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data);

/* Runs BODY on a worker thread with DATA as its job data (freed with
 * FREE_DATA, which may be NULL, with the task), charging what it reads to
 * the window's own budget (tk_input_budget_use()): one window's bomb
 * leaves the others their own.  Takes TASK. */
void tkv_document_job_run(GTask *task, GTaskThreadFunc body, gpointer data,
                          GDestroyNotify free_data);

/* The DATA tkv_document_job_run() was given, from the task or its result. */
gpointer tkv_document_job_data(gpointer task_or_result);

/* A diff made by a job, and why there is none (the first diagnostic). */
typedef struct {
    tk_ir_diff *diff;
    char *why;
} TkvDiffOut;

/* On a worker thread: unless CANCELLABLE is cancelled (then the task's
 * result is FALSE), makes OUT's diff with MAKE(JOB, diags) under the
 * document's pass lock (the library's timelines are not thread-safe), and
 * the task's result is TRUE. */
void tkv_diff_out_make(GTask *task, TkvDocument *self, GCancellable *cancellable,
                       TkvDiffOut *out, tk_ir_diff *(*make)(gpointer job, tk_diags *diags),
                       gpointer job);
/* Frees what OUT holds. */
void tkv_diff_out_clear(TkvDiffOut *out);

/* tkv_document_lr.c: on the loading worker, the NAME.sass_lr B's kernels
 * lack made with nvdisasm into tkview's cache (tk_life_ranges.h); what was done
 * (or that no nvdisasm was found) a note in DIAGS. */
void tkv_document_make_life_ranges(tk_bundle *b, tk_diags *diags);
/* The diff of a finished job whose result was a boolean (FALSE:
 * cancelled), taken from OUT (caller frees); *WHY (when WHY is non-NULL)
 * why there is none, or NULL. */
tk_ir_diff *tkv_diff_out_finish(GAsyncResult *result, TkvDiffOut *out, char **why);

G_END_DECLS

#endif
