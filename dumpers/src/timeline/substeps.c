/* substeps.c - what the plan does once every pass has its texts: Triton's
 * internal dumps hung under their pass as sub-steps (under a placeholder
 * pass when theirs printed nothing), the sub-steps indexed by pass, and
 * the steps whose texts come from damaged dumps marked. */
#include <string.h>

#include "timeline/internal.h"

static int is_pipeline_pass(const tk_timeline_entry *e)
{
    return e->kind == TK_PASS_MLIR && !(e->flags & TK_TL_PLACEHOLDER) &&
           (strcmp(e->arg, "tritongpu-pipeline") == 0 ||
            strcmp(e->pass, "TritonGPUPipeline") == 0);
}

/* Makes room for a placeholder pass holding sub-steps whose pass has no
 * dump: after the last TTGIR-level MLIR pass, else after the last MLIR
 * pass, else first. */
static size_t add_placeholder(tk_timeline *tl)
{
    GArray *es = tl->entries;
    size_t at = 0, at_mlir = 0;
    for (guint i = 0; i < es->len; i++) {
        tk_timeline_entry *e = &g_array_index(tl->entries, tk_timeline_entry, i);
        if (e->kind == TK_PASS_MLIR) {
            at_mlir = i + 1;
            if (e->level == TK_PASS_LEVEL_TTGIR)
                at = i + 1;
        }
    }
    if (at == 0)
        at = at_mlir;
    tk_timeline_entry e = {0};
    e.part = e.dump = TK_TL_NONE;
    e.kind = TK_PASS_MLIR;
    e.when = TK_PASS_AFTER;
    e.status = TK_PASS_PRINTED;
    e.scope_kind = TK_PASS_SCOPE_NONE;
    e.level = TK_PASS_LEVEL_TTGIR;
    e.pass = "SoftwarePipeliner";
    e.arg = e.scope = e.scope_name = "";
    e.effect = TK_EFFECT_UNKNOWN;
    e.why = TK_UNKNOWN_NO_BEFORE;
    e.flags = TK_TL_PLACEHOLDER;
    e.before = e.after = tl_side_none();
    e.parent = TK_TL_NONE;
    g_array_insert_val(es, at, e);
    return at;
}

/* Hangs Triton's internal dumps under their pass as sub-steps.  Linear in
 * the number of entries and internal dumps: both are in file order within
 * a part. */
void tl_attach_internal(tk_timeline *tl, GArray *internal)
{
    size_t n = internal->len;
    if (n == 0)
        return;
    const tl_internal_dump *in = (const tl_internal_dump *)internal->data;
    size_t *hosts = g_new(size_t, n);
    size_t *runs = g_new(size_t, n);
    /* Runs: a run starts again at its first step's name, or when something
     * else of this kernel came between two internal dumps. */
    size_t run = 0;
    const char *first_arg = "";
    /* By position: the last MLIR Before dump before it in the same file. */
    size_t next = 0, host = TK_TL_NONE, host_part = TK_TL_NONE;
    GArray *es = tl->entries;
    for (size_t i = 0; i < n; i++) {
        const tk_pass_dump *d = tl_dump(tl, in[i].part, in[i].dump);
        if (i == 0) {
            first_arg = d->arg;
        } else if (in[i - 1].part != in[i].part || in[i - 1].pos + 1 != in[i].pos ||
                   strcmp(d->arg, first_arg) == 0) {
            run++;
            first_arg = d->arg;
        }
        runs[i] = run;
        if (in[i].part != host_part) {
            next = 0;
            host = TK_TL_NONE;
            host_part = in[i].part;
        }
        for (; next < es->len; next++) {
            const tk_timeline_entry *e = &g_array_index(tl->entries, tk_timeline_entry, next);
            if (e->part != in[i].part || e->kind != TK_PASS_MLIR ||
                e->when != TK_PASS_BEFORE)
                continue;
            if (tl_dump(tl, e->part, e->dump)->header_offset >= d->header_offset)
                break;
            host = next;
        }
        hosts[i] = host;
    }
    /* By name: the n-th run to the n-th pipeline pass. */
    GArray *pipes = g_array_new(FALSE, FALSE, sizeof(size_t));
    for (size_t i = 0; i < es->len; i++)
        if (is_pipeline_pass(&g_array_index(tl->entries, tk_timeline_entry, i)))
            g_array_append_val(pipes, i);
    size_t placeholder = TK_TL_NONE;
    for (size_t i = 0; i < n; i++) {
        if (hosts[i] != TK_TL_NONE)
            continue;
        if (pipes->len) {
            size_t want = runs[i] < pipes->len ? runs[i] : pipes->len - 1;
            hosts[i] = g_array_index(pipes, size_t, want);
            continue;
        }
        if (placeholder == TK_TL_NONE) {
            placeholder = add_placeholder(tl);
            for (size_t k = 0; k < n; k++)
                if (hosts[k] != TK_TL_NONE && hosts[k] >= placeholder)
                    hosts[k]++;
        }
        hosts[i] = placeholder;
    }
    g_array_free(pipes, TRUE);
    for (size_t i = 0; i < n; i++) {
        tk_timeline_entry s = tl_entry_from_dump(tl, in[i].part, in[i].dump);
        s.parent = hosts[i];
        const tk_timeline_entry *h = &g_array_index(tl->entries, tk_timeline_entry, hosts[i]);
        s.after = tl_side_dump(in[i].part, in[i].dump);
        if (i > 0 && runs[i - 1] == runs[i] && hosts[i - 1] == hosts[i])
            s.before = tl_side_dump(in[i - 1].part, in[i - 1].dump);
        else if (h->before.kind == TK_SIDE_DUMP)
            s.before = h->before;
        else
            s.why = TK_UNKNOWN_NO_BEFORE;
        g_array_append_val(tl->subs, s);
    }
    g_free(hosts);
    g_free(runs);
}

/* Sorts sub-steps by parent (keeping their order) and indexes them. */
static int by_parent(gconstpointer a, gconstpointer b, gpointer user)
{
    (void)user;
    const tk_timeline_entry *x = a, *y = b;
    return x->parent < y->parent ? -1 : x->parent > y->parent;
}

void tl_index_subs(tk_timeline *tl)
{
    size_t n = tl->entries->len;
    /* Stable: the sub-steps of one pass stay in file order. */
    GArray *s = tl->subs;
    g_qsort_with_data(s->data, (gint)s->len, sizeof(tk_timeline_entry),
                      by_parent, NULL);
    tl->sub_first = g_new0(size_t, n + 1);
    for (guint i = 0; i < s->len; i++) {
        size_t par = g_array_index(s, tk_timeline_entry, i).parent;
        g_array_index(tl->entries, tk_timeline_entry, par).n_substeps++;
    }
    size_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        tl->sub_first[i] = acc;
        acc += g_array_index(tl->entries, tk_timeline_entry, i).n_substeps;
    }
    tl->sub_first[n] = acc;
}

static int side_damaged(const tk_timeline *tl, const tk_timeline_side *s)
{
    const unsigned bad = TK_PASS_CUT | TK_PASS_INTERLEAVED | TK_PASS_BINARY;
    if (s->kind == TK_SIDE_DUMP || s->kind == TK_SIDE_STATE)
        if (tl_dump(tl, s->part, s->dump)->flags & bad)
            return 1;
    for (size_t i = 0; i < s->n_pieces; i++)
        if (tl_dump(tl, s->pieces[i].part, s->pieces[i].dump)->flags & bad)
            return 1;
    return 0;
}

void tl_mark_damaged(tk_timeline *tl, GArray *es)
{
    for (guint i = 0; i < es->len; i++) {
        tk_timeline_entry *e = &g_array_index(es, tk_timeline_entry, i);
        if (side_damaged(tl, &e->before) || side_damaged(tl, &e->after))
            e->flags |= TK_TL_DAMAGED;
    }
}
