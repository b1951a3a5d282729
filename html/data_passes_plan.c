/* data_passes_plan.c - every kernel's pass data (data_passes.c) made by
 * several threads: the pass files indexed first on one thread, then the
 * kernels taken in turn, the most pass dump bytes first, so the threads
 * finish together.  Apart from data_passes.c: scheduling, not data. */
#include "data_passes.h"
#include "report.h"
#include "tkdump/tk_passes.h"

/* The kernels' pass work, planned (parts found, pass files indexed) and
 * then done by up to PASS_THREADS threads (one per core), which take
 * kernels in turn, the biggest first. */
struct html_report_passes {
    html_report *r;
    gint next;
    guint *order;             /* kernel indexes, most pass dump bytes first */
    tk_timeline_part **parts; /* per kernel, taken by html_kernel_passes() */
    size_t *n_parts;
    tk_diags **diags;         /* per kernel */
    int *rc;                  /* per kernel */
};

static gpointer passes_worker(gpointer data)
{
    html_report_passes *pw = data;
    for (;;) {
        gint x = g_atomic_int_add(&pw->next, 1);
        if (x < 0 || (guint)x >= pw->r->kernels->len)
            return NULL;
        guint i = pw->order[x];
        html_report_kernel *rk = &g_array_index(pw->r->kernels, html_report_kernel, i);
        tk_loctab *tab = tk_loctab_new();
        pw->rc[i] = html_kernel_passes(pw->r, rk, pw->parts[i], pw->n_parts[i], tab, pw->diags[i]);
        tk_loctab_free(tab);
    }
}

/* Bytes of pass dumps of a kernel's parts: how long its timeline takes,
 * roughly, to start the longest first (the threads finish together). */
static guint64 parts_bytes(const tk_timeline_part *parts, size_t n)
{
    guint64 b = 0;
    for (size_t i = 0; i < n; i++) {
        const tk_pass_seq *q = tk_passes_seq(parts[i].passes, parts[i].seq);
        for (size_t j = 0; q && j < q->n_dumps; j++) {
            const tk_pass_dump *d = tk_passes_get(parts[i].passes, q->dumps[j]);
            if (d)
                b += d->body_len;
        }
    }
    return b;
}

static guint64 *sort_bytes; /* for by_bytes, set while sorting (one thread) */

static gint by_bytes(gconstpointer a, gconstpointer b)
{
    guint64 x = sort_bytes[*(const guint *)a], y = sort_bytes[*(const guint *)b];
    return x < y ? 1 : x > y ? -1 : (*(const guint *)a > *(const guint *)b) - (*(const guint *)a < *(const guint *)b);
}

html_report_passes *html_report_passes_plan(html_report *r)
{
    /* The bundle is asked here, on one thread (indexing the pass files on
     * the first call); the threads only read the indexes it made. */
    guint n = r->kernels->len;
    html_report_passes *pw = g_new0(html_report_passes, 1);
    pw->r = r;
    pw->order = g_new0(guint, n + 1);
    pw->parts = g_new0(tk_timeline_part *, n + 1);
    pw->n_parts = g_new0(size_t, n + 1);
    pw->diags = g_new0(tk_diags *, n + 1);
    pw->rc = g_new0(int, n + 1);
    guint64 *bytes = g_new0(guint64, n + 1);
    for (guint i = 0; i < n; i++) {
        html_report_kernel *rk = &g_array_index(r->kernels, html_report_kernel, i);
        pw->n_parts[i] = tk_timeline_parts_of_kernel(r->bundle, rk->kernel, &pw->parts[i],
                                                     r->diags);
        rk->has_passes = pw->n_parts[i] > 0;
        pw->diags[i] = tk_diags_new();
        pw->order[i] = i;
        bytes[i] = parts_bytes(pw->parts[i], pw->n_parts[i]);
    }
    sort_bytes = bytes;
    qsort(pw->order, n, sizeof *pw->order, (int (*)(const void *, const void *))by_bytes);
    sort_bytes = NULL;
    g_free(bytes);
    return pw;
}

/* Threads that build kernels' timelines at once, at most: each holds about
 * two of its kernel's dumps (a 2 GB dump's kernel: tens of MB), and a
 * 37-kernel autotune on a 64-core machine need not hold 37 kernels'. */
#define PASS_THREADS 8

int html_report_passes_run(html_report *r, html_report_passes *pw)
{
    guint n = r->kernels->len;
    /* One thread per core, as many as there are kernels: a 16-kernel
     * training step took 16 timelines on two threads. */
    guint want = MIN(MIN(n, (guint)g_get_num_processors()), PASS_THREADS);
    GThread *t[PASS_THREADS] = {NULL};
    for (guint i = 1; i < want; i++)
        t[i] = g_thread_try_new("tkview-passes", passes_worker, pw, NULL);
    passes_worker(pw);
    for (guint i = 1; i < want; i++)
        if (t[i])
            g_thread_join(t[i]);
    int rc = 0;
    /* the diagnostics in kernel order, whichever thread made them (under
     * the lock: the stage data thread may report too, report.c) */
    g_mutex_lock(&r->lock);
    for (guint i = 0; i < n; i++) {
        for (size_t j = 0; j < tk_diags_count(pw->diags[i]); j++) {
            const tk_diag *d = tk_diags_get(pw->diags[i], j);
            tk_diags_add(r->diags, d->severity, d->file, d->line, "%s", d->message);
        }
        if (!rc)
            rc = pw->rc[i];
    }
    g_mutex_unlock(&r->lock);
    html_report_passes_free(pw);
    return rc;
}

void html_report_passes_free(html_report_passes *pw)
{
    if (!pw)
        return;
    for (guint i = 0; i < pw->r->kernels->len; i++) {
        tk_diags_free(pw->diags[i]);
        if (pw->next <= 0) /* never run: its parts were not taken */
            g_free(pw->parts[i]);
    }
    g_free(pw->order);
    g_free(pw->parts);
    g_free(pw->n_parts);
    g_free(pw->diags);
    g_free(pw->rc);
    g_free(pw);
}
