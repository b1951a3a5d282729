/* words_memo.c - the token diffs of changed lines, kept by their shape
 * (tl_words_hunks(), timeline/internal.h).
 *
 * A token diff's hunks depend only on which tokens are equal: the classes
 * diff_classify() gives (numbered in order of first appearance, A first)
 * and the work bounds, which come from the line's token count.  Changed
 * lines come back in the same shape with other bytes: a register
 * renumbered through an INLINEASM line of 64 operands, the same line in
 * every configuration of a kernel.  autotuned_matmul's report diffs 38,383
 * distinct pairs of lines, of 2,241 shapes; the histogram diff of the
 * repeated shapes was half of its word diffs (1.1 G instructions).
 *
 * The hunks are kept keyed by the classes (compared whole on a hit),
 * shared by the pass and comparison threads under a lock, up to
 * MEMO_BYTES, then forgotten all at once (util/memo.h, as diff/align.c keeps a line's
 * words).  A hit gives the hunks diff_classes() would: it is a function of
 * the key alone.
 */
#include <glib.h>
#include <string.h>

#include "diff/internal.h"
#include "timeline/internal.h"
#include "util/memo.h"

#define MEMO_BYTES ((size_t)8 << 20)

typedef struct {
    uint64_t hash;
    uint64_t total;         /* the line's tokens, both sides: the work bounds */
    uint32_t na, nb;        /* classes of A, then B, at CLS */
    const uint32_t *cls;
    size_t n;               /* hunks at HUNKS */
    tk_hunk *hunks;
    /* then: the hunks, then the classes (a key's own point at the caller's) */
} memo_diff;

static guint memo_hash(gconstpointer p)
{
    const memo_diff *m = p;
    return (guint)(m->hash ^ (m->hash >> 32));
}

static gboolean memo_equal(gconstpointer x, gconstpointer y)
{
    const memo_diff *a = x, *b = y;
    return a->hash == b->hash && a->total == b->total && a->na == b->na && a->nb == b->nb &&
           memcmp(a->cls, b->cls, ((size_t)a->na + a->nb) * sizeof(uint32_t)) == 0;
}

static memo_table words_memo = MEMO_TABLE_INIT(MEMO_BYTES, memo_hash, memo_equal);

typedef struct {
    size_t n;
    tk_hunk *hunks;
} hunks_out;

static void copy_hunks(gconstpointer hit, void *user)
{
    const memo_diff *m = hit;
    hunks_out *out = user;
    out->n = m->n;
    out->hunks = g_memdup2(m->hunks, m->n * sizeof(tk_hunk));
}

static uint64_t classes_hash(uint64_t h, const uint32_t *c, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

static int collect(const tk_hunk *h, void *user)
{
    g_array_append_val((GArray *)user, *h);
    return 0;
}

tk_hunk *tl_words_hunks(const uint32_t *ca, uint32_t na, const uint32_t *cb, uint32_t nb,
                        uint32_t n_classes, const tk_diff_opts *opts, uint64_t total,
                        size_t *n)
{
    /* B's classes follow A's in the key: hashed as one sequence */
    uint64_t h = classes_hash(classes_hash(0xcbf29ce484222325ull ^ total, ca, na), cb, nb);
    uint32_t *joined = g_new(uint32_t, (size_t)na + nb + 1);
    memcpy(joined, ca, (size_t)na * sizeof(uint32_t));
    memcpy(joined + na, cb, (size_t)nb * sizeof(uint32_t));
    memo_diff key = {.hash = h, .total = total, .na = na, .nb = nb, .cls = joined};
    hunks_out found;
    if (memo_find(&words_memo, &key, copy_hunks, &found)) {
        g_free(joined);
        *n = found.n;
        return found.hunks;
    }

    GArray *arr = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    diff_classes(ca, na, cb, nb, n_classes, opts, collect, arr);
    *n = arr->len;
    size_t size = sizeof(memo_diff) + arr->len * sizeof(tk_hunk) +
                  ((size_t)na + nb) * sizeof(uint32_t);
    memo_diff *m = g_malloc(size);
    *m = key;
    m->n = arr->len;
    m->hunks = (tk_hunk *)(void *)(m + 1);
    memcpy(m->hunks, arr->data, arr->len * sizeof(tk_hunk));
    uint32_t *cls = (uint32_t *)(void *)(m->hunks + m->n);
    memcpy(cls, joined, ((size_t)na + nb) * sizeof(uint32_t));
    m->cls = cls;
    g_free(joined);
    memo_keep(&words_memo, m, size);
    return (tk_hunk *)g_array_free(arr, FALSE);
}
