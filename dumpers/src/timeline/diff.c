/* diff.c - tk_ir_diff: two texts, normalized and diffed once, kept as
 * line records with their hunks, so that a front end can show the
 * original lines (read back on demand) and their source locations.  A
 * diff handed out while a timeline is built borrows its texts from the
 * build's walker instead. */
#include <string.h>

#include "timeline/internal.h"

/* One side: its lines (records), their normalization and stacks. */
typedef struct {
    GArray *lines;         /* tl_line; the walker's in a borrowed diff */
    GArray *meta;          /* LLVM debug metadata it is bound with; NULL */
    tk_normalize *norm;    /* the walker's in a borrowed diff */
    tl_srcs srcs;          /* where its lines are read from */
    tl_reader reader;      /* tk_ir_diff_kept_line()'s buffer */
    char *mem;             /* its text (tk_ir_diff_texts), owned */
    const tk_stage *ext;   /* a stage with its stacks (tk_ir_diff_stages) */
    tl_kept *kept;         /* LINES, META and NORM are this kept text's */
    read_linemap own_map;  /* stacks read by tk_ir_diff_bind() */
    int have_own_map;
    const read_linemap *map;
} ir_side;

struct tk_ir_diff {
    tk_ir_dialect dialect;
    tk_stage_kind bind_as;
    char *name[2];
    ir_side side[2];
    /* copies of the timelines' parts, per side (a diff across two
     * timelines reads each side from its own): where lines are */
    tk_timeline_part *parts[2];
    int bound;
    tk_hunk *hunks;
    size_t n_hunks;
    /* tk_ir_diff_aligned()'s, made on its first call; always the diff's */
    tk_hunk *aligned;
    size_t n_aligned;
    int have_aligned;
    tk_diff_stats stats;
    /* Not NULL: lines, normalizations, stacks and hunks are the walker's
     * (tl_walker_diff); the names and read buffers are the diff's own. */
    tl_walker *walker;
};

static int collect(const tk_hunk *h, void *user)
{
    g_array_append_val((GArray *)user, *h);
    return 0;
}

/* Diffs the two normalized sides; frees D and returns NULL on failure. */
static tk_ir_diff *finish(tk_ir_diff *d, const tk_diff_opts *opts)
{
    for (int s = 0; s < 2; s++)
        if (!d->side[s].norm) {
            tk_ir_diff_free(d);
            return NULL;
        }
    GArray *h = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    if (tk_normalize_diff(d->side[0].norm, d->side[1].norm, opts, TK_NORMALIZE_DIFF_KEPT_LINES,
                          collect, h) != 0) {
        g_array_free(h, TRUE);
        tk_ir_diff_free(d);
        return NULL;
    }
    d->n_hunks = h->len;
    d->hunks = (tk_hunk *)g_array_free(h, FALSE);
    d->stats = tk_diff_stats_sum(d->hunks, d->n_hunks);
    return d;
}

static GArray *new_lines(void)
{
    return g_array_new(FALSE, FALSE, sizeof(tl_line));
}

tk_ir_diff *tk_ir_diff_texts(tk_ir_dialect dialect, tk_stage_kind bind_as,
                             const char *name_a, const char *a, size_t a_len,
                             const char *name_b, const char *b, size_t b_len,
                             const tk_diff_opts *opts)
{
    if (a_len > TEXT_MAX_BYTES || b_len > TEXT_MAX_BYTES)
        return NULL;
    tk_ir_diff *d = g_new0(tk_ir_diff, 1);
    d->dialect = dialect;
    d->bind_as = bind_as;
    d->name[0] = g_strdup(name_a ? name_a : "a");
    d->name[1] = g_strdup(name_b ? name_b : "b");
    const char *text[2] = {a, b};
    size_t len[2] = {a_len, b_len};
    for (int s = 0; s < 2; s++) {
        ir_side *x = &d->side[s];
        x->mem = g_memdup2(text[s] ? text[s] : "", len[s] + 1);
        x->lines = new_lines();
        tl_lines_of_memory(x->lines, x->mem, len[s], 0);
        x->srcs.mem = x->mem;
        x->srcs.mem_len = len[s];
        x->norm = tl_normalize_lines(x->lines, &x->srcs, &x->reader, dialect, d->name[s], NULL);
    }
    return finish(d, opts);
}

tk_ir_dialect tk_stage_kind_dialect(tk_stage_kind kind)
{
    switch (kind) {
    case TK_STAGE_TTIR:
    case TK_STAGE_TTGIR:
        return TK_IR_MLIR;
    case TK_STAGE_LLIR:
        return TK_IR_LLVM;
    case TK_STAGE_PTX:
        return TK_IR_PTX;
    case TK_STAGE_SASS:
        return TK_IR_SASS;
    default:
        return TK_IR_PLAIN;
    }
}

tk_ir_diff *tk_ir_diff_stages(const tk_stage *a, const tk_stage *b,
                              const tk_diff_opts *opts)
{
    if (!a || !b)
        return NULL;
    return tk_ir_diff_stages_as(a, b, tk_stage_kind_dialect(tk_stage_kind_of(a)),
                                opts);
}

tk_ir_diff *tk_ir_diff_stages_as(const tk_stage *a, const tk_stage *b,
                                 tk_ir_dialect dialect,
                                 const tk_diff_opts *opts)
{
    if (!a || !b || tk_stage_kind_of(a) != tk_stage_kind_of(b))
        return NULL;
    tk_ir_diff *d = g_new0(tk_ir_diff, 1);
    d->dialect = dialect;
    d->bind_as = tk_stage_kind_of(a);
    const tk_stage *st[2] = {a, b};
    for (int s = 0; s < 2; s++) {
        ir_side *x = &d->side[s];
        d->name[s] = g_strdup(tk_stage_path(st[s]));
        x->lines = new_lines();
        tl_lines_of_stage(x->lines, st[s]);
        x->srcs.stage = st[s];
        x->ext = st[s];
        x->norm = tl_normalize_lines(x->lines, &x->srcs, &x->reader, dialect, d->name[s], NULL);
    }
    d->bound = 1;
    return finish(d, opts);
}

tk_ir_diff *tl_walkers_take_diff(tl_walker *wa, int sa, tl_walker *wb, int sb,
                                 tk_stage_kind bind_as, char *name_a, char *name_b,
                                 const tk_diff_opts *opts)
{
    tk_ir_diff *d = g_new0(tk_ir_diff, 1);
    d->dialect = wa->side[sa].dialect;
    d->bind_as = bind_as;
    d->name[0] = name_a;
    d->name[1] = name_b;
    tl_walker *w[2] = {wa, wb};
    int from[2] = {sa, sb};
    for (int s = 0; s < 2; s++) {
        const tk_timeline *tl = w[s]->tl;
        ir_side *x = &d->side[s];
        d->parts[s] = g_memdup2(tl->parts, tl->n_parts * sizeof *tl->parts);
        x->meta = tl_walker_meta_for(w[s], from[s]);
        x->srcs = tl_walker_srcs(w[s], from[s]);
        x->srcs.parts = d->parts[s];
        x->srcs.res = NULL; /* the walker's, gone before this diff is */
        tl_walker_steal(w[s], from[s], &x->lines, &x->norm);
    }
    return finish(d, opts);
}

tk_ir_diff *tl_kept_take_diff(const tk_timeline *a, tl_kept *ka, const tk_timeline *b,
                              tl_kept *kb, tk_stage_kind bind_as, char *name_a,
                              char *name_b, const tk_diff_opts *opts)
{
    tk_ir_diff *d = g_new0(tk_ir_diff, 1);
    d->dialect = ka->dialect;
    d->bind_as = bind_as;
    d->name[0] = name_a;
    d->name[1] = name_b;
    const tk_timeline *tl[2] = {a, b};
    tl_kept *k[2] = {ka, kb};
    for (int s = 0; s < 2; s++) {
        ir_side *x = &d->side[s];
        d->parts[s] = g_memdup2(tl[s]->parts, tl[s]->n_parts * sizeof *tl[s]->parts);
        x->kept = k[s];
        x->lines = k[s]->lines;
        x->meta = k[s]->meta;
        x->norm = k[s]->norm;
        x->srcs = k[s]->srcs;
        x->srcs.parts = d->parts[s];
    }
    return finish(d, opts);
}

tk_ir_diff *tl_walker_take_diff(tl_walker *w, tk_stage_kind bind_as, char *name_a,
                                char *name_b, const tk_diff_opts *opts)
{
    return tl_walkers_take_diff(w, 0, w, 1, bind_as, name_a, name_b, opts);
}

tk_ir_diff *tl_walker_diff(tl_walker *w, const tk_timeline_entry *entry,
                           const tk_hunk *hunks, size_t n, tk_diff_stats stats)
{
    tk_ir_diff *d = g_new0(tk_ir_diff, 1);
    d->walker = w;
    d->dialect = w->side[0].dialect;
    d->bind_as = tl_bind_kind(entry);
    for (int s = 0; s < 2; s++) {
        tl_text *t = &w->side[s];
        ir_side *x = &d->side[s];
        d->name[s] = tk_timeline_side_describe(w->tl, &t->key);
        x->lines = t->lines;
        x->norm = t->norm;
        x->srcs = tl_walker_srcs(w, s);
    }
    d->hunks = (tk_hunk *)hunks;
    d->n_hunks = n;
    d->stats = stats;
    return d;
}

static void side_free(ir_side *x, int borrowed)
{
    tl_reader_clear(&x->reader);
    if (x->have_own_map)
        read_linemap_clear(&x->own_map);
    if (borrowed)
        return;
    if (x->kept) { /* its texts are the kept text's */
        tl_kept_unref(x->kept);
        return;
    }
    if (x->lines)
        g_array_unref(x->lines);
    if (x->meta)
        g_array_unref(x->meta);
    tk_normalize_free(x->norm);
    g_free(x->mem);
}

void tl_walker_diff_release(tk_ir_diff *d)
{
    if (!d)
        return;
    for (int s = 0; s < 2; s++) {
        g_free(d->name[s]);
        side_free(&d->side[s], 1);
    }
    g_free(d->aligned);
    g_free(d);
}

void tk_ir_diff_free(tk_ir_diff *d)
{
    if (!d || d->walker)
        return;
    for (int s = 0; s < 2; s++) {
        g_free(d->name[s]);
        side_free(&d->side[s], 0);
    }
    g_free(d->parts[0]);
    g_free(d->parts[1]);
    g_free(d->hunks);
    g_free(d->aligned);
    g_free(d);
}

tk_ir_dialect tk_ir_diff_dialect(const tk_ir_diff *d)
{
    return d->dialect;
}

const char *tk_ir_diff_name(const tk_ir_diff *d, int side)
{
    return d->name[side != 0];
}

tk_diff_stats tk_ir_diff_stats(const tk_ir_diff *d)
{
    return d->stats;
}

const tk_hunk *tk_ir_diff_hunks(const tk_ir_diff *d, size_t *n)
{
    *n = d->n_hunks;
    return d->hunks;
}

static const char *aligned_text(int side, uint32_t k, size_t *len, void *user)
{
    /* the start of the line is what tk_diff_align() reads */
    return tk_ir_diff_kept_head(user, side, k, 512, len, NULL);
}

const tk_hunk *tk_ir_diff_aligned(const tk_ir_diff *d, size_t *n)
{
    tk_ir_diff *m = (tk_ir_diff *)d; /* a cache; a diff is one thread's */
    if (!m->have_aligned) {
        m->aligned = tk_diff_align(d->hunks, d->n_hunks, aligned_text, m, &m->n_aligned);
        m->have_aligned = 1;
    }
    *n = d->n_aligned;
    return d->aligned;
}

const tk_normalize *tk_ir_diff_normalized(const tk_ir_diff *d, int side)
{
    return d->side[side != 0].norm;
}

uint32_t tk_ir_diff_kept_count(const tk_ir_diff *d, int side)
{
    return tk_normalize_input(d->side[side != 0].norm)->n;
}

/* The record of kept line K of side S, and its line number; NULL out of
 * range. */
static const tl_line *kept_rec(const tk_ir_diff *d, int s, uint32_t k, uint32_t *line)
{
    const ir_side *x = &d->side[s];
    if (k >= tk_normalize_input(x->norm)->n)
        return NULL;
    uint32_t orig = tk_normalize_orig_index(x->norm, k);
    if (orig >= x->lines->len)
        return NULL;
    if (line)
        *line = orig + 1;
    return &g_array_index(x->lines, tl_line, orig);
}

const char *tk_ir_diff_kept_line(const tk_ir_diff *d, int side, uint32_t k,
                                 size_t *len, uint32_t *line)
{
    return tk_ir_diff_kept_head(d, side, k, 0, len, line);
}

size_t tk_ir_diff_kept_len(const tk_ir_diff *d, int side, uint32_t k)
{
    const tl_line *l = kept_rec(d, side != 0, k, NULL);
    return l ? l->len : 0;
}

uint32_t tk_ir_diff_kept_number(const tk_ir_diff *d, int side, uint32_t k)
{
    uint32_t line = 0;
    return kept_rec(d, side != 0, k, &line) ? line : 0;
}

int tk_ir_diff_kept_equal(const tk_ir_diff *d, uint32_t ka, uint32_t kb)
{
    const tl_line *a = kept_rec(d, 0, ka, NULL), *b = kept_rec(d, 1, kb, NULL);
    return a && b && a->len == b->len && a->hash == b->hash;
}

const char *tk_ir_diff_kept_head(const tk_ir_diff *d, int side, uint32_t k,
                                 size_t max, size_t *len, uint32_t *line)
{
    int s = side != 0;
    uint32_t l = 0;
    const tl_line *rec = kept_rec(d, s, k, &l);
    if (!rec)
        return NULL;
    /* Reading back fills the side's buffer: the diff is const to its
     * user, not to itself. */
    ir_side *x = (ir_side *)&d->side[s];
    size_t n;
    const char *t = tl_reader_line(&x->reader, &x->srcs, rec, max, &n, NULL);
    if (!t)
        return NULL;
    if (max && n == max && n < rec->len) {
        /* Not in the middle of a UTF-8 sequence: back off its
         * continuation bytes (the byte after the cut is one) to its lead
         * byte, which goes too. */
        size_t back = 0;
        while (n > 0 && back < 3 && ((unsigned char)t[n] & 0xc0) == 0x80) {
            n--;
            back++;
        }
    }
    *len = n;
    if (line)
        *line = l;
    return t;
}

int tk_ir_diff_bind(tk_ir_diff *d, tk_loctab *tab, tk_diags *diags)
{
    if (d->bound)
        return 0;
    d->bound = 1;
    if (d->bind_as == TK_STAGE_UNKNOWN || d->bind_as >= TK_STAGE_COUNT)
        return 0;
    tk_diags *sink = diags ? diags : tk_diags_new();
    if (d->walker) {
        /* The walker reads each text's locations once (the text after one
         * pass is the text before the next); its problems go to SINK. */
        tl_walker *w = d->walker;
        tk_diags *build = w->diags;
        w->diags = sink;
        for (int s = 0; s < 2; s++)
            d->side[s].map = tl_walker_bind(w, s, d->bind_as, tab);
        w->diags = build;
    } else {
        for (int s = 0; s < 2; s++) {
            ir_side *x = &d->side[s];
            tl_feed f;
            tl_feed_init(&f, x->lines, x->meta, &x->srcs, &x->reader, d->name[s], sink);
            tl_read_locations(d->bind_as, &f, tab, &x->own_map, sink);
            x->have_own_map = 1;
            x->map = &x->own_map;
        }
    }
    if (sink != diags)
        tk_diags_free(sink);
    return 0;
}

size_t tk_ir_diff_line_stacks(const tk_ir_diff *d, int side, uint32_t line,
                              const tk_stack_id **ids)
{
    const ir_side *x = &d->side[side != 0];
    *ids = NULL;
    if (line == 0 || line > x->lines->len)
        return 0;
    if (x->ext)
        return tk_stage_line_stacks(x->ext, line, ids);
    if (!x->map)
        return 0;
    return read_linemap_get(x->map, line, ids);
}
