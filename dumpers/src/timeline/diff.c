/* diff.c - tk_ir_diff: two texts, normalized and diffed once, kept
 * with their hunks so that a front end can show the original lines (and
 * their source locations) of a unified diff.  A diff handed out while a
 * timeline is built borrows all of that from the build's walker instead. */
#include <string.h>

#include "timeline/internal.h"

struct tk_ir_diff {
    tk_ir_dialect dialect;
    tk_stage_kind bind_as;
    char *name[2];
    char *text[2];
    size_t len[2];
    char *meta[2];          /* appended when bound (LLVM function texts) */
    size_t meta_len[2];
    size_t *line_start[2];  /* n_lines + 1 offsets into TEXT */
    uint32_t n_lines[2];
    tk_normalize *norm[2];
    const tk_stage *ext[2]; /* borrowed stages (tk_ir_diff_stages) */
    tk_stage *own[2];       /* parsed by tk_ir_diff_bind */
    int bound;
    tk_hunk *hunks;
    size_t n_hunks;
    tk_diff_stats stats;
    /* Not NULL: texts, normalizations, line starts and hunks are the
     * walker's (tl_walker_diff); only the names are the diff's own. */
    tl_walker *walker;
};

/* Line starts as text_buf splits: at "\n", a last line without one counts. */
static void index_lines(tk_ir_diff *d, int s)
{
    const char *t = d->text[s];
    size_t len = d->len[s], n = 0;
    for (const char *p = t; (p = memchr(p, '\n', (size_t)(t + len - p))); p++)
        n++;
    if (len && t[len - 1] != '\n')
        n++;
    d->line_start[s] = g_new(size_t, n + 1);
    size_t k = 0, off = 0;
    while (k < n) {
        d->line_start[s][k++] = off;
        const char *e = memchr(t + off, '\n', len - off);
        off = e ? (size_t)(e - t) + 1 : len;
    }
    d->line_start[s][n] = len;
    d->n_lines[s] = (uint32_t)n;
}

static int collect(const tk_hunk *h, void *user)
{
    g_array_append_val((GArray *)user, *h);
    return 0;
}

/* Normalizes, diffs and indexes; frees D and returns NULL on failure. */
static tk_ir_diff *finish(tk_ir_diff *d, const tk_diff_opts *opts)
{
    for (int s = 0; s < 2; s++) {
        d->norm[s] = tk_normalize_new(d->dialect, d->text[s], d->len[s]);
        if (!d->norm[s]) {
            tk_ir_diff_free(d);
            return NULL;
        }
        index_lines(d, s);
    }
    GArray *h = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    if (tk_normalize_diff(d->norm[0], d->norm[1], opts, TK_NORMALIZE_DIFF_KEPT_LINES,
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

tk_ir_diff *tl_ir_diff_take(tk_ir_dialect dialect, tk_stage_kind bind_as,
                            char *name_a, char *a, size_t a_len, char *meta_a,
                            size_t meta_a_len, char *name_b, char *b,
                            size_t b_len, char *meta_b, size_t meta_b_len,
                            const tk_diff_opts *opts)
{
    tk_ir_diff *d = g_new0(tk_ir_diff, 1);
    d->dialect = dialect;
    d->bind_as = bind_as;
    d->name[0] = name_a;
    d->name[1] = name_b;
    d->text[0] = a;
    d->text[1] = b;
    d->len[0] = a_len;
    d->len[1] = b_len;
    d->meta[0] = meta_a;
    d->meta[1] = meta_b;
    d->meta_len[0] = meta_a_len;
    d->meta_len[1] = meta_b_len;
    return finish(d, opts);
}

tk_ir_diff *tk_ir_diff_texts(tk_ir_dialect dialect, tk_stage_kind bind_as,
                             const char *name_a, const char *a, size_t a_len,
                             const char *name_b, const char *b, size_t b_len,
                             const tk_diff_opts *opts)
{
    return tl_ir_diff_take(dialect, bind_as, g_strdup(name_a ? name_a : "a"),
                           g_memdup2(a ? a : "", a_len), a_len, NULL, 0,
                           g_strdup(name_b ? name_b : "b"),
                           g_memdup2(b ? b : "", b_len), b_len, NULL, 0, opts);
}

static char *stage_text(const tk_stage *st, size_t *len)
{
    GString *s = g_string_sized_new(tk_stage_size(st) + 1);
    for (uint32_t l = 1; l <= tk_stage_line_count(st); l++) {
        size_t n;
        const char *line = tk_stage_line(st, l, &n);
        g_string_append_len(s, line, (gssize)n);
        g_string_append_c(s, '\n');
    }
    *len = s->len;
    return g_string_free(s, FALSE);
}

tk_ir_diff *tk_ir_diff_stages(const tk_stage *a, const tk_stage *b,
                              const tk_diff_opts *opts)
{
    if (!a || !b || tk_stage_kind_of(a) != tk_stage_kind_of(b))
        return NULL;
    tk_ir_dialect dialect;
    switch (tk_stage_kind_of(a)) {
    case TK_STAGE_TTIR:
    case TK_STAGE_TTGIR:
        dialect = TK_IR_MLIR;
        break;
    case TK_STAGE_LLIR:
        dialect = TK_IR_LLVM;
        break;
    default:
        dialect = TK_IR_PLAIN;
        break;
    }
    tk_ir_diff *d = g_new0(tk_ir_diff, 1);
    d->dialect = dialect;
    d->bind_as = tk_stage_kind_of(a);
    d->name[0] = g_strdup(tk_stage_path(a));
    d->name[1] = g_strdup(tk_stage_path(b));
    d->text[0] = stage_text(a, &d->len[0]);
    d->text[1] = stage_text(b, &d->len[1]);
    d->ext[0] = a;
    d->ext[1] = b;
    d->bound = 1;
    return finish(d, opts);
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
        d->name[s] = tk_timeline_side_describe(w->tl, &t->key);
        d->text[s] = t->buf;
        d->len[s] = t->len;
        d->norm[s] = t->norm;
        d->line_start[s] = (size_t *)tl_walker_lines(w, s, &d->n_lines[s]);
    }
    d->hunks = (tk_hunk *)hunks;
    d->n_hunks = n;
    d->stats = stats;
    return d;
}

void tl_walker_diff_release(tk_ir_diff *d)
{
    if (!d)
        return;
    g_free(d->name[0]);
    g_free(d->name[1]);
    g_free(d);
}

void tk_ir_diff_free(tk_ir_diff *d)
{
    if (!d || d->walker)
        return;
    for (int s = 0; s < 2; s++) {
        g_free(d->name[s]);
        g_free(d->text[s]);
        g_free(d->meta[s]);
        g_free(d->line_start[s]);
        tk_normalize_free(d->norm[s]);
        tk_stage_free(d->own[s]);
    }
    g_free(d->hunks);
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

const tk_normalize *tk_ir_diff_normalized(const tk_ir_diff *d, int side)
{
    return d->norm[side != 0];
}

uint32_t tk_ir_diff_kept_count(const tk_ir_diff *d, int side)
{
    return tk_normalize_input(d->norm[side != 0])->n;
}

const char *tk_ir_diff_kept_line(const tk_ir_diff *d, int side, uint32_t k,
                                 size_t *len, uint32_t *line)
{
    int s = side != 0;
    if (k >= tk_normalize_input(d->norm[s])->n)
        return NULL;
    uint32_t orig = tk_normalize_orig_index(d->norm[s], k);
    if (orig >= d->n_lines[s])
        return NULL;
    const char *t = d->text[s] + d->line_start[s][orig];
    size_t n = d->line_start[s][orig + 1] - d->line_start[s][orig];
    if (n && t[n - 1] == '\n')
        n--;
    if (n && t[n - 1] == '\r')
        n--;
    *len = n;
    if (line)
        *line = orig + 1;
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
        for (int s = 0; s < 2; s++) {
            d->ext[s] = tl_walker_bind(w, s, d->bind_as, tab);
            d->text[s] = w->side[s].buf; /* appending metadata may move it */
        }
        w->diags = build;
        if (sink != diags)
            tk_diags_free(sink);
        return 0;
    }
    for (int s = 0; s < 2; s++) {
        if (d->meta[s]) {
            GString *t = g_string_sized_new(d->len[s] + d->meta_len[s] + 2);
            g_string_append_len(t, d->text[s], (gssize)d->len[s]);
            if (d->len[s] && d->text[s][d->len[s] - 1] != '\n')
                g_string_append_c(t, '\n');
            g_string_append_len(t, d->meta[s], (gssize)d->meta_len[s]);
            d->own[s] = tk_stage_parse(d->bind_as, d->name[s], t->str, t->len, tab, sink);
            g_string_free(t, TRUE);
        } else {
            d->own[s] = tk_stage_parse(d->bind_as, d->name[s], d->text[s], d->len[s],
                                       tab, sink);
        }
    }
    if (sink != diags)
        tk_diags_free(sink);
    return 0;
}

size_t tk_ir_diff_line_stacks(const tk_ir_diff *d, int side, uint32_t line,
                              const tk_stack_id **ids)
{
    int s = side != 0;
    const tk_stage *st = d->ext[s] ? d->ext[s] : d->own[s];
    if (!st || line == 0 || line > d->n_lines[s]) {
        *ids = NULL;
        return 0;
    }
    return tk_stage_line_stacks(st, line, ids);
}
