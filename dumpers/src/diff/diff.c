/* diff.c - the diff entry points: classes, trimmed ends, one algorithm, and
 * hunks built from the algorithm's change marks (xdiff's xdiffi/xemit). */
#include <glib.h>
#include <string.h>

#include "diff/internal.h"

const char *tk_hunk_tag_name(tk_hunk_tag tag)
{
    switch (tag) {
    case TK_HUNK_EQUAL: return "equal";
    case TK_HUNK_DELETE: return "delete";
    case TK_HUNK_INSERT: return "insert";
    case TK_HUNK_REPLACE: return "replace";
    case TK_HUNK_GROUP: return "group";
    }
    return "unknown";
}

const char *tk_diff_algorithm_name(tk_diff_algorithm alg)
{
    return alg == TK_DIFF_MYERS ? "myers" : "histogram";
}

/* Walks the change marks.  Unmarked lines of A and B pair up one to one in
 * order (what every algorithm guarantees), so a run of unmarked lines on
 * both sides is an equal hunk and the marked lines between two such runs
 * form one delete, insert or replace. */
static int emit_hunks(const diff_env *env, tk_diff_hunk_fn fn, void *user)
{
    uint32_t i = 0, j = 0;
    const uint32_t na = env->na, nb = env->nb;
    while (i < na || j < nb) {
        tk_hunk h = {.a0 = i, .b0 = j};
        if (i < na && j < nb && !env->chg_a[i] && !env->chg_b[j]) {
            while (i < na && j < nb && !env->chg_a[i] && !env->chg_b[j]) {
                i++;
                j++;
            }
            h.tag = TK_HUNK_EQUAL;
        } else {
            while (i < na && env->chg_a[i])
                i++;
            while (j < nb && env->chg_b[j])
                j++;
            /* An unmarked line left on one side only would break the
             * pairing; it cannot happen, but if it did, reporting it as
             * changed keeps the hunks covering both sides. */
            if (i == h.a0 && j == h.b0) {
                if (i < na)
                    i++;
                else
                    j++;
            }
            h.tag = i == h.a0 ? TK_HUNK_INSERT
                    : j == h.b0 ? TK_HUNK_DELETE
                                : TK_HUNK_REPLACE;
        }
        h.a1 = i;
        h.b1 = j;
        int r = fn(&h, user);
        if (r)
            return r;
    }
    return 0;
}

int diff_classes(const uint32_t *ca, uint32_t na, const uint32_t *cb,
                 uint32_t nb, uint32_t n_classes, const tk_diff_opts *opts,
                 tk_diff_hunk_fn fn, void *user)
{
    tk_diff_opts o = opts ? *opts : (tk_diff_opts){0};
    diff_env env = {
        .ca = ca, .cb = cb, .na = na, .nb = nb, .n_classes = n_classes,
        .chg_a = g_new0(uint8_t, (size_t)na + 1),
        .chg_b = g_new0(uint8_t, (size_t)nb + 1),
    };
    uint64_t total = (uint64_t)na + nb;
    env.max_work = o.max_work ? o.max_work : 64 * total + (1u << 22);
    if (o.max_cost)
        env.max_cost = o.max_cost;
    else {
        uint32_t r = 1;
        while ((uint64_t)r * r < total + 3)
            r++;
        env.max_cost = r < 1024 ? 1024 : r;
    }

    /* Common ends never need an algorithm: most pass dumps differ in a few
     * places in the middle of a long module. */
    uint32_t p = 0;
    while (p < na && p < nb && ca[p] == cb[p])
        p++;
    uint32_t ea = na, eb = nb;
    while (ea > p && eb > p && ca[ea - 1] == cb[eb - 1]) {
        ea--;
        eb--;
    }
    if (ea > p || eb > p) {
        if (ea == p || eb == p)
            diff_mark_all(&env, p, ea, p, eb);
        else {
            env.class_cnt = g_new0(uint32_t, (size_t)n_classes + 1);
            env.class_head = g_new(uint32_t, (size_t)n_classes + 1);
            if (o.algorithm == TK_DIFF_MYERS)
                diff_myers_run(&env, p, ea, p, eb);
            else
                diff_histogram_run(&env, p, ea, p, eb);
        }
    }
    int r = emit_hunks(&env, fn, user);
    g_free(env.chg_a);
    g_free(env.chg_b);
    g_free(env.class_cnt);
    g_free(env.class_head);
    g_free(env.scratch);
    return r;
}

int tk_diff_with(const tk_diff_input *a, const tk_diff_input *b,
                 const tk_diff_opts *opts, tk_diff_hunk_fn fn, void *user)
{
    if (!a || !b || !fn || a->n >= DIFF_MAX_LINES ||
        b->n >= DIFF_MAX_LINES)
        return -1;
    uint32_t *ca, *cb;
    uint32_t n_classes = diff_classify(a, b, &ca, &cb);
    int r = diff_classes(ca, a->n, cb, b->n, n_classes, opts, fn, user);
    g_free(ca);
    g_free(cb);
    return r;
}

int tk_diff(const tk_diff_input *a, const tk_diff_input *b,
            tk_diff_algorithm alg, tk_diff_hunk_fn fn, void *user)
{
    tk_diff_opts o = {.algorithm = alg};
    return tk_diff_with(a, b, &o, fn, user);
}

static int collect_hunk(const tk_hunk *h, void *user)
{
    g_array_append_val((GArray *)user, *h);
    return 0;
}

tk_hunk *tk_diff_collect(const tk_diff_input *a, const tk_diff_input *b,
                         const tk_diff_opts *opts, size_t *n)
{
    GArray *arr = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    int r = tk_diff_with(a, b, opts, collect_hunk, arr);
    if (r != 0 || arr->len == 0) {
        g_array_free(arr, TRUE);
        *n = 0;
        return NULL;
    }
    *n = arr->len;
    return (tk_hunk *)g_array_free(arr, FALSE);
}

int tk_diff_stats_add(const tk_hunk *hunk, void *stats)
{
    tk_diff_stats *s = stats;
    if (hunk->tag == TK_HUNK_EQUAL || hunk->tag == TK_HUNK_GROUP)
        return 0;
    s->removed += hunk->a1 - hunk->a0;
    s->added += hunk->b1 - hunk->b0;
    s->changes++;
    return 0;
}

tk_diff_stats tk_diff_stats_sum(const tk_hunk *hunks, size_t n)
{
    tk_diff_stats s = {0};
    for (size_t i = 0; i < n; i++)
        tk_diff_stats_add(&hunks[i], &s);
    return s;
}

static uint32_t min_u32(uint32_t x, uint32_t y)
{
    return x < y ? x : y;
}

int tk_diff_group(const tk_hunk *hunks, size_t n, uint32_t context,
                  tk_diff_hunk_fn fn, void *user)
{
    size_t i = 0;
    while (i < n) {
        if (hunks[i].tag == TK_HUNK_EQUAL) {
            i++;
            continue;
        }
        /* hunks[i] starts a group; it ends at the first equal hunk longer
         * than 2 CONTEXT (or the last hunk). */
        size_t first = i, last = i;
        for (size_t k = i + 1; k < n; k++) {
            if (hunks[k].tag != TK_HUNK_EQUAL) {
                last = k;
                continue;
            }
            if (k + 1 < n && hunks[k].a1 - hunks[k].a0 <= 2 * (uint64_t)context)
                continue;
            break;
        }
        uint32_t lead = 0, trail = 0;
        if (first > 0)
            lead = min_u32(context, hunks[first - 1].a1 - hunks[first - 1].a0);
        if (last + 1 < n)
            trail = min_u32(context, hunks[last + 1].a1 - hunks[last + 1].a0);
        tk_hunk g = {
            .tag = TK_HUNK_GROUP,
            .a0 = hunks[first].a0 - lead, .b0 = hunks[first].b0 - lead,
            .a1 = hunks[last].a1 + trail, .b1 = hunks[last].b1 + trail,
        };
        int r = fn(&g, user);
        if (r)
            return r;
        if (lead) {
            tk_hunk h = {TK_HUNK_EQUAL, hunks[first].a0 - lead, hunks[first].a0,
                         hunks[first].b0 - lead, hunks[first].b0};
            if ((r = fn(&h, user)))
                return r;
        }
        for (size_t k = first; k <= last; k++)
            if ((r = fn(&hunks[k], user)))
                return r;
        if (trail) {
            tk_hunk h = {TK_HUNK_EQUAL, hunks[last].a1, hunks[last].a1 + trail,
                         hunks[last].b1, hunks[last].b1 + trail};
            if ((r = fn(&h, user)))
                return r;
        }
        i = last + 1;
    }
    return 0;
}
