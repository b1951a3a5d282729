/* configs.c - every compile of a kernel side by side (tk_configs.h): the
 * groups by name, a row per compile, the winner, each row's first
 * divergence from it, and the source line x compile matrix. */
#include "configs/internal.h"

#include <string.h>

#include "tkdump/tk_bind.h"
#include "tkdump/tk_compare.h"
#include "tkdump/tk_configs.h"
#include "tkdump/tk_timeline.h"

typedef struct {
    tk_configs_group g;
    GArray *rows;   /* tk_configs_row */
    GArray *lines;  /* tk_configs_line */
    GPtrArray *own; /* strings and count arrays */
} group;

struct tk_configs {
    tk_bundle *bundle; /* borrowed */
    GArray *groups;    /* group */
    int timings;
};

/* Row R's first divergence from the winner W (the fastest compile when
 * an extern kernel won: EXT), in words. */
static char *divergence(tk_bundle *b, const tk_kernel *w, const tk_kernel *k,
                        gboolean ext)
{
    if (k == w)
        return g_strdup(ext ? "(fastest compile)" : "(winner)");
    tk_diags *quiet = tk_diags_new();
    tk_compare *cmp = tk_compare_build(b, w, b, k, NULL, quiet);
    tk_diags_free(quiet);
    size_t f = cmp ? tk_compare_first_divergence(cmp, NULL) : TK_COMPARE_NONE;
    char *out;
    if (!cmp || !tk_compare_timeline(cmp, 0) || !tk_compare_timeline(cmp, 1))
        out = g_strdup("- (no pass dumps)");
    else if (f == TK_COMPARE_NONE)
        out = g_strdup("none: every pass the same");
    else {
        const tk_compare_row *cr = tk_compare_row_get(cmp, f);
        out = g_strdup_printf("%s (%s)%s", cr->name, tk_pass_level_name(cr->level),
                              cr->input == TK_COMPARE_DIFFERENT
                                  ? ", the IR before it differs already"
                                  : "");
    }
    tk_compare_free(cmp);
    return out;
}

/* Key of a matrix line: file id and line in one 64-bit number. */
static guint64 line_key(tk_file_id f, uint32_t l)
{
    return ((guint64)(uint32_t)f << 32) | l;
}

static gint line_cmp(gconstpointer a, gconstpointer b)
{
    const tk_configs_line *x = a, *y = b;
    int c = g_strcmp0(x->path, y->path);
    if (c)
        return c;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Row R's SASS counts and its column of the matrix (KEYS: line key ->
 * index + 1 in G->lines). */
static void add_sass(group *g, size_t r, size_t n_rows, tk_loctab *tab, GHashTable *keys)
{
    tk_configs_row *row = &g_array_index(g->rows, tk_configs_row, r);
    if (!tk_kernel_stage(row->kernel, TK_STAGE_SASS))
        return;
    tk_bind *ix = tk_bind_new(row->kernel, tab);
    tk_cost *cost = tk_cost_new(ix, row->kernel, tab, NULL);
    row->has_sass = 1;
    const double *t = tk_cost_total(cost);
    for (int s = 0; s <= TK_SASS_CLASS_COUNT; s++)
        row->sass[s] = t[s];
    const tk_cost_line *lines;
    size_t n = tk_cost_source_lines(cost, &lines);
    for (size_t i = 0; i < n; i++) {
        if (!lines[i].exact[0])
            continue; /* only a caller of inlined code */
        guint64 *key = g_new(guint64, 1);
        *key = line_key(lines[i].file, lines[i].line);
        size_t at = GPOINTER_TO_SIZE(g_hash_table_lookup(keys, key));
        if (!at) {
            uint32_t *col = g_new0(uint32_t, n_rows);
            g_ptr_array_add(g->own, col);
            tk_configs_line l = {lines[i].file, tk_loctab_file_path(tab, lines[i].file),
                                 lines[i].line, col};
            g_array_append_val(g->lines, l);
            at = g->lines->len;
            g_hash_table_insert(keys, key, GSIZE_TO_POINTER(at));
        } else {
            g_free(key);
        }
        ((uint32_t *)g_array_index(g->lines, tk_configs_line, at - 1).sass)[r] =
            (uint32_t)lines[i].exact[0];
    }
    tk_cost_free(cost);
    tk_bind_free(ix);
}

static void build_group(tk_configs *out, tk_bundle *b, const char *name, tk_config **apart,
                        const configs_timings *tm)
{
    group g = {0};
    g.rows = g_array_new(FALSE, TRUE, sizeof(tk_configs_row));
    g.lines = g_array_new(FALSE, TRUE, sizeof(tk_configs_line));
    g.own = g_ptr_array_new_with_free_func(g_free);
    size_t n = tk_bundle_kernel_count(b);
    for (size_t k = 0; k < n; k++) {
        const tk_kernel *kk = tk_bundle_kernel(b, k);
        if (strcmp(tk_kernel_name(kk), name) != 0)
            continue;
        tk_configs_row r = {.kernel = kk, .index = k};
        char *label = tk_config_label(apart[k]);
        g_ptr_array_add(g.own, label);
        r.apart = label;
        tk_config *c = tk_config_read(b, kk, NULL);
        r.has_ms = configs_timings_of(tm, c, name, &r.ms);
        tk_config_free(c);
        g_array_append_val(g.rows, r);
    }
    g.g.winner = -1;
    for (guint r = 0; r < g.rows->len; r++) {
        const tk_configs_row *x = &g_array_index(g.rows, tk_configs_row, r);
        if (x->has_ms &&
            (g.g.winner < 0 || x->ms < g_array_index(g.rows, tk_configs_row, g.g.winner).ms))
            g.g.winner = r;
    }
    /* An extern kernel (aten's mm) faster than every compile: it won. */
    double ext_ms = 0;
    char *ext = g.g.winner >= 0 ? configs_timings_extern(tm, name, &ext_ms) : NULL;
    if (ext && ext_ms < g_array_index(g.rows, tk_configs_row, g.g.winner).ms) {
        g_ptr_array_add(g.own, ext);
        g.g.extern_winner = ext;
        g.g.extern_ms = ext_ms;
    } else {
        g_free(ext);
    }
    GHashTable *keys = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    tk_loctab *tab = tk_bundle_loctab(b);
    for (guint r = 0; r < g.rows->len; r++) {
        tk_configs_row *x = &g_array_index(g.rows, tk_configs_row, r);
        add_sass(&g, r, g.rows->len, tab, keys);
        if ((ptrdiff_t)r == g.g.winner && !g.g.extern_winner)
            x->winner = 1;
    }
    g_hash_table_destroy(keys);
    g_array_sort(g.lines, line_cmp);
    g.g.name = name;
    g_array_append_val(out->groups, g);
}

tk_configs *tk_configs_new(tk_bundle *b, const char *only, const char *timings,
                           tk_diags *diags)
{
    tk_configs *out = g_new0(tk_configs, 1);
    out->bundle = b;
    out->groups = g_array_new(FALSE, TRUE, sizeof(group));
    configs_timings *tm = configs_timings_read(timings, diags);
    out->timings = tm != NULL;
    size_t n = tk_bundle_kernel_count(b);
    tk_config **apart = tk_config_apart_all(b, NULL);
    GHashTable *done = g_hash_table_new(g_str_hash, g_str_equal);
    for (size_t i = 0; i < n; i++) {
        const char *name = tk_kernel_name(tk_bundle_kernel(b, i));
        if ((only && strcmp(name, only) != 0) || g_hash_table_contains(done, name))
            continue;
        g_hash_table_add(done, (gpointer)name);
        size_t count = 0;
        for (size_t k = i; k < n; k++)
            count += strcmp(tk_kernel_name(tk_bundle_kernel(b, k)), name) == 0;
        if (count >= 2 || only)
            build_group(out, b, name, apart, tm);
    }
    g_hash_table_destroy(done);
    for (size_t i = 0; i < n; i++)
        tk_config_free(apart[i]);
    g_free(apart);
    configs_timings_free(tm);
    /* the arrays stop growing: the groups' views point into them now */
    for (guint i = 0; i < out->groups->len; i++) {
        group *g = &g_array_index(out->groups, group, i);
        g->g.n_rows = g->rows->len;
        g->g.rows = (const tk_configs_row *)g->rows->data;
        g->g.n_lines = g->lines->len;
        g->g.lines = (const tk_configs_line *)g->lines->data;
    }
    return out;
}

int tk_configs_diverge(tk_configs *c, size_t gi, size_t r)
{
    if (!c || gi >= c->groups->len)
        return 0;
    group *g = &g_array_index(c->groups, group, gi);
    if (g->g.winner < 0 || r >= g->rows->len)
        return 0;
    tk_configs_row *x = &g_array_index(g->rows, tk_configs_row, r);
    if (x->diverge)
        return 0;
    char *d = divergence(c->bundle, g->g.rows[g->g.winner].kernel, x->kernel,
                         g->g.extern_winner != NULL);
    g_ptr_array_add(g->own, d);
    x->diverge = d;
    return 1;
}

tk_configs *tk_configs_build(tk_bundle *b, const char *only, const char *timings,
                             tk_diags *diags)
{
    tk_configs *c = tk_configs_new(b, only, timings, diags);
    for (size_t gi = 0; gi < tk_configs_group_count(c); gi++)
        for (size_t r = 0; r < tk_configs_group_get(c, gi)->n_rows; r++)
            tk_configs_diverge(c, gi, r);
    return c;
}

void tk_configs_free(tk_configs *c)
{
    if (!c)
        return;
    for (guint i = 0; i < c->groups->len; i++) {
        group *g = &g_array_index(c->groups, group, i);
        g_array_free(g->rows, TRUE);
        g_array_free(g->lines, TRUE);
        g_ptr_array_free(g->own, TRUE);
    }
    g_array_free(c->groups, TRUE);
    g_free(c);
}

size_t tk_configs_group_count(const tk_configs *c)
{
    return c ? c->groups->len : 0;
}

const tk_configs_group *tk_configs_group_get(const tk_configs *c, size_t i)
{
    if (!c || i >= c->groups->len)
        return NULL;
    return &g_array_index(c->groups, group, i).g;
}

int tk_configs_have_timings(const tk_configs *c)
{
    return c && c->timings;
}
