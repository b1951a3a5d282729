/* histogram.c - histogram diff, as in JGit and git's xhistogram.c.
 *
 * For a region of A x B: count how often each line occurs in A's part (the
 * histogram), then for each line of B's part look up its occurrences in A,
 * grow each into the longest run of equal lines around it, and keep the run
 * whose rarest line is rarest (ties: the longer run).  That run is matched;
 * the regions before and after it are diffed the same way.  Unique lines (a
 * function signature, a rare op) become anchors, which is why a histogram
 * diff of IR reads better than a minimal one that pairs up "}" lines.
 *
 * Lines occurring more than MAX_CHAIN times in A's part are never used to
 * start a run (they would cost too much and anchor nothing).  A region whose
 * common lines are all that frequent goes to Myers; a region with no common
 * line at all is changed whole.  Regions wait on an explicit stack, so deep
 * splitting cannot overflow the C stack, and every step is charged to the
 * environment's work budget.
 */
#include <glib.h>
#include <string.h>

#include "diff/internal.h"

#define MAX_CHAIN 64
#define NONE UINT32_MAX

typedef struct {
    uint32_t a0, a1, b0, b1;
} region;

typedef struct {
    uint32_t as, ae, bs, be; /* matched run: A[as, ae) == B[bs, be) */
    uint32_t rarity;
    int found, has_common;
} lcs;

static void find_lcs(diff_env *env, const region *r, lcs *best)
{
    const uint32_t *ca = env->ca, *cb = env->cb;
    uint32_t *cnt = env->class_cnt, *head = env->class_head;
    uint32_t *next = diff_scratch(env, r->a1 - r->a0);
    const uint32_t a0 = r->a0, a1 = r->a1, b0 = r->b0, b1 = r->b1;

    /* Chains of A's occurrences per class, in increasing order. */
    for (uint32_t i = a1; i-- > a0;) {
        uint32_t c = ca[i];
        next[i - a0] = head[c];
        head[c] = i;
        cnt[c]++;
    }
    uint64_t steps = (uint64_t)(a1 - a0) * 2 + (b1 - b0);

    *best = (lcs){.rarity = MAX_CHAIN + 1};
    for (uint32_t j = b0; j < b1;) {
        uint32_t c = cb[j], jn = j + 1;
        if (cnt[c] == 0) {
            j = jn;
            continue;
        }
        best->has_common = 1;
        if (cnt[c] > MAX_CHAIN) {
            j = jn;
            continue;
        }
        for (uint32_t i = head[c]; i != NONE;) {
            uint32_t as = i, bs = j, ae = i + 1, be = j + 1;
            uint32_t rc = cnt[c];
            while (as > a0 && bs > b0 && ca[as - 1] == cb[bs - 1]) {
                as--;
                bs--;
                if (cnt[ca[as]] < rc)
                    rc = cnt[ca[as]];
            }
            while (ae < a1 && be < b1 && ca[ae] == cb[be]) {
                if (cnt[ca[ae]] < rc)
                    rc = cnt[ca[ae]];
                ae++;
                be++;
            }
            steps += 1 + (ae - as);
            /* B lines inside this run would only find it again. */
            if (jn < be)
                jn = be;
            if (rc < best->rarity ||
                (rc == best->rarity && ae - as > best->ae - best->as)) {
                best->as = as;
                best->ae = ae;
                best->bs = bs;
                best->be = be;
                best->rarity = rc;
                best->found = 1;
            }
            uint32_t ni = next[i - a0];
            while (ni != NONE && ni < ae)
                ni = next[ni - a0];
            i = ni;
        }
        j = jn;
    }

    for (uint32_t i = a0; i < a1; i++) {
        cnt[ca[i]] = 0;
        head[ca[i]] = NONE;
    }
    diff_spend(env, steps);
}

void diff_histogram_run(diff_env *env, uint32_t a0, uint32_t a1,
                        uint32_t b0, uint32_t b1)
{
    /* class_head must read NONE everywhere between uses. */
    memset(env->class_head, 0xff, (size_t)env->n_classes * sizeof(uint32_t));
    GArray *stack = g_array_new(FALSE, FALSE, sizeof(region));
    region top = {a0, a1, b0, b1};
    g_array_append_val(stack, top);
    while (stack->len > 0) {
        region r = g_array_index(stack, region, stack->len - 1);
        g_array_set_size(stack, stack->len - 1);
        while (r.a0 < r.a1 && r.b0 < r.b1 && env->ca[r.a0] == env->cb[r.b0]) {
            r.a0++;
            r.b0++;
        }
        while (r.a0 < r.a1 && r.b0 < r.b1 &&
               env->ca[r.a1 - 1] == env->cb[r.b1 - 1]) {
            r.a1--;
            r.b1--;
        }
        if (r.a0 == r.a1 || r.b0 == r.b1 || diff_spend(env, 1)) {
            diff_mark_all(env, r.a0, r.a1, r.b0, r.b1);
            continue;
        }
        lcs best;
        find_lcs(env, &r, &best);
        if (!best.found) {
            if (best.has_common)
                diff_myers_run(env, r.a0, r.a1, r.b0, r.b1);
            else
                diff_mark_all(env, r.a0, r.a1, r.b0, r.b1);
            continue;
        }
        region lo = {r.a0, best.as, r.b0, best.bs};
        region hi = {best.ae, r.a1, best.be, r.b1};
        g_array_append_val(stack, hi);
        g_array_append_val(stack, lo);
    }
    g_array_free(stack, TRUE);
}
