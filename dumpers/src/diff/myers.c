/* myers.c - Myers' O(ND) diff in linear space, with xdiff's cost limit.
 *
 * E. Myers, "An O(ND) Difference Algorithm and Its Variations" (1986), section
 * 4b: search from both ends at once for a "middle snake" of an optimal path,
 * split the problem there, and solve both halves the same way.  Memory is two
 * vectors of furthest-reaching points, one per diagonal.
 *
 * Before searching, the lines whose class does not occur at all on the other
 * side of the region are marked changed and left out (they cannot be in any
 * common subsequence); in pass dumps these are most of the changed lines, and
 * leaving them out keeps D small.
 *
 * A minimal diff of two unrelated halves costs O((N+M) D).  So, as in xdiff,
 * the search for one middle snake stops after MAX_COST steps of D and splits
 * at the point reached furthest along a diagonal (from whichever end got
 * further); the half whose path is then known to cost at most MAX_COST is
 * solved minimally, the other half goes on with the same limit.  The result
 * is a correct diff that may not be minimal.  Past the environment's total
 * work budget, whatever is left unsolved is marked changed whole.
 */
#include <glib.h>
#include <limits.h>

#include "diff/internal.h"

typedef struct {
    long off1, lim1, off2, lim2;
    int need_min;
} frame;

typedef struct {
    long i1, i2;
    int min_lo, min_hi;
} split_point;

typedef struct {
    const uint32_t *x1, *x2; /* classes of the kept lines */
    long *kvdf, *kvdb;       /* indexed by diagonal d = i1 - i2 */
    long max_cost;
    diff_env *env;
} myers;

/* Finds where to split X1[off1, lim1) x X2[off2, lim2), both non-empty and
 * with different first and last lines. */
static void find_split(myers *m, long off1, long lim1, long off2, long lim2,
                       int need_min, split_point *sp)
{
    const uint32_t *x1 = m->x1, *x2 = m->x2;
    long *kvdf = m->kvdf, *kvdb = m->kvdb;
    const long dmin = off1 - lim2, dmax = lim1 - off2;
    const long fmid = off1 - off2, bmid = lim1 - lim2;
    const int odd = (int)((fmid - bmid) & 1);
    long fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;

    kvdf[fmid] = off1;
    kvdb[bmid] = lim1;
    for (long ec = 1;; ec++) {
        uint64_t steps = 0;

        /* Forward: one more step of D on every diagonal in reach. */
        if (fmin > dmin)
            kvdf[--fmin - 1] = -1;
        else
            ++fmin;
        if (fmax < dmax)
            kvdf[++fmax + 1] = -1;
        else
            --fmax;
        for (long d = fmax; d >= fmin; d -= 2) {
            long i1 = kvdf[d - 1] >= kvdf[d + 1] ? kvdf[d - 1] + 1 : kvdf[d + 1];
            long prev = i1, i2 = i1 - d;
            while (i1 < lim1 && i2 < lim2 && x1[i1] == x2[i2]) {
                i1++;
                i2++;
            }
            steps += 1 + (uint64_t)(i1 - prev);
            kvdf[d] = i1;
            if (odd && bmin <= d && d <= bmax && kvdb[d] <= i1) {
                *sp = (split_point){i1, i2, 1, 1};
                return;
            }
        }

        /* Backward, from the ends. */
        if (bmin > dmin)
            kvdb[--bmin - 1] = LONG_MAX;
        else
            ++bmin;
        if (bmax < dmax)
            kvdb[++bmax + 1] = LONG_MAX;
        else
            --bmax;
        for (long d = bmax; d >= bmin; d -= 2) {
            long i1 = kvdb[d - 1] < kvdb[d + 1] ? kvdb[d - 1] : kvdb[d + 1] - 1;
            long prev = i1, i2 = i1 - d;
            while (i1 > off1 && i2 > off2 && x1[i1 - 1] == x2[i2 - 1]) {
                i1--;
                i2--;
            }
            steps += 1 + (uint64_t)(prev - i1);
            kvdb[d] = i1;
            if (!odd && fmin <= d && d <= fmax && i1 <= kvdf[d]) {
                *sp = (split_point){i1, i2, 1, 1};
                return;
            }
        }

        int spent = diff_spend(m->env, steps);
        if (!spent && (need_min || ec < m->max_cost))
            continue;

        /* Give up on minimality: split at the furthest point reached. */
        long fbest = -1, fbest1 = -1;
        for (long d = fmax; d >= fmin; d -= 2) {
            long i1 = kvdf[d] < lim1 ? kvdf[d] : lim1;
            long i2 = i1 - d;
            if (lim2 < i2) {
                i1 = lim2 + d;
                i2 = lim2;
            }
            if (fbest < i1 + i2) {
                fbest = i1 + i2;
                fbest1 = i1;
            }
        }
        long bbest = LONG_MAX, bbest1 = LONG_MAX;
        for (long d = bmax; d >= bmin; d -= 2) {
            long i1 = kvdb[d] > off1 ? kvdb[d] : off1;
            long i2 = i1 - d;
            if (i2 < off2) {
                i1 = off2 + d;
                i2 = off2;
            }
            if (i1 + i2 < bbest) {
                bbest = i1 + i2;
                bbest1 = i1;
            }
        }
        if ((lim1 + lim2) - bbest < fbest - (off1 + off2))
            *sp = (split_point){fbest1, fbest - fbest1, 1, 0};
        else
            *sp = (split_point){bbest1, bbest - bbest1, 0, 1};
        return;
    }
}

static void mark(uint8_t *chg, const uint32_t *orig, long from, long to)
{
    for (long k = from; k < to; k++)
        chg[orig[k]] = 1;
}

void diff_myers_run(diff_env *env, uint32_t a0, uint32_t a1,
                    uint32_t b0, uint32_t b1)
{
    if (a0 == a1 || b0 == b1 || diff_spend(env, 0)) {
        diff_mark_all(env, a0, a1, b0, b1);
        return;
    }
    const size_t la = a1 - a0, lb = b1 - b0;
    uint32_t *cnt = env->class_cnt;

    /* Keep only the lines whose class occurs on the other side. */
    uint32_t *buf = g_new(uint32_t, 2 * (la + lb));
    uint32_t *x1 = buf, *i1 = buf + la, *x2 = buf + 2 * la, *i2 = x2 + lb;
    long n1 = 0, n2 = 0;
    for (uint32_t j = b0; j < b1; j++)
        cnt[env->cb[j]] = 1;
    for (uint32_t i = a0; i < a1; i++) {
        if (cnt[env->ca[i]]) {
            x1[n1] = env->ca[i];
            i1[n1++] = i;
        } else
            env->chg_a[i] = 1;
    }
    for (uint32_t j = b0; j < b1; j++)
        cnt[env->cb[j]] = 0;
    for (uint32_t i = a0; i < a1; i++)
        cnt[env->ca[i]] = 1;
    for (uint32_t j = b0; j < b1; j++) {
        if (cnt[env->cb[j]]) {
            x2[n2] = env->cb[j];
            i2[n2++] = j;
        } else
            env->chg_b[j] = 1;
    }
    for (uint32_t i = a0; i < a1; i++)
        cnt[env->ca[i]] = 0;
    diff_spend(env, 2 * (la + lb));

    long *kv = g_new(long, 2 * (size_t)(n1 + n2 + 3));
    myers m = {
        .x1 = x1, .x2 = x2,
        .kvdf = kv + n2 + 1,
        .kvdb = kv + (n1 + n2 + 3) + n2 + 1,
        .max_cost = env->max_cost,
        .env = env,
    };
    GArray *stack = g_array_new(FALSE, FALSE, sizeof(frame));
    frame top = {0, n1, 0, n2, 0};
    g_array_append_val(stack, top);
    while (stack->len > 0) {
        frame f = g_array_index(stack, frame, stack->len - 1);
        g_array_set_size(stack, stack->len - 1);
        while (f.off1 < f.lim1 && f.off2 < f.lim2 && x1[f.off1] == x2[f.off2]) {
            f.off1++;
            f.off2++;
        }
        while (f.off1 < f.lim1 && f.off2 < f.lim2 &&
               x1[f.lim1 - 1] == x2[f.lim2 - 1]) {
            f.lim1--;
            f.lim2--;
        }
        if (f.off1 == f.lim1 || f.off2 == f.lim2 || diff_spend(env, 1)) {
            mark(env->chg_a, i1, f.off1, f.lim1);
            mark(env->chg_b, i2, f.off2, f.lim2);
            continue;
        }
        split_point sp;
        find_split(&m, f.off1, f.lim1, f.off2, f.lim2, f.need_min, &sp);
        frame lo = {f.off1, sp.i1, f.off2, sp.i2, sp.min_lo};
        frame hi = {sp.i1, f.lim1, sp.i2, f.lim2, sp.min_hi};
        g_array_append_val(stack, hi);
        g_array_append_val(stack, lo);
    }
    g_array_free(stack, TRUE);
    g_free(kv);
    g_free(buf);
}
