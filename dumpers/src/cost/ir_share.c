/* ir_share.c - an IR line's own share of the SASS bound to it.
 *
 * Outside a USE_IR_LOC capture a SASS instruction is bound to every line of
 * a stage with its stack: the ten PTX lines of a tl.dot all have the same
 * 22 instructions, and showing 22 on each says nothing about the line.  A
 * line's own share divides each instruction among the lines it is bound
 * to: when some of them do the instruction's kind of work (a tensor-core,
 * TMA, barrier, global or shared memory operation, as the PTX opcode or
 * the TTIR/TTGIR operation says), among those; else among those that do
 * none of these kinds; else among all.  A wgmma line gets the HGMMAs, the
 * mov lines beside it the moves.  The shares of a stage's lines add up to
 * the values of the instructions bound to any of them.  Where each
 * instruction is bound to one line (a USE_IR_LOC capture's TTGIR), the
 * share is the whole.  Peak metrics are not divided: a line's is the
 * largest of the instructions it gets.
 */
#include "cost/cost_table.h"

#include <string.h>

/* A line's bucket: 0 for no class of its own, 1 + the index in CLASSES. */
static const tk_sass_class classes[] = {
    TK_SASS_TENSOR, TK_SASS_TMA, TK_SASS_BARRIER, TK_SASS_GLOBAL, TK_SASS_SHARED,
};
#define N_BUCKETS (1 + G_N_ELEMENTS(classes))
#define ALL_BUCKETS 255

static int bucket_of_class(int cls)
{
    for (size_t i = 0; i < G_N_ELEMENTS(classes); i++)
        if ((int)classes[i] == cls)
            return (int)i + 1;
    return 0;
}

int cost_mlir_class(const char *text, size_t len)
{
    static const struct {
        const char *op;
        tk_sass_class cls;
    } ops[] = {
        /* waits first: "ttng.warp_group_dot_wait" starts like the dot */
        {"ttng.warp_group_dot_wait", TK_SASS_BARRIER},
        {"ttng.wait_barrier", TK_SASS_BARRIER},
        {"ttng.init_barrier", TK_SASS_BARRIER},
        {"ttng.barrier_expect", TK_SASS_BARRIER},
        {"ttng.arrive_barrier", TK_SASS_BARRIER},
        {"ttng.fence", TK_SASS_BARRIER},
        {"ttg.async_wait", TK_SASS_BARRIER},
        {"ttg.async_commit_group", TK_SASS_BARRIER},
        {"gpu.barrier", TK_SASS_BARRIER},
        {"tt.dot", TK_SASS_TENSOR},
        {"ttng.warp_group_dot", TK_SASS_TENSOR},
        {"ttng.tc_gen5_mma", TK_SASS_TENSOR},
        {"ttng.async_tma_", TK_SASS_TMA},
        {"ttg.async_copy_global_to_local", TK_SASS_TMA},
        {"tt.descriptor_", TK_SASS_TMA},
        {"ttg.local_load", TK_SASS_SHARED},
        {"ttg.local_store", TK_SASS_SHARED},
        {"ttg.local_alloc", TK_SASS_SHARED},
        {"tt.load", TK_SASS_GLOBAL},
        {"tt.store", TK_SASS_GLOBAL},
        {"tt.atomic_", TK_SASS_GLOBAL},
    };
    /* The operation: after "%x = " when it has results, quoted or not. */
    const char *p = text, *end = text + len;
    const char *eq = memchr(p, '=', len);
    const char *op = p;
    if (eq && eq + 1 < end && eq[1] == ' ' && p < eq && memchr(p, '%', (size_t)(eq - p)))
        op = eq + 1;
    while (op < end && (*op == ' ' || *op == '\t' || *op == '"'))
        op++;
    for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
        size_t n = strlen(ops[i].op);
        if ((size_t)(end - op) >= n && memcmp(op, ops[i].op, n) == 0)
            return ops[i].cls;
    }
    return -1;
}

/* The opcode of PTX line TEXT's instruction (after a predicate). */
static int ptx_class(const char *p, size_t len)
{
    const char *end = p + len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p < end && *p == '@')
        while (p < end && *p != ' ' && *p != '\t')
            p++;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    const char *s = p;
    while (p < end && *p != ' ' && *p != '\t' && *p != ';')
        p++;
    return cost_ptx_class(s, (size_t)(p - s));
}

static int line_bucket(const tk_stage *st, tk_stage_kind kind, uint32_t l)
{
    size_t len;
    const char *text = tk_stage_line(st, l, &len);
    if (!text)
        return 0;
    if (kind == TK_STAGE_PTX)
        return bucket_of_class(ptx_class(text, len));
    if (kind == TK_STAGE_TTIR || kind == TK_STAGE_TTGIR)
        return bucket_of_class(cost_mlir_class(text, len));
    return 0;
}

/* Which lines instruction I goes to (a bucket or ALL_BUCKETS) and among
 * how many, from COUNT (N_BUCKETS per instruction: its lines by bucket). */
static void choose(const tk_cost *c, const uint32_t *count, size_t i,
                   uint8_t *to, uint32_t *among)
{
    const uint32_t *n = count + i * N_BUCKETS;
    int own = bucket_of_class(c->insns.cls[i]);
    if (own && n[own]) {
        *to = (uint8_t)own;
        *among = n[own];
    } else if (n[0]) {
        *to = 0;
        *among = n[0];
    } else {
        *to = ALL_BUCKETS;
        *among = 0;
        for (size_t b = 0; b < N_BUCKETS; b++)
            *among += n[b];
    }
}

/* The share of group G's instructions a line of bucket B gets, appended
 * to OWNS.  Returns its index + 1, 0 when it gets none. */
static uint32_t make_share(const tk_cost *c, GArray *owns, const cost_members *m,
                           uint32_t g, int b, const uint8_t *to,
                           const uint32_t *among)
{
    uint32_t first = g_array_index(m->start, uint32_t, g - 1);
    uint32_t last = g_array_index(m->start, uint32_t, g);
    double *sum = NULL;
    double *part = g_newa(double, c->nm);
    for (uint32_t j = first; j < last; j++) {
        uint32_t i = g_array_index(m->insn, uint32_t, j);
        if (to[i] != ALL_BUCKETS && to[i] != b)
            continue;
        if (!sum) {
            g_array_set_size(owns, owns->len + c->nm);
            sum = &g_array_index(owns, double, owns->len - c->nm);
        }
        const double *v = c->ivals + (size_t)i * c->nm;
        for (size_t k = 0; k < c->nm; k++)
            part[k] = c->peak[k] ? v[k] : v[k] / among[i];
        cost_add_vec(c, sum, part);
    }
    return sum ? (uint32_t)(owns->len / c->nm) : 0;
}

void cost_ir_share(const tk_cost *c, cost_stage_cost *s, const tk_stage *st,
                   tk_stage_kind kind, const cost_members *m)
{
    s->own = g_new0(uint32_t, (size_t)s->n_lines + 1);
    uint8_t *bucket = g_new0(uint8_t, (size_t)s->n_lines + 1);
    uint32_t *count = g_new0(uint32_t, c->insns.n * N_BUCKETS + 1);
    for (uint32_t l = 1; l <= s->n_lines; l++) {
        uint32_t g = s->group[l - 1];
        if (!g)
            continue;
        bucket[l - 1] = (uint8_t)line_bucket(st, kind, l);
        uint32_t first = g_array_index(m->start, uint32_t, g - 1);
        uint32_t last = g_array_index(m->start, uint32_t, g);
        for (uint32_t j = first; j < last; j++)
            count[(size_t)g_array_index(m->insn, uint32_t, j) * N_BUCKETS +
                  bucket[l - 1]]++;
    }
    uint8_t *to = g_new0(uint8_t, c->insns.n + 1);
    uint32_t *among = g_new0(uint32_t, c->insns.n + 1);
    for (size_t i = 0; i < c->insns.n; i++)
        choose(c, count, i, &to[i], &among[i]);
    /* Lines of one group and bucket get the same share. */
    GHashTable *made = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (uint32_t l = 1; l <= s->n_lines; l++) {
        uint32_t g = s->group[l - 1];
        if (!g)
            continue;
        guint key = g * N_BUCKETS + bucket[l - 1];
        gpointer hit;
        if (!g_hash_table_lookup_extended(made, GUINT_TO_POINTER(key), NULL,
                                          &hit)) {
            hit = GUINT_TO_POINTER(make_share(c, s->owns, m, g, bucket[l - 1], to, among));
            g_hash_table_insert(made, GUINT_TO_POINTER(key), hit);
        }
        s->own[l - 1] = GPOINTER_TO_UINT(hit);
    }
    g_hash_table_destroy(made);
    g_free(to);
    g_free(among);
    g_free(count);
    g_free(bucket);
}
