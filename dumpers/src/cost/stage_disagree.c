/* stage_disagree.c - where the PTX and the SASS line table disagree about
 * a source line: the tensor-core, TMA, barrier and memory instructions a
 * line has in the PTX against those nvdisasm's line table puts on it.
 *
 * ptxas schedules: it moves instructions across the .loc boundaries of the
 * PTX, and the line table it writes gives each SASS instruction the line of
 * whatever PTX it came from last, or of the code it was scheduled next to.
 * An FP8 tl.dot's wgmma can land, in the SASS line table, on the loads
 * above it.  Both files are faithful to their input; a user asking "what
 * did my dot become" must be told that the stages disagree.
 *
 * Per class, the counts are compared only where the whole kernel has as
 * many of that class in the PTX as in the SASS (one PTX wgmma is one
 * HGMMA/QGMMA, one cp.async.bulk.tensor one UTMALDG): then a line with
 * fewer in the SASS than in the PTX lost them to the lines with more.
 * Where the totals differ (a barrier that ptxas expands, loads it merges),
 * counts per line say nothing and nothing is said.
 */
#include "cost/internal.h"

#include <string.h>

/* The classes compared: the ones a user asks about when a dot, a copy or a
 * wait went missing (ALU work is reshuffled freely and not worth a note). */
static const tk_sass_class compared[] = {
    TK_SASS_TENSOR, TK_SASS_TMA, TK_SASS_BARRIER, TK_SASS_GLOBAL, TK_SASS_SHARED,
};
#define N_COMPARED (sizeof compared / sizeof compared[0])

static gboolean has_prefix(const char *op, size_t len, const char *p)
{
    size_t n = strlen(p);
    return len >= n && memcmp(op, p, n) == 0;
}

int cost_ptx_class(const char *op, size_t len)
{
    /* Waits and fences first: they share prefixes with the copies and the
     * MMAs they wait for. */
    static const char *const barrier[] = {
        "bar.", "barrier.", "mbarrier.", "fence.", "membar.", "wgmma.fence",
        "wgmma.commit_group", "wgmma.wait_group", "cp.async.commit_group",
        "cp.async.wait_group", "cp.async.wait_all", "cp.async.bulk.commit_group",
        "cp.async.bulk.wait_group", "cp.async.mbarrier.", "tcgen05.fence",
        "tcgen05.wait", "tcgen05.commit",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(barrier); i++)
        if (has_prefix(op, len, barrier[i]))
            return TK_SASS_BARRIER;
    static const char *const tensor[] = {"wgmma.mma_async", "mma.", "wmma.mma",
                                         "tcgen05.mma"};
    for (size_t i = 0; i < G_N_ELEMENTS(tensor); i++)
        if (has_prefix(op, len, tensor[i]))
            return TK_SASS_TENSOR;
    if (has_prefix(op, len, "cp.async.") || has_prefix(op, len, "cp.reduce.async.bulk"))
        return TK_SASS_TMA;
    static const char *const shared[] = {"ld.shared", "st.shared", "atom.shared",
                                         "red.shared", "ldmatrix", "stmatrix"};
    for (size_t i = 0; i < G_N_ELEMENTS(shared); i++)
        if (has_prefix(op, len, shared[i]))
            return TK_SASS_SHARED;
    static const char *const global[] = {"ld.global", "st.global", "atom.global",
                                         "red.global", "ld.local", "st.local"};
    for (size_t i = 0; i < G_N_ELEMENTS(global); i++)
        if (has_prefix(op, len, global[i]))
            return TK_SASS_GLOBAL;
    return -1;
}

/* The opcode of PTX instruction line TEXT (after a predicate "@%p1"),
 * or 0. */
static int ptx_opcode(const char *p, size_t len, const char **op, size_t *op_len)
{
    const char *end = p + len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p < end && *p == '@') {
        while (p < end && *p != ' ' && *p != '\t')
            p++;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
    }
    const char *s = p;
    while (p < end && *p != ' ' && *p != '\t' && *p != ';')
        p++;
    *op = s;
    *op_len = (size_t)(p - s);
    return p > s && (g_ascii_isalpha(*s));
}

/* The mnemonic to name a class by on a line: "wgmma" of
 * "wgmma.mma_async.sync...", "QGMMA" of "QGMMA.64x64x32...". */
static char *mnemonic(const char *op, size_t len)
{
    const char *dot = memchr(op, '.', len);
    return g_strndup(op, dot ? (size_t)(dot - op) : len);
}

typedef struct {
    uint64_t key;          /* file << 32 | line */
    uint32_t n[2];         /* PTX, SASS */
    char *name[2];         /* first mnemonic seen in each */
} pos_count;

static pos_count *count_at(GHashTable *h, GArray *order, uint64_t key)
{
    gpointer v = g_hash_table_lookup(h, &key);
    if (v)
        return g_array_index(order, pos_count *, GPOINTER_TO_SIZE(v) - 1);
    pos_count *pc = g_new0(pos_count, 1);
    pc->key = key;
    g_array_append_val(order, pc);
    g_hash_table_insert(h, g_memdup2(&key, sizeof key), GSIZE_TO_POINTER(order->len));
    return pc;
}

static void pos_count_free(pos_count *pc)
{
    g_free(pc->name[0]);
    g_free(pc->name[1]);
    g_free(pc);
}

static char *place(const tk_loctab *tab, tk_file_id here, uint64_t key)
{
    tk_file_id f = (tk_file_id)(key >> 32);
    if (f == here)
        return g_strdup_printf("%u", (uint32_t)key);
    const char *path = tk_loctab_file_path(tab, f);
    const char *b = strrchr(path, '/');
    return g_strdup_printf("%s:%u", b ? b + 1 : path, (uint32_t)key);
}

/* "lines 32, 33" / "line 32" for the positions of ORDER (of class I's side
 * S) other than KEY that have more on side S than on the other. */
static char *elsewhere(const tk_loctab *tab, GArray *order, uint64_t key, int s,
                       uint32_t *count)
{
    GString *g = g_string_new(NULL);
    guint n = 0;
    *count = 0;
    for (guint i = 0; i < order->len; i++) {
        pos_count *o = g_array_index(order, pos_count *, i);
        if (o->key == key || o->n[s] <= o->n[1 - s])
            continue;
        char *p = place(tab, (tk_file_id)(key >> 32), o->key);
        g_string_append_printf(g, "%s%s", n++ ? ", " : "", p);
        g_free(p);
        *count += o->n[s] - o->n[1 - s];
    }
    if (!n) {
        g_string_free(g, TRUE);
        return NULL;
    }
    g_string_prepend(g, n > 1 ? "lines " : "line ");
    return g_string_free(g, FALSE);
}

static gint cmp_pos(gconstpointer a, gconstpointer b)
{
    uint64_t x = (*(pos_count *const *)a)->key, y = (*(pos_count *const *)b)->key;
    return (x > y) - (x < y);
}

void cost_disagreements_find(const tk_bind *ix, const tk_kernel *k,
                             const tk_loctab *tab, const cost_insns *insns,
                             GArray *out)
{
    const tk_stage *ptx = tk_kernel_stage(k, TK_STAGE_PTX);
    if (!ptx || !insns->n)
        return;
    for (size_t ci = 0; ci < N_COMPARED; ci++) {
        tk_sass_class cls = compared[ci];
        GHashTable *h = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
        GArray *order = g_array_new(FALSE, FALSE, sizeof(pos_count *));
        uint32_t total[2] = {0, 0};
        for (uint32_t l = 1; l <= tk_stage_line_count(ptx); l++) {
            if (tk_stage_line_kind(ptx, l) != TK_LINE_INSTRUCTION)
                continue;
            size_t len;
            const char *text = tk_stage_line(ptx, l, &len);
            const char *op;
            size_t op_len;
            if (!text || !ptx_opcode(text, len, &op, &op_len) ||
                cost_ptx_class(op, op_len) != (int)cls)
                continue;
            total[0]++;
            const tk_stack_id *ids;
            if (!tk_bind_line_stacks(ix, TK_STAGE_PTX, l, &ids))
                continue;
            size_t nfr;
            const tk_frame *fr = tk_loctab_stack_frames(tab, ids[0], &nfr);
            pos_count *pc = count_at(h, order, (uint64_t)fr[0].file << 32 | fr[0].line);
            pc->n[0]++;
            if (!pc->name[0])
                pc->name[0] = mnemonic(op, op_len);
        }
        const tk_stage *sass = tk_kernel_stage(k, TK_STAGE_SASS);
        for (size_t i = 0; i < insns->n; i++) {
            if (insns->cls[i] != cls)
                continue;
            total[1]++;
            const tk_stack_id *ids;
            if (!tk_bind_line_stacks(ix, TK_STAGE_SASS, insns->line[i], &ids))
                continue;
            size_t nfr;
            const tk_frame *fr = tk_loctab_stack_frames(tab, ids[0], &nfr);
            pos_count *pc = count_at(h, order, (uint64_t)fr[0].file << 32 | fr[0].line);
            pc->n[1]++;
            if (!pc->name[1]) {
                size_t len;
                const char *text = tk_stage_line(sass, insns->line[i], &len);
                pc->name[1] = text ? mnemonic(text + insns->op[i], insns->op_len[i])
                                   : g_strdup(tk_sass_class_name(cls));
            }
        }
        if (total[0] == total[1] && total[0]) {
            g_array_sort(order, cmp_pos);
            for (guint i = 0; i < order->len; i++) {
                pos_count *pc = g_array_index(order, pos_count *, i);
                if (pc->n[0] == pc->n[1])
                    continue;
                /* The side that has more here, and where the other side
                 * put the rest. */
                int more = pc->n[0] > pc->n[1] ? 0 : 1;
                uint32_t moved;
                char *where = elsewhere(tab, order, pc->key, 1 - more, &moved);
                const char *pname = pc->name[0] ? pc->name[0] : tk_sass_class_name(cls);
                const char *sname = pc->name[1] ? pc->name[1] : tk_sass_class_name(cls);
                cost_disagreement d = {0};
                d.pub.file = (tk_file_id)(pc->key >> 32);
                d.pub.line = (uint32_t)pc->key;
                d.pub.cls = cls;
                d.pub.n_ptx = pc->n[0];
                d.pub.n_sass = pc->n[1];
                char *rest = where ? g_strdup_printf(", %u on %s", moved, where)
                                   : g_strdup("");
                if (more == 0)
                    d.text = g_strdup_printf("PTX: %u %s on this line; SASS line info: %u here%s",
                                             pc->n[0], pname, pc->n[1], rest);
                else
                    d.text = g_strdup_printf("SASS line info: %u %s on this line; PTX: %u here%s",
                                             pc->n[1], sname, pc->n[0], rest);
                g_free(rest);
                d.pub.text = d.text;
                g_array_append_val(out, d);
                g_free(where);
            }
        }
        for (guint i = 0; i < order->len; i++)
            pos_count_free(g_array_index(order, pos_count *, i));
        g_array_free(order, TRUE);
        g_hash_table_destroy(h);
    }
}
