/* ref_index.c - (source position, IR line) pairs grouped by position: the
 * binding index's exact and called arrays (internal.h), built in linear
 * time and searched by position. */
#include <glib.h>
#include <stdlib.h>

#include "bind/internal.h"

/* Groups REFS (made in ascending IR line order) by source position without
 * sorting them: positions get dense ids through a small open-addressing map,
 * a counting sort by id keeps each position's lines ascending, and only the
 * few distinct positions are sorted.  This runs in linear time; a plain sort
 * of every (position, line) pair was most of the index's cost. */
void bind_ref_index_from(const bind_ref *refs, size_t n, bind_ref_index *out)
{
    size_t cap = 64;
    while (cap < n * 2)
        cap *= 2;
    uint32_t *slot = g_new0(uint32_t, cap); /* dense id + 1; 0 = empty */
    uint64_t *ukeys = g_new(uint64_t, n ? n : 1);
    uint32_t *ids = g_new(uint32_t, n ? n : 1);
    size_t n_keys = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t key = refs[i].key;
        size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
        while (slot[h] && ukeys[slot[h] - 1] != key)
            h = (h + 1) & (cap - 1);
        if (!slot[h]) {
            ukeys[n_keys] = key;
            slot[h] = (uint32_t)++n_keys;
        }
        ids[i] = slot[h] - 1;
    }
    g_free(slot);
    /* Rank the distinct positions by key. */
    uint64_t *sorted = g_memdup2(ukeys, (n_keys ? n_keys : 1) * sizeof *ukeys);
    qsort(sorted, n_keys, sizeof *sorted, bind_cmp_u64);
    uint32_t *rank = g_new(uint32_t, n_keys ? n_keys : 1);
    for (size_t d = 0; d < n_keys; d++) {
        size_t a = bind_lower_bound(sorted, n_keys, ukeys[d]);
        rank[d] = (uint32_t)a;
    }
    uint32_t *off = g_new0(uint32_t, n_keys + 1);
    for (size_t i = 0; i < n; i++)
        off[rank[ids[i]] + 1]++;
    for (size_t r = 0; r < n_keys; r++)
        off[r + 1] += off[r];
    uint32_t *lines = g_new(uint32_t, n ? n : 1);
    uint32_t *fill = g_memdup2(off, (n_keys + 1) * sizeof *off);
    for (size_t i = 0; i < n; i++)
        lines[fill[rank[ids[i]]]++] = refs[i].irline;
    /* Drop repeats (a line with two stacks through one position); lines
     * within a position are ascending, so repeats are adjacent. */
    uint32_t w = 0;
    for (size_t r = 0; r < n_keys; r++) {
        uint32_t from = off[r], to = off[r + 1];
        off[r] = w;
        for (uint32_t i = from; i < to; i++)
            if (i == from || lines[i] != lines[i - 1])
                lines[w++] = lines[i];
    }
    off[n_keys] = w;
    g_free(fill);
    g_free(rank);
    g_free(ids);
    g_free(ukeys);
    out->keys = sorted;
    out->off = off;
    out->lines = lines;
    out->n_keys = n_keys;
}

void bind_ref_index_clear(bind_ref_index *r)
{
    g_free(r->keys);
    g_free(r->off);
    g_free(r->lines);
}

void bind_ref_range(const bind_ref_index *r, uint64_t key, size_t *lo, size_t *hi)
{
    size_t a = bind_lower_bound(r->keys, r->n_keys, key);
    if (a < r->n_keys && r->keys[a] == key) {
        *lo = r->off[a];
        *hi = r->off[a + 1];
    } else {
        *lo = *hi = 0;
    }
}
