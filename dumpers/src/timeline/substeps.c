/* substeps.c - what the plan does once every pass has its texts: Triton's
 * internal dumps hung under their pass as sub-steps (under a placeholder
 * pass when theirs printed nothing), the sub-steps indexed by pass, and
 * the steps whose texts come from damaged dumps marked. */
#include <string.h>

#include "timeline/internal.h"

/* The pass whose run prints an owner's internal dumps ("SoftwarePipeliner
 * internal IR Dump After: LowerLoops" is printed inside tritongpu-pipeline,
 * "WarpSpec internal IR Dump After: doTaskPartition" inside
 * nvgpu-warp-specialization).  An owner missing here has no host by name. */
static const struct {
    const char *owner, *arg, *pass;
} internal_owners[] = {
    {"SoftwarePipeliner", "tritongpu-pipeline", "TritonGPUPipeline"},
    {"WarpSpec", "nvgpu-warp-specialization", "NVGPUWarpSpecialization"},
};

static int is_host_pass(const tk_timeline_entry *e, const char *owner)
{
    if (e->kind != TK_PASS_MLIR || (e->flags & TK_TL_PLACEHOLDER))
        return 0;
    for (size_t i = 0; i < G_N_ELEMENTS(internal_owners); i++)
        if (strcmp(owner, internal_owners[i].owner) == 0)
            return strcmp(e->arg, internal_owners[i].arg) == 0 ||
                   strcmp(e->pass, internal_owners[i].pass) == 0;
    return 0;
}

/* Makes room for a placeholder pass, named OWNER, holding OWNER's sub-steps
 * when their pass has no dump: after the last TTGIR-level MLIR pass, else
 * after the last MLIR pass, else first. */
static size_t add_placeholder(tk_timeline *tl, const char *owner)
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
    e.pass = owner;
    e.arg = e.scope = e.scope_name = "";
    e.effect = TK_EFFECT_UNKNOWN;
    e.why = TK_UNKNOWN_NO_BEFORE;
    e.flags = TK_TL_PLACEHOLDER;
    e.before = e.after = tl_side_none();
    e.parent = TK_TL_NONE;
    g_array_insert_val(es, at, e);
    return at;
}

/* What the by-name rule keeps per owner of internal dumps. */
typedef struct {
    const char *name;   /* the owner, "SoftwarePipeliner" */
    size_t n_runs;      /* its runs so far */
    size_t last_run;    /* the run of its last dump */
    GArray *hosts;      /* the entries of its pass (size_t), made on need */
    size_t placeholder; /* its placeholder entry, or TK_TL_NONE */
} owner_state;

static owner_state *owner_of(GArray *owners, const char *name)
{
    for (guint i = 0; i < owners->len; i++)
        if (strcmp(g_array_index(owners, owner_state, i).name, name) == 0)
            return &g_array_index(owners, owner_state, i);
    owner_state o = {name, 0, 0, NULL, TK_TL_NONE};
    g_array_append_val(owners, o);
    return &g_array_index(owners, owner_state, owners->len - 1);
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
    /* By name: an owner's n-th run to the n-th run of its pass (the runs
     * of each owner counted apart); else to a placeholder named after the
     * owner, one per owner.  Owners are few (internal_owners). */
    GArray *owners = g_array_new(FALSE, TRUE, sizeof(owner_state));
    for (size_t i = 0; i < n; i++) {
        owner_state *o = owner_of(owners, tl_dump(tl, in[i].part, in[i].dump)->pass);
        if (o->n_runs == 0 || o->last_run != runs[i])
            o->n_runs++;
        o->last_run = runs[i];
        if (hosts[i] != TK_TL_NONE)
            continue;
        if (!o->hosts) {
            o->hosts = g_array_new(FALSE, FALSE, sizeof(size_t));
            for (size_t e = 0; e < es->len; e++)
                if (is_host_pass(&g_array_index(es, tk_timeline_entry, e), o->name))
                    g_array_append_val(o->hosts, e);
        }
        if (o->hosts->len) {
            size_t want = o->n_runs - 1;
            hosts[i] = g_array_index(o->hosts, size_t,
                                     want < o->hosts->len ? want : o->hosts->len - 1);
            continue;
        }
        if (o->placeholder == TK_TL_NONE) {
            size_t at = add_placeholder(tl, o->name);
            for (size_t k = 0; k < n; k++)
                if (hosts[k] != TK_TL_NONE && hosts[k] >= at)
                    hosts[k]++;
            for (guint q = 0; q < owners->len; q++) {
                owner_state *x = &g_array_index(owners, owner_state, q);
                if (x->placeholder != TK_TL_NONE && x->placeholder >= at)
                    x->placeholder++;
                for (guint h = 0; x->hosts && h < x->hosts->len; h++)
                    if (g_array_index(x->hosts, size_t, h) >= at)
                        g_array_index(x->hosts, size_t, h)++;
            }
            o->placeholder = at;
        }
        hosts[i] = o->placeholder;
    }
    for (guint q = 0; q < owners->len; q++)
        if (g_array_index(owners, owner_state, q).hosts)
            g_array_free(g_array_index(owners, owner_state, q).hosts, TRUE);
    g_array_free(owners, TRUE);
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
