/* index_jobs.c - pass dump files indexed on threads: on as many as there
 * are processors (an MLIR_DUMP_PATH file and a stderr at once), each taking
 * the next file, and all of them begun ahead, while a front end does other work (tk_bundle_passes.h:
 * tk_bundle_pass_files_start()).
 *
 * Ahead or not, the same jobs run on the same files, and passfiles.c puts
 * their diagnostics in file order and matches kernels to sequences on the
 * thread that asks, so what is found and said does not depend on when the
 * indexing began.  A job touches only its file's entry (bundle_pass_file)
 * and the load's budget, which is charged from any thread; nothing else
 * of the bundle changes until the jobs are joined.
 */
#include "passfiles/internal.h"
#include "tkdump/tk_bundle_passes.h"

struct bundle_pass_ahead {
    tk_bundle *b;
    tk_input_budget *budget;
    GThread *thread;
    bundle_passfiles_index_job *jobs; /* set by the thread */
    gint done;
};

static gpointer index_job_run(gpointer data)
{
    bundle_passfiles_index_job *j = data;
    tk_input_budget *before = tk_input_budget_use(j->budget);
    bundle_passfiles_index_one(j->f, j->diags);
    tk_input_budget_use(before);
    return NULL;
}

/* The jobs of one indexing, taken in turn by a few workers: a capture
 * of 37 kernels has 74 slices, and a thread each cost more (its stack,
 * its malloc arena) than the indexing of a slice with a stored index. */
struct index_pool {
    bundle_passfiles_index_job *jobs;
    guint n;
    gint next;
};

static gpointer pool_run(gpointer data)
{
    struct index_pool *p = data;
    for (;;) {
        guint i = (guint)g_atomic_int_add(&p->next, 1);
        if (i >= p->n)
            return NULL;
        if (p->jobs[i].f)
            index_job_run(&p->jobs[i]);
    }
}

/* Indexes the files not tried yet, charging BUDGET: on this thread and
 * on up to one more thread per other processor, each taking the next
 * file not begun.  A job touches only its own file's entry, so what is
 * found does not depend on which thread took it. */
static bundle_passfiles_index_job *index_now(tk_bundle *b, tk_input_budget *budget)
{
    guint n = b->pass_found ? b->pass_found->len : 0;
    bundle_passfiles_index_job *jobs = g_new0(bundle_passfiles_index_job, n + 1);
    guint todo = 0;
    for (guint i = 0; i < n; i++) {
        bundle_pass_file *f = g_ptr_array_index(b->pass_found, i);
        if (f->tried)
            continue;
        jobs[i] = (bundle_passfiles_index_job){f, tk_diags_new(), budget};
        todo++;
    }
    struct index_pool pool = {jobs, n, 0};
    guint cpus = g_get_num_processors();
    guint extra = todo > 1 && cpus > 1 ? MIN(todo, cpus) - 1 : 0;
    GThread **threads = g_new0(GThread *, extra + 1);
    for (guint t = 0; t < extra; t++)
        threads[t] = g_thread_try_new("tkdump-index", pool_run, &pool, NULL);
    /* On this thread too: everything when no thread could be made. */
    pool_run(&pool);
    for (guint t = 0; t < extra; t++)
        if (threads[t])
            g_thread_join(threads[t]);
    g_free(threads);
    return jobs;
}

static gpointer ahead_run(gpointer data)
{
    struct bundle_pass_ahead *a = data;
    a->jobs = index_now(a->b, a->budget);
    g_atomic_int_set(&a->done, 1);
    return NULL;
}

/* The current thread's budget (tk_input_budget_use() without changing it). */
static tk_input_budget *current_budget(void)
{
    tk_input_budget *budget = tk_input_budget_use(NULL);
    tk_input_budget_use(budget);
    return budget;
}

int tk_bundle_pass_files_start(tk_bundle *b)
{
    if (!b || b->pass_files || b->pass_ahead || !b->pass_found ||
        b->pass_found->len == 0 || g_get_num_processors() < 2)
        return 0;
    struct bundle_pass_ahead *a = g_new0(struct bundle_pass_ahead, 1);
    a->b = b;
    a->budget = current_budget();
    a->thread = g_thread_try_new("tkdump-ahead", ahead_run, a, NULL);
    if (!a->thread) {
        g_free(a);
        return 0;
    }
    b->pass_ahead = a;
    return 1;
}

int tk_bundle_pass_files_indexing(const tk_bundle *b)
{
    return b && b->pass_ahead && !g_atomic_int_get(&b->pass_ahead->done);
}

/* The jobs begun ahead, once they are done; NULL when none were begun. */
static bundle_passfiles_index_job *ahead_join(tk_bundle *b)
{
    struct bundle_pass_ahead *a = b->pass_ahead;
    if (!a)
        return NULL;
    g_thread_join(a->thread);
    bundle_passfiles_index_job *jobs = a->jobs;
    g_free(a);
    b->pass_ahead = NULL;
    return jobs;
}

bundle_passfiles_index_job *bundle_passfiles_index_jobs(tk_bundle *b)
{
    bundle_passfiles_index_job *jobs = ahead_join(b);
    return jobs ? jobs : index_now(b, current_budget());
}

void bundle_passfiles_ahead_clear(tk_bundle *b)
{
    bundle_passfiles_index_job *jobs = ahead_join(b);
    for (guint i = 0; jobs && b->pass_found && i < b->pass_found->len; i++)
        tk_diags_free(jobs[i].diags);
    g_free(jobs);
}
