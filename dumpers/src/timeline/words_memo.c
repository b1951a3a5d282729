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
 * MEMO_BYTES, then forgotten all at once (as diff/align.c keeps a line's
 * words).  A hit gives the hunks diff_classes() would: it is a function of
 * the key alone.
 */
#include <glib.h>
#include <string.h>

#include "diff/internal.h"
#include "timeline/internal.h"

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

static GMutex memo_lock;
static GHashTable *memo; /* memo_diff -> itself */
static size_t memo_bytes;

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
    g_mutex_lock(&memo_lock);
    const memo_diff *hit = memo ? g_hash_table_lookup(memo, &key) : NULL;
    if (hit) {
        *n = hit->n;
        tk_hunk *out = g_memdup2(hit->hunks, hit->n * sizeof(tk_hunk));
        g_mutex_unlock(&memo_lock);
        g_free(joined);
        return out;
    }
    g_mutex_unlock(&memo_lock);

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
    g_mutex_lock(&memo_lock);
    if (!memo)
        memo = g_hash_table_new_full(memo_hash, memo_equal, g_free, NULL);
    if (memo_bytes + size > MEMO_BYTES) {
        g_hash_table_remove_all(memo);
        memo_bytes = 0;
    }
    if (size > MEMO_BYTES || g_hash_table_contains(memo, m)) {
        g_free(m); /* too big to keep, or another thread made it meanwhile */
    } else {
        g_hash_table_add(memo, m);
        memo_bytes += size;
    }
    g_mutex_unlock(&memo_lock);
    return (tk_hunk *)g_array_free(arr, FALSE);
}
