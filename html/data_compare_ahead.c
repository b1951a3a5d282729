/* data_compare_ahead.c - a comparison's row diffs made ahead on every core
 * (data_compare_ahead.h). */
#include "data_compare_ahead.h"

#include "report.h"

/* Whether the passes of ROW changed nothing on every side that runs it:
 * then the IR after it is the IR after the row before. */
gboolean html_compare_row_unchanged(const tk_compare *cmp, const tk_compare_row *row)
{
    for (int s = 0; s < 2; s++) {
        if (row->pass[s] == TK_COMPARE_NONE)
            continue;
        const tk_timeline_entry *e = tk_timeline_get(tk_compare_timeline(cmp, s), row->pass[s]);
        if (e->effect != TK_EFFECT_UNCHANGED || e->scope_kind == TK_PASS_SCOPE_LOOP)
            return FALSE;
    }
    return TRUE;
}

#define AHEAD_THREADS 8
#define AHEAD_MAX 16 /* diffs made and not yet taken, at most */

typedef struct {
    size_t row;
    tk_timeline_point which;
    gboolean done;
    GString *json; /* NULL: no text on a side */
} ahead_job;

struct html_compare_ahead {
    const tk_compare *cmp;
    tk_timeline_texts *texts;
    GArray *jobs; /* ahead_job */
    guint next;   /* the first job not started */
    guint taken;  /* the jobs taken */
    gboolean stop;
    GMutex lock;  /* guards the fields above and the jobs' */
    GCond cond;
    GThread *t[AHEAD_THREADS];
};

/* Diff row I (WHICH) as JSON; NULL when a side has no text there. */
GString *html_compare_row_json(const tk_compare *cmp, tk_timeline_texts *texts, size_t i,
                               tk_timeline_point which)
{
    tk_diags *d = tk_diags_new();
    tk_ir_diff *diff = tk_compare_diff_row_kept(cmp, texts, i, which, NULL, d);
    tk_diags_free(d);
    if (!diff)
        return NULL;
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    html_report_diff_json(NULL, diff, NULL, &w);
    tk_ir_diff_free(diff);
    return g;
}

static gpointer ahead_worker(gpointer data)
{
    html_compare_ahead *a = data;
    g_mutex_lock(&a->lock);
    for (;;) {
        while (!a->stop && a->next < a->jobs->len && a->next >= a->taken + AHEAD_MAX)
            g_cond_wait(&a->cond, &a->lock);
        if (a->stop || a->next >= a->jobs->len)
            break;
        guint k = a->next++;
        ahead_job j = g_array_index(a->jobs, ahead_job, k);
        g_mutex_unlock(&a->lock);
        GString *g = html_compare_row_json(a->cmp, a->texts, j.row, j.which);
        g_mutex_lock(&a->lock);
        g_array_index(a->jobs, ahead_job, k).json = g;
        g_array_index(a->jobs, ahead_job, k).done = TRUE;
        g_cond_broadcast(&a->cond);
    }
    g_mutex_unlock(&a->lock);
    return NULL;
}

/* Starts the workers on CMP's jobs; NULL (each diff made when asked) on
 * one core, or when no thread could be made. */
html_compare_ahead *html_compare_ahead_start(const tk_compare *cmp, tk_timeline_texts *texts)
{
    guint want = MIN((guint)g_get_num_processors(), AHEAD_THREADS);
    if (want < 2)
        return NULL;
    html_compare_ahead *a = g_new0(html_compare_ahead, 1);
    a->cmp = cmp;
    a->texts = texts;
    a->jobs = g_array_new(FALSE, TRUE, sizeof(ahead_job));
    for (size_t i = 0; i < tk_compare_row_count(cmp); i++) {
        const tk_compare_row *row = tk_compare_row_get(cmp, i);
        ahead_job j = {.row = i, .which = TK_TL_OUTPUT};
        if (row->output != TK_COMPARE_SAME && !(i > 0 && html_compare_row_unchanged(cmp, row)))
            g_array_append_val(a->jobs, j);
        j.which = TK_TL_INPUT;
        if (i == 0 && row->input != TK_COMPARE_SAME)
            g_array_append_val(a->jobs, j);
    }
    g_mutex_init(&a->lock);
    g_cond_init(&a->cond);
    guint made = 0;
    for (guint i = 0; i < want; i++)
        if ((a->t[made] = g_thread_try_new("tkview-compare", ahead_worker, a, NULL)))
            made++;
    if (made)
        return a;
    g_mutex_clear(&a->lock);
    g_cond_clear(&a->cond);
    g_array_free(a->jobs, TRUE);
    g_free(a);
    return NULL;
}

/* Row I's diff (WHICH): the next job's, waited for; made here when it is
 * not the next job (a row the row before could not lend its diff). */
GString *html_compare_ahead_take(html_compare_ahead *a, size_t i, tk_timeline_point which)
{
    const ahead_job *next = a->taken < a->jobs->len
                                ? &g_array_index(a->jobs, ahead_job, a->taken)
                                : NULL;
    if (!next || next->row != i || next->which != which)
        return html_compare_row_json(a->cmp, a->texts, i, which);
    g_mutex_lock(&a->lock);
    ahead_job *j = &g_array_index(a->jobs, ahead_job, a->taken);
    while (!j->done)
        g_cond_wait(&a->cond, &a->lock);
    GString *g = j->json;
    j->json = NULL;
    a->taken++;
    g_cond_broadcast(&a->cond);
    g_mutex_unlock(&a->lock);
    return g;
}

/* Stops the workers (the budget ran out, or the rows are written) and
 * frees what they made that was not taken. */
void html_compare_ahead_free(html_compare_ahead *a)
{
    if (!a)
        return;
    g_mutex_lock(&a->lock);
    a->stop = TRUE;
    g_cond_broadcast(&a->cond);
    g_mutex_unlock(&a->lock);
    for (guint i = 0; i < AHEAD_THREADS && a->t[i]; i++)
        g_thread_join(a->t[i]);
    for (guint i = 0; i < a->jobs->len; i++)
        if (g_array_index(a->jobs, ahead_job, i).json)
            g_string_free(g_array_index(a->jobs, ahead_job, i).json, TRUE);
    g_array_free(a->jobs, TRUE);
    g_mutex_clear(&a->lock);
    g_cond_clear(&a->cond);
    g_free(a);
}

