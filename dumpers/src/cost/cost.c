/* cost.c - tk_cost: every SASS instruction's values (static counts and,
 * with a profile, measured ones) put on source lines and IR lines.
 *
 * One pass over the kernel's instructions gives each its value vector and
 * the totals; the first question about source lines adds each vector to
 * the source lines of its stack (exact, inclusive, shared: tk_cost.h):
 * `info` asks only totals.  IR lines of the other stages are worth the sum over the
 * instructions bound to them; outside a USE_IR_LOC capture that depends
 * only on a line's stacks (tk_bind_stage_to_stage() looks at nothing
 * else), so it is asked once per distinct stack set and each line keeps
 * the index of its set's vector.
 *
 * The tables are read by cost_query.c.
 */
#include "cost/cost_table.h"

#include <stdlib.h>

#include "load/internal.h"
#include "tkdump/tk_input_file.h"
#include <string.h>

typedef struct {
    tk_file_id file;
    uint32_t line;
    size_t at; /* its exact, inclusive and shared vectors in the pool */
    uint32_t sites;
} src_entry;

/* ---- metrics ------------------------------------------------------------- */

static void add_metric(tk_cost *c, const char *name, char *label,
                       tk_metric_kind kind)
{
    g_ptr_array_add(c->names, (gpointer)name);
    g_ptr_array_add(c->labels, label);
    g_array_append_val(c->kinds, kind);
}

static void make_metrics(tk_cost *c, const tk_profile *p, gboolean live)
{
    c->names = g_ptr_array_new();
    c->labels = g_ptr_array_new_with_free_func(g_free);
    c->kinds = g_array_new(FALSE, FALSE, sizeof(tk_metric_kind));
    add_metric(c, "instructions", g_strdup("SASS instructions"),
               TK_METRIC_STATIC);
    for (int k = 0; k < TK_SASS_CLASS_COUNT; k++)
        add_metric(c, tk_sass_class_name((tk_sass_class)k),
                   g_strdup_printf("%s instructions",
                                   tk_sass_class_label((tk_sass_class)k)),
                   TK_METRIC_STATIC);
    c->m_spill = c->names->len;
    add_metric(c, "spill_instructions",
               g_strdup("local-memory instructions (LDL, STL: spills)"),
               TK_METRIC_STATIC);
    add_metric(c, "spill_bytes",
               g_strdup("local-memory bytes per thread (LDL, STL: spills)"),
               TK_METRIC_STATIC);
    c->m_live = 0;
    if (live) {
        c->m_live = c->names->len;
        add_metric(c, "live_registers",
                   g_strdup("live registers (GPR, peak)"), TK_METRIC_STATIC);
        add_metric(c, "live_predicates",
                   g_strdup("live predicate registers (peak)"),
                   TK_METRIC_STATIC);
        add_metric(c, "live_uniform_registers",
                   g_strdup("live uniform registers (peak)"),
                   TK_METRIC_STATIC);
        add_metric(c, "live_uniform_predicates",
                   g_strdup("live uniform predicates (peak)"),
                   TK_METRIC_STATIC);
    }
    size_t first_measured = c->names->len;
    c->n_static = first_measured;
    c->def = 0;
    c->stall_first = c->n_stall = 0;
    for (size_t m = 0; p && m < tk_profile_metric_count(p); m++) {
        const char *name = tk_profile_metric_name(p, m);
        add_metric(c, name, g_strdup(tk_profile_metric_label(p, m)),
                   TK_METRIC_MEASURED);
        if (strcmp(name, "samples") == 0)
            c->def = first_measured + m;
        if (g_str_has_prefix(name, "stall_")) {
            if (!c->n_stall)
                c->stall_first = first_measured + m;
            if (c->stall_first + c->n_stall == first_measured + m)
                c->n_stall++;
        }
    }
    c->nm = c->names->len;
    c->peak = g_new0(guint8, c->nm + 1);
    for (size_t m = 0; live && m < COST_LR_FILES; m++)
        c->peak[c->m_live + m] = 1;
}

size_t tk_cost_metric_count(const tk_cost *c)
{
    return c->nm;
}

const char *tk_cost_metric_name(const tk_cost *c, size_t m)
{
    return m < c->nm ? c->names->pdata[m] : NULL;
}

const char *tk_cost_metric_label(const tk_cost *c, size_t m)
{
    return m < c->nm ? c->labels->pdata[m] : NULL;
}

tk_metric_kind tk_cost_metric_kind(const tk_cost *c, size_t m)
{
    return m < c->nm ? g_array_index(c->kinds, tk_metric_kind, m)
                     : TK_METRIC_STATIC;
}

int tk_cost_metric_find(const tk_cost *c, const char *name)
{
    for (size_t m = 0; m < c->nm; m++)
        if (strcmp(c->names->pdata[m], name) == 0)
            return (int)m;
    return -1;
}

size_t tk_cost_default_metric(const tk_cost *c)
{
    return c->def;
}

size_t tk_cost_stall_metrics(const tk_cost *c, size_t *first)
{
    *first = c->stall_first;
    return c->n_stall;
}

/* ---- source lines ----------------------------------------------------- */

static double *entry_vec(tk_cost *c, size_t idx, int which)
{
    src_entry *e = &g_array_index(c->entries, src_entry, idx);
    return &g_array_index(c->pool, double, e->at + (size_t)which * c->nm);
}

static size_t entry_of(tk_cost *c, tk_file_id f, uint32_t l)
{
    uint64_t key = cost_pos_key(f, l);
    gpointer v = g_hash_table_lookup(c->src_index, &key);
    if (v)
        return GPOINTER_TO_SIZE(v) - 1;
    src_entry e = {f, l, c->pool->len, 0};
    g_array_set_size(c->pool, c->pool->len + 3 * c->nm); /* zeroed */
    g_array_append_val(c->entries, e);
    g_hash_table_insert(c->src_index, g_memdup2(&key, sizeof key),
                        GSIZE_TO_POINTER(c->entries->len));
    return c->entries->len - 1;
}

/* Adds V to TO, or for a peak metric keeps the larger. */
void cost_add_vec(const tk_cost *c, double *to, const double *v)
{
    for (size_t i = 0; i < c->nm; i++)
        to[i] = c->peak[i] ? MAX(to[i], v[i]) : to[i] + v[i];
}

/* Appends the distinct positions of stack ID to KEYS. */
static void add_positions(const tk_loctab *tab, tk_stack_id id, GArray *keys)
{
    size_t n;
    const tk_frame *fr = tk_loctab_stack_frames(tab, id, &n);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = cost_pos_key(fr[i].file, fr[i].line);
        gboolean seen = FALSE;
        for (guint j = 0; j < keys->len && !seen; j++)
            seen = g_array_index(keys, uint64_t, j) == k;
        if (!seen)
            g_array_append_val(keys, k);
    }
}

/* Puts instruction I (SASS line LINE, values V) on its source lines. */
static void attribute(tk_cost *c, const tk_bind *ix,
                      uint32_t line, const double *v, GArray *keys,
                      GArray *some)
{
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(ix, TK_STAGE_SASS, line, &ids);
    if (n == 0) {
        cost_add_vec(c, c->noloc, v);
        return;
    }
    size_t nfr;
    const tk_frame *fr = tk_loctab_stack_frames(c->tab, ids[0], &nfr);
    cost_add_vec(c, entry_vec(c, entry_of(c, fr[0].file, fr[0].line), 0), v);

    g_array_set_size(keys, 0);
    for (size_t i = 0; i < n; i++)
        add_positions(c->tab, ids[i], keys);
    const tk_stack_id *cand;
    size_t nc = tk_bind_line_call_sites(ix, TK_STAGE_SASS, line, &cand);
    g_array_set_size(some, 0);
    if (nc) {
        /* The binding index says which frames every candidate has (certain:
         * inclusive, as `bind --source` lists them); the others are the
         * call sites in doubt: shared. */
        const tk_frame *cf;
        size_t ncf = tk_bind_line_certain_frames(ix, TK_STAGE_SASS, line, &cf);
        for (size_t j = 0; j < ncf; j++) {
            uint64_t key = cost_pos_key(cf[j].file, cf[j].line);
            gboolean known = FALSE;
            for (guint q = 0; q < keys->len && !known; q++)
                known = g_array_index(keys, uint64_t, q) == key;
            if (!known)
                g_array_append_val(keys, key);
        }
        for (size_t k = 0; k < nc; k++)
            add_positions(c->tab, cand[k], some);
        guint w = 0;
        for (guint j = 0; j < some->len; j++) {
            uint64_t key = g_array_index(some, uint64_t, j);
            gboolean known = FALSE;
            for (guint q = 0; q < keys->len && !known; q++)
                known = g_array_index(keys, uint64_t, q) == key;
            if (!known)
                g_array_index(some, uint64_t, w++) = key;
        }
        g_array_set_size(some, w);
        c->unsplit++;
    }
    for (guint j = 0; j < keys->len; j++) {
        uint64_t key = g_array_index(keys, uint64_t, j);
        size_t e = entry_of(c, (tk_file_id)(key >> 32), (uint32_t)key);
        cost_add_vec(c, entry_vec(c, e, 1), v);
    }
    for (guint j = 0; j < some->len; j++) {
        uint64_t key = g_array_index(some, uint64_t, j);
        size_t e = entry_of(c, (tk_file_id)(key >> 32), (uint32_t)key);
        cost_add_vec(c, entry_vec(c, e, 2), v);
        src_entry *se = &g_array_index(c->entries, src_entry, e);
        if (se->sites < nc)
            se->sites = (uint32_t)nc;
    }
}

static gint cmp_line(gconstpointer a, gconstpointer b, gpointer tab)
{
    const tk_cost_line *x = a, *y = b;
    if (x->file != y->file)
        return strcmp(tk_loctab_file_path(tab, x->file),
                      tk_loctab_file_path(tab, y->file));
    return (x->line > y->line) - (x->line < y->line);
}

static void finish_lines(tk_cost *c)
{
    c->n_lines = c->entries->len;
    c->lines = g_new0(tk_cost_line, c->n_lines ? c->n_lines : 1);
    for (size_t i = 0; i < c->n_lines; i++) {
        src_entry *e = &g_array_index(c->entries, src_entry, i);
        tk_cost_line *l = &c->lines[i];
        l->file = e->file;
        l->line = e->line;
        l->exact = &g_array_index(c->pool, double, e->at);
        l->inclusive = l->exact + c->nm;
        l->shared = l->exact + 2 * c->nm;
        l->shared_sites = e->sites;
    }
    g_qsort_with_data(c->lines, (gint)c->n_lines, sizeof(tk_cost_line),
                      cmp_line, (gpointer)c->tab);
    g_hash_table_remove_all(c->src_index);
    for (size_t i = 0; i < c->n_lines; i++) {
        uint64_t key = cost_pos_key(c->lines[i].file, c->lines[i].line);
        g_hash_table_insert(c->src_index, g_memdup2(&key, sizeof key),
                            GSIZE_TO_POINTER(i + 1));
    }
}

/* ---- stages that disagree ------------------------------------------------ */

static gint cmp_disagree(gconstpointer a, gconstpointer b, gpointer tab)
{
    const cost_disagreement *x = a, *y = b;
    if (x->pub.file != y->pub.file)
        return strcmp(tk_loctab_file_path(tab, x->pub.file),
                      tk_loctab_file_path(tab, y->pub.file));
    if (x->pub.line != y->pub.line)
        return (x->pub.line > y->pub.line) - (x->pub.line < y->pub.line);
    return (x->pub.cls > y->pub.cls) - (x->pub.cls < y->pub.cls);
}

/* Found the first time they are asked for (`info` and `bind --ir` do
 * not ask), by the first thread that asks. */
static void find_disagreements(const tk_cost *cc)
{
    tk_cost *c = (tk_cost *)cc;
    if (!g_once_init_enter(&c->disagree_ready))
        return;
    const tk_bind *ix = c->ix;
    const tk_kernel *k = c->kernel;
    const tk_loctab *tab = c->tab;
    c->disagree = g_array_new(FALSE, FALSE, sizeof(cost_disagreement));
    cost_disagreements_find(ix, k, tab, &c->insns, c->disagree);
    if (c->disagree->len)
        g_qsort_with_data(c->disagree->data, (gint)c->disagree->len,
                          sizeof(cost_disagreement), cmp_disagree, (gpointer)tab);
    c->dpub = g_new0(tk_cost_disagreement, c->disagree->len + 1);
    for (guint i = 0; i < c->disagree->len; i++)
        c->dpub[i] = g_array_index(c->disagree, cost_disagreement, i).pub;
    g_once_init_leave(&c->disagree_ready, 1);
}

size_t tk_cost_disagreements(const tk_cost *c, const tk_cost_disagreement **out)
{
    find_disagreements(c);
    *out = c->disagree->len ? c->dpub : NULL;
    return c->disagree->len;
}

size_t tk_cost_line_disagreements(const tk_cost *c, tk_file_id file, uint32_t line,
                                  const tk_cost_disagreement **out)
{
    find_disagreements(c);
    *out = NULL;
    size_t n = 0;
    for (guint i = 0; i < c->disagree->len; i++) {
        if (c->dpub[i].file != file || c->dpub[i].line != line)
            continue;
        if (!n)
            *out = &c->dpub[i];
        n++;
    }
    return n;
}

/* ---- build ----------------------------------------------------------------- */

/* The live counts of every instruction from the kernel's NAME.sass_lr, or
 * why there are none. */
static void read_life_ranges(tk_cost *c, const tk_kernel *k,
                             const tk_stage *sass)
{
    if (!sass || !c->insns.n)
        return;
    c->lr_path = bundle_meta_life_ranges_path(k);
    if (!c->lr_path) {
        c->lr_why = g_strdup_printf(
            "no %s.sass_lr beside the cubin or the SASS (make one with: "
            "nvdisasm --print-life-ranges --life-range-mode count -c "
            "%s.cubin > %s.sass_lr)", tk_kernel_name(k), tk_kernel_name(k),
            tk_kernel_name(k));
        return;
    }
    size_t len;
    char *err = NULL;
    char *text = tk_input_file_read(c->lr_path, TK_INPUT_FILE_STAGE, &len,
                                    &err);
    if (text) {
        c->lr = g_new(uint16_t, c->insns.n * COST_LR_FILES);
        if (cost_lr_match(text, len, tk_kernel_name(k), sass, &c->insns,
                          c->lr, &err) != 0) {
            g_free(c->lr);
            c->lr = NULL;
        }
    }
    if (!c->lr) {
        c->lr_why = g_strdup_printf("%s: %s", c->lr_path, err);
        g_free(c->lr_path);
        c->lr_path = NULL;
    }
    g_free(err);
    g_free(text);
}

tk_cost *tk_cost_new(const tk_bind *ix, const tk_kernel *k,
                     const tk_loctab *tab, const tk_profile *p)
{
    tk_cost *c = g_new0(tk_cost, 1);
    c->tab = tab;
    c->ix = ix;
    c->kernel = k;
    const tk_stage *sass = tk_kernel_stage(k, TK_STAGE_SASS);
    cost_insns_read(sass, tk_kernel_name(k), &c->insns);
    read_life_ranges(c, k, sass);
    make_metrics(c, p, c->lr != NULL);
    c->total = g_new0(double, c->nm);
    c->noloc = g_new0(double, c->nm);
    c->entries = g_array_new(FALSE, FALSE, sizeof(src_entry));
    c->pool = g_array_new(FALSE, TRUE, sizeof(double));
    c->src_index = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                         NULL);
    size_t n_static = c->n_static;
    c->ivals = g_new0(double, c->insns.n * c->nm + 1);
    for (size_t i = 0; i < c->insns.n; i++) {
        double *v = c->ivals + i * c->nm;
        v[0] = 1;
        v[1 + c->insns.cls[i]] = 1;
        size_t ll;
        const char *sl = tk_stage_line(sass, c->insns.line[i], &ll);
        int store;
        int bytes = cost_local_bytes(sl + c->insns.op[i], c->insns.op_len[i],
                                     &store);
        if (bytes) {
            v[c->m_spill] = 1;
            v[c->m_spill + 1] = bytes;
        }
        for (int f = 0; c->lr && f < COST_LR_FILES; f++)
            v[c->m_live + (size_t)f] = c->lr[i * COST_LR_FILES + (size_t)f];
        const double *pv = p ? tk_profile_line_values(p, c->insns.line[i])
                             : NULL;
        if (pv)
            memcpy(v + n_static, pv, (c->nm - n_static) * sizeof *v);
        cost_add_vec(c, c->total, v);
    }
    return c;
}

void cost_lines_build(const tk_cost *cc)
{
    tk_cost *c = (tk_cost *)cc;
    if (!g_once_init_enter(&c->lines_ready))
        return;
    GArray *keys = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    GArray *some = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    for (size_t i = 0; i < c->insns.n; i++)
        attribute(c, c->ix, c->insns.line[i], c->ivals + i * c->nm, keys, some);
    g_array_free(keys, TRUE);
    g_array_free(some, TRUE);
    finish_lines(c);
    g_once_init_leave(&c->lines_ready, 1);
}

void tk_cost_free(tk_cost *c)
{
    if (!c)
        return;
    g_ptr_array_free(c->names, TRUE);
    g_ptr_array_free(c->labels, TRUE);
    g_array_free(c->kinds, TRUE);
    g_free(c->total);
    g_free(c->noloc);
    g_free(c->peak);
    g_free(c->lr);
    g_free(c->lr_path);
    g_free(c->lr_why);
    cost_insns_clear(&c->insns);
    g_free(c->ivals);
    g_array_free(c->entries, TRUE);
    g_array_free(c->pool, TRUE);
    g_hash_table_destroy(c->src_index);
    g_free(c->lines);
    cost_ir_clear(c);
    for (guint i = 0; c->disagree && i < c->disagree->len; i++)
        g_free(g_array_index(c->disagree, cost_disagreement, i).text);
    if (c->disagree)
        g_array_free(c->disagree, TRUE);
    g_free(c->dpub);
    g_free(c);
}
