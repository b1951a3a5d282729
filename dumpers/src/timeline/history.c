/* history.c - the pass history of one source line: which passes added or
 * removed IR whose inline stack names that line.
 *
 * One walk over the timeline, in order.  Only entries that changed
 * something are read; each text is streamed from its file, normalized and
 * its locations parsed once (the text after a pass is the text before the next one).  The lines a
 * pass removed are looked up in the text before it, the lines it added in the
 * text after it: a dump's lines carry their own locations, so an op that
 * moved keeps its source line on both sides.
 */
#include <string.h>

#include "timeline/internal.h"

struct tk_history {
    GArray *steps; /* tk_history_step */
    size_t read, unlocated;
};

typedef struct {
    const tk_loctab *tab;
    tk_file_pred pred;
    void *user;
    uint32_t line;
    tk_match match;
    GByteArray *file_ok; /* per file id: 0 not asked yet, 1 yes, 2 no */
} matcher;

static int file_ok(matcher *m, tk_file_id f)
{
    if (f >= m->file_ok->len) {
        guint old = m->file_ok->len;
        g_byte_array_set_size(m->file_ok, f + 1);
        memset(m->file_ok->data + old, 0, f + 1 - old);
    }
    if (m->file_ok->data[f] == 0)
        m->file_ok->data[f] = m->pred(m->tab, f, m->user) ? 1 : 2;
    return m->file_ok->data[f] == 1;
}

static int stack_hits(matcher *m, tk_stack_id id)
{
    size_t n;
    const tk_frame *fr = tk_loctab_stack_frames(m->tab, id, &n);
    if (m->match == TK_MATCH_EXACT && n > 1)
        n = 1;
    for (size_t i = 0; i < n; i++)
        if (fr[i].line == m->line && file_ok(m, fr[i].file))
            return 1;
    return 0;
}

typedef struct {
    matcher *m;
    const tk_normalize *norm[2];
    const read_linemap *map[2];
    uint32_t hits[2];
    int located;
} counter;

/* Whether kept line K of side S is bound to the line. */
static int kept_hits(counter *c, int s, uint32_t k)
{
    if (!c->map[s])
        return 0;
    uint32_t line = tk_normalize_orig_index(c->norm[s], k) + 1;
    const tk_stack_id *ids;
    size_t n = read_linemap_get(c->map[s], line, &ids);
    if (n)
        c->located = 1;
    for (size_t i = 0; i < n; i++)
        if (stack_hits(c->m, ids[i]))
            return 1;
    return 0;
}

static int count_hunk(const tk_hunk *h, void *user)
{
    counter *c = user;
    if (h->tag == TK_HUNK_EQUAL)
        return 0;
    for (uint32_t k = h->a0; k < h->a1; k++)
        c->hits[0] += (uint32_t)kept_hits(c, 0, k);
    for (uint32_t k = h->b0; k < h->b1; k++)
        c->hits[1] += (uint32_t)kept_hits(c, 1, k);
    return 0;
}

static void visit(tk_history *h, tl_walker *w, matcher *m, tk_loctab *tab,
                  const tk_timeline_entry *e, size_t pass, size_t sub,
                  const tk_diff_opts *opts)
{
    if (e->effect != TK_EFFECT_CHANGED)
        return;
    tk_ir_dialect d = tl_side_dialect(w->tl, e, &e->before);
    if (tl_walker_load(w, &e->before, &e->after, d) != 0)
        return;
    h->read++;
    tk_stage_kind kind = tl_bind_kind(e);
    counter c = {.m = m};
    for (int s = 0; s < 2; s++) {
        c.norm[s] = w->side[s].norm;
        c.map[s] = tl_walker_bind(w, s, kind, tab);
    }
    tk_normalize_diff(c.norm[0], c.norm[1], opts, TK_NORMALIZE_DIFF_KEPT_LINES, count_hunk, &c);
    if (!c.located)
        h->unlocated++;
    if (c.hits[0] || c.hits[1]) {
        tk_history_step st = {pass, sub, c.hits[0], c.hits[1]};
        g_array_append_val(h->steps, st);
    }
}

tk_history *tk_timeline_history(const tk_timeline *tl, tk_loctab *tab,
                                tk_file_pred file_pred, void *user,
                                uint32_t line, tk_match match,
                                const tk_diff_opts *opts, tk_diags *diags)
{
    tk_history *h = g_new0(tk_history, 1);
    h->steps = g_array_new(FALSE, FALSE, sizeof(tk_history_step));
    if (!tl || !tab || !file_pred)
        return h;
    matcher m = {tab, file_pred, user, line, match, g_byte_array_new()};
    tl_walker w;
    tl_walker_init(&w, tl, diags);
    if (!opts)
        opts = &tl->diff;
    for (size_t i = 0; i < tk_timeline_count(tl); i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        visit(h, &w, &m, tab, e, i, TK_TL_NONE, opts);
        for (size_t j = 0; j < e->n_substeps; j++)
            visit(h, &w, &m, tab, tk_timeline_substep(tl, i, j), i, j, opts);
    }
    tl_walker_clear(&w);
    g_byte_array_free(m.file_ok, TRUE);
    return h;
}

void tk_history_free(tk_history *h)
{
    if (!h)
        return;
    g_array_free(h->steps, TRUE);
    g_free(h);
}

size_t tk_history_count(const tk_history *h)
{
    return h->steps->len;
}

const tk_history_step *tk_history_get(const tk_history *h, size_t i)
{
    return i < h->steps->len ? &g_array_index(h->steps, tk_history_step, i) : NULL;
}

size_t tk_history_entries_read(const tk_history *h)
{
    return h->read;
}

size_t tk_history_entries_unlocated(const tk_history *h)
{
    return h->unlocated;
}
