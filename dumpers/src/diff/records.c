/* records.c - lines to records to integer classes (xdiff's xprepare).
 *
 * Every line of both sides is hashed once; a table keyed by hash and bytes
 * gives each distinct line a small integer, so the algorithms compare
 * integers, never bytes.  Lines given by their hashes only are keyed by
 * the hash alone.  The table has a slot per line of both sides (the
 * worst case of all lines distinct) and no allocation per line.
 */
#include <glib.h>
#include <string.h>

#include "diff/internal.h"

static inline uint64_t load64(const char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline uint64_t mix(uint64_t h)
{
    h ^= h >> 32;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 29;
    return h;
}

uint64_t tk_diff_hash(const char *text, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)len;
    const char *p = text;
    size_t n = len;
    /* Two independent lanes keep the multiplier latency off the critical
     * path for long lines (MLIR tensor types make lines of a few hundred
     * bytes common). */
    uint64_t h2 = 0x6a09e667f3bcc909ull;
    while (n >= 16) {
        h = (h ^ load64(p)) * 0xbf58476d1ce4e5b9ull;
        h2 = (h2 ^ load64(p + 8)) * 0x9fb21c651e98df25ull;
        h ^= h >> 31;
        h2 ^= h2 >> 29;
        p += 16;
        n -= 16;
    }
    if (n >= 8) {
        h = (h ^ load64(p)) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    if (n > 0) {
        uint64_t v = 0;
        memcpy(&v, p, n);
        h2 = (h2 ^ v) * 0x9fb21c651e98df25ull;
        h2 ^= h2 >> 29;
    }
    return mix(h ^ (h2 * 0xff51afd7ed558ccdull));
}

typedef struct {
    uint32_t *slots;       /* class + 1, 0 when empty */
    uint64_t mask;
    uint64_t *class_hash;  /* per class */
    const tk_diff_line **class_line;
    uint32_t n_classes;
} class_table;

static uint32_t intern(class_table *t, const tk_diff_line *line, uint64_t h)
{
    uint64_t i = h & t->mask;
    for (;;) {
        uint32_t s = t->slots[i];
        if (s == 0) {
            uint32_t c = t->n_classes++;
            t->slots[i] = c + 1;
            t->class_hash[c] = h;
            t->class_line[c] = line;
            return c;
        }
        const tk_diff_line *o = t->class_line[s - 1];
        if (t->class_hash[s - 1] == h &&
            (!line || (o->len == line->len &&
                       (line->len == 0 || memcmp(o->text, line->text, line->len) == 0))))
            return s - 1;
        i = (i + 1) & t->mask;
    }
}

static void classify_side(class_table *t, const tk_diff_input *in,
                          uint32_t *out)
{
    if (!in->lines) {
        /* Lines known by their hashes only (a dump too big to keep): equal
         * hashes are equal lines. */
        for (uint32_t i = 0; i < in->n; i++)
            out[i] = intern(t, NULL, in->hashes[i]);
        return;
    }
    for (uint32_t i = 0; i < in->n; i++) {
        const tk_diff_line *l = &in->lines[i];
        uint64_t h = in->hashes ? in->hashes[i] : tk_diff_hash(l->text, l->len);
        out[i] = intern(t, l, h);
    }
}

uint32_t diff_classify(const tk_diff_input *a, const tk_diff_input *b,
                       uint32_t **ca, uint32_t **cb)
{
    uint64_t total = (uint64_t)a->n + b->n;
    uint64_t size = 16;
    while (size < 2 * total)
        size <<= 1;
    class_table t = {
        .slots = g_new0(uint32_t, size),
        .mask = size - 1,
        .class_hash = g_new(uint64_t, total + 1),
        .class_line = g_new(const tk_diff_line *, total + 1),
    };
    *ca = g_new(uint32_t, a->n + 1);
    *cb = g_new(uint32_t, b->n + 1);
    classify_side(&t, a, *ca);
    classify_side(&t, b, *cb);
    g_free(t.slots);
    g_free(t.class_hash);
    g_free(t.class_line);
    return t.n_classes;
}

void diff_mark_all(diff_env *env, uint32_t a0, uint32_t a1, uint32_t b0,
                   uint32_t b1)
{
    if (a1 > a0)
        memset(env->chg_a + a0, 1, a1 - a0);
    if (b1 > b0)
        memset(env->chg_b + b0, 1, b1 - b0);
}

uint32_t *diff_scratch(diff_env *env, size_t n)
{
    if (n > env->scratch_cap) {
        size_t cap = env->scratch_cap ? env->scratch_cap : 1024;
        while (cap < n)
            cap *= 2;
        g_free(env->scratch);
        env->scratch = g_new(uint32_t, cap);
        env->scratch_cap = cap;
    }
    return env->scratch;
}
