/* budget.c - a diff's unified groups handed out up to a budget of lines
 * and bytes (tk_ir_diff_group_budget()), so that a pass that rewrites a
 * 2 GB module shows its start and says what it left out.
 *
 * The groups come from tk_diff_group() over the aligned hunks
 * (tk_ir_diff_aligned(): replaced lines paired by likeness); each is held until it is whole
 * (its hunks are a few words each), then walked in unified order: an
 * equal hunk's lines, a change's removed lines then its added lines.  Only
 * the lines handed out are looked at one by one (their lengths, from the
 * diff's line records; no text is read here); the rest is counted. */
#include <glib.h>
#include <string.h>

#include "timeline/internal.h"

typedef struct {
    const tk_ir_diff *d;
    tk_ir_diff_budget b;
    tk_diff_hunk_fn fn;
    void *user;
    tk_ir_diff_cut *cut;
    GArray *group; /* tk_hunk: the group being collected, GROUP first */
    GArray *out;   /* tk_hunk: what is handed out of it */
    uint64_t pos;  /* unified lines before the group being walked */
    int full;      /* the budget ran out */
    int rc;
} budgeter;

static uint64_t line_bytes(const budgeter *g, int side, uint32_t k)
{
    uint64_t n = tk_ir_diff_kept_len(g->d, side, k);
    if (g->b.max_line_bytes && n > g->b.max_line_bytes)
        n = g->b.max_line_bytes;
    return n;
}

/* Whether one more line of BYTES fits; counts it when it does. */
static int take(budgeter *g, uint64_t bytes)
{
    tk_ir_diff_cut *c = g->cut;
    if (c->lines_shown > 0 &&
        ((g->b.max_lines && c->lines_shown + 1 > g->b.max_lines) ||
         (g->b.max_bytes && c->bytes_shown + bytes > g->b.max_bytes))) {
        g->full = 1;
        return 0;
    }
    c->lines_shown++;
    c->bytes_shown += bytes;
    return 1;
}

/* Unified line I of hunk H: its side and kept line. */
static void line_of(const tk_hunk *h, uint32_t i, int *side, uint32_t *k)
{
    uint32_t na = h->a1 - h->a0;
    if (h->tag == TK_HUNK_EQUAL || i < na) {
        *side = TK_IR_A;
        *k = h->a0 + i;
    } else {
        *side = TK_IR_B;
        *k = h->b0 + (i - na);
    }
}

/* The part [S, E) of hunk H's unified lines, as a hunk. */
static tk_hunk part_of(const tk_hunk *h, uint32_t s, uint32_t e)
{
    tk_hunk o = *h;
    if (h->tag == TK_HUNK_EQUAL) {
        o.a0 = h->a0 + s;
        o.a1 = h->a0 + e;
        o.b0 = h->b0 + s;
        o.b1 = h->b0 + e;
        return o;
    }
    uint32_t na = h->a1 - h->a0;
    o.a0 = h->a0 + MIN(s, na);
    o.a1 = h->a0 + MIN(e, na);
    o.b0 = h->b0 + (s > na ? s - na : 0);
    o.b1 = h->b0 + (e > na ? e - na : 0);
    o.tag = o.a0 == o.a1 ? TK_HUNK_INSERT : o.b0 == o.b1 ? TK_HUNK_DELETE : TK_HUNK_REPLACE;
    return o;
}

static void count_left(budgeter *g, const tk_hunk *h, uint32_t from)
{
    uint32_t na = h->a1 - h->a0, nb = h->b1 - h->b0;
    uint32_t n = h->tag == TK_HUNK_EQUAL ? na : na + nb;
    if (from >= n)
        return;
    g->cut->lines_left += n - from;
    if (h->tag == TK_HUNK_EQUAL)
        return;
    g->cut->removed_left += from < na ? na - from : 0;
    g->cut->added_left += from < na ? nb : nb - (from - na);
}

static void count_skipped(budgeter *g, const tk_hunk *h, uint32_t to)
{
    uint32_t na = h->a1 - h->a0, nb = h->b1 - h->b0;
    g->cut->lines_skipped += to;
    if (h->tag == TK_HUNK_EQUAL)
        return;
    g->cut->removed_left += MIN(to, na);
    g->cut->added_left += to > na ? MIN(to - na, nb) : 0;
}

static void walk_group(budgeter *g)
{
    const tk_hunk *hs = (const tk_hunk *)g->group->data;
    guint n = g->group->len;
    if (n == 0)
        return;
    g->cut->groups++;
    g_array_set_size(g->out, 0);
    for (guint i = 1; i < n; i++) {
        const tk_hunk *h = &hs[i];
        uint32_t na = h->a1 - h->a0, nb = h->b1 - h->b0;
        uint32_t len = h->tag == TK_HUNK_EQUAL ? na : na + nb;
        if (g->full) {
            count_left(g, h, 0);
            g->pos += len;
            continue;
        }
        uint32_t s = 0;
        if (g->pos < g->b.first_line)
            s = (uint32_t)MIN((uint64_t)len, g->b.first_line - g->pos);
        count_skipped(g, h, s);
        uint32_t e = s;
        while (e < len) {
            int side;
            uint32_t k;
            line_of(h, e, &side, &k);
            if (!take(g, line_bytes(g, side, k)))
                break;
            e++;
        }
        if (e > s) {
            tk_hunk p = part_of(h, s, e);
            g_array_append_val(g->out, p);
        }
        if (e < len)
            count_left(g, h, e);
        g->pos += len;
    }
    if (g->out->len == 0)
        return;
    g->cut->groups_shown++;
    const tk_hunk *o = (const tk_hunk *)g->out->data;
    tk_hunk grp = {TK_HUNK_GROUP, o[0].a0, o[g->out->len - 1].a1, o[0].b0,
                   o[g->out->len - 1].b1};
    g->rc = g->fn(&grp, g->user);
    for (guint i = 0; i < g->out->len && !g->rc; i++)
        g->rc = g->fn(&o[i], g->user);
}

static int collect(const tk_hunk *h, void *user)
{
    budgeter *g = user;
    if (h->tag == TK_HUNK_GROUP) {
        walk_group(g);
        g_array_set_size(g->group, 0);
    }
    g_array_append_val(g->group, *h);
    return g->rc;
}

int tk_ir_diff_group_budget(const tk_ir_diff *d, const tk_ir_diff_budget *budget,
                            tk_diff_hunk_fn fn, void *user, tk_ir_diff_cut *cut)
{
    tk_ir_diff_cut local;
    budgeter g = {
        .d = d,
        .fn = fn,
        .user = user,
        .cut = cut ? cut : &local,
        .group = g_array_new(FALSE, FALSE, sizeof(tk_hunk)),
        .out = g_array_new(FALSE, FALSE, sizeof(tk_hunk)),
    };
    if (budget)
        g.b = *budget;
    else
        g.b.context = 3;
    memset(g.cut, 0, sizeof *g.cut);
    size_t nh;
    const tk_hunk *h = tk_ir_diff_aligned(d, &nh);
    int rc = tk_diff_group(h, nh, g.b.context, collect, &g);
    if (!rc) {
        walk_group(&g);
        rc = g.rc;
    }
    g.cut->cut = g.cut->lines_skipped > 0 || g.cut->lines_left > 0;
    g_array_free(g.group, TRUE);
    g_array_free(g.out, TRUE);
    return rc;
}

static int count_group(const tk_hunk *h, void *user)
{
    if (h->tag == TK_HUNK_GROUP)
        ++*(size_t *)user;
    return 0;
}

size_t tk_ir_diff_change_count(const tk_ir_diff *d)
{
    if (!d)
        return 0;
    size_t nh, n = 0;
    const tk_hunk *h = tk_ir_diff_aligned(d, &nh);
    tk_diff_group(h, nh, TK_DIFF_CONTEXT, count_group, &n);
    return n;
}
