/* attrib.c - grouping dumps into one sequence per compile of one kernel,
 * and finding the sequence that matches a key (a kernel's name, num_warps
 * and final stage digests, which the bundle side fills in).
 *
 * Rules (docs/passes.md):
 *  - A dump that defines a kernel (tt.func public, llvm.func with
 *    nvvm.kernel, define ptx_kernel) belongs to the latest sequence of that
 *    kernel, unless its IR level is lower than the level that sequence has
 *    reached: the pipeline started again, so a new compile (another autotune
 *    configuration, a recompile) starts a new sequence.  Levels come from the
 *    content (TTIR < TTGIR < LLVM dialect < LLVM IR < codegen IR < MIR), so
 *    a pass that runs twice in one pipeline (GluonInline) never splits it.
 *  - A dump that defines no kernel (a helper function such as __nv_erff, a
 *    machine function, a -print-changed banner) goes to the latest sequence
 *    of the function its scope names, else to the sequence of the dump
 *    before it: compiles in one process run one after the other.
 * Kernels of different names may interleave freely; two compiles of the same
 * kernel are told apart only if they do not interleave.
 */
#include "passes/internal.h"

#include <string.h>

typedef struct {
    const char *kernel;
    GArray *dumps; /* size_t */
    tk_pass_level first_level, last_level;
    const char *module_attrs;
    int64_t total_warps;
} seq_build;

static int64_t attr_int(const char *attrs, const char *name);

static size_t new_seq(GArray *b, const char *kernel)
{
    seq_build s = {kernel ? kernel : "", g_array_new(FALSE, FALSE,
                                                     sizeof(size_t)),
                   TK_PASS_LEVEL_UNKNOWN, TK_PASS_LEVEL_UNKNOWN, "", -1};
    g_array_append_val(b, s);
    return b->len - 1;
}

/* ONE: every dump is the one compile's (a capture's per-compile file). */
static void attribute(tk_passes *p, int one)
{
    GArray *b = g_array_new(FALSE, FALSE, sizeof(seq_build));
    /* kernel or function name -> 1 + index of its latest sequence */
    GHashTable *latest = g_hash_table_new(g_str_hash, g_str_equal);
    size_t current = (size_t)-1;

    for (size_t i = 0; i < p->dumps->len; i++) {
        tk_pass_dump *d = &g_array_index(p->dumps, tk_pass_dump, i);
        size_t s = (size_t)-1;
        if (one) {
            s = b->len ? 0 : new_seq(b, d->kernel);
            seq_build *sb = &g_array_index(b, seq_build, s);
            if (!sb->kernel[0] && d->kernel[0])
                sb->kernel = d->kernel;
        } else if (d->kernel[0]) {
            gpointer v = g_hash_table_lookup(latest, d->kernel);
            if (v) {
                s = GPOINTER_TO_SIZE(v) - 1;
                const seq_build *sb = &g_array_index(b, seq_build, s);
                if (d->level != TK_PASS_LEVEL_UNKNOWN &&
                    d->level < sb->last_level)
                    s = (size_t)-1; /* the pipeline started again */
            }
            if (s == (size_t)-1) {
                s = new_seq(b, d->kernel);
                g_hash_table_insert(latest, (gpointer)d->kernel,
                                    GSIZE_TO_POINTER(s + 1));
            }
        } else {
            const char *weak = d->scope_name[0] ? d->scope_name
                               : d->n_functions ? d->functions[0]
                                                : NULL;
            gpointer v = weak ? g_hash_table_lookup(latest, weak) : NULL;
            if (v)
                s = GPOINTER_TO_SIZE(v) - 1;
            else if (current != (size_t)-1)
                s = current;
            else {
                s = new_seq(b, weak);
                if (weak)
                    g_hash_table_insert(latest, (gpointer)weak,
                                        GSIZE_TO_POINTER(s + 1));
            }
        }
        seq_build *sb = &g_array_index(b, seq_build, s);
        g_array_append_val(sb->dumps, i);
        if (d->level != TK_PASS_LEVEL_UNKNOWN) {
            if (sb->first_level == TK_PASS_LEVEL_UNKNOWN)
                sb->first_level = d->level;
            if (d->level > sb->last_level)
                sb->last_level = d->level;
            if (d->level == TK_PASS_LEVEL_TTGIR && !sb->module_attrs[0])
                sb->module_attrs = d->module_attrs;
        }
        /* Warp specialization adds its partitions' warps to the module's
         * count late in the pipeline; the metadata counts them all. */
        int64_t tw = attr_int(d->module_attrs, "\"ttg.total-num-warps\" = ");
        if (tw > sb->total_warps)
            sb->total_warps = tw;
        d->seq = s;
        current = s;
    }

    p->seq_dumps = g_new(size_t, p->dumps->len ? p->dumps->len : 1);
    size_t at = 0;
    for (guint i = 0; i < b->len; i++) {
        seq_build *sb = &g_array_index(b, seq_build, i);
        tk_pass_seq s;
        memset(&s, 0, sizeof s);
        s.kernel = sb->kernel;
        s.n_dumps = sb->dumps->len;
        s.dumps = p->seq_dumps + at;
        memcpy(p->seq_dumps + at, sb->dumps->data,
               sb->dumps->len * sizeof(size_t));
        at += sb->dumps->len;
        s.module_attrs = sb->module_attrs;
        s.first = g_array_index(p->dumps, tk_pass_dump,
                                g_array_index(sb->dumps, size_t, 0))
                      .digest;
        s.first_level = sb->first_level;
        s.last_level = sb->last_level;
        s.total_warps = sb->total_warps;
        g_array_append_val(p->seqs, s);
        g_array_free(sb->dumps, TRUE);
    }
    g_array_free(b, TRUE);
    g_hash_table_destroy(latest);
}

void passes_attribute(tk_passes *p)
{
    attribute(p, 0);
}

void passes_attribute_one_compile(tk_passes *p)
{
    if (p->seqs->len <= 1)
        return;
    g_array_set_size(p->seqs, 0);
    g_free(p->seq_dumps);
    p->seq_dumps = NULL;
    attribute(p, 1);
}

size_t tk_passes_seq_count(const tk_passes *p)
{
    return p->seqs->len;
}

const tk_pass_seq *tk_passes_seq(const tk_passes *p, size_t i)
{
    return i < p->seqs->len ? &g_array_index(p->seqs, tk_pass_seq, i) : NULL;
}

/* The integer after NAME (which ends in "= ") in module attributes, or -1. */
static int64_t attr_int(const char *attrs, const char *name)
{
    const char *k = attrs ? strstr(attrs, name) : NULL;
    if (!k)
        return -1;
    k += strlen(name);
    int64_t v = 0;
    if (*k < '0' || *k > '9')
        return -1;
    while (*k >= '0' && *k <= '9' && v < INT32_MAX)
        v = v * 10 + (*k++ - '0');
    return v;
}

static int score(const tk_passes *p, size_t seq, const tk_pass_key *key)
{
    const tk_pass_seq *s = tk_passes_seq(p, seq);
    if (!s || !key->name || strcmp(s->kernel, key->name) != 0)
        return 0;
    int64_t nw = attr_int(s->module_attrs, "\"ttg.num-warps\" = ");
    if (nw > 0 && key->num_warps > 0 && nw != key->num_warps &&
        s->total_warps != key->num_warps)
        return 0;
    int total = 1;
    for (size_t i = 0; i < TK_PASS_KEY_STAGES; i++) {
        if (!key->have[i])
            continue;
        int best = 0;
        for (size_t j = 0; j < s->n_dumps && best < 8; j++) {
            const tk_pass_dump *d = tk_passes_get(p, s->dumps[j]);
            if (d->body_lines == 0)
                continue;
            if (d->digest.exact == key->stage[i].exact)
                best = 8;
            else if (d->digest.noloc == key->stage[i].noloc)
                best = 4;
        }
        total += best;
    }
    return total;
}

size_t tk_passes_seq_common(const tk_passes *p, size_t a, size_t b)
{
    const tk_pass_seq *x = tk_passes_seq(p, a), *y = tk_passes_seq(p, b);
    if (!x || !y)
        return 0;
    size_t n = 0;
    while (n < x->n_dumps && n < y->n_dumps &&
           tk_passes_get(p, x->dumps[n])->digest.exact ==
               tk_passes_get(p, y->dumps[n])->digest.exact)
        n++;
    return n;
}

ptrdiff_t tk_passes_share(tk_passes *p, const size_t *seqs, size_t n)
{
    if (n < 2)
        return -1;
    size_t common = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        if (seqs[i] >= p->seqs->len || tk_passes_seq(p, seqs[i])->shared_by)
            return -1;
        size_t c = tk_passes_seq_common(p, seqs[0], seqs[i]);
        if (c < common)
            common = c;
    }
    if (common == 0)
        return -1;
    /* The same set asked for again (each of its compiles asks): the one
     * made already. */
    const tk_pass_seq *first = tk_passes_seq(p, seqs[0]);
    for (size_t i = 0; i < p->seqs->len; i++) {
        const tk_pass_seq *q = tk_passes_seq(p, i);
        if (q->shared_by == n && q->dumps == first->dumps &&
            q->n_dumps == common)
            return (ptrdiff_t)i;
    }
    /* The dumps are the first sequence's leading ones: no copy. */
    tk_pass_seq s = *first;
    s.n_dumps = common;
    s.last_level = tk_passes_get(p, first->dumps[common - 1])->level;
    if (s.last_level < s.first_level)
        s.last_level = s.first_level;
    s.shared_by = n;
    s.full_dumps = first->n_dumps;
    g_array_append_val(p->seqs, s);
    return (ptrdiff_t)p->seqs->len - 1;
}

int tk_passes_seq_score(const tk_passes *p, size_t seq,
                        const tk_pass_key *key)
{
    return score(p, seq, key);
}

ptrdiff_t tk_passes_find_seq(const tk_passes *p, const tk_pass_key *key,
                             size_t *n_best)
{
    int best = 0;
    ptrdiff_t at = -1;
    size_t n = 0;
    for (size_t i = 0; i < p->seqs->len; i++) {
        if (tk_passes_seq(p, i)->shared_by)
            continue; /* made of compiles' dumps: never a compile itself */
        int sc = score(p, i, key);
        if (sc == 0)
            continue;
        if (sc > best) {
            best = sc;
            at = (ptrdiff_t)i;
            n = 1;
        } else if (sc == best) {
            n++;
        }
    }
    if (n_best)
        *n_best = n;
    return at;
}
