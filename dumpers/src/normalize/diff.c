/* diff.c - diffs of normalized dumps: the line diff, the check of
 * the values matched lines name, and hunks over the dumps' own lines.
 *
 * Normalized lines lose their value numbers, so `%5 = add %3, %4` and
 * `%7 = add %6, %4` compare equal; whether they are equal depends on whether
 * %3 of A is %6 of B.  After the line diff, the equal lines are walked in
 * order, pairing each value of A with the value of B in the same place the
 * first time either is seen; a line pair that contradicts an earlier pairing
 * is taken out of the equal hunk and reported as replaced.  Pairings are kept
 * one to one in both directions.  This is linear in the number of value
 * references, and it lets a value defined by a changed line (a load whose
 * type changed) pair at its first use, so its users stay equal.
 */
#include <glib.h>

#include "diff/internal.h"
#include "normalize/internal.h"

#define UNPAIRED UINT32_MAX

typedef struct {
    const tk_normalize *a, *b;
    uint32_t *ab, *ba;    /* value pairings, both directions */
    GArray *undo;         /* pairs made by the line being checked */
    GArray *out;          /* refined hunks, over kept lines */
} refiner;

/* Whether kept lines I of A and J of B name paired values; pairs the values
 * seen for the first time, and undoes that when the line does not match. */
static int names_match(refiner *r, uint32_t i, uint32_t j)
{
    const tk_normalize *a = r->a, *b = r->b;
    uint32_t na = a->ref_start[i + 1] - a->ref_start[i];
    uint32_t nb = b->ref_start[j + 1] - b->ref_start[j];
    if (na != nb)
        return 0;
    const uint32_t *ra = a->refs + a->ref_start[i];
    const uint32_t *rb = b->refs + b->ref_start[j];
    g_array_set_size(r->undo, 0);
    for (uint32_t k = 0; k < na; k++) {
        uint32_t x = ra[k], y = rb[k];
        if (r->ab[x] == y)
            continue;
        if (r->ab[x] == UNPAIRED && r->ba[y] == UNPAIRED) {
            r->ab[x] = y;
            r->ba[y] = x;
            g_array_append_val(r->undo, x);
            continue;
        }
        for (guint u = 0; u < r->undo->len; u++) {
            uint32_t ux = g_array_index(r->undo, uint32_t, u);
            r->ba[r->ab[ux]] = UNPAIRED;
            r->ab[ux] = UNPAIRED;
        }
        return 0;
    }
    return 1;
}

/* Appends a hunk, merging it into the last one when both are changes. */
static void push(GArray *out, tk_hunk h)
{
    if (h.a0 == h.a1 && h.b0 == h.b1)
        return;
    if (out->len > 0) {
        tk_hunk *last = &g_array_index(out, tk_hunk, out->len - 1);
        if (last->tag != TK_HUNK_EQUAL && h.tag != TK_HUNK_EQUAL) {
            last->a1 = h.a1;
            last->b1 = h.b1;
            last->tag = last->a0 == last->a1   ? TK_HUNK_INSERT
                        : last->b0 == last->b1 ? TK_HUNK_DELETE
                                               : TK_HUNK_REPLACE;
            return;
        }
    }
    g_array_append_val(out, h);
}

static int refine_hunk(const tk_hunk *h, void *user)
{
    refiner *r = user;
    if (h->tag != TK_HUNK_EQUAL) {
        push(r->out, *h);
        return 0;
    }
    uint32_t start = 0, len = h->a1 - h->a0;
    for (uint32_t k = 0; k < len; k++) {
        if (names_match(r, h->a0 + k, h->b0 + k))
            continue;
        push(r->out, (tk_hunk){TK_HUNK_EQUAL, h->a0 + start, h->a0 + k,
                               h->b0 + start, h->b0 + k});
        push(r->out, (tk_hunk){TK_HUNK_REPLACE, h->a0 + k, h->a0 + k + 1,
                               h->b0 + k, h->b0 + k + 1});
        start = k + 1;
    }
    push(r->out, (tk_hunk){TK_HUNK_EQUAL, h->a0 + start, h->a1, h->b0 + start,
                           h->b1});
    return 0;
}

/* The refined hunks over kept lines, or NULL when the diff was refused. */
static GArray *refined_hunks(const tk_normalize *a, const tk_normalize *b,
                             const tk_diff_opts *opts)
{
    refiner r = {
        .a = a, .b = b,
        .ab = g_new(uint32_t, (size_t)a->n_values + 1),
        .ba = g_new(uint32_t, (size_t)b->n_values + 1),
        .undo = g_array_new(FALSE, FALSE, sizeof(uint32_t)),
        .out = g_array_new(FALSE, FALSE, sizeof(tk_hunk)),
    };
    memset(r.ab, 0xff, ((size_t)a->n_values + 1) * sizeof(uint32_t));
    memset(r.ba, 0xff, ((size_t)b->n_values + 1) * sizeof(uint32_t));
    int rc = tk_diff_with(&a->input, &b->input, opts, refine_hunk, &r);
    g_free(r.ab);
    g_free(r.ba);
    g_array_free(r.undo, TRUE);
    if (rc != 0) {
        g_array_free(r.out, TRUE);
        return NULL;
    }
    return r.out;
}

/* Where, in the dump, hunk I starts on one side (K: the kept line it starts
 * at, PREV: where hunk I-1 started).  The ignored lines between kept lines
 * K-1 and K go to hunk I when it is equal, else to hunk I-1 (then equal:
 * hunks alternate).  Keeping the cuts monotonic hands the ignored lines
 * under an insert's empty side to the equal hunk before it. */
static uint32_t cut(const tk_normalize *n, uint32_t k, int to_this, uint32_t prev)
{
    uint32_t c;
    if (k == 0)
        c = 0;
    else if (k >= n->n_kept)
        c = n->n_orig;
    else
        c = to_this ? n->orig[k - 1] + 1 : n->orig[k];
    return c < prev ? prev : c;
}

int tk_normalize_diff(const tk_normalize *a, const tk_normalize *b, const tk_diff_opts *opts,
                      unsigned flags, tk_diff_hunk_fn fn, void *user)
{
    if (!a || !b || !fn)
        return -1;
    GArray *hunks = refined_hunks(a, b, opts);
    if (!hunks)
        return -1;
    const tk_hunk *h = (const tk_hunk *)hunks->data;
    const uint32_t n = hunks->len;
    int rc = 0;
    if (flags & TK_NORMALIZE_DIFF_KEPT_LINES) {
        for (uint32_t i = 0; i < n && !rc; i++)
            rc = fn(&h[i], user);
    } else if (n == 0) {
        /* No kept line on either side: only ignored lines, all equal. */
        tk_hunk e = {TK_HUNK_EQUAL, 0, a->n_orig, 0, b->n_orig};
        if (a->n_orig || b->n_orig)
            rc = fn(&e, user);
    } else {
        /* Leading and trailing ignored lines go to the first and last hunk. */
        uint32_t sa = 0, sb = 0;
        for (uint32_t i = 0; i < n && !rc; i++) {
            uint32_t ea = a->n_orig, eb = b->n_orig;
            if (i + 1 < n) {
                int eq = h[i + 1].tag == TK_HUNK_EQUAL;
                ea = cut(a, h[i + 1].a0, eq, sa);
                eb = cut(b, h[i + 1].b0, eq, sb);
            }
            tk_hunk o = {h[i].tag, sa, ea, sb, eb};
            /* A side made only of ignored lines (a dump with no kept line)
             * keeps the tag honest about the ranges. */
            if (o.tag != TK_HUNK_EQUAL)
                o.tag = o.a0 == o.a1   ? TK_HUNK_INSERT
                        : o.b0 == o.b1 ? TK_HUNK_DELETE
                                       : TK_HUNK_REPLACE;
            rc = fn(&o, user);
            sa = ea;
            sb = eb;
        }
    }
    g_array_free(hunks, TRUE);
    return rc;
}

tk_diff_stats tk_normalize_diff_stats(const tk_normalize *a, const tk_normalize *b,
                                      const tk_diff_opts *opts)
{
    tk_diff_stats s = {0};
    tk_normalize_diff(a, b, opts, TK_NORMALIZE_DIFF_KEPT_LINES, tk_diff_stats_add, &s);
    return s;
}
