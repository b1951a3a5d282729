/* internal.h - what the diff algorithms share (internal).
 *
 * records.c turns both sides' lines into integer classes and trims the
 * common ends; an algorithm (histogram.c, myers.c) then marks the
 * lines of the middle region that are not part of its common subsequence, in
 * one "changed" byte per line and side; diff.c walks those marks and reports
 * hunks.  This is xdiff's split: records, one algorithm per file behind one
 * signature, the output built from the marks.
 */
#ifndef TKDUMP_DIFF_INTERNAL_H
#define TKDUMP_DIFF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tkdump/tk_diff.h"

/* Largest accepted side: indices and classes are 32-bit, with room for the
 * sentinels the algorithms use. */
#define DIFF_MAX_LINES (UINT32_MAX - 2u)

typedef struct {
    const uint32_t *ca, *cb; /* class per line, both sides */
    uint32_t na, nb;
    uint32_t n_classes;      /* classes are 0 .. n_classes-1 */
    uint8_t *chg_a, *chg_b;  /* 1 where a line is not matched */

    uint32_t max_cost;       /* Myers: steps of D per middle snake */
    uint64_t work;           /* steps spent so far */
    uint64_t max_work;       /* past it, regions are marked changed whole */

    /* Scratch the algorithms keep across regions (grown, never shrunk, freed
     * by diff_env_clear): per-class counters that must be all zero between
     * uses, and per-line arrays. */
    uint32_t *class_cnt;     /* n_classes entries */
    uint32_t *class_head;    /* n_classes entries */
    uint32_t *scratch;
    size_t scratch_cap;      /* entries */
} diff_env;

/* Each algorithm marks, in ENV's change arrays, the lines of the region
 * A[a0, a1) x B[b0, b1) that it leaves unmatched, such that the unmarked
 * lines of A and of B in the region are equal one to one, in order.  Lines
 * outside the region are not touched.  Never fails: out of budget, a region
 * is marked changed whole. */
void diff_histogram_run(diff_env *env, uint32_t a0, uint32_t a1,
                        uint32_t b0, uint32_t b1);
void diff_myers_run(diff_env *env, uint32_t a0, uint32_t a1,
                    uint32_t b0, uint32_t b1);

/* Marks the whole region changed (what both algorithms do when a side is
 * empty, and past the work budget). */
void diff_mark_all(diff_env *env, uint32_t a0, uint32_t a1, uint32_t b0,
                   uint32_t b1);

/* Whether the budget is spent; charges STEPS first. */
static inline int diff_spend(diff_env *env, uint64_t steps)
{
    env->work += steps;
    return env->work > env->max_work;
}

/* Scratch of N uint32 entries (contents undefined). */
uint32_t *diff_scratch(diff_env *env, size_t n);

/* Classes for both sides: equal lines (same bytes) get the same class, and
 * classes are numbered from 0 in order of first appearance, A first.  *CA
 * and *CB are new arrays (caller g_free()s); returns the number of classes.
 * The hashes are computed unless the inputs carry them. */
uint32_t diff_classify(const tk_diff_input *a, const tk_diff_input *b,
                       uint32_t **ca, uint32_t **cb);

/* Runs ALG over the classes and reports hunks to FN: the engine below
 * tk_diff(), for callers that have classes already. */
int diff_classes(const uint32_t *ca, uint32_t na, const uint32_t *cb,
                 uint32_t nb, uint32_t n_classes, const tk_diff_opts *opts,
                 tk_diff_hunk_fn fn, void *user);

#endif
